"""The verdict: who keeps a part as seen here, and whether this computer may act on it.

Pure functions over a *view* (`Seen`): the claims of one part, with the time this computer heard
each one change and the claims forgotten by a declaration. Read `rules` first; the state machine
(`machine`) builds the views; docs/protocol.md states the rules in words.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sioul_tray.lease.rules import (
    ANY_CLOSE,
    EVERY_COMPUTER,
    EVERY_FIX,
    READ_UNSAID,
    RULES,
    Claim,
    Fixes,
    Rule,
    tag,
)
from sioul_tray.lease.status import NOBODY, Status
from sioul_tray.timing import ALIVE, CONTRACT, UNCLOSED, Timing

# The contract's `Timing.fresh`: an acknowledgement of this computer's tenure counts while the
# version of its claim that it answers was written at most this long ago (docs/protocol.md).
FRESH = UNCLOSED - ALIVE


@dataclass(frozen=True)
class Keeper:
    """The verdict: who keeps a part, as seen here, whether this computer acts on it, and why
    (`status`). The one value the tray's menu, the command line and status.json render."""

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
    # Why this computer may not act on a part that must never happen twice, whatever the claims
    # say: the sharing folder's seal is not the one it joined (docs/protocol.md, "One seal").
    blocked: str | None = None
    # Why the part is as it is here, as data (`status.Status`): the state machine adds it to
    # the verdict `weigh` gives (which says nobody's reasons: the pure tests read its flags).
    status: Status = NOBODY


@dataclass(frozen=True)
class Seen:
    """The claims of one part as this computer judges them.

    ``heard[c]`` stands for claim c's ``renewed`` (when this computer heard it change, on its own
    ticks); a forgotten claim (``gone[c] >= seq``) counts as closed. With neither, the claims are
    taken as they are, which is how the pure tests call the rules. The state machine fills the
    rest: what only this computer knows of its own tenure, its run and its memory.
    """

    claims: Sequence[Claim]
    heard: Mapping[str, float] | None = None
    gone: Mapping[str, int] | None = None
    # When (ticks) this computer wrote each seq of its current tenure: an acknowledgement of this
    # computer counts while the version it answers is at most FRESH old. None: judge the
    # acknowledging claim's own age instead (another keeper, or the pure tests).
    written: Mapping[int, float] | None = None
    # When this run began (ticks): silence counts towards "gone" only as observed in this run.
    started: float | None = None
    # Since when this computer has kept hearing other claims (None: not now), when tracked;
    # "gone" then needs the sync seen flowing for SETTLING.
    flowing_since: float | None = None
    tracks_flow: bool = False
    # False while this computer distrusts what it cannot have witnessed (it lost its local state:
    # it may have acknowledged a keeper it no longer knows of): closed, forgotten and gone claims
    # then do not stand for an acknowledgement.
    trusting: bool = True
    # Computers this computer itself declared gone in this run, up to a seq: they count as
    # gone even while it distrusts, for the person said so here, once the declaration counts
    # (`declared_from`). Not sooner, not as a close: the copy of a claim this computer reads may
    # be an old one, closed, while its writer numbers under a newer one (`Fixes.vouch_waits`).
    vouched: Mapping[str, int] | None = None
    # This computer's closes, as `Claim.closes` carries them: for each computer's tag, the highest
    # seq of its closes that named it successor (`sees`); under ANY_CLOSE its latest close. None:
    # every closed claim counts (the pure tests, or the rule switched off).
    named: Mapping[int, int] | None = None
    # For each computer declared gone, from when (in the units of `now`) the declaration counts
    # here: once that computer can no longer be numbering on this one's answers. None: at once.
    declared_from: Mapping[str, float] | None = None
    # Computers whose claim files are sealed with another key (a second seal for this folder).
    foreign: Collection[str] = ()
    # Tags declared gone by tag alone (`Fixes.tags_declared`), here or in a claim in view, whose
    # declaration counts here: not waited for as unheard (`unheard`).
    tags_gone: Collection[int] = ()
    # The person is at this computer (its `active` within ALIVE, by its wall clock). None: judge
    # it from this computer's claim against `now` (the pure tests, where `now` is a wall time).
    present: bool | None = None
    # When this computer's claim opened (ticks): with the tenure rule switched off, the rule it
    # replaced counts the acknowledgements heard since.
    opened: float | None = None
    # The folder's times (`Timing`): the contract's unless a test's folder is on a scale.
    timing: Timing = CONTRACT
    # The rules applied: all but those the model checker switches off (`Fixes`).
    fixes: Fixes = EVERY_FIX

    def when(self, c: Claim) -> float:
        return c.renewed if self.heard is None else self.heard[c.computer]

    def closed(self, c: Claim) -> bool:
        return c.closed or (self.gone is not None and self.gone.get(c.computer, -1) >= c.seq)

    def alive(self, c: Claim, now: float) -> bool:
        return not self.closed(c) and now - self.when(c) <= self.timing.alive

    def living(self, now: float, but: str | None = None) -> list[Claim]:
        """The claims `alive` now, but `but`'s."""
        return [c for c in self.claims if c.computer != but and self.alive(c, now)]


