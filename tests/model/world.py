"""The model: computers running the shipped state machine, a folder sync that may deliver anything.

A `World` is a whole system at one true time: each computer's tray (its machine's `Knowledge`,
the state file it last saved and the one before, its wall clock's offset, how far its ticks lag
true time, its last verdict), every version of every claim file ever written, and the seal of each
replica. No second model of the rules: every judgement and every claim comes from
`sioul_tray.lease.machine.step`, as the tray's `Lease` calls it.

Events (`Event`), each one step of depth:

- a call of a running tray: ``renew``, ``take`` ("Make invoices here"), ``close`` (sleep: a
  later renew wakes it), ``quit`` (a close, then the tray stops: it comes back by a restart);
  with ``unsaved`` in the alphabet, each also with a state save that fails (a full disk: the
  claim still goes out). Each call reads its replica first, and the read is where the sync
  shows: for each claim file the replica may hold nothing (it vanished, or never arrived) or any
  version ever written, older ones included (a stale copy), its own claim file too where its
  machine does not know the version (written by a run whose state was lost or not saved).
  Deliveries are events of the sync, but only a read observes a replica: a delivery moved to
  just before the next read of its replica changes no read, and later deliveries into one file
  only replace earlier ones. So choosing the replica's content at each read is every sequence of
  delivery events, explored without the states that differ only by deliveries not read yet.
- ``crash``: the tray stops without closing; ``restart``, with the state file it last saved,
  with the one before it (a backup put back, a second process's old copy saved over it),
  without one (lost), or with the state file and its own claim file of the backup the start
  took (`Alphabet.backup`), then its first renew; ``join``: a computer not in the folder yet
  starts with an empty replica; with ``upgrades``, ``upgrade``: a tray on the rules before
  these, down, starts on these; with ``removes``, ``remove``: a person deletes for good the
  claim file of a computer whose tray is down (and a declaration by its tag);
- ``forget``: the person declares a computer gone, at a running tray, or with its tray down
  (`sioul-tray forget`, a process of its own); a crashed computer, or with ``forget="any"`` a
  running one too;
- ``wait``: true time advances by one of the protocol's quanta (with ``drift``, one computer's
  ticks run `DRIFT` slow over a long one);
- ``jump``: one computer's wall clock is set by one of `JUMPS`, never past `MAX_OFFSET`;
- with replicas as state (`Alphabet.replicas`): ``deliver``, ``stale``, ``vanish`` (one claim
  file into one replica) and ``sync`` (every replica gets every other claim's latest version: a
  shortcut for those ``deliver`` events, so that a walk draws a whole sync as one event);
- with ``seals`` in the alphabet: ``reseal`` (a computer's person wipes its replica and sets the
  folder up again: a new seal and key) and ``seal`` (one replica's seal reaches another replica);
- with ``marks`` in the alphabet, Sioul's records: ``mark`` (the acting computer's Sioul is told
  yes to its next mark, carried by the renew of `Driver.mark`) and ``confirm`` (the person
  confirms an unknown mark, the highest said yes to: `Driver.confirm`), instead of the
  confirmation at once of the other alphabets.

A computer acts from a call whose verdict was `acting` until its next call, for at most RENEW (a
caller that wants to act calls at least every RENEW). The invariant: never two computers acting
on invoices at the same true time; checked at every state, which covers every overlap (two
acting intervals overlap only if the later one starts inside the earlier one).

States are merged by their canonical form (`canonical`), exactly: every time relative to now (and
the ancient ones, which no rule can tell apart but by order, by their order alone), tenures by how
many their computer drew since, and the computers other than the folder's creator
interchangeable; a search's form leaves out what no event of its alphabet reads (`Lean`).
"""

from __future__ import annotations

import collections.abc
import itertools
import marshal
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any

from sioul_tray.lease import ALIVE, RENEW, SETTLING, UNCLOSED, Claim, invariants, machine
from sioul_tray.lease.keeper import Keeper, unheard_id
from sioul_tray.lease.machine import (
    Close,
    Forget,
    Heard,
    Knowledge,
    Look,
    Memory,
    Ready,
    Renew,
    Role,
    Saved,
    Seat,
    Unit,
    step,
)
from sioul_tray.lease.rules import EVERY_FIX, RULES, Fixes, tag

PART = "invoices"
T0 = 1_750_000_000
IDS = ("aa", "bb", "cc", "dd")
# The protocol's own quanta and their differences: every threshold of the rules is crossed by
# one step or a sum of them (1 s crosses the `<=` ones).
QUANTA = (1, RENEW, SETTLING, ALIVE - SETTLING, ALIVE, UNCLOSED - ALIVE, UNCLOSED)
JUMPS = (-(UNCLOSED + ALIVE), -(ALIVE + SETTLING), ALIVE + SETTLING, UNCLOSED + ALIVE)
MAX_OFFSET = UNCLOSED + ALIVE  # a wall clock is never set further than this from true time
DRIFT = 0.0027  # ticks run at rates within this of true time (docs/protocol.md, "What it assumes")
NIGHT = 8 * 3600


def old_rules(fixes: Fixes) -> Fixes:
    """The rules of the versions before these, as a peer in the folder runs them (`Alphabet.old`):
    the closes rule's memory was its local state alone, which may be lost, so such a peer may
    count any close (as the version before tenures did)."""
    return replace(
        fixes, closes=False, closes_in_claims=False, forget_named=False, old_rules_closes=False,
        successor=False, learns_members=False, forget_waits=False,
    )  # fmt: skip


@dataclass(frozen=True)
class Switches:
    """The fixes a model runs with, each on unless switched off: the machine's (`Fixes`), and
    the shell's: Sioul's mark is taken only while this computer acts (`marks_while_acting`,
    `tray.driver.Driver.mark`), so a claim written after it stopped carries none."""

    fixes: Fixes = EVERY_FIX
    marks_while_acting: bool = True

    @classmethod
    def without(cls, *names: str) -> Switches:
        """The fixes `names` switched off (the command line's --without, the tests' tables); a
        name that is no fix is a TypeError, never a fix silently left on."""
        shell = "marks_while_acting"
        return cls(Fixes(**dict.fromkeys(set(names) - {shell}, False)), shell not in names)

    def off(self) -> list[str]:
        """The names of the fixes switched off, for a report."""
        off = [f.name for f in fields(Fixes) if not getattr(self.fixes, f.name)]
        return sorted(off if self.marks_while_acting else [*off, "marks_while_acting"])


SHIPPED = Switches()  # every fix on, as the tray runs
NAMES = sorted([*(f.name for f in fields(Fixes)), "marks_while_acting"])  # every fix, by name

Event = tuple[Any, ...]
# What a read finds: the version of each claim file (-1: none), or None: what the replica holds
# (`World.held`, with `Alphabet.replicas`).
Choice = tuple[int, ...] | None


@dataclass(frozen=True)
class Alphabet:
    """The events explored, and the folder they start from.

    The full alphabet is the default; a narrower one (fewer kinds, quanta or jumps) reaches
    deeper in the same time, which is how the tests show that each fix is needed.
    """

    ops: tuple[str, ...] = ("renew", "take", "close")
    crash: bool = True
    # How a tray may start again after a crash or a quit: with the state it last saved
    # ("state"), with the one before ("older": a backup put back, a second process's old copy
    # saved over it), without one ("lost"), or with its state file and its own claim file
    # put back together from the backup taken at the start ("backup": `Alphabet.backup`).
    restarts: tuple[str, ...] = ("state", "lost")
    unsaved: bool = False  # closes whose state save fails (a full disk; the claim goes out)
    forget: str = "crashed"  # whom the person may declare gone: "crashed", "any", "" (nobody)
    quanta: tuple[int, ...] = QUANTA
    jumps: tuple[int, ...] = JUMPS
    drift: bool = False  # a long wait during which one computer's ticks run DRIFT slow
    seals: bool = False  # reseal and seal events
    # Sioul's records: ``mark`` and ``confirm`` events, and S6 judged on the marks said yes to
    # (`Node.said`). False: the model numbers no records, and the person confirms an unknown
    # mark at once (a wait that would only stall its paths).
    marks: bool = False
    # The protocol's assumption (docs/protocol.md): a claim file a replica lacks entirely
    # (never arrived, or vanished) reaches it within this long; SETTLING is the time allowed
    # for claims to come through, and a caller acts on news at most RENEW old. None: never.
    arrives: int | None = SETTLING - RENEW
    # A read may find any version ever written (True), or only the latest or none: a sync that
    # is up or down, never bringing back an older copy (False: deeper, for the rules that do not
    # turn on stale copies).
    stale: bool = True
    # How the sync is modelled. False: a replica's content is chosen at each read (above). True:
    # each replica holds one version of each claim file (or none) and changes only by a
    # delivery event (`deliver`: the latest version; `stale`: an older one, with `stale`;
    # `vanish`: the file goes), so a replica stays as it is while no delivery comes: a sync
    # down across several calls, a night between, is one path, not a choice at every read.
    replicas: bool = False
    # A computer on the rules before these (`old`), its tray down, starts again on these rules
    # (``upgrade``: the tray was upgraded while it was down) with its state file: as the rules
    # before these wrote it ("state"), or as the first rules did ("first": a state file of
    # version 1, which kept no record of whom its closes named; the model's old computers write
    # the claims of rules 2 still, which read alike where that record is looked for).
    upgrades: tuple[str, ...] = ()
    # A person deletes for good the claim file of a computer whose tray is down (it quit for
    # good, given away): ``remove``. The file leaves every replica and never comes back; the
    # computer never starts again. With `forget`, a running computer that knows it only by its
    # tag in the others' `knows` may declare it gone by that tag (``forget ... by tag``).
    removes: bool = False
    # The folder at the start: wall clock offsets, who took invoices there, the computers on the
    # rules before these (`OLD_RULES`), how many of the last ones join later, whether it
    # starts SETTLING later, its keeper acting, and its evening: computers that then close
    # ("close": a sleep, the tray runs on) or quit ("quit": the tray stops), one after the
    # other, each having read every claim, their state saved; once every one has, the night
    # passes (NIGHT) before the first event, nobody called; and its morning: the calls its
    # trays make then, one after the other, each reading every claim's latest version but
    # those of the computers named after it (their files late), declarations (("forget", i,
    # k): i's person declares k gone) and waits (("wait", s)).
    offsets: tuple[int, ...] = ()
    taken_by: int | None = None
    old: tuple[int, ...] = ()
    joins: int = 0
    settled: bool = False
    evening: tuple[tuple[str, int], ...] = ()
    morning: tuple[tuple[Any, ...], ...] = ()
    # The computers whose state file and own claim file one backup holds, taken once the folder
    # is in use (after every computer's first claim), before the others answer anything newer.
    backup: tuple[int, ...] = ()

    def night(self) -> str:
        """Its evening, as a trace says it: "bb closed, aa quit for the night"."""
        ends = (f"{IDS[i]} {'quit' if op == 'quit' else 'closed'}" for op, i in self.evening)
        return ", ".join(ends) + " for the night"

    def dawn(self) -> str:
        """Its morning, as a trace says it: "the next morning bb renews (aa's file late), ..."."""
        return "the next morning " + ", ".join(_morning(call) for call in self.morning)

    def folder(self) -> list[str]:
        """The folder it starts from beyond one in use, a phrase each (`initial`)."""
        start = []
        if any(self.offsets):
            start.append("clocks " + "/".join(f"{o:+d}" for o in self.offsets))
        if self.taken_by is not None:
            start.append(f"{IDS[self.taken_by]} took invoices")
        if self.settled:
            start.append("its keeper acting")
        if self.old:
            start.append(", ".join(IDS[i] for i in self.old) + " on the rules before these")
        if self.backup:
            backed = ", ".join(IDS[i] for i in self.backup)
            start.append(f"{backed} backed up after its first claim")
        if self.evening:
            start.append(self.night())
        if self.morning:
            start.append(self.dawn())
        if self.joins:
            start.append(f"{self.joins} to join")
        return start

    def describe(self) -> str:
        kinds = list(self.ops)
        if self.unsaved:
            kinds.append("closes whose state save fails")
        if self.crash:
            kinds.append("crash")
        if self.restarts:
            kinds.append("restart (" + ", ".join(self.restarts) + ")")
        if self.upgrades:
            kinds.append("upgrade to these rules (" + ", ".join(self.upgrades) + ")")
        if self.removes:
            kinds.append("remove a claim file for good")
        if self.forget:
            kinds.append("forget" + (" a running computer too" if self.forget == "any" else ""))
        delivers = "any version" if self.stale else "the latest or none"
        kinds.append(
            f"deliver {delivers} ("
            + ("events into replicas" if self.replicas else "at each read")
            + ")"
        )
        kinds.append(f"wait {'/'.join(str(q) for q in self.quanta)} s")
        if self.drift:
            kinds.append(f"ticks {DRIFT:.2%} slow over a long wait")
        if self.jumps:
            kinds.append(f"clock set by {'/'.join(f'{j:+d}' for j in self.jumps)} s")
        if self.seals:
            kinds.append("reseal, seal")
        if self.marks:
            kinds.append("mark, confirm")
        if self.joins:
            kinds.append("join")
        start = self.folder()
        return "; ".join(kinds) + (f" (from: {', '.join(start)})" if start else "")


