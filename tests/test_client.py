"""Sioul's side of the verdict (`sioul_tray.client`) and `sioul-tray may` / `run`, on real files
and real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sioul_tray import client
from sioul_tray.boot import boot_id, boot_ticks
from sioul_tray.lease import PARTS
from tests.helpers import python_env, run_python


def status_doc(
    acting: bool = True,
    left: float = 60.0,
    token: str | None = "desk_1234.77",
    must_have: dict[str, int] | None = None,
    wrote: object = 4,
    **top: Any,
) -> dict[str, Any]:
    """A status.json as the tray writes it (docs/integration.md), acting on invoices."""
    part = {
        "acting": acting,
        "valid_until": int(time.time() + left) if acting else None,
        "valid_until_boot": round(boot_ticks() + left, 3) if acting else None,
        "token": token if acting else None,
        "must_have": must_have or {},
        "wrote": wrote,
        "status": {"why": "acting" if acting else "nobody"},
        "line": "Invoices: here" if acting else "Invoices: here, waiting for Laptop",
    }
    doc = {"schema": 3, "computer": "desk_1234", "pid": os.getpid(), "boot": boot_id(),
           "running": True, "at": int(time.time()),
           "parts": {"invoices": part, "medicines": dict(part, acting=False)}}  # fmt: skip
    doc.update(top)
    return doc


def write(state: Path, doc: dict[str, Any] | str) -> None:
    state.mkdir(parents=True, exist_ok=True)
    (state / "status.json").write_text(doc if isinstance(doc, str) else json.dumps(doc))


def test_the_parts_are_the_leases() -> None:
    assert tuple(PARTS) == client.PARTS


def test_a_verdict_that_holds(tmp_path: Path) -> None:
    write(tmp_path, status_doc(must_have={"laptop_9": 41}))
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
        write(tmp_path, doc)
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


def may(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", *args],
        capture_output=True, text=True, timeout=60,
        env=python_env(SIOUL_TRAY_HOME=str(home)),
    )  # fmt: skip


def test_may_from_the_command_line(tmp_path: Path) -> None:
    write(tmp_path / "state", status_doc(must_have={"laptop_9": 41}))
    done = may(tmp_path, "may", "invoices")
    assert done.returncode == 0, done.stderr
    assert "token desk_1234.77" in done.stdout and "laptop_9 up to 41" in done.stdout
    done = may(tmp_path, "may", "invoices", "--json")
    assert json.loads(done.stdout)["may"] is True and done.returncode == 0
    write(tmp_path / "state", status_doc(left=-5))
    done = may(tmp_path, "may", "invoices")
    assert done.returncode == 1 and "not renewed its verdict" in done.stderr
    write(tmp_path / "state", status_doc(acting=False))
    done = may(tmp_path, "may", "invoices")
    assert done.returncode == 1 and done.stderr == "Invoices: here, waiting for Laptop\n"
    done = may(tmp_path, "may", "spoons")
    assert done.returncode == 2


def test_may_waits_for_the_verdict(tmp_path: Path) -> None:
    write(tmp_path / "state", status_doc(acting=False))
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "may", "invoices", "--wait", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None  # still waiting
    write(tmp_path / "state", status_doc())
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert "token desk_1234.77" in out
    done = may(tmp_path, "may", "medicines", "--wait", "0.5")
    assert done.returncode == 1


def test_run_gives_the_command_its_verdict_and_its_exit_code(tmp_path: Path) -> None:
    write(tmp_path / "state", status_doc(must_have={"laptop_9": 41}))
    script = (
        "import os; print(os.environ['SIOUL_LEASE_TOKEN'], os.environ['SIOUL_LEASE_MUST_HAVE']);"
        "raise SystemExit(7)"
    )
    done = may(tmp_path, "run", "invoices", "--", sys.executable, "-c", script)
    assert done.returncode == 7, done.stderr
    assert done.stdout.split(maxsplit=1) == ["desk_1234.77", '{"laptop_9": 41}\n']
    write(tmp_path / "state", status_doc(acting=False))
    done = may(tmp_path, "run", "invoices", "--", sys.executable, "-c", "print('ran')")
    assert done.returncode == 1 and "ran" not in done.stdout


@pytest.mark.parametrize("loss", ["lapses", "taken elsewhere", "new tenure"])
def test_run_stops_the_command_when_the_verdict_is_lost(tmp_path: Path, loss: str) -> None:
    write(tmp_path / "state", status_doc(left=4 if loss == "lapses" else 60))
    began = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--", "sleep", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None
    if loss == "taken elsewhere":
        write(tmp_path / "state", status_doc(acting=False))
    elif loss == "new tenure":
        write(tmp_path / "state", status_doc(token="desk_1234.78"))
    _, err = child.communicate(timeout=30)
    assert child.returncode == 3, err
    assert "stopped sleep" in err
    assert time.monotonic() - began < 15  # SIGTERM at once: `sleep` ends on it


def test_run_waits_before_its_command_and_leaves_the_command_s_words_alone(
    tmp_path: Path,
) -> None:
    write(tmp_path / "state", status_doc(acting=False))
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--wait", "20", "--",
         sys.executable, "-c", "import sys; print(sys.argv[1:])", "--wait", "x"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None  # waiting for the verdict, not given up
    write(tmp_path / "state", status_doc())
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert out.strip() == "['--wait', 'x']"
    assert may(tmp_path, "run", "invoices").returncode == 2  # no command after --
