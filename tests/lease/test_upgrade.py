"""A folder during an upgrade: claims written by the version before tenures beside this one's.

An old claim is a 12-field row without `tenure`, `sees_tenure` and `sees_seq`. It never
acknowledges a tenure, and this version never names an old keeper for invoices: a mixed folder
numbers invoices only while the old computer is closed, or once every computer is upgraded
(docs/protocol.md, "Upgrading").
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from sioul_tray.lease import RENEW, Claim, Lease
from sioul_tray.lease.statefile import state_file
from sioul_tray.share import Share
from tests.helpers import FakeClock
from tests.lease.leasekit import row_of, seal_row

INV = "invoices"


class OldComputer:
    """A computer running the version before tenures: it writes 12-field claims by hand."""

    def __init__(self, share: Share, cid: str, clock: FakeClock) -> None:
        self.share, self.cid, self.clock = share, cid, clock
        self.seq = int(clock.now)
        self.since = int(clock.now)

    def write(self, part: str, sees: str | None, closed: bool = False) -> None:
        self.seq += 1
        now = int(self.clock.now)
        claim = Claim(self.cid, part, self.cid.upper(), self.seq, self.since, now, now,
                      closed=closed, sees=sees)  # fmt: skip
        folder = self.share.folder / "leases" / part
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{self.cid}.lease"
        (folder / name).write_bytes(seal_row(self.share, part, name, row_of(claim)[:12]))


def test_an_old_answer_never_counts_for_a_tenure(share: Share, clock: FakeClock) -> None:
    a = Lease(share, "aa", name="AA", clock=clock)
    old = OldComputer(share, "bb", clock)
    a.renew(INV)
    for _ in range(5):
        clock.advance(RENEW)
        old.write(INV, sees="aa")  # it sees aa keep invoices, as the old version writes
        k = a.renew(INV)
    assert k.computer == "aa" and k.settled and not k.acting and k.waiting == ("bb",)
    # The old computer sleeps (closes): aa numbers.
    old.write(INV, sees="aa", closed=True)
    clock.advance(RENEW)
    assert a.renew(INV).acting


def test_an_old_keeper_is_never_named_for_invoices(share: Share, clock: FakeClock) -> None:
    old = OldComputer(share, "aa", clock)  # the oldest claim: it keeps invoices
    old.write(INV, sees="aa")
    clock.advance(RENEW)
    b = Lease(share, "bb", name="BB", clock=clock)
    k = b.renew(INV)
    assert k.computer == "aa"
    mine = next(c for c in b.claims(INV) if c.computer == "bb")
    assert mine.sees is None and mine.sees_tenure is None  # the old keeper cannot count it
    # Medicines: a majority by name, as before; this version names the old keeper there.
    old.write("medicines", sees="aa")
    b.renew("medicines")
    mine = next(c for c in b.claims("medicines") if c.computer == "bb")
    assert mine.sees == "aa"


def test_once_upgraded_one_numbers_again(share: Share, clock: FakeClock) -> None:
    old = OldComputer(share, "aa", clock)
    old.write(INV, sees="aa")
    b = Lease(share, "bb", name="BB", clock=clock)
    kb = b.renew(INV)
    assert kb.computer == "aa" and not kb.acting
    clock.advance(RENEW)
    a = Lease(share, "aa", name="AA", clock=clock)  # upgraded: same id, same folder
    for _ in range(4):
        ka, kb = a.renew(INV), b.renew(INV)
        clock.advance(RENEW)
    ka, kb = a.renew(INV), b.renew(INV)
    # aa's restart opened a new claim: bb's is now the oldest, and it numbers (acknowledged).
    assert ka.computer == kb.computer == "bb"
    assert kb.acting and not ka.acting


def test_an_old_state_file_keeps_its_declarations(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    old = OldComputer(share, "zz", clock)
    old.write(INV, sees="zz")
    a = Lease(share, "aa", name="AA", clock=clock, state_dir=tmp_path)
    a.renew(INV)
    path = state_file(tmp_path, share.folder_id, "aa")
    head, _, body = path.read_text().partition("\n")
    header = json.loads(head)
    header.update(version=1, forgets={INV: {"zz": [old.seq, int(clock.now)]}})  # as v1 wrote it
    path.write_text(json.dumps(header) + "\n" + body)
    again = Lease(share, "aa", name="AA", clock=clock, state_dir=tmp_path)
    assert again.state_problem is None
    clock.advance(RENEW)
    again.renew(INV)
    mine = next(c for c in again.claims(INV) if c.computer == "aa")
    assert mine.forgets == {"zz": old.seq}
    assert dataclasses.replace(mine, forgets={}).tenure is not None
