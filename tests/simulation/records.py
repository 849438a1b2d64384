"""Invoice numbers in simulated records: Sioul's side of the handover, as docs/integration.md
tells a Sioul to number.

Each computer keeps its own log of invoices in the sharing folder (``records/<computer>.log``),
synced like any file but later than the claims (`lag`). A computer whose tray says it acts on
invoices makes one every NUMBER_EVERY seconds: first it checks `must_have` (every other
computer's `wrote` mark, from the claims it read, reached by that computer's records here), then
(and its own log reaching its own mark: a sync may bring back an older copy of it) it numbers
one past the highest number in its replica, writes the record with its token, and
has the tray take its mark (`Driver.mark`: carried in the claim at once), in the same instant.
At the end, every log is merged: a number made twice is a duplicate, whatever the lease said.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .world import Computer, World

NUMBER_EVERY = 900.0  # a keeper makes an invoice this often (true seconds)
FOLDER = "records"


def log_of(computer: str) -> str:
    return f"{FOLDER}/{computer}.log"


def read_log(path: Path) -> list[tuple[int, str]]:
    """(number, token) of each record in one log; a log not there yet is empty."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        number, _, token = line.partition(" ")
        out.append((int(number), token))
    return out


class Numberer:
    """Sioul on every simulated computer. `gate`: check `must_have` before numbering (False:
    the duplicate it prevents shows); `lag`: how much later than a claim a record arrives
    (seconds, drawn uniformly, on top of the sync's own delay)."""

    def __init__(self, world: World, seed: int, gate: bool = True,
                 lag: tuple[float, float] = (0.0, 1800.0)) -> None:  # fmt: skip
        self.world = world
        self.gate = gate
        self.lag = lag
        self.rng = random.Random(f"records/{seed}")  # its own: the lease's timeline is unchanged

    def start(self, computer: Computer) -> None:
        self.world.after(self.rng.uniform(0, NUMBER_EVERY), self._attempt, computer)

    def delay(self) -> float:
        return self.rng.uniform(*self.lag)

    def _attempt(self, c: Computer) -> None:
        self.world.after(NUMBER_EVERY, self._attempt, c)
        if c.running and c.acting["invoices"] and c.lease is not None and c.driver is not None:
            self.number(c)

    def number(self, c: Computer) -> None:
        assert c.lease is not None and c.driver is not None
        m = self.world.measures
        logs = {p.stem: read_log(p) for p in (c.replica / FOLDER).glob("*.log")}
        held = {computer: len(records) for computer, records in logs.items()}
        claims = c.lease.last_read("invoices").claims
        if self.gate and any(
            k.computer != c.id and k.wrote > held.get(k.computer, 0) for k in claims
        ):
            m.gated += 1  # must_have: another keeper's records have not arrived yet
            return
        mine = next((k for k in claims if k.computer == c.id), None)
        if mine is not None and held.get(c.id, 0) < mine.wrote:
            # Its own log here went back (a flaky sync restored an older copy): records its own
            # claim marked are missing, so it waits for them, as the example numberer refuses.
            m.gated += 1
            return
        number = max((n for records in logs.values() for n, _ in records), default=0) + 1
        token = f"{c.id}.{mine.tenure if mine is not None else '-'}"
        path = c.replica / log_of(c.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="ascii") as f:
            f.write(f"{number} {token}\n")
        c.client.local_changed(log_of(c.id))
        refused = c.driver.mark("invoices", held.get(c.id, 0) + 1, token)
        assert refused is None, refused  # the record and its mark are one instant here
        m.numbered += 1
        self.world.log(c, f"invoice {number} ({token})")

    def duplicates(self) -> int:
        """Numbers made twice, over every computer's own log (each the writer's whole)."""
        numbers = [n for c in self.world.computers.values()
                   for n, _ in read_log(c.replica / log_of(c.id))]  # fmt: skip
        return len(numbers) - len(set(numbers))
