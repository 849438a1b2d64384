"""The state machine: what one computer knows of one part, and the claims it writes. No I/O.

Read `rules` (who keeps a part) and `keeper` (the verdict) first; docs/protocol.md says it all in
words. This module owns every rule that depends on what was heard when: hearing times, settling,
whether the sync flows, the seq of each write, tenures and the acknowledgement each claim carries,
the computers declared gone for good, and what must be remembered across a restart.

All a computer knows of one part is one value, `Knowledge` (frozen), and one function changes it:
`step(knowledge, event, wall, tick) -> (knowledge, Ready)`, as etcd/raft's `Step` and `Ready`. The
shell (`lease.Lease`) scans the folder, opens the seals, feeds the claims in with the time, writes
what comes out and keeps the state file (holding the current value in a `Machine`); the model
checker (tests/model) holds the values themselves, and merges states by them.

Two clocks come in with every call:

- ``wall``: Unix seconds by this computer's clock, which a person or NTP may set. It goes into the
  claims only (`since`, `renewed`, `active`, `taken`, and the floor of `seq`).
- ``tick``: seconds of a clock that is never set and counts sleep (CLOCK_BOOTTIME on Linux). Every
  local judgement is made on it: when a claim was heard, settling, flow, the age of an
  acknowledgement. A wall clock set back or forward, by any amount, changes none of them.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import os
from collections.abc import Callable, Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Annotated, Any

from sioul_tray.errors import SioulError
from sioul_tray.i18n import Core
from sioul_tray.lease import codec
from sioul_tray.lease.keeper import (
    UNHEARD,
    Keeper,
    Reason,
    Seen,
    declared_tags,
    reasons,
    unheard_tag,
    weigh,
)
from sioul_tray.lease.rules import (
    ANY_CLOSE,
    EVERY_COMPUTER,
    EVERY_FIX,
    PARTS,
    READ_UNSAID,
    RULES,
    Claim,
    Fixes,
    Rule,
    choose,
    forgotten,
    picked,
    tag,
)
from sioul_tray.lease.rules import (
    heir as named_heir,
)
from sioul_tray.lease.status import NOBODY, Status, Waited, Why
from sioul_tray.timing import CONTRACT, Timing

FORGET_SPARE = 16  # bytes a claim keeps free after a declaration, for later, longer numbers
WIDEST_ACK = ("x" * 63, 2**32 - 1, 10**12)  # the longest `sees` a claim may have to carry
OWN_SEQS = 256  # this run's latest writes, recognised as its own


def new_tenure() -> int:
    """A tenure: random, so it never repeats for a computer whatever its clock or state does."""
    return int.from_bytes(os.urandom(4), "big")


# -- what the values in the knowledge stand for ------------------------------------------------


class Unit(enum.Enum):
    """What a number or a name in the knowledge stands for, said by its type (`Annotated`): the
    model checker writes each value of the knowledge by it, relative to now or renamed, so that
    a field added to `Knowledge` is in its states by its type alone (tests/model/world.py)."""

    TICK = "tick"  # a moment on this computer's ticks
    WALL = "wall"  # a moment on a wall clock, in the claims' seconds, or a seq
    TENURE = "tenure"  # a tenure of this computer's
    COMPUTER = "computer"  # a computer's id
    TAG = "tag"  # a computer's tag (`rules.tag`), or a key of `Claim.closes`


class Role(enum.Enum):
    """A field of `Knowledge` that no rule judges by, said by its type (`Annotated`)."""

    SHOWN = "shown"  # shown to the person only: no rule reads it
    GIVEN = "given"  # who the machine is, fixed for its life (`Seat`)


Tick = Annotated[float, Unit.TICK]
Wall = Annotated[float, Unit.WALL]
Stamp = Annotated[int, Unit.WALL]  # a wall time in whole seconds, as the claims carry it, or a seq
Tenure = Annotated[int, Unit.TENURE]
Computer = Annotated[str, Unit.COMPUTER]
Tag = Annotated[int, Unit.TAG]


def _news(known: Claim | None, claim: Claim, marks: bool = False) -> bool:
    """A newer copy says more than "still renewing": the state file must follow at once.
    `marks` (`Fixes.marks_kept`): a `wrote` mark too, which a yes to Sioul rests on (S6)."""
    return (
        known is None
        or (marks and known.wrote != claim.wrote)
        or known.closed != claim.closed
        or known.taken != claim.taken
        or known.sees != claim.sees
        or known.sees_tenure != claim.sees_tenure
        or known.tenure != claim.tenure
        or known.since != claim.since
        or known.forgets != claim.forgets
    )


@dataclass(frozen=True, slots=True)
class Memory:
    """What a restart keeps of one part (the state file): the last good copy of each claim, the
    declarations, and the closes rule's memory (see `Knowledge.named`)."""

    claims: Mapping[Computer, Claim] = field(default_factory=dict)
    forgets: Mapping[Computer, Stamp] = field(default_factory=dict)
    named: Mapping[Tag, Stamp] = field(default_factory=dict)

    def news(self, later: Memory, marks: bool = False) -> bool:
        """`later` holds more than renewals beside this memory: what a claim acknowledges, a
        close, a take, a declaration (and with `marks`, a `wrote` mark: S6). A restart must
        know it: it is saved at once."""
        if later.forgets != self.forgets or later.named != self.named:
            return True
        known = self.claims.get
        for c, claim in later.claims.items():  # every computer's, at each step: kept plain
            before = known(c)
            if before is not claim and _news(before, claim, marks):
                return True
        return False


@dataclass(frozen=True, slots=True)
class Seat:
    """Who a machine is, fixed for its life: its part, its computer's id and name, the folder's
    times (`Timing`), the fixes it applies (`Fixes`: all, but in the model checker), the rules its
    claims say they follow (the model checker's peers of older versions write 2, with none of
    the fields of the closes rule), and where its tenures come from (random; the model
    checker's own count)."""

    part: str
    me: str
    name: str
    timing: Timing = CONTRACT
    fixes: Fixes = EVERY_FIX
    rules: int = RULES
    tenure: Callable[[], int] = new_tenure
    rule: Rule = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule", PARTS[self.part])


# -- the events that come in, and what comes out ----------------------------------------------


@dataclass(frozen=True)
class Heard:
    """A read of the part's folder: the best copy of each claim found; the computers whose files
    are sealed with another key (`foreign`); where a copy was read, for those not read from
    their own file (`where`); and the folder's seal (`sealed`: None while it is the one this
    computer joined, else why invoices may not be numbered here)."""

    claims: Iterable[Claim]
    foreign: Collection[str] = ()
    where: Mapping[str, str] | None = None
    sealed: str | None = None


@dataclass(frozen=True)
class Renew:
    """Write this computer's claim, open; `take`: on purpose ("Make invoices here"), a new
    tenure; `active`: when the person was last here (None: now); `wrote`: Sioul's records mark;
    `confirm`: the person says this computer's records count up to `wrote`, where its mark
    could not be proven (`Knowledge.mark_unknown`)."""

    active: float | None = None
    take: bool = False
    wrote: int | None = None
    confirm: bool = False


@dataclass(frozen=True)
class Close:
    """Write this computer's claim, closed (quit, sleep, `sioul-tray close`)."""

    wrote: int | None = None


@dataclass(frozen=True)
class Forget:
    """Declare `computer` gone for good on this part (check first with `plan_forget`)."""

    computer: str


@dataclass(frozen=True)
class Look:
    """Say who keeps the part as seen here now, writing nothing."""


@dataclass(frozen=True)
class Saved:
    """The state file now holds this knowledge's `memory`."""


Event = Heard | Renew | Close | Forget | Look | Saved


