"""The simulated world: true time, computers with their own clocks, the tray loop, the measures.

A seeded discrete-event loop: it jumps from event to event (no ticking every second), and every
random draw comes from seeded `random.Random`s, so a seed replays the same run. Each computer runs
the shipped tray loop (`tray.driver.Driver`) over the real `Lease` on its own real replica folder,
timed as the Qt controller times it: a timer every RENEW of its own clock, stopped while a told
sleep lasts; a change landing in its folder read REREAD_DELAY later. The driver's calls reach the
core through `Instruments`, which logs them, measures who acts and hands writes to the sync client.
After every call on invoices the world's state is judged by the invariants (docs/protocol.md, "Why
it is safe"; `sioul_tray.lease.invariants`): the first violation of each is kept with its trace
(`Measures.violations`).

A computer *acts* on a part from a call whose Keeper said `acting` until its next call, while it is
awake and its tray runs. The measures integrate over true time between events.
"""

from __future__ import annotations

import heapq
import random
import shutil
import tempfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sioul_tray.lease import PARTS, RENEW, Keeper, Lease, Timing, invariants
from sioul_tray.lease.lease import Reading, Snapshot
from sioul_tray.share import SEAL_NAME, Share
from sioul_tray.tray.driver import REREAD_DELAY, Driver

from .records import Numberer
from .sync import NUDGE_SEND, Client, Cloud, Delay

EPOCH = 1_800_000_000  # true time zero of every run (Unix seconds, January 2027)
SLEEP_GRACE = 5.0  # a told sleep waits this long for the tray and the sync (InhibitDelayMaxSec)
STILL = 600.0  # a keeper change is a flap when the person has not moved nor taken for this long
TRACE = 60  # calls kept for explaining a double-acting span


class Clock:
    """A computer's clock: true time plus an offset, running fast or slow by `rate`."""

    def __init__(self, offset: float = 0.0, rate: float = 1.0) -> None:
        self.offset = offset
        self.rate = rate

    def local(self, true: float) -> float:
        return EPOCH + self.offset + true * self.rate

    def ticks(self, true: float) -> float:
        """The computer's boot clock: never set, counting sleep, at the same rate."""
        return true * self.rate

    def true_span(self, local_seconds: float) -> float:
        """How much true time `local_seconds` of this clock take."""
        return local_seconds / self.rate

    def step(self, seconds: float) -> None:
        """The clock is set (NTP, a person, a dual boot): it jumps by `seconds`."""
        self.offset += seconds


@dataclass
class Span:
    """A stretch of true time during which two or more computers acted on one part."""

    part: str
    start: float
    end: float
    actors: tuple[str, ...]
    trace: list[str]


@dataclass
class Measures:
    """What a run measured, in true seconds."""

    seconds: float = 0.0
    double: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    spans: list[Span] = field(default_factory=list)
    unattended: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    longest_unattended: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    longest_from: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    handover: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PARTS})
    unfinished: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    flaps: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    notes: int = 0  # notifications the trays sent (after the driver's filter)
    closes: int = 0  # told sleeps whose closes were written
    closes_out: int = 0  # of which the closes had left before the machine slept
    calls: int = 0
    events: int = 0
    numbered: int = 0  # invoices made in the simulated records (`records.Numberer`)
    duplicates: int = 0  # numbers made twice, in the merged records
    gated: int = 0  # numberings put off: another keeper's records had not arrived
    # The first violation of each invariant met, with the calls before it (`World.observe`).
    violations: list[str] = field(default_factory=list)


