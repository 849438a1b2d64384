"""Exhaustive exploration of the model (tests/model/world.py), depth by depth, to a fixpoint.

Every sequence of events up to a depth is explored, and each state once per depth (by its
canonical form, which holds every time relative to now and merges mirror images of the
computers other than the creator). Iterative deepening: a depth-first search to depth 1, then 2,
and so on, keeps only canonical forms in memory, reports every depth it completed, and finds a
shortest counterexample first. A depth that brings no new state is a **fixpoint**: every state the
alphabet can reach, by sequences of any length, has been seen, and checked.

Safety (`World.unsafe`): no state has two computers acting on invoices, nor one acting whose
machine has not read another's last claim that may carry a mark of Sioul's records. Liveness
(`liveness=True`): from every state reached, once the person declares the crashed computers
gone, every running tray renews and the sync delivers every claim's latest version, some computer
acts within SETTLING + 2 * RENEW.
The evening (`evening=True`): from every state where every tray is down after closing, and each
close was written after its writer read the earlier ones, the keeper started alone the next
morning acts within SETTLING + 2 * RENEW, without anyone declaring anything.

Why each reduction keeps the verdict: the canonical form leaves out only what no rule reads (the
time as such, the numbers of tenures beyond their equality), which tests/model/test_model.py
checks by stepping states beside their copies moved in time; symmetry renames computers the rules
treat alike; deliveries are chosen at the read that observes them (world.py); waits and clock
jumps are taken with the call that observes them, as one move that costs every event it stands
for, every state on the way judged but not stored (`moves`; tests/model/test_model.py checks
that the states judged are exactly those the events one at a time reach); the lean form leaves
out the parts of a world no event of the alphabet reads, and clamps the ages the rules compare
with one constant alone (world.py, `Lean`; the tests step states beside their copies with those
parts drawn anew); times older than
any rule can still tell apart are written by their order alone (world.py, "Ancient times"); a
state is merged with another only when their canonical forms are equal (each computer's part
numbered by its exact bytes, so equal numbers mean equal parts), never by a digest that two
states might share.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sioul_tray.lease import RENEW, SETTLING, machine
from sioul_tray.lease.keeper import unheard_id
from sioul_tray.lease.rules import ANY_CLOSE, tag

from .world import (
    FULL,
    NIGHT,
    PASSING,
    SHIPPED,
    T0,
    Alphabet,
    Event,
    Switches,
    World,
    absorbs,
    apply,
    canonical,
    events,
    initial,
    latest,
    lean,
    passed,
    passing,
)

# What a run that finds nothing says: the two halves of the promise on invoices.
VERDICT = 'no invariant of docs/protocol.md, "Why it is safe", broken'


@dataclass
class Report:
    computers: int
    alphabet: Alphabet
    switches: Switches
    depth: int = 0  # the depth explored completely
    states: int = 0  # distinct states within that depth
    transitions: int = 0  # events carried out, all depths
    seconds: float = 0.0
    per_depth: list[int] = field(default_factory=list)  # distinct states within each depth
    exhausted: bool = False  # a depth brought no new state: every reachable state was seen
    violation: list[str] | None = None  # the events that lead to an unsafe state (`unsafe`)
    stuck: list[str] | None = None  # the events that lead to a state the sync cannot heal
    between: int = 0  # states judged between waits or jumps and their call, not stored
    healed: int = 0  # states whose healing was checked
    mornings: int = 0  # evenings whose morning was checked
    seq_behind: int = 0  # states left out of the liveness check (see `heal`)

    def summary(self) -> str:
        verdict = VERDICT
        if self.violation is not None:
            verdict = _broken(self.violation)
        elif self.stuck is not None:
            verdict = f"STUCK after {len(self.stuck) - 2} events: no keeper acts"
        off = self.switches.off()
        off_text = f", with {'/'.join(off)} switched off" if off else ""
        live = f"; liveness from {self.healed:,} states" if self.healed else ""
        if self.mornings:
            live += f"; {self.mornings:,} evenings end with the keeper acting"
        if self.between:
            live += f"; {self.between:,} states between waits or jumps and their call judged"
        depth = "fixpoint" if self.exhausted else f"depth {self.depth}"
        rate = self.transitions / self.seconds if self.seconds else 0.0
        return (
            f"{self.computers} computers{off_text}: {depth}, {self.states:,} states, "
            f"{self.transitions:,} transitions, {self.seconds:.0f} s ({rate:,.0f}/s); "
            f"{verdict}{live}"
        )


def explore(
    computers: int,
    depth: int,
    *,
    alphabet: Alphabet = FULL,
    switches: Switches = SHIPPED,
    liveness: bool = False,
    evening: bool = False,
    symmetric: bool = True,
    seconds: float | None = None,
    progress: Callable[[Report], None] | None = None,
) -> Report:
    """Explore every sequence of up to `depth` events (or until `seconds` run out: the report
    says the depth completed), stopping early at a fixpoint. Stops at the first violation or
    stuck state, with its trace. `progress` is told each depth completed."""
    began = time.monotonic()
    report = Report(computers, alphabet, switches)
    root = initial(computers, switches, alphabet)
    checked: set[bytes] = set()
    reads = lean(alphabet, liveness=liveness, evening=evening)  # what its events read of a world

    def trace(path: list[list[Event]]) -> list[str]:
        return _replay(computers, switches, alphabet, [e for run in path for e in run])

    def judged(child: World, key: bytes | None) -> bool:
        """Whether `child`, at the end of `path`, breaks safety, or (once per state) liveness
        or the evening: the report says so, with the trace."""
        if child.unsafe():
            report.violation = trace(path)
            return True
        if not (liveness or evening):
            return False
        if key is None:
            key = canonical(child, symmetric, reads)
        if key in checked:
            return False
        checked.add(key)
        verdict = heal(child) if liveness else True
        if verdict is None:
            report.seq_behind += 1
        elif liveness:
            report.healed += 1
        if verdict is not False and evening:
            morning = next_morning(child)
            if morning is not None:
                report.mornings += 1
                verdict = morning
        if verdict is False:
            report.stuck = trace(path)
            return True
        return False

    for limit in range(1, depth + 1):
        seen: dict[bytes, int] = {canonical(root, symmetric, reads): limit}
        path: list[list[Event]] = []
        stack = [(limit, moves(root, alphabet, limit))]
        finished = True
        while stack and finished:
            left, pending = stack[-1]
            move = next(pending, None)
            if move is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            run, child, stored = move
            report.transitions += 1
            if not stored:
                # A state between waits or jumps and the call that observes them: judged as
                # every state is, never stored (`moves`).
                report.between += 1
                path.append(run)
                finished = not judged(child, None)
                path.pop()
                continue
            key = canonical(child, symmetric, reads)
            after = left - len(run)  # a move costs every event it stands for
            if seen.get(key, -1) >= after:
                continue
            seen[key] = after
            path.append(run)
            if judged(child, key):
                finished = False
                break
            if after > 0:
                stack.append((after, moves(child, alphabet, after)))
            else:
                path.pop()
            if (
                seconds is not None
                and report.transitions % 256 == 0
                and time.monotonic() - began > seconds
            ):
                report.seconds = time.monotonic() - began
                return report  # out of time: `depth` is the last depth completed
        report.seconds = time.monotonic() - began
        report.depth = limit
        report.states = len(seen)
        if not finished:
            return report
        report.per_depth.append(len(seen))
        if len(report.per_depth) > 1 and report.per_depth[-1] == report.per_depth[-2]:
            report.exhausted = True
        if progress is not None:
            progress(report)
        if report.exhausted:
            break
    return report


@dataclass
class Run:
    """A run of waits and jumps, the fewest events that make its change (`passed`), and the
    world after it."""

    events: list[Event]
    world: World
    waits: bool = False  # it passes true time
    jumped: frozenset[int] = frozenset()  # the computers whose clock it sets


def runs(w: World, alphabet: Alphabet, budget: int) -> list[Run]:
    """Every change up to `budget` waits and jumps make to `w`, each once, by the fewest events
    (breadth first, every order: a jump is offered or not by the offset before it), the empty
    run first."""
    found = {passed(w)}
    level = [Run([], w)]
    every = list(level)
    for _ in range(budget):
        deeper = []
        for run in level:
            for event in passing(run.world, alphabet):
                after = run.world.clone()
                apply(after, event)
                change = passed(after)
                if change in found:
                    continue
                found.add(change)
                jumped = run.jumped | {event[1]} if event[0] == "jump" else run.jumped
                deeper.append(Run([*run.events, event], after, run.waits or event[0] == "wait",
                                  jumped))  # fmt: skip
        every += deeper
        level = deeper
    return every


def moves(w: World, alphabet: Alphabet, left: int) -> Iterator[tuple[list[Event], World, bool]]:
    """The search's moves from `w` with `left` events of depth to go: (the events, the world
    after them, whether it is stored). Each run of waits and jumps (`runs`) with the event that
    observes it (`absorbs`) is one move that costs every event it stands for; every state a run
    reaches on the way, or at the end of the depth, is yielded to be judged, not stored.

    Why this is exact (world.py, "Time passing"): every sequence of at most `left` events from
    `w` ends in the state that the same events reordered end in, each wait moved to just before
    the next event that reads the time and each jump of a computer to just before its next call
    or crash; that sequence is a chain of these moves, then a run of waits and jumps, which
    `runs` holds with no more events. So the states judged are exactly the states the events
    reach within the depth, and a counterexample is found at the depth it was (its trace spells
    out every wait and jump). Only the states between a run and its call are not stored, and no
    rule of the search needs them stored: they are judged, every one, by `World.unsafe` (and
    liveness), which stays exact whatever it reads, time passing included (an acting interval
    expiring, say)."""
    for run in runs(w, alphabet, left):
        if run.events:
            yield run.events, run.world, False
        if len(run.events) >= left or len(run.jumped) > 1:
            continue  # the end of the depth; the clocks of two computers, no one call's
        for event in events(run.world, alphabet):
            if event[0] in PASSING or not absorbs(event, run.waits, run.jumped):
                continue
            child = run.world.clone()
            apply(child, event)
            yield [*run.events, event], child, True


def heal(w: World) -> bool | None:
    """From `w`: the person declares every crashed computer gone at every running one (one whose
    claim file was removed for good, where the menu names it among the computers waited for, by
    its tag where that is all a computer knows of it), every running tray renews twice a minute
    and the sync delivers every claim's latest version. Some computer must act within
    SETTLING + 2 * RENEW.

    None (not checked): a computer whose seq went back or repeated, which only a lost state file
    together with a stale copy of its own claim and a clock no later than its last write makes;
    its claims read as stale until its clock passes its old ones (docs/protocol.md, "What it
    assumes"); a computer blocked by another seal or a copied id; and a crashed computer a
    close of a running one admitted, which no declaration can end (`Fixes.admitted_closes`).
    """
    for versions in w.versions:
        seqs = [v.claim.seq for v in versions]
        if len(seqs) > 1 and seqs[-1] <= max(seqs[:-1]):
            return None
    if any(n.knowledge is not None and n.knowledge.blocked for n in w.nodes):
        return None
    h = w.clone()
    up = [i for i, n in enumerate(h.nodes) if n.knowledge is not None]
    if not up:
        return True
    down = [k for k, n in enumerate(h.nodes) if n.knowledge is None and n.joined]
    start = h.now
    for i in up:
        apply(h, ("renew", i, latest(h)))
        if h.actors():
            return True
    counts = h.now
    for i in up:
        m = h.nodes[i].knowledge
        assert m is not None
        waits = _waits_for(h, i) if any(h.nodes[k].removed for k in down) else ()
        for k in down:
            name = h.nodes[k].id
            event: Event = ("forget", i, k, latest(h))
            if h.nodes[k].removed:
                # Its claim file removed for good: declared only where the menu names it among
                # the computers waited for, by its tag where that is all this one knows of it
                # (offered with `Fixes.tags_declared` alone).
                by_tag = unheard_id(tag(name))
                if not (name in m.best and name in waits):
                    if by_tag not in waits or tag(name) not in m.unheard_tags():
                        continue
                    name, event = by_tag, (*event, "by tag")
            elif name not in m.best:
                continue
            apply(h, event)
            # A declaration counts once the computer declared can no longer be numbering.
            after = h.nodes[i].knowledge
            assert after is not None
            if after.may_count_my_close(name):
                # It may be numbering on a close of this one that admitted it: no
                # declaration can count until it is heard, by design (docs/protocol.md,
                # "Gone for good", what it costs). Left out, as a seq gone back is.
                return None
            when = after.declared_from(name) + h.nodes[i].lag
            if math.isfinite(when):  # -inf: it counts already
                counts = max(counts, math.ceil(when))
    if counts > h.now:
        h.now = counts
    start = h.now
    while h.now - start <= SETTLING + 2 * RENEW:
        for _ in range(2):
            for i in up:
                apply(h, ("renew", i, latest(h)))
                if h.actors():
                    return True
        h.now += RENEW // 2
    return False


def _waits_for(w: World, i: int) -> tuple[str, ...]:
    """The computers running computer i's menu says it waits for now (a look, nothing kept)."""
    m = w.nodes[i].knowledge
    assert m is not None
    _, ready = machine.step(m, machine.Look(), w.wall(i), w.tick(i))
    return () if ready.verdict is None else ready.verdict.waiting


def next_morning(w: World) -> bool | None:
    """From an evening in `w` (every tray down, each computer's latest claim closed, of any two
    closes of the evening by different computers one written after its writer read the other,
    the sync caught up): the next morning the keeper starts alone, with its state file, and
    must act within
    SETTLING + 2 * RENEW, nobody declaring anything. None: `w` is no such evening."""
    if any(n.knowledge is not None or not n.joined or n.old or n.saved is None for n in w.nodes):
        return None  # a tray still up, or one whose state file is lost: it may wait a day
    last = [vs[-1] if vs else None for vs in w.versions]
    if any(v is None or not v.claim.closed for v in last):
        return None
    if len(set(w.seals)) > 1 or any(n.key != w.seals[0] for n in w.nodes):
        return None
    # Each computer's closes of the evening (its closed versions since its last open one): of
    # any two by different computers, one was written after its writer read the other.
    tails = []
    for versions in w.versions:
        tail = list(itertools.takewhile(lambda v: v.claim.closed, reversed(versions)))
        tails.append(tail)
    for k, j in itertools.combinations(range(len(tails)), 2):
        for v in tails[k]:
            for u in tails[j]:
                if v.knew[j] < u.claim.seq and u.knew[k] < v.claim.seq:
                    return None  # neither read the other: a sync down, not one evening
    ids = [n.id for n in w.nodes]
    for c in (v.claim for v in last if v is not None):
        if c.admits.get(ANY_CLOSE) == c.seq and any(
            other != c.computer and tag(other) not in c.reads for other in ids
        ):
            # A close that did not admit a computer it had not heard change for ALIVE (waits of
            # the model pass without renewals): that one waits for its writer, as it must
            # (`Fixes.admitted_closes`; docs/reliability.md, "Closes never lapse").
            return None
    for i in range(len(w.nodes)):
        h = w.clone()
        h.now += NIGHT
        apply(h, ("restart", i, "state", latest(h)))
        start = h.now
        while h.now - start <= SETTLING + 2 * RENEW:
            h.now += RENEW // 2
            apply(h, ("renew", i, latest(h)))
            if h.actors():
                return True
    return False


@dataclass
class Walks:
    """What the random walks did, and the first counterexample they met, shortened."""

    computers: int
    switches: Switches
    walks: int = 0
    steps: int = 0
    seconds: float = 0.0
    longest: int = 0  # events in the longest walk
    violation: list[str] | None = None  # the shortened trace to an unsafe state
    found_after: int = 0  # events of the walk that met it, before shortening
    path: list[Event] | None = None  # the events of the shortened trace
    # Walks ended at a class issue 39 leaves open (`OPEN`), by class, and the first such trace.
    met_open: dict[str, int] = field(default_factory=dict)
    open_trace: list[str] | None = None

    def summary(self) -> str:
        off = self.switches.off()
        off_text = f", with {'/'.join(off)} switched off" if off else ""
        rate = self.steps / self.seconds if self.seconds else 0.0
        verdict = VERDICT
        if self.violation is not None:
            verdict = f"{_broken(self.violation)} (a walk of {self.found_after}, shortened)"
        met = ", ".join(f"class {c} {n:,} times" for c, n in sorted(self.met_open.items()))
        return (
            f"{self.computers} computers{off_text}: {self.walks:,} random walks, {self.steps:,} "
            f"events (up to {self.longest} a walk), {self.seconds:.0f} s ({rate:,.0f}/s); "
            f"{verdict}" + (f"; walks ended at an open class of issue 39: {met}" if met else "")
        )


def open_class(why: str, w: World | None = None) -> str | None:
    """The class issue 39 leaves open that a broken invariant shows, or None.

    "lost": two computers count each other's close, one of them started without its state.
    `Fixes.own_past_read` closes it where the others' claims show a version of its own this
    run did not write (tests/lease/test_restored.py); the walks still meet it where restarts
    within one second of its clock write the seqs of an earlier run again, so that nothing
    read tells them apart (docs/reliability.md, the same section). Where a computer wrote a
    seq not above one it wrote before (a restart within a second of its last write, its clock
    not past it: "What it assumes"), the same holds for a close of its earlier run counted
    beside a declaration it made later, not knowing that close admitted the other
    (`Fixes.admitted_closes`)."""
    if w is None or not why.startswith("S4 "):
        return None
    lost = any(n.knowledge is not None and not n.knowledge.remembers for n in w.nodes)
    if (lost and why.count("(closed)") == 2) or _seqs_again(w):
        return "lost"
    return None


def _seqs_again(w: World) -> bool:
    """Some computer wrote a seq not above one it wrote before: its clock was not past its own
    last write when it restarted without its state, or with an older one (docs/protocol.md,
    "What it assumes"), and its claims read alike."""
    for versions in w.versions:
        seqs = [v.claim.seq for v in versions]
        if any(later <= earlier for earlier, later in itertools.pairwise(seqs)):
            return True
    return False


def walk(
    computers: int,
    *,
    alphabet: Alphabet = FULL,
    switches: Switches = SHIPPED,
    seconds: float = 60.0,
    walks: int | None = None,
    length: tuple[int, int] = (40, 80),
    seed: int = 0,
    rare: Callable[[Event], float] | None = None,
    past_open: bool = False,
) -> Walks:
    """Random walks over the same world from the initial folder, for `seconds` (or `walks` of
    them, whichever ends first), each of a random length in `length`, events drawn with weights
    favouring the rare ones (`rare`; by default everything but plain renewals and short waits
    three times as likely). Stops at the first state where two computers act, and shortens its
    walk to the fewest events that still end so."""
    rng = random.Random(seed)
    weight = rare or _rare
    report = Walks(computers, switches)
    began = time.monotonic()
    while time.monotonic() - began < seconds and (walks is None or report.walks < walks):
        report.walks += 1
        w = initial(computers, switches, alphabet)
        path: list[Event] = []
        for _ in range(rng.randint(*length)):
            options = list(events(w, alphabet))
            if not options:
                break
            event = rng.choices(options, _weights(options, weight))[0]
            apply(w, event)
            path.append(event)
            report.steps += 1
            why = w.unsafe()
            if why:
                # A class left open ends the walk, counted (with every fix on, or when asked).
                known = open_class(why, w) if switches == SHIPPED or past_open else None
                if known is not None:
                    # Not a new defect: this walk ends, counted; the search goes on.
                    report.met_open[known] = report.met_open.get(known, 0) + 1
                    if report.open_trace is None:
                        report.open_trace = _replay(computers, switches, alphabet, path)
                    break
                report.found_after = len(path)
                shortest = shorten(computers, switches, alphabet, path)
                report.path = shortest
                report.violation = _replay(computers, switches, alphabet, shortest)
                break
        report.longest = max(report.longest, len(path))
        if report.violation is not None:
            break
    report.seconds = time.monotonic() - began
    return report


# Kinds offered once per version ever written: their weight is shared among them, so that a
# long history does not crowd out every other event.
SHARED = frozenset({"stale"})


def _weights(options: list[Event], weight: Callable[[Event], float]) -> list[float]:
    counts = collections.Counter(e[0] for e in options if e[0] in SHARED)
    return [weight(e) / counts[e[0]] if e[0] in SHARED else weight(e) for e in options]


def _rare(event: Event) -> float:
    kind = event[0]
    if kind == "renew" or (kind == "wait" and event[1] <= RENEW):
        return 1.0
    return 3.0


def shorten(
    computers: int, switches: Switches, alphabet: Alphabet, path: list[Event]
) -> list[Event]:
    """`path` without every event the violation does not need, taken out three, two or one at a
    time as long as the rest can still be carried out (each event among those `events` offers
    then) and meets two computers acting."""

    def unsafe(candidate: list[Event]) -> bool:
        w = initial(computers, switches, alphabet)
        for event in candidate:
            if event not in set(events(w, alphabet)):
                return False
            apply(w, event)
            if w.unsafe():
                return True
        return False

    changed = True
    while changed:
        changed = False
        for width in (3, 2, 1):  # a crash and its restart, say, go together
            for i in reversed(range(len(path) - width + 1)):
                candidate = path[:i] + path[i + width :]
                if unsafe(candidate):
                    path, changed = candidate, True
    return path


def _replay(computers: int, switches: Switches, alphabet: Alphabet, path: list[Event]) -> list[str]:
    w = initial(computers, switches, alphabet)
    w.tracing = True
    lines = [_start(alphabet)]
    for event in path:
        apply(w, event)
        lines += w.trace
        w.trace = []
    return [*lines, *_verdict(w)]


def _start(alphabet: Alphabet) -> str:
    """A trace's first line: the folder it starts from (`initial`)."""
    then = "".join(f"; {phrase}" for phrase in alphabet.folder())
    return f"(a folder in use: every computer renewed, read and answered the others{then})"


def _verdict(w: World) -> list[str]:
    """A trace's last lines: who acts at its end, and, when one computer acts before another's
    marked records, that (two acting at once says itself)."""
    acting = [f"acting now: {', '.join(w.actors()) or 'nobody'}"]
    why = w.unsafe()
    return acting if why is None or len(w.actors()) > 1 else [*acting, f"unsafe: {why}"]


def _broken(trace: list[str]) -> str:
    """What a counterexample's trace says: after how many events, and what breaks."""
    if trace[-1].startswith("unsafe: "):
        return f"UNSAFE after {len(trace) - 3} events: {trace[-1].removeprefix('unsafe: ')}"
    return f"TWO COMPUTERS ACT AT ONCE after {len(trace) - 2} events"


Step = tuple[Any, ...]


def scripted(
    computers: int,
    steps: list[Step],
    *,
    alphabet: Alphabet = FULL,
    switches: Switches = SHIPPED,
) -> list[str]:
    """One sequence of events, written by hand, carried out as the exhaustive search would: for
    the defects whose shortest trace lies beyond the depth CI's search reaches. Each step names
    an event of `events` without its read, and says what the replica holds at that read: the
    latest version of the claims of the computers listed, nothing of the others' (a sync down),
    and of its own what the model allows. ``("wait", q)`` lets time pass; after
    ``("sync down",)`` a replica holds at most what had been delivered then. Returns the trace, as
    a counterexample's, ending with who acts."""
    w = initial(computers, switches, alphabet)
    w.tracing = True
    lines = [_start(alphabet)]
    down: tuple[int, ...] | None = None  # the versions delivered when the sync went down
    for step in steps:
        if step == ("sync down",):
            down = latest(w)
            lines.append(f"t+{w.now - T0} (the sync goes down)")
            continue
        event = step if step[0] == "wait" else _matching(w, alphabet, step, down)
        apply(w, event)
        lines += w.trace
        w.trace = []
    return [*lines, *_verdict(w)]


def _matching(w: World, alphabet: Alphabet, step: Step, down: tuple[int, ...] | None) -> Event:
    """The event of `events(w)` that `step` names, with the read closest to what it says (with
    the sync `down`, the latest version of a claim is the one delivered before)."""
    *head, holds = step
    best: tuple[int, Event] | None = None
    for event in events(w, alphabet):
        kind = event[0]
        if kind in ("restart", "forget"):
            name, choice = event[:3], event[3]
        elif kind in ("renew", "take", "close", "quit", "join"):
            name, choice = (*event[:2], *event[3:]), event[2]
        else:
            name, choice = event, None
        if name != tuple(head):
            continue
        if choice is None:
            return event
        score = 0
        m = w.nodes[event[1]].knowledge
        for k, versions in enumerate(w.versions):
            top = len(versions) - 1 if down is None or k == event[1] else down[k]
            if k in holds:
                known = None if m is None else m.best.get(w.nodes[k].id)
                had = known is not None and top >= 0 and known.seq >= versions[top].claim.seq
                # A version read already is refused as stale: the same as no file.
                score += 10 if choice[k] == top or (had and choice[k] == -1) else -100
            elif k != event[1]:
                score += choice[k] == -1
        if best is None or score > best[0]:
            best = (score, event)
    assert best is not None and best[0] >= 0, f"no event {step} here: {list(events(w, alphabet))}"
    return best[1]
