"""A writer killed with SIGKILL at random moments never leaves a torn claim or a lower seq.

`crash_writer.py` forks writers that renew one claim in a tight loop; this test kills each at a
random moment (often mid-write: between the temporary's creation and the rename) and then reads
the folder as another computer would.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import sioul_tray
from sioul_tray.lease import Lease
from sioul_tray.share import Share
from tests.lease.leasekit import PASSPHRASE, make_share, part_folder

KILLS = 200
BUDGET = 25.0  # seconds; the loop stops early rather than overrun on a busy machine
MIN_KILLS = 60  # fewer than this within the budget says nothing
WRITER = Path(__file__).with_name("crash_writer.py")


class Writers:
    """The crash_writer.py process, and the one writer it has running at a time."""

    def __init__(self, folder: Path, state_dir: Path, log: Path) -> None:
        # The writers must run the sioul_tray this test imported (a worktree, not another
        # editable install that the shared venv happens to point at).
        source = str(Path(sioul_tray.__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, str(WRITER.parent)])}
        self.log = log
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(folder), PASSPHRASE, str(state_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env=env,
        )
        self.running: int | None = None

    def _line(self) -> list[str]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"crash_writer.py ended early:\n{self.log.read_text()}"
        return line.split()

    def start(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        word, pid = self._line()
        assert word == "started"
        self.running = int(pid)
        return self.running

    def kill(self) -> int:
        """SIGKILL the running writer; its wait status once it is dead."""
        assert self.running is not None
        # The pid cannot be reused before crash_writer.py reaps it, which it reports below.
        os.kill(self.running, signal.SIGKILL)
        word, pid, status = self._line()
        assert (word, int(pid)) == ("ended", self.running)
        self.running = None
        return int(status)

    def close(self) -> None:
        if self.running is not None:
            os.kill(self.running, signal.SIGKILL)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._log.close()


@pytest.fixture
def writers(tmp_path: Path) -> Iterator[tuple[Writers, Share, Path]]:
    share = make_share(tmp_path / "sync", "writer")
    w = Writers(share.folder, tmp_path / "state", tmp_path / "writer.log")
    try:
        yield w, share, tmp_path
    finally:
        w.close()


def temporaries(folder: Path, computer: str) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.startswith(f".~{computer}."))


@pytest.mark.slow
def test_killed_writer_leaves_whole_claims_rising_seq_and_no_leftovers(
    writers: tuple[Writers, Share, Path],
) -> None:
    w, share, tmp = writers
    folder = part_folder(share, "invoices")
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    watcher = Lease(Share.open(share.folder, PASSPHRASE), "watcher")  # reads across all kills
    last_seq = -1
    seqs: set[int] = set()
    mid_write = 0  # kills that left a temporary: the moment this test is about
    kills = 0
    end = time.monotonic() + BUDGET
    while kills < KILLS and time.monotonic() < end:
        w.start()
        # Mostly short waits, to land inside the first writes as often as in later ones.
        time.sleep(rng.choice([0.0, rng.uniform(0, 0.01), rng.uniform(0, 0.06)]))
        status = w.kill()
        kills += 1
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
            f"writer ended on its own (seed {seed}):\n{w.log.read_text()}"
        )

        # Another computer's view, fresh: the claim opens, its seq never went down.
        reader = Lease(Share.open(share.folder, PASSPHRASE), "reader")
        claims = reader.claims("invoices")
        for lease in (reader, watcher):
            if lease is watcher:
                watcher.claims("invoices")
            for name, reason in lease.problems("invoices"):
                # Only temporaries (the writer's, the decoy) may be skipped: never a torn claim.
                assert name.startswith(".~") and "temporary" in reason, (
                    name,
                    reason,
                    seed,
                )
        if claims:
            (claim,) = claims
            assert claim.computer == "writer"
            assert claim.seq >= last_seq, (claim.seq, last_seq, seed)
            last_seq = claim.seq
            seqs.add(claim.seq)

        # A decoy of another computer shows the cleanup removes only the writer's own.
        decoy = folder / ".~other.0badc0de.tmp"
        if folder.is_dir():
            decoy.write_bytes(b"not ours")
            if temporaries(folder, "writer"):
                mid_write += 1
            Lease(Share.open(share.folder, PASSPHRASE), "writer")  # a restart, writing nothing
            assert temporaries(folder, "writer") == [], seed
            assert decoy.exists()

    assert kills >= MIN_KILLS, f"only {kills} kills in {BUDGET} s: the machine is too busy"
    # Not vacuous: the writers wrote many times, and some kills landed mid-write.
    assert len(seqs) >= kills // 4, (len(seqs), kills)
    assert mid_write > 0, f"no kill landed mid-write in {kills} kills (seed {seed})"
    leftover_state = [n for n in os.listdir(tmp / "state") if n.endswith(".tmp")]
    print(f"{kills} kills, {len(seqs)} seqs seen, {mid_write} mid-write, seed {seed}")
    print(f"state-dir temporaries left behind: {len(leftover_state)}")