@dataclass(frozen=True)
class Ready:
    """What a step asks of the shell, in this order (etcd/raft's Ready: persist, then send).

    `save_by`: the state file must hold the knowledge's `memory` by this tick, before `claim`
    goes out; None: it holds it already. Derived by comparing the memory with what the state
    file holds (`Knowledge.saved`), as raft's MustSync: at once where the memory holds news a
    restart must know (what a claim acknowledges, a close, a take, a declaration); within ALIVE
    of the last save for mere renewals.
    `claim`: this computer's claim to write. `verdict`: who keeps the part as seen here after
    the step (for a renew and a look). `problems`: what a read skipped (stale copies).
    """

    save_by: float | None = None
    claim: Claim | None = None
    verdict: Keeper | None = None
    problems: tuple[tuple[str, str], ...] = ()

    def save_due(self, tick: float) -> bool:
        """The state file must be written now, at `tick`."""
        return self.save_by is not None and self.save_by <= tick


# -- the knowledge -------------------------------------------------------------------------


class _Reads:
    """The questions the rules ask of what a machine knows, whether of a `Knowledge` value or of
    a step's working copy (`_Draft`): the same code reads both."""

    __slots__ = ()
    seat: Seat
    created: bool
    remembers: bool
    best: Mapping[str, Claim]
    forgets: Mapping[str, int]
    named: Mapping[int, int]
    heard: Mapping[str, float | None]
    observed: Mapping[str, float]
    read: AbstractSet[str]
    foreign: AbstractSet[str]
    ahead: Mapping[str, int]
    counted: Mapping[str, int]
    declared_at: Mapping[str, float]
    vouched: AbstractSet[str]
    kept: tuple[str | None, float] | None
    acted: bool
    flowing_since: float | None
    opened: int | None
    opened_tick: float | None
    tenure: int | None
    written: Mapping[int, float]
    started: float | None
    first_seq: int | None
    past: int | None
    own: tuple[int, ...]
    last_tick: float | None
    last_wall: float | None
    jumped_at: float | None
    distrust_until: float | None
    blocked: str | None
    cloned: float | None
    tags_gone: AbstractSet[int]
    mark_unknown: bool

    @property
    def memory(self) -> Memory:
        """The persistent half: what the state file must hold (`Ready.save_by`)."""
        return Memory(self.best, self.forgets, self.named)

    def view(self, tick: float, wall: float | None = None) -> Seen:
        """The claims as the rules see them: heard here, forgotten ones closed. No copies."""
        seat = self.seat
        fixes = seat.fixes
        heard: Mapping[str, float]
        claims: list[Claim]
        if None in self.heard.values():  # before the first read: only what was heard
            heard = {c: h for c, h in self.heard.items() if h is not None}
            claims = [c for c in self.best.values() if c.computer in heard]
        else:
            heard = self.heard  # type: ignore[assignment]  # no None left
            claims = list(self.best.values())
        present = None if wall is None else self._present(wall)
        trusting = self.distrust_until is None or tick >= self.distrust_until
        gone = forgotten(claims)
        tags_gone: AbstractSet[int] = frozenset()
        if fixes.tags_declared and trusting and seat.rule.never_twice:
            tags_gone = self.tags_gone
            others = declared_tags(claims)  # most folders: none
            if others:
                tags_gone = tags_gone | others
            mine = self.best.get(seat.me)
            if tags_gone and mine is not None and mine.knows:
                # This computer read that computer's claim once (its own claim says so) and
                # has lost it: it may have acknowledged it. Not declared by tag here.
                tags_gone = tags_gone - set(mine.knows)
        return Seen(
            claims,
            heard,
            gone,
            written=self.written if self.tenure is not None else None,
            started=self.started,
            flowing_since=self.flowing_since,
            tracks_flow=True,
            trusting=trusting,
            vouched={c: self.forgets[c] for c in self.vouched if c in self.forgets},
            named=self.named if fixes.closes else None,
            declared_from=(
                {c: self.declared_from(c) for c in gone}
                if gone and seat.rule.never_twice and fixes.forget_waits
                else None
            ),
            foreign=self.foreign if fixes.one_seal else (),
            tags_gone=tags_gone,
            present=present,
            opened=self.opened_tick,
            fixes=fixes,
            timing=seat.timing,
        )

    def reasons(self, tick: float) -> dict[str, Reason]:
        """For each other computer, the reason this computer holds not to wait for it, were it
        the keeper now (`keeper.reasons`, the verdict's own code): what it would act on. A
        read-only query for the invariants (`sioul_tray.lease.invariants`): a closed claim holds
        no acknowledgement (no tenure), but closes, declarations and silence it may count on
        waking."""
        me = self.seat.me
        mine = self.best.get(me)
        if mine is None:
            return {}
        if self.tenure is None and mine.tenure is not None:
            # Its claim is open from an earlier run (or a look beside the tray): this run opens
            # a tenure of its own before it acts, so no answer to that one counts here.
            mine = dataclasses.replace(mine, tenure=None)
        view = self.view(tick)
        alive = self.seat.timing.alive
        if view.flowing_since is not None and not any(
            tick - h <= alive for c, h in (view.heard or {}).items() if c != me
        ):
            # Its next verdict follows a read, which finds the sync still (`_Draft.hear`): a
            # machine that has read nothing lately cannot count anyone silent on waking.
            view = dataclasses.replace(view, flowing_since=None)
        return reasons(me, me, view, self.seat.rule, tick, keeper_claim=mine)

    def declared_from(self, computer: str) -> float:
        """When (ticks) a declaration that `computer` is gone may count here: once the computer
        can no longer be numbering on an acknowledgement of this one's. Any this computer
        wrote answered a version it had read, in this run (by the last one it read) or before
        (by the start of this run); each counts at most FRESH after that version was written,
        by its writer's ticks, which run within 0.27% of these (ALIVE less RENEW over a day).
        At once where a claim says the highest declaration of it counts already (`Claim.counted`): a
        start need not wait for that again. A computer known by its tag alone (`unheard_id`),
        whose claim this computer never read, it never acknowledged: at once
        (`Fixes.tags_declared`)."""
        if self.may_count_my_close(computer):
            return math.inf
        if unheard_tag(computer) is not None and self.seat.fixes.tags_declared:
            return -math.inf
        claims = self.best.values()
        declared = max((c.forgets.get(computer, -1) for c in claims if c.forgets), default=-1)
        mark = tag(computer)
        if declared >= 0 and (
            self.counted.get(computer, -1) >= declared
            or any(mark in c.counted and c.forgets.get(computer, -1) >= declared for c in claims)
        ):
            return -math.inf
        read = self.observed.get(computer)
        since = self.started if read is None else max(read, self.started or read)
        timing = self.seat.timing
        return (since if since is not None else math.inf) + timing.fresh + timing.alive

    def may_count_my_close(self, computer: str) -> bool:
        """`computer` may be numbering on a close of this one's that admitted it, for as long as
        it runs: its last claim read here does not show it had read a claim of this one newer
        than every such close (`Claim.admits` of this one's claim, `Claim.reads` of its; a
        stale copy is never read again). A close never lapses, so a declaration of it waits
        until it is heard (`Fixes.admitted_closes`, S4, issue 39 class 2a): the person who
        declares a computer gone may be wrong, and that computer only cut off."""
        seat = self.seat
        if not (seat.fixes.admitted_closes and seat.rule.never_twice):
            return False
        by_tag = unheard_tag(computer)
        mark = tag(computer) if by_tag is None else by_tag
        mine = self.best.get(seat.me)
        admits = mine.admits if mine is not None else {}
        # A close taken back as naming anyone (a restored or lost state) admitted anyone too.
        latest = max(
            admits.get(mark, -1), admits.get(EVERY_COMPUTER, -1), self.named.get(EVERY_COMPUTER, -1)
        )
        if latest < 0:
            return False
        theirs = self.best.get(computer)
        return theirs is None or theirs.reads.get(tag(seat.me), -1) <= latest

    def _present(self, wall: float) -> bool:
        mine = self.best.get(self.seat.me)
        return mine is not None and wall - mine.active <= self.seat.timing.alive

    @property
    def creates(self) -> bool:
        """This computer may act on an empty view (S2): it made the folder and can show it, by
        a state file that reads whole (begun as it sealed the folder: `statefile.begin`), or,
        that lost, by a claim of its own from an earlier run (`past`) that knew nobody
        (`_Draft.learn` drops `created` for one that knew others). Reinstalled while its
        folder downloads again, it is a joiner until then (`Fixes.lone_creator`)."""
        return self.created and (
            self.remembers or self.past is not None or not self.seat.fixes.lone_creator
        )

    def clone_problem(self, tick: float) -> str | None:
        """Why this computer may not act: another installation writes its claims (lately)."""
        if self.cloned is None or tick - self.cloned > self.seat.timing.alive:
            return None
        return Core.mark(
            "another computer writes this computer's claims ({computer}): its configuration "
            "was copied from this one; there, remove the file named computer in its "
            "configuration folder and run setup again",
            computer=self.seat.me,
        )

    def mark_problem(self) -> str | None:
        """Why this computer may not act: its records mark cannot be proven (S6)."""
        if not self.mark_unknown:
            return None
        return Core.mark(
            "this computer's records mark on {part} is unknown (its state was lost): Sioul "
            "must not number here until the person confirms it (sioul-tray wrote {part} N "
            "--confirm)",
            part=self.seat.part,
        )

    @property
    def unproven(self) -> bool:
        """This computer's claims hand nothing on (S6, `Fixes.marks_unproven`): its records mark
        is unknown (`mark_unknown`), so a claim another computer could act on (an
        acknowledgement of it, a close) might carry a `wrote` below a mark it said yes to."""
        return self.mark_unknown and self.seat.fixes.marks_unproven

    def plan_forget(self, computer: str, wall: float) -> Claim | None:
        """The claim that declares `computer` gone for good, or None when this part has no
        claim of it (nor a file sealed with another key). SioulError when it does not fit."""
        seat = self.seat
        t = wall_seconds(wall)
        theirs = self.best.get(computer)
        forgets = dict(self.forgets)
        by_tag = unheard_tag(computer)
        if by_tag is not None:
            # A computer known by its tag alone, which the others' claims say they read: the
            # declaration is that tag in this computer's `counted` (`Fixes.tags_declared`).
            if by_tag not in self.unheard_tags():
                return None
        elif theirs is None and computer not in self.foreign:
            return None
        else:
            forgets[computer] = theirs.seq if theirs is not None else 0
        mine = self.best.get(seat.me)
        unproven = mine is not None and mine.closed and self.unproven
        problem = self.mark_problem() if unproven else None
        if problem is not None:
            # A declaration in a closed claim is a close the others may count, its mark
            # unproven (S6): the person confirms the mark first.
            raise SioulError(problem)
        if mine is None:
            # A closed claim carries the news without claiming the part.
            mine = Claim(seat.me, seat.part, seat.name, 0, t, t, t, closed=True)
        claim = dataclasses.replace(
            mine,
            name=seat.name,
            seq=_next_seq(self.best.get(seat.me), t),
            renewed=t,
            forgets=dict(sorted(forgets.items())),
        )
        # Room for the longest acknowledgement and a few more digits, so later renewals fit too,
        # and for the closes that admitted anyone, all at once (`admits`: never left out).
        sees, sees_tenure, sees_seq = WIDEST_ACK
        widest = dataclasses.replace(
            claim,
            sees=sees,
            sees_tenure=sees_tenure,
            sees_seq=sees_seq,
            tenure=2**32 - 1,
            admits={ANY_CLOSE: codec.MAX_TIME, EVERY_COMPUTER: codec.MAX_TIME},
        )
        if not codec.fits(codec.encode(widest), spare=FORGET_SPARE):
            raise SioulError(
                Core.mark(
                    "this computer's claim has no room to declare {computer} gone: "
                    "%n computers are declared gone already",
                    None,
                    len(forgets) - 1,
                    one="this computer's claim has no room to declare {computer} gone: "
                    "1 computer is declared gone already",
                    computer=repr(computer),
                )
            )
        return claim

    def unheard_tags(self) -> set[int]:
        """The tags that may be declared gone by tag alone here: said read by a claim
        (`Claim.knows`), standing for no computer whose claim this one has (nor a file sealed
        with another key), not declared yet; none where the fix is off or the part may happen
        twice."""
        seat = self.seat
        if not (seat.fixes.tags_declared and seat.rule.never_twice):
            return set()
        said = {t for c in self.best.values() for t in c.knows}
        if not said:
            return said
        known = {tag(c) for c in self.best} | {tag(f) for f in self.foreign} | {tag(seat.me)}
        return said - known - self.tags_gone


