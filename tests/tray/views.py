"""Part views for the menu model's tests, each made by real Leases (tests/scenes.py).

`Seen` holds what the controller would publish for one scene: the part's view, the other
computers as this one knows them, and the time. Tests assemble Views from these: each part's
state is one the core produced, never one typed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sioul_tray.lease import PARTS
from sioul_tray.lease.status import Why
from sioul_tray.tray.model import PartView, Peer, View
from tests.scenes import T0, scene

__all__ = ["T0", "Seen", "make", "view"]


@dataclass(frozen=True)
class Seen:
    parts: dict[str, PartView]
    peers: dict[str, tuple[Peer, ...]]
    now: float
    offsets: dict[str, int] = field(default_factory=dict)
    problems: tuple[tuple[str, str, str], ...] = ()


def make(why: Why, root: Path, part: str = "invoices", variant: str = "") -> Seen:
    """The scene's two parts as the tray would show them, read at the scene's last moment."""
    s = scene(why, root, part, variant)
    keepers = {p: s.keeper if p == part else s.lease.look(p) for p in PARTS}
    heard = {p: s.lease.heard(p) for p in PARTS}
    peers = {
        p: tuple(
            Peer(c.computer, c.name, heard[p].get(c.computer), c.closed)
            for c in s.lease.claims(p)
            if c.computer != "pc"
        )
        for p in PARTS
    }
    problems = tuple((p, n, r) for p in PARTS for n, r in s.lease.problems(p))
    return Seen({p: PartView.of(k) for p, k in keepers.items()}, peers, s.clock.now,
                problems=problems)  # fmt: skip


def view(medicines: Seen, invoices: Seen, **kw: object) -> View:
    """A View with each part as its scene left it (the later scene's time is the view's)."""
    base: dict[str, object] = dict(
        computer="pc",
        now=max(medicines.now, invoices.now),
        parts={"medicines": medicines.parts["medicines"], "invoices": invoices.parts["invoices"]},
        peers={"medicines": medicines.peers["medicines"], "invoices": invoices.peers["invoices"]},
        problems=medicines.problems
        if medicines is invoices
        else (*medicines.problems, *invoices.problems),
    )
    base.update(kw)
    return View(**base)  # type: ignore[arg-type]