class Instruments:
    """The core as the simulated tray calls it: each call logged, counted, its acting measured,
    and each write handed to the sync client. The loop itself is the shipped `Driver`'s."""

    def __init__(self, computer: Computer, lease: Lease) -> None:
        self.computer = computer
        self.lease = lease

    @property
    def state_problem(self) -> str | None:
        return self.lease.state_problem

    @property
    def timing(self) -> Timing:
        return self.lease.timing

    def renew(
        self,
        part: str,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        *,
        confirm: bool = False,
    ) -> Keeper:
        keeper = self.lease.renew(part, active=active, take=take, wrote=wrote, confirm=confirm)
        self.computer.wrote(part)
        return self.computer.judged("renew take" if take else "renew", part, keeper)

    def tick(
        self,
        part: str,
        *,
        renew: bool = True,
        active: float | None = None,
        wrote: int | None = None,
        take: bool = False,
    ) -> Reading:
        reading = self.lease.tick(part, renew=renew, active=active, wrote=wrote, take=take)
        if renew:
            self.computer.wrote(part)
        call = ("renew take" if take else "renew") if renew else "look"
        self.computer.judged(call, part, reading.keeper)
        return reading

    def close(self, part: str, wrote: int | None = None) -> None:
        self.lease.close(part, wrote=wrote)
        self.computer.wrote(part)
        self.computer.world.log(self.computer, f"close {part}")
        self.computer.world.set_acting(self.computer, part, False)
        self.computer.world.observe(self.computer, part)

    def forget(self, computer: str) -> None:
        self.lease.forget(computer)
        self.computer.world.log(self.computer, f"forget {computer}")
        for part in PARTS:
            self.computer.wrote(part)
        self.computer.world.observe(self.computer, "invoices")

    def last_read(self, part: str) -> Snapshot:
        # LeaseLike's, for the Computers window: the simulated loop never asks it.
        return self.lease.last_read(part)

    def forget_counts_from(self, computer: str) -> int | None:
        # LeaseLike's, for the Computers window: the simulated loop never asks it.
        return self.lease.forget_counts_from(computer)

    def forget_stands_on_close(self, computer: str) -> bool:
        return self.lease.forget_stands_on_close(computer)


class Presence:
    """When the person was last at a simulated computer, as `desktop.idle` says it."""

    name = "simulated"
    known = True

    def __init__(self, computer: Computer) -> None:
        self.computer = computer

    def active(self, now: float) -> int:
        return int(self.computer.active())


