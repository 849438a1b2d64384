"""Proof on the invoice numbers, end to end: two installations on two copies of a folder that real
Syncthing keeps in step, each with its real tray and a fake logind, and on each the example
numberer (examples/numberer.py) numbering through `sioul-tray run invoices`. The records sync
slower than the claims: each computer's log reaches the other copy `RECORDS_LAG` after it was
written, longer than a handover takes. The part changes hands by a take, a sleep (the close names
the other computer), a wake (invoices stay with the computer that numbered last) and a take
again, and a quit; the keeper's tray is also stopped
(SIGSTOP: its verdict lapses, nobody numbers, until it goes on) and killed (a crash: nobody
numbers until it starts again). At the end the merged records, each log up to its writer's
`wrote` mark (past it a record is void: its mark was refused), hold every number once, with no
gap, each under a token that was acting on its computer.

The same run with the numberer's records gate left out (tests/desktop/careless_numberer.py)
numbers twice: `must_have` is what keeps the numbers whole when records lag.

The folder is sealed on a test's scale (`SCALE`): every time of the protocol is the contract's
divided by it, and so is every wait here; each handover is the same, in seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sioul_tray.install import Installation
from sioul_tray.lease import invariants
from sioul_tray.timing import Timing
from tests.desktop import test_desktop_syncthing
from tests.desktop.fakes import FakeService
from tests.desktop.tray_process import ROOT, cli, env_for, seal_on_a_scale, status, stop
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay
from tests.helpers import wait_for
from tests.sync.syncthing_pair import FOLDER_ID, SyncthingPair

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

NUMBERER = ROOT / "examples" / "numberer.py"
CARELESS = Path(__file__).with_name("careless_numberer.py")
SCALE = 20  # the folder's times are the contract's divided by this (RENEW 3 s, SETTLING 6 s)
TIMING = Timing.scaled(SCALE)
RECORDS_LAG = 1.5 * TIMING.settling  # seconds a record takes to reach the other copy
# A part changes hands, the records arrive; and a margin for what does not scale (a process
# started, a file through Syncthing).
HANDOVER = 1.25 * TIMING.settling + RECORDS_LAG + 30.0
SIDES = ("a", "b")

pair = test_desktop_syncthing.pair  # the same fixture: two Syncthings, skipped without them


def logs(records: Path) -> dict[str, list[tuple[int, str]]]:
    """Each computer's records, (number, token), as this copy holds them."""
    found = {}
    for log in sorted(records.glob("*.log")):
        lines = log.read_text(encoding="ascii").splitlines()
        found[log.stem] = [(int(n), token) for n, token in (line.split() for line in lines)]
    return found


class SlowRecords(threading.Thread):
    """Each computer's log reaches the other copy of the records `lag` seconds after it changed,
    whole (written aside, then renamed), as a slow sync would bring it."""

    def __init__(self, folders: dict[str, Path], ids: dict[str, str], lag: float) -> None:
        super().__init__(daemon=True)
        self.folders, self.ids, self.lag = folders, ids, lag
        self.pending: list[tuple[float, str, bytes]] = []  # (due, to side, the log as it was)
        self.stopping = threading.Event()

    def run(self) -> None:
        last: dict[str, bytes] = {}
        while not self.stopping.wait(0.25):
            now = time.monotonic()
            for side in SIDES:
                try:
                    data = (self.folders[side] / f"{self.ids[side]}.log").read_bytes()
                except FileNotFoundError:
                    continue
                if data != last.get(side):
                    last[side] = data
                    other = "b" if side == "a" else "a"
                    self.pending.append((now + self.lag, other, data))
            for due, to, data in [p for p in self.pending if p[0] <= now]:
                self.pending.remove((due, to, data))
                source = "a" if to == "b" else "b"
                target = self.folders[to] / f"{self.ids[source]}.log"
                aside = target.with_suffix(".arriving")
                aside.write_bytes(data)
                os.replace(aside, target)

    def settled(self) -> bool:
        return not self.pending


