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

import pytest

from sioul_tray.lease import RENEW, SETTLING, Claim, Lease
from sioul_tray.lease.rules import EVERY_FIX, Fixes
from sioul_tray.lease.statefile import state_file
from sioul_tray.share import Share
from tests.helpers import FakeClock
from tests.lease.leasekit import row_of, seal_row, seal_text
from tests.lease.replicas import Replicas, acting

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


# -- closes of the first rules, read after an upgrade ------------------------------------------


def _old_night(r: Replicas) -> None:
    """aa and bb ran the first rules (no tenures, no closes rule, state files of version 1): aa
    kept invoices, closed for the night, bb read that close and closed too, and aa's tray read
    bb's close before it quit. Both replicas hold both closes, and each state file both."""
    t = int(r.clocks["aa"].now)
    closes = {
        "aa": Claim("aa", INV, "AA", t + 5, t - 3600, t + 5, t - 60, closed=True, sees="aa"),
        "bb": Claim("bb", INV, "BB", t + 9, t - 1800, t + 9, t - 60, closed=True, sees="bb"),
    }
    texts = {c: json.dumps(row_of(cl)[:12], separators=(",", ":")) for c, cl in closes.items()}
    for c in closes:
        for to in r.ids:
            r.claim_file(to, c).parent.mkdir(parents=True, exist_ok=True)
            r.claim_file(to, c).write_bytes(seal_text(r.shares[to], INV, f"{c}.lease", texts[c]))
        path = state_file(r.root / "state" / c, r.shares[c].folder_id, c)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = json.dumps({"version": 1, "forgets": {}})
        path.write_text(header + "\n" + "".join(f"{INV}\t{texts[o]}\n" for o in closes))


@pytest.mark.parametrize("fixed", [True, False])
def test_two_closes_of_the_first_rules_are_not_both_counted(tmp_path: Path, fixed: bool) -> None:
    """Two computers on the first rules both closed for the night, each having read the other's
    close; overnight both are upgraded, and in the morning both trays start while the sync is
    down. Neither close says whom its writer's other closes named (the first rules kept no such
    memory): each may count any close of the other's, so neither counts the other's (S4). Once
    the sync is back, one numbers.

    On the core before (`fixed=False`: `Fixes.upgraded_closes` off), each counted the other's old
    close and both numbered."""
    r = Replicas(tmp_path, ["aa", "bb"])
    _old_night(r)
    r.advance(8 * 3600)
    fixes = EVERY_FIX if fixed else Fixes(upgraded_closes=False)
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    assert a.state_problem is None and b.state_problem is None
    both = 0
    for _ in range(SETTLING // RENEW + 5):  # the sync is down
        ka, kb = a.renew(INV), b.renew(INV)
        both += ka.acting and kb.acting
        r.advance(RENEW)
    if not fixed:
        assert both, "the core before: both count the other's old close"
        return
    assert not both and not ka.acting and not kb.acting
    assert ka.waiting == ("bb",) and kb.waiting == ("aa",)
    assert ka.status is not None and ka.status.waiting[0].closed
    waited = 0
    while not (ka.acting or kb.acting) and waited < SETTLING + 10 * RENEW:  # the sync is back
        r.sync_all()
        r.advance(RENEW)
        waited += RENEW
        ka, kb = a.renew(INV), b.renew(INV)
        assert not (ka.acting and kb.acting)
    # Both opened at once: aa, the smaller id, keeps invoices once bb acknowledges it.
    assert acting(ka, kb) == ["aa"] and waited <= 2 * RENEW, (ka, kb, waited)