@dataclass(frozen=True, slots=True)
class Knowledge(_Reads):
    """All one computer knows of one part: one frozen value, changed only by `step`.

    Per computer, what was heard and when (`best`, `heard`, `observed`, `read`, `foreign`); this
    computer's own memory (its tenure and writes, the closes it named, its declarations, when it
    kept what, whether the sync flows). Its persistent half, `memory` (`best`, `forgets`,
    `named`), is what the state file holds; `saved` is what it holds now: what must be saved, and
    how urgently, is the difference (`Ready.save_by`). Each field's type says what its values
    stand for (`Unit`), or that no rule reads it (`Role`): the model checker's states are made
    of the fields by their types.

    Its maps are never changed once made: a step replaces the ones it changes (copied once) and
    shares the others with the value before it, so the checker copies no machine.
    """

    seat: Annotated[Seat, Role.GIVEN]
    # This computer made the folder (the seal names it): it may act on an empty view while it
    # can show it (`creates`); False once a claim of its own from an earlier run it does not
    # remember shows that it knew others.
    created: bool = False
    # This run starts from a state file that read whole (or keeps its state in memory only).
    # False after the state was lost: once a claim of this computer's from before this run
    # shows, it may have acknowledged a keeper it no longer knows of, and it distrusts what it
    # cannot have witnessed (`distrust_until`).
    remembers: bool = True
    # The persistent half (`memory`). The last good copy of each computer's claim, in computer
    # order (`_Draft.in_order`); the computers this one declared gone, up to a seq; the closes
    # rule's memory (`Claim.closes`): for each computer's tag, the highest seq of this
    # computer's closes that named it successor; ANY_CLOSE: the seq of its latest close.
    best: Mapping[Computer, Claim] = field(default_factory=dict)
    forgets: Mapping[Computer, Stamp] = field(default_factory=dict)
    named: Mapping[Tag, Stamp] = field(default_factory=dict)
    # What the state file holds now, and when it was last written (None: not in this run).
    saved: Memory = field(default_factory=Memory)
    saved_at: Tick | None = None
    # When each claim was last heard changing; None: remembered, not yet read in this run.
    heard: Mapping[Computer, Tick | None] = field(default_factory=dict)
    # When this run last read a new version of each claim: unlike `heard`, never an estimate
    # (for when a declaration of that computer may count, `declared_from`).
    observed: Mapping[Computer, Tick] = field(default_factory=dict)
    read: frozenset[Computer] = frozenset()  # computers whose claim this run has read
    foreign: frozenset[Computer] = frozenset()  # files sealed with another key, by computer
    # Clocks seen ahead of the wall clock, by seconds.
    ahead: Annotated[Mapping[str, int], Role.SHOWN] = field(default_factory=dict)
    # Declarations its own claims say count already, up to a seq (`Claim.counted`).
    counted: Mapping[Computer, Stamp] = field(default_factory=dict)
    declared_at: Mapping[Computer, Tick] = field(default_factory=dict)  # (only without a fix)
    vouched: frozenset[Computer] = frozenset()  # declared gone in this run (`Seen.vouched`)
    kept: tuple[Computer | None, Tick] | None = None  # KEPT: (keeper seen here, since)
    # The last verdict let this computer act (`Claim.acting`; `inherits` reads it).
    acted: bool = False
    flowing_since: Tick | None = None  # since when other claims keep being heard
    opened: Stamp | None = None  # `since` of this computer's open claim in this run
    opened_tick: Tick | None = None  # ...and when, by ticks
    tenure: Tenure | None = None  # this computer's tenure while its claim is open
    # seq -> tick of each write in this tenure, FRESH back.
    written: Mapping[Stamp, Tick] = field(default_factory=dict)
    started: Tick | None = None  # this run's first call, by ticks
    first_seq: Stamp | None = None  # the first seq this run wrote
    # The highest seq of this computer's own claims from before this run that it knows (its
    # state file's, or one read back from the folder): a claim answering a higher one, older
    # than this run, tells that its memory went back (`_Draft.recognise`, S7).
    past: Stamp | None = None
    # The seqs this run wrote, the latest OWN_SEQS of them: a claim of this computer's with
    # another seq was written by another run (before this one, or a copy of it), whatever
    # a clock set back did to the seqs' order.
    own: tuple[Stamp, ...] = ()
    last_tick: Tick | None = None
    last_wall: Wall | None = None
    # When a gap or a set clock was last seen; the tray's loop hears of it (`Snapshot.jumped`).
    jumped_at: Annotated[Tick | None, Role.SHOWN] = None
    distrust_until: Tick | None = None
    blocked: str | None = None  # the folder's seal is not the one this computer joined
    cloned: Tick | None = None  # when another writer of this computer's claims showed
    # Computers declared gone here by their tag alone (`Fixes.tags_declared`): carried in this
    # computer's claims (`Claim.counted`), read back from them at a start.
    tags_gone: frozenset[Tag] = frozenset()
    # This computer's records mark cannot be proven (S6, `Fixes.marks_kept`): its state was lost
    # and a claim of its own from before this run showed, which may be older than the highest
    # mark it said yes to. It acts on no part that must never happen twice until the person
    # confirms a mark (`Renew.confirm`).
    mark_unknown: bool = False

    def recalling(self, remembered: Memory | None) -> Knowledge:
        """This knowledge as a run starts with what the state file kept (`remembered`, or None),
        which this computer's own claim there completes (`_Draft.recall`)."""
        if remembered is None:
            return self
        k = dataclasses.replace(
            self,
            best=dict(sorted(remembered.claims.items())),
            heard=dict.fromkeys(sorted(remembered.claims)),
            forgets=dict(remembered.forgets),
            named=dict(remembered.named),
        )
        k = dataclasses.replace(k, saved=k.memory)
        mine = remembered.claims.get(k.seat.me)
        if mine is None:
            return k
        k = dataclasses.replace(k, past=mine.seq)
        if mine.knows and k.created and not k.remembers and k.seat.fixes.lone_creator:
            k = dataclasses.replace(k, created=False)  # see `_Draft.learn`
        draft = _Draft(k)
        draft.recall(mine)
        return draft.finish()

    def save_by(self, tick: float, declared: bool = False) -> float | None:
        """When the state file must hold this knowledge's `memory` (`Ready.save_by`): news at
        once, mere renewals at most every ALIVE; a declaration (`declared`) at once, even one
        the state file holds already, as the first.

        Every minute brings a new seq from every computer: rewriting the whole state for each
        would double a tick's cost with many computers. What a crash can lose this way is a few
        high-water seqs of plain renewals, never a close, a take, a new acknowledgement or a
        declaration (and the claims carry what safety needs: docs/protocol.md)."""
        saved = self.saved
        if (
            self.best == saved.claims
            and self.forgets == saved.forgets
            and self.named == saved.named
        ):
            return None
        if declared or self.saved_at is None or saved.news(self.memory, self.seat.fixes.marks_kept):
            return tick
        return self.saved_at + self.seat.timing.alive


