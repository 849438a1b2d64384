"""Sioul's side of the verdict (`sioul_tray.client`), on real status files; `sioul-tray may` and
`run` over it are in tests/test_may.py."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from sioul_tray import client
from sioul_tray.boot import boot_id, boot_ticks
from sioul_tray.lease import PARTS
from tests.helpers import plant, python_env, run_python, status_doc, write_status

posix_only = pytest.mark.skipif(os.name == "nt", reason="owners, links and FIFOs: POSIX")


def test_the_parts_are_the_leases() -> None:
    assert tuple(PARTS) == client.PARTS


def test_a_verdict_that_holds(tmp_path: Path) -> None:
    write_status(tmp_path, status_doc(must_have={"laptop_9": 41}))
    found = client.verdict("invoices", tmp_path)
    assert found and found.reason == client.ACTING
    assert found.token == "desk_1234.77" and dict(found.must_have) == {"laptop_9": 41}
    assert found.wrote == 4
    assert 55 < found.left() <= 60
    assert not client.verdict("medicines", tmp_path)


@pytest.mark.parametrize(
    ("doc", "reason"),
    [
        (None, client.NO_TRAY),
        ("{not json", client.DAMAGED),
        ("[1, 2]", client.DAMAGED),
        ("x" * (client.MAX_SIZE + 1), client.DAMAGED),
        (status_doc(schema=1), client.OLD_TRAY),
        (status_doc(schema=2), client.OLD_TRAY),  # its tray takes a mark without acting
        (status_doc(running=False), client.STOPPED),
        (status_doc(pid=2**22 + 12345), client.GONE),
        (status_doc(boot="another boot"), client.OTHER_BOOT),
        (status_doc(acting=False), client.NOT_ACTING),
        (status_doc(left=-1), client.LAPSED),
        (status_doc(token=None), client.DAMAGED),
        (status_doc(must_have={"laptop_9": "41"}), client.DAMAGED),  # type: ignore[dict-item]
        (status_doc(wrote=None), client.DAMAGED),
        (status_doc(wrote=-1), client.DAMAGED),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None,
)
def test_every_other_status_says_no_with_its_reason(
    tmp_path: Path, doc: dict[str, Any] | str | None, reason: str
) -> None:
    if reason == client.OTHER_BOOT and boot_id() is None:
        pytest.skip("this system names no boot: the wall clock alone tells boots apart")
    if doc is not None:
        write_status(tmp_path, doc)
    found = client.verdict("invoices", tmp_path)
    assert not found and found.reason == reason and found.left() == 0


def test_a_verdict_lapses_on_either_clock(tmp_path: Path) -> None:
    doc = status_doc(left=30)
    assert client.judge("invoices", doc)
    # The wall clock set forward, or the boot clock past its bound (a tray asleep or stopped).
    assert not client.judge("invoices", doc, now=time.time() + 31)
    assert not client.judge("invoices", doc, ticks=boot_ticks() + 31)
    # A wall clock set back does not stretch it: the boot clock still ends it.
    assert not client.judge("invoices", doc, now=time.time() - 3600, ticks=boot_ticks() + 31)


def test_the_client_imports_nothing_heavy() -> None:
    code = (
        "import sys; import sioul_tray.client; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'cryptography', 'platformdirs') or m.startswith('sioul_tray.lease')))"
    )
    assert run_python(code, python_env()) == ["[]"]


# -- a status.json that is not this user's tray's -------------------------------------------------


def another_users(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`path` as another user's: given to nobody (65534) where this test runs as root, else this
    user's files seen from another uid (the check compares the owner with `os.getuid`)."""
    if os.getuid() == 0:
        os.chown(path, 65534, 65534)
    else:
        me = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: me + 1)


@posix_only
@pytest.mark.parametrize("whose", ["the folder", "the file"])
def test_a_status_another_user_owns_is_never_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whose: str
) -> None:
    """Pointed at another user's state folder, `may` said yes with that user's forged token."""
    state = tmp_path / "state"
    write_status(state, status_doc())
    assert client.verdict("invoices", state)
    another_users(state if whose == "the folder" else state / "status.json", monkeypatch)
    found = client.verdict("invoices", state)
    assert not found and found.reason == client.NOT_MINE and found.token is None


@posix_only
def test_a_state_folder_that_is_a_link_is_not_trusted(tmp_path: Path) -> None:
    write_status(tmp_path / "elsewhere", status_doc())
    (tmp_path / "state").symlink_to(tmp_path / "elsewhere")
    assert client.verdict("invoices", tmp_path / "state").reason == client.NOT_MINE


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "link", "sparse 2 GB", "nested"])
def test_a_status_that_is_no_file_is_damaged_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "status.json"
    write_status(tmp_path / "elsewhere", status_doc())
    plant(path, kind, tmp_path / "elsewhere" / "status.json")
    began = time.perf_counter()
    assert client.verdict("invoices", tmp_path).reason == client.DAMAGED
    assert time.perf_counter() - began < 0.5