def _morning(call: tuple[Any, ...]) -> str:
    """One call or wait of `Alphabet.morning`, as a trace says it: "bb renews (aa's file late)"."""
    op, *rest = call
    if op == "wait":
        return f"{rest[0]} s"
    if op == "forget":
        return f"{IDS[rest[0]]} declares {IDS[rest[1]]} gone"
    i, *late = rest
    return f"{IDS[i]} {op}s" + (f" ({', '.join(IDS[k] for k in late)}'s file late)" if late else "")


FULL = Alphabet()
# The full alphabet and every fault of the "claims alone" review: a backup put back, a save that
# fails, a running computer declared gone, ticks that drift.
FAULTS = Alphabet(
    ops=("renew", "take", "close", "quit"),
    restarts=("state", "older", "lost"),
    unsaved=True,
    forget="any",
    drift=True,
)

# Narrower alphabets: the events each finding needs, so that the search reaches its depth in
# seconds. Each starts from a folder in use.
NARROW = {
    # Sleep and wake: a claim closes and reopens.
    "reopen": Alphabet(
        ops=("renew", "close"), crash=False, forget="", quanta=(SETTLING,), jumps=()
    ),
    # A tray that quits and starts again, beside a clock ten minutes ahead; aa took invoices.
    "restart": Alphabet(
        ops=("renew", "quit"), restarts=("state",), forget="", quanta=(SETTLING,), jumps=(),
        offsets=(0, 600), taken_by=0,
    ),
    # A computer sets the folder up again; seals travel.
    "seals": Alphabet(
        ops=("renew",), crash=False, forget="", quanta=(SETTLING,), jumps=(), seals=True
    ),
    # A computer crashes for good; days pass; the person declares it gone.
    "forget": Alphabet(ops=("renew",), restarts=("state",), quanta=(1, UNCLOSED), jumps=()),
    # The evening: both close or quit; the state files may be lost, put back from a backup, or
    # left unsaved; the morning comes.
    "evening": Alphabet(
        ops=("renew", "close", "quit"), crash=False, restarts=("state",), unsaved=True,
        forget="", quanta=(SETTLING, NIGHT), jumps=(), settled=True, stale=False,
    ),
    # Both closed for the night, their trays asleep: one crashes and starts again with its
    # state file or the one before it (a backup put back); the morning's renewals.
    "overnight": Alphabet(
        ops=("renew",), restarts=("state", "older"), forget="", quanta=(SETTLING,), jumps=(),
        settled=True, evening=(("close", 1), ("close", 0)), stale=False,
    ),
    # The same night, and its morning: bb opens, aa answers it, bb reads the answer; then a
    # tray crashes and starts again with its state file or the one before it.
    "morning": Alphabet(
        ops=("renew",), restarts=("state", "older"), forget="", quanta=(SETTLING,), jumps=(),
        settled=True, evening=(("close", 1), ("close", 0)), stale=False,
        morning=(("renew", 1, 0), ("wait", SETTLING), ("renew", 0), ("renew", 1)),
    ),
    # A keeper declared gone: aa closed for the night naming bb, bb quit; cc's person declared
    # bb gone, cc took invoices, and a day later closed, naming nobody (it would keep them).
    "heirless": Alphabet(
        ops=("renew", "take", "close"), crash=False, restarts=("state",), forget="",
        quanta=(SETTLING,), jumps=(),
        settled=True, stale=False, evening=(("close", 0), ("quit", 1)),
        morning=(("forget", 2, 1), ("take", 2), ("wait", UNCLOSED), ("close", 2)),
    ),
    # bb's state file and its own claim file are backed up once the folder is in use; aa,
    # on the rules before these (its claims say no version read), closes for the night
    # answering a newer version of bb's, then bb closes naming aa; a tray crashes and starts
    # again, bb's from that backup (`Fixes.restored`; on these rules aa's `reads` shows bb its
    # past too, `own_past_read`).
    "backup": Alphabet(
        ops=("renew",), restarts=("state", "backup"), forget="", quanta=(SETTLING,), jumps=(),
        settled=True, old=(0,), backup=(1,), evening=(("close", 0), ("close", 1)),
    ),
    # A computer on the rules before these (aa) beside one on these.
    "upgrade": Alphabet(
        ops=("renew", "close"), crash=False, forget="", quanta=(SETTLING, NIGHT), jumps=(),
        old=(0,), settled=True, stale=False,
    ),
    # A computer joins while its sync brings the folder down, files beyond the time allowed.
    "join": Alphabet(
        ops=("renew", "take", "close"), crash=False, forget="", quanta=(SETTLING,), jumps=(),
        arrives=None, joins=1,
    ),
    # Nights and days beside a computer declared gone: quits, crashes and restarts, the sync
    # delivering the latest version or nothing, into replicas that stay as they are between.
    "nights": Alphabet(
        ops=("renew", "take", "close", "quit"), restarts=("state",),
        quanta=(RENEW, SETTLING, NIGHT, UNCLOSED), jumps=(), stale=False, replicas=True,
    ),
    # A computer crashes for good and days pass; the others close for the night and start again
    # the next morning, the sync catching up or down between; the person declares the crashed
    # one gone, at a running tray or with the tray down (the "claims alone" case of a forget
    # written while closed).
    "forgets": Alphabet(
        ops=("renew", "take", "close"), restarts=("state",), quanta=(RENEW, ALIVE, NIGHT),
        jumps=(), stale=False, replicas=True,
    ),
    # A computer closes, the keeper counts its close; it opens again cut off, and its person
    # declares the keeper gone (issue 39, class 2a).
    "declared": Alphabet(
        ops=("renew", "close"), crash=False, forget="any", quanta=(SETTLING, UNCLOSED),
        jumps=(), settled=True,
    ),
    # A computer closes; days pass; the two others renew, each having heard that close come
    # through (their sync flows) but not the other (issue 39, class 2: on invoices a silent
    # claim may be numbering on a close read after it, so silence is no reason).
    "silence": Alphabet(
        ops=("renew", "close"), crash=False, forget="", quanta=(UNCLOSED,), jumps=(),
        settled=True, stale=False,
    ),
    # A day without news of bb at aa (its sync down); aa closes for the night, and its person
    # declares bb gone while aa's claim is closed: the declaration rewrites the close.
    "rewritten": Alphabet(
        ops=("renew", "close"), crash=False, forget="any", quanta=(UNCLOSED,), jumps=(),
        settled=True, stale=False,
    ),
    # The person declares gone a keeper that only went offline.
    "offline": Alphabet(
        ops=("renew",), crash=False, forget="any", quanta=(SETTLING, UNCLOSED - ALIVE),
        jumps=(), settled=True,
    ),
    # The morning after an evening (bb took invoices, closed for the night; aa read its close
    # and quit, naming bb): a tray starts without its state, its replica holding an older copy
    # of its own claim (its close forgotten); a day passes (its distrust) while the sync brings
    # nothing new (`Fixes.lost_closes`).
    "lost": Alphabet(
        ops=("renew",), crash=False, restarts=("lost",), forget="", quanta=(UNCLOSED,),
        jumps=(), settled=True, taken_by=1, evening=(("close", 1), ("quit", 0)),
    ),
    # The same morning, the persons declaring: bb's, asleep, declares aa gone; aa starts
    # without its state and its own claim file, reading that declaration, and a day later its
    # person declares bb gone (`Fixes.own_past_read`: the declaration shows aa its past).
    "forgotten": Alphabet(
        ops=("renew",), crash=False, restarts=("lost",), forget="any", quanta=(UNCLOSED,),
        jumps=(), settled=True, taken_by=1, evening=(("close", 1), ("quit", 0)),
    ),
    # A computer joins while its sync brings the folder down beyond the time allowed: it reads
    # bb's close alone (bb closed for the night, aa keeping invoices), which names aa; bb's tray,
    # asleep, closes again having read the joiner (`Fixes.learns_members`).
    "joining": Alphabet(
        ops=("renew", "close"), crash=False, forget="", quanta=(SETTLING,), jumps=(),
        arrives=None, joins=1, settled=True, stale=False, evening=(("close", 1),),
    ),
    # Sioul's records: the keeper's Sioul is told yes to a mark; its tray crashes, an older copy
    # of its own claim comes back into its replica while it is down, and it starts again with
    # its state file or without; a close hands the part on; the person confirms an unknown mark
    # (`Fixes.marks_kept`, `Fixes.marks_unproven`). Replicas as state: a replica keeps its own
    # claim file (read at each read instead, a restart without its state in the very second of
    # its crash writes a seq of its earlier run again, the clock assumption of docs/protocol.md).
    "marks": Alphabet(
        ops=("renew", "close"), restarts=("state", "lost"), forget="", quanta=(SETTLING,),
        jumps=(), settled=True, replicas=True, marks=True,
    ),
    # The same, aa's state file and its own claim file put back from a backup taken after its
    # first claim, older than the versions bb answered since (`Fixes.marks_forgotten`: bb's
    # claims show aa the past it forgot, mark said yes to included). No close: a restart that
    # reads no claim of bb's (its file not arrived yet) and closes at once hands the part on
    # with the backup's mark, which nothing it read could tell it (docs/protocol.md, "Not
    # seen").
    "marks_back": Alphabet(
        ops=("renew",), restarts=("state", "backup"), forget="", quanta=(SETTLING,),
        jumps=(), settled=True, replicas=True, stale=False, marks=True, backup=(0,),
    ),
    # bb keeps invoices; a tray starts again without its state while its sync brings the folder
    # down beyond the time allowed: the creator (aa) reinstalled, its folder downloading again,
    # its own claim file not back yet (`Fixes.lone_creator`).
    "reinstall": Alphabet(
        ops=("renew",), restarts=("lost",), forget="", quanta=(SETTLING,), jumps=(),
        arrives=None, taken_by=1, settled=True, stale=False,
    ),
    # Both on the rules before these, closed for the night, each having read the other's close
    # (aa closed, bb read it and quit, aa's tray read bb's close and quit); upgraded overnight,
    # each starts on these rules with its state file, the sync down or not
    # (`Fixes.upgraded_closes`).
    "upgraded": Alphabet(
        ops=("renew",), crash=False, restarts=(), forget="", quanta=(SETTLING,), jumps=(),
        old=(0, 1), settled=True, stale=False, upgrades=("state", "first"),
        evening=(("close", 0), ("quit", 1), ("quit", 0)),
    ),
    # bb quit for good (given away), aa read its close and closed for the night; in the
    # morning bb's claim file is removed, cc joins, knowing bb by its tag alone in aa's `knows`,
    # and may take invoices; the persons declare gone a computer that quit, by its tag where
    # that is all they know of it (`Fixes.tags_declared`).
    "removed": Alphabet(
        ops=("renew", "take"), crash=False, restarts=(), quanta=(SETTLING,), jumps=(),
        joins=1, stale=False, removes=True, evening=(("quit", 1), ("close", 0)),
    ),
}  # fmt: skip


