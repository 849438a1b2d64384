"""A computer's own past going back (issue 39, classes 3 and 5b), on real replicas synced by hand.

Class 3, "a backup restores both copies": the state directory and the computer's own claim file
come back from one backup, so nothing this computer reads of itself says what it did since.
Class 5b, "a reinstalled creator acts on an empty view": the folder's creator, its state lost,
starts while its folder downloads again. Each test runs with the fix off (the bad outcome) and on.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sioul_tray.lease import RENEW, UNCLOSED, Keeper, Lease
from sioul_tray.lease.rules import EVERY_FIX, Fixes
from sioul_tray.lease.status import Why
from tests.lease.replicas import Replicas, acting, in_use

INV = "invoices"
EVENING, NIGHT = 3600, 8 * 3600


def who_numbers(r: Replicas, *leases: Lease, minutes: int = 6) -> tuple[set[str], list[Keeper]]:
    """Every tray renews each minute, the sync down: who numbered in the same minute as another,
    and the last verdicts."""
    together: set[str] = set()
    last: list[Keeper] = []
    for _ in range(minutes):
        r.advance(RENEW)
        last = [lease.renew(INV) for lease in leases]
        now = acting(*last)
        if len(now) > 1:
            together.update(now)
    return together, last


@pytest.mark.parametrize("fixed", [False, True])
def test_a_backup_restores_the_state_and_the_own_claim(tmp_path: Path, fixed: bool) -> None:
    """aa and bb in use; bb's state directory and its own claim file are backed up. A minute
    later aa has read a newer bb. Case 7's evening: aa sleeps (its close answers that newer
    version of bb's), then bb (its close names aa, the heir). Overnight bb's disk comes back from
    the backup, both copies; in the morning both wake while the sync is down. aa counts bb's
    close, rightly: bb's close named it. bb's state reads whole and its own claim is as old: it
    knows of no close of its own, and counts aa's. Both number (with the fix off).

    With the fix (S7), bb reads in aa's close an answer to a version of its own newer than any
    it knows: its memory went back. It distrusts as after a lost state and takes back that it
    may have closed after that version, and its records mark is unknown (`marks_forgotten`):
    blocked until its person confirms the mark, then it waits for aa, and still waits a day
    later, aa cut off and numbering on bb's close all along (closes never lapse)."""
    fixes = EVERY_FIX if fixed else Fixes(restored=False, own_past_read=False)
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    in_use(r, a, b)
    backup = tmp_path / "backup"
    shutil.copytree(tmp_path / "state" / "bb", backup / "state")
    own = r.claim_file("bb", "bb").read_bytes()
    in_use(r, a, b, rounds=2)  # aa reads newer versions of bb's claim than the backup holds
    a.close(INV)
    r.sync_all()
    r.advance(EVENING)
    b.close(INV)
    r.sync_all()
    r.advance(NIGHT)
    shutil.rmtree(tmp_path / "state" / "bb")
    shutil.copytree(backup / "state", tmp_path / "state" / "bb")
    r.deliver(own, "bb", "bb")  # bb's own claim file, as old as its state
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    assert b.state_problem is None  # the old state file reads whole: it is trusted
    together, (ka, kb) = who_numbers(r, a, b)
    if not fixed:
        assert together == {"aa", "bb"}
        return
    assert not together and ka.acting  # aa, the heir, numbers; bb waits for it
    assert kb.status.why is Why.BLOCKED and kb.status.cause == "mark"
    b.renew(INV, wrote=0, confirm=True)  # its person confirms its mark (Sioul numbered none)
    together, (ka, kb) = who_numbers(r, a, b, minutes=1)
    assert not together and ka.acting
    assert kb.status.why is Why.WAITING and [w.computer for w in kb.status.waiting] == ["aa"]
    r.advance(UNCLOSED)  # a day on, the sync still down: bb trusts again, aa still numbers
    together, (ka, kb) = who_numbers(r, a, b)
    assert not together and ka.acting and not kb.acting
    r.sync_all()  # the sync comes back: aa keeps invoices, bb answers it
    together, (ka, kb) = who_numbers(r, a, b, minutes=1)
    r.sync_all()
    together, (ka, kb) = who_numbers(r, a, b, minutes=3)
    assert not together and ka.acting and kb.computer == "aa"


