"""The rules of the lease, as data and pure functions: read this module first.

Everything here is a function of its arguments: no clock, no files. The state machine
(`sioul_tray.lease.machine`) feeds these functions the claims with the time *this* computer heard
them, so the same rules serve the pure tests and the running tray. docs/protocol.md states them.
"""

from __future__ import annotations

import enum
import operator
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sioul_tray.timing import CONTRACT, Timing

# Which rules a claim's writer follows, told by the fields it writes: 1, the seed's (no tenures);
# 2, tenures and acknowledgements of a version; 3, the facts of the closes rule in the claims.
RULES = 3
# Keys of `Claim.closes` that stand for no one computer: this computer's latest close, whoever it
# named (for the computers on rules before 3, which count any close); and every computer, where a
# claim has no room left to name each (a close of any then stands for all).
ANY_CLOSE, EVERY_COMPUTER = 0, 1
# A seq in `Claim.reads` that says a claim was read, not which version (room ran short): no seq
# a clock writes is this low.
READ_UNSAID = 1


def tag(computer: str) -> int:
    """A short stand-in for a computer id inside claims (32 bits, never a key above): two ids
    that share one only make a computer wait for the other as well, never act sooner."""
    t = zlib.crc32(computer.encode("ascii"))
    return t if t > EVERY_COMPUTER else t + 2


class Rule(enum.Enum):
    """How a part chooses its keeper."""

    FOLLOWS = "follows"  # the computer the person used last: medicines reminders follow you
    STAYS = "stays"  # the computer that took it, else the oldest claim: invoices stay put

    @property
    def never_twice(self) -> bool:
        """Two computers acting at once is never acceptable (two invoices with one number)."""
        return self is Rule.STAYS


PARTS: Mapping[str, Rule] = {"medicines": Rule.FOLLOWS, "invoices": Rule.STAYS}


@dataclass(frozen=True, slots=True)
class Claim:
    """One computer's claim on one part, as written in ``leases/<part>/<computer>.lease``."""

    computer: str
    part: str
    name: str
    seq: int
    since: int
    renewed: int
    active: int
    taken: int | None = None
    closed: bool = False
    wrote: int = 0
    sees: str | None = None
    # hash=False: a dict is not hashable, and claims are still compared on it.
    forgets: Mapping[str, int] = field(default_factory=dict, hash=False)
    # Appended by the tenure rule (docs/protocol.md); None in claims of earlier versions.
    # `tenure`: this claim's tenure, a random number drawn anew each time the claim opens and each
    # time its computer takes the part. `sees_tenure`/`sees_seq`: the tenure and seq of the
    # keeper's claim this computer had read when it wrote `sees` (the version it acknowledges).
    tenure: int | None = None
    sees_tenure: int | None = None
    sees_seq: int | None = None
    # Appended by the "claims alone" rules (docs/protocol.md, "What a claim carries"); claims of
    # earlier versions read with these defaults, and `rules` says which version wrote them.
    # `answers`: for a close whose successor (`sees`) is closed itself, the seq of the
    # successor's claim it answered (`sees_seq` says it for an open successor). `closes`: for
    # each computer (by `tag`) some close of this one named successor, the highest seq of those
    # closes, and under `ANY_CLOSE` the seq of its latest close; the memory of the closes rule,
    # kept where every start reads it back. `knows`: the tags of the computers whose claims this
    # one has read, so that a computer joining learns whom to wait for. `counted`: the tags of
    # the computers this one declared gone (`forgets`) whose declaration counts already: each
    # can no longer be numbering on an acknowledgement of a version up to the declared seq, so
    # no start need wait for that again.
    answers: int | None = None
    closes: Mapping[int, int] = field(default_factory=dict, hash=False)
    knows: tuple[int, ...] = ()
    counted: tuple[int, ...] = ()
    # Shown only, no rule reads it: whether this computer acted on the part at its last look
    # before writing this claim (others tell the person "Invoices are now made on Laptop" from
    # it). None: its writer does not say (a version before it).
    acting: bool | None = None
    # Appended after `acting` (docs/protocol.md, "What a claim carries"), ignored by the versions
    # before it: for each tag of `knows`, the seq of the latest claim of that computer this one
    # had read. A computer tells from it that it wrote in this folder before a run that
    # remembers nothing of it (`Fixes.own_past_read`). Absent: not said.
    reads: Mapping[int, int] = field(default_factory=dict, hash=False)
    # Appended after `reads`, ignored by the versions before it: for each computer's tag, the
    # highest seq of this computer's closes that admitted it (`Fixes.admitted_closes`: a close
    # admits the computers it says it read); under ANY_CLOSE the latest close (a close says whom
    # it admits), under EVERY_COMPUTER every computer where room ran short. The memory of which
    # closes another computer may count, kept where every start reads it back.
    admits: Mapping[int, int] = field(default_factory=dict, hash=False)
    rules: int = RULES