@dataclass
class Version:
    """One write of a claim file: the claim, the key it was sealed with, when (true time), and
    the seq of each computer's claim its writer knew then (for the evening's liveness check)."""

    claim: Claim
    key: int
    at: int = 0
    knew: tuple[int, ...] = ()


@dataclass
class Node:
    """One computer: its tray's knowledge (None while down), its state files, its clocks."""

    id: str
    knowledge: Knowledge | None
    saved: Memory | None = None  # the state file as last written; None: there is none
    older: Memory | None = None  # the one written before it
    # The state file a backup holds, beside its own claim as it then was (`Alphabet.backup`).
    backup: Memory | None = None
    offset: int = 0  # its wall clock minus true time
    lag: int = 0  # true time minus its ticks
    verdict: bool = False  # its last call said `acting`
    called: int = 0  # ...at this true time
    tenures: int = 0  # tenures drawn so far (the model's random source: never repeats)
    key: int = 1  # the seal key it holds
    began: int = 0  # true time its tray (re)started, or its replica was set up again
    old: bool = False  # it runs the rules before these
    joined: bool = True  # it is in the folder (False: it joins later)
    # The seq of its last claim that may carry a mark of Sioul's records (`Driver.mark`): one
    # written while it acted; with `marks_while_acting` off, any written after it acted in this
    # run (a mark that came late, kept by the tray and carried by its next claim).
    marked: int | None = None
    acted: bool = False  # it acted in this run
    # The highest mark its Sioul was told yes to, and when (true time), with `Alphabet.marks`:
    # Sioul's records, which no restart of the tray forgets (S6).
    said: tuple[int, int] | None = None
    # Its claim file was removed from the folder for good (`Alphabet.removes`): no replica holds
    # it, and its tray never starts again.
    removed: bool = False

    def copy(self) -> Node:
        new = Node.__new__(Node)  # copy.copy's generic path costs a tenth of a search
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class World:
    now: int
    nodes: list[Node]
    versions: list[list[Version]]  # per computer, in the order written
    seals: list[int]  # the seal in each computer's replica
    # With `Alphabet.replicas`: the version of each claim file each replica holds (-1: none),
    # held[i][k] for computer k's file in computer i's replica; empty otherwise.
    held: list[list[int]] = field(default_factory=list)
    switches: Switches = Switches()
    keys: int = 1  # keys made so far
    trace: list[str] = field(default_factory=list)
    # Each computer's part of the canonical form, per renaming and time, until it changes.
    forms: list[dict[tuple[Any, ...], int]] = field(default_factory=list)  # (renaming, Lean)
    tracing: bool = False  # describe each event in `trace` (for a counterexample)
    # The alphabet's assumption the invariants judge by: claim files arrive within `arrives`
    # (None: not assumed, S2 not judged).
    arrives: int | None = None
    # Sioul's records are modelled (`Alphabet.marks`): the person confirms an unknown mark by
    # an event of its own, never at once.
    marks: bool = False

    def clone(self) -> World:
        """A copy to change (each machine's knowledge is a value: shared, never copied)."""
        new = World.__new__(World)
        new.__dict__.update(self.__dict__)
        new.nodes = [n.copy() for n in self.nodes]
        new.versions = list(self.versions)
        new.seals = list(self.seals)
        new.held = [list(r) for r in self.held]
        new.trace = []
        new.forms = list(self.forms)
        return new

    def touch(self, i: int) -> None:
        """Computer i changed: its part of the canonical form is made again."""
        if self.forms:
            self.forms[i] = {}

    def step(self, i: int, event: machine.Event) -> Ready:
        """Computer i's machine takes `event` in at its clocks (`machine.step`)."""
        node = self.nodes[i]
        assert node.knowledge is not None
        self.touch(i)
        node.knowledge, ready = step(node.knowledge, event, self.wall(i), self.tick(i))
        return ready

    def drawing(self, i: int) -> None:
        """Computer i's tenures drawn from this world's count (`draw`), before its calls."""
        k = self.nodes[i].knowledge
        assert k is not None
        self.nodes[i].knowledge = replace(k, seat=replace(k.seat, tenure=self.draw(i)))

    # -- the invariant --------------------------------------------------------------------

    def actors(self) -> list[str]:
        """The computers acting on invoices now."""
        return [n.id for n in self.nodes if self.acting(n)]

    def acting(self, n: Node) -> bool:
        return n.knowledge is not None and n.verdict and self.now - n.called <= RENEW

    def unsafe(self) -> str | None:
        """How this state breaks the safety argument, or None: the first invariant of
        docs/protocol.md's "Why it is safe" violated here (`invariants.check`), with its id."""
        found = invariants.check(self.moment())
        return None if not found else str(found[0])

    def moment(self) -> invariants.Moment:
        """This state as the invariants read it: each running machine's knowledge, whether it
        acts (judged at its last call), every version written, the claims that may carry a
        mark of Sioul's records (`Node.marked`), and the marks said yes to (`Node.said`)."""
        minds = {
            n.id: invariants.Mind(
                n.knowledge,
                self.tick(i),
                acting=self.acting(n),
                judged=n.knowledge.last_tick,
                judged_at=n.called,
                began=n.began,
            )
            for i, n in enumerate(self.nodes)
            if n.knowledge is not None
        }
        # A computer whose claim file was removed for good is no longer one of the folder's: it
        # never starts again, and no replica holds its claim (`Alphabet.removes`).
        history = {
            n.id: [invariants.Written(v.claim, v.at) for v in self.versions[i]]
            for i, n in enumerate(self.nodes)
            if not n.removed
        }
        marked = {n.id: n.marked for n in self.nodes if n.marked is not None}
        said = {n.id: n.said for n in self.nodes if n.said is not None}
        return invariants.Moment(
            self.now,
            minds,
            history,
            invariants.Records(marked=marked, said_yes=said),
            arrives=self.arrives,
        )

    # -- clocks ---------------------------------------------------------------------------

    def wall(self, i: int) -> int:
        return self.now + self.nodes[i].offset

    def tick(self, i: int) -> int:
        return self.now - self.nodes[i].lag

    # -- reading and writing, as the shell does ---------------------------------------------

    def choices(
        self,
        i: int,
        arrives: int | None = None,
        alphabet_stale: bool = True,
        replicas: bool = False,
    ) -> Iterator[Choice]:
        """What computer i's replica may hold for each claim file at a read (-1: nothing).

        Choices that the machine cannot tell apart are given once: for a computer it has read in
        this run, any version up to the one it knows is refused as stale, like no file at all;
        for one it knows but has not read in this run, every such version is read alike. With
        `replicas`, the replica holds what was delivered (`held`): one read, None, unless a file
        it lacks is overdue (`arrives`), which the protocol assumes never happens.
        """  # fmt: skip
        node = self.nodes[i]
        m = node.knowledge
        assert m is not None
        if replicas:
            if not self._overdue(i, m, arrives):
                yield None
            return
        per: list[list[int]] = []
        for k, versions in enumerate(self.versions):
            if not versions or self.nodes[k].removed:
                per.append([-1])
                continue
            known = m.best.get(self.nodes[k].id)
            options = [-1]
            if k == i and known is not None:
                # Its replica holds the last claim it wrote (it wrote it there): one its
                # machine does not know was written by a run whose state was put back from a
                # backup or not saved. (Only a lost state leaves it knowing no version of its
                # own, and then the replica may hold any: one put back from elsewhere.)
                if versions[-1].claim.seq > known.seq and versions[-1].key == node.key:
                    options = [len(versions) - 1]
            elif known is None:
                if (
                    arrives is not None
                    and self.now - node.began >= arrives
                    and (k == i or self.nodes[k].id not in m.foreign)
                ):
                    options = []  # some version of it has arrived by now
                options += range(len(versions))
            else:
                old = [
                    v
                    for v, version in enumerate(versions)
                    if version.claim.seq <= known.seq and version.key == node.key
                ]
                if old and self.nodes[k].id not in m.read:
                    options.append(old[-1])
                options += [
                    v
                    for v, version in enumerate(versions)
                    if version.claim.seq > known.seq or version.key != node.key
                ]
            if not alphabet_stale:
                options = [v for v in options if v < 0 or v == len(versions) - 1]
            per.append(options)
        yield from itertools.product(*per)

    def _overdue(self, i: int, m: Knowledge, arrives: int | None) -> bool:
        """Computer i's replica lacks a claim file its machine knows nothing of for longer than
        the protocol allows (`Alphabet.arrives`)."""
        node = self.nodes[i]
        if arrives is None or self.now - node.began < arrives:
            return False
        return any(
            v < 0 and self.versions[k] and self.nodes[k].id not in m.best
            and (k == i or self.nodes[k].id not in m.foreign) and not self.nodes[k].removed
            for k, v in enumerate(self.held[i])
        )  # fmt: skip

    def read(self, i: int, choice: Choice) -> None:
        """Computer i's machine hears its replica: the versions `choice` names (None: what the
        replica holds, `held`)."""
        node = self.nodes[i]
        m = node.knowledge
        assert m is not None
        held = choice is None
        if choice is None:
            choice = tuple(self.held[i])
        copies: list[Claim] = []
        foreign: list[str] = []
        for k, v in enumerate(choice):
            if v < 0:
                if not held and self.nodes[k].id in m.foreign:
                    foreign.append(self.nodes[k].id)  # nothing new: the same file is still there
                continue
            version = self.versions[k][v]
            if version.key != node.key:
                foreign.append(version.claim.computer)
            elif node.old:  # the version before reads no field of the closes rule
                copies.append(_as_read_before(version.claim))
            else:
                copies.append(version.claim)
        sealed = None if self.seals[i] == node.key else "sealed again"
        self.step(i, Heard(copies, foreign, sealed=sealed))

    def carry_out(self, i: int, ready: Ready, saves: bool = True) -> None:
        """What a step of computer i's machine asks, in its order, as the shell carries it out
        (`Lease._carry_out`): the state file (unless this run's saves are lost), then the claim
        into its replica's history, then the verdict."""
        node = self.nodes[i]
        self.touch(i)
        if saves and ready.save_due(self.tick(i)):
            assert node.knowledge is not None
            if node.knowledge.mark_unknown:
                # The shell removes the state file until the person confirms the records'
                # mark (`Lease._save`, S6): a restart before then finds none.
                node.saved = None
            else:
                node.older = node.saved
                node.saved = node.knowledge.memory
                self.step(i, Saved())
        m = node.knowledge
        assert m is not None
        claim = ready.claim
        if claim is not None:
            if self.acting(node) or (node.acted and not self.switches.marks_while_acting):
                node.marked = claim.seq
            knew = tuple(-1 if n.id not in m.best else m.best[n.id].seq for n in self.nodes)
            self.versions[i] = [*self.versions[i], Version(claim, node.key, self.now, knew)]
            if self.held:
                self.held[i][i] = len(self.versions[i]) - 1  # written into its own replica
        if ready.verdict is not None:
            self.verdict(i, ready.verdict)

    def verdict(self, i: int, keeper: Keeper) -> None:
        node = self.nodes[i]
        self.touch(i)
        node.verdict = keeper.acting
        node.acted = node.acted or keeper.acting
        node.called = self.now

    def draw(self, i: int) -> Callable[[], int]:
        node = self.nodes[i]

        def tenure() -> int:
            node.tenures += 1
            return node.tenures

        return tenure

    def start(
        self, i: int, remembered: Memory | None, remembers: bool, created: bool | None = None
    ) -> None:
        node = self.nodes[i]
        seat = Seat(
            PART,
            node.id,
            node.id,
            fixes=old_rules(self.switches.fixes) if node.old else self.switches.fixes,
            rules=2 if node.old else RULES,
            tenure=self.draw(i),
        )
        start = Knowledge(seat, created=i == 0 if created is None else created, remembers=remembers)
        node.knowledge = start.recalling(remembered)
        self.touch(i)
        node.verdict = node.acted = False
        node.began = self.now


