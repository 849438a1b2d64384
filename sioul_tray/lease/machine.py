"""The state machine: what one computer knows of one part, and the claims it writes. No I/O.

Read `rules` (who keeps a part) and `keeper` (the verdict) first; docs/protocol.md says it all in
words. This module owns every rule that depends on what was heard when: hearing times, settling,
whether the sync flows, the seq of each write, tenures and the acknowledgement each claim carries,
the computers declared gone for good, and what must be remembered across a restart. The shell
(`lease.Lease`) scans the folder, opens the seals, feeds the claims in with the time, writes what
comes out and keeps the state file; the model checker (tests/model) drives this class directly.

Two clocks come in with every call:

- ``wall``: Unix seconds by this computer's clock, which a person or NTP may set. It goes into the
  claims only (`since`, `renewed`, `active`, `taken`, and the floor of `seq`).
- ``tick``: seconds of a clock that is never set and counts sleep (CLOCK_BOOTTIME on Linux). Every
  local judgement is made on it: when a claim was heard, settling, flow, the age of an
  acknowledgement. A wall clock set back or forward, by any amount, changes none of them.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import os
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from sioul_tray.errors import SioulError
from sioul_tray.i18n import Core
from sioul_tray.lease import codec
from sioul_tray.lease.keeper import UNHEARD, Judgement, Keeper, Seen, weigh
from sioul_tray.lease.rules import (
    ANY_CLOSE,
    PARTS,
    RULES,
    Claim,
    choose,
    forgotten,
    picked,
    tag,
)
from sioul_tray.lease.status import Status, Waited, Why
from sioul_tray.timing import CONTRACT, Timing

FORGET_SPARE = 16  # bytes a claim keeps free after a declaration, for later, longer numbers
WIDEST_ACK = ("x" * 63, 2**32 - 1, 10**12)  # the longest `sees` a claim may have to carry
OWN_SEQS = 256  # this run's latest writes, recognised as its own

# Fixes that the model checker switches off to show it finds what they fix (tests/model). Never
# set by the tray or the command line.
FIXES = frozenset(
    {
        "tenure",
        "forget_holds",
        "one_seal",
        "closes",
        # The "claims alone" rules: the closes rule's memory read back from this computer's own
        # claims; every closed claim it writes remembered (a declaration written while closed);
        # a close of a computer on older rules never counted after a close of this one.
        "closes_in_claims",
        "forget_named",
        "old_rules_closes",
        # A close names the computer that would keep the part when every other one is closed.
        "successor",
        # Computers known from the others' claims only are waited for (a folder downloading).
        "learns_members",
        # A declaration counts only once the computer declared can no longer be numbering.
        "forget_waits",
        # ...and so does one made while this computer distrusts (its state lost): never at once
        # as a close of the computer declared.
        "vouch_waits",
        # A keeper is counted gone by a close or a declaration, never by its silence alone (on
        # invoices): cut off, it may be numbering on declarations its person made there.
        "keepers_declared",
        # A close naming no successor (its writer the heir) is not counted by one that closed.
        "heirless_closes",
    }
)


def new_tenure() -> int:
    """A tenure: random, so it never repeats for a computer whatever its clock or state does."""
    return int.from_bytes(os.urandom(4), "big")


def _news(known: Claim | None, claim: Claim) -> bool:
    """A newer copy says more than "still renewing": the state file must follow at once."""
    return (
        known is None
        or known.closed != claim.closed
        or known.taken != claim.taken
        or known.sees != claim.sees
        or known.sees_tenure != claim.sees_tenure
        or known.tenure != claim.tenure
        or known.since != claim.since
        or known.forgets != claim.forgets
    )


@dataclass
class Memory:
    """What a restart keeps of one part: the last good copy of each claim, and the declarations."""

    claims: dict[str, Claim] = field(default_factory=dict)
    forgets: dict[str, int] = field(default_factory=dict)
    named: dict[int, int] = field(default_factory=dict)  # see `Machine.named`


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
    tenure; `active`: when the person was last here (None: now); `wrote`: Sioul's records mark."""

    active: float | None = None
    take: bool = False
    wrote: int | None = None


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
    """The state file now holds this machine's `memory()`."""


