"""Exhaustive exploration of the model (tests/model/world.py), depth by depth.

Every sequence of events up to a depth is explored, and each state once per depth (by a hash of
its canonical form, which also merges mirror images of the computers other than the creator).
Iterative deepening: a depth-first search to depth 1, then 2, and so on, keeps only hashes in
memory, reports every depth it completed, and finds a shortest counterexample first.

Safety: no state has two computers acting on invoices. Liveness (`liveness=True`): from every
state reached, once the person declares the crashed computers gone, every running tray renews and
the sync delivers every claim's latest version, some computer acts within SETTLING + 2 * RENEW.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sioul_tray.lease import RENEW, SETTLING

from .world import FULL, Alphabet, Event, World, apply, canonical, events, initial, latest


@dataclass
class Report:
    computers: int
    alphabet: Alphabet
    without: frozenset[str]
    depth: int = 0  # the depth explored completely
    states: int = 0  # distinct states within that depth
    transitions: int = 0  # events carried out, all depths
    seconds: float = 0.0
    per_depth: list[int] = field(default_factory=list)  # distinct states within each depth
    exhausted: bool = False  # a depth brought no new state: every reachable state was seen
    violation: list[str] | None = None  # the events that lead to two computers acting
    stuck: list[str] | None = None  # the events that lead to a state the sync cannot heal
    healed: int = 0  # states whose healing was checked
    seq_behind: int = 0  # states left out of the liveness check (see `heal`)

    def summary(self) -> str:
        verdict = "never two computers acting on invoices"
        if self.violation is not None:
            verdict = f"TWO COMPUTERS ACT AT ONCE after {len(self.violation) - 2} events"
        elif self.stuck is not None:
            verdict = f"STUCK after {len(self.stuck) - 2} events: the healed sync brings no keeper"
        off = f", with {'/'.join(sorted(self.without))} switched off" if self.without else ""
        live = f"; liveness from {self.healed:,} states" if self.healed else ""
        every = " (every reachable state)" if self.exhausted else ""
        return (
            f"{self.computers} computers{off}: depth {self.depth}{every}, "
            f"{self.states:,} states, {self.transitions:,} transitions, {self.seconds:.0f} s; "
            f"{verdict}{live}"
        )


def explore(
    computers: int,
    depth: int,
    *,
    alphabet: Alphabet = FULL,
    without: frozenset[str] = frozenset(),
    liveness: bool = False,
    symmetric: bool = True,
    seconds: float | None = None,
) -> Report:
    """Explore every sequence of up to `depth` events (or until `seconds` run out: the report
    says the depth completed). Stops at the first violation or stuck state, with its trace."""
    began = time.monotonic()
    report = Report(computers, alphabet, frozenset(without))
    root = initial(computers, report.without, alphabet)
    healed: set[int] = set()

    def trace(path: list[Event]) -> list[str]:
        w = initial(computers, report.without, alphabet)
        w.tracing = True
        lines = ["(a folder in use: every computer renewed, read and answered the others)"]
        for event in path:
            apply(w, event)
            lines += w.trace
            w.trace = []
        lines.append(f"acting now: {', '.join(w.actors()) or 'nobody'}")
        return lines

    for limit in range(1, depth + 1):
        seen: dict[int, int] = {canonical(root, symmetric): limit}
        path: list[Event] = []
        stack = [(root, limit, events(root, alphabet))]
        finished = True
        while stack and finished:
            w, left, pending = stack[-1]
            event = next(pending, None)
            if event is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            child = w.clone()
            apply(child, event)
            report.transitions += 1
            key = canonical(child, symmetric)
            if seen.get(key, -1) >= left - 1:
                continue
            seen[key] = left - 1
            path.append(event)
            if len(child.actors()) > 1:
                report.violation = trace(path)
                finished = False
                break
            if liveness and key not in healed:
                healed.add(key)
                verdict = heal(child)
                if verdict is None:
                    report.seq_behind += 1
                else:
                    report.healed += 1
                    if not verdict:
                        report.stuck = trace(path)
                        finished = False
                        break
            if left > 1:
                stack.append((child, left - 1, events(child, alphabet)))
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
            break
    return report


def heal(w: World) -> bool | None:
    """From `w`: the person declares every crashed computer gone at every running one, every
    running tray renews twice a minute and the sync delivers every claim's latest version. Some
    computer must act within SETTLING + 2 * RENEW.

    None (not checked): a computer whose seq went back or repeated, which only a lost state file
    together with a stale copy of its own claim and a clock no later than its last write makes;
    its claims read as stale until its clock passes its old ones (docs/protocol.md, "What it
    assumes").
    """
    for versions in w.versions:
        seqs = [v.claim.seq for v in versions]
        if len(seqs) > 1 and seqs[-1] <= max(seqs[:-1]):
            return None
    if any(n.machine is not None and n.machine.blocked for n in w.nodes):
        return None
    h = w.clone()
    up = [i for i, n in enumerate(h.nodes) if n.machine is not None]
    if not up:
        return True
    down = [k for k, n in enumerate(h.nodes) if n.machine is None]
    start = h.now
    for i in up:
        apply(h, ("renew", i, latest(h)))
        if h.actors():
            return True
    for i in up:
        m = h.nodes[i].machine
        assert m is not None
        for k in down:
            if h.nodes[k].id in m.best:
                apply(h, ("forget", i, k, latest(h)))
    while h.now - start <= SETTLING + 2 * RENEW:
        for _ in range(2):
            for i in up:
                apply(h, ("renew", i, latest(h)))
                if h.actors():
                    return True
        h.now += RENEW // 2
    return False