@dataclass
class Run:
    """Both installations, their trays and numberers, on one virtual desktop."""

    numberer: Path
    homes: dict[str, Path] = field(default_factory=dict)
    shares: dict[str, Path] = field(default_factory=dict)
    records: dict[str, Path] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)
    envs: dict[str, dict[str, str]] = field(default_factory=dict)
    logind: dict[str, FakeService] = field(default_factory=dict)
    trays: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    procs: list[subprocess.Popen[str]] = field(default_factory=list)
    acting: set[tuple[str, str]] = field(default_factory=set)  # (computer, token) seen acting

    def count(self, side: str) -> int:
        return len(logs(self.records[side]).get(self.ids[side], []))

    def start_tray(self, side: str) -> None:
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=self.envs[side],
                                cwd=ROOT, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
        self.procs.append(proc)
        self.trays[side] = proc
        wait_for(lambda: (status(self.homes[side]) or {}).get("pid") == proc.pid
                 or proc.poll() is not None, 30, why=f"{side}'s tray to start")  # fmt: skip
        assert proc.poll() is None

    def start_numberer(self, side: str) -> None:
        self.procs.append(subprocess.Popen(
            [sys.executable, str(self.numberer), "--share", str(self.shares[side]),
             "--records", str(self.records[side]), "--loop", "--every", "0.3"],
            env=self.envs[side], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            text=True, start_new_session=True,
        ))  # fmt: skip

    def numbering(self, side: str, more_than: int, why: str) -> None:
        wait_for(lambda: self.count(side) > more_than, HANDOVER, why=f"{side} to number ({why})")

    def stays(self, side: str, seconds: float) -> int:
        """`side` makes no invoice for `seconds`; its count."""
        before = self.count(side)
        time.sleep(seconds)
        assert self.count(side) == before, f"{side} numbered when it should not"
        return before

    def watch_tokens(self, stopping: threading.Event) -> None:
        """Every (computer, token) a tray's status says acts on invoices, as often as it can."""
        while not stopping.wait(0.1):
            for side in SIDES:
                invoices = (status(self.homes[side]) or {}).get("parts", {}).get("invoices", {})
                if invoices.get("acting") and invoices.get("token"):
                    self.acting.add((self.ids[side], invoices["token"]))

    def marks(self) -> dict[str, int]:
        """Each computer's `wrote` mark, as its own last claim carries it (trays stopped)."""
        found = {}
        for side in SIDES:
            done = cli(self.homes[side], "claims", "invoices", "--json")
            assert done.returncode == 0, done.stderr
            claims = json.loads(done.stdout)["invoices"]
            mine = [c["wrote"] for c in claims if c["computer"] == self.ids[side]]
            found[self.ids[side]] = mine[0] if mine else 0
        return found

    def made(self) -> tuple[dict[str, list[tuple[int, str]]], int]:
        """Every invoice made, once the records reached both copies: each log's records up to its
        writer's mark (docs/integration.md); and how many past it, void (made, never marked)."""
        marks = self.marks()
        held = logs(self.records["a"])
        made = {c: records[: marks.get(c, 0)] for c, records in held.items()}
        return made, sum(len(records) for records in held.values()) - sum(map(len, made.values()))

    def broken(self) -> list[str]:
        """The invariants of docs/protocol.md's "Why it is safe" broken by the world the run left
        (trays stopped): each computer's knowledge as its state file and replica give it back
        (a read-only look), every claim either replica holds."""
        now = time.time()
        minds: dict[str, invariants.Mind] = {}
        history: dict[str, list[invariants.Written]] = {}
        for side in SIDES:
            lease = Installation(self.homes[side]).lease(read_only=True)
            lease.look("invoices")
            k = lease.knowledge("invoices")
            minds[self.ids[side]] = invariants.Mind(k, k.last_tick or 0.0)
            for claim in lease.claims("invoices"):
                versions = history.setdefault(claim.computer, [])
                if all(w.claim.seq != claim.seq for w in versions):
                    versions.append(invariants.Written(claim, now))
        for versions in history.values():
            versions.sort(key=lambda w: w.claim.seq)
        moment = invariants.Moment(now, minds, history, timing=TIMING)
        return [str(v) for v in invariants.check(moment)]


