"""Each fix switched off, caught early: the checker's search for the first invariant it breaks.

``python -m tests.model.caught [FIX ...]`` searches, for each fix of `Fixes` and the shell's
(`Switches`), the alphabets in `TRIED` at 2 computers, then 3, up to `DEPTH` events, and prints the
table docs/reliability.md keeps ("Each fix, caught early"): the fix, the alphabet, the computers,
the events after which an invariant of docs/protocol.md's "Why it is safe" breaks, which one, and
the seconds the search took. tests/model/test_model.py replays each row (`CAUGHT`).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from tests.model.checker import explore, open_class
from tests.model.world import FAULTS, FULL, NAMES, NARROW, Alphabet, Switches

DEPTH = 5  # the bound: a broken joint shows within 5 events
# The alphabets tried, narrowest first: the first that breaks an invariant within DEPTH is kept.
TRIED: dict[str, Alphabet] = {**NARROW, "full": FULL, "faults": FAULTS}
SECONDS = 40.0  # per alphabet and size
# A fix's own alphabets at 3 computers: depth 5 there takes about two minutes on this machine.
OWN_SECONDS_3 = 240.0


@dataclass(frozen=True)
class Caught:
    fix: str
    alphabet: str
    computers: int
    events: int
    invariant: str
    seconds: float


# The fixes for liveness, and the property of docs/protocol.md's "Why it is safe" each keeps:
# with one off, the checker finds a state after which no computer acts (`heal`: L1, the sync
# heals; `next_morning`: L2, the morning after).
LIVENESS: dict[str, str] = {"forget_holds": "L1", "successor": "L2", "tags_declared": "L1"}


def search(
    fix: str, alphabet: str, computers: int, depth: int = DEPTH, seconds: float = SECONDS
) -> Caught | None:
    """The first invariant broken with `fix` off, within `depth` events, or None."""
    began = time.monotonic()
    live = LIVENESS.get(fix)
    report = explore(
        computers, depth, alphabet=TRIED[alphabet], switches=Switches.without(fix),
        liveness=live == "L1", evening=live == "L2", seconds=seconds,
    )  # fmt: skip
    if report.violation is None:
        if live is None or report.stuck is None:
            return None
        # The header, the events, the state no computer leaves.
        return Caught(fix, alphabet, computers, len(report.stuck) - 2, live, _since(began))
    if not report.violation[-1].startswith("unsafe: "):
        # Two computers act at once (S1), which the trace's "acting now" line says itself.
        return Caught(fix, alphabet, computers, len(report.violation) - 2, "S1", _since(began))
    broken = report.violation[-1].removeprefix("unsafe: ")
    if open_class(broken) is not None:
        return None  # a class issue 39 leaves open, met with every fix on too: no evidence
    return Caught(
        fix,
        alphabet,
        computers,
        len(report.violation) - 3,  # the header, the events, who acts, the break
        broken.split(" ", 1)[0],
        _since(began),
    )


def _since(began: float) -> float:
    return time.monotonic() - began


# Where each fix's defect lives: its alphabets are tried first (then every other).
HINTS: dict[str, tuple[str, ...]] = {
    "tenure": ("reopen", "restart"),
    "one_seal": ("seals",),
    "closes": ("reopen", "evening"),
    "closes_in_claims": ("overnight", "evening", "faults"),
    "old_rules_closes": ("upgrade",),
    "forget_named": ("rewritten", "forgets", "faults"),
    "forget_waits": ("offline",),
    "vouch_waits": ("faults",),
    "heirless_closes": ("heirless", "nights", "evening"),
    "learns_members": ("joining", "join"),
    "forget_holds": ("forget", "offline"),
    "successor": ("evening",),
    "marks_while_acting": ("full", "evening"),
    "lost_closes": ("lost", "faults"),
    "own_past_read": ("forgotten", "faults"),
    "reads_kept": ("morning", "overnight"),
    "restored": ("backup",),
    "admitted_closes": ("declared",),
    "silence_never_counts": ("silence",),
    "marks_kept": ("marks",),
    "marks_unproven": ("marks",),
    "marks_forgotten": ("marks_back",),
    "lone_creator": ("reinstall",),
    "upgraded_closes": ("upgraded",),
    "tags_declared": ("removed",),
}


def first(fix: str) -> Caught | None:
    """The first catch of `fix` switched off within DEPTH events: its own alphabets, then the
    full one and the faults', 2 computers before 3."""
    own = HINTS.get(fix, ())
    order = [*own, *(a for a in ("full", "faults") if a not in own)]
    for computers in (2, 3):
        for alphabet in order:
            seconds = OWN_SECONDS_3 if computers == 3 and alphabet in own else SECONDS
            found = search(fix, alphabet, computers, seconds=seconds)
            if found is not None:
                return found
    return None


def main(argv: list[str]) -> int:
    print("| fix switched off | alphabet | computers | events | invariant | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for fix in argv or NAMES:
        c = first(fix)
        if c is None:
            print(f"| `{fix}` | none within {DEPTH} events | | | | |", flush=True)
        else:
            print(
                f"| `{c.fix}` | `{c.alphabet}` | {c.computers} | {c.events} | {c.invariant} "
                f"| {c.seconds:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
