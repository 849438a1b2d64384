"""The model: computers running the shipped state machine, a folder sync that may deliver anything.

A `World` is a whole system at one true time: each computer's tray (its `Machine`, the state file
it last saved, its wall clock's offset, its last verdict), every version of every claim file ever
written, and the seal of each replica. No second model of the rules: every judgement and every
claim comes from `sioul_tray.lease.machine.Machine`, as the tray's `Lease` calls it.

Events (`Event`), each one step of depth:

- a call of a running tray: ``renew``, ``take`` ("Make invoices here"), ``close`` (sleep: a
  later renew wakes it), ``quit`` (a close, then the tray stops: it comes back by a restart).
  Each call reads its replica first, and the read is where the sync
  shows: for each claim file the replica may hold nothing (it vanished, or never arrived) or any
  version ever written, older ones included (a stale copy). Only a read observes a replica, so
  choosing its content at the read is the same as delivering any version at any time before it.
- ``crash``: the tray stops without closing; ``restart``, with the state file it last saved or
  without one (lost), then its first renew;
- ``forget``: the person declares a crashed computer gone, at a running one;
- ``wait``: true time advances by one of the protocol's quanta;
- ``jump``: one computer's wall clock is set by one of `JUMPS`;
- with ``seals`` in the alphabet: ``reseal`` (a computer's person wipes its replica and sets the
  folder up again: a new seal and key) and ``seal`` (one replica's seal reaches another replica).

A computer acts from a call whose verdict was `acting` until its next call, for at most RENEW (a
caller that wants to act calls at least every RENEW). The invariant: never two computers acting
on invoices at the same true time; checked at every state, which covers every overlap (two
acting intervals overlap only if the later one starts inside the earlier one).
"""

from __future__ import annotations

import collections
import copy
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sioul_tray.lease import ALIVE, RENEW, SETTLING, UNCLOSED, Claim
from sioul_tray.lease.keeper import Keeper
from sioul_tray.lease.machine import Machine, Memory, save_due
from sioul_tray.lease.rules import tag

PART = "invoices"
T0 = 1_750_000_000
IDS = ("aa", "bb", "cc", "dd")
# The protocol's own quanta and their differences: every threshold of the rules is crossed by
# one step or a sum of them (1 s crosses the `<=` ones).
QUANTA = (1, RENEW, SETTLING, ALIVE - SETTLING, ALIVE, UNCLOSED - ALIVE, UNCLOSED)
JUMPS = (-(UNCLOSED + ALIVE), -(ALIVE + SETTLING), ALIVE + SETTLING, UNCLOSED + ALIVE)

Event = tuple[Any, ...]


@dataclass(frozen=True)
class Alphabet:
    """The events explored, and the folder they start from.

    The full alphabet is the default; a narrower one (fewer kinds, quanta or jumps) reaches
    deeper in the same time, which is how the tests show that each fix is needed.
    """

    ops: tuple[str, ...] = ("renew", "take", "close")
    crash: bool = True  # crash, and restart with or without the state file
    restart_without_state: bool = True
    forget: bool = True
    quanta: tuple[int, ...] = QUANTA
    jumps: tuple[int, ...] = JUMPS
    seals: bool = False  # reseal and seal events
    # The protocol's assumption (docs/protocol.md): a claim file a replica lacks entirely
    # (never arrived, or vanished) reaches it within this long; SETTLING is the time allowed
    # for claims to come through, and a caller acts on news at most RENEW old. None: never.
    arrives: int | None = SETTLING - RENEW
    # The folder at the start: wall clock offsets, and who took invoices there.
    offsets: tuple[int, ...] = ()
    taken_by: int | None = None

    def describe(self) -> str:
        kinds = list(self.ops)
        if self.crash:
            kinds.append(
                "crash, restart"
                + (" with or without state" if self.restart_without_state else " with state")
            )
        if self.forget:
            kinds.append("forget")
        kinds.append("deliver any version (at each read)")
        kinds.append(f"wait {'/'.join(str(q) for q in self.quanta)} s")
        if self.jumps:
            kinds.append(f"clock set by {'/'.join(f'{j:+d}' for j in self.jumps)} s")
        if self.seals:
            kinds.append("reseal, seal")
        start = []
        if any(self.offsets):
            start.append("clocks " + "/".join(f"{o:+d}" for o in self.offsets))
        if self.taken_by is not None:
            start.append(f"{IDS[self.taken_by]} took invoices")
        return "; ".join(kinds) + (f" (from: {', '.join(start)})" if start else "")


FULL = Alphabet()