def step(knowledge: Knowledge, event: Event, wall: float, tick: float) -> tuple[Knowledge, Ready]:
    """Take in `event` at `wall` (this computer's clock) and `tick` (its boot clock): the
    knowledge after it, and what the shell must carry out. The one door: the shell and the model
    checker change a machine's knowledge through here alone; the rest only answers questions."""
    if isinstance(event, Saved):
        after = dataclasses.replace(knowledge, saved=knowledge.memory, saved_at=tick)
        return after, Ready()
    draft = _Draft(knowledge)
    claim: Claim | None = None
    verdict: Keeper | None = None
    problems: tuple[tuple[str, str], ...] = ()
    if isinstance(event, Heard):
        draft.blocked = event.sealed
        problems = tuple(draft.hear(int(wall), tick, event.claims, event.foreign, event.where))
    elif isinstance(event, Renew):
        claim = draft.renew(wall, tick, event.active, event.take, event.wrote, event.confirm)
        verdict = draft.judge(wall, tick)
    elif isinstance(event, Close):
        claim = draft.close(wall, tick, event.wrote)
    elif isinstance(event, Forget):
        claim = draft.forget(event.computer, wall, tick)
    else:
        verdict = draft.judge(wall, tick)
    after = draft.finish()
    declared = isinstance(event, Forget) and claim is not None
    return after, Ready(after.save_by(tick, declared), claim, verdict, problems)


class Machine:
    """One computer's knowledge of one part, held: the shell's handle on `step`.

    `knowledge` is the current value; `step` replaces it. `remembered`: what the state file
    kept, or None. `remembers`: see `Knowledge.remembers`. `tenure` draws tenures (injected by
    the tests). `fixes`, `rules`, `timing`: see `Seat`.
    """

    __slots__ = ("knowledge",)

    def __init__(
        self,
        part: str,
        me: str,
        name: str,
        *,
        created: bool,
        remembered: Memory | None = None,
        remembers: bool = True,
        tenure: Callable[[], int] = new_tenure,
        fixes: Fixes = EVERY_FIX,
        rules: int | None = None,
        timing: Timing = CONTRACT,
    ) -> None:
        seat = Seat(
            part,
            me,
            name,
            timing,
            fixes,
            RULES if rules is None else rules,
            tenure,
        )
        start = Knowledge(seat, created=created, remembers=remembers)
        self.knowledge = start.recalling(remembered)

    def __repr__(self) -> str:
        return f"Machine({self.knowledge.seat.part!r}, {self.knowledge.seat.me!r})"

    def step(self, event: Event, wall: float, tick: float) -> Ready:
        """`step` on the knowledge held, which it replaces: what the shell must carry out."""
        self.knowledge, ready = step(self.knowledge, event, wall, tick)
        return ready


_FIELDS = tuple(f.name for f in dataclasses.fields(Knowledge))