class Computer:
    """One computer: its machine state, its sync client, and its tray: the shipped `Driver` over
    the real `Lease`, timed by the world's event loop as the Qt controller times it."""

    def __init__(
        self, world: World, computer: str, clock: Clock, share: Share, delay: Delay
    ) -> None:
        self.world = world
        self.id = computer
        self.clock = clock
        self.share = share
        self.replica = share.folder
        self.state_dir = world.root / "state" / computer
        self.client = Client(world, self, delay)
        self.on = True  # the machine runs
        self.awake = True
        self.given_away = False
        self.lease: Lease | None = None  # the tray runs
        self.driver: Driver | None = None
        self.acting = dict.fromkeys(PARTS, False)
        self.last: dict[str, Keeper | None] = dict.fromkeys(PARTS)
        self.present_since: float | None = None  # true time the person arrived, None: away
        self.last_present = -86400.0  # true time the person was last here
        self.dozing = False  # the tray went to sleep; the machine follows after SLEEP_GRACE
        self.silent = False  # asleep without having told the tray (a fault)
        self._sleeps = 0
        self._timer = 0  # generation of the renew timer: a new one cancels the old
        self._reread = False
        self._rechecks = 0  # generation of the driver's recheck request
        self.away_after: float | None = None  # the driver's `away_after` (sleeps when idle)
        self.began = 0.0  # true time its tray last started
        self.judged_at = 0.0  # true time of its last call on invoices

    def __repr__(self) -> str:
        return f"Computer({self.id!r})"

    @property
    def online(self) -> bool:
        return self.on and self.awake and not self.given_away

    @property
    def running(self) -> bool:
        """The tray runs and may act."""
        return self.online and self.driver is not None and not self.dozing

    def now(self) -> float:
        return self.clock.local(self.world.now)

    def ticks(self) -> float:
        return self.clock.ticks(self.world.now)

    def active(self) -> float:
        """When the person was last here, by this computer's clock."""
        if self.present_since is not None:
            return self.now()
        return self.clock.local(self.last_present)

    # -- what the driver's calls do here ----------------------------------------------------

    def judged(self, kind: str, part: str, keeper: Keeper) -> Keeper:
        self.last[part] = keeper
        self.world.measures.calls += 1
        self.world.log(self, f"{kind} {part}: {describe(keeper)}")
        self.world.set_acting(self, part, keeper.acting)
        if part == "invoices":
            self.judged_at = self.world.now
        self.world.observe(self, part)
        return keeper

    def wrote(self, part: str) -> None:
        self.client.local_changed(f"leases/{part}/{self.id}.lease")

    # -- the tray ---------------------------------------------------------------------------

    def start(self) -> None:
        """The tray starts (login, restart): a new Lease with the same local state."""
        self.began = self.world.now
        self.lease = Lease(
            self.share,
            self.id,
            name=self.id.title(),
            clock=self.now,
            state_dir=self.state_dir,
            ticks=self.ticks,
        )
        kind = KeepDriver if self.world.keep_kept else Driver
        self.driver = kind(
            Instruments(self, self.lease),
            self.id,
            Presence(self),
            clock=self.now,
            monotonic=lambda: self.world.now,
            notify=self._noted,
            recheck=self._recheck if self.world.recheck else lambda seconds: None,
            away_after=self.away_after,
        )
        self.driver.start()
        self._schedule()

    def _recheck(self, seconds: float) -> None:
        """The driver asks for a reread `seconds` from now (the controller's single-shot QTimer:
        a new request replaces the pending one; stopped over a told sleep)."""
        self._rechecks += 1
        self.world.after(self.clock.true_span(seconds), self._rechecked, self._rechecks)

    def _rechecked(self, generation: int) -> None:
        if generation == self._rechecks and self.running and self.driver is not None:
            self.driver.reread()

    def _noted(self, note: object) -> None:
        self.world.measures.notes += 1
        self.world.log(self, f"note {note}")

    def _schedule(self) -> None:
        """The tray's timer: every RENEW of this clock from its start (or a resume), whatever
        ticks came between (a take, a reread that saw a new keeper), as the Qt controller's QTimer.
        While the machine sleeps without telling, the timer fires into nothing: the first tick
        after the wake comes within one RENEW."""
        self._timer += 1
        self._next(self._timer)

    def _next(self, generation: int) -> None:
        self.world.after(self.clock.true_span(RENEW), self._timed, generation)

    def _timed(self, generation: int) -> None:
        if generation != self._timer:
            return
        if self.running and self.driver is not None:
            self.driver.tick()
        self._next(generation)

    def folder_changed(self) -> None:
        """A file changed in this replica: the tray's watcher reads again shortly."""
        if self.running and not self._reread:
            self._reread = True
            self.world.after(REREAD_DELAY, self._look)

    def _look(self) -> None:
        self._reread = False
        if self.running and self.driver is not None:
            self.driver.reread()

    def take(self) -> None:
        """The person chose "Make invoices here"."""
        if self.running and self.driver is not None:
            self.driver.take("invoices")

    def forget(self, other: str) -> None:
        """The person declared `other` gone for good."""
        if self.running and self.driver is not None:
            self.driver.forget(other)

    def _abandon(self) -> None:
        for part in PARTS:
            self.world.abandon(part, self.id)

    def _stop_acting(self) -> None:
        for part in PARTS:
            self.world.set_acting(self, part, False)

    # -- the machine ------------------------------------------------------------------------

    def sleep(self, tell: bool = True) -> None:
        """The machine sleeps; the tray closes its claims first unless the sleep was silent.

        A told sleep waits SLEEP_GRACE for the tray (logind's delay inhibitor): the sync client runs
        that long too, so the closed claims go out only when the upload is that quick. A nudged
        sync tool whose uploads can go sends them at once, and the inhibitor is released as soon
        as they are sent (`Client.send_now`).
        """
        if not self.online or self.dozing:
            return
        if tell and self.driver is not None:
            self.driver.suspend()
            self._timer += 1  # the controller stops its timers until the resume
            self._rechecks += 1
        self._stop_acting()
        self._abandon()
        self.world.log(self, "sleep" if tell else "sleep without telling")
        if tell:
            self.dozing = True
            self._sleeps += 1
            if self.driver is not None and self.client.send_now():
                self.world.after(NUDGE_SEND, self._sent, self._sleeps)
            self.world.after(SLEEP_GRACE, self._asleep, self._sleeps)
        else:
            self.awake = False
            self.silent = True

    def _sent(self, generation: int) -> None:
        """The nudged uploads are done (they were queued before this): release the inhibitor."""
        if not self.client.up:
            self._asleep(generation)

    def _asleep(self, generation: int) -> None:
        if self.dozing and generation == self._sleeps:
            self.dozing = False
            self.awake = False
            if self.driver is not None:
                self.world.measures.closes += 1
                self.world.measures.closes_out += not self.client.up

    def wake(self, reconnect: float) -> None:
        """The machine wakes: the tray renews at once; the sync client reconnects a bit later."""
        if self.dozing:
            self._sleeps += 1  # woken within the grace: the machine never went down
            self.dozing = False
            self.world.log(self, "wake")
            self._resume()
            return
        if self.awake or not self.on or self.given_away:
            return
        self.awake = True
        self.silent = False
        self.world.log(self, "wake")
        self._reconnect(reconnect)
        self._resume()

    def _resume(self) -> None:
        """A told sleep is resumed: the driver renews at once and the timer starts again. After a
        silent one the running timer's next tick comes within RENEW, and the core sees the gap
        on its own."""
        if self.driver is None:
            return
        if self.driver.asleep:
            self.driver.resume()
            self._schedule()

    def quit(self) -> None:
        """The person quits the tray (the machine and its sync go on)."""
        if self.running and self.driver is not None:
            self.driver.shutdown()
            self._timer += 1
            self._rechecks += 1
            self._stop_acting()
            self._abandon()
            self.driver = None
            self.lease = None
            self.world.log(self, "quit")

    def crash(self) -> None:
        """The machine goes down without closing anything."""
        if not self.on:
            return
        self._timer += 1
        self._rechecks += 1
        self._stop_acting()
        self._abandon()
        self.driver = None
        self.lease = None
        self.on = False
        self.dozing = False
        self.world.log(self, "crash")

    def boot(self, reconnect: float) -> None:
        """The machine comes back up (or the tray is started again after a quit)."""
        if self.given_away:
            return
        if not self.on:
            self.on = True
            self.awake = True
            self._reconnect(reconnect)
        if self.driver is None:
            self.world.log(self, "start")
            self.start()

    def give_away(self) -> None:
        """The machine leaves for good without closing: a crash that never comes back."""
        self.crash()
        self.given_away = True
        self.world.log(self, "given away")

    def _reconnect(self, delay: float) -> None:
        self.client.reconnecting = True

        def connected() -> None:
            self.client.reconnecting = False
            self.client.resume()

        self.world.after(delay, connected)