_BEFORE: dict[int, tuple[Claim, Claim]] = {}


def _as_read_before(c: Claim) -> Claim:
    """`c` as the version before these reads it: none of the fields of the closes rule."""
    got = _BEFORE.get(id(c))
    if got is None:
        got = _BEFORE[id(c)] = (c, replace(c, answers=None, closes={}, knows=(), counted=()))
    return got[1]


# -- the knowledge by its types --------------------------------------------------------------
#
# Each field of `Knowledge` says by its type what its values stand for (`machine.Unit`: a tick, a
# wall time or seq, a tenure, a computer, a tag), or that no rule reads it (`machine.Role`). The
# canonical form, the copy of a world moved in time and the ancient wall times are made from the
# fields by their types alone: a field added to the knowledge is in each of them, or its type
# says why not; a type none of them knows stops the checker at import (`_compiled`).

Convert = Callable[[Any, Any], Any]  # (what to do with each unit, a value) -> what it becomes
_UNITS: dict[Unit, Convert] = {
    Unit.TICK: lambda cx, v: cx.tick(v),
    Unit.WALL: lambda cx, v: cx.wall(v),
    Unit.TENURE: lambda cx, v: cx.tenure(v),
    Unit.COMPUTER: lambda cx, v: cx.computer(v),
    Unit.TAG: lambda cx, v: cx.tag(v),
}