@dataclass(frozen=True, slots=True)
class Fixes:
    """The fixes of docs/protocol.md's "Changes", each on. Only the model checker switches one off
    (`Fixes(tenure=False)`), to show that it then finds what the fix is for (tests/model); the
    tray and the command line never name one. A name that is no fix is a type error."""

    tenure: bool = True
    """An acknowledgement counts for the tenure it names, while the version it answers is FRESH."""
    forget_holds: bool = True
    """A declaration holds until its computer comes back (not for two days of silence)."""
    one_seal: bool = True
    """Files sealed with another key are waited for; a seal not the one joined blocks invoices."""
    closes: bool = True
    """A close counts unless a close of this computer, named to it, may be counted back."""
    closes_in_claims: bool = True
    """The closes rule's memory is read back from this computer's own claims ("claims alone")."""
    forget_named: bool = True
    """Every closed claim this computer writes is remembered (a declaration written while
    closed), not only its closes."""
    old_rules_closes: bool = True
    """A close of a computer on older rules is never counted after a close of this one."""
    successor: bool = True
    """A close names the computer that would keep the part when every other one is closed."""
    learns_members: bool = True
    """Computers known from the others' claims only are waited for (a folder downloading)."""
    forget_waits: bool = True
    """A declaration counts only once the computer declared can no longer be numbering."""
    vouch_waits: bool = True
    """So does one made while this computer distrusts (its state lost): never at once as a
    close of the computer declared."""
    heirless_closes: bool = True
    """A close naming no successor (its writer the heir) is not counted by one that closed."""
    upgraded_closes: bool = True
    """A close this computer wrote under rules before 3 (its own claim, or its state file, from
    before them) kept no record of whom it named: it is taken as named to every computer, so
    this computer counts no close that such a close of its may have answered (S4)."""
    tags_declared: bool = True
    """Liveness: a computer known only by its tag in the others' `knows` (its claim file removed,
    never heard here) can be declared gone by that tag; the declaration counts at once where
    this computer never read that computer's claim, so never acknowledged it (S2 holds: no
    acknowledgement of this computer's is a reason that computer may hold)."""
    marks_kept: bool = True
    """A mark said yes to never goes back (S6, and S5 beside it): a change of `wrote` is saved
    at once, before the claim that carries it; every machine keeps, per computer, the highest
    `wrote` it read of it (its own copies too, stale ones included) and never writes a lower
    one; a machine whose state was lost, once a claim of its own from before shows, does not
    act on invoices until the person confirms its mark ("the records' mark is unknown")."""
    restored: bool = True
    """(S7, then S4) A claim read that answers a version of this computer's own newer than any
    it knows (its state file and its own claim file put back from one backup) makes it distrust
    as after a lost state, and take back that it may have closed, naming anyone, after it."""
    lone_creator: bool = True
    """(S2) The folder's creator acts on an empty view only while it can show it made the folder
    and ran on it since (its state file, begun as it sealed the folder, reads whole), or once it
    has read a claim of its own from an earlier run that knew nobody: reinstalled, it is a
    joiner."""
    marks_forgotten: bool = True
    """(S6) A past this computer forgot, shown by another computer's claim (`restored`,
    `own_past_read`: its state went back, or was lost with its own claim file), leaves its
    records mark unknown as a lost state does (`marks_kept`): a version it forgot may carry a
    mark higher than any it holds, and its next claim would hand the part on with a lower one."""
    marks_unproven: bool = True
    """(S6) While this computer's mark is unknown (`marks_kept`: its state lost), its claims
    hand nothing on: each acknowledges its writer alone, it writes no close, and it makes no
    declaration while its claim is closed. No other computer then acts on a claim of it whose
    `wrote` may be below a mark it said yes to: each waits until the person confirms the mark
    (or declares this computer gone)."""

    silence_never_counts: bool = True
    """(S4) On invoices no claim is counted gone by its silence, only by its close or a
    declaration: any computer, cut off, may be numbering on closes it read or declarations its
    person made after its last claim that came through (issue 39, class 2). It took in
    `keepers_declared`, its first case (a claim that says it keeps the part), retired as a
    switch of its own: with this one on, it never decided anything."""

    lost_closes: bool = True
    """(S4) A computer whose state was lost, once a claim of its own from before this run shows,
    takes back that it may have closed naming anyone (as `restored` does): no close answering a
    version of its from before counts here until its writer writes anew. Its distrust alone
    ends a day later, while the other computer, cut off, may still count a close it forgot."""

    own_past_read: bool = True
    """(S7, then S4) Another computer's claim saying it read a claim of this one that this run
    did not write and newer than any this computer knows (`Claim.reads`, or the version it
    declared gone, `Claim.forgets`, which `reads` leaves out) shows a past this computer forgot
    (its state and its own claim file lost together): it distrusts and takes back its closes
    as `restored` does (issue 39, the "lost" path)."""

    reads_kept: bool = True
    """(S4) A close of another computer counts here only if it is no older than the version of
    that computer this computer's own claims say it read (`Claim.reads`, each claim carrying
    the highest said before): its state file put back, or a stale copy read, shows a close
    that computer has reopened since, and may be acting beside, on an answer of this one."""

    admitted_closes: bool = True
    """(S4) A close admits the computers its writer heard within ALIVE or read closed (not a
    silent keeper it names): it says a seq read (`Claim.reads`) for those alone, and only they
    count it; its writer remembers each admitted (`Claim.admits`). A declaration of a computer
    counts here only once that computer's last claim read here shows it had read a claim of
    this one newer than every close of this one that admitted it. A close never lapses: before,
    its writer, back and cut off, declared gone the computer numbering on it, and a day later
    both numbered (issue 39, class 2a). A computer dead before a close is not admitted by it:
    its declaration counts."""


