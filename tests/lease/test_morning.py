"""The morning after (issue 42): when every computer has closed, the one that numbered last
before they all did numbers alone on waking, whichever order they were quit in.

aa ("Office PC") took invoices; both computers run and sync; then both quit, in either order.
The next morning one of them starts alone (its sync has nothing new to bring). On the core
before, the close written last named the latest take (aa) whoever numbered last: quitting aa
first handed invoices to bb, which numbered, yet bb's own close named aa, so bb alone waited
for aa in the morning, and when aa came up, invoices went back to aa. Now a computer that numbers
invoices it did not take records them as its take (`Knowledge.inherits`): the latest take is the
computer that numbered last (docs/protocol.md, "Closed claims").

Every call is judged by the invariants (tests/lease/conftest.py): both woken offline never both
number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.lease import RENEW, SETTLING, Keeper, Lease
from tests.lease.replicas import Replicas, acting, in_use

INV = "invoices"
NIGHT = 10 * 3600
# Each order of quitting: who quits first, who last (and so numbered last before all closed).
ORDERS = [("aa", "bb"), ("bb", "aa")]


def evening(r: Replicas, first: str, last: str) -> dict[str, Lease]:
    """aa takes invoices and numbers with bb beside it; `first` quits, then `last` (which numbers
    in between when it did not already); the sync delivers every close. The trays are down."""
    trays = {c: r.lease(c) for c in ("aa", "bb")}
    trays["aa"].renew(INV, take=True)
    r.sync_all()
    in_use(r, *trays.values(), rounds=SETTLING // RENEW + 2)
    assert acting(*(t.renew(INV) for t in trays.values())) == ["aa"]
    trays[first].close(INV)
    r.sync_all()
    keeper = keep_renewing(r, trays[last])
    assert keeper.acting, f"{last} numbers once {first} quit"
    trays[last].close(INV)
    r.sync_all()
    r.advance(NIGHT)
    return trays


def keep_renewing(r: Replicas, tray: Lease, minutes: int = 5) -> Keeper:
    keeper = tray.renew(INV)
    for _ in range(minutes):
        r.advance(RENEW)
        keeper = tray.renew(INV)
    return keeper


@pytest.mark.parametrize(("first", "last"), ORDERS)
def test_the_last_to_number_numbers_alone_in_the_morning(
    tmp_path: Path, first: str, last: str
) -> None:
    r = Replicas(tmp_path, ["aa", "bb"])
    evening(r, first, last)
    morning = r.lease(last)
    keeper = keep_renewing(r, morning)
    assert keeper.acting, f"{last} numbered last: alone the next morning it numbers"


@pytest.mark.parametrize(("first", "last"), ORDERS)
def test_the_other_waits_for_it_and_says_it_numbered_last(
    tmp_path: Path, first: str, last: str
) -> None:
    r = Replicas(tmp_path, ["aa", "bb"])
    evening(r, first, last)
    morning = r.lease(first)
    keeper = keep_renewing(r, morning)
    assert not keeper.acting and keeper.waiting == (last,)
    assert keeper.status is not None
    (waited,) = keeper.status.waiting
    assert waited.closed and waited.last  # "waiting for bb, which numbered last: start it"


@pytest.mark.parametrize(("first", "last"), ORDERS)
def test_started_as_told_the_last_one_keeps_invoices(tmp_path: Path, first: str, last: str) -> None:
    """`first` alone waits; the person starts `last` for a minute with its sync running, as the
    menu says: `last` keeps invoices (it numbered last) and numbers, and invoices do not go back
    to aa for having taken them once."""
    r = Replicas(tmp_path, ["aa", "bb"])
    evening(r, first, last)
    waiting, told = r.lease(first), r.lease(last)
    in_use(r, waiting, told, rounds=SETTLING // RENEW + 2)
    kw, kt = waiting.renew(INV), told.renew(INV)
    assert acting(kw, kt) == [last] and kw.computer == last


@pytest.mark.parametrize(("first", "last"), ORDERS)
def test_a_take_while_waiting_keeps_invoices_here(tmp_path: Path, first: str, last: str) -> None:
    """`first` alone waits; the person chooses "Make invoices here" there, then starts `last`
    with its sync running: once `last` has been heard, `first` numbers, and `last` never does."""
    r = Replicas(tmp_path, ["aa", "bb"])
    evening(r, first, last)
    here = r.lease(first)
    keep_renewing(r, here)
    here.renew(INV, take=True)
    r.advance(RENEW)
    assert not here.renew(INV).acting
    other = r.lease(last)
    seen: set[str] = set()
    for _ in range(3):
        r.sync_all()
        kh, ko = here.renew(INV), other.renew(INV)
        seen.update(acting(kh, ko))
        r.advance(RENEW)
    assert seen == {first}, "once the other is heard, invoices are numbered where they were taken"


@pytest.mark.parametrize(("first", "last"), ORDERS)
def test_both_woken_offline_never_both_number(tmp_path: Path, first: str, last: str) -> None:
    """Both computers start the next morning while the sync is down: only the one that numbered
    last numbers (the invariants are judged after every call too)."""
    r = Replicas(tmp_path, ["aa", "bb"])
    evening(r, first, last)
    a, b = r.lease("aa"), r.lease("bb")
    seen: set[str] = set()
    for _ in range(8):
        r.advance(RENEW)
        now = acting(a.renew(INV), b.renew(INV))
        assert len(now) < 2
        seen.update(now)
    assert seen == {last}


def test_a_take_inherited_never_outranks_a_persons_take_not_read_yet(tmp_path: Path) -> None:
    """aa and bb in use, nobody took invoices; aa quits, bb numbers on its close and records
    them as its take. Meanwhile the person took invoices on cc, whose claim has not reached bb
    yet. When it does, cc's take stands: the take bb inherited is just above the closed claims'
    (none here), not the clock's."""
    r = Replicas(tmp_path, ["aa", "bb", "cc"])
    a, b = r.lease("aa"), r.lease("bb")
    in_use(r, a, b)
    c = r.lease("cc")
    c.renew(INV, take=True)  # the person's take, cut off from bb
    r.advance(RENEW)
    a.close(INV)
    r.sync("aa", "bb")
    keeper = keep_renewing(r, b)
    assert keeper.acting
    mine = b.knowledge(INV).best["bb"]
    assert mine.taken is not None and mine.taken < r.clocks["cc"].now - 3 * RENEW
    r.sync("cc", "bb")
    r.sync("bb", "cc")
    r.advance(RENEW)
    kb, kc = b.renew(INV), c.renew(INV)
    assert kb.computer == "cc" and kc.computer == "cc" and not kb.acting