def _seen(view: Sequence[Claim] | Seen) -> Seen:
    return view if isinstance(view, Seen) else Seen(view)


def unanswering(
    keeper: Claim | None, seen: Seen, now: float, rule: Rule, me: str, claims: Sequence[Claim]
) -> list[Claim]:
    """The claims among `claims` that do not acknowledge `keeper`, as this computer may count it
    now, in their order.

    For a part that must never happen twice, an acknowledgement names the keeper's tenure and the
    version (seq) of the keeper's claim it answers; it counts only for that tenure, and only while
    that version is recent: FRESH by this computer's ticks when the keeper is this computer (it
    knows when it wrote each version), else by when the acknowledgement was heard. A claim of a
    version before tenures (no `sees_tenure`) never acknowledges a tenure.
    """
    if keeper is None:
        return list(claims)
    k = keeper.computer
    fresh = seen.timing.fresh
    answers: Callable[[Claim], bool]
    if not rule.never_twice:

        def answers(c: Claim) -> bool:
            return c.sees == k and seen.alive(c, now)

    elif not seen.fixes.tenure:  # the rules before tenures (the model checker's fix switched off)
        opened = seen.opened if k == me else None

        def answers(c: Claim) -> bool:
            return (
                c.sees == k
                and (opened is None or seen.when(c) >= opened)
                and now - seen.when(c) <= fresh
            )

    else:
        tenure = keeper.tenure
        if tenure is None:
            return list(claims)
        written = seen.written if k == me else None

        def answers(c: Claim) -> bool:
            if c.sees != k or c.sees_tenure != tenure or c.sees_seq is None:
                return False
            # The age of the version it answers: since this computer wrote it, where it is this
            # computer's; else since the answer was heard.
            since = written.get(c.sees_seq, -math.inf) if written is not None else seen.when(c)
            return now - since <= fresh

    return [c for c in claims if not answers(c)]


class Reason(enum.Enum):
    """Why a keeper need not wait for another computer's claim (`reasons`): the kinds of reason
    of docs/protocol.md, "Why it is safe"."""

    ANSWERS = "answers"  # it acknowledges the keeper's tenure, answering a recent version
    CLOSED = "closed"  # it closed, and the keeper may count that close
    DECLARED = "declared"  # declared gone for good, and the declaration counts
    SILENT = "silent"  # not heard change for UNCLOSED, observed in this run, the sync flowing


def _flowing(seen: Seen, now: float, me: str) -> bool:
    """ "Gone" may only mean gone while this computer's own sync is seen flowing; where it is
    tracked, flowing for SETTLING: the first file a reconnecting sync brings is not the
    catch-up."""
    if seen.tracks_flow:
        return seen.flowing_since is not None and now - seen.flowing_since >= seen.timing.settling
    return any(now - seen.when(c) <= seen.timing.alive for c in seen.claims if c.computer != me)


