"""This computer's name and id."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from sioul_tray.ids import COMPUTER_ID
from sioul_tray.lease import host_name
from sioul_tray.lease.host import _linux_machine_id, _pretty_hostname, machine_id, new_computer_id
from tests.helpers import python_env, run_python


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("MacBook-Air", "macbook_air"),
        ("Anna's MacBook Air", "anna_s_macbook_air"),
        ("Café Übersee", "cafe_ubersee"),
        ("", "computer"),
        ("日本", "computer"),
        ("x" * 200, "x" * 58),
    ],
)
def test_computer_ids(name: str, base: str) -> None:
    made = new_computer_id(name)
    assert COMPUTER_ID.fullmatch(made)
    assert made.rsplit("_", 1)[0] == base and len(made.rsplit("_", 1)[1]) == 4


def test_two_same_names_get_two_ids() -> None:
    assert len({new_computer_id("MacBook-Air") for _ in range(20)}) > 1


@pytest.mark.parametrize(
    ("content", "name"),
    [
        ('PRETTY_HOSTNAME="Anna\'s Laptop"\nCHASSIS=laptop\n', "Anna's Laptop"),
        ("PRETTY_HOSTNAME=Office\n", "Office"),
        ("CHASSIS=desktop\n", ""),
    ],
)
def test_pretty_hostname(tmp_path: Path, content: str, name: str) -> None:
    info = tmp_path / "machine-info"
    info.write_text(content)
    assert _pretty_hostname(str(info)) == name


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs: POSIX")
def test_a_machine_info_that_does_not_read_is_no_name(tmp_path: Path) -> None:
    # Not UTF-8 was a UnicodeDecodeError out of host_name; a FIFO hung it.
    info = tmp_path / "machine-info"
    info.write_bytes(b"PRETTY_HOSTNAME=Caf\xe9\n")
    assert _pretty_hostname(str(info)) == ""
    info.unlink()
    os.mkfifo(info)
    assert _pretty_hostname(str(info)) == ""


def test_host_name_is_asked_once() -> None:
    assert host_name() and host_name() is host_name()


def test_the_machine_id_is_systemds_else_dbuss(tmp_path: Path) -> None:
    etc, dbus = tmp_path / "etc-machine-id", tmp_path / "dbus-machine-id"
    paths = (str(etc), str(dbus))
    assert _linux_machine_id(paths) is None  # neither there
    dbus.write_bytes(b"0123456789abcdef0123456789abcdef\n")
    assert _linux_machine_id(paths) == b"0123456789abcdef0123456789abcdef"
    etc.write_bytes(b"uninitialized\n")  # systemd's first boot: names no machine yet
    assert _linux_machine_id(paths) == b"0123456789abcdef0123456789abcdef"
    etc.write_bytes(b"fedcba9876543210fedcba9876543210\n")
    assert _linux_machine_id(paths) == b"fedcba9876543210fedcba9876543210"


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/etc/machine-id").exists(),
    reason="a Linux machine id: /etc/machine-id",
)
def test_this_machine_has_an_id() -> None:
    assert machine_id() == Path("/etc/machine-id").read_bytes().strip()


def test_started_is_when_the_process_first_asked() -> None:
    from sioul_tray.desktop.idle import session_start
    from sioul_tray.lease import started

    first = started()
    assert isinstance(first, int) and first <= time.time()
    assert started() == first == session_start()  # the tray's session start is the same time


def test_the_first_lease_of_a_process_asks_it(tmp_path: Path) -> None:
    probe = (
        "import time\n"
        "from sioul_tray.lease import Lease, started\n"
        "from sioul_tray.share import Share\n"
        f"share = Share.create({str(tmp_path)!r}, 'correct horse', 'aa', cost=10)\n"
        "before = int(time.time())\n"
        "Lease(share, 'aa')\n"
        "time.sleep(2.5)\n"
        "print(started() - before)\n"
    )
    # Asked by the lease (0 or 1 s after `before`), not at the print, 2.5 s later.
    assert run_python(probe, python_env()) in (["0"], ["1"])
