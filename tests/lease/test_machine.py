"""The state machine through its one door, `Machine.step`: what each event asks of the shell.

The protocol's cases (never twice, claims alone, the model checker) drive the same door through a
real `Lease` or `tests/model`; this module holds what `Ready` says for each kind of event.
"""

from __future__ import annotations

import dataclasses

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.lease import ALIVE as STATE_EVERY  # renewals are saved within ALIVE
from sioul_tray.lease import RENEW, SETTLING, Claim
from sioul_tray.lease.keeper import FRESH
from sioul_tray.lease.machine import (
    Close,
    Event,
    Forget,
    Heard,
    Look,
    Machine,
    Ready,
    Renew,
    Saved,
)
from sioul_tray.lease.rules import EVERY_FIX, Fixes

T0 = 1_750_000_000.0
TICK0 = 1000.0


class Clock:
    """Wall and ticks moving together, as a computer that neither sleeps nor is set."""

    def __init__(self) -> None:
        self.wall, self.tick = T0, TICK0

    def advance(self, seconds: float) -> tuple[float, float]:
        self.wall += seconds
        self.tick += seconds
        return self.wall, self.tick


def machine(part: str = "invoices", me: str = "aa", created: bool = True) -> Machine:
    return Machine(part, me, me.upper(), created=created, tenure=iter(range(1, 10**6)).__next__)


def step(m: Machine, event: Event, at: tuple[float, float]) -> Ready:
    return m.step(event, *at)


def test_a_renew_gives_the_claim_to_write_after_the_state_and_the_verdict() -> None:
    m, clock = machine(), Clock()
    first = step(m, Renew(), (clock.wall, clock.tick))
    assert first.claim is not None and not first.claim.closed
    assert first.claim.computer == "aa" and first.claim.tenure is not None
    # News (a first claim): the state file must hold it before the claim goes out.
    assert first.save_due(clock.tick)
    assert first.verdict is not None and first.verdict.computer == "aa" and not first.verdict.acting
    saved = step(m, Saved(), (clock.wall, clock.tick))
    assert saved.save_by is None and saved.claim is None and saved.verdict is None


def test_mere_renewals_are_saved_at_most_every_state_every() -> None:
    m, clock = machine(), Clock()
    step(m, Renew(), (clock.wall, clock.tick))
    step(m, Saved(), (clock.wall, clock.tick))
    saved_at = clock.tick
    renewed = step(m, Renew(), clock.advance(RENEW))
    assert renewed.save_by == saved_at + STATE_EVERY
    assert not renewed.save_due(clock.tick) and renewed.save_due(saved_at + STATE_EVERY)


def test_the_creator_alone_acts_once_settled_and_its_claim_says_so_after() -> None:
    m, clock = machine(), Clock()
    step(m, Renew(), (clock.wall, clock.tick))
    settled = step(m, Renew(), clock.advance(SETTLING))
    assert settled.verdict is not None and settled.verdict.acting
    assert settled.claim is not None and settled.claim.acting is False  # written before it acted
    after = step(m, Renew(), clock.advance(RENEW))
    assert after.claim is not None and after.claim.acting is True


def test_a_close_writes_a_closed_claim_and_says_no_verdict() -> None:
    m, clock = machine(), Clock()
    step(m, Renew(), (clock.wall, clock.tick))
    closed = step(m, Close(), clock.advance(RENEW))
    assert closed.claim is not None and closed.claim.closed and closed.claim.tenure is None
    assert closed.claim.acting is False and closed.verdict is None
    assert closed.save_due(clock.tick)  # a close is news


def test_a_look_writes_nothing() -> None:
    m, clock = machine(), Clock()
    looked = step(m, Look(), (clock.wall, clock.tick))
    assert looked.claim is None and looked.verdict is not None and looked.verdict.computer is None


def test_a_read_takes_in_the_claims_and_reports_a_stale_copy() -> None:
    m, clock = machine(me="bb", created=False), Clock()
    other = _claim("aa", seq=5, renewed=int(clock.wall))
    heard = step(m, Heard([other]), (clock.wall, clock.tick))
    assert heard.problems == () and heard.claim is None
    looked = step(m, Look(), clock.advance(1))
    assert looked.verdict is not None and looked.verdict.computer == "aa"
    stale = dataclasses.replace(other, seq=4)
    again = step(m, Heard([dataclasses.replace(other, seq=6)]), clock.advance(1))
    assert again.problems == ()
    older = step(m, Heard([stale], where={"aa": "overlay: aa.lease"}), clock.advance(1))
    assert [place for place, _ in older.problems] == ["overlay: aa.lease"]
    assert "stale copy" in older.problems[0][1]