def reasons(
    keeper: str,
    me: str,
    view: Sequence[Claim] | Seen,
    rule: Rule,
    now: float,
    *,
    keeper_claim: Claim | None = None,
) -> dict[str, Reason]:
    """For each other computer whose claim in `view` the keeper `keeper` need not wait for, as
    this computer (`me`) judges it now, why (`Reason`); the others are waited for.

    Each other claim must acknowledge the keeper (`unanswering`), be closed (only if that
    computer cannot, in turn, be counting a close of this one) or forgotten by a declaration
    that counts, or be gone: silent for UNCLOSED as observed in this run while this computer's
    own sync is seen flowing, on a part that follows the person only (on invoices silence never
    counts: `Fixes.silence_never_counts`, S4). `keeper_claim`: the keeper's claim in `view`,
    when the caller has it at hand.
    The invariants read the same answer for `keeper == me` (`Knowledge.reasons`).
    """
    seen = _seen(view)
    if keeper_claim is None or keeper_claim.computer != keeper:
        keeper_claim = next((c for c in seen.claims if c.computer == keeper), None)
    trusting = seen.trusting
    timing = seen.timing
    flowing = _flowing(seen, now, me)
    vouched = seen.vouched or {}
    mine = keeper == me and rule.never_twice
    declared = seen.gone or {}
    read = _own_reads(seen, me) if mine else {}
    found: dict[str, Reason] = {}
    left = unanswering(keeper_claim, seen, now, rule, me, seen.claims)
    if len(left) != len(seen.claims):  # the usual folder: every other claim answers
        unanswered = {c.computer for c in left}
        found = {
            c.computer: Reason.ANSWERS
            for c in seen.claims
            if c.computer != me and c.computer not in unanswered
        }
    for c in left:
        if c.computer == me:
            continue
        # Declared gone for good: it does not come back with this claim. Closed: only if that
        # computer cannot, in turn, be counting a close of this one. (`seen.closed` written
        # out.)
        forgot = declared and declared.get(c.computer, -1) >= c.seq and _counts_yet(c, seen, now)
        if (
            (c.closed or forgot)
            and (
                trusting
                or (vouched.get(c.computer, -1) >= c.seq and (forgot or not seen.fixes.vouch_waits))
            )
            and (
                forgot
                or not (
                    mine
                    and (
                        _may_count_me_closed(c, me, seen)
                        or _unadmitted(c, me, seen)
                        or read.get(tag(c.computer), -1) > c.seq
                    )
                )
            )
        ):
            found[c.computer] = Reason.DECLARED if forgot else Reason.CLOSED
        elif (
            trusting
            and flowing
            and rule.never_twice
            and not seen.fixes.silence_never_counts
            and _silent(c, seen, now)
        ) or (
            trusting and flowing and not rule.never_twice and now - seen.when(c) > timing.unclosed
        ):
            found[c.computer] = Reason.SILENT
    return found


def acknowledged(
    keeper: str,
    me: str,
    view: Sequence[Claim] | Seen,
    rule: Rule,
    now: float,
    *,
    read_others: bool,
    created: bool,
    keeper_claim: Claim | None = None,
) -> tuple[bool, tuple[str, ...]]:
    """Every other computer that might be acting has said, in its own claim, that it sees `keeper`.

    Returns the verdict and the computers still waited for: those with no reason (`reasons`),
    and on a part that must never happen twice, every computer whose claim file is sealed with
    another key until it is declared gone, and every computer the others' claims say they read
    whose own claim has not come through. A computer that joined a folder made elsewhere and
    has read nobody's claim yet has heard nobody: it must not act on an empty view.
    """
    seen = _seen(view)
    found = reasons(keeper, me, seen, rule, now, keeper_claim=keeper_claim)
    waiting = [c.computer for c in seen.claims if c.computer != me and c.computer not in found]
    if rule.never_twice:
        declared = seen.gone or {}
        waiting += sorted(f for f in seen.foreign if f != me and f not in declared)
        # A computer the others' claims say they read, whose own claim has not reached this one
        # (a folder still downloading): it may be numbering. Gone, as any other, once silent for
        # UNCLOSED as observed in this run while the sync flows.
        gone = seen.trusting and _flowing(seen, now, me) and _silent_since_start(seen, now)
        if seen.fixes.learns_members and not gone:
            waiting += [unheard_id(t) for t in unheard(seen, me)]
        waiting = list(dict.fromkeys(waiting))
    # The folder's creator alone (its first run) acts on an empty view; a computer that knows
    # others waits for them, trusting or not.
    heard_anyone = read_others or created
    return heard_anyone and not waiting, tuple(waiting)


