"""Helpers shared by the tests: a hand-moved clock, a claim builder, the tray's status file,
waiting for a condition, and skipping (or failing, in CI) where a part of the desktop is missing."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sioul_tray.boot import boot_id, boot_ticks
from sioul_tray.lease import Claim


def plant(path: Path, kind: str, target: Path | str = "/dev/zero") -> None:
    """Put at `path` what a peer or a damaged disk can put where a file is read: "fifo" (a read
    waits for ever), "sparse 2 GB" (2 GB that take no room), "nested" (brackets beyond any
    recursion) or a kind starting with "link" (to `target`: /dev/zero never ends)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "sparse 2 GB":
        with open(path, "wb") as f:
            f.truncate(2 << 30)
    elif kind == "nested":
        path.write_bytes(b"[" * 100_000)
    elif kind.startswith("link"):
        path.symlink_to(target)
    else:
        raise ValueError(f"no such kind: {kind}")


T0 = 1_750_000_000.0  # a plausible "now" (June 2025), far from the codec's limits


class FakeClock:
    """A clock the test moves by hand: several computers with their own clocks in one process."""

    def __init__(self, now: float = T0) -> None:
        self.now = float(now)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Present:
    """A person always at this computer: the idle source the tray tests inject."""

    name = "test idle"
    known = True

    def active(self, now: float) -> int:
        return int(now)


NOW = 1_000_000


def claim(computer: str = "aa", **fields: object) -> Claim:
    base = Claim(
        computer=computer,
        part="invoices",
        name=computer.upper(),
        seq=1,
        since=NOW - 1000,
        renewed=NOW,
        active=NOW,
        taken=None,
        closed=False,
        wrote=0,
        sees=None,
        forgets={},
    )
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


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
        "line": "Invoices: here" if acting else "Invoices: no computer keeps them",
    }
    doc = {"schema": 3, "computer": "desk_1234", "pid": os.getpid(), "boot": boot_id(),
           "running": True, "at": int(time.time()),
           "parts": {"invoices": part, "medicines": dict(part, acting=False)}}  # fmt: skip
    doc.update(top)
    return doc


def write_status(state: Path, doc: dict[str, Any] | str) -> None:
    """`doc` as the status.json of the tray whose state folder is `state`."""
    state.mkdir(parents=True, exist_ok=True)
    (state / "status.json").write_text(doc if isinstance(doc, str) else json.dumps(doc))


ROOT = Path(__file__).resolve().parent.parent


def python_env(**extra: str) -> dict[str, str]:
    """The environment for a child Python: this checkout's sioul_tray first, whatever is
    installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def run_python(code: str, env: dict[str, str]) -> list[str]:
    """What a child Python running `code` prints, as words (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.split()


def wait_for(
    what: Callable[[], Any], timeout: float = 15.0, step: float = 0.05, why: str = ""
) -> Any:
    """`what()` until it is truthy; its value, or AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {why or what}")
        time.sleep(step)


def need_or_skip(missing: str | None) -> None:
    """Skip when `missing` names a missing part (a display, a tray host, a bus, Syncthing); fail
    instead under SIOUL_REQUIRE_DESKTOP=1 (CI), so an install step lost from CI cannot hide
    behind a skip. The tests take it as the `need` fixture."""
    if missing is None:
        return
    if os.environ.get("SIOUL_REQUIRE_DESKTOP") == "1":
        pytest.fail(f"SIOUL_REQUIRE_DESKTOP=1 but {missing}", pytrace=False)
    pytest.skip(reason=missing)
