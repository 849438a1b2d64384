"""Helpers shared by the tests: a hand-moved clock and a claim builder."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from sioul_tray.lease import Claim

T0 = 1_750_000_000.0  # a plausible "now" (June 2025), far from the codec's limits


class FakeClock:
    """A clock the test moves by hand: several computers with their own clocks in one process."""

    def __init__(self, now: float = T0) -> None:
        self.now = float(now)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


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


ROOT = Path(__file__).resolve().parent.parent


def python_env(**extra: str) -> dict[str, str]:
    """The environment for a child Python: this checkout's sioul_tray first, whatever is
    installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env
