"""Reading a part's folder: one read per claim file, and the careful read when that falls short."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sioul_tray.files import write_atomic
from sioul_tray.lease import Lease
from sioul_tray.lease import folder as folder_module
from sioul_tray.lease.folder import (
    MAX_READ,
    Entry,
    Problem,
    read_folder,
    read_whole,
    scan,
)
from sioul_tray.lease.overlay import FolderOverlay
from sioul_tray.share import Share
from tests.lease.leasekit import T0, FakeClock, make_share, part_folder

PART = "invoices"


def short_reads(monkeypatch: pytest.MonkeyPatch, most: int) -> list[int]:
    """Every os.read in the folder module gives at most `most` bytes, as some file systems do.

    Returns the sizes asked for, to see how many reads a file took.
    """
    real_read = os.read
    asked: list[int] = []

    def read(fd: int, n: int) -> bytes:
        asked.append(n)
        return real_read(fd, min(n, most))

    monkeypatch.setattr(os, "read", read)  # the folder module reads through os.read
    return asked


def test_scan_gives_each_claim_file_its_bytes_and_every_other_file_a_reason(
    tmp_path: Path,
) -> None:
    (tmp_path / "alpha.lease").write_bytes(b"x" * 200)
    (tmp_path / "empty.lease").write_bytes(b"")
    (tmp_path / "huge.lease").write_bytes(b"x" * (MAX_READ + 1))
    (tmp_path / "notes.txt").write_bytes(b"hello")
    (tmp_path / "sub.lease").mkdir()
    entries = {e.name: e for e in scan(tmp_path)}
    assert entries["alpha.lease"].data == b"x" * 200
    assert entries["alpha.lease"].problem is None
    assert entries["empty.lease"].problem == "empty: still syncing"
    assert entries["huge.lease"].problem == f"too large ({MAX_READ + 1} bytes)"
    assert entries["notes.txt"].problem == "not a claim"
    assert entries["sub.lease"].problem == "a folder, not a file"
    assert all(e.data is None for n, e in entries.items() if n != "alpha.lease")


def test_the_read_a_tick_makes_has_the_claim_files_apart_as_plain_pairs(tmp_path: Path) -> None:
    # What `Lease` reads at every tick: scan's answer, with the claim files as (name, bytes).
    for name in ("alpha.lease", "bravo.lease"):
        (tmp_path / name).write_bytes(name.encode() * 10)
    (tmp_path / "notes.txt").write_bytes(b"hello")
    (tmp_path / "empty.lease").write_bytes(b"")
    claims, others = read_folder(tmp_path)
    assert sorted(claims) == [(n, n.encode() * 10) for n in ("alpha.lease", "bravo.lease")]
    assert all(type(c) is tuple for c in claims)
    assert sorted((e.name, e.problem) for e in others) == [
        ("empty.lease", "empty: still syncing"),
        ("notes.txt", "not a claim"),
    ]
    assert sorted(scan(tmp_path)) == sorted([*(Entry(n, d) for n, d in claims), *others])
    assert read_folder(tmp_path, careful=True) == (claims, others)
    assert read_folder(tmp_path / "nowhere") == ([], [])


def test_a_second_scan_says_the_same_of_each_name_and_what_each_file_is_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The scan remembers which names are claim names (not what the files are), within a bound.
    monkeypatch.setattr(folder_module, "MAX_KNOWN_NAMES", 2)
    for name in ("alpha.lease", "bravo.lease", "charlie.lease", "Delta.lease"):
        (tmp_path / name).write_bytes(b"x" * 200)
    first = {e.name: e for e in scan(tmp_path)}
    (tmp_path / "bravo.lease").unlink()
    (tmp_path / "bravo.lease").mkdir()
    second = {e.name: e for e in scan(tmp_path)}
    assert first["Delta.lease"].problem == second["Delta.lease"].problem == "not a claim file name"
    assert first["bravo.lease"].data == b"x" * 200
    assert second["bravo.lease"].problem == "a folder, not a file"
    assert first["alpha.lease"] == second["alpha.lease"]
    assert len(folder_module._CLAIM_NAMES) <= 2 + 3  # emptied past the bound, then one scan's


def test_a_missing_folder_is_no_entries(tmp_path: Path) -> None:
    assert scan(tmp_path / "nowhere") == []


def test_read_whole_reads_on_to_the_end_of_a_short_reading_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "alpha.lease"
    path.write_bytes(bytes(range(256)))
    asked = short_reads(monkeypatch, 100)
    assert scan(tmp_path)[0].data == bytes(range(100))  # one read: all a local disk needs
    asked.clear()
    entry = read_whole(path)
    assert entry.data == bytes(range(256))
    assert len(asked) == 4  # 100 + 100 + 56, then the empty read that says it ended


def test_read_whole_says_too_large_and_empty(tmp_path: Path) -> None:
    (tmp_path / "huge.lease").write_bytes(b"x" * 5000)
    (tmp_path / "empty.lease").write_bytes(b"")
    assert read_whole(tmp_path / "huge.lease").problem == "too large (5000 bytes)"
    assert read_whole(tmp_path / "empty.lease").problem == "empty: still syncing"
    assert read_whole(tmp_path / "gone.lease").problem == "vanished while reading"


@pytest.mark.skipif(os.name == "nt", reason="FIFOs and links: POSIX")
def test_read_whole_refuses_what_is_no_file_at_once_with_the_scans_words(tmp_path: Path) -> None:
    # The careful path reads through the program's one bounded reader (files.read_bounded).
    os.mkfifo(tmp_path / "fifo.lease")  # would block a read without O_NONBLOCK
    (tmp_path / "link.lease").symlink_to("/dev/zero")  # would be read for ever if followed
    got = {name: read_whole(tmp_path / name).problem for name in os.listdir(tmp_path)}
    assert got == {"fifo.lease": "not a regular file", "link.lease": "a link, not a file"}
    assert read_folder(tmp_path, careful=True)[0] == []


def test_a_claim_read_short_is_read_again_whole_and_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    share = make_share(tmp_path / "share")
    clock = FakeClock(T0)
    Lease(share, "bravo", name="Bravo", clock=clock).renew(PART)
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    size = (part_folder(share, PART) / "bravo.lease").stat().st_size
    asked = short_reads(monkeypatch, 64)
    assert size > 64
    assert {c.computer for c in alpha.claims(PART)} == {"bravo"}
    assert alpha.problems(PART) == []
    assert len(asked) > 2  # the first read fell short, and the claim was read again
    # The next read gives the same short bytes, and the claim still counts.
    assert {c.computer for c in alpha.claims(PART)} == {"bravo"}
    assert alpha.problems(PART) == []


def test_an_overlay_reads_its_files_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    share = make_share(tmp_path / "share")
    clock = FakeClock(T0)
    overlay = FolderOverlay(tmp_path / "overlay", name="server")
    Lease(share, "bravo", name="Bravo", clock=clock, overlays=[overlay]).renew(PART)
    # bravo's claim now only on the overlay: the folder's copy is gone.
    (part_folder(share, PART) / "bravo.lease").unlink()
    short_reads(monkeypatch, 50)
    alpha = Lease(share, "alpha", name="Alpha", clock=clock, overlays=[overlay])
    assert {c.computer for c in alpha.claims(PART)} == {"bravo"}
    assert alpha.problems(PART) == []


def test_an_unchanged_claim_file_is_not_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    share = make_share(tmp_path / "share")
    clock = FakeClock(T0)
    bravo = Lease(share, "bravo", name="Bravo", clock=clock)
    bravo.renew(PART)
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    alpha.claims(PART)
    opened: list[str] = []
    real_unseal = share.unseal

    def unseal(relpath: str, data: bytes) -> Any:
        opened.append(relpath)
        return real_unseal(relpath, data)

    monkeypatch.setattr(share, "unseal", unseal)
    alpha.claims(PART)
    assert opened == []  # same bytes: the same write, nothing to open
    # A new write (here, one that is not a claim) is opened.
    path = part_folder(share, PART) / "bravo.lease"
    write_atomic(path, share.seal(f"leases/{PART}/bravo.lease", b"x"))
    alpha.claims(PART)
    assert opened == [f"leases/{PART}/bravo.lease"]
    assert [n for n, _ in alpha.problems(PART)] == ["bravo.lease"]


@pytest.fixture(scope="module")
def three_claims(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Share]:
    share = make_share(tmp_path_factory.mktemp("short") / "share")
    clock = FakeClock(T0)
    for computer in ("alpha", "bravo", "charlie"):
        lease = Lease(share, computer, name=computer.title(), clock=clock)
        lease.renew(PART, take=computer == "bravo")
        lease.renew("medicines")
    yield share


@given(sizes=st.lists(st.integers(1, 300), min_size=1, max_size=8))
def test_however_reads_are_split_a_lease_reads_the_same_claims(
    three_claims: Share, sizes: list[int]
) -> None:
    share = three_claims
    clock = FakeClock(T0 + 30)
    whole = Lease(share, "reader", name="Reader", clock=clock)
    expected = {part: whole.look(part) for part in ("medicines", PART)}
    real_read = os.read
    calls = itertools.cycle(sizes)

    def split_read(fd: int, n: int) -> bytes:  # a file system that gives what it likes
        return real_read(fd, min(n, next(calls)))

    with mock.patch.object(os, "read", split_read):
        split = Lease(share, "reader", name="Reader", clock=clock)
        for part, keeper in expected.items():
            assert split.look(part) == keeper
            assert split.problems(part) == []
            assert {c.computer for c in split.claims(part)} == {"alpha", "bravo", "charlie"}


# What sync tools leave beside claims (field notes), and whether it goes by itself.
LEFT_BESIDE = {
    ".~laptop.1a2b3c4d.tmp": True,  # our own write under way
    ".syncthing.laptop.lease.tmp": True,
    "~syncthing~laptop.lease.tmp": True,
    ".laptop.lease.icloud": True,
    ".laptop.lease.~3f2a": True,  # Nextcloud
    "laptop.lease.part": True,
    ".DS_Store": True,
    "laptop.sync-conflict-20261201-101010-ABCDEFG.lease": False,
    "laptop (Desk's conflicted copy 2026-12-01).lease": False,
    "laptop_conflict-20261201-101010.lease": False,
    "laptop 2.lease": False,
    "laptop-DESK.lease": False,
    "Laptop.lease": False,
}


def test_what_passes_by_itself_is_said_by_the_read(tmp_path: Path) -> None:
    share = make_share(tmp_path)
    folder = part_folder(share, PART)
    folder.mkdir(parents=True)
    for name in LEFT_BESIDE:
        (folder / name).write_bytes(b"{")
    (folder / "empty.lease").write_bytes(b"")  # made by the sync tool, not filled yet
    lease = Lease(share, "alpha", clock=FakeClock(T0))
    lease.look(PART)
    seen = {p.file: p.passing for p in lease.last_read(PART).problems}
    assert seen == {**LEFT_BESIDE, "empty.lease": True}
    # The contract's view of the same read: (file, reason) pairs.
    assert lease.problems(PART) == [(p.file, p.reason) for p in lease.last_read(PART).problems]
    assert Problem.of("x.lease", "not a Sioul claim").passing is False


def _atime_after_reading(path: Path, read: Any) -> tuple[int, int]:
    """(access time before, after) `read(path)`, the file's access time set before its change."""
    st = path.stat()
    os.utime(path, ns=(st.st_mtime_ns - 10**9, st.st_mtime_ns))  # read before it last changed
    before = path.stat().st_atime_ns
    read(path)
    return before, path.stat().st_atime_ns


def test_reading_the_claims_writes_nothing_back_to_the_disk(tmp_path: Path) -> None:
    # With relatime, the first read after a change writes the file's access time: one inode
    # written back per claim at every tick. The scan asks the system not to (O_NOATIME).
    folder = tmp_path / "leases" / PART
    folder.mkdir(parents=True)
    control, claim = folder / "control.bin", folder / "bravo.lease"
    control.write_bytes(b"x" * 100)
    claim.write_bytes(b"x" * 100)
    before, after = _atime_after_reading(control, lambda p: p.read_bytes())
    if before == after:
        pytest.skip("this file system does not update access times on reading (noatime)")
    for read in (lambda p: scan(p.parent), read_whole):
        before, after = _atime_after_reading(claim, read)
        assert after == before
