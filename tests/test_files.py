"""`files.read_bounded`: every file this program reads, read with a bound, on real files, links,
FIFOs and devices. What a peer or a damaged disk puts in the way is refused before any read, in
one line naming the file: never a hang, never the memory of the whole file."""

from __future__ import annotations

import os
import resource
import socket
import time
from pathlib import Path

import pytest

from sioul_tray import i18n
from sioul_tray.files import LINK, NOT_A_FILE, TOO_LARGE, NotReadable, read_bounded

posix_only = pytest.mark.skipif(os.name == "nt", reason="links, FIFOs and devices: POSIX")


def refused(path: Path, cap: int = 4096, *, follow: bool = False) -> NotReadable:
    with pytest.raises(NotReadable) as found:
        read_bounded(path, cap, follow=follow)
    assert "\n" not in i18n.message(found.value)  # one line
    assert str(path) in i18n.message(found.value)  # naming the file
    return found.value


def test_a_regular_file_within_its_cap_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "status.json"
    path.write_bytes(b"x" * 4096)
    assert read_bounded(path, 4096) == b"x" * 4096
    (tmp_path / "empty").write_bytes(b"")
    assert read_bounded(tmp_path / "empty", 10) == b""


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "nothing", 10)


def test_one_byte_over_the_cap_is_too_large(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_bytes(b"x" * 4097)
    found = refused(path)
    assert found.kind == TOO_LARGE
    assert i18n.message(found) == f"{path} is too large (4097 bytes, at most 4096): not read"


def test_a_sparse_2_gb_file_is_refused_by_its_size_without_reading(tmp_path: Path) -> None:
    path = tmp_path / "sioul.seal"
    with open(path, "wb") as f:
        f.truncate(2 << 30)  # sparse: no disk used, 2 GB of zeros to whoever reads it
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    assert refused(path).kind == TOO_LARGE
    assert time.perf_counter() - began < 0.5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 16 * 1024  # KiB


@posix_only
def test_a_link_is_refused_even_to_a_good_file(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(b"{}")
    link = tmp_path / "settings.json"
    link.symlink_to(good)
    found = refused(link)
    assert found.kind == LINK
    assert i18n.message(found) == f"{link} is a link, not a file: not read (remove it)"
    assert read_bounded(link, 10, follow=True) == b"{}"  # where a link is the person's choice


@posix_only
def test_a_link_to_dev_zero_fails_at_once_without_reading(tmp_path: Path) -> None:
    link = tmp_path / "sioul.seal"
    link.symlink_to("/dev/zero")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert refused(link, 8192).kind == LINK
    # Followed (a path the person gave): still refused, as a device, before any read.
    found = refused(link, 8192, follow=True)
    assert found.kind == NOT_A_FILE
    assert i18n.message(found) == f"{link} is a device, not a file: not read (remove it)"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 16 * 1024


@posix_only
def test_a_fifo_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "closed.json"
    os.mkfifo(fifo)
    began = time.perf_counter()
    found = refused(fifo)
    assert time.perf_counter() - began < 1.0
    assert found.kind == NOT_A_FILE
    assert i18n.message(found) == f"{fifo} is a FIFO, not a file: not read (remove it)"


@posix_only
def test_a_folder_and_a_socket_are_not_files(tmp_path: Path) -> None:
    (tmp_path / "history.json").mkdir()
    assert "is a folder, not a file" in i18n.message(refused(tmp_path / "history.json"))
    where = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(where))
        assert "is a socket, not a file" in i18n.message(refused(where))


@posix_only
def test_a_file_it_may_not_read_is_one_line_of_ours(tmp_path: Path) -> None:
    if os.getuid() == 0:
        pytest.skip("root reads every file")
    path = tmp_path / "computer"
    path.write_bytes(b"desk_1234\n")
    path.chmod(0)
    found = refused(path)
    assert i18n.message(found) == f"cannot read {path}: {os.strerror(13)}"
