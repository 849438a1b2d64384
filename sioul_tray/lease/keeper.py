"""Who keeps a part as seen here, and whether this computer may act on it.

Pure functions over a *view*: the claims of one part with ``renewed`` replaced by the time this
computer heard them and forgotten claims marked closed (see `Lease`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sioul_tray.lease.rules import ALIVE, SETTLING, UNCLOSED, Claim, Rule


@dataclass(frozen=True)
class Keeper:
    """Who keeps a part, as seen here, and whether this computer acts on it."""

    part: str
    computer: str | None
    name: str | None
    here: bool
    since: int | None  # since when this computer has seen this keeper keep the part (KEPT)
    settled: bool
    others_heard: bool
    agreed: bool
    acting: bool
    # Not in the contract's table; for the tray's "waiting for Laptop": the computers whose
    # acknowledgement (a part that must never happen twice) or agreement (the others) is missing.
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seen:
    """The claims of one part as this computer judges them.

    ``heard[c]`` stands for claim c's ``renewed`` (when this computer heard it change); a
    forgotten claim (``gone[c] >= seq``) counts as closed. With neither, the claims are taken as
    they are, which is how the pure tests call the rules.
    """

    claims: Sequence[Claim]
    heard: Mapping[str, int] | None = None
    gone: Mapping[str, int] | None = None
    # When this computer's claim was last opened (its `since`): an acknowledgement of this
    # computer counts only if heard since then. See `acknowledged`.
    opened: int | None = None
    # Since when this computer has kept hearing other claims (None: not now), when `Lease` tracks
    # it; "gone" then needs the sync seen flowing for SETTLING. See `acknowledged`.
    flowing_since: int | None = None
    tracks_flow: bool = False

    def when(self, c: Claim) -> int:
        return c.renewed if self.heard is None else self.heard[c.computer]

    def closed(self, c: Claim) -> bool:
        return c.closed or (self.gone is not None and self.gone.get(c.computer, -1) >= c.seq)

    def alive(self, c: Claim, now: float) -> bool:
        return not self.closed(c) and now - self.when(c) <= ALIVE


def _seen(view: Sequence[Claim] | Seen) -> Seen:
    return view if isinstance(view, Seen) else Seen(view)


def acknowledged(
    keeper: str,
    me: str,
    view: Sequence[Claim] | Seen,
    rule: Rule,
    now: float,
    *,
    read_others: bool,
    created: bool,
) -> tuple[bool, tuple[str, ...]]:
    """Every other computer that might be acting has said, in its own claim, that it sees `keeper`.

    Returns the verdict and the computers still waited for. A computer that joined a folder made
    elsewhere and has read nobody's claim yet has heard nobody: it must not act on an empty view.

    Beyond the contract (found by the simulation, docs/reliability.md): when this computer is the
    keeper, an acknowledgement counts only if heard since this computer's claim was opened
    (`Seen.opened`). While its claim was closed (asleep, quit), another computer may have taken
    the part; the acknowledgements read before cannot answer the reopened claim. And "gone" needs
    the sync seen flowing for SETTLING, where the Lease tracks it (`Seen.flowing_since`).
    """
    seen = _seen(view)
    others = [c for c in seen.claims if c.computer != me]
    answers_from = seen.opened if keeper == me else None
    # "Gone" may only mean gone while this computer's own sync is seen flowing; where the Lease
    # tracks it, flowing for SETTLING: the first file a reconnecting sync brings is not the
    # catch-up (found by the simulation: a computer woken after two days numbered for 0.3 s).
    if seen.tracks_flow:
        flowing = seen.flowing_since is not None and now - seen.flowing_since >= SETTLING
    else:
        flowing = any(now - seen.when(c) <= ALIVE for c in others)
    waiting: list[str] = []
    for c in others:
        if seen.closed(c):
            continue
        age = now - seen.when(c)
        acks = c.sees == keeper and (answers_from is None or seen.when(c) >= answers_from)
        if acks and age <= ALIVE:
            continue
        if acks and rule is Rule.STAYS and age <= UNCLOSED - ALIVE:
            continue
        if age > UNCLOSED and flowing:
            continue
        waiting.append(c.computer)
    heard_anyone = read_others or created
    return heard_anyone and not waiting, tuple(waiting)


def agreed(
    keeper: str, me: str, view: Sequence[Claim] | Seen, now: float
) -> tuple[bool, tuple[str, ...]]:
    """More than half of the computers alive as seen here, this one included, see `keeper`.

    This computer counts as seeing the keeper: it writes that in its next claim. Alone, it is a
    majority of one, unless it knows a computer that is neither closed nor gone (it may only have
    lost touch with it): then it agrees with itself only while the person is at it.
    """
    seen = _seen(view)
    mine = next((c for c in seen.claims if c.computer == me), None)
    voters = [c for c in seen.claims if c.computer != me and seen.alive(c, now)]
    if not voters:
        lost_touch = [
            c.computer
            for c in seen.claims
            if c.computer != me and not seen.closed(c) and now - seen.when(c) <= UNCLOSED
        ]
        if not lost_touch:
            return True, ()
        present = mine is not None and now - mine.active <= ALIVE
        return present, () if present else tuple(lost_touch)
    dissent = tuple(c.computer for c in voters if c.sees != keeper)
    seeing = 1 + len(voters) - len(dissent)
    return 2 * seeing > 1 + len(voters), dissent


def judge(
    part: str,
    rule: Rule,
    me: str,
    keeper: Claim | None,
    view: Sequence[Claim] | Seen,
    now: float,
    since: int | None,
    *,
    read_others: bool,
    created: bool,
) -> Keeper:
    """The `Keeper` seen here, given the keeper chosen from `view` and since when it is kept."""
    if keeper is None:
        return Keeper(part, None, None, False, None, False, False, False, False)
    seen = _seen(view)
    here = keeper.computer == me
    settled = here and since is not None and now - since >= SETTLING
    heard, unheard = acknowledged(
        keeper.computer, me, seen, rule, now, read_others=read_others, created=created
    )
    agree, dissent = agreed(keeper.computer, me, seen, now)
    acting = settled and (heard if rule.never_twice else agree)
    return Keeper(
        part=part,
        computer=keeper.computer,
        name=keeper.name,
        here=here,
        since=since,
        settled=settled,
        others_heard=heard,
        agreed=agree,
        acting=acting,
        waiting=unheard if rule.never_twice else dissent,
    )