def waits_once_its_mark_is_confirmed(
    r: Replicas, forgot: Lease, keeper: Lease, last: tuple[Keeper, Keeper]
) -> None:
    """`forgot` found a past it forgot (`own_past_read`): its records mark is unknown until its
    person confirms it (`marks_forgotten`), then it waits for `keeper`, which numbers all along.
    `last`: aa's and bb's last verdicts."""
    pair = sorted((forgot, keeper), key=lambda lease: lease.computer)  # aa, bb
    verdicts = {lease.computer: k for lease, k in zip(pair, last, strict=True)}
    assert verdicts[keeper.computer].acting and not verdicts[forgot.computer].acting
    mine = verdicts[forgot.computer].status
    assert mine.why is Why.BLOCKED and mine.cause == "mark"
    forgot.renew(INV, wrote=0, confirm=True)
    together, now = who_numbers(r, *pair)
    verdicts = {lease.computer: k for lease, k in zip(pair, now, strict=True)}
    assert not together and verdicts[keeper.computer].acting
    assert not verdicts[forgot.computer].acting
    waiting = verdicts[forgot.computer].status.waiting
    assert [w.computer for w in waiting] == [keeper.computer]


def bb_keeps_invoices(r: Replicas, fixes: Fixes) -> tuple[Lease, Lease]:
    """aa and bb in use; bb took invoices and numbers: their trays."""
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    in_use(r, a, b)
    b.renew(INV, take=True)
    r.sync_all()
    in_use(r, a, b, rounds=5)
    assert acting(a.renew(INV), b.renew(INV)) == ["bb"]
    return a, b


def reinstalled(r: Replicas, c: str, *, keep_own: bool) -> None:
    """`c` is reinstalled on its machine (its id kept in its configuration) and its folder
    downloads again: its state directory is gone, and of the claim files only its own is back
    yet (`keep_own`), or none."""
    shutil.rmtree(r.root / "state" / c)
    for part in ("invoices", "medicines"):
        for f in (r.folder(c) / "leases" / part).glob("*.lease"):
            if not (keep_own and f.stem == c):
                f.unlink()


@pytest.mark.parametrize("fixed", [False, True])
def test_a_reinstalled_creator_does_not_act_on_an_empty_view(tmp_path: Path, fixed: bool) -> None:
    """aa made the folder; bb took invoices and numbers. aa is reinstalled on its machine while
    its folder downloads again: no state, no claim file yet. With the fix off, aa, the seal's
    creator, acts alone on its empty view after SETTLING beside bb (S2). With it, aa cannot show
    that it made the folder (no state file): it waits as a joiner. Once the download brings
    bb's claim, which says it read aa's claims from before, aa knows it forgot a past: its
    records mark is unknown (`marks_forgotten`), and bb waits until aa's person confirms it;
    then aa is a member like any other: bb keeps invoices."""
    fixes = EVERY_FIX if fixed else Fixes(lone_creator=False)
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = bb_keeps_invoices(r, fixes)
    reinstalled(r, "aa", keep_own=False)
    a = r.lease("aa", fixes=fixes)
    together, (ka, kb) = who_numbers(r, a, b, minutes=10)
    if not fixed:
        assert together == {"aa", "bb"}
        return
    # "Invoices: here, waiting to hear another computer", as a joiner shows it.
    assert not together and kb.acting and not ka.acting and ka.status.why is Why.ALONE
    in_use(r, a, b, rounds=5)  # the download is done: aa hears bb
    together, (ka, kb) = who_numbers(r, a, b, minutes=3)
    assert not together and not kb.acting and [w.computer for w in kb.status.waiting] == ["aa"]
    assert ka.status.why is Why.ELSEWHERE and ka.status.cause == "mark"  # the menu says so
    a.renew(INV, wrote=0, confirm=True)  # its person confirms its mark: aa answers bb
    in_use(r, a, b, rounds=2)
    together, (ka, kb) = who_numbers(r, a, b, minutes=3)
    assert not together and kb.acting and ka.computer == "bb"