class _Draft(_Reads):
    """One step's working copy of a `Knowledge`: each map the step changes is copied the first
    time it does (`_map`, `_set`), the others stay shared with the value before it."""

    def __init__(self, k: Knowledge) -> None:
        d = self.__dict__
        for name in _FIELDS:
            d[name] = getattr(k, name)
        self._before = k
        self._copied: set[str] = set()
        self.claimed: tuple[float, Seen, Claim | None] | None = None  # see `write`

    def _map(self, name: str) -> dict[Any, Any]:
        """The map `name`, this step's own copy."""
        d = self.__dict__
        if name not in self._copied:
            self._copied.add(name)
            d[name] = dict(d[name])
        got: dict[Any, Any] = d[name]
        return got

    def _set(self, name: str) -> set[Any]:
        """The set `name`, this step's own copy."""
        d = self.__dict__
        if name not in self._copied:
            self._copied.add(name)
            d[name] = set(d[name])
        got: set[Any] = d[name]
        return got

    def finish(self) -> Knowledge:
        """The knowledge after this step."""
        d = self.__dict__
        for name in self._copied:
            if isinstance(d[name], set):
                d[name] = frozenset(d[name])
        return Knowledge(*[d[name] for name in _FIELDS])

    # -- hearing --------------------------------------------------------------------------

    def hear(
        self,
        wall: int,
        tick: float,
        claims: Iterable[Claim],
        foreign: Collection[str] = (),
        where: Mapping[str, str] | None = None,
    ) -> list[tuple[str, str]]:
        """Take in the best copy of each claim a read found.

        `foreign`: the computers whose claim files are sealed with another key. `where`: where a
        copy was read, for the copies not read from their own file in the folder. Returns the
        problems of this read: stale copies (a seq below one already read).
        """
        me = self.seat.me
        self.time(wall, tick)
        problems: list[tuple[str, str]] = []
        flowing = False  # another computer's claim heard within ALIVE: the sync is flowing
        alive = self.seat.timing.alive
        known_before = len(self.best)
        restored = self.seat.fixes.restored
        past_read = self.seat.fixes.own_past_read
        mark = tag(me)
        # The highest version of this computer's claim from before this run the others answer
        # (or, `own_past_read`, say they read).
        answered, first, own = -1, self.first_seq, self.own
        for claim in claims:
            c = claim.computer
            known = self.best.get(c)
            if restored and claim.sees == me and c != me:
                a = max(claim.sees_seq or -1, claim.answers or -1)
                if a > answered and a not in own and (first is None or a < first):
                    answered = a  # (a version this run wrote beyond `own`, or a copy's: not)
            if past_read and c != me and (claim.reads or me in claim.forgets):
                # A declaration of this computer says the version it declared gone: a claim
                # that makes one says no version of this one read (`reads` leaves it out).
                a = max(claim.reads.get(mark, -1), claim.forgets.get(me, -1))
                if a > max(answered, READ_UNSAID) and a not in own and (first is None or a < first):
                    answered = a  # (READ_UNSAID: a version read, not which: no past shown)
            if (
                c == me
                and not self.remembers
                and self.distrust_until is None
                and claim.seq not in self.own
            ):
                # A claim of this computer's from before this run, and no state file to say
                # what it answered then: it may have acknowledged a keeper it no longer knows
                # of, which may act on that answer. Until every such answer has expired (FRESH
                # after it was written), only fresh answers count here.
                self.distrust_until = (self.started or tick) + self.seat.timing.unclosed
                if self.seat.fixes.marks_kept and self.seat.rule.never_twice:
                    # Nor can it prove its records mark: this copy may be older than the
                    # highest mark it said yes to (S6). Shown as unknown, never as a lower one.
                    self.mark_unknown = True
                if self.seat.fixes.lost_closes and self.seat.rule.never_twice:
                    # Nor what it closed, naming anyone: a close never lapses, and the other
                    # computer may count a forgotten one long after this distrust ends (S4).
                    # Taken back as `recognise` does for a restored state.
                    named = self._map("named")
                    closed = max(claim.seq + 1, wall)
                    for key in (ANY_CLOSE, EVERY_COMPUTER):
                        if named.get(key, -1) < closed:
                            named[key] = closed
            if (
                c == me
                and self.first_seq is not None
                and known is not None
                and (claim.seq > known.seq or (claim.seq == known.seq and not _same(claim, known)))
            ):
                # A claim of this computer's that this run did not write, after it wrote:
                # another installation with the same id (a copied configuration).
                self.cloned = tick
            if (
                known is not None
                and claim.seq <= known.seq
                and claim.wrote > known.wrote
                and self.seat.fixes.marks_kept
            ):
                # An older copy, or one of a run that lost its state, with a higher mark: the
                # highest mark read of each computer stands (S6).
                known = self._map("best")[c] = dataclasses.replace(known, wrote=claim.wrote)
            if known is not None and known.seq == claim.seq:
                if c not in self.read:
                    self._set("read").add(c)  # the same copy as before: nothing new was heard
                continue
            place = (where or {}).get(c) or f"{c}.lease"
            if self.learn(known, claim, place, wall, tick, problems) and not flowing:
                h = self.heard[c]
                flowing = c != me and h is not None and tick - h <= alive
        if len(self.best) != known_before:  # a computer not known before: rare
            self.in_order()
        if answered >= 0:  # after this computer's own claim was read back: `past` is known
            self.recognise(answered, wall, tick)
        if None in self.heard.values():  # remembered, not in the folder any more
            heard = self._map("heard")
            for computer, h in heard.items():
                if h is None:
                    heard[computer] = _first_heard(self.best[computer], wall, tick)
        # Most reads learn some other claim just now; else, any heard lately.
        flowing = flowing or any(
            tick - h <= alive for c, h in self.heard.items() if c != me and h is not None
        )
        if not flowing:
            self.flowing_since = None
        elif self.flowing_since is None:
            self.flowing_since = tick
        foreign_now = frozenset(foreign) - {me} if foreign else frozenset()
        if foreign_now != self.foreign:
            self.foreign = foreign_now
        return problems

    def in_order(self) -> None:
        """`best` in computer order, as the snapshot lists it at every tick (`Snapshot.claims`):
        kept in order rather than sorted at each tick, since only a computer not known before
        changes it (each insertion calls this)."""
        best = self._map("best")
        items = sorted(best.items())
        best.clear()
        best.update(items)

    def recall(self, mine: Claim) -> None:
        """Take back what a claim of this computer's says it declared and which successors its
        closes named: the claims, not the state file, are where these facts live."""
        for gone, seq in mine.forgets.items():
            if self.forgets.get(gone, -1) < seq:
                self._map("forgets")[gone] = seq
            if tag(gone) in mine.counted and self.counted.get(gone, -1) < seq:
                self._map("counted")[gone] = seq
        seat = self.seat
        if seat.fixes.tags_declared and mine.counted:
            bare = declared_tags([mine]) - {tag(c) for c in self.best} - self.tags_gone
            if bare:
                self._set("tags_gone").update(bare)
        if (
            mine.rules < RULES
            and seat.rules == RULES
            and seat.fixes.upgraded_closes
            and self.named.get(ANY_CLOSE, -1) < mine.seq
        ):
            # Written before the closes rule was in the claims (an upgrade): whom this
            # computer's closes up to it named is nowhere (the first rules kept no record). Any
            # other computer may count any of them, so this one counts no close of the older
            # rules (`keeper._may_count_me_closed`): of two computers closed overnight and
            # upgraded, neither counts the other's old close in the morning (S4).
            self._map("named")[ANY_CLOSE] = mine.seq
        if not seat.fixes.closes_in_claims:
            return
        for key, seq in mine.closes.items():
            if self.named.get(key, -1) < seq:
                self._map("named")[key] = seq

    def recognise(self, answered: int, wall: int, tick: float) -> None:
        """Other computers' claims that name this one answer versions of this computer's claim
        up to `answered` (`sees_seq`, or `answers` for a close): one from before this run and
        newer than any this computer knows tells that its memory went back (its state file and
        its own claim file put back from one backup, S7). What it did since, it cannot know:
        acknowledged a keeper, closed naming anyone, carried a higher records mark. So it
        distrusts as after a lost state (`distrust_until`, "Losing the local state"), takes
        back a close after that version (`named`, every computer and any close, as if it had
        closed now): no close that answers a version from before this run counts here again
        (S4), until its writer writes anew; and holds its records mark unknown until the person
        confirms it (`Fixes.marks_forgotten`, S6). (Now rather than that version's seq + 1: the
        same closes in effect, since a close answering a version in between is such a sign
        itself, and a seq compared by order alone, as every other.)"""
        if answered <= (-1 if self.past is None else self.past):
            return
        fixes = self.seat.fixes
        if self.distrust_until is None:
            self.distrust_until = (self.started or tick) + self.seat.timing.unclosed
            if fixes.marks_forgotten and fixes.marks_kept and self.seat.rule.never_twice:
                # Nor its records mark: a forgotten version may carry a higher one (S6). Once a
                # run, as for a lost state: the person's word covers whatever is found later.
                self.mark_unknown = True
        self.past = answered
        if not self.seat.rule.never_twice:
            return  # no close counts on a part that follows the person
        named = self._map("named")
        # As of now: past every seq an earlier run wrote (but with a clock set back).
        closed = max(answered + 1, wall)
        for key in (ANY_CLOSE, EVERY_COMPUTER):
            if named.get(key, -1) < closed:
                named[key] = closed

    def learn(
        self,
        known: Claim | None,
        claim: Claim,
        where: str,
        wall: int,
        tick: float,
        problems: list[tuple[str, str]],
    ) -> bool:
        """Take in one newer copy; False if it is stale."""
        c = claim.computer
        if c not in self.read:
            self._set("read").add(c)
        if known is not None and claim.seq <= known.seq:
            problems.append(
                (
                    where,
                    Core.mark(
                        "stale copy: seq {seq}, already read seq {known}",
                        seq=claim.seq,
                        known=known.seq,
                    ),
                )
            )
            return False
        first = c not in self.heard or self.heard[c] is None or known is None
        if known is not None and claim.wrote < known.wrote and self.seat.fixes.marks_kept:
            # A newer copy with a lower mark (its writer restarted from an older copy of its
            # claim): a mark said yes to never goes back, here nor in `must_have` (S6).
            claim = dataclasses.replace(claim, wrote=known.wrote)
        self._map("best")[c] = claim
        if known is None and self.tags_gone and tag(c) in self.tags_gone:
            self._set("tags_gone").discard(tag(c))  # declared by its tag, it came: heard now
        self._map("heard")[c] = _first_heard(claim, wall, tick) if first else tick
        self._map("observed")[c] = tick
        if c == self.seat.me:
            # Another run of this installation wrote later (its state was lost, saved behind a
            # crash, restored from a backup, or written over by another process).
            if claim.seq not in self.own and (self.past is None or claim.seq > self.past):
                self.past = claim.seq
                if claim.knows and self.created and not self.remembers:
                    # A creator that lost its state, whose earlier run had read others: it acts
                    # only on what it reads of them, as a joiner (S2, `creates`).
                    self.created = self.created and not self.seat.fixes.lone_creator
            self.recall(claim)
            return True
        if claim.renewed - wall > self.seat.timing.renew:
            self._map("ahead")[c] = claim.renewed - wall
        elif c in self.ahead:
            del self._map("ahead")[c]
        declared = self.forgets.get(c)
        if declared is not None and claim.seq > declared and self.seat.fixes.forget_holds:
            del self._map("forgets")[c]  # it came back: the declaration is moot
            if c in self.counted:
                del self._map("counted")[c]
        return True

    # -- writing --------------------------------------------------------------------------

    def renew(
        self,
        wall: float,
        tick: float,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        confirm: bool = False,
    ) -> Claim:
        """This computer's claim, open: the one to write now. A take starts a new tenure.
        `confirm`: the person vouches for the mark `wrote` (`Knowledge.mark_unknown`)."""
        seat = self.seat
        t = wall_seconds(wall)
        self.time(wall, tick)
        mine = self.best.get(seat.me)
        open_run = self.tenure is not None and mine is not None and not mine.closed
        if not open_run:
            self.opened, self.opened_tick = t, tick
        if not open_run or take:
            self.tenure = seat.tenure()
            self.written = {}
        if confirm and wrote is not None and self.mark_unknown:
            self.mark_unknown = False  # proven by the person's word, written below (S6)
        claim = Claim(
            seat.me,
            seat.part,
            seat.name,
            _next_seq(mine, t),
            since=self.opened if self.opened is not None else t,
            renewed=t,
            active=t if active is None else min(_active(active), t),
            taken=self.taken(t) if take else _either(self.inherits(mine), mine),
            wrote=_wrote(mine, wrote, seat.fixes.marks_kept),
            forgets=self.declared(tick),
            tenure=self.tenure,
            acting=self.acted,
        )
        return self.write(claim, tick)

    def taken(self, t: int) -> int:
        """A take outranks every take already seen, whatever the clock that made it said: one made
        while a clock ran a year ahead must not stand above the next person's take for a year."""
        seen = max((c.taken for c in self.best.values() if c.taken is not None), default=-1)
        return min(max(t, seen + 1), codec.MAX_TIME)

    def inherits(self, mine: Claim | None) -> int | None:
        """Liveness ("the morning after", issue 42): this computer numbers invoices it did not
        take (another's close handed them on, or nobody took them) while a closed claim would
        outrank it were all open; it records them as its take, so that the latest take names the
        computer that numbered last: the heir every close names once all have closed (`heir`),
        which numbers alone the next morning, and the keeper once they are open again. The take
        it returns (None: none to record) is just above those closed claims' takes, not the
        clock: a person's take on a computer cut off from this one, made before this but not
        read yet, still stands. No tenure starts, so no acknowledgement of it lapses; no
        invariant rests on who keeps the part (S1 to S7 rest on acknowledgements, closes and
        declarations). Only on the verdict that let it act (`acted`), and never over an open
        claim: a person's take read here stands."""
        seat = self.seat
        if not (seat.rule.never_twice and self.acted) or mine is None or mine.closed:
            return None
        gone = forgotten(self.best.values())
        ahead = [
            c
            for c in self.best.values()
            if c.computer != seat.me
            and gone.get(c.computer, -1) < c.seq
            and picked(seat.rule, [c, mine], seat.timing) is c
        ]
        if not ahead or not all(c.closed for c in ahead):
            return None
        # Any take outranks a claim that took nothing (the oldest `since` then): 0 is enough.
        top = max((c.taken for c in ahead if c.taken is not None), default=-1)
        return min(top + 1, codec.MAX_TIME)

    def close(self, wall: float, tick: float, wrote: int | None = None) -> Claim | None:
        """This computer's claim, closed: it marks nothing until it renews. None: no claim yet."""
        t = wall_seconds(wall)
        mine = self.best.get(self.seat.me)
        wrote = _wrote(mine, wrote, self.seat.fixes.marks_kept)
        self.time(wall, tick)
        # It numbered up to now: the close says so, whoever it names (`inherits`).
        taken = _either(self.inherits(mine), mine)
        self.kept = None
        self.acted = False
        self.opened = self.tenure = None
        self.opened_tick = None
        if self.written:
            self.written = {}
        if mine is None:
            return None  # nothing of ours to close
        if self.unproven:
            # Its mark unknown, a close would hand the part on with a `wrote` that may be
            # below a mark said yes to (S6): none is written. Its open claim, which
            # acknowledges itself alone, keeps the others waiting for it (never counted gone
            # by its silence) until the person confirms the mark or declares it gone.
            return None
        claim = dataclasses.replace(
            mine,
            name=self.seat.name,
            seq=_next_seq(mine, t),
            renewed=t,
            taken=taken,
            closed=True,
            wrote=wrote,
            forgets=self.declared(tick),
            tenure=None,
            acting=False,
        )
        return self.write(claim, tick, closing=True)

    def forget(self, computer: str, wall: float, tick: float) -> Claim | None:
        """Declare `computer` gone for good on this part: the claim to write, or None."""
        claim = self.plan_forget(computer, wall)
        if claim is None:
            return None
        self.time(wall, tick)
        by_tag = unheard_tag(computer)
        if by_tag is not None:
            self._set("tags_gone").add(by_tag)
            return self.write(dataclasses.replace(claim, forgets=self.declared(tick)), tick)
        self._map("forgets")[computer] = claim.forgets[computer]
        if not self.seat.fixes.forget_holds:
            # The rule before: a declaration lapsed two days after the claim was last heard.
            heard = self.heard.get(computer)
            self._map("declared_at")[computer] = tick if heard is None else heard
        if computer not in self.vouched:
            self._set("vouched").add(computer)
        return self.write(dataclasses.replace(claim, forgets=self.declared(tick)), tick)

    def write(self, claim: Claim, tick: float, closing: bool = False) -> Claim:
        """Fill in the acknowledgement of the keeper seen with this claim in view, and for a part
        that must never happen twice what the closes rule remembers; remember it."""
        seat = self.seat
        me, rule = seat.me, seat.rule
        before = self.best.get(me)
        if before is not None and before.admits != claim.admits:
            # The closes that admitted each computer are remembered in every claim written.
            claim = dataclasses.replace(claim, admits=before.admits)
        self._map("best")[me] = claim
        if before is None:
            self.in_order()
        self._map("heard")[me] = tick
        if me not in self.read:
            self._set("read").add(me)
        view = self.view(tick)
        keeper = choose(
            rule, view.claims, tick, heard=view.heard, gone=view.gone, timing=seat.timing
        )
        sees, sees_tenure, sees_seq = self.ack(keeper, claim)
        answers = None
        if claim.closed and keeper is None and rule.never_twice:
            heir = self.heir(view, claim)
            if heir is not None:
                sees, answers = heir.computer, heir.seq
        claim = dataclasses.replace(
            claim, sees=sees, sees_tenure=sees_tenure, sees_seq=sees_seq, answers=answers
        )
        if rule.never_twice:
            if claim.closed and (closing or seat.fixes.forget_named):
                # Remembered in this very claim: the computer it names may count this close
                # for good, and this one must then not count that computer's (keeper.py).
                named = self._map("named")
                named[ANY_CLOSE] = claim.seq
                if sees is not None and sees != me:
                    named[tag(sees)] = claim.seq
            gone = view.gone or {}
            reads: dict[int, int] = {}
            admitting = claim.closed and seat.fixes.admitted_closes
            alive = seat.timing.alive
            for c, other in self.best.items():
                if c != me and gone.get(c, -1) < other.seq:
                    t = tag(c)  # two ids on one tag: the older read, never more than was read
                    heard = self.heard.get(c)
                    lately = other.closed or (heard is not None and tick - heard <= alive)
                    # A close admits the computers heard lately (or closed) alone: one silent
                    # longer may be dead (a keeper too, whose claim still holds for a day), and
                    # a declaration of it must not wait for this close (`Fixes.admitted_closes`).
                    said = other.seq if lately or not admitting else 0  # 0: unsaid
                    reads[t] = min(reads.get(t, said), said)
            knows = tuple(sorted(reads))
            reads = {t: seq for t, seq in reads.items() if seq}
            if seat.fixes.reads_kept and before is not None:
                # The highest version read of each stays said: a state file put back knows an
                # older one, whose close must not count again (`keeper._own_reads`, S4).
                for t, seq in before.reads.items():
                    if reads.get(t, seq) < seq:
                        reads[t] = seq
            admits = dict(claim.admits)
            if admitting and (closing or seat.fixes.forget_named):
                # Remembered as the closes that named: each computer admitted may count it.
                # ANY_CLOSE: this close says whom it admits (a version before says nothing).
                admits.update(dict.fromkeys([ANY_CLOSE, *reads], claim.seq))
            counted = tuple(
                sorted(
                    {tag(c) for c in claim.forgets if self.declared_from(c) <= tick}
                    | (self.tags_gone if seat.fixes.tags_declared else set())
                )
            )
            claim = codec.fitted(
                dataclasses.replace(
                    claim,
                    closes=dict(sorted(self.named.items())),
                    knows=knows,
                    counted=counted,
                    reads=reads,
                    admits=admits,
                )
            )
        if seat.rules != RULES:
            claim = dataclasses.replace(
                claim,
                answers=None,
                closes={},
                knows=(),
                counted=(),
                acting=None,
                reads={},
                admits={},
                rules=seat.rules,
            )
        best = self._map("best")
        best[me] = claim
        # The verdict that follows a write in this step sees the same claims (this one's
        # acknowledgement changes no choice): it reuses this view and keeper instead of making
        # them again.
        if len(view.claims) == len(best):  # the view holds every claim: in the same order
            claims = list(best.values())
        else:
            claims = [claim if c.computer == me else c for c in view.claims]
        if not claim.closed:
            # An answer to a version written more than FRESH ago never counts again (ticks only
            # go on), as if unknown: a tenure kept for months holds a day of writes, not all.
            written = self._map("written")
            fresh = seat.timing.fresh
            while written and tick - next(iter(written.values())) > fresh:
                del written[next(iter(written))]
            written[claim.seq] = tick
        self.claimed = (tick, dataclasses.replace(view, claims=claims), keeper)
        if self.first_seq is None:
            self.first_seq = claim.seq
        self.own = (*self.own[1 - OWN_SEQS :], claim.seq)
        return claim

    def heir(self, view: Seen, mine: Claim) -> Claim | None:
        """The successor a close names when every other claim is closed: the computer that would
        keep the part if they all were open, or None when that is this one.

        Of two computers that each closed having read the other's close, only the one whose close
        the other's names may count it (keeper.py): the part then stays with its keeper, which
        starts alone the next morning, and the other waits for it (`rules.heir`, which the
        tray's Quit question asks too).
        """
        seat = self.seat
        if not seat.fixes.successor:
            return None
        return named_heir(seat.rule, view.claims, mine, seat.timing)

    def ack(self, keeper: Claim | None, mine: Claim) -> tuple[str | None, int | None, int | None]:
        seat = self.seat
        if self.unproven:
            # Its mark unknown, it acknowledges no other computer's tenure (S6): the others
            # would act on this claim's `wrote`, which may be below a mark it said yes to.
            # Itself: a claim that keeps the part is never counted gone by its silence.
            return seat.me, mine.tenure, mine.seq
        if keeper is None:
            return None, None, None
        if keeper.computer == seat.me:
            return seat.me, mine.tenure, mine.seq
        if keeper.tenure is None:
            if seat.rule.never_twice and seat.fixes.tenure:
                # A keeper of a version before tenures counts any `sees` naming it as an
                # acknowledgement, whenever it was written: answering it would be unsafe.
                return None, None, None
            return keeper.computer, None, None
        return keeper.computer, keeper.tenure, keeper.seq

    def declared(self, tick: float) -> dict[str, int]:
        if not self.seat.fixes.forget_holds:
            lapsed = 2 * self.seat.timing.unclosed
            for c in [c for c, at in self.declared_at.items() if tick - at > lapsed]:
                self._map("forgets").pop(c, None)
                self._map("counted").pop(c, None)
                del self._map("declared_at")[c]
        return dict(sorted(self.forgets.items()))

    # -- judging --------------------------------------------------------------------------

    def judge(self, wall: float, tick: float) -> Keeper:
        """Who keeps the part as seen here now, and whether this computer may act on it."""
        seat = self.seat
        self.time(wall, tick)
        claimed, self.claimed = self.claimed, None
        if claimed is not None and claimed[0] == tick:
            # The view of this step's write, with what the write changed since.
            view = dataclasses.replace(
                claimed[1],
                present=self._present(wall),
                written=self.written if self.tenure is not None else None,
                named=self.named if seat.fixes.closes else None,
            )
            keeper = claimed[2]
            if keeper is not None and keeper.computer == seat.me:
                keeper = self.best[seat.me]
        else:
            view = self.view(tick, wall)
            keeper = choose(
                seat.rule, view.claims, tick, heard=view.heard, gone=view.gone, timing=seat.timing
            )
        chosen = keeper.computer if keeper else None
        if self.kept is None or self.kept[0] != chosen:
            self.kept = (chosen, tick)
        since = self.kept[1] if chosen is not None else None
        verdict = weigh(
            seat.rule,
            seat.me,
            keeper,
            view,
            tick,
            since,
            part=seat.part,
            shown=None if since is None else int(wall - (tick - since)),
            read_others=any(c != seat.me for c in self.best),
            created=self.creates,
            blocked=(self.blocked if seat.fixes.one_seal else None)
            or self.clone_problem(tick)
            or self.mark_problem(),
        )
        self.acted = verdict.acting
        status = self.status(keeper, verdict, view, wall, tick, since)
        return dataclasses.replace(verdict, status=status)

    def status(
        self,
        keeper: Claim | None,
        j: Keeper,
        view: Seen,
        wall: float,
        tick: float,
        since: float | None,
    ) -> Status:
        """Why the part is as it is here (`Keeper.status`), from what this machine knows: the
        keeper chosen, kept since `since` (ticks; `j.since` by the wall clock), as its verdict
        `j` weighs it."""
        timing = self.seat.timing
        if keeper is None:
            return NOBODY
        shown = j.since
        base = Status(Why.ACTING, keeper.computer, keeper.name, shown)
        if not j.here:
            h = self.heard.get(keeper.computer)
            live = h is not None and tick - h <= timing.alive
            theirs = self.best.get(keeper.computer)
            kept_since = _kept_since(theirs, shown)
            acts = None if theirs is None else theirs.acting
            # Shown only (no rule reads these): whether `since` is the keeper's own take, when it
            # was last heard, and whether it keeps the part past the time a tray takes to act
            # while its claim says it does not (a take by the command line with no tray there).
            taken = (
                theirs is not None
                and theirs.taken is not None
                and kept_since is not None
                and kept_since == max(theirs.taken, theirs.since)
            )
            idle = (
                live
                and acts is False
                and kept_since is not None
                and wall - kept_since > timing.settling + 2 * timing.renew
            )
            # Its mark unknown, its claims hand nothing on: the keeper waits for its person (S6).
            unproven = self.mark_problem() if self.unproven else None
            return dataclasses.replace(
                base,
                why=Why.ELSEWHERE,
                problem=unproven,
                cause=None if unproven is None else "mark",
                live=live,
                since=kept_since,
                acts=acts,
                taken=taken,
                heard=wall_of(h, wall, tick),
                idle=idle,
            )
        if j.blocked is not None:
            cause = (
                "clone"
                if j.blocked == self.clone_problem(tick)
                else "mark"
                if j.blocked == self.mark_problem()
                else "seal"
            )
            return dataclasses.replace(base, why=Why.BLOCKED, problem=j.blocked, cause=cause)
        if j.acting:
            return base
        if not j.settled:
            until = None if since is None else int(wall + (since + timing.settling - tick))
            return dataclasses.replace(base, why=Why.SETTLING, until=until)
        heard = self.heard
        counts = view.declared_from or {}
        waited = tuple(
            Waited(
                c,
                self.best[c].name if c in self.best else c,
                wall_of(heard.get(c), wall, tick),
                silent=(heard.get(c) is None or tick - (heard.get(c) or 0.0) > timing.alive),
                closed=c in self.best and view.closed(self.best[c]),
                last=self.numbered_last(c),
                unheard=c.startswith(UNHEARD),
                counts_from=(
                    wall_of(counts[c], wall, tick)
                    if tick < counts.get(c, -math.inf) < math.inf
                    else None
                ),
                # Never, until it is heard: it may count a close of this one (`admitted_closes`).
                on_close=counts.get(c, -math.inf) == math.inf,
            )
            for c in j.waiting
        )
        others = [c for c in view.claims if c.computer != self.seat.me]
        if not self.seat.rule.never_twice and not any(view.alive(c, tick) for c in others):
            # Out of touch with the others, the person away: paused.
            return dataclasses.replace(base, why=Why.AWAY, waiting=waited)
        if not waited:
            return dataclasses.replace(base, why=Why.ALONE)
        # Nothing heard from anyone lately though some computer is open: more likely this
        # computer's own sync stopped than all of them.
        stalled = any(not c.closed for c in others) and all(
            tick - view.when(c) > timing.alive for c in others
        )
        return dataclasses.replace(base, why=Why.WAITING, waiting=waited, stalled=stalled)

    def numbered_last(self, computer: str) -> bool:
        """Shown only: `computer` closed with a take that outranks this computer's (the heir of
        the closes, `inherits`): it numbered last, and numbers alone when it starts."""
        theirs, mine = self.best.get(computer), self.best.get(self.seat.me)
        if theirs is None or mine is None or not theirs.closed:
            return False
        return picked(self.seat.rule, [theirs, mine], self.seat.timing) is theirs

    # -- time -----------------------------------------------------------------------------

    def time(self, wall: float, tick: float) -> None:
        """Settle again after a gap in the ticks (slept or stopped without telling us: the others
        may have moved on) or a wall clock set (its step differs from the ticks' by over 2 *
        RENEW): as the contract always said, forward or back. Nothing heard is aged by a set
        clock; only settling starts again, so a connected pair resumes within SETTLING + RENEW."""
        if self.started is None:
            self.started = tick
        last, last_wall = self.last_tick, self.last_wall
        if last is not None and self.kept is not None:
            jump = self.seat.timing.jump
            gap = tick - last > jump
            set_clock = last_wall is not None and abs((wall - last_wall) - (tick - last)) > jump
            if gap or set_clock:
                self.kept = (self.kept[0], tick)
                self.jumped_at = tick  # the tray's loop hears of it (`Snapshot.jumped`)
        if last is None or tick >= last:
            self.last_tick, self.last_wall = tick, wall