Event = Heard | Renew | Close | Forget | Look | Saved


@dataclass(frozen=True)
class Ready:
    """What a step asks of the shell, in this order (etcd/raft's Ready: persist, then send).

    `save_by`: the state file must hold `Machine.memory()` by this tick, before `claim` goes out
    (at once when the memory holds news a restart must know: what a claim acknowledges, a close,
    a take, a declaration; within ALIVE for mere renewals); None: it holds it already.
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


class Machine:
    """One computer's knowledge of one part, and the claims it writes on it.

    `remembered`: what the state file kept, or None. `remembers`: this run starts from a state
    file that read whole (or keeps its state in memory only). False after the state was lost:
    once a claim of this computer's from before this run shows, it may have acknowledged a keeper
    it no longer knows of, and it distrusts what it cannot have witnessed (see `_hear`).
    `tenure` draws tenures (injected by the model checker). `without`: fixes switched off (FIXES).
    `rules`: the rules its claims say they follow (the model checker's peers of older versions
    write 2, with none of the fields of the closes rule). `timing`: the folder's (`Timing`).
    """

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
        without: Collection[str] = (),
        rules: int | None = None,
        timing: Timing = CONTRACT,
    ) -> None:
        self.part = part
        self.timing = timing
        self.rule = PARTS[part]
        self.me = me
        self.name = name
        self.created = created
        self.new_tenure = tenure
        self.without = frozenset(without)
        self.rules = RULES if rules is None else rules
        # The last good copy of each computer's claim, in computer order (`_in_order`).
        self.best: dict[str, Claim] = {}
        self.heard: dict[str, float | None] = {}  # ticks; None: remembered, not yet read
        # When (ticks) this run last read a new version of each claim: unlike `heard`, never an
        # estimate (for when a declaration of that computer may count, `declared_from`).
        self.observed: dict[str, float] = {}
        self.read: set[str] = set()  # computers whose claim this run has read
        self.forgets: dict[str, int] = {}  # computers this one declared gone, up to a seq
        # Declarations its own claims say count already, up to a seq (`Claim.counted`).
        self.counted: dict[str, int] = {}
        self.declared_at: dict[str, float] = {}  # when each was declared (only without a fix)
        self.vouched: set[str] = set()  # declared gone in this run (see `Seen.vouched`)
        # The closes rule's memory (`Claim.closes`): for each computer's tag, the highest seq of
        # this computer's closes that named it successor; ANY_CLOSE: the seq of its latest close.
        self.named: dict[int, int] = {}
        self.kept: tuple[str | None, float] | None = None  # KEPT: (keeper seen here, since)
        self.acted = False  # the last verdict let this computer act (`Claim.acting`; shown only)
        self.flowing_since: float | None = None  # since when other claims keep being heard
        self.opened: int | None = None  # `since` of this computer's open claim in this run
        self.opened_tick: float | None = None  # ...and when, by ticks
        self.tenure: int | None = None  # this computer's tenure while its claim is open
        self.written: dict[int, float] = {}  # seq -> tick of each write in this tenure, FRESH back
        self.started: float | None = None  # this run's first call, by ticks
        self.first_seq: int | None = None  # the first seq this run wrote
        # The seqs this run wrote, the latest OWN_SEQS of them: a claim of this computer's with
        # another seq was written by another run (before this one, or a copy of it), whatever
        # a clock set back did to the seqs' order.
        self.own: collections.deque[int] = collections.deque(maxlen=OWN_SEQS)
        self.last_tick: float | None = None
        self.last_wall: float | None = None
        self.jumped_at: float | None = None  # when a gap or a set clock was last seen (ticks)
        self.remembers = remembers
        self.distrust_until: float | None = None
        self.ahead: dict[str, int] = {}  # clocks seen ahead of the wall clock, by seconds
        self.foreign: frozenset[str] = frozenset()  # files sealed with another key, by computer
        self.blocked: str | None = None  # the folder's seal is not the one this computer joined
        self.cloned: float | None = None  # when another writer of this computer's claims showed
        self._after_write: tuple[float, Seen, Claim | None] | None = None  # see `_write`
        self.dirty = False  # the state file is behind what this machine knows
        self.urgent = False  # ...by more than renewals
        self.saved_at: float | None = None
        if remembered is not None:
            for computer, claim in remembered.claims.items():
                self.best[computer] = claim
                self.heard[computer] = None
            self.forgets = dict(remembered.forgets)
            self.named = dict(remembered.named)
            mine = remembered.claims.get(me)
            if mine is not None:
                self._recall(mine)
            self._in_order()

    def __repr__(self) -> str:
        return f"Machine({self.part!r}, {self.me!r})"

    # -- the one door -----------------------------------------------------------------------

    def step(self, event: Event, wall: float, tick: float) -> Ready:
        """Take in `event` at `wall` (this computer's clock) and `tick` (its boot clock), and
        say what to carry out. The shell and the model checker both drive the machine through
        here alone; the other public methods only answer questions."""
        claim: Claim | None = None
        verdict: Keeper | None = None
        problems: tuple[tuple[str, str], ...] = ()
        if isinstance(event, Heard):
            self.blocked = event.sealed
            heard = self._hear(int(wall), tick, event.claims, event.foreign, event.where)
            problems = tuple(heard)
        elif isinstance(event, Renew):
            claim = self._renew(wall, tick, event.active, event.take, event.wrote)
            verdict = self._judge(wall, tick)
        elif isinstance(event, Close):
            claim = self._close(wall, tick, event.wrote)
        elif isinstance(event, Forget):
            claim = self._forget(event.computer, wall, tick)
        elif isinstance(event, Look):
            verdict = self._judge(wall, tick)
        else:
            self._saved(tick)
        return Ready(self._save_by(tick), claim, verdict, problems)

    def _save_by(self, tick: float) -> float | None:
        """When the state file must hold this machine's memory (`Ready.save_by`): news at once,
        mere renewals at most every ALIVE.

        Every minute brings a new seq from every computer: rewriting the whole state for each
        would double a tick's cost with many computers. What a crash can lose this way is a few
        high-water seqs of plain renewals, never a close, a take, a new acknowledgement or a
        declaration (and the claims carry what safety needs: docs/protocol.md)."""
        if not self.dirty:
            return None
        if self.urgent or self.saved_at is None:
            return tick
        return self.saved_at + self.timing.alive

    # -- hearing --------------------------------------------------------------------------

    def _hear(
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
        self._time(wall, tick)
        self._after_write = None
        problems: list[tuple[str, str]] = []
        flowing = False  # another computer's claim heard within ALIVE: the sync is flowing
        heard, best, alive = self.heard, self.best, self.timing.alive
        known_before = len(best)
        for claim in claims:
            c = claim.computer
            known = best.get(c)
            if (
                c == self.me
                and not self.remembers
                and self.distrust_until is None
                and claim.seq not in self.own
            ):
                # A claim of this computer's from before this run, and no state file to say
                # what it answered then: it may have acknowledged a keeper it no longer knows
                # of, which may act on that answer. Until every such answer has expired (FRESH
                # after it was written), only fresh answers count here.
                self.distrust_until = (self.started or tick) + self.timing.unclosed
            if (
                c == self.me
                and self.first_seq is not None
                and known is not None
                and (claim.seq > known.seq or (claim.seq == known.seq and claim != known))
            ):
                # A claim of this computer's that this run did not write, after it wrote:
                # another installation with the same id (a copied configuration).
                self.cloned = tick
            if known is not None and known.seq == claim.seq:
                self.read.add(c)  # the same copy as before: nothing new was heard
                continue
            place = (where or {}).get(c) or f"{c}.lease"
            if self._learn(known, claim, place, wall, tick, problems) and not flowing:
                h = heard[c]
                flowing = c != self.me and h is not None and tick - h <= alive
        if len(best) != known_before:  # a computer not known before: rare
            self._in_order()
        if None in heard.values():  # remembered, not in the folder any more
            for computer, h in heard.items():
                if h is None:
                    heard[computer] = self._first_heard(self.best[computer], wall, tick)
        # Most reads learn some other claim just now; else, any heard lately.
        flowing = flowing or any(
            tick - h <= alive for c, h in heard.items() if c != self.me and h is not None
        )
        if not flowing:
            self.flowing_since = None
        elif self.flowing_since is None:
            self.flowing_since = tick
        self.foreign = frozenset(foreign) - {self.me} if foreign else frozenset()
        return problems

    def _in_order(self) -> None:
        """`best` in computer order, as the snapshot lists it at every tick (`Snapshot.claims`):
        kept in order rather than sorted at each tick, since only a computer not known before
        changes it (each insertion calls this)."""
        best = self.best
        items = sorted(best.items())
        best.clear()
        best.update(items)

    def _recall(self, mine: Claim) -> None:
        """Take back what a claim of this computer's says it declared and which successors its
        closes named: the claims, not the state file, are where these facts live."""
        for gone, seq in mine.forgets.items():
            if self.forgets.get(gone, -1) < seq:
                self.forgets[gone] = seq
            if tag(gone) in mine.counted and self.counted.get(gone, -1) < seq:
                self.counted[gone] = seq
        if "closes_in_claims" in self.without:
            return
        for key, seq in mine.closes.items():
            if self.named.get(key, -1) < seq:
                self.named[key] = seq
                self.urgent = self.dirty = True

    def _first_heard(self, claim: Claim, wall: int, tick: float) -> float:
        # The first read in a run: heard when it was written, by the writer's clock, if that is
        # in the past of ours. Only an estimate: "gone" counts silence observed in this run only.
        return tick - max(0, wall - claim.renewed)

    def _learn(
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
        self.read.add(c)
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
        self.best[c] = claim
        self.heard[c] = self._first_heard(claim, wall, tick) if first else tick
        self.observed[c] = tick
        self.dirty = True
        if not self.urgent and _news(known, claim):
            self.urgent = True
        if c == self.me:
            # Another run of this installation wrote later (its state was lost, saved behind a
            # crash, restored from a backup, or written over by another process).
            self._recall(claim)
            return True
        if claim.renewed - wall > self.timing.renew:
            self.ahead[c] = claim.renewed - wall
        else:
            self.ahead.pop(c, None)
        declared = self.forgets.get(c)
        if declared is not None and claim.seq > declared and "forget_holds" not in self.without:
            del self.forgets[c]  # it came back: the declaration is moot
            self.counted.pop(c, None)
            self.urgent = self.dirty = True
        return True

    # -- writing --------------------------------------------------------------------------

    def _renew(
        self,
        wall: float,
        tick: float,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
    ) -> Claim:
        """This computer's claim, open: the one to write now. A take starts a new tenure."""
        t = wall_seconds(wall)
        self._time(wall, tick)
        mine = self.best.get(self.me)
        open_run = self.tenure is not None and mine is not None and not mine.closed
        if not open_run:
            self.opened, self.opened_tick = t, tick
        if not open_run or take:
            self.tenure = self.new_tenure()
            self.written = {}
        claim = Claim(
            self.me,
            self.part,
            self.name,
            self._next_seq(mine, t),
            since=self.opened if self.opened is not None else t,
            renewed=t,
            active=t if active is None else min(_active(active), t),
            taken=self._taken(t) if take else (mine.taken if mine else None),
            wrote=_wrote(mine, wrote),
            forgets=self._declared(tick),
            tenure=self.tenure,
            acting=self.acted,
        )
        return self._write(claim, tick)

    def _taken(self, t: int) -> int:
        """A take outranks every take already seen, whatever the clock that made it said: one made
        while a clock ran a year ahead must not stand above the next person's take for a year."""
        seen = max((c.taken for c in self.best.values() if c.taken is not None), default=-1)
        return min(max(t, seen + 1), codec.MAX_TIME)

    def _close(self, wall: float, tick: float, wrote: int | None = None) -> Claim | None:
        """This computer's claim, closed: it marks nothing until it renews. None: no claim yet."""
        t = wall_seconds(wall)
        mine = self.best.get(self.me)
        wrote = _wrote(mine, wrote)
        self._time(wall, tick)
        self.kept = None
        self.acted = False
        self.opened = self.opened_tick = self.tenure = None
        self.written = {}
        if mine is None:
            return None  # nothing of ours to close
        claim = dataclasses.replace(
            mine,
            name=self.name,
            seq=self._next_seq(mine, t),
            renewed=t,
            closed=True,
            wrote=wrote,
            forgets=self._declared(tick),
            tenure=None,
            acting=False,
        )
        return self._write(claim, tick, closing=True)

    def plan_forget(self, computer: str, wall: float) -> Claim | None:
        """The claim that declares `computer` gone for good, or None when this part has no
        claim of it (nor a file sealed with another key). SioulError when it does not fit."""
        t = wall_seconds(wall)
        theirs = self.best.get(computer)
        if theirs is None and computer not in self.foreign:
            return None
        forgets = dict(self.forgets)
        forgets[computer] = theirs.seq if theirs is not None else 0
        mine = self.best.get(self.me)
        if mine is None:
            # A closed claim carries the news without claiming the part.
            mine = Claim(self.me, self.part, self.name, 0, t, t, t, closed=True)
        claim = dataclasses.replace(
            mine,
            name=self.name,
            seq=self._next_seq(self.best.get(self.me), t),
            renewed=t,
            forgets=dict(sorted(forgets.items())),
        )
        # Room for the longest acknowledgement and a few more digits, so later renewals fit too.
        sees, sees_tenure, sees_seq = WIDEST_ACK
        widest = dataclasses.replace(
            claim, sees=sees, sees_tenure=sees_tenure, sees_seq=sees_seq, tenure=2**32 - 1
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

    def _forget(self, computer: str, wall: float, tick: float) -> Claim | None:
        """Declare `computer` gone for good on this part: the claim to write, or None."""
        claim = self.plan_forget(computer, wall)
        if claim is None:
            return None
        self._time(wall, tick)
        self.forgets[computer] = claim.forgets[computer]
        if "forget_holds" in self.without:
            # The rule before: a declaration lapsed two days after the claim was last heard.
            heard = self.heard.get(computer)
            self.declared_at[computer] = tick if heard is None else heard
        self.vouched.add(computer)
        self.urgent = True
        return self._write(dataclasses.replace(claim, forgets=self._declared(tick)), tick)

    def _write(self, claim: Claim, tick: float, closing: bool = False) -> Claim:
        """Fill in the acknowledgement of the keeper seen with this claim in view, and for a part
        that must never happen twice what the closes rule remembers; remember it."""
        before = self.best.get(self.me)
        self.best[self.me] = claim
        if before is None:
            self._in_order()
        self.heard[self.me] = tick
        self.read.add(self.me)
        view = self.view(tick)
        keeper = choose(
            self.rule, view.claims, tick, heard=view.heard, gone=view.gone, timing=self.timing
        )
        sees, sees_tenure, sees_seq = self._ack(keeper, claim)
        answers = None
        if claim.closed and keeper is None and self.rule.never_twice:
            heir = self._heir(view, claim)
            if heir is not None:
                sees, answers = heir.computer, heir.seq
        claim = dataclasses.replace(
            claim, sees=sees, sees_tenure=sees_tenure, sees_seq=sees_seq, answers=answers
        )
        if self.rule.never_twice:
            if claim.closed and (closing or "forget_named" not in self.without):
                # Remembered in this very claim: the computer it names may count this close
                # for good, and this one must then not count that computer's (keeper.py).
                self.named[ANY_CLOSE] = claim.seq
                if sees is not None and sees != self.me:
                    self.named[tag(sees)] = claim.seq
                self.urgent = True
            gone = view.gone or {}
            knows = tuple(
                sorted(
                    tag(c)
                    for c, other in self.best.items()
                    if c != self.me and gone.get(c, -1) < other.seq
                )
            )
            counted = tuple(sorted(tag(c) for c in claim.forgets if self.declared_from(c) <= tick))
            claim = codec.fitted(
                dataclasses.replace(
                    claim, closes=dict(sorted(self.named.items())), knows=knows, counted=counted
                )
            )
        if self.rules != RULES:
            claim = dataclasses.replace(
                claim,
                answers=None,
                closes={},
                knows=(),
                counted=(),
                acting=None,
                rules=self.rules,
            )
        self.best[self.me] = claim
        # The verdict that follows a write sees the same claims (this one's acknowledgement
        # changes no choice): it reuses this view and keeper instead of making them again.
        if len(view.claims) == len(self.best):  # the view holds every claim: in the same order
            claims = list(self.best.values())
        else:
            claims = [claim if c.computer == self.me else c for c in view.claims]
        self._after_write = (tick, dataclasses.replace(view, claims=claims), keeper)
        if not claim.closed:
            # An answer to a version written more than FRESH ago never counts again (ticks only
            # go on), as if unknown: a tenure kept for months holds a day of writes, not all.
            fresh = self.timing.fresh
            while self.written and tick - next(iter(self.written.values())) > fresh:
                del self.written[next(iter(self.written))]
            self.written[claim.seq] = tick
        if self.first_seq is None:
            self.first_seq = claim.seq
        self.own.append(claim.seq)
        self.dirty = True
        if _news(before, claim):
            self.urgent = True
        return claim

    def _heir(self, view: Seen, mine: Claim) -> Claim | None:
        """The successor a close names when every other claim is closed: the computer that would
        keep the part if they all were open, or None when that is this one.

        Of two computers that each closed having read the other's close, only the one whose close
        the other's names may count it (keeper.py): the part then stays with its keeper, which
        starts alone the next morning, and the other waits for it. A computer on the rules before
        tenures is never named (it would count any `sees` naming it as an answer).
        """
        if "successor" in self.without:
            return None
        gone = view.gone or {}
        closed = [
            c
            for c in view.claims
            if c.computer != self.me
            and c.closed
            and c.rules > 1
            and gone.get(c.computer, -1) < c.seq
        ]
        heir = picked(self.rule, [*closed, mine], self.timing)
        return None if heir is None or heir.computer == self.me else heir

    def _ack(self, keeper: Claim | None, mine: Claim) -> tuple[str | None, int | None, int | None]:
        if keeper is None:
            return None, None, None
        if keeper.computer == self.me:
            return self.me, mine.tenure, mine.seq
        if keeper.tenure is None:
            if self.rule.never_twice and "tenure" not in self.without:
                # A keeper of a version before tenures counts any `sees` naming it as an
                # acknowledgement, whenever it was written: answering it would be unsafe.
                return None, None, None
            return keeper.computer, None, None
        return keeper.computer, keeper.tenure, keeper.seq

    def _next_seq(self, mine: Claim | None, t: int) -> int:
        # The clock makes seq go up across reinstalls that lost the state, too.
        return max(mine.seq + 1 if mine else 0, t)

    def _declared(self, tick: float) -> dict[str, int]:
        if "forget_holds" in self.without:
            lapsed = 2 * self.timing.unclosed
            for c in [c for c, at in self.declared_at.items() if tick - at > lapsed]:
                self.forgets.pop(c, None)
                self.counted.pop(c, None)
                del self.declared_at[c]
        return dict(sorted(self.forgets.items()))

    # -- judging --------------------------------------------------------------------------

    def view(self, tick: float, wall: float | None = None) -> Seen:
        """The claims as the rules see them: heard here, forgotten ones closed. No copies."""
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
            vouch_waits="vouch_waits" not in self.without,
            keepers_declared="keepers_declared" not in self.without,
            heirless_closes="heirless_closes" not in self.without,
            named=self.named if "closes" not in self.without else None,
            old_rules_closes="old_rules_closes" not in self.without,
            learns_members="learns_members" not in self.without,
            declared_from=(
                {c: self.declared_from(c) for c in gone}
                if gone and self.rule.never_twice and "forget_waits" not in self.without
                else None
            ),
            foreign=self.foreign if "one_seal" not in self.without else (),
            present=present,
            tenure_rule="tenure" not in self.without,
            opened=self.opened_tick,
            timing=self.timing,
        )

    def declared_from(self, computer: str) -> float:
        """When (ticks) a declaration that `computer` is gone may count here: once the computer
        can no longer be numbering on an acknowledgement of this one's. Any this computer
        wrote answered a version it had read, in this run (by the last one it read) or before
        (by the start of this run); each counts at most FRESH after that version was written,
        by its writer's ticks, which run within 0.35% of these (ALIVE over a day). At once
        where a claim says the highest declaration of it counts already (`Claim.counted`): a
        start need not wait for that again."""
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
        return (since if since is not None else math.inf) + self.timing.fresh + self.timing.alive

    def _present(self, wall: float) -> bool:
        mine = self.best.get(self.me)
        return mine is not None and wall - mine.active <= self.timing.alive

    def clone_problem(self, tick: float) -> str | None:
        """Why this computer may not act: another installation writes its claims (lately)."""
        if self.cloned is None or tick - self.cloned > self.timing.alive:
            return None
        return Core.mark(
            "another computer writes this computer's claims ({computer}): its configuration "
            "was copied from this one; there, remove the file named computer in its "
            "configuration folder and run setup again",
            computer=self.me,
        )

    def _judge(self, wall: float, tick: float) -> Keeper:
        """Who keeps the part as seen here now, and whether this computer may act on it."""
        self._time(wall, tick)
        cached, self._after_write = self._after_write, None
        if cached is not None and cached[0] == tick:
            view = dataclasses.replace(cached[1], present=self._present(wall))
            keeper = cached[2]
            if keeper is not None and keeper.computer == self.me:
                keeper = self.best[self.me]
        else:
            view = self.view(tick, wall)
            keeper = choose(
                self.rule, view.claims, tick, heard=view.heard, gone=view.gone, timing=self.timing
            )
        chosen = keeper.computer if keeper else None
        if self.kept is None or self.kept[0] != chosen:
            self.kept = (chosen, tick)
        since = self.kept[1] if chosen is not None else None
        judgement = weigh(
            self.rule,
            self.me,
            keeper,
            view,
            tick,
            since,
            read_others=any(c != self.me for c in self.best),
            created=self.created,
            blocked=(self.blocked if "one_seal" not in self.without else None)
            or self.clone_problem(tick),
        )
        self.acted = judgement.acting
        shown = None if since is None else int(wall - (tick - since))
        status = self._status(keeper, shown, judgement, view, wall, tick, since)
        return Keeper.of(self.part, keeper, shown, judgement, status)

    def _status(
        self,
        keeper: Claim | None,
        shown: int | None,
        j: Judgement,
        view: Seen,
        wall: float,
        tick: float,
        since: float | None,
    ) -> Status:
        """Why the part is as it is here (`Keeper.status`), from what this machine knows: the
        keeper chosen, kept since `since` (ticks; `shown` by the wall clock), as `j` weighs it."""
        if keeper is None:
            return Status(Why.NOBODY)
        base = Status(Why.ACTING, keeper.computer, keeper.name, shown)
        if not j.here:
            h = self.heard.get(keeper.computer)
            live = h is not None and tick - h <= self.timing.alive
            theirs = self.best.get(keeper.computer)
            kept_since = _kept_since(theirs, shown)
            acts = None if theirs is None else theirs.acting
            return dataclasses.replace(
                base, why=Why.ELSEWHERE, live=live, since=kept_since, acts=acts
            )
        if j.blocked is not None:
            cause = "clone" if j.blocked == self.clone_problem(tick) else "seal"
            return dataclasses.replace(base, why=Why.BLOCKED, problem=j.blocked, cause=cause)
        if j.acting:
            return base
        if not j.settled:
            until = None if since is None else int(wall + (since + self.timing.settling - tick))
            return dataclasses.replace(base, why=Why.SETTLING, until=until)
        heard = self.heard
        waited = tuple(
            Waited(
                c,
                self.best[c].name if c in self.best else c,
                wall_of(heard.get(c), wall, tick),
                silent=(heard.get(c) is None or tick - (heard.get(c) or 0.0) > self.timing.alive),
                closed=c in self.best and view.closed(self.best[c]),
                unheard=c.startswith(UNHEARD),
                counts_from=(
                    wall_of(view.declared_from[c], wall, tick)
                    if view.declared_from and view.declared_from.get(c, -math.inf) > tick
                    else None
                ),
            )
            for c in j.waiting
        )
        others = [c for c in view.claims if c.computer != self.me]
        if not self.rule.never_twice and not any(view.alive(c, tick) for c in others):
            # Out of touch with the others, the person away: paused.
            return dataclasses.replace(base, why=Why.AWAY, waiting=waited)
        if not waited:
            return dataclasses.replace(base, why=Why.ALONE)
        # Nothing heard from anyone lately though some computer is open: more likely this
        # computer's own sync stopped than all of them.
        stalled = any(not c.closed for c in others) and all(
            tick - view.when(c) > self.timing.alive for c in others
        )
        return dataclasses.replace(base, why=Why.WAITING, waiting=waited, stalled=stalled)

    # -- time and memory ------------------------------------------------------------------

    def _time(self, wall: float, tick: float) -> None:
        """Settle again after a gap in the ticks (slept or stopped without telling us: the others
        may have moved on) or a wall clock set (its step differs from the ticks' by over 2 *
        RENEW): as the contract always said, forward or back. Nothing heard is aged by a set
        clock; only settling starts again, so a connected pair resumes within SETTLING + RENEW."""
        if self.started is None:
            self.started = tick
        last, last_wall = self.last_tick, self.last_wall
        if last is not None and self.kept is not None:
            jump = self.timing.jump
            gap = tick - last > jump
            set_clock = last_wall is not None and abs((wall - last_wall) - (tick - last)) > jump
            if gap or set_clock:
                self.kept = (self.kept[0], tick)
                self.jumped_at = tick  # the tray's loop hears of it (`Snapshot.jumped`)
        if last is None or tick >= last:
            self.last_tick, self.last_wall = tick, wall

    def memory(self) -> Memory:
        return Memory(dict(self.best), dict(self.forgets), dict(self.named))

    def _saved(self, tick: float) -> None:
        self.dirty = self.urgent = False
        self.saved_at = tick


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


def _wrote(mine: Claim | None, wrote: int | None) -> int:
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
    return wrote


def wall_of(tick_time: float | None, wall: float, tick: float) -> int | None:
    """A moment on this computer's ticks, shown by its wall clock as it reads now."""
    return None if tick_time is None else int(wall - (tick - tick_time))