@contextmanager
def running(pair: SyncthingPair, root: Path, numberer: Path) -> Iterator[Run]:
    """Both folders set up, both trays and numberers started; afterwards everything stopped and
    the records delivered to both copies."""
    run = Run(numberer)
    for side, instance in zip(SIDES, (pair.a, pair.b), strict=True):
        run.homes[side] = root / f"{side}-home"
        run.shares[side] = instance.folder / "sioul"
        run.records[side] = root / f"{side}-records"
        run.records[side].mkdir()
    syncthing = {side: {"STCONFDIR": str(i.config_path.parent)}
                 for side, i in zip(SIDES, (pair.a, pair.b), strict=True)}  # fmt: skip
    seal_on_a_scale(run.shares["a"], run.homes["a"], SCALE)  # setup joins it
    for side in SIDES:
        if side == "b":
            pair.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
            wait_for(lambda: (run.shares["b"] / "sioul.seal").is_file(), 30,
                     why="the seal to reach b")  # fmt: skip
        done = cli(run.homes[side], "setup", "--share", str(run.shares[side]), **syncthing[side])
        assert done.returncode == 0, done.stderr
    run.ids = {side: Installation(home).computer() for side, home in run.homes.items()}
    slow = SlowRecords(run.records, run.ids, RECORDS_LAG)
    stopping = threading.Event()
    watcher = threading.Thread(target=run.watch_tokens, args=(stopping,), daemon=True)
    with ExitStack() as stack:
        display = stack.enter_context(VirtualDisplay())
        stack.enter_context(TrayHost(display))
        session = stack.enter_context(PrivateBus())
        for side in SIDES:
            system = stack.enter_context(PrivateBus())
            run.logind[side] = stack.enter_context(FakeService(system.address, "logind"))
            run.envs[side] = env_for(
                run.homes[side], DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                DBUS_SESSION_BUS_ADDRESS=session.address, DBUS_SYSTEM_BUS_ADDRESS=system.address,
                **syncthing[side],
            )  # fmt: skip
        slow.start()
        watcher.start()
        try:
            for side in SIDES:
                run.start_tray(side)
            for side in SIDES:
                run.start_numberer(side)
            yield run
        finally:
            for proc in run.procs:
                assert isinstance(proc.args, list)  # each was started from a list of words
                if proc.args[1] in (str(NUMBERER), str(CARELESS)) and proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)  # the loop and its `run`
                stop(proc)
            stopping.set()
    wait_for(slow.settled, RECORDS_LAG + 30, why="the records to reach both copies")
    slow.stopping.set()
    slow.join(5)
    assert logs(run.records["a"]) == logs(run.records["b"])


def first_to_number(run: Run) -> tuple[str, str]:
    wait_for(lambda: any(run.count(s) > 3 for s in SIDES), HANDOVER,
             why="some computer to number invoices")  # fmt: skip
    first = next(s for s in SIDES if run.count(s) > 3)
    return first, "b" if first == "a" else "a"


def taken(run: Run, beyond: int, why: str) -> tuple[str, str]:
    """The computer that does not number takes invoices: it numbers past `beyond`, and the
    first stops; (the first, the taker)."""
    first, other = first_to_number(run)
    assert cli(run.homes[other], "take", "invoices", **_st(run, other)).returncode == 0
    run.numbering(other, beyond, why)
    run.stays(first, 3)
    return first, other