def _first_heard(claim: Claim, wall: int, tick: float) -> float:
    # The first read in a run: heard when it was written, by the writer's clock, if that is
    # in the past of ours. Only an estimate: "gone" counts silence observed in this run only.
    return tick - max(0, wall - claim.renewed)


def _next_seq(mine: Claim | None, t: int) -> int:
    # The clock makes seq go up across reinstalls that lost the state, too.
    return max(mine.seq + 1 if mine else 0, t)


def _either(inherited: int | None, mine: Claim | None) -> int | None:
    # The take a claim carries: the one inherited now (`Knowledge.inherits`), else its own.
    return inherited if inherited is not None else mine.taken if mine else None


def _kept_since(keeper: Claim | None, seen: int | None) -> int | None:
    """Since when the keeper has kept the part, as the person reads it ("Invoices: Office PC
    (since 06:12)"): since this computer saw it, or since the keeper's own take where its claim
    says it took the part earlier (this computer started after, and would show its own start).
    A take stands from the claim's opening at the latest: a keeper that closed and opened again
    after its take has kept the part since it opened. Shown only: no rule reads it."""
    if keeper is None or keeper.taken is None or seen is None:
        return seen
    return min(seen, max(keeper.taken, keeper.since))


def wall_seconds(wall: float) -> int:
    """The wall clock's reading as written into claims; SioulError when no reader accepts it."""
    if not (isinstance(wall, int | float) and math.isfinite(wall)) or not (
        0 <= wall <= codec.MAX_TIME
    ):
        raise SioulError(
            Core.mark(
                "this computer's clock reads {clock}, not a time between 1970 and 2514: set it",
                clock=repr(wall),
            )
        )
    return int(wall)