@pytest.mark.parametrize("fixed", [False, True])
def test_a_reinstalled_creator_alone_is_not_blocked(tmp_path: Path, fixed: bool) -> None:
    """aa made the folder and is its only computer. Reinstalled, its folder downloading again,
    it waits while it can show nothing; once it reads a claim of its own from its earlier run
    that knew nobody, it numbers alone again. One that knew others waits for them (above). The
    setup's own first run, its state begun as it sealed the folder, numbers alone at once."""
    fixes = EVERY_FIX if fixed else Fixes(lone_creator=False)
    r = Replicas(tmp_path, ["aa"])
    a = r.lease("aa", fixes=fixes)
    in_use(r, a, rounds=3)
    assert a.renew(INV).acting  # the first run: its state file begun by the setup
    reinstalled(r, "aa", keep_own=True)
    a = r.lease("aa", fixes=fixes)
    _, (ka,) = who_numbers(r, a, minutes=4)
    # Its state lost, it cannot prove the records' mark its old claim carries (S6,
    # `Fixes.marks_kept`): it waits for the person's word, then numbers alone.
    assert not ka.acting and ka.status.cause == "mark"
    a.renew(INV, wrote=0, confirm=True)  # no record made: its mark is 0
    _, (ka,) = who_numbers(r, a, minutes=4)
    assert ka.acting


def test_a_reinstalled_creator_that_knew_others_waits_for_them(tmp_path: Path) -> None:
    """aa's claim from its earlier run, the first file its download brings back, says it read
    bb's: reinstalled, aa waits for bb (the claim names it), as a joiner would."""
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = r.lease("aa"), r.lease("bb")
    in_use(r, a, b)
    b.renew(INV, take=True)
    r.sync_all()
    in_use(r, a, b, rounds=5)
    reinstalled(r, "aa", keep_own=True)
    a = r.lease("aa")
    together, (ka, _) = who_numbers(r, a, b, minutes=10)
    assert not together and not ka.acting


@pytest.mark.parametrize("fixed", [False, True])
def test_a_computer_that_lost_its_state_and_its_own_claim_learns_its_past(
    tmp_path: Path, fixed: bool
) -> None:
    """The "lost" path the checker's walks met (issue 39): case 7's evening (bb sleeps, its close
    naming aa, then aa, the heir, its close naming nobody). Overnight bb loses its state
    directory and its own claim file with it; the others' claims stay in its replica. In the
    morning both wake while the sync is down. Nothing of its own tells bb it closed: with the
    fix off it counts aa's close, aa counts bb's forgotten one, and both number (S4).

    With the fix (`own_past_read`), aa's close says it read bb's claim at a seq this run did not
    write (`Claim.reads`): bb had a past here it forgot. It distrusts as after a lost state and
    takes back its closes, its records mark unknown until its person confirms it: then it
    waits for aa, the heir, which numbers."""
    fixes = EVERY_FIX if fixed else Fixes(own_past_read=False)
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    in_use(r, a, b)
    b.close(INV)
    r.sync_all()
    r.advance(EVENING)
    a.close(INV)
    r.sync_all()
    r.advance(NIGHT)
    shutil.rmtree(tmp_path / "state" / "bb")
    r.claim_file("bb", "bb").unlink()
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    together, (ka, kb) = who_numbers(r, a, b)
    if not fixed:
        assert together == {"aa", "bb"}
        return
    assert not together
    waits_once_its_mark_is_confirmed(r, b, a, (ka, kb))