# Narrower alphabets: the events each finding needs, so that the search reaches its depth in
# seconds. Each starts from a folder in use.
NARROW = {
    # Sleep and wake: a claim closes and reopens.
    "reopen": Alphabet(
        ops=("renew", "close"), crash=False, forget=False, quanta=(SETTLING,), jumps=()
    ),
    # A tray that quits and starts again, beside a clock ten minutes ahead; aa took invoices.
    "restart": Alphabet(
        ops=("renew", "quit"),
        restart_without_state=False,
        forget=False,
        quanta=(SETTLING,),
        jumps=(),
        offsets=(0, 600),
        taken_by=0,
    ),
    # A computer sets the folder up again; seals travel.
    "seals": Alphabet(
        ops=("renew",), crash=False, forget=False, quanta=(SETTLING,), jumps=(), seals=True
    ),
    # A computer crashes for good; days pass; the person declares it gone.
    "forget": Alphabet(ops=("renew",), restart_without_state=False, quanta=(1, UNCLOSED), jumps=()),
}


@dataclass
class Version:
    """One write of a claim file: the claim, and the key it was sealed with."""

    claim: Claim
    key: int


@dataclass
class Node:
    """One computer: its tray (None while crashed), what its state file holds, its clocks."""

    id: str
    machine: Machine | None
    saved: Memory | None = None  # the state file as last written; None: there is none
    offset: int = 0  # its wall clock minus true time
    verdict: bool = False  # its last call said `acting`
    called: int = 0  # ...at this true time
    tenures: int = 0  # tenures drawn so far (the model's random source: never repeats)
    key: int = 1  # the seal key it holds
    began: int = 0  # true time its tray (re)started, or its replica was set up again

    def copy(self) -> Node:
        return Node(
            self.id, self.machine, self.saved, self.offset, self.verdict, self.called,
            self.tenures, self.key, self.began,
        )  # fmt: skip


@dataclass
class World:
    now: int
    nodes: list[Node]
    versions: list[list[Version]]  # per computer, in the order written
    seals: list[int]  # the seal in each computer's replica
    without: frozenset[str] = frozenset()
    keys: int = 1  # keys made so far
    trace: list[str] = field(default_factory=list)
    owned: set[int] = field(default_factory=set)  # machines this world copied already
    # Each computer's part of the canonical form, per renaming, until it changes (`touch`).
    forms: list[dict[tuple[str, ...], int]] = field(default_factory=list)
    tracing: bool = False  # describe each event in `trace` (for a counterexample)

    def clone(self) -> World:
        """A copy to change: machines are copied when first changed (`own`)."""
        new = copy.copy(self)
        new.nodes = [n.copy() for n in self.nodes]
        new.versions = list(self.versions)
        new.seals = list(self.seals)
        new.trace = []
        new.owned = set()
        new.forms = list(self.forms)
        return new

    def touch(self, i: int) -> None:
        """Computer i changed: its part of the canonical form is made again."""
        if self.forms:
            self.forms[i] = {}

    def own(self, i: int) -> Machine:
        """Computer i's machine, copied before this world changes it."""
        node = self.nodes[i]
        assert node.machine is not None
        self.touch(i)
        if i not in self.owned:
            node.machine = clone_machine(node.machine)
            self.owned.add(i)
        return node.machine

    # -- the invariant --------------------------------------------------------------------

    def actors(self) -> list[str]:
        """The computers acting on invoices now."""
        return [
            n.id
            for n in self.nodes
            if n.machine is not None and n.verdict and self.now - n.called <= RENEW
        ]

    # -- reading and writing, as the shell does ---------------------------------------------

    def wall(self, i: int) -> int:
        return self.now + self.nodes[i].offset

    def choices(self, i: int, arrives: int | None = None) -> Iterator[tuple[int, ...]]:
        """What computer i's replica may hold for each claim file at a read (-1: nothing).

        Choices that the machine cannot tell apart are given once: for a computer it has read in
        this run, any version up to the one it knows is refused as stale, like no file at all;
        for one it knows but has not read in this run, every such version is read alike.
        """
        node = self.nodes[i]
        m = node.machine
        assert m is not None
        per: list[list[int]] = []
        for k, versions in enumerate(self.versions):
            if not versions:
                per.append([-1])
                continue
            known = m.best.get(self.nodes[k].id)
            if k == i and known is not None:
                per.append([-1])  # it wrote every version of its own claim it knows of
                continue
            options = [-1]
            if known is None:
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
            per.append(options)
        return itertools.product(*per)

    def read(self, i: int, choice: tuple[int, ...]) -> None:
        node = self.nodes[i]
        m = node.machine
        assert m is not None
        copies: list[Claim] = []
        foreign: list[str] = []
        for k, v in enumerate(choice):
            if v < 0:
                if self.nodes[k].id in m.foreign:
                    foreign.append(self.nodes[k].id)  # nothing new: the same file is still there
                continue
            version = self.versions[k][v]
            if version.key != node.key:
                foreign.append(version.claim.computer)
            else:
                copies.append(version.claim)
        m.blocked = None if self.seals[i] == node.key else "sealed again"
        m.hear(self.wall(i), self.now, copies, foreign)

    def write(self, i: int, claim: Claim | None) -> None:
        node = self.nodes[i]
        self.touch(i)
        self.save(i)  # before the claim goes out, as the shell does
        if claim is not None:
            self.versions[i] = [*self.versions[i], Version(claim, node.key)]

    def save(self, i: int) -> None:
        node = self.nodes[i]
        m = node.machine
        assert m is not None
        if save_due(m.dirty, m.urgent, m.saved_at, self.now):
            node.saved = m.memory()
            m.saved(self.now)

    def verdict(self, i: int, keeper: Keeper) -> None:
        node = self.nodes[i]
        self.touch(i)
        node.verdict = keeper.acting
        node.called = self.now

    def draw(self, i: int) -> Callable[[], int]:
        node = self.nodes[i]

        def tenure() -> int:
            node.tenures += 1
            return node.tenures

        return tenure

    def start(self, i: int, remembered: Memory | None, remembers: bool) -> None:
        node = self.nodes[i]
        node.machine = Machine(
            PART,
            node.id,
            node.id,
            created=i == 0,
            remembered=remembered,
            remembers=remembers,
            tenure=self.draw(i),
            without=self.without,
        )
        self.owned.add(i)
        self.touch(i)
        node.verdict = False
        node.began = self.now