def _active(active: float) -> int:
    ok = isinstance(active, int | float) and not isinstance(active, bool)
    if not ok or not math.isfinite(active) or not 0 <= active <= codec.MAX_TIME:
        raise SioulError(
            Core.mark(
                "active must be a time between 1970 and 2514, not {active}", active=repr(active)
            )
        )
    return int(active)


def _wrote(mine: Claim | None, wrote: int | None, kept: bool = False) -> int:
    """The mark a claim of this computer's carries: `wrote`, checked, else the last one's; with
    `kept` (`Fixes.marks_kept`), never below the last one's (S6)."""
    if wrote is None:
        return mine.wrote if mine else 0
    if isinstance(wrote, bool) or not isinstance(wrote, int) or not 0 <= wrote <= codec.MAX_INT:
        raise SioulError(
            Core.mark(
                "wrote must be a whole number from 0 to {top}, not {wrote}",
                top=codec.MAX_INT,
                wrote=repr(wrote),
            )
        )
    return max(wrote, mine.wrote) if kept and mine is not None else wrote


def _same(claim: Claim, known: Claim) -> bool:
    """Two copies of one version: the one kept may carry a higher mark (S6), nothing else."""
    return claim == known or (
        claim.wrote < known.wrote and dataclasses.replace(claim, wrote=known.wrote) == known
    )


def wall_of(tick_time: float | None, wall: float, tick: float) -> int | None:
    """A moment on this computer's ticks, shown by its wall clock as it reads now."""
    return None if tick_time is None else int(wall - (tick - tick_time))
