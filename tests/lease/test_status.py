"""The core says why: each status, from real Leases (tests/scenes.py), with what goes with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.lease import SETTLING
from sioul_tray.lease.status import Status, Why
from tests.scenes import T0, scene


@pytest.mark.parametrize("why", list(Why), ids=[w.value for w in Why])
def test_every_reason_is_reached_by_real_leases(tmp_path: Path, why: Why) -> None:
    part = "medicines" if why is Why.AWAY else "invoices"
    s = scene(why, tmp_path, part)
    status = s.keeper.status
    assert status is not None and status.why is why, status
    assert Status.from_json(status.to_json()) == status  # status.json and look --json say it
    assert s.keeper.acting is (why is Why.ACTING)


def test_each_reason_carries_what_it_needs(tmp_path: Path) -> None:
    settling = scene(Why.SETTLING, tmp_path / "s").keeper.status
    assert settling is not None and settling.until == int(T0) + SETTLING
    elsewhere = scene(Why.ELSEWHERE, tmp_path / "e").keeper.status
    assert elsewhere is not None and (elsewhere.keeper, elsewhere.name) == ("office", "Office PC")
    assert elsewhere.since is not None and elsewhere.live
    waiting = scene(Why.WAITING, tmp_path / "w").keeper.status
    assert waiting is not None and sorted(w.computer for w in waiting.waiting) == [
        "laptop",
        "office",
    ]
    assert all(w.heard is not None and not w.silent for w in waiting.waiting)
    assert not waiting.stalled
    sealed = scene(Why.BLOCKED, tmp_path / "b").keeper.status
    assert sealed is not None and sealed.cause == "seal" and "sealed again" in str(sealed.problem)
    clone = scene(Why.BLOCKED, tmp_path / "c", variant="clone").keeper.status
    assert clone is not None and clone.cause == "clone"


def test_a_silent_computer_may_be_declared_gone(tmp_path: Path) -> None:
    status = scene(Why.WAITING, tmp_path, variant="silent").keeper.status
    assert status is not None
    assert {w.computer: w.silent for w in status.waiting} == {"laptop": True}
    assert not status.stalled  # office is heard: this computer's sync flows


def test_nothing_heard_from_anyone_is_a_stopped_sync(tmp_path: Path) -> None:
    status = scene(Why.WAITING, tmp_path, variant="stalled").keeper.status
    assert status is not None and status.stalled
    assert all(w.silent for w in status.waiting)


def test_a_status_of_a_later_version_reads_or_is_none() -> None:
    later = Status(Why.ACTING).to_json() | {"why": "acting", "a later field": 1}
    assert Status.from_json(later) == Status(Why.ACTING)
    assert Status.from_json({"why": "something new"}) is None
    assert Status.from_json(None) is None