def test_no_invoice_number_twice_through_every_handover(
    pair: SyncthingPair, tmp_path: Path
) -> None:
    with running(pair, tmp_path, NUMBERER) as run:
        # A take: "Make invoices here" on the other computer; its numbering waits for the
        # first's records, which arrive RECORDS_LAG after they were written.
        first, other = taken(run, 0, "a take")

        # A sleep: the other's tray closes its claims before the machine sleeps (the fake
        # logind's PrepareForSleep); its close names the first, which numbers meanwhile.
        run.logind[other].send("sleep")
        run.logind[other].wait(lambda e: e["event"] == "released")
        asleep = run.stays(other, 3)
        run.numbering(first, run.count(first), "a sleep")

        # A wake: the first numbered last, and records that as its take (issue 42), so invoices
        # stay with it; the person takes them on the other again, which numbers once the first's
        # records arrive.
        run.logind[other].send("wake")
        time.sleep(TIMING.settling + 2 * TIMING.renew)
        run.numbering(first, run.count(first), "a wake")
        assert run.count(other) == asleep  # nothing numbered there on waking
        assert cli(run.homes[other], "take", "invoices", **_st(run, other)).returncode == 0
        run.numbering(other, asleep, "a take after the wake")
        run.stays(first, 3)

        # The keeper's tray stopped: its verdict lapses within RENEW, and its numberer with it.
        os.kill(run.trays[other].pid, signal.SIGSTOP)
        time.sleep(1.25 * TIMING.renew)
        frozen = run.stays(other, 5)  # nobody numbers on a stale verdict
        os.kill(run.trays[other].pid, signal.SIGCONT)
        run.numbering(other, frozen, "its tray going on")

        # A crash: the keeper's tray killed, nobody numbers; started again, it numbers again.
        run.trays[other].kill()
        run.trays[other].wait(10)
        crashed = run.stays(other, 5)
        run.start_tray(other)
        run.numbering(other, crashed, "its tray started again")

        # A quit: the tray closes its claims; the first computer numbers again.
        before = run.count(first)
        run.trays[other].send_signal(signal.SIGTERM)
        run.trays[other].wait(30)
        run.numbering(first, before, "a quit")
        time.sleep(3)
    made, void = run.made()
    assert run.broken() == []  # the safety argument holds in the world it leaves
    numbers = sorted(n for records in made.values() for n, _ in records)
    assert len(numbers) > 20
    assert numbers == list(range(1, len(numbers) + 1))  # none twice, none missing
    for computer, records in made.items():
        assert {(computer, token) for _, token in records} <= run.acting  # each under a verdict
    assert set(run.ids.values()) <= set(made)
    each = ", ".join(f"{computer} {len(records)}" for computer, records in made.items())
    print(f"\n4 handovers (a take, a sleep, a take after the wake, a quit) at 1/{SCALE} of "
          f"the contract's times, the keeper's tray stopped {1.25 * TIMING.renew + 5:.0f} s "
          f"and killed once, records {RECORDS_LAG:.0f} s behind the claims: "
          f"{len(numbers)} invoices ({each}); void records (refused a mark): {void}; "
          f"tokens acting: {len(run.acting)}; numbers made twice: 0; gaps: 0")  # fmt: skip


def test_without_the_records_gate_a_number_is_made_twice(
    pair: SyncthingPair, tmp_path: Path
) -> None:
    with running(pair, tmp_path, CARELESS) as run:
        taken(run, 5, "a take, without waiting for the first's records")
    made, _ = run.made()
    numbers = [n for records in made.values() for n, _ in records]
    twice = len(numbers) - len(set(numbers))
    assert twice > 0
    print(f"\nthe records gate left out, at 1/{SCALE} of the contract's times, records "
          f"{RECORDS_LAG:.0f} s behind the claims: "
          f"{len(numbers)} invoices after a take, {twice} numbers made twice")  # fmt: skip


def _st(run: Run, side: str) -> dict[str, str]:
    return {"STCONFDIR": run.envs[side]["STCONFDIR"]}