class KeepDriver(Driver):
    """An alternative evaluated for issue 13, not shipped: before sleep, close only the parts
    this computer does not keep (its kept part stays put and unattended while it sleeps)."""

    def suspend(self) -> None:
        self.asleep = True
        view = self.view
        for part in PARTS:
            kept = view is not None and part in view.parts and view.parts[part].here
            if not kept:
                self.lease.close(part, wrote=self.wrote[part])
        self._closed = True


def describe(k: Keeper) -> str:
    flags = "".join(f for f, on in (("S", k.settled), ("H", k.others_heard), ("G", k.agreed)) if on)
    wait = f" waits {','.join(k.waiting)}" if k.waiting else ""
    return f"{k.computer} {'ACT' if k.acting else '-'} {flags}{wait}"


class World:
    """The event loop, the sync service, the computers and the measures of one run."""

    def __init__(self, seed: int, root: Path | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.now = 0.0
        self._queue: list[tuple[float, int, Callable[..., Any], tuple[Any, ...]]] = []
        self._order = 0
        self._own_root = root is None
        self.root = root or Path(tempfile.mkdtemp(prefix="sioul-sim-", dir=fast_tmp()))
        self.cloud = Cloud()
        self.computers: dict[str, Computer] = {}
        self.measures = Measures()
        self._trace: deque[str] = deque(maxlen=TRACE)
        self.tracing = False  # keep every line (for debugging one run)
        self.keep_kept = False  # evaluated: a keeper leaves its claim open over sleep
        self.recheck = True  # honour the driver's rereads at a settling's end (False: as before)
        self.numberer: Numberer | None = None  # Sioul numbering invoices, where the run has one
        # The invariants' view: every version of each computer's claim on invoices, as written.
        self.history: dict[str, list[invariants.Written]] = {}
        self.judging = True  # judge the invariants after every call (`observe`)
        self.lines: list[str] = []
        # The person, as the measures need it.
        self.present: frozenset[str] = frozenset()
        self.moved = 0.0  # true time the person last moved or took
        self._waiting: dict[str, tuple[str, float] | None] = dict.fromkeys(PARTS)  # handovers
        self._last_actor: dict[str, str | None] = dict.fromkeys(PARTS)
        self._double_start: dict[str, tuple[float, tuple[str, ...], list[str]] | None] = (
            dict.fromkeys(PARTS)
        )
        self._unattended_start: dict[str, float | None] = dict.fromkeys(PARTS)

    # -- building ---------------------------------------------------------------------------

    def add_computers(self, specs: list[tuple[str, Clock, Delay]]) -> None:
        """One replica per computer, each with its own copy of the seal; the first creates it."""
        first = specs[0][0]
        key = b""
        for i, (computer, clock, delay) in enumerate(specs):
            replica = self.root / "replicas" / computer
            replica.mkdir(parents=True)
            if i == 0:
                share = Share.create(replica, "correct horse", first, cost=10)
                key = share.folder_key
                seal = (replica / SEAL_NAME).read_bytes()
            else:
                (replica / SEAL_NAME).write_bytes(seal)
                share = Share.unlock(replica, key)
            self.computers[computer] = Computer(self, computer, clock, share, delay)

    def clients(self) -> list[Client]:
        return [c.client for c in self.computers.values()]

    def close(self) -> None:
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- the loop ---------------------------------------------------------------------------

    def at(self, when: float, action: Callable[..., Any], *args: Any) -> None:
        self._order += 1
        heapq.heappush(self._queue, (max(when, self.now), self._order, action, args))

    def after(self, delay: float, action: Callable[..., Any], *args: Any) -> None:
        self.at(self.now + delay, action, *args)

    def run(self, until: float) -> Measures:
        while self._queue and self._queue[0][0] <= until:
            when, _, action, args = heapq.heappop(self._queue)
            self._advance(when)
            action(*args)
            self.measures.events += 1
        self._advance(until)
        for part in PARTS:
            self._end_double(part)
        if self.numberer is not None:
            self.measures.duplicates = self.numberer.duplicates()
        return self.measures

    # -- the measures -----------------------------------------------------------------------

    def observe(self, computer: Computer, part: str) -> None:
        """After a call of `computer` on `part`: its claim written, then every invariant."""
        if part != "invoices" or not self.judging or computer.lease is None:
            return
        mine = computer.lease.knowledge(part).best.get(computer.id)
        written = self.history.setdefault(computer.id, [])
        if mine is not None and (not written or written[-1].claim != mine):
            written.append(invariants.Written(mine, self.now))
        found = self.measures.violations
        for v in invariants.check(self.moment()):
            if not any(seen.startswith(f"{v.invariant} ") for seen in found):
                found.append(f"{v} (t={self.now:.0f}, seed {self.seed})\n" + "\n".join(self._trace))

    def moment(self) -> invariants.Moment:
        """The world now on invoices, as the invariants read it: each tray that runs (asleep
        too: its knowledge stands), whether it acts, every claim written."""
        minds: dict[str, invariants.Mind] = {}
        for c in self.computers.values():
            if c.lease is None:
                continue
            k = c.lease.knowledge("invoices")
            if k.last_tick is None:
                continue
            minds[c.id] = invariants.Mind(
                k,
                c.ticks(),
                acting=c.acting["invoices"],
                judged=k.last_tick,
                judged_at=c.judged_at,
                began=c.began,
            )
        return invariants.Moment(self.now, minds, self.history)

    def log(self, computer: Computer | None, what: str) -> None:
        who = computer.id if computer else "-"
        line = f"{self.now:10.1f} {who:>8} {what}"
        self._trace.append(line)
        if self.tracing:
            self.lines.append(line)

    def actors(self, part: str) -> tuple[str, ...]:
        return tuple(c.id for c in self.computers.values() if c.acting[part])

    def healthy(self) -> bool:
        """Some computer is on, its tray runs, and its sync flows both ways."""
        return any(c.running and c.client.healthy for c in self.computers.values())

    def person_served(self) -> bool:
        """The person is at a computer that is on (medicines should be reminded somewhere)."""
        return any(self.computers[c].running for c in self.present)

    def _advance(self, when: float) -> None:
        dt = when - self.now
        if dt > 0:
            m = self.measures
            m.seconds += dt
            for part in PARTS:
                acting = sum(c.acting[part] for c in self.computers.values())
                if acting >= 2:
                    m.double[part] += dt
                needed = self.healthy() if part == "invoices" else self.person_served()
                if acting == 0 and needed:
                    m.unattended[part] += dt
                    start = self._unattended_start[part]
                    if start is None:
                        self._unattended_start[part] = start = self.now
                    if when - start > m.longest_unattended[part]:
                        m.longest_unattended[part] = when - start
                        m.longest_from[part] = start
                else:
                    self._unattended_start[part] = None
        self.now = when

    def set_acting(self, computer: Computer, part: str, acting: bool) -> None:
        if computer.acting[part] == acting:
            return
        computer.acting[part] = acting
        actors = self.actors(part)
        if acting:
            waiting = self._waiting[part]
            if waiting is not None and waiting[0] == computer.id:
                self.measures.handover[part].append(self.now - waiting[1])
                self._waiting[part] = None
            last = self._last_actor[part]
            if last is not None and last != computer.id and self.now - self.moved >= STILL:
                self.measures.flaps[part] += 1
            self._last_actor[part] = computer.id
        if len(actors) >= 2 and self._double_start[part] is None:
            self._double_start[part] = (self.now, actors, list(self._trace))
        elif len(actors) < 2:
            self._end_double(part)

    def _end_double(self, part: str) -> None:
        started = self._double_start[part]
        if started is not None:
            start, actors, trace = started
            self.measures.spans.append(Span(part, start, self.now, actors, trace))
            self._double_start[part] = None

    def wait_for(self, part: str, computer: Computer) -> None:
        """A handover starts: measure until `computer` acts on `part` (unless it does already)."""
        if self._waiting[part] is not None:
            self.measures.unfinished[part] += 1
        self._waiting[part] = None if computer.acting[part] else (computer.id, self.now)

    def abandon(self, part: str, computer: str | None = None) -> None:
        """The handover measured can no longer finish (the person moved, the machine slept)."""
        waiting = self._waiting[part]
        if waiting is not None and (computer is None or waiting[0] == computer):
            self.measures.unfinished[part] += 1
            self._waiting[part] = None


def fast_tmp() -> str | None:
    """A memory-backed temporary folder where there is one: claim writes fsync."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() else None
