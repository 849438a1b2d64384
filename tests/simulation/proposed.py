"""A rule change the simulation found necessary, applied to the real core for measuring only.

Found: a computer that reopens its claim (wake after a told sleep, tray started again) trusts the
acknowledgements it read before it closed, although its closed claim let another computer take the
part over meanwhile. Proposed: once this computer's claim is (re)opened, another computer's claim
acknowledges it only if heard after that opening (`since`), or if it is closed or gone. A claim
heard since then was written by a computer that either already saw the takeover it made (and says
so in `sees`) or will see this reopened claim within the time SETTLING allows.

The core is not changed here: `reheard_after_reopen` swaps the pure `acknowledged` for the length
of a run, so the figures of the current rules and of the proposal come from the same simulation.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence

from sioul_tray.lease import keeper as keeper_module
from sioul_tray.lease.rules import UNCLOSED, Claim, Rule

_current = keeper_module.acknowledged


def _reheard(
    keeper: str,
    me: str,
    view: Sequence[Claim],
    rule: Rule,
    now: float,
    *,
    read_others: bool,
    created: bool,
) -> tuple[bool, tuple[str, ...]]:
    mine = next((c for c in view if c.computer == me), None)
    if mine is not None and not mine.closed:
        view = [
            c
            if c.computer == me or c.closed or c.renewed >= mine.since or now - c.renewed > UNCLOSED
            else dataclasses.replace(c, sees=None)  # read before this run: not an answer to it
            for c in view
        ]
    return _current(keeper, me, view, rule, now, read_others=read_others, created=created)


@contextlib.contextmanager
def reheard_after_reopen() -> Iterator[None]:
    """Run the core with the proposed acknowledgement rule."""
    keeper_module.acknowledged = _reheard
    try:
        yield
    finally:
        keeper_module.acknowledged = _current