UNHEARD = "#"  # the first character of a stand-in id for a computer known only by its tag


def unheard_id(t: int) -> str:
    """The stand-in for a computer whose tag another claim carries in `knows` and whose own claim
    has not reached this computer (`Keeper.waiting` names it so)."""
    return f"{UNHEARD}{t:08x}"


def unheard(seen: Seen, me: str) -> list[int]:
    """The tags the claims in view say their writers read (`Claim.knows`) that stand for no
    computer this one has read a claim of, nor one declared gone (by its id, or by its tag alone
    where that counts here: `Seen.tags_gone`) or sealed with another key."""
    said = {t for c in seen.claims for t in c.knows}
    if not said:
        return []
    heard = {tag(c.computer) for c in seen.claims}
    heard.add(tag(me))
    heard.update(tag(f) for f in seen.foreign)
    heard.update(tag(d) for d in seen.gone or {})
    heard.update(seen.tags_gone)
    return sorted(said - heard)


def unheard_tag(computer: str) -> int | None:
    """The tag an `unheard_id` stands for, or None when `computer` is no such stand-in."""
    if len(computer) != 9 or not computer.startswith(UNHEARD):
        return None
    digits = computer[1:]
    if any(d not in "0123456789abcdef" for d in digits):
        return None
    return int(digits, 16)


def declared_tags(claims: Iterable[Claim]) -> set[int]:
    """The tags the claims declare gone by tag alone: in `Claim.counted` (a declaration that
    counts), naming no computer of that claim's `forgets` (`Fixes.tags_declared`)."""
    found: set[int] = set()
    for c in claims:
        if c.counted:
            named = {tag(f) for f in c.forgets}
            found.update(t for t in c.counted if t not in named)
    return found


def _counts_yet(c: Claim, seen: Seen, now: float) -> bool:
    """A declaration that `c`'s computer is gone counts here now (`Seen.declared_from`)."""
    since = seen.declared_from
    return since is None or now >= since.get(c.computer, -math.inf)


def _silent_since_start(seen: Seen, now: float) -> bool:
    return seen.started is not None and now - seen.started > seen.timing.unclosed


def _may_count_me_closed(c: Claim, me: str, seen: Seen) -> bool:
    """Closed claim `c` may stand for a computer that reopened since and counts a close of mine.

    It does only if a close of mine named `c` successor and `c` may still hold that close: one
    written after the version of mine that `c`'s close answered (any, if it answered none). Two
    computers each counting the other's close would both act (both closed, both woken while the
    sync is down): a close never counts both ways, since each would have to be written after the
    other (docs/protocol.md, "Closed claims").
    """
    named = seen.named
    if named is None:
        return False
    if c.rules < RULES and seen.fixes.old_rules_closes:
        # Its writer keeps no such memory where a restart finds it (or none at all, before
        # tenures): it may count any close of this computer's written after what it answered.
        mine = named.get(ANY_CLOSE, -1)
    else:
        mine = max(named.get(tag(c.computer), -1), named.get(EVERY_COMPUTER, -1))
        if c.sees is None and seen.fixes.heirless_closes:
            # A close that names no successor: its writer keeps the part when every computer is
            # closed and counts, waking, the closes it read, any of mine among them.
            mine = max(mine, named.get(ANY_CLOSE, -1))
    if mine < 0:
        return False
    answered: int | None = -1
    if c.sees == me:
        answered = c.sees_seq if c.sees_seq is not None else c.answers
    if answered is None:
        answered = -1
    return mine > answered