def test_the_seal_comes_with_each_read() -> None:
    m, clock = machine(), Clock()
    step(m, Heard([], sealed="the sharing folder was sealed again"), (clock.wall, clock.tick))
    step(m, Renew(), clock.advance(1))
    blocked = step(m, Renew(), clock.advance(SETTLING))
    assert blocked.verdict is not None and not blocked.verdict.acting
    assert blocked.verdict.blocked == "the sharing folder was sealed again"
    step(m, Heard([]), clock.advance(1))  # the seal is back
    back = step(m, Renew(), clock.advance(RENEW))
    assert back.verdict is not None and back.verdict.blocked is None


def test_a_forget_declares_the_computer_in_the_claim() -> None:
    m, clock = machine(me="bb", created=False), Clock()
    step(m, Heard([_claim("aa", seq=9, renewed=int(clock.wall))]), (clock.wall, clock.tick))
    step(m, Renew(), clock.advance(1))
    assert m.knowledge.plan_forget("aa", clock.wall) is not None  # asked first: it fits
    forgot = step(m, Forget("aa"), clock.advance(1))
    assert forgot.claim is not None and forgot.claim.forgets == {"aa": 9}
    assert forgot.save_due(clock.tick) and forgot.verdict is None


def _claim(computer: str, **fields: object) -> Claim:
    base = Claim(computer, "invoices", computer.upper(), 1, int(T0) - 100, int(T0), int(T0))
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def test_a_tenure_kept_for_days_remembers_only_the_writes_an_answer_may_still_name() -> None:
    m, clock = machine(), Clock()
    first = step(m, Renew(), (clock.wall, clock.tick)).claim
    assert first is not None
    for _ in range(2 * FRESH // RENEW):  # two days of renewals, never closed: one tenure
        step(m, Renew(), clock.advance(RENEW))
    assert m.knowledge.tenure == first.tenure
    assert len(m.knowledge.written) == FRESH // RENEW + 1
    # An answer to the first version is too old to count, remembered or not; a fresh one counts.
    mine = m.knowledge.best["aa"]
    for answered, counts in ((first, False), (mine, True)):
        now = int(clock.wall)
        bb = _claim("bb", seq=now, since=now, renewed=now, sees="aa",
                    sees_tenure=answered.tenure, sees_seq=answered.seq)  # fmt: skip
        step(m, Heard([mine, bb]), clock.advance(1))
        verdict = step(m, Look(), (clock.wall, clock.tick)).verdict
        assert verdict is not None and verdict.computer == "aa"
        assert verdict.acting is counts, verdict


# -- S6, a mark never goes back (`Fixes.marks_kept`) ----------------------------------------


def marks_machine(kept: bool, me: str = "aa", remembers: bool = True) -> Machine:
    return Machine(
        "invoices",
        me,
        me.upper(),
        created=True,
        remembers=remembers,
        tenure=iter(range(1, 10**6)).__next__,
        fixes=EVERY_FIX if kept else Fixes(marks_kept=False),
    )


@pytest.mark.parametrize("kept", [True, False])
def test_the_highest_mark_read_of_each_computer_stands(kept: bool) -> None:
    """A reader keeps, per computer, the highest `wrote` it read (what `must_have` says): a newer
    claim with a lower mark (its writer restarted from an older copy) or an older copy with a
    higher one never lowers it."""
    m, clock = marks_machine(kept), Clock()
    now = int(clock.wall)
    bb = _claim("bb", seq=now, renewed=now, wrote=5)
    step(m, Heard([bb]), (clock.wall, clock.tick))
    lower = dataclasses.replace(bb, seq=now + 60, renewed=now + 60, wrote=2)
    step(m, Heard([lower]), clock.advance(60))
    assert m.knowledge.best["bb"].seq == now + 60
    assert m.knowledge.best["bb"].wrote == (5 if kept else 2)
    older = dataclasses.replace(bb, seq=now - 60, wrote=7)  # stale, but with a higher mark
    stale = step(m, Heard([older]), clock.advance(1))
    assert "stale copy" in stale.problems[0][1]
    assert m.knowledge.best["bb"].wrote == (7 if kept else 2)
    assert m.knowledge.best["bb"].seq == now + 60  # the rest is the newest copy's


@pytest.mark.parametrize("kept", [True, False])
def test_a_mark_is_saved_before_the_claim_that_carries_it(kept: bool) -> None:
    m, clock = marks_machine(kept), Clock()
    step(m, Renew(), (clock.wall, clock.tick))
    step(m, Saved(), (clock.wall, clock.tick))
    marked = step(m, Renew(wrote=5), clock.advance(RENEW))
    assert marked.claim is not None and marked.claim.wrote == 5
    assert marked.save_due(clock.tick) is kept  # off: within ALIVE, as a mere renewal


@pytest.mark.parametrize("kept", [True, False])
def test_a_mark_is_never_written_lower(kept: bool) -> None:
    """Not by a lower mark asked, nor after an older copy of its own claim: a restart takes the
    highest mark it finds among its own copies (its state, its claim in the folder)."""
    m, clock = marks_machine(kept), Clock()
    step(m, Renew(wrote=5), (clock.wall, clock.tick))
    lower = step(m, Renew(wrote=3), clock.advance(RENEW)).claim
    assert lower is not None and lower.wrote == (5 if kept else 3)
    mine = m.knowledge.best["aa"]
    again = Machine("invoices", "aa", "AA", created=True, remembered=m.knowledge.memory,
                    fixes=m.knowledge.seat.fixes)  # fmt: skip
    older = dataclasses.replace(mine, seq=mine.seq - 1, wrote=9)  # its own copy, marked higher
    step(again, Heard([older]), clock.advance(RENEW))
    renewed = step(again, Renew(), clock.advance(1)).claim
    assert renewed is not None and renewed.wrote == (9 if kept else mine.wrote)


@pytest.mark.parametrize("kept", [True, False])
def test_a_lost_state_makes_the_mark_unknown_until_the_person_confirms(kept: bool) -> None:
    m, clock = marks_machine(kept, remembers=False), Clock()
    now = int(clock.wall)
    before = _claim("aa", seq=now - 600, renewed=now - 600, wrote=2)  # from before this run
    step(m, Heard([before]), (clock.wall, clock.tick))
    step(m, Renew(), clock.advance(1))
    settled = step(m, Renew(), clock.advance(SETTLING))
    verdict = settled.verdict
    assert verdict is not None and verdict.here
    assert settled.claim is not None and settled.claim.wrote == 2
    if not kept:
        assert verdict.acting  # the creator alone, on mark 2: records 3 to 5 void
        return
    assert not verdict.acting and verdict.blocked is not None
    assert "records mark on invoices is unknown" in verdict.blocked
    assert verdict.status.cause == "mark"
    assert not step(m, Renew(wrote=5), clock.advance(RENEW)).verdict.acting  # type: ignore[union-attr]
    confirmed = step(m, Renew(wrote=5, confirm=True), clock.advance(RENEW))
    assert confirmed.claim is not None and confirmed.claim.wrote == 5
    assert confirmed.save_due(clock.tick)
    assert confirmed.verdict is not None and confirmed.verdict.blocked is None
    assert not m.knowledge.mark_unknown


@pytest.mark.parametrize("unproven", [True, False])
def test_while_the_mark_is_unknown_its_claims_hand_nothing_on(unproven: bool) -> None:
    """`Fixes.marks_unproven` (S6): bb took invoices; aa, its mark unknown, acknowledges itself
    alone, writes no close, and declares nobody in a closed claim, until the person confirms."""
    fixes = EVERY_FIX if unproven else Fixes(marks_unproven=False)
    m = Machine("invoices", "aa", "AA", created=True, remembers=False, fixes=fixes)
    clock = Clock()
    now = int(clock.wall)
    before = _claim("aa", seq=now - 600, renewed=now - 600, wrote=2, closed=True)
    bb = _claim("bb", seq=now, renewed=now, taken=now, tenure=7)
    step(m, Heard([before, bb]), (clock.wall, clock.tick))
    assert m.knowledge.mark_unknown
    if unproven:  # a declaration in its closed claim would be a close bb may count
        with pytest.raises(SioulError, match="records mark on invoices is unknown"):
            m.knowledge.plan_forget("bb", clock.wall)
    renewed = step(m, Renew(), clock.advance(1)).claim
    assert renewed is not None and renewed.wrote == 2
    assert renewed.sees == ("aa" if unproven else "bb")
    if unproven:
        assert (renewed.sees_tenure, renewed.sees_seq) == (renewed.tenure, renewed.seq)
    closed = step(m, Close(), clock.advance(RENEW)).claim
    assert (closed is None) is unproven
    step(m, Heard([bb]), clock.advance(RENEW))
    confirmed = step(m, Renew(wrote=5, confirm=True), clock.advance(1)).claim
    assert confirmed is not None and confirmed.sees == "bb" and confirmed.wrote == 5
    assert confirmed.sees_tenure == 7


def test_a_lost_state_leaves_the_medicines_mark_alone() -> None:
    """Medicines are never numbered: a lost state does not stop the reminders."""
    m = Machine("medicines", "aa", "AA", created=True, remembers=False)
    clock = Clock()
    now = int(clock.wall)
    before = dataclasses.replace(_claim("aa", seq=now - 600, renewed=now - 600), part="medicines")
    step(m, Heard([before]), (clock.wall, clock.tick))
    step(m, Renew(), clock.advance(1))
    settled = step(m, Renew(), clock.advance(SETTLING))
    assert settled.verdict is not None and settled.verdict.acting
