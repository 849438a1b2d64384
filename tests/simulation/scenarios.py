"""The scenarios: who uses which computer when, how the machines and the sync behave, what fails.

Everything is drawn up front from the run's seeded random source, then played by the event loop.
True time 0 is 7:00 on the first morning; the person is at their computers from about 7:00 to 23:00.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from sioul_tray.lease import ALIVE, PARTS, RENEW, SETTLING, UNCLOSED
from sioul_tray.tray.away import AWAY_AFTER

from .records import Numberer
from .sync import Delay
from .world import Clock, Computer, Measures, World

DAY = 86400.0
ASK_AFTER = 3600.0  # the tray asks "is it gone?" about a computer silent this long that it waits on
ANSWER_EVERY = 600.0  # and the person answers at the next look while they are at it


@dataclass(frozen=True)
class Sync:
    """Delays of one transfer (upload or download), log-normal, capped."""

    median: float = 3.0
    sigma: float = 0.8
    cap: float = 30.0

    def delay(self) -> Delay:
        def draw(rng: random.Random) -> float:
            return min(self.cap, self.median * math.exp(self.sigma * rng.gauss(0.0, 1.0)))

        return draw


@dataclass(frozen=True)
class Fault:
    """A fault that strikes `per_day` times a day on average, lasting `lasts` seconds (a range)."""

    per_day: float
    lasts: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Scenario:
    name: str
    about: str
    computers: tuple[tuple[str, str], ...] = (
        ("desk", "desktop"),
        ("laptop", "laptop"),
        ("studio", "desktop"),
    )
    sync: Sync = Sync()
    reconnect: tuple[float, float] = (2.0, 20.0)  # after wake or boot, before the sync client runs
    offset: float = 2.0  # clock offsets drawn within +- this (s)
    drift: float = 2e-5  # clock rates drawn within 1 +- this
    skewed: bool = False  # one clock fast and one slow by `skew_rate`, offsets of minutes
    takes_per_session: float = 0.2
    two_at_once: float = 0.1  # a session uses two computers at once
    faults: dict[str, Fault] = field(default_factory=dict)
    timely: bool = True  # every transfer arrives within SETTLING - RENEW: no double medicines
    # The tray nudges the sync tool (Syncthing: a claim's scan at once, the close sent before
    # sleep). False: a tool the tray cannot nudge (Dropbox, OneDrive...). `plain`: computers
    # whose tool is not nudged even so.
    nudged: bool = True
    plain: tuple[str, ...] = ()
    # The tray on a machine that sleeps when idle (laptop, phone) closes both parts once the
    # person has been away this long (`Driver.away_after`, as shipped); None: only at sleep.
    away_after: float | None = AWAY_AFTER
    ci_hours: float = 8.0  # the CI's smaller run: long enough for this scenario's faults to bite

    def transfer_bound(self) -> float:
        """The longest one-way delivery when the sync is healthy (upload + download + reread)."""
        return 2 * self.sync.cap


IDLE_SLEEP = {"desktop": None, "laptop": 1200.0, "phone": 300.0}  # sleeps this long after use
USE = {"desktop": 0.5, "laptop": 0.35, "phone": 0.15}  # how often the person picks each kind

SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("calm", "healthy sync (each way within 60 s), clocks within 2 s"),
        Scenario(
            "skew",
            "clocks minutes apart, one fast and one slow, clocks set now and then",
            offset=300.0,
            skewed=True,
            faults={"clock_step": Fault(2.0)},
        ),
        Scenario(
            "slow_sync",
            "deliveries with a long tail: a median of 15 s, up to 15 min",
            sync=Sync(median=15.0, sigma=1.2, cap=900.0),
            reconnect=(5.0, 120.0),
            timely=False,
        ),
        Scenario(
            "stopped",
            "a computer's sync stops both ways for 20 min to 8 h, twice a day",
            faults={"stop": Fault(2.0, (1200.0, 8 * 3600.0))},
            timely=False,
        ),
        Scenario(
            "cut_off",
            "a running computer's sync stops for 23 to 30 h (past UNCLOSED); clocks set at times",
            faults={
                "stop": Fault(0.7, (23 * 3600.0, 30 * 3600.0)),
                "clock_step": Fault(1.0),
            },
            timely=False,
            ci_hours=34.0,
        ),
        Scenario(
            "stall",
            "a computer's downloads stall (uploads go out) for 10 min to 3 h, three times a day",
            faults={"stall": Fault(3.0, (600.0, 3 * 3600.0))},
            timely=False,
        ),
        Scenario(
            "phone",
            "a phone whose sync runs in bursts every 30 min; used now and then, takes invoices",
            computers=(("desk", "desktop"), ("laptop", "laptop"), ("phone", "phone")),
            takes_per_session=0.3,
            timely=False,
        ),
        Scenario(
            "flaky_files",
            "claims evicted to placeholders, older versions restored, conflicted copies",
            faults={
                "evict": Fault(6.0, (300.0, 4 * 3600.0)),
                "restore": Fault(4.0),
                "conflict": Fault(6.0, (600.0, 12 * 3600.0)),
            },
            timely=False,
        ),
        Scenario(
            "lifecycle",
            "sleeps told and silent, quits, crashes, restarts; the sync reconnects in 5 s to 3 min",
            computers=(
                ("desk", "desktop"),
                ("laptop", "laptop"),
                ("studio", "desktop"),
                ("tablet", "laptop"),
            ),
            reconnect=(5.0, 180.0),
            faults={
                "silent_sleep": Fault(2.0, (600.0, 4 * 3600.0)),
                "quit": Fault(1.0, (60.0, 3600.0)),
                "crash": Fault(1.0, (60.0, 3 * 3600.0)),
            },
            timely=False,
        ),
        Scenario(
            "given_away",
            "a computer is given away (never comes back); the person says it is gone when asked",
            computers=(
                ("desk", "desktop"),
                ("laptop", "laptop"),
                ("studio", "desktop"),
                ("old", "desktop"),
            ),
            faults={"give_away": Fault(1.0)},
        ),
        Scenario(
            "everything",
            "all of the above at once, at lower rates",
            computers=(
                ("desk", "desktop"),
                ("laptop", "laptop"),
                ("phone", "phone"),
                ("studio", "desktop"),
            ),
            sync=Sync(median=5.0, sigma=1.0, cap=300.0),
            reconnect=(5.0, 180.0),
            offset=300.0,
            skewed=True,
            faults={
                "clock_step": Fault(1.0),
                "stop": Fault(0.5, (1200.0, 8 * 3600.0)),
                "stall": Fault(0.5, (600.0, 3 * 3600.0)),
                "evict": Fault(2.0, (300.0, 4 * 3600.0)),
                "restore": Fault(1.0),
                "conflict": Fault(2.0, (600.0, 12 * 3600.0)),
                "silent_sleep": Fault(0.5, (600.0, 4 * 3600.0)),
                "quit": Fault(0.3, (60.0, 3600.0)),
                "crash": Fault(0.3, (60.0, 3 * 3600.0)),
            },
            timely=False,
        ),
    )
}


# -- playing a scenario ------------------------------------------------------------------------


class Play:
    """One run of a scenario: builds the world, draws the plan, runs it.

    `nudged`: override the scenario's sync tool (nudged like Syncthing, or not like Dropbox);
    `recheck`: False to ignore the driver's reread at a settling's end, as the adapters did
    before; `away`: False for trays that close their claims at sleep only; `keep_kept`: the
    alternative where a tray leaves the part it keeps open over sleep.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        days: float,
        root: Path | None = None,
        nudged: bool | None = None,
        recheck: bool = True,
        away: bool = True,
        keep_kept: bool = False,
        records_gate: bool = True,
    ) -> None:
        if nudged is not None:
            scenario = dataclasses.replace(scenario, nudged=nudged)
        if not away:
            scenario = dataclasses.replace(scenario, away_after=None)
        self.scenario = scenario
        self.days = days
        self.end = days * DAY
        self.world = World(seed, root)
        self.world.recheck = recheck
        self.world.keep_kept = keep_kept
        self.world.numberer = Numberer(self.world, seed, gate=records_gate)
        self.rng = random.Random(f"{scenario.name}/{seed}")  # the plan; the world draws delays
        self.kinds = dict(scenario.computers)
        self.gone: dict[str, float] = {}  # computer: true time it is given away
        self.healed = False
        self._build()

    def _build(self) -> None:
        s, rng = self.scenario, self.rng
        specs = []
        ids = [c for c, _ in s.computers]
        fast, slow = (ids[1], ids[2]) if s.skewed else (None, None)
        for computer in ids:
            rate = 1.0 + rng.uniform(-s.drift, s.drift)
            if computer == fast:
                rate = 1.0005  # 43 s a day ahead
            elif computer == slow:
                rate = 0.9995
            clock = Clock(rng.uniform(-s.offset, s.offset), rate)
            delay = s.sync.delay()
            specs.append((computer, clock, delay))
        self.world.add_computers(specs)
        for computer in ids:
            self.world.computers[computer].client.nudged = s.nudged and computer not in s.plain
            if IDLE_SLEEP[self.kinds[computer]] is not None:
                self.world.computers[computer].away_after = s.away_after
        for computer, kind in s.computers:
            if kind == "phone":
                self.world.computers[computer].client.bursty = True
                self._bursts(self.world.computers[computer])
        if "give_away" in s.faults:
            victim = rng.choice([c for c, k in s.computers[1:] if k == "desktop"])
            self.gone[victim] = rng.uniform(0.2, 0.5) * self.end
        # Trays start within the first minutes, in a drawn order.
        for computer in ids:
            self.world.at(rng.uniform(0.0, 300.0), self.world.computers[computer].start)
        assert self.world.numberer is not None
        for computer in ids:
            self.world.numberer.start(self.world.computers[computer])
        self._person()
        for name, fault in s.faults.items():
            self._faults(name, fault)

    def run(self) -> Measures:
        try:
            return self.world.run(self.end)
        finally:
            self.world.close()

    def heal(self) -> None:
        """Every fault ends now and strikes no more: syncs flow, placeholders come back, crashed
        machines boot, silent sleeps wake. (A computer given away stays away, one that went to sleep
        as usual sleeps on, a phone's sync stays bursty.)"""
        self.healed = True
        w = self.world
        w.log(None, "every fault ends")
        for c in w.computers.values():
            if c.given_away:
                continue
            c.client.stopped = c.client.stalled = 0
            for rel in sorted(c.client.evicted):
                c.client.restore(rel)
            if not c.on or c.lease is None:
                c.boot(self._reconnect())
            elif c.silent:
                c.wake(self._reconnect())
            c.client.resume()

    # -- the person --------------------------------------------------------------------------

    def usable(self, t: float) -> list[str]:
        return [c for c, _ in self.scenario.computers if self.gone.get(c, math.inf) > t]

    def _person(self) -> None:
        rng, s = self.rng, self.scenario
        day = 0
        while day * DAY < self.end:
            t = day * DAY + rng.uniform(0, 2 * 3600)  # up between 7:00 and 9:00
            end = day * DAY + 15 * 3600 + rng.uniform(0, 1.5 * 3600)  # to bed 22:00 to 23:30
            while t < min(end, self.end):  # the person leaves when the run ends, too
                choices = self.usable(t)
                weights = [USE[self.kinds[c]] for c in choices]
                here = rng.choices(choices, weights)[0]
                at = {here}
                others = [c for c in choices if c != here]
                if others and rng.random() < s.two_at_once:
                    at.add(rng.choice(others))
                lasts = min(4 * 3600, max(180.0, 2400 * math.exp(0.9 * rng.gauss(0, 1))))
                lasts = min(lasts, self.end - t)
                self.world.at(t, self.go, frozenset(at))
                if rng.random() < s.takes_per_session:
                    self.world.at(t + rng.uniform(0, lasts), self.take, here)
                t += lasts
                gap = rng.uniform(0, 600) if rng.random() < 0.7 else rng.uniform(600, 3600)
                self.world.at(t, self.go, frozenset())
                t += gap
            day += 1

    def go(self, at: frozenset[str]) -> None:
        """The person is now at the computers `at` (none: away)."""
        w = self.world
        at = frozenset(c for c in at if not w.computers[c].given_away)
        before = w.present
        w.present = at
        w.moved = w.now
        for c in sorted(before - at):  # sorted: set order changes with the hash seed
            computer = w.computers[c]
            computer.present_since = None
            computer.last_present = w.now
            idle = IDLE_SLEEP[self.kinds[c]]
            if idle is not None:
                w.after(idle, self._idle, computer, w.now)
        for c in sorted(at - before):
            computer = w.computers[c]
            computer.present_since = w.now
            if not computer.on:
                computer.boot(self._reconnect())
            elif not computer.awake:
                computer.wake(self._reconnect())
        if len(at) == 1 and at != before:
            w.wait_for("medicines", w.computers[next(iter(at))])
        elif at != before:
            w.abandon("medicines")
        if self.gone and at:
            w.after(1.0, self._ask, at)

    def take(self, computer: str) -> None:
        w = self.world
        c = w.computers[computer]
        if computer in w.present and c.running:
            w.moved = w.now
            w.log(c, "person: make invoices here")
            c.take()
            w.wait_for("invoices", c)

    def _idle(self, computer: Computer, left: float) -> None:
        if computer.present_since is None and computer.last_present == left:
            silent = (
                "silent_sleep" in self.scenario.faults
                and self.kinds[computer.id] != "phone"
                and not self.healed
            )
            computer.sleep(tell=not (silent and self.rng.random() < 0.3))

    def _reconnect(self) -> float:
        return self.rng.uniform(*self.scenario.reconnect)

    def _ask(self, at: frozenset[str]) -> None:
        """The tray asks about a silent computer it waits on; the person answers it is gone."""
        w = self.world
        if w.present != at:
            return
        for c in sorted(at):
            computer = w.computers[c]
            keeper = computer.last["invoices"]
            if not computer.running or computer.lease is None or keeper is None:
                continue
            heard = computer.lease.heard("invoices")
            for victim in sorted(self.gone):
                if self.gone[victim] > w.now:
                    continue
                silent = computer.now() - heard.get(victim, computer.now())
                blocking = keeper.computer == victim or victim in keeper.waiting
                if blocking and silent > ASK_AFTER:
                    computer.forget(victim)
                    return
        w.after(ANSWER_EVERY, self._ask, at)

    # -- the machines and the sync -------------------------------------------------------------

    def _bursts(self, phone: Computer) -> None:
        """The phone's sync client runs for a minute and a half about every 30 minutes."""
        t = self.rng.uniform(0, 1800)
        later = random.Random(f"{self.scenario.name}/{self.world.seed}/{phone.id}")
        while t < self.end + 2 * DAY:  # on past the end, for runs that go on healed
            self.world.at(t, self._burst, phone, True)
            self.world.at(t + 90, self._burst, phone, False)
            rng = self.rng if t < self.end else later  # the run's own draws stay as they were
            t += 1800 + rng.uniform(-120, 120)

    @staticmethod
    def _burst(phone: Computer, on: bool) -> None:
        phone.client.in_burst = on
        if on:
            phone.client.resume()

    def _faults(self, name: str, fault: Fault) -> None:
        rng, w = self.rng, self.world
        if name == "give_away":
            for victim, when in self.gone.items():
                w.at(when, w.computers[victim].give_away)
            return
        t = rng.expovariate(fault.per_day / DAY)
        while t < self.end:
            lasts = rng.uniform(*fault.lasts)
            w.at(t, self._strike, name, lasts, rng.random())
            t += rng.expovariate(fault.per_day / DAY)

    def _strike(self, name: str, lasts: float, pick: float) -> None:
        """A fault strikes now; `pick` chooses its victim among those it can strike now."""
        if self.healed:
            return
        w = self.world
        live = [c for c in w.computers.values() if not c.given_away]
        desktops = [c for c in live if self.kinds[c.id] != "phone"]
        if name in ("stop", "stall"):
            c = desktops[int(pick * len(desktops))]
            w.log(c, f"sync {name} for {lasts:.0f} s")
            if name == "stop":
                c.client.stopped += 1
            else:
                c.client.stalled += 1
            w.after(lasts, self._unstrike, name, c)
        elif name == "clock_step":
            c = live[int(pick * len(live))]
            step = self.rng.choice((-1, 1)) * self.rng.uniform(30.0, 600.0)
            w.log(c, f"clock set by {step:+.0f} s")
            c.clock.step(step)
        elif name == "silent_sleep":
            c = desktops[int(pick * len(desktops))]
            if c.present_since is None and c.online:
                c.sleep(tell=False)
                w.after(lasts, c.wake, self._reconnect())
        elif name in ("quit", "crash"):
            c = live[int(pick * len(live))]
            if name == "quit":
                c.quit()
            else:
                c.crash()
            w.after(lasts, c.boot, self._reconnect())
        elif name == "evict":
            c = live[int(pick * len(live))]
            rels = self._others_claims(c)
            if rels:
                rel = self.rng.choice(rels)
                w.log(c, f"evicted {rel}")
                c.client.evict(rel)
                w.after(lasts, c.client.restore, rel)
        elif name == "restore":
            rels = sorted(w.cloud.files)
            if rels:
                rel = rels[int(pick * len(rels))]
                old = w.cloud.older(rel, w.now, self.rng)
                if old is not None:
                    w.log(None, f"the service restores an older {rel}")
                    w.cloud.files[rel] = old
                    for client in w.clients():
                        client.remote_changed(rel)
        elif name == "conflict":
            c = live[int(pick * len(live))]
            rels = self._others_claims(c)
            if rels:
                self._conflicted(c, self.rng.choice(rels), lasts)

    def _unstrike(self, name: str, c: Computer) -> None:
        if self.healed:
            return  # healing set the counters to zero already
        if name == "stop":
            c.client.stopped -= 1
        else:
            c.client.stalled -= 1
        self.world.log(c, f"sync {name} over")
        c.client.resume()

    def _others_claims(self, c: Computer) -> list[str]:
        rels = []
        for part in PARTS:
            folder = c.replica / "leases" / part
            if folder.is_dir():
                rels += [
                    f"leases/{part}/{n.name}"
                    for n in sorted(folder.glob("*.lease"))
                    if n.stem != c.id
                ]
        return rels

    def _conflicted(self, c: Computer, rel: str, lasts: float) -> None:
        """A conflicted copy of a claim appears beside it (older bytes) and is later removed."""
        path = c.replica / rel
        stem = path.stem
        style = self.rng.choice(
            (
                f"{stem} (Studio's conflicted copy 2027-01-0{self.rng.randint(1, 9)}).lease",
                f"{stem}.sync-conflict-20270101-120000-ABCDEF.lease",
                f"{stem} 2.lease",
                f"{stem}-STUDIO.lease",
            )
        )
        old = self.world.cloud.older(rel, self.world.now, self.rng) or b"\0" * 64
        copy = path.with_name(style)
        copy.write_bytes(old)
        self.world.log(c, f"conflicted copy {copy.name}")
        c.folder_changed()
        self.world.after(lasts, copy.unlink, True)


def simulate(name: str, seed: int, days: float, root: Path | None = None) -> Measures:
    """Run scenario `name`, as it is, for `days` simulated days with `seed` (the variants of the
    loop: `Play`)."""
    return Play(SCENARIOS[name], seed, days, root).run()


# Bounds the spec implies, for the tests and the docs (true seconds; clocks here run within 0.05%).
def invoices_take_bound(s: Scenario) -> float:
    """A take acts once settled and acknowledged: SETTLING, then up to one RENEW until the call
    that sees it, or the acknowledgements: the claim out and the acknowledgement back."""
    return max(SETTLING + RENEW, 2 * s.transfer_bound()) + RENEW + 2.0


def medicines_bound(s: Scenario) -> float:
    """The person settles at X: X writes `active` at its next renew (RENEW), wins once its
    `active` is more than NEAR past the computer left (NEAR + RENEW), settles (SETTLING), and the
    majority's acknowledgements come back (two transfers) within one more RENEW."""
    return 2 * RENEW + 120 + SETTLING + 2 * s.transfer_bound() + RENEW + 2.0


__all__ = ["ALIVE", "SCENARIOS", "UNCLOSED", "Play", "Scenario", "simulate"]