def clone_machine(m: Machine) -> Machine:
    new = Machine.__new__(Machine)
    d = new.__dict__
    for name, value in m.__dict__.items():
        d[name] = value.copy() if type(value) in (dict, set, collections.deque) else value
    return new


def initial(n: int, without: frozenset[str] = frozenset(), alphabet: Alphabet = FULL) -> World:
    """n computers that have each renewed, read everyone's claim and answered it: a folder in
    use, where every computer's claim has reached every other at least once (the protocol's
    assumption). aa made the folder; it keeps invoices (or `taken_by` does), not settled yet."""
    w = World(T0, [Node(IDS[i], None) for i in range(n)], [[] for _ in range(n)], [1] * n)
    w.without = frozenset(without)
    for i, offset in enumerate(alphabet.offsets):
        w.nodes[i].offset = offset
    for i in range(n):
        w.start(i, None, True)
    for i in range(n):
        apply(w, ("take" if i == alphabet.taken_by else "renew", i, latest(w)))
    for i in range(n):
        apply(w, ("renew", i, latest(w)))
    w.trace = []
    return w


def latest(w: World) -> tuple[int, ...]:
    """Every claim file's latest version (the sync has delivered everything)."""
    return tuple(len(v) - 1 if v else -1 for v in w.versions)


def events(w: World, alphabet: Alphabet = FULL) -> Iterator[Event]:
    """Every event that may happen next."""
    n = len(w.nodes)
    for i, node in enumerate(w.nodes):
        if node.machine is not None:
            for choice in w.choices(i, alphabet.arrives):
                for op in alphabet.ops:
                    yield (op, i, choice)
                if alphabet.forget:
                    for k, other in enumerate(w.nodes):
                        if other.machine is None and k != i and other.id in node.machine.best:
                            yield ("forget", i, k, choice)
            if alphabet.crash:
                yield ("crash", i)
            for d in alphabet.jumps:
                yield ("jump", i, d)
            if alphabet.seals:
                yield ("reseal", i)
        else:
            for remembers in (True, False) if alphabet.restart_without_state else (True,):
                restarted = w.clone()
                restarted.start(i, node.saved if remembers else None, remembers)
                for choice in restarted.choices(i, alphabet.arrives):
                    yield ("restart", i, remembers, choice)
        if alphabet.seals:
            for j in range(n):
                if j != i and w.seals[j] != w.seals[i]:
                    yield ("seal", i, j)
    for q in alphabet.quanta:
        yield ("wait", q)