@pytest.mark.parametrize("fixed", [False, True])
def test_a_state_file_put_back_counts_no_close_its_own_claim_read_past(
    tmp_path: Path, fixed: bool
) -> None:
    """Found by the model checker with every other fix on ('overnight', 8 events). bb, then aa
    close for the night; aa's state directory is backed up then (it holds bb's close). In the
    morning both open, bb takes invoices, aa answers it, and bb numbers. aa's tray crashes;
    its state directory comes back from the backup while its own claim file stays as it is,
    and its replica shows bb's close again (a stale copy the sync brings back). With the fix off, aa
    counts that close, its state's memory, and numbers beside bb (S4, then two numbering).
    With it, aa's own claim says it read a newer claim of bb's (`reads`): the close is old, and
    aa waits for bb until the sync brings bb's claim."""
    fixes = EVERY_FIX if fixed else Fixes(reads_kept=False)
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = r.lease("aa", fixes=fixes), r.lease("bb", fixes=fixes)
    in_use(r, a, b, rounds=4)
    assert acting(a.renew(INV), b.renew(INV)) == ["aa"]
    b.close(INV)
    r.sync_all()
    r.advance(RENEW)
    a.close(INV)
    r.sync_all()
    closed = r.claim_file("aa", "bb").read_bytes()
    backup = tmp_path / "backup"
    shutil.copytree(tmp_path / "state" / "aa", backup / "state")
    r.advance(NIGHT)
    in_use(r, b, a, rounds=1)  # both open again
    b.renew(INV, take=True)  # "Make invoices here" on bb; aa answers it
    r.sync_all()
    in_use(r, b, a, rounds=4)
    assert acting(a.renew(INV), b.renew(INV)) == ["bb"]
    r.sync_all()
    shutil.rmtree(tmp_path / "state" / "aa")  # aa's tray crashed; its state comes back old
    shutil.copytree(backup / "state", tmp_path / "state" / "aa")
    r.deliver(closed, "bb", "aa")  # and a stale copy of bb's close in its replica
    a = r.lease("aa", fixes=fixes)
    together, (ka, kb) = who_numbers(r, a, b)
    if not fixed:
        assert together == {"aa", "bb"}
        return
    assert not together and kb.acting and not ka.acting
    assert ka.status.why is Why.WAITING and [w.computer for w in ka.status.waiting] == ["bb"]
    r.sync_all()  # the sync comes back: aa answers bb, which keeps invoices
    together, (ka, kb) = who_numbers(r, a, b, minutes=1)
    r.sync_all()
    together, (ka, kb) = who_numbers(r, a, b, minutes=3)
    assert not together and kb.acting and ka.computer == "bb"


@pytest.mark.parametrize("fixed", [False, True])
def test_a_declaration_shows_the_declared_computer_its_past(tmp_path: Path, fixed: bool) -> None:
    """Found by the model checker with every fix on ('forgotten', 5 events). bb takes invoices;
    in the evening bb sleeps, then aa quits, its close naming bb. bb's person, bb asleep,
    declares aa gone: bb's claim then says no version of aa read (`reads` leaves a declared
    computer out). aa loses its state directory and its own claim file, and starts reading
    bb's claim; bb wakes to aa's close and counts it, rightly. The sync down, a day later aa's
    person declares bb gone. Nothing read tells aa it closed: with the fix off its declaration
    counts at once, as of a closed claim, and both number (S4).

    With it (`own_past_read`), the declaration in bb's claim names the version of aa's it
    declared gone, from before this run: aa had a past here it forgot. It distrusts and takes
    back its closes, so its declaration of bb waits until bb is heard past them (once its
    person confirms its records mark, unknown as well)."""
    fixes = EVERY_FIX if fixed else Fixes(own_past_read=False)
    r = Replicas(tmp_path, ["aa", "bb"])
    a, b = bb_keeps_invoices(r, fixes)
    b.close(INV)
    r.sync_all()
    r.advance(EVENING)
    a.close(INV)  # aa quits last
    quit_close = r.version("aa")  # bb has not read it yet: the sync is down overnight
    r.advance(NIGHT)
    b.forget("aa")
    r.sync("bb", "aa")
    shutil.rmtree(tmp_path / "state" / "aa")
    r.claim_file("aa", "aa").unlink()
    a = r.lease("aa", fixes=fixes)
    a.renew(INV)
    r.deliver(quit_close, "aa", "bb")
    b.renew(INV)  # bb wakes to aa's close, which names it
    r.advance(UNCLOSED)
    a.forget("bb")
    together, (ka, kb) = who_numbers(r, a, b)
    if not fixed:
        assert together == {"aa", "bb"}
        return
    assert not together
    waits_once_its_mark_is_confirmed(r, a, b, (ka, kb))
