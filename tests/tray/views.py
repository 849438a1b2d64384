"""Part views for the menu model's tests, each made by real Leases (tests/scenes.py).

`Seen` holds what the controller would publish for one scene: the part's view, each part as
the last read found it, and the time. Tests assemble Views from these: each part's
state is one the core produced, never one typed by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sioul_tray.lease import PARTS, Keeper, Lease
from sioul_tray.lease.folder import Problem
from sioul_tray.lease.lease import Snapshot
from sioul_tray.lease.status import Why
from sioul_tray.share import Share
from sioul_tray.tray.model import View
from tests.helpers import FakeClock
from tests.scenes import T0, scene

__all__ = ["T0", "Seen", "make", "problems_in", "view"]


@dataclass(frozen=True)
class Seen:
    parts: dict[str, Keeper]
    seen: dict[str, Snapshot]
    now: float
    offsets: dict[str, int] = field(default_factory=dict)
    problems: tuple[tuple[str, Problem], ...] = ()


def make(why: Why, root: Path, part: str = "invoices", variant: str = "") -> Seen:
    """The scene's two parts as the tray would show them, read at the scene's last moment."""
    s = scene(why, root, part, variant)
    keepers = {p: s.keeper if p == part else s.lease.look(p) for p in PARTS}
    seen = {p: s.lease.last_read(p) for p in PARTS}
    problems = tuple((p, x) for p in PARTS for x in seen[p].problems)
    return Seen(dict(keepers), seen, s.clock.now,
                problems=problems)  # fmt: skip


def view(medicines: Seen, invoices: Seen, **kw: object) -> View:
    """A View with each part as its scene left it (the later scene's time is the view's)."""
    base: dict[str, object] = dict(
        computer="pc",
        name="This PC",  # the scenes' own computer (tests/scenes.py)
        now=max(medicines.now, invoices.now),
        parts={"medicines": medicines.parts["medicines"], "invoices": invoices.parts["invoices"]},
        seen={"medicines": medicines.seen["medicines"], "invoices": invoices.seen["invoices"]},
        problems=medicines.problems
        if medicines is invoices
        else (*medicines.problems, *invoices.problems),
    )
    base.update(kw)
    return View(**base)  # type: ignore[arg-type]


def problems_in(root: Path, files: Mapping[str, bytes]) -> tuple[tuple[str, Problem], ...]:
    """What a real Lease reads of these files put in its invoices folder (as the tray publishes
    them: each with its part)."""
    root.mkdir(parents=True, exist_ok=True)
    share = Share.create(root, "correct horse", "pc", cost=10)
    folder = root / "leases" / "invoices"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    lease = Lease(share, "pc", clock=FakeClock(T0))
    lease.look("invoices")
    return tuple(("invoices", x) for x in lease.last_read("invoices").problems)