EVERY_FIX = Fixes()  # as the tray and the command line run


_BY_COMPUTER = operator.attrgetter("computer")
_BY_SINCE = operator.attrgetter("since", "computer")


def holds(
    claim: Claim,
    rule: Rule,
    now: float,
    heard: float | None = None,
    gone: Mapping[str, int] | None = None,
    timing: Timing = CONTRACT,
) -> bool:
    """The claim still counts for choosing a keeper: it is not closed, nor declared gone up to
    its seq (`gone`), and it was renewed within ALIVE, or UNCLOSED for a part that stays put (a
    computer whose sync stopped, or whose claims arrive half an hour late, may still be
    numbering). `heard`: when this computer heard it, which then stands for `renewed`.
    """
    if claim.closed or (gone and gone.get(claim.computer, -1) >= claim.seq):
        return False
    age = now - (claim.renewed if heard is None else heard)
    return age <= (timing.unclosed if rule is Rule.STAYS else timing.alive)


def forgotten(claims: Iterable[Claim]) -> dict[str, int]:
    """For each computer some claim declared gone for good, the highest seq declared gone."""
    gone: dict[str, int] = {}
    for forgets in [c.forgets for c in claims if c.forgets]:  # most claims forget nobody
        for computer, seq in forgets.items():
            if seq > gone.get(computer, -1):
                gone[computer] = seq
    return gone


def choose(
    rule: Rule,
    claims: Iterable[Claim],
    now: float,
    *,
    heard: Mapping[str, float] | None = None,
    gone: Mapping[str, int] | None = None,
    timing: Timing = CONTRACT,
) -> Claim | None:
    """The keeper among the claims that hold, or None when no claim holds.

    Every computer that reads the same claims picks the same keeper: the order uses only what the
    claims carry, and ties go to the smaller computer id. `heard`, when given, says when this
    computer heard each claim (it then stands for ``renewed``: `Lease` passes it instead of
    copying every claim at every tick). `gone`, when given, is `forgotten(claims)`, already known.
    """
    listed = list(claims)
    if gone is None:
        gone = forgotten(listed)
    holding = [
        c
        for c in listed
        if holds(c, rule, now, None if heard is None else heard[c.computer], gone, timing)
    ]
    return picked(rule, holding, timing)


def heir(
    rule: Rule, claims: Iterable[Claim], mine: Claim, timing: Timing = CONTRACT
) -> Claim | None:
    """The successor this computer's close names when every other claim is closed: the
    computer that would keep the part if they all were open (`picked` among the closed claims
    not declared gone, and `mine`), or None when that is this one. A computer on the rules
    before tenures is never named (it would count any `sees` naming it as an answer)."""
    claims = list(claims)
    gone = forgotten(claims)
    closed = [
        c
        for c in claims
        if c.computer != mine.computer
        and c.closed
        and c.rules > 1
        and gone.get(c.computer, -1) < c.seq
    ]
    found = picked(rule, [*closed, mine], timing)
    return None if found is None or found.computer == mine.computer else found


def picked(rule: Rule, holding: list[Claim], timing: Timing = CONTRACT) -> Claim | None:
    """`choose`'s order, among claims already known to hold."""
    if not holding:
        return None
    if rule is Rule.FOLLOWS:
        latest = max(c.active for c in holding)
        tied = [c for c in holding if latest - c.active <= timing.near]
        return min(tied, key=_BY_COMPUTER)
    taken = [c for c in holding if c.taken is not None]
    if taken:
        # Latest take wins; among equal takes, the smaller id.
        return min(taken, key=lambda c: (-(c.taken or 0), c.computer))
    return min(holding, key=_BY_SINCE)