def _compiled(tp: Any, form: bool) -> Convert:
    """What becomes of a value of type `tp`: each value of a unit as the context says (`Form`,
    `Move`, `Walls`), containers alike; `form`: written as sorted tuples (a canonical form), else
    rebuilt as they were."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        unit = next((m for m in tp.__metadata__ if isinstance(m, Unit)), None)
        if unit is not None:
            return _UNITS[unit]
        return _compiled(args[0], form)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        f = _compiled(inner, form)
        return lambda cx, v: None if v is None else f(cx, v)
    if origin is collections.abc.Mapping:
        fk, fv = _compiled(args[0], form), _compiled(args[1], form)
        if form:
            return lambda cx, d: tuple(sorted((fk(cx, k), fv(cx, v)) for k, v in d.items()))
        return lambda cx, d: {fk(cx, k): fv(cx, v) for k, v in d.items()}
    if origin is frozenset:
        f = _compiled(args[0], form)
        if form:
            return lambda cx, items: tuple(sorted(f(cx, x) for x in items))
        return lambda cx, items: frozenset(f(cx, x) for x in items)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        f = _compiled(args[0], form)
        return lambda cx, items: tuple(f(cx, x) for x in items)
    if origin is tuple:
        fs = [_compiled(a, form) for a in args]
        return lambda cx, items: tuple(f(cx, x) for f, x in zip(fs, items, strict=True))
    if tp is Claim:
        return lambda cx, c: cx.claim(c)
    if tp is Memory:
        return lambda cx, m: cx.memory(m)
    if tp in (bool, int, float, str):
        return lambda cx, v: v
    raise TypeError(f"a field of Knowledge of type {tp!r}: give it a machine.Unit, or a Role")


def _role(tp: Any) -> Role | None:
    if typing.get_origin(tp) is not Annotated:
        return None
    return next((m for m in tp.__metadata__ if isinstance(m, Role)), None)


_HINTS = typing.get_type_hints(Knowledge, include_extras=True)
_NAMES = [f.name for f in fields(Knowledge)]
# The fields of a state: all but those no rule reads (shown only) and the machine's seat, which
# its place in the world gives (its part, id and name; its fixes and rules, which its node says;
# the tenure source).
JUDGED = tuple(name for name in _NAMES if _role(_HINTS[name]) is None)
_FORMS = tuple((name, _compiled(_HINTS[name], form=True)) for name in JUDGED)
# Every field that holds a time, shown ones too, moved or looked at (the seat holds none).
_TIMED = tuple(
    (name, _compiled(_HINTS[name], form=False))
    for name in _NAMES
    if _role(_HINTS[name]) is not Role.GIVEN
)


class _Context:
    """What becomes of each unit's values (`_UNITS`), of claims and of memories: as they are,
    where a context does not say otherwise."""

    __slots__ = ()

    def _same(self, v: Any) -> Any:
        return v

    tick = wall = tenure = computer = tag = claim = memory = _same


Retime = Callable[[int], int]


class _Move(_Context):
    """Each time moved (`retimed`): a wall time or seq by `walls` (but -1 and 0, which stand for
    none), a tick by `ticks`."""

    __slots__ = ("claims", "ticks", "walls")

    def __init__(self, walls: Retime, ticks: Retime, claims: Callable[[Claim], Claim]) -> None:
        self.walls, self.ticks, self.claims = walls, ticks, claims

    def tick(self, v: float) -> Any:
        return self.ticks(int(v))

    def wall(self, v: float) -> Any:
        return v if v <= 0 else self.walls(int(v))

    def claim(self, c: Claim) -> Any:
        return self.claims(c)

    def memory(self, m: Memory) -> Any:
        return Memory(
            {k: self.claims(c) for k, c in m.claims.items()},
            {k: self.wall(v) for k, v in m.forgets.items()},
            {k: self.wall(v) for k, v in m.named.items()},
        )


class _Walls(_Context):
    """Each wall time and seq a knowledge holds, looked at (`ancient_walls`): its claims apart
    (each looked at only when its oldest is), the others in `rest`."""

    __slots__ = ("claims", "rest")

    def __init__(self) -> None:
        self.claims: list[Claim] = []
        self.rest: list[int] = []

    def wall(self, v: float) -> Any:
        self.rest.append(int(v))
        return v

    def claim(self, c: Claim) -> Any:
        self.claims.append(c)
        return c

    def memory(self, m: Memory) -> Any:
        self.claims += m.claims.values()
        self.rest += m.forgets.values()
        self.rest += m.named.values()
        return m


def moved(k: Knowledge, cx: _Context) -> Knowledge:
    """`k` with each value of its fields as `cx` makes it."""
    return replace(k, **{name: f(cx, getattr(k, name)) for name, f in _TIMED})


def retimed(w: World, walls: Retime, tick: Callable[[int], Retime], now: int) -> World:
    """A copy of `w` whose every time is moved: each wall time and seq by `walls` (but the seqs
    -1 and 0, which stand for none), each tick of computer i by `tick(i)`, true time to `now`
    (the times of calls and starts by as much). For the tests that a world and its copy moved in
    time, or with its ancient times moved about, step alike (`canonical`, "Ancient times")."""
    shift = now - w.now

    def wall(v: int) -> int:
        return v if v <= 0 else walls(v)  # -1 (knew none) and 0 (a declaration's no claim) stay

    new = w.clone()
    new.now = now
    new.forms = []

    def opt(f: Retime, v: float | None) -> Any:
        return None if v is None else f(int(v))

    def claim(c: Claim) -> Claim:
        return replace(
            c,
            seq=wall(c.seq), since=wall(c.since), renewed=wall(c.renewed),
            active=wall(c.active), taken=opt(wall, c.taken), sees_seq=opt(wall, c.sees_seq),
            answers=opt(wall, c.answers),
            forgets={k: wall(v) for k, v in c.forgets.items()},
            closes={k: wall(v) for k, v in c.closes.items()},
            reads={k: wall(v) for k, v in c.reads.items()},
            admits={k: wall(v) for k, v in c.admits.items()},
        )  # fmt: skip

    def memory(saved: Memory | None) -> Memory | None:
        return None if saved is None else _Move(walls, walls, claim).memory(saved)

    new.versions = [
        [replace(v, claim=claim(v.claim), at=v.at + shift, knew=tuple(map(wall, v.knew)))
         for v in versions]
        for versions in w.versions
    ]  # fmt: skip
    for i, node in enumerate(new.nodes):
        node.saved, node.older = memory(node.saved), memory(node.older)
        node.backup = memory(node.backup)
        node.called += shift
        node.began += shift
        node.marked = opt(wall, node.marked)
        if node.said is not None:
            node.said = (node.said[0], node.said[1] + shift)
        if node.knowledge is not None:
            node.knowledge = moved(node.knowledge, _Move(walls, tick(i), claim))
    return new


def initial(n: int, switches: Switches = SHIPPED, alphabet: Alphabet = FULL) -> World:
    """n computers (but the last `alphabet.joins`, which join later) that have each renewed,
    read everyone's claim and answered it: a folder in use, where every computer's claim has
    reached every other at least once (the protocol's assumption). aa made the folder; it keeps
    invoices (or `taken_by` does), not settled yet (or `settled`: SETTLING later, acting); then
    its evening (`Alphabet.evening`): computers close or quit, one after the other, each having
    read every claim, and once every one has, the night passes."""
    w = World(T0, [Node(IDS[i], None) for i in range(n)], [[] for _ in range(n)], [1] * n)
    w.switches = switches
    w.arrives = alphabet.arrives
    w.marks = alphabet.marks
    present = range(n - alphabet.joins)
    for i, offset in enumerate(alphabet.offsets):
        w.nodes[i].offset = offset
    for i in alphabet.old:
        w.nodes[i].old = True
    for i in range(n - alphabet.joins, n):
        w.nodes[i].joined = False
    for i in present:
        w.start(i, None, True)
    for i in present:
        apply(w, ("take" if i == alphabet.taken_by else "renew", i, latest(w)))
    for i in alphabet.backup:
        node = w.nodes[i]
        assert node.saved is not None and node.saved.claims[node.id] == w.versions[i][-1].claim
        node.backup = node.saved  # with the claim it saved before writing: the pair agrees
    for i in present:
        apply(w, ("renew", i, latest(w)))
    if alphabet.settled:
        w.now += SETTLING
        for i in present:
            apply(w, ("renew", i, latest(w)))
    evening = [(op, i) for op, i in alphabet.evening if i in present]  # (2 computers, 1 to join)
    for op, i in evening:
        apply(w, (op, i, latest(w)))
    if evening and len({i for _, i in evening}) == len(present):
        w.now += NIGHT
    for op, *call in alphabet.morning:
        if op != "wait" and not all(k in present for k in call):
            continue  # a computer this folder lacks (3 in the alphabet, 2 here)
        if op == "wait":
            apply(w, (op, *call))
        elif op == "forget":
            apply(w, (op, *call, latest(w)))
        else:
            i, *late = call
            apply(w, (op, i, tuple(-1 if k in late else v for k, v in enumerate(latest(w)))))
    if alphabet.replicas:
        w.held = [list(latest(w)) if i in present else [-1] * n for i in range(n)]
    w.trace = []
    return w


def latest(w: World) -> tuple[int, ...]:
    """Every claim file's latest version (the sync has delivered everything), but those removed
    for good."""
    return tuple(
        len(v) - 1 if v and not n.removed else -1 for v, n in zip(w.versions, w.nodes, strict=True)
    )


def _started(
    w: World, i: int, memory: Memory | None, remembers: bool, alphabet: Alphabet
) -> Iterator[Choice]:
    """What computer i's replica may hold at the first read of a tray (or a command) started
    with `memory`."""
    started = w.clone()
    began = started.nodes[i].began
    started.start(i, memory, remembers)
    if memory is not None and memory is w.nodes[i].saved and w.nodes[i].knowledge is None:
        started.nodes[i].began = began  # a command beside a tray that is down: not a new start
    return started.choices(i, alphabet.arrives, alphabet.stale, alphabet.replicas)


def _restored(node: Node, how: str) -> Memory | None:
    """The state a restart `how` finds (`Alphabet.restarts`)."""
    return {"state": node.saved, "older": node.older, "lost": None, "backup": node.backup}[how]


def _put_back(w: World, choices: Iterator[Choice], i: int) -> Iterator[Choice]:
    """The reads of a start whose own claim file is the backup's: a version its state file
    knows, read as nothing new, whatever it wrote since (`Alphabet.backup`). With replicas, the
    rest as its replica holds it (the restart puts the backup's copy into it)."""
    seen: set[Choice] = set()
    for c in choices:
        held = tuple(w.held[i]) if c is None else c
        put = (*held[:i], -1, *held[i + 1 :])
        if put not in seen:
            seen.add(put)
            yield put


def deliveries(w: World, alphabet: Alphabet) -> Iterator[Event]:
    """With `Alphabet.replicas`, what the sync may do next: bring a claim file's latest version
    into a replica (``deliver``), an older one (``stale``, with `Alphabet.stale`), or take a
    file away (``vanish``). A replica's own file changes by its own writes; only while its tray
    is down may the sync bring back an older copy of it (a replica restored, a copy from a
    computer that kept it), which a restart without its state then reads."""
    for i, node in enumerate(w.nodes):
        if not node.joined or node.removed:
            continue
        held = w.held[i]
        for k, versions in enumerate(w.versions):
            if not versions or w.nodes[k].removed:
                continue
            last = len(versions) - 1
            if k == i:
                if node.knowledge is None and alphabet.stale:
                    yield from (("stale", i, k, v) for v in range(last) if v != held[k])
                continue
            if held[k] != last:
                yield ("deliver", i, k, last)
            if alphabet.stale:
                yield from (("stale", i, k, v) for v in range(last) if v != held[k])
            if held[k] >= 0:
                yield ("vanish", i, k)
    # The sync catching up: every replica gets every other computer's latest version at once. A
    # shortcut for the `deliver` events it is made of (no state it reaches is new), so a walk
    # draws a whole sync as one event where it would otherwise need one per file and replica.
    if any(_behind(w, i) for i in range(len(w.nodes))):
        yield ("sync",)


def _behind(w: World, i: int) -> bool:
    """Whether replica i lacks the latest version of another computer's claim file."""
    return (w.nodes[i].joined and not w.nodes[i].removed) and any(
        versions and w.held[i][k] != len(versions) - 1
        for k, versions in enumerate(w.versions)
        if k != i and not w.nodes[k].removed
    )


def events(w: World, alphabet: Alphabet = FULL) -> Iterator[Event]:
    """Every event that may happen next."""
    n = len(w.nodes)
    for i, node in enumerate(w.nodes):
        if node.removed:
            continue  # gone for good
        if not node.joined:
            for choice in _started(w, i, None, True, alphabet):
                yield ("join", i, choice)
            continue
        m = node.knowledge
        if m is not None:
            for choice in w.choices(i, alphabet.arrives, alphabet.stale, alphabet.replicas):
                for op in alphabet.ops:
                    yield (op, i, choice)
                    if alphabet.unsaved and op in ("close", "quit"):
                        yield (op, i, choice, "unsaved")
                if alphabet.marks:
                    if w.acting(node):  # `Driver.mark` takes a mark only while it acts
                        yield ("mark", i, choice)
                    if m.mark_unknown:  # its status says the mark unknown: the person confirms
                        yield ("confirm", i, choice)
                if alphabet.forget:
                    for k, other in enumerate(w.nodes):
                        if (
                            k != i
                            and other.id in m.best
                            and (other.knowledge is None or alphabet.forget == "any")
                        ):
                            yield ("forget", i, k, choice)
                    if alphabet.removes:
                        yield from _by_tag(w, i, m, choice)
            if alphabet.crash:
                yield ("crash", i)
            yield from _jumps(w, i, alphabet)
            if alphabet.seals:
                yield ("reseal", i)
        else:
            for how in alphabet.restarts:
                memory = _restored(node, how)
                if how in ("older", "backup") and memory is None:
                    continue
                started = _started(w, i, memory, memory is not None, alphabet)
                if how == "backup":
                    started = _put_back(w, started, i)
                for choice in started:
                    yield ("restart", i, how, choice)
            if node.old and node.saved is not None:
                for how in alphabet.upgrades:
                    # Its replica at the first read, as at a restart with its state file.
                    for choice in _started(w, i, _upgraded(node.saved, how), True, alphabet):
                        yield ("upgrade", i, how, choice)
            if alphabet.removes and w.versions[i]:
                yield ("remove", i)
            if alphabet.forget and node.saved is not None:
                # `sioul-tray forget` while the tray does not run: a process of its own.
                targets = [
                    k
                    for k, other in enumerate(w.nodes)
                    if k != i
                    and other.id in node.saved.claims
                    and (other.knowledge is None or alphabet.forget == "any")
                ]
                if targets:
                    choices = list(_started(w, i, node.saved, True, alphabet))
                    for k in targets:
                        for choice in choices:
                            yield ("forget", i, k, choice)
        if alphabet.seals:
            for j in range(n):
                if j != i and w.seals[j] != w.seals[i]:
                    yield ("seal", i, j)
    if alphabet.replicas:
        yield from deliveries(w, alphabet)
    yield from _waits(w, alphabet)


def _upgraded(saved: Memory, how: str) -> Memory:
    """The state file an upgraded tray starts with (`Alphabet.upgrades`): as saved, or as the
    first rules wrote it, without the record of whom its closes named."""
    return saved if how == "state" else Memory(saved.claims, saved.forgets, {})


def _by_tag(w: World, i: int, m: Knowledge, choice: Choice) -> Iterator[Event]:
    """Running computer i declares gone, by its tag alone, each computer whose claim file was
    removed for good and that it knows only by that tag in the others' `knows` (its menu offers
    it: `Knowledge.unheard_tags`)."""
    offered = m.unheard_tags()
    for k, other in enumerate(w.nodes):
        if other.removed and other.id not in m.best and tag(other.id) in offered:
            yield ("forget", i, k, choice, "by tag")


def _jumps(w: World, i: int, alphabet: Alphabet) -> Iterator[Event]:
    """Computer i's wall clock set (its tray running), never past MAX_OFFSET."""
    for d in alphabet.jumps:
        if abs(w.nodes[i].offset + d) <= MAX_OFFSET:
            yield ("jump", i, d)


def _waits(w: World, alphabet: Alphabet) -> Iterator[Event]:
    """True time passing by each quantum (with `drift`, one computer's ticks slow over it)."""
    for q in alphabet.quanta:
        yield ("wait", q)
        if alphabet.drift and q >= UNCLOSED - ALIVE:
            for i in range(len(w.nodes)):
                yield ("wait", q, i)


# -- time passing, merged into the call that observes it ----------------------------------------
#
# A wait is true time passing; a jump, one computer's wall clock set. Neither is seen but by an
# event that reads the time: a call of a running tray (renew, take, close, quit, look, forget),
# a start (restart, join, reseal: `began`), and of a jump only a call of that computer (its wall
# clock) or its crash (after which no jump of it is offered). Every other event (crash, the
# sync's, seal) reads neither, and each is offered alike before and after them. So a wait or a
# jump commutes with every event but those, and any sequence of events ends in the same state as
# the one with each wait moved to just before the next event that reads the time and each jump
# of computer i to just before i's next call or crash. The search takes such a run of waits and
# jumps and the event after it as one move (checker.py, `moves`).

PASSING = frozenset({"wait", "jump"})
# The events that read true time: each may come after a run of waits.
TIMED = frozenset({
    "renew", "take", "close", "quit", "look", "mark", "confirm", "forget", "restart", "join",
    "reseal", "upgrade",
})  # fmt: skip


def passing(w: World, alphabet: Alphabet) -> Iterator[Event]:
    """The waits and jumps `events` offers in `w`, alone."""
    for i, node in enumerate(w.nodes):
        if node.joined and node.knowledge is not None:
            yield from _jumps(w, i, alphabet)
    yield from _waits(w, alphabet)


def absorbs(event: Event, waits: bool, jumped: frozenset[int]) -> bool:
    """Whether `event` may follow a run of waits (`waits`) and of jumps of the computers
    `jumped` as one move: it reads the time if the run passes any, and it is the next call or
    crash of every computer the run jumps (at most one)."""
    kind = event[0]
    if kind in TIMED:
        return jumped <= {event[1]}
    if kind == "crash":
        return not waits and jumped <= {event[1]}
    return not waits and not jumped


def passed(w: World) -> tuple[Any, ...]:
    """What waits and jumps change: true time, each wall clock's offset, each computer's lag."""
    return (w.now, *(n.offset for n in w.nodes), *(n.lag for n in w.nodes))


def apply(w: World, event: Event) -> None:
    """Carry out one event on `w` (changed in place), as the tray and its computer would."""
    event = _resolved(w, event)
    kind = event[0]
    if kind in CALLS:
        i, choice = event[1], event[2]
        saves = len(event) < 4  # (op, i, choice, "unsaved"): the state save fails
        w.drawing(i)
        w.read(i, choice)
        if kind in ("close", "quit"):
            w.carry_out(i, w.step(i, Close()), saves)
            w.nodes[i].verdict = False
            w.nodes[i].called = w.now
            if kind == "quit":  # the tray quits: it comes back only by a restart
                w.nodes[i].knowledge = None
        elif kind in ("mark", "confirm"):
            _marked(w, i, kind == "confirm", saves)
        else:
            call = Look() if kind == "look" else Renew(take=kind == "take")
            m = w.nodes[i].knowledge
            if m is not None and m.mark_unknown and kind != "look" and not w.marks:
                # The person confirms an unknown mark (S6) at once: without `Alphabet.marks` the
                # model numbers no records, so that wait would only stall its paths.
                own = m.best.get(w.nodes[i].id)
                call = Renew(take=kind == "take", wrote=own.wrote if own else 0, confirm=True)
            w.carry_out(i, w.step(i, call), saves)
    elif kind == "forget":
        i, k, choice = event[1:4]
        # (..., "by tag"): declared by its tag alone (`unheard_id`), its claim never read here.
        target = unheard_id(tag(w.nodes[k].id)) if len(event) > 4 else w.nodes[k].id
        node = w.nodes[i]
        command = node.knowledge is None  # the command line's own process, the tray down
        if command:
            began = node.began
            w.start(i, node.saved, True)
            node.began = began
        w.drawing(i)
        w.read(i, choice)
        m = node.knowledge
        own = m.best.get(node.id) if m is not None else None
        if not (m is not None and m.unproven and own is not None and own.closed):
            # (Else refused, nothing written: a declaration in a closed claim while the mark is
            # unknown would be a close the others may count, S6, `Fixes.marks_unproven`.)
            w.carry_out(i, w.step(i, Forget(target)))
        if command:
            node.knowledge = None
        else:
            w.carry_out(i, w.step(i, Look()))
    elif kind in ("deliver", "stale"):
        _, i, k, v = event
        w.held[i][k] = v
        w.touch(i)
    elif kind == "vanish":
        _, i, k = event
        w.held[i][k] = -1
        w.touch(i)
    elif kind == "sync":
        for i in range(len(w.nodes)):
            if _behind(w, i):
                mine = w.held[i][i]
                w.held[i] = list(latest(w))
                w.held[i][i] = mine
                w.touch(i)
    elif kind == "crash":
        node = w.nodes[event[1]]
        node.knowledge = None
        node.verdict = False
        w.touch(event[1])
    elif kind == "restart":
        _, i, how, choice = event
        node = w.nodes[i]
        memory = _restored(node, how)
        # No state file (lost, or removed while the mark is unknown): the shell's machine
        # remembers nothing (`Lease`: `remembers` only where a state file read whole).
        w.start(i, memory, memory is not None)
        if how == "lost":
            node.saved = node.older = None
        elif how == "older":
            node.saved = node.older  # the old copy is the state file now
        elif how == "backup":
            node.saved, node.older = node.backup, None
            if w.held:  # its own claim file, as the backup holds it
                assert node.backup is not None
                own = node.backup.claims[node.id]
                w.held[i][i] = next(v for v, x in enumerate(w.versions[i]) if x.claim == own)
        tracing, w.tracing = w.tracing, False
        apply(w, ("renew", i, choice))  # the tray renews as it starts
        w.tracing = tracing
    elif kind == "upgrade":
        _, i, how, choice = event
        node = w.nodes[i]
        assert node.saved is not None
        node.old = False  # on these rules from now on
        w.start(i, _upgraded(node.saved, how), True)
        tracing, w.tracing = w.tracing, False
        apply(w, ("renew", i, choice))  # the tray renews as it starts
        w.tracing = tracing
    elif kind == "remove":
        k = event[1]
        w.nodes[k].removed = True
        w.touch(k)
        for i, held in enumerate(w.held):
            held[k] = -1
            w.touch(i)
    elif kind == "join":
        _, i, choice = event
        w.nodes[i].joined = True
        w.start(i, None, True)
        tracing, w.tracing = w.tracing, False
        apply(w, ("renew", i, choice))
        w.tracing = tracing
    elif kind == "wait":
        w.now += event[1]
        if len(event) > 2:
            w.nodes[event[2]].lag += int(event[1] * DRIFT)
            w.touch(event[2])
    elif kind == "jump":
        w.nodes[event[1]].offset += event[2]
        w.touch(event[1])
    elif kind == "reseal":
        i = event[1]
        w.keys += 1
        node = w.nodes[i]
        node.key = w.keys
        w.seals[i] = node.key
        # A new folder id: a new state file, and this replica's claims are gone with the wipe.
        if w.held:
            w.held[i] = [-1] * len(w.nodes)
        w.start(i, None, True, created=True)
        node.saved = node.older = None
        node.began = w.now
    elif kind == "seal":
        _, i, j = event
        w.seals[j] = w.seals[i]
        w.touch(j)
    else:
        raise ValueError(f"unknown event {event!r}")
    if w.tracing:
        w.trace.append(describe(w, event))


# The calls of a running tray, each with its read (`Choice`) as event[2].
CALLS = ("renew", "take", "close", "quit", "look", "mark", "confirm")


def _marked(w: World, i: int, confirm: bool, saves: bool) -> None:
    """Computer i's Sioul is told yes to its next mark (`Driver.mark`: the renew carries it, and
    the yes comes once the claim carrying it is written), or (`confirm`) its person confirms
    the highest mark said yes to (`Driver.confirm`), its mark unknown."""
    node = w.nodes[i]
    m = node.knowledge
    assert m is not None
    said = node.said[0] if node.said is not None else 0
    if confirm:
        w.carry_out(i, w.step(i, Renew(wrote=said, confirm=True)), saves)
        return
    own = m.best.get(node.id)  # what its claim carries, as its last call wrote it
    mark = (own.wrote if own is not None else 0) + 1
    written = len(w.versions[i])
    w.carry_out(i, w.step(i, Renew(wrote=mark)), saves)
    if len(w.versions[i]) > written and w.versions[i][-1].claim.wrote >= mark:
        node.said = (max(mark, said), w.now)
        w.touch(i)


def _resolved(w: World, event: Event) -> Event:
    """`event` with its read (None: what the replica holds) spelt out as versions."""
    kind = event[0]
    at = {"renew": 2, "take": 2, "close": 2, "quit": 2, "look": 2, "mark": 2, "confirm": 2,
          "join": 2, "restart": 3, "forget": 3, "upgrade": 3}.get(kind)  # fmt: skip
    if at is None or event[at] is not None:
        return event
    return (*event[:at], tuple(w.held[event[1]]), *event[at + 1 :])


def describe(w: World, event: Event) -> str:
    kind = event[0]
    at = f"t+{w.now - T0}"
    if kind in (*CALLS, "restart", "forget", "join", "upgrade"):
        i = event[1]
        choice = event[2] if kind in (*CALLS, "join") else event[3]
        seen = ", ".join(
            f"{w.nodes[k].id}:{'-' if v < 0 else w.versions[k][v].claim.seq}"
            for k, v in enumerate(choice)
            if v >= 0 or k != i
        )
        node = w.nodes[i]
        what = kind
        if kind == "restart":
            what = {
                "state": "restart with its state",
                "older": "restart with an older state file",
                "lost": "restart without its state",
                "backup": "restart with its state and its own claim put back from a backup",
            }[event[2]]
        elif kind == "upgrade":
            what = "upgraded: starts on these rules with its state file"
            if event[2] == "first":
                what += " of the first rules (no record of whom its closes named)"
        elif kind == "forget":
            what = f"forget {w.nodes[event[2]].id}"
            if len(event) > 4:
                what += f" by its tag ({unheard_id(tag(w.nodes[event[2]].id))})"
            elif node.knowledge is None:
                what = f"`sioul-tray forget {w.nodes[event[2]].id}` (its tray down)"
        elif kind in ("mark", "confirm"):
            said = node.said[0] if node.said is not None else 0
            yes = node.said is not None and node.said[1] == w.now
            what = f"its person confirms mark {said}" if kind == "confirm" else "mark (refused)"
            if kind == "mark" and yes:
                what = f"mark: its Sioul told yes to {said}"
        elif len(event) > 3:
            what = f"{kind} (its state not saved)"
        mine = w.versions[i][-1].claim if w.versions[i] else None
        wrote = ""
        if kind != "look" and mine is not None:
            answered = mine.sees_seq if mine.answers is None else mine.answers
            wrote = (
                f" wrote seq {mine.seq}{' closed' if mine.closed else ''}"
                f" tenure {mine.tenure} sees {mine.sees}@{mine.sees_tenure}#{answered}"
            )
            if w.marks:
                wrote += f" mark {mine.wrote}"
        acting = " ACTS" if node.verdict and node.knowledge is not None else ""
        return f"{at} {node.id} {what} (read {seen}){wrote}{acting}"
    if kind == "wait":
        slow = f", {w.nodes[event[2]].id}'s ticks {DRIFT:.2%} slow" if len(event) > 2 else ""
        return f"{at} (waited {event[1]} s{slow})"
    if kind == "jump":
        return f"{at} {w.nodes[event[1]].id}'s clock set by {event[2]:+d} s"
    if kind == "crash":
        return f"{at} {w.nodes[event[1]].id} crashes"
    if kind == "reseal":
        return f"{at} {w.nodes[event[1]].id} sets the folder up again (a new seal)"
    if kind == "seal":
        return f"{at} {w.nodes[event[1]].id}'s seal reaches {w.nodes[event[2]].id}"
    if kind in ("deliver", "stale"):
        _, i, k, v = event
        version = w.versions[k][v]
        old = " (an older copy)" if kind == "stale" else ""
        return (
            f"{at} {w.nodes[k].id}'s claim of seq {version.claim.seq}"
            f"{' closed' if version.claim.closed else ''} reaches {w.nodes[i].id}'s replica{old}"
        )
    if kind == "vanish":
        return f"{at} {w.nodes[event[2]].id}'s claim file vanishes from {w.nodes[event[1]].id}'s"
    if kind == "remove":
        return f"{at} {w.nodes[event[1]].id}'s claim file is removed from the folder for good"
    if kind == "sync":
        return f"{at} the sync catches up: every replica holds every claim's latest version"
    return f"{at} {event}"


# -- canonical form -----------------------------------------------------------------------
#
# Every time relative to now (the rules compare only differences and orders, and a test steps a
# world beside its copy moved in time); a machine's ticks relative to its own; a tenure by how many
# its computer drew after it (only their equality matters, and a new one is always unlike every
# other); the computers (and their tags) renamed.
#
# Ancient times: the largest constant any rule compares an age against is 2 * UNCLOSED (a lapsing
# declaration, `_Draft.declared`, with `forget_holds` off; UNCLOSED and FRESH + ALIVE below it),
# and a wall clock stands at most MAX_OFFSET from true time. So a tick older than TICK_HORIZON
# before its machine's ticks now fails every such comparison, now and for ever (ticks only go
# forward); and so does a wall time or seq older than WALL_HORIZON before true time, against every
# computer's wall clock, whatever it is set to later. What the rules still ask of such values:
# nothing of a tick (each one is only ever compared with now, alone or as the latest of several,
# `max(heard, started)`), and of a wall time or seq only its order among the others and equality
# (the oldest `since`, the latest take, a stale seq, an acknowledged seq). So an ancient tick is
# written ANCIENT, and an ancient wall time or seq by its rank among the world's ancient ones:
# states that differ only by how long ago those were merge. `retimed` moves them about, and
# tests/model/test_model.py checks that a world and its moved copy step alike.
TICK_HORIZON = 2 * UNCLOSED
WALL_HORIZON = MAX_OFFSET + 2 * UNCLOSED
ANCIENT = "ancient"
# Every wall time and seq a computer writes is at least T0 - MAX_OFFSET (its clock is never set
# further back): until true time passes that by WALL_HORIZON, none is ancient.
LOWEST_WALL = T0 - MAX_OFFSET
NONE_SEQ = -(10**12)  # the seqs -1 and 0, which stand for none, far from every other form

# Claims are immutable: each one's form is made once per renaming, time, tenure counts and
# ancient wall times, and numbered (kept alive here, so that ids stay unique while cached).
_claims: dict[tuple[Any, ...], tuple[Claim, int]] = {}
_interned: dict[Any, int] = {}
_numbers = itertools.count()
# Each computer's part of a canonical form by its number: equal parts, equal numbers, so a form
# is a few numbers, exact without being kept whole in every state (`canonical`).
_parts: dict[bytes, int] = {}
_PARTS = 4_000_000  # parts kept; past it, the numbering starts again (never reusing a number)


def _numbered(part: tuple[Any, ...]) -> int:
    form = marshal.dumps(part, 0)  # 0: no references, which follow identity
    n = _parts.get(form)
    if n is None:
        if len(_parts) > _PARTS:
            _parts.clear()  # a state met again may be explored again, never one left out
        n = _parts[form] = next(_numbers)
    return n


# Each order of the computers' ids: their new names, and the tags of the old by the new.
_namings: dict[tuple[str, ...], tuple[dict[str, str], dict[int, int]]] = {}
_CACHED = 1_000_000  # claims kept for the cache; past it, the cache starts again
_walls: dict[int, tuple[Claim, tuple[int, ...]]] = {}


def claim_walls(c: Claim) -> tuple[int, ...]:
    """Every wall time and seq a claim carries."""
    got = _walls.get(id(c))
    if got is None:
        if len(_walls) > _CACHED:
            _walls.clear()
        values = [c.seq, c.since, c.renewed, c.active, c.taken, c.sees_seq, c.answers]
        values += c.forgets.values()
        values += c.closes.values()
        values += c.reads.values()
        values += c.admits.values()
        got = _walls[id(c)] = (c, tuple(sorted(v for v in values if v is not None)))
    return got[1]


def ancient_walls(w: World) -> tuple[int, ...]:
    """The world's wall times and seqs older than WALL_HORIZON, in order, but the seqs that
    stand for none: in claims (each looked at only when its oldest is), memories, machines and
    versions."""
    floor = w.now - WALL_HORIZON
    if floor <= LOWEST_WALL:
        return ()
    found: set[int] = set()
    claims: list[Claim] = [v.claim for versions in w.versions for v in versions]
    rest: list[int] = []
    for version in itertools.chain.from_iterable(w.versions):
        rest += version.knew
    for node in w.nodes:
        for memory in (node.saved, node.older, node.backup):
            if memory is not None:
                claims += memory.claims.values()
                rest += memory.forgets.values()
                rest += memory.named.values()
        if node.marked is not None:
            rest.append(node.marked)
        if node.knowledge is not None:
            looked = _Walls()
            for name, f in _TIMED:
                f(looked, getattr(node.knowledge, name))
            claims += looked.claims
            rest += looked.rest
    for c in claims:
        values = claim_walls(c)
        if values and values[0] < floor:
            found.update(v for v in values if 0 < v < floor)
    found.update(v for v in rest if 0 < v < floor)
    return tuple(sorted(found))


class _Renaming:
    """One renaming of a world's computers, at its time."""

    def __init__(self, w: World, order: tuple[int, ...], ancient: tuple[int, ...]) -> None:
        n = len(w.nodes)
        self.now = w.now
        self.floor = w.now - WALL_HORIZON
        # Each ancient wall time by its rank (the latest is -1), below every recent one.
        self.ranks = {v: -WALL_HORIZON - len(ancient) + r for r, v in enumerate(ancient)}
        ids = tuple(w.nodes[j].id for j in order)
        naming = _namings.get(ids)
        if naming is None:
            names = {ids[j]: IDS[j] for j in range(n)}
            naming = _namings[ids] = (names, {tag(old): tag(new) for old, new in names.items()})
        self.names, self.tags = naming
        self.drawn = {node.id: node.tenures for node in w.nodes}
        self.key = (ids, w.now, tuple(self.drawn.values()), ancient)

    def name(self, c: str | None) -> str | None:
        return None if c is None else self.names.get(c, c)

    def wall(self, t: float | None) -> float | None:
        if t is None:
            return None
        if t < self.floor:
            if t <= 0:  # the seqs that stand for none (-1: knew none; 0: a declaration's)
                return NONE_SEQ - t
            return self.ranks[int(t)]
        return t - self.now

    def tenure(self, computer: str | None, t: int | None) -> int | None:
        if t is None or computer is None:
            return t
        return self.drawn.get(computer, 0) - t

    def table(self, d: Any) -> tuple[Any, ...]:
        return tuple(sorted((self.name(k), self.wall(v)) for k, v in d.items()))

    def tagged(self, d: Any) -> tuple[Any, ...]:
        return tuple(sorted((self.tags.get(k, k), self.wall(v)) for k, v in d.items()))

    def claim(self, c: Claim) -> int:
        key = (id(c), self.key)
        got = _claims.get(key)
        if got is not None:
            return got[1]
        if len(_claims) > _CACHED:
            # Memory stays bounded on long runs. Numbers change: a state met again may be
            # explored again (never one left out).
            _claims.clear()
            _interned.clear()
        wall, name = self.wall, self.name
        form = (
            name(c.computer),
            wall(c.seq), wall(c.since), wall(c.renewed), wall(c.active), wall(c.taken),
            c.closed, c.wrote, name(c.sees),
            self.tenure(c.computer, c.tenure), self.tenure(c.sees, c.sees_tenure),
            wall(c.sees_seq), wall(c.answers), c.rules,
            self.table(c.forgets), self.tagged(c.closes),
            tuple(sorted(self.tags.get(t, t) for t in c.knows)),
            tuple(sorted(self.tags.get(t, t) for t in c.counted)),
            self.tagged(c.reads), self.tagged(c.admits),
        )  # fmt: skip
        n = _interned.get(form)
        if n is None:
            n = _interned[form] = next(_numbers)  # never reused, even after the cache restarts
        _claims[key] = (c, n)
        return n

    def claims(self, d: collections.abc.Mapping[str, Claim]) -> tuple[Any, ...]:
        return tuple(sorted((self.name(k), self.claim(v)) for k, v in d.items()))

    def memory(self, saved: Memory | None) -> Any:
        if saved is None:
            return None
        return (self.claims(saved.claims), self.table(saved.forgets), self.tagged(saved.named))

    def knowledge(self, k: Knowledge | None, tick: int, lean: Lean) -> Any:
        """A machine's knowledge, field by field (`JUDGED`), each value by its unit (`_Form`),
        but the fields `lean` drops, and the ages clamped at the one constant each is compared
        with (`CLAMPED`)."""
        if k is None:
            return None
        cx = _Form(self, tick, k.seat.me)
        dropped = lean.dropped
        return tuple(
            None
            if name in dropped
            else f(cx, getattr(k, name))
            if name not in CLAMPED or getattr(k, name) is None
            else CLAMPED[name](tick - getattr(k, name))
            for name, f in _FORMS
        )


class _Form(_Context):
    """Each value of a machine's knowledge as its canonical form writes it: a tick relative to
    the machine's ticks now (or ANCIENT), a wall time or seq relative to true time now (or by
    its rank among the ancient ones), a tenure of its computer's by how many it drew since, a
    computer and a tag renamed."""

    __slots__ = ("me", "now", "r")

    def __init__(self, r: _Renaming, tick: int, me: str) -> None:
        self.r, self.now, self.me = r, tick, me

    def tick(self, v: float) -> Any:
        return ANCIENT if v < self.now - TICK_HORIZON else v - self.now

    def wall(self, v: float) -> Any:
        return self.r.wall(v)

    def tenure(self, v: int) -> Any:
        return self.r.tenure(self.me, v)

    def computer(self, c: str) -> Any:
        return self.r.names.get(c, c)

    def tag(self, t: int) -> Any:
        return self.r.tags.get(t, t)

    def claim(self, c: Claim) -> Any:
        return self.r.claim(c)

    def memory(self, m: Memory) -> Any:
        return self.r.memory(m)


# The fields of a machine's knowledge left out of its canonical form, as their types mark them
# (`machine.Role`): who it is, given by its place in the world (`Seat`: its part, id and name,
# its fixes and rules, which its node tells, and the tenure source), and what is shown only (the
# clocks seen ahead; when it last saw a gap in its ticks). Whether it acted at its last look is
# judged: a computer that numbers invoices it did not take records them as its take
# (`Knowledge.inherits`). tests/model/test_model.py checks that these are the ones, and that
# `acting`, which its claims carry for the others' notices, flipped changes no step.
UNJUDGED = frozenset({"seat", "ahead", "jumped_at"})
# A claim's fields left out of its canonical form: shown only, read by no rule.
UNCLAIMED = frozenset({"part", "name", "acting"})


# -- the lean form -------------------------------------------------------------------------
#
# A search's events read less of a world than all of it: what no event of its alphabet (nor its
# checks: `World.unsafe` at every state, liveness, the evening) ever reads, the canonical form
# leaves out, so that states differing only there merge (`lean`). Exact still: a part is left out
# only where nothing read later can depend on it, so two states with one lean form step alike
# (tests/model/test_model.py checks it along random walks). A check that reads a part left out
# here must keep it (a field of `Lean`, on where it reads it).


@dataclass(frozen=True)
class Lean:
    """The parts of a world its canonical form keeps beyond what every event reads."""

    # The state file written before the last (`Node.older`): read only by a restart "with an
    # older state file" (the carry-out of a save only moves it).
    older: bool = True
    # The state file a backup holds (`Node.backup`): read only by a restart from it.
    backup: bool = True
    # The state file (`Node.saved`): read only when a tray that is down starts (a restart, an
    # upgrade, the `forget` command) and by the evening's morning: never without a crash, a quit
    # or an upgrade (whose tray is down from the start's evening).
    saved: bool = True
    # When this run last read each claim (`Knowledge.observed`): read only by `declared_from`,
    # for a computer declared gone, and only a forget event declares (or the liveness check's).
    observed: bool = True
    # What each version's writer knew (`Version.knew`): read by the evening check alone.
    knew: bool = True
    # The versions of a claim file before its last: read only when a read may find an older
    # copy (`Alphabet.stale`), a replica may hold one (`Alphabet.replicas`), by the liveness
    # check (a seq that went back) and the evening's (its closes), and by S6 with
    # `Alphabet.marks` (the claims written after a yes, and which one a `must_have` is from).
    history: bool = True

    @property
    def dropped(self) -> frozenset[str]:
        """The fields of a machine's knowledge left out."""
        return frozenset() if self.observed else frozenset({"observed"})


EXACT = Lean()  # every part kept (the form of a world, whatever events come next)


def lean(alphabet: Alphabet, *, liveness: bool = False, evening: bool = False) -> Lean:
    """The parts of a world that the events of `alphabet`, and the search's checks, read."""
    down = alphabet.crash or "quit" in alphabet.ops  # a tray may be down, and start again
    return Lean(
        older=down and "older" in alphabet.restarts,
        backup=down and "backup" in alphabet.restarts,
        saved=down or evening or bool(alphabet.upgrades),
        observed=bool(alphabet.forget) or liveness,
        knew=evening,
        history=alphabet.stale or alphabet.replicas or liveness or evening or alphabet.marks,
    )


def _age(limit: int) -> Callable[[int], Any]:
    """An age (ticks now minus a tick) that the rules compare only with `limit`, each one
    the same as every later one (ticks only go forward): written no higher than limit + 1."""
    return lambda age: ("age", min(age, limit + 1))


# The fields of a machine's knowledge whose tick the rules compare with one constant alone, each
# written by what that comparison can still tell (an age past the constant is past it for good):
# - `saved_at`, only as `saved_at + ALIVE <= tick` (`Knowledge.save_by`, a renewal's save due);
# - `cloned`, only as `tick - cloned > ALIVE` (`Knowledge.clone_problem`);
# - `distrust_until`, only as `tick >= distrust_until` (and whether it is None): once passed,
#   passed for good, written 0.
CLAMPED: dict[str, Callable[[int], Any]] = {
    "saved_at": _age(ALIVE),
    "cloned": _age(ALIVE),
    "distrust_until": lambda age: ("until", max(-age, 0)),
}


def _said(w: World, i: int) -> tuple[int, int, bool] | None:
    """Computer i's highest mark said yes to, as S6 reads it: the mark, how many versions of its
    claim were written by then (the others are judged, `at` after the yes), and whether it was
    said at this very time (a version written later at this time is not after it)."""
    said = w.nodes[i].said
    if said is None:
        return None
    mark, at = said
    return mark, sum(v.at <= at for v in w.versions[i]), at == w.now


def canonical(w: World, symmetric: bool = True, lean: Lean = EXACT) -> bytes:
    """The world's canonical form, exactly (no digest: two states merge only when their forms are
    equal); with `symmetric`, the least over renamings of the computers other than the folder's
    creator (aa), which the rules treat alike, so a world and its mirror image count once; with
    `lean`, without the parts of the world its events never read (`Lean`)."""
    n = len(w.nodes)
    orders: list[tuple[int, ...]] = [tuple(range(n))]
    if symmetric and n > 2:
        orders = [(0, *p) for p in itertools.permutations(range(1, n))]
    if not w.forms:
        w.forms = [{} for _ in range(n)]
    ancient = ancient_walls(w)
    best: tuple[int, ...] | None = None
    for order in orders:
        r = _Renaming(w, order, ancient)
        parts = []
        for i in order:
            got = w.forms[i].get((r.key, lean))
            if got is None:
                node = w.nodes[i]
                versions = w.versions[i] if lean.history else w.versions[i][-1:]
                # How long its first claim has been in the folder: S2 compares it, less the age
                # of a verdict still acted on (at most RENEW), with `arrives` (< SETTLING).
                first = min((v.at for v in w.versions[i]), default=None)
                got = w.forms[i][r.key, lean] = _numbered((
                    r.knowledge(node.knowledge, w.tick(i), lean),
                    r.memory(node.saved) if lean.saved else None,
                    r.memory(node.older) if lean.older else None,
                    r.memory(node.backup) if lean.backup else None,
                    node.offset,
                    node.verdict and w.now - node.called <= RENEW,
                    min(w.now - node.called, RENEW + 1),
                    node.key,
                    min(w.now - node.began, SETTLING + 1),
                    min(node.called - node.began, SETTLING + 1),  # read after its start (S4)
                    None if first is None else min(w.now - first, SETTLING + 1),
                    node.old,
                    node.joined,
                    r.wall(node.marked),
                    node.acted,
                    _said(w, i),
                    node.removed,
                    w.seals[i],
                    tuple(
                        (r.claim(v.claim), v.key,
                         tuple(r.wall(s) for s in v.knew) if lean.knew else None)
                        for v in versions
                    ),
                    # The replica's content, each file by its writer's new name and its place in
                    # that writer's history (`held`).
                    tuple(sorted((r.name(w.nodes[k].id) or "", v) for k, v in enumerate(w.held[i])))
                    if w.held
                    else None,
                ))  # fmt: skip
            parts.append(got)
        form = tuple(parts)
        if best is None or form < best:
            best = form
    assert best is not None
    return marshal.dumps(best)