def apply(w: World, event: Event) -> None:
    """Carry out one event on `w` (changed in place), as the tray and its computer would."""
    kind = event[0]
    if kind in ("renew", "take", "close", "quit", "look"):
        _, i, choice = event
        m = w.own(i)
        m.new_tenure = w.draw(i)
        w.read(i, choice)
        wall = w.wall(i)
        if kind in ("close", "quit"):
            w.write(i, m.close(wall, w.now))
            w.nodes[i].verdict = False
            w.nodes[i].called = w.now
            if kind == "quit":  # the tray quits: it comes back only by a restart
                w.nodes[i].machine = None
        else:
            if kind != "look":
                w.write(i, m.renew(wall, w.now, take=kind == "take"))
            else:
                w.save(i)
            w.verdict(i, m.judge(wall, w.now))
    elif kind == "forget":
        _, i, k, choice = event
        m = w.own(i)
        w.read(i, choice)
        w.write(i, m.forget(w.nodes[k].id, w.wall(i), w.now))
        w.verdict(i, m.judge(w.wall(i), w.now))
    elif kind == "crash":
        node = w.nodes[event[1]]
        node.machine = None
        node.verdict = False
        w.touch(event[1])
    elif kind == "restart":
        _, i, remembers, choice = event
        node = w.nodes[i]
        w.start(i, node.saved if remembers else None, remembers)
        if not remembers:
            node.saved = None  # lost
        tracing, w.tracing = w.tracing, False
        apply(w, ("renew", i, choice))  # the tray renews as it starts
        w.tracing = tracing
    elif kind == "wait":
        w.now += event[1]
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
        w.start(i, None, True)
        assert node.machine is not None
        node.machine.created = True
        node.saved = None
        node.began = w.now
    elif kind == "seal":
        _, i, j = event
        w.seals[j] = w.seals[i]
        w.touch(j)
    else:
        raise ValueError(f"unknown event {event!r}")
    if w.tracing:
        w.trace.append(describe(w, event))


def describe(w: World, event: Event) -> str:
    kind = event[0]
    at = f"t+{w.now - T0}"
    if kind in ("renew", "take", "close", "quit", "look", "restart", "forget"):
        i = event[1]
        choice = event[-1]
        seen = ", ".join(
            f"{w.nodes[k].id}:{'-' if v < 0 else w.versions[k][v].claim.seq}"
            for k, v in enumerate(choice)
            if v >= 0 or k != i
        )
        node = w.nodes[i]
        what = kind
        if kind == "restart":
            what = "restart " + ("with its state" if event[2] else "without its state")
        if kind == "forget":
            what = f"forget {w.nodes[event[2]].id}"
        mine = w.versions[i][-1].claim if w.versions[i] else None
        wrote = ""
        if kind not in ("look",) and mine is not None:
            wrote = (
                f" wrote seq {mine.seq}{' closed' if mine.closed else ''}"
                f" tenure {mine.tenure} sees {mine.sees}@{mine.sees_tenure}#{mine.sees_seq}"
            )
        acting = " ACTS" if node.verdict and node.machine is not None else ""
        return f"{at} {node.id} {what} (read {seen}){wrote}{acting}"
    if kind == "wait":
        return f"{at} (waited {event[1]} s)"
    if kind == "jump":
        return f"{at} {w.nodes[event[1]].id}'s clock set by {event[2]:+d} s"
    if kind == "crash":
        return f"{at} {w.nodes[event[1]].id} crashes"
    if kind == "reseal":
        return f"{at} {w.nodes[event[1]].id} sets the folder up again (a new seal)"
    if kind == "seal":
        return f"{at} {w.nodes[event[1]].id}'s seal reaches {w.nodes[event[2]].id}"
    return f"{at} {event}"


# -- canonical form -----------------------------------------------------------------------

_CLAIM_FIELDS = (
    "computer", "seq", "since", "renewed", "active", "taken", "closed",
    "wrote", "sees", "tenure", "sees_tenure", "sees_seq", "answers", "rules",
)  # fmt: skip
# Claims are immutable: each is frozen once per renaming (kept alive here, so ids stay unique).
_claims: dict[tuple[int, tuple[str, ...]], tuple[Claim, int]] = {}
_interned: dict[Any, int] = {}
_numbers = itertools.count()


_CACHED = 1_000_000  # claims kept for the cache; past it, the cache starts again


