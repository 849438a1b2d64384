"""Several computers, each with its own Lease and clock, on one real sealed folder."""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.lease import (
    ALIVE,
    NEAR,
    RENEW,
    SETTLING,
    UNCLOSED,
    FolderOverlay,
    Keeper,
    Lease,
)
from sioul_tray.lease import ALIVE as STATE_EVERY  # renewals are saved within ALIVE
from sioul_tray.lease.codec import MAX_FILE
from sioul_tray.lease.lease import WallTimes
from sioul_tray.share import Share
from tests.helpers import FakeClock


def computer(share: Share, cid: str, clock: FakeClock, state: Path | None = None) -> Lease:
    """Another computer on the same folder: its own Share object, clock and state."""
    own = Share.unlock(share.folder, share.folder_key)
    return Lease(own, cid, name=cid.upper(), clock=clock, state_dir=state)


def tick(clock: FakeClock, seconds: float, *leases: Lease, part: str = "invoices") -> list[Keeper]:
    """Time passes; every running computer renews, as the tray does each RENEW."""
    clock.advance(seconds)
    return [lease.renew(part) for lease in leases]


def run(clock: FakeClock, seconds: float, *leases: Lease, part: str = "invoices") -> list[Keeper]:
    keepers: list[Keeper] = []
    for _ in range(int(seconds // RENEW)):
        keepers = tick(clock, RENEW, *leases, part=part)
    return keepers


def claim_path(share: Share, part: str, cid: str) -> Path:
    return share.folder / "leases" / part / f"{cid}.lease"


# -- one computer ---------------------------------------------------------------------------


def test_the_creator_alone_acts_after_settling(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    first = a.renew("invoices")
    assert first.here and first.computer == "aa" and first.name == "AA"
    assert first.others_heard and not first.settled and not first.acting
    clock.advance(SETTLING - 1)
    assert not a.renew("invoices").acting
    clock.advance(1)
    k = a.renew("invoices")
    assert k.settled and k.acting and k.since == first.since


def test_shown_times_hold_still_whatever_the_fraction_of_a_second(share: Share) -> None:
    # The tray rewrites status.json when what it shows changes: a "since" that flipped by a
    # second with where in its second the wall clock was read rewrote it at every tick.
    wall, ticks = FakeClock(1_800_000_000.9), FakeClock(5_000.0)
    own = Share.unlock(share.folder, share.folder_key)
    a = Lease(own, "aa", clock=wall, ticks=ticks)
    shown = set()
    for _ in range(8):
        k = a.renew("invoices")
        assert k.status is not None  # the state machine fills it
        shown.add((k.since, k.status.until))
        wall.advance(RENEW / 4 + 0.3)
        ticks.advance(RENEW / 4 + 0.3)
    assert shown == {(1_800_000_000, 1_800_000_000 + SETTLING)}


def test_a_joiner_that_read_nobody_does_not_act_alone(share: Share, clock: FakeClock) -> None:
    b = computer(share, "bb", clock)  # share made by "aa", whose claims never arrived
    keepers = run(clock, SETTLING * 3, b)
    assert keepers[-1].here and keepers[-1].settled
    assert not keepers[-1].others_heard and not keepers[-1].acting
    # Medicines follow the person: a majority of one, knowing nobody else.
    keepers = run(clock, SETTLING * 3, b, part="medicines")
    assert keepers[-1].acting


def test_look_does_not_claim(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    k = a.look("invoices")
    assert k.computer is None and not k.acting
    assert not (share.folder / "leases").exists()
    assert a.claims("invoices") == []


def test_unknown_part_is_a_clear_error(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    with pytest.raises(SioulError, match="unknown part 'tasks'"):
        a.renew("tasks")


def test_a_bad_computer_id_is_refused(share: Share) -> None:
    with pytest.raises(SioulError, match="not a computer id"):
        Lease(share, "Bad-Name")


# -- the claim file -------------------------------------------------------------------------


def test_the_claim_holds_what_the_contract_says(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    a.renew("invoices", active=clock.now - 30, wrote=5)
    clock.advance(RENEW)
    a.renew("invoices", take=True)
    (c,) = a.claims("invoices")
    assert (c.computer, c.part, c.name) == ("aa", "invoices", "AA")
    assert c.renewed == int(clock.now) and c.active == int(clock.now)
    assert c.since == int(clock.now) - RENEW  # the first renew of this run
    assert c.taken == int(clock.now) and not c.closed
    assert c.wrote == 5  # wrote=None keeps the last value
    assert c.sees == "aa" and c.forgets == {}


def test_active_in_the_future_is_clamped(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    a.renew("medicines", active=clock.now + 5000)
    assert a.claims("medicines")[0].active == int(clock.now)


def test_seq_goes_up_and_size_changes_at_every_write(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    path = claim_path(share, "invoices", "aa")
    seqs, sizes = [], []
    for i in range(6):
        # Same second, same content but seq: the size must still change.
        if i % 2:
            a.close("invoices")
        else:
            a.renew("invoices")
        seqs.append(a.claims("invoices")[0].seq)
        sizes.append(path.stat().st_size)
    assert all(b > x for x, b in itertools.pairwise(seqs))
    assert all(b != x for x, b in itertools.pairwise(sizes))
    assert max(sizes) <= MAX_FILE


def test_seq_goes_up_across_restarts_even_without_state(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    for _ in range(3):
        a.renew("invoices")
    last = a.claims("invoices")[0].seq
    again = computer(share, "aa", clock)  # reinstalled: no state, same id, same second
    again.renew("invoices")
    assert again.claims("invoices")[0].seq > last


def test_no_temporaries_are_left_and_leftovers_are_removed(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    a.renew("invoices")
    folder = claim_path(share, "invoices", "aa").parent
    assert sorted(os.listdir(folder)) == ["aa.lease"]
    (folder / ".~aa.dead.tmp").write_bytes(b"half a claim")
    (folder / ".~bb.dead.tmp").write_bytes(b"someone else's")
    computer(share, "aa", clock)
    assert sorted(os.listdir(folder)) == [".~bb.dead.tmp", "aa.lease"]


def test_a_missing_sharing_folder_is_not_recreated(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    shutil.rmtree(share.folder)
    with pytest.raises(SioulError, match=r"sharing folder .* is missing"):
        a.renew("invoices")
    assert not share.folder.exists()


# -- invoices: stays put, never twice ------------------------------------------------------


def settled_pair(share: Share, clock: FakeClock) -> tuple[Lease, Lease]:
    a, b = computer(share, "aa", clock), computer(share, "bb", clock)
    run(clock, SETTLING + 2 * RENEW, a, b)
    return a, b


def test_the_oldest_claim_keeps_invoices(share: Share, clock: FakeClock) -> None:
    a, b = settled_pair(share, clock)
    ka, kb = a.renew("invoices"), b.renew("invoices")
    assert ka.acting and ka.here
    assert kb.computer == "aa" and not kb.here and not kb.acting


def test_make_invoices_here_hands_over_after_acknowledgement(
    share: Share, clock: FakeClock
) -> None:
    a, b = settled_pair(share, clock)
    taken = b.renew("invoices", take=True)
    assert taken.here and not taken.acting and taken.waiting == ("aa",)
    # The old keeper stops the moment it reads the take, and acknowledges it in its claim.
    ka = a.renew("invoices")
    assert ka.computer == "bb" and not ka.acting
    # The new keeper has the acknowledgement but must still settle.
    kb = b.renew("invoices")
    assert kb.others_heard and not kb.settled and not kb.acting
    clock.advance(SETTLING)
    kb = b.renew("invoices")
    assert kb.acting and kb.since == taken.since
    # The take is kept across closes and restarts: it still keeps invoices when back.
    b.close("invoices")
    assert a.renew("invoices").computer == "aa"
    b2 = computer(share, "bb", clock)
    assert b2.renew("invoices").computer == "bb"


def upload(src: Path, dst: Path) -> None:
    """A sync tool delivering one file: a temporary, then a rename."""
    tmp = dst.parent / f".syncthing.{dst.name}.tmp"
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


def test_a_stalled_download_delays_the_handover_instead_of_doubling(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    # a has its own replica of the folder; the real folder is b's. The sync copies a's claim up
    # and b's claim down, until a's downloads stall.
    replica = tmp_path / "a-replica"
    replica.mkdir()
    shutil.copy(share.folder / "sioul.seal", replica / "sioul.seal")
    a = Lease(Share.unlock(replica, share.folder_key), "aa", name="AA", clock=clock)
    b = computer(share, "bb", clock)

    def sync(down: bool) -> None:
        for part in ("invoices",):
            mine, theirs = claim_path(a.share, part, "aa"), claim_path(share, part, "bb")
            if mine.exists():
                theirs.parent.mkdir(parents=True, exist_ok=True)
                upload(mine, claim_path(share, part, "aa"))
            if down and theirs.exists():
                mine.parent.mkdir(parents=True, exist_ok=True)
                upload(theirs, claim_path(a.share, part, "bb"))

    def step(down: bool) -> tuple[Keeper, Keeper]:
        clock.advance(RENEW)
        ka = a.renew("invoices")
        sync(down)
        kb = b.renew("invoices")
        sync(down)
        return ka, kb

    for _ in range(5):
        ka, kb = step(down=True)
    assert ka.acting and not kb.acting
    b.renew("invoices", take=True)
    for _ in range(10):  # a's downloads stall: it never reads the take
        ka, kb = step(down=False)
        assert ka.computer == "aa" and kb.computer == "bb"
        assert not kb.acting and kb.waiting == ("aa",)
    assert ka.acting  # a numbers on: it never heard the take, so b must not
    # The stall ends: a reads the take, stops, acknowledges; only then does b number.
    sync(down=True)
    ka, kb = step(down=True)
    assert ka.computer == "bb" and not ka.acting
    assert kb.acting


def test_a_crashed_keeper_holds_invoices_for_unclosed(day_share: Share, clock: FakeClock) -> None:
    _, b = settled_pair(day_share, clock)
    # a crashes: no close. b keeps waiting for a day, and says for whom.
    keepers = run(clock, ALIVE * 3, b)
    assert keepers[-1].computer == "aa" and not keepers[-1].acting
    clock.advance(UNCLOSED - ALIVE * 3 + RENEW)
    kb = b.renew("invoices")
    assert kb.computer == "bb" and kb.here
    # With two computers, "a is gone" cannot be told from "my sync stopped": b waits.
    clock.advance(SETTLING)
    kb = b.renew("invoices")
    assert kb.settled and not kb.acting and kb.waiting == ("aa",)


def test_forget_lets_the_person_end_the_wait(day_share: Share, clock: FakeClock) -> None:
    a, b = settled_pair(day_share, clock)
    run(clock, ALIVE * 3, b)
    b.forget("aa")
    kb = run(clock, SETTLING + RENEW, b)[-1]
    # aa may be only cut off, numbering on b's last acknowledgement: the declaration counts once
    # that has expired, and b says when.
    assert not kb.acting and kb.status is not None
    (waited,) = kb.status.waiting
    assert waited.computer == "aa" and waited.counts_from is not None
    assert waited.counts_from - clock.now > UNCLOSED - ALIVE * 4
    clock.advance(waited.counts_from - clock.now - RENEW)
    assert not b.renew("invoices").acting
    keepers = run(clock, SETTLING + 2 * RENEW, b)
    assert keepers[-1].computer == "bb" and keepers[-1].acting
    # If a comes back, its next claim has a higher seq and counts again.
    ka = a.renew("invoices")
    assert not ka.acting
    kb = b.renew("invoices")
    assert kb.computer == "aa" and not kb.acting


def test_forget_needs_a_claim(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    with pytest.raises(SioulError, match="no claim of 'zz'"):
        a.forget("zz")
    with pytest.raises(SioulError, match="itself"):
        a.forget("aa")


def test_a_silent_computer_waits_for_the_person(day_share: Share, clock: FakeClock) -> None:
    a, b = settled_pair(day_share, clock)
    c = computer(day_share, "cc", clock)
    run(clock, SETTLING + RENEW, a, b, c)
    # bb crashes; a day later aa, which still hears cc, still waits for it: on invoices silence
    # never makes a computer gone (S4, `Fixes.silence_never_counts`: cut off, bb may be
    # numbering on declarations its person made). The person says so: it counts at once.
    run(clock, UNCLOSED + SETTLING + 2 * RENEW, a, c)
    ka, kc = a.renew("invoices"), c.renew("invoices")
    assert not ka.acting and ka.waiting == ("bb",) and kc.computer == "aa" and not kc.acting
    a.forget("bb")
    ka, kc = run(clock, SETTLING + 2 * RENEW, a, c)
    assert ka.acting and kc.computer == "aa" and not kc.acting


def test_a_silent_keeper_waits_for_the_person(day_share: Share, clock: FakeClock) -> None:
    a, b = settled_pair(day_share, clock)
    c = computer(day_share, "cc", clock)
    run(clock, SETTLING + RENEW, a, b, c)
    # aa, the keeper, crashes: bb and cc hear each other, yet its silence alone does not make
    # it gone (cut off, it may be numbering on its person's declarations).
    kb, kc = run(clock, UNCLOSED + SETTLING + 2 * RENEW, b, c)
    assert kb.computer == "bb" and not kb.acting and kb.waiting == ("aa",) and not kc.acting
    b.forget("aa")  # the person says so: it counts at once, aa's last answer a day old
    kb, kc = run(clock, SETTLING + 2 * RENEW, b, c)
    assert kb.acting and not kc.acting


def test_a_keeper_cut_off_from_everyone_stops_before_others_take_over(
    day_share: Share, clock: FakeClock, memory_path: Path
) -> None:
    a, b = settled_pair(day_share, clock)
    c = computer(day_share, "cc", clock)
    run(clock, SETTLING + RENEW, a, b, c)
    # a's sync stops both ways: it renews into a private copy of the folder.
    alone = memory_path / "a-alone"
    shutil.copytree(day_share.folder, alone)
    a_alone = Lease(Share.unlock(alone, day_share.folder_key), "aa", clock=clock)
    stopped_at = None
    took_over_at = None
    for minute in range((UNCLOSED + 2 * SETTLING) // RENEW + 6):
        if minute == (UNCLOSED + SETTLING) // RENEW:
            # No silence alone replaces a keeper (cut off, it may be numbering on declarations
            # made there): the others wait until their person says aa is gone.
            assert stopped_at is not None and took_over_at is None
            b.forget("aa")
        ka, kb, _ = tick(clock, RENEW, a_alone, b, c)
        if stopped_at is None and not ka.acting:
            stopped_at = clock.now
        if took_over_at is None and kb.acting:
            took_over_at = clock.now
    assert stopped_at is not None and took_over_at is not None
    assert stopped_at < took_over_at


# -- medicines: follows the person --------------------------------------------------------


def test_medicines_follow_the_person_after_settling(share: Share, clock: FakeClock) -> None:
    a, b = computer(share, "aa", clock), computer(share, "bb", clock)
    person_at = {"aa": clock.now}

    def step() -> tuple[Keeper, Keeper]:
        clock.advance(RENEW)
        if person_at.get("aa"):
            person_at["aa"] = clock.now
        return (
            a.renew("medicines", active=person_at.get("aa", 0) or None),
            b.renew("medicines", active=person_at.get("bb", clock.now - 7200)),
        )

    for _ in range(4):
        ka, kb = step()
    assert ka.acting and not kb.acting
    # The person leaves a (its active stops moving) and sits at b.
    last_at_a = person_at.pop("aa")
    person_at["aa"] = 0
    moves = []
    for _ in range(8):
        clock.advance(RENEW)
        person_at["bb"] = clock.now
        ka = a.renew("medicines", active=last_at_a)
        kb = b.renew("medicines", active=clock.now)
        moves.append((ka.acting, kb.acting))
    # Tied within NEAR first (the smaller id keeps it), then b; never both at once.
    assert all(not (x and y) for x, y in moves)
    assert moves[-1] == (False, True)
    assert kb.since is not None and kb.since - last_at_a > NEAR


def test_a_stalled_computer_does_not_remind_alone_among_three(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    leases = [computer(share, cid, clock) for cid in ("aa", "bb", "cc")]
    for _ in range(5):
        clock.advance(RENEW)
        leases[0].renew("medicines", active=clock.now - 9000)
        leases[1].renew("medicines", active=clock.now)  # the person is at bb
        leases[2].renew("medicines", active=clock.now - 9000)
    # cc's downloads stall: it only ever reads its frozen copy, where bb's claims go stale.
    frozen = tmp_path / "cc-view"
    shutil.copytree(share.folder, frozen)
    cc_view = Lease(Share.unlock(frozen, share.folder_key), "cc", clock=clock)
    for _ in range(12):
        clock.advance(RENEW)
        leases[0].renew("medicines", active=clock.now - 9000)
        kb = leases[1].renew("medicines", active=clock.now)
        kc = cc_view.renew("medicines", active=clock.now - 9000)
        # cc's uploads still arrive: copy its claim into the real folder.
        src = frozen / "leases" / "medicines" / "cc.lease"
        shutil.copyfile(src, share.folder / "leases" / "medicines" / ".~cc.up.tmp")
        os.replace(
            share.folder / "leases" / "medicines" / ".~cc.up.tmp",
            share.folder / "leases" / "medicines" / "cc.lease",
        )
        assert kb.acting
        assert not (kc.here and kc.acting)


# -- heard, by this computer's clock --------------------------------------------------------


def test_liveness_is_judged_by_my_clock_not_theirs(share: Share, clock: FakeClock) -> None:
    ahead = FakeClock(clock.now + 3600)  # a's clock is an hour fast
    a = computer(share, "aa", ahead)
    b = computer(share, "bb", clock)
    t0 = int(clock.now)
    a.renew("medicines")
    assert b.renew("medicines").computer == "aa"  # the latest active, by a's fast clock
    assert b.clock_offsets("medicines") == {"aa": 3600}
    assert b.heard("medicines")["aa"] == t0
    # a crashes. By b's clock it lapses ALIVE after b heard it, not an hour later.
    clock.advance(ALIVE)
    assert b.look("medicines").computer == "aa"
    clock.advance(RENEW)
    assert b.renew("medicines").computer == "bb"


def test_a_claim_first_read_long_after_it_was_written_is_dead(
    share: Share, clock: FakeClock
) -> None:
    a = computer(share, "aa", clock)
    a.renew("medicines")
    clock.advance(ALIVE + 1)
    b = computer(share, "bb", clock)  # starts now: the first read is heard at min(now, renewed)
    assert b.heard("medicines") == {}
    k = b.look("medicines")
    assert k.computer is None
    assert b.heard("medicines")["aa"] == int(clock.now) - ALIVE - 1


def test_the_last_read_says_when_each_was_heard_as_it_stood_then(
    share: Share, clock: FakeClock
) -> None:
    a = computer(share, "aa", clock)
    b = computer(share, "bb", clock)
    a.renew("invoices")
    b.renew("invoices")
    clock.advance(RENEW)
    a.renew("invoices")
    b.renew("invoices")
    seen = b.last_read("invoices")
    assert dict(seen.heard) == b.heard("invoices") == {"aa": int(clock.now), "bb": int(clock.now)}
    assert seen.heard.get("cc") is None and "cc" not in seen.heard and len(seen.heard) == 2
    clock.advance(RENEW)
    a.renew("invoices")
    b.renew("invoices")
    assert seen.heard["aa"] == int(clock.now) - RENEW  # the answer of its own read, kept


def test_the_claims_are_listed_by_computer_whatever_order_they_came_in(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    # The snapshot copies the machine's table, which keeps itself in computer order as computers
    # appear: read in one go, one by one, this computer's own claim last, after a restart.
    ids = ["mm", "cc", "zz", "aa", "kk", "bb"]
    state = tmp_path / "state"
    here = computer(share, "hh", clock, state=state)
    for cid in ids[:3]:
        computer(share, cid, clock).renew("invoices")
    here.look("invoices")
    for cid in ids[3:]:
        computer(share, cid, clock).renew("invoices")
        here.look("invoices")
    expected = sorted(ids)
    assert [c.computer for c in here.last_read("invoices").claims] == expected
    here.renew("invoices")
    expected = sorted([*ids, "hh"])
    assert [c.computer for c in here.last_read("invoices").claims] == expected
    assert [c.computer for c in here.claims("invoices")] == expected
    clock.advance(RENEW)
    again = computer(share, "hh", clock, state=state)  # the state file's table, then a read
    assert [c.computer for c in again.claims("invoices")] == expected


def test_wall_times_leave_out_what_was_not_heard_in_this_run() -> None:
    # A computer remembered from the state file has no time until a read hears it.
    times = WallTimes({"aa": None, "bb": 5.5}, 1000.25, 10.0)
    assert list(times) == ["bb"] and len(times) == 1
    assert times["bb"] == 995 and times.get("aa") is None and "aa" not in times
    with pytest.raises(KeyError):
        times["aa"]


def test_a_stale_copy_is_ignored_and_reported_also_after_a_restart(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    a = computer(share, "aa", clock)
    b = computer(share, "bb", clock, state=tmp_path / "b-state")
    a.renew("invoices", take=True)
    old = claim_path(share, "invoices", "aa").read_bytes()
    clock.advance(RENEW)
    a.renew("invoices")
    b.look("invoices")
    a.close("invoices")
    b.look("invoices")
    # The sync tool restores the old, open, taken copy.
    claim_path(share, "invoices", "aa").write_bytes(old)
    assert b.claims("invoices")[0].closed
    assert any("stale copy" in why for _, why in b.problems("invoices"))
    b_again = computer(share, "bb", clock, state=tmp_path / "b-state")
    assert b_again.claims("invoices")[0].closed
    assert any("stale copy" in why for _, why in b_again.problems("invoices"))


def test_a_vanished_claim_stands_and_lapses(
    day_share: Share, clock: FakeClock, memory_path: Path
) -> None:
    state = memory_path / "b-state"
    a = computer(day_share, "aa", clock)
    b = computer(day_share, "bb", clock, state=state)
    run(clock, SETTLING + 2 * RENEW, a, b)
    claim_path(day_share, "invoices", "aa").unlink()  # an evicted placeholder, say
    kb = b.renew("invoices")
    assert kb.computer == "aa"  # the last good copy stands
    # It survives a restart through the local state...
    b2 = computer(day_share, "bb", clock, state=state)
    assert [c.computer for c in b2.claims("invoices")] == ["aa", "bb"]
    assert b2.renew("invoices").computer == "aa"
    # ...and lapses like any other claim: a part that stays put is held for UNCLOSED.
    run(clock, UNCLOSED - 3 * RENEW, b2)
    assert b2.renew("invoices").computer == "aa"
    run(clock, 4 * RENEW, b2)
    assert b2.renew("invoices").computer == "bb"


# -- settling and jumps ---------------------------------------------------------------------


@pytest.mark.parametrize("jump", [3 * RENEW, -3 * RENEW, 86400])
def test_a_clock_jump_restarts_settling(share: Share, clock: FakeClock, jump: int) -> None:
    """Slept or stopped without telling the lease, or the clock was set: settle again."""
    a = computer(share, "aa", clock)  # ticks made from the fake clock (`Steady`)
    run(clock, SETTLING + RENEW, a)
    assert a.renew("invoices").acting
    clock.advance(jump)
    k = a.renew("invoices")
    assert not k.settled and not k.acting and k.since == int(clock.now)
    clock.advance(SETTLING)
    assert a.renew("invoices").acting


@pytest.mark.parametrize("jump", [-3 * RENEW, -3600, 3 * RENEW, 86400])
def test_a_wall_clock_set_ages_nothing_and_only_settles_again(
    share: Share, clock: FakeClock, jump: int
) -> None:
    """On ticks (a clock never set), a wall clock set back or forward, by any amount, leaves
    hearing and acknowledgements as they were; settling starts again, as the contract says, so
    the keeper numbers again SETTLING later."""
    ticks = FakeClock(1000.0)
    own = Share.unlock(share.folder, share.folder_key)
    a = Lease(own, "aa", name="AA", clock=clock, ticks=ticks)
    b = computer(share, "bb", clock)
    for _ in range(3):
        a.renew("invoices"), b.renew("invoices")
        clock.advance(RENEW)
        ticks.advance(RENEW)
    assert a.renew("invoices").acting
    heard = a.heard("invoices")["bb"]
    clock.advance(jump)
    k = a.renew("invoices")
    assert k.computer == "aa" and not k.settled and k.others_heard
    assert a.heard("invoices")["bb"] == heard + jump  # the same moment, read on the new clock
    assert a.claims("invoices")[0].renewed == int(clock.now)
    ticks.advance(SETTLING)
    clock.advance(SETTLING)
    b.renew("invoices")
    assert a.renew("invoices").acting


def test_a_small_gap_keeps_settling(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    run(clock, SETTLING + RENEW, a)
    since = a.renew("invoices").since
    clock.advance(2 * RENEW)
    assert a.renew("invoices").since == since


def test_close_resets_settling_and_reopens_with_a_new_since(share: Share, clock: FakeClock) -> None:
    a = computer(share, "aa", clock)
    run(clock, SETTLING + RENEW, a)
    a.close("invoices", wrote=42)
    (c,) = a.claims("invoices")
    assert c.closed and c.wrote == 42
    assert a.look("invoices").computer is None
    clock.advance(RENEW)
    k = a.renew("invoices")
    assert not k.settled and k.since == int(clock.now)
    assert a.claims("invoices")[0].since == int(clock.now) and a.claims("invoices")[0].wrote == 42


def test_close_without_a_claim_writes_nothing(share: Share, clock: FakeClock) -> None:
    computer(share, "aa", clock).close("invoices")
    assert not (share.folder / "leases" / "invoices" / "aa.lease").exists()


# -- state and overlays ---------------------------------------------------------------------


def test_state_keeps_forgets_and_the_last_copies(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    settled_pair(share, clock)
    b_state = computer(share, "bb", clock, state=tmp_path / "s")
    b_state.renew("invoices")
    b_state.forget("aa")
    again = computer(share, "bb", clock, state=tmp_path / "s")
    clock.advance(RENEW)
    again.renew("invoices")
    mine = next(c for c in again.claims("invoices") if c.computer == "bb")
    assert "aa" in mine.forgets


def test_a_damaged_state_file_is_not_fatal(share: Share, clock: FakeClock, tmp_path: Path) -> None:
    a = computer(share, "aa", clock, state=tmp_path / "s")
    a.renew("invoices")
    (state,) = (tmp_path / "s").iterdir()
    state.write_bytes(b"\xff\xfe garbage")
    again = computer(share, "aa", clock, state=tmp_path / "s")
    assert again.state_problem is not None
    assert again.renew("invoices").computer == "aa"


def test_an_overlay_copy_merges_by_seq(share: Share, clock: FakeClock, tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    remote.mkdir()
    overlay = FolderOverlay(remote, name="server")
    a = Lease(Share.unlock(share.folder, share.folder_key), "aa", clock=clock, overlays=[overlay])
    a.renew("invoices")
    assert (remote / "leases" / "invoices" / "aa.lease").exists()  # published
    # b only reaches the server: its folder copy never arrived.
    other = tmp_path / "b-folder"
    shutil.copytree(share.folder, other)
    b = Lease(Share.unlock(other, share.folder_key), "bb", clock=clock, overlays=[overlay])
    clock.advance(RENEW)
    b.renew("invoices", take=True)
    ka = a.renew("invoices")
    assert ka.computer == "bb"
    assert {c.computer for c in a.claims("invoices")} == {"aa", "bb"}


def test_the_state_file_follows_news_at_once_and_renewals_within_state_every(
    share: Share, clock: FakeClock, tmp_path: Path
) -> None:
    a = computer(share, "aa", clock)
    b = computer(share, "bb", clock, state=tmp_path / "s")
    a.renew("invoices")
    b.look("invoices")
    (state,) = (tmp_path / "s").iterdir()
    first = state.read_text()
    clock.advance(10)
    a.renew("invoices")
    b.look("invoices")  # a mere renewal: not written yet
    assert state.read_text() == first
    a.close("invoices")
    b.look("invoices")  # a close: written at once
    closed = state.read_text()
    assert closed != first
    a.renew("invoices")
    b.look("invoices")  # reopened (a new since): written at once
    reopened = state.read_text()
    assert reopened != closed
    for _ in range(STATE_EVERY // RENEW - 1):
        clock.advance(RENEW)
        a.renew("invoices")
        b.look("invoices")  # renewals within STATE_EVERY of the last write
        assert state.read_text() == reopened
    clock.advance(RENEW)
    a.renew("invoices")
    b.look("invoices")
    assert state.read_text() != reopened


def test_a_woken_keeper_waits_for_fresh_answers(
    day_share: Share, clock: FakeClock, memory_path: Path
) -> None:
    """bb numbers, sleeps (closed), aa takes over; bb wakes before its sync has caught up.

    Under the contract's words, bb's old view (aa acknowledging bb, heard within UNCLOSED - ALIVE)
    lets it number again after SETTLING while aa numbers too. The acknowledgement must be heard
    since bb's claim reopened (found by the simulation; docs/reliability.md).
    """
    replica = memory_path / "b-replica"
    replica.mkdir()
    shutil.copy(day_share.folder / "sioul.seal", replica / "sioul.seal")
    a = computer(day_share, "aa", clock)
    b = Lease(Share.unlock(replica, day_share.folder_key), "bb", name="BB", clock=clock)

    def sync(down: bool = True) -> None:
        mine = claim_path(b.share, "invoices", "bb")
        if mine.exists():
            claim_path(day_share, "invoices", "bb").parent.mkdir(parents=True, exist_ok=True)
            upload(mine, claim_path(day_share, "invoices", "bb"))
        theirs = claim_path(day_share, "invoices", "aa")
        if down and theirs.exists():
            mine.parent.mkdir(parents=True, exist_ok=True)
            upload(theirs, claim_path(b.share, "invoices", "aa"))

    def step(*leases: Lease, down: bool = True) -> list[Keeper]:
        clock.advance(RENEW)
        keepers = []
        for lease in leases:
            keepers.append(lease.renew("invoices"))
            sync(down)
        return keepers

    for _ in range(3):
        step(a, b)
    b.renew("invoices", take=True)
    sync()
    for _ in range(4):
        ka, kb = step(a, b)
    assert kb.acting and not ka.acting
    b.close("invoices")  # sleep: the close gets out, then the machine sleeps
    sync(down=False)
    for _ in range(4):
        (ka,) = step(a, down=False)  # bb sleeps: nothing reaches its replica
    assert ka.computer == "aa" and ka.acting  # bb closed: aa took over
    # bb wakes; its downloads have not caught up yet.
    for _ in range(6):
        (kb,) = step(b, down=False)
        assert kb.computer == "bb" and not kb.acting, "bb numbers on answers read before it slept"
    # Its sync catches up: aa numbered last, and the take it inherited outranks bb's (issue 42),
    # so invoices stay with aa, which bb answers. bb's person takes them again: aa answers that
    # fresh tenure, and bb numbers once settled.
    sync()
    ka, kb = step(a, b)
    assert ka.computer == "aa" and kb.computer == "aa" and not kb.acting
    b.renew("invoices", take=True)
    sync()
    for _ in range(SETTLING // RENEW + 2):
        ka, kb = step(a, b)
        assert not (ka.acting and kb.acting)
    assert kb.acting and not ka.acting and ka.computer == "bb"


# -- the sync tool is told ---------------------------------------------------------------------


def test_each_claim_file_is_told_once_whole(share: Share, clock: FakeClock) -> None:
    told: list[tuple[Path, str]] = []

    def wrote(path: Path) -> None:
        # What the sync tool would send now: the whole claim, readable by everyone else.
        told.append((path, share.unseal(f"leases/{path.parent.name}/{path.name}",
                                        path.read_bytes()).decode()))  # fmt: skip

    a = Lease(share, "aa", clock=clock, wrote_file=wrote)
    a.renew("invoices")
    a.renew("medicines")
    a.close("invoices")
    assert [(p.relative_to(share.folder).as_posix(), '"aa"' in text) for p, text in told] == [
        ("leases/invoices/aa.lease", True),
        ("leases/medicines/aa.lease", True),
        ("leases/invoices/aa.lease", True),
    ]
    a.look("invoices")  # reads, writes nothing: nothing to send
    assert len(told) == 3


def test_a_failing_hint_never_fails_the_write(share: Share, clock: FakeClock) -> None:
    def broken(path: Path) -> None:
        raise RuntimeError("the sync tool's client broke")

    a = Lease(share, "aa", clock=clock, wrote_file=broken)
    a.renew("invoices")
    assert [c.computer for c in computer(share, "bb", clock).claims("invoices")] == ["aa"]


def test_a_keeper_that_took_the_part_is_shown_since_its_take_not_since_this_start(
    share: Share, clock: FakeClock
) -> None:
    """Found trying it: a tray started at 06:21 showed "Office PC (since 06:21)" for a keeper
    that took invoices at 06:12. Since a take, as its claim says (its clock), where that is
    earlier than this computer first saw it; since its reopening where it closed after."""
    office, laptop = computer(share, "office", clock), computer(share, "laptop", clock)
    run(clock, 2 * RENEW, office, laptop)
    took = int(clock.now)
    office.renew("invoices", take=True)
    run(clock, 9 * RENEW, office, laptop)
    late = computer(share, "laptop2", clock)  # a tray started just now, on another computer
    status = late.renew("invoices").status
    assert status is not None and status.keeper == "office"
    assert status.since == took < int(clock.now)
    office.close("invoices")  # the evening...
    clock.advance(3600)
    reopened = int(clock.now)
    office.renew("invoices")  # ...and the morning: its take stands from the reopening
    status = computer(share, "laptop3", clock).renew("invoices").status
    assert status is not None and status.keeper == "office" and status.since == reopened