def _own_reads(seen: Seen, me: str) -> Mapping[int, int]:
    """The highest version of each computer this computer's own claim says it read
    (`Fixes.reads_kept`): a close of one older than that is a copy from before it reopened,
    which this computer's memory (a state file put back) or its replica (a stale copy) shows
    again; counted, it would stand beside that computer acting on this one's answer (S4).
    (`READ_UNSAID`: read, not which.)"""
    if not seen.fixes.reads_kept:
        return {}
    own = next((c for c in seen.claims if c.computer == me), None)
    if own is None:
        return {}
    return {t: seq for t, seq in own.reads.items() if seq > READ_UNSAID}


def _unadmitted(c: Claim, me: str, seen: Seen) -> bool:
    """Closed claim `c` did not admit this computer (`Fixes.admitted_closes`): it says whom it
    admits (`Claim.admits` holds its own seq) and no version of this one read (its writer had
    not heard this one within ALIVE, or never read it), even where it names it. Its writer,
    back and cut off, may count a declaration of this computer without waiting for this close:
    counting it here would make the reasons mutual (S4). A close of a version before says
    nothing of it, and its writer follows the rules before (it counts as it did)."""
    return (
        seen.fixes.admitted_closes
        and c.admits.get(ANY_CLOSE, -1) == c.seq
        and tag(me) not in c.reads
    )


def _silent(c: Claim, seen: Seen, now: float) -> bool:
    """Not heard change for UNCLOSED, as observed in this run (a first read's estimate, which
    trusts the writer's clock, does not count as observed silence)."""
    since = seen.when(c)
    if seen.started is not None:
        since = max(since, seen.started)
    return now - since > seen.timing.unclosed


def agreed(
    keeper: str, me: str, view: Sequence[Claim] | Seen, now: float
) -> tuple[bool, tuple[str, ...]]:
    """More than half of the computers alive as seen here, this one included, see `keeper`.

    This computer counts as seeing the keeper: it writes that in its next claim. Alone, it is a
    majority of one, unless it knows a computer that is neither closed nor gone (it may only have
    lost touch with it): then it agrees with itself only while the person is at it.
    """
    seen = _seen(view)
    voters = seen.living(now, but=me)
    if not voters:
        lost_touch = [
            c.computer
            for c in seen.claims
            if c.computer != me
            and not seen.closed(c)
            and now - seen.when(c) <= seen.timing.unclosed
        ]
        if not lost_touch:
            return True, ()
        present = seen.present
        if present is None:
            mine = next((c for c in seen.claims if c.computer == me), None)
            present = mine is not None and now - mine.active <= seen.timing.alive
        return present, () if present else tuple(lost_touch)
    dissent = tuple([c.computer for c in voters if c.sees != keeper])
    seeing = 1 + len(voters) - len(dissent)
    return 2 * seeing > 1 + len(voters), dissent


def weigh(
    rule: Rule,
    me: str,
    keeper: Claim | None,
    view: Sequence[Claim] | Seen,
    now: float,
    since: float | None,
    *,
    part: str,
    shown: int | None,
    read_others: bool,
    created: bool,
    blocked: str | None = None,
) -> Keeper:
    """The verdict on `part`: what the rules say of `keeper` (chosen from `view`, kept since
    `since`, in the units of `now`: ticks for the state machine; `shown`: that moment as the
    verdict says it, by the wall clock)."""
    if keeper is None:
        return Keeper(part, None, None, False, None, False, False, False, False, blocked=blocked)
    seen = _seen(view)
    here = keeper.computer == me
    settled = here and since is not None and now - since >= seen.timing.settling
    heard, unheard = acknowledged(
        keeper.computer,
        me,
        seen,
        rule,
        now,
        read_others=read_others,
        created=created,
        keeper_claim=keeper,
    )
    agree, dissent = agreed(keeper.computer, me, seen, now)
    acting = settled and (heard and blocked is None if rule.never_twice else agree)
    return Keeper(
        part,
        keeper.computer,
        keeper.name,
        here,
        shown,
        settled,
        others_heard=heard,
        agreed=agree,
        acting=acting,
        waiting=unheard if rule.never_twice else dissent,
        blocked=blocked if rule.never_twice else None,
    )