def _claim(c: Claim, names: dict[str, str], order: tuple[str, ...]) -> int:
    key = (id(c), order)
    got = _claims.get(key)
    if got is not None:
        return got[1]
    if len(_claims) > _CACHED:
        # Memory stays bounded on long runs. Numbers change: a state met again may be explored
        # again (never one left out).
        _claims.clear()
        _interned.clear()
    form = (
        *(names.get(v, v) if type(v) is str else v for v in (getattr(c, f) for f in _CLAIM_FIELDS)),
        tuple(sorted((names.get(k, k), v) for k, v in c.forgets.items())),
        _tags(c.closes, names),
        tuple(sorted(_TAG_NAMES[tuple(names.items())].get(t, t) for t in c.knows)),
    )
    n = _interned.get(form)
    if n is None:
        n = _interned[form] = next(_numbers)  # never reused, even after the cache starts again
    _claims[key] = (c, n)
    return n


class _TagNames(dict[Any, dict[int, int]]):
    """For a renaming of the computers, the same renaming of their tags (`rules.tag`)."""

    def __missing__(self, names: Any) -> dict[int, int]:
        got = self[names] = {tag(old): tag(new) for old, new in names}
        return got


_TAG_NAMES = _TagNames()


def _tags(d: Any, names: Any) -> tuple[Any, ...]:
    renamed = _TAG_NAMES[tuple(names.items())]
    return tuple(sorted((renamed.get(k, k), v) for k, v in d.items()))


def _table(d: dict[str, Any], names: dict[str, str]) -> tuple[Any, ...]:
    return tuple(sorted((names.get(k, k), v) for k, v in d.items()))


# A machine's attributes left out of its canonical form: fixed for its life (its part, id and
# name, which its place in the world gives; the tenure source; the fixes switched off), shown
# only (the clocks seen ahead), or a cache cleared by the next read (the view a write made, for
# the verdict that follows it). tests/model/test_model.py checks every other one is in it.
UNJUDGED = frozenset(
    {"part", "rule", "me", "name", "new_tenure", "without", "ahead", "jumped_at", "_after_write"}
)


def _machine(m: Machine | None, names: dict[str, str], order: tuple[str, ...]) -> Any:
    if m is None:
        return None
    return (
        tuple(sorted((names.get(k, k), _claim(v, names, order)) for k, v in m.best.items())),
        _table(m.heard, names),
        tuple(sorted(names.get(c, c) for c in m.read)),
        _table(m.forgets, names),
        _table(m.declared_at, names),
        tuple(sorted(names.get(c, c) for c in m.vouched)),
        _tags(m.named, names),
        None if m.kept is None else (names.get(m.kept[0] or "", m.kept[0]), m.kept[1]),
        m.flowing_since,
        m.opened,
        m.opened_tick,
        m.tenure,
        tuple(sorted(m.written.items())),
        m.started,
        m.first_seq,
        tuple(m.own),
        m.last_tick,
        m.last_wall,
        m.remembers,
        m.distrust_until,
        tuple(sorted(names.get(c, c) for c in m.foreign)),
        m.blocked,
        m.cloned,
        m.created,
        m.dirty,
        m.urgent,
        m.saved_at,
    )


def _memory(saved: Memory | None, names: dict[str, str], order: tuple[str, ...]) -> Any:
    if saved is None:
        return None
    return (
        tuple(sorted((names.get(k, k), _claim(v, names, order)) for k, v in saved.claims.items())),
        _table(saved.forgets, names),
        _tags(saved.named, names),
    )


def canonical(w: World, symmetric: bool = True) -> int:
    """A hash of the world's whole state; with `symmetric`, the least over renamings of the
    computers other than the folder's creator (aa), which the rules treat alike, so a world and
    its mirror image count once. (A 64-bit hash: a collision, which would hide one state, is
    about one in 10^5 at ten million states.)"""
    n = len(w.nodes)
    orders: list[tuple[int, ...]] = [tuple(range(n))]
    if symmetric and n > 2:
        orders = [(0, *p) for p in itertools.permutations(range(1, n))]
    best: int | None = None
    for order in orders:
        names = {w.nodes[order[j]].id: IDS[j] for j in range(n)}
        key = tuple(w.nodes[j].id for j in order)
        if not w.forms:
            w.forms = [{} for _ in range(n)]
        parts = []
        for i in order:
            got = w.forms[i].get(key)
            if got is None:
                node = w.nodes[i]
                got = w.forms[i][key] = (
                    _machine(node.machine, names, key),
                    _memory(node.saved, names, key),
                    node.offset,
                    node.called,
                    node.verdict,
                    node.tenures,
                    node.key,
                    node.began,
                    w.seals[i],
                    tuple((_claim(v.claim, names, key), v.key) for v in w.versions[i]),
                ).__hash__()
            parts.append(got)
        form = (w.now, tuple(parts))
        h = hash(form)
        if best is None or h < best:
            best = h
    assert best is not None
    return best
