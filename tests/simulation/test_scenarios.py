"""Every scenario, smaller: a few seeds, hours instead of days (the long run: docs/reliability.md).

What is asserted, and why it follows from the spec:

- invoices never act on two computers at once, in every scenario (the part's "never twice"),
  and no invoice number is made twice in records that sync later than the claims;
- medicines neither, where every transfer arrives within SETTLING - RENEW (the settling time is the
  time allowed for the others' claims to come through, and a caller acts on at most RENEW-old news);
- where the sync is healthy and clocks agree, a "Make invoices here" acts within
  max(SETTLING + RENEW, two transfers) + RENEW: the take settles by SETTLING, the call that sees it
  comes at most a RENEW later, and the others' acknowledgements need the claim to go out and the
  acknowledgement to come back; a move of the person acts on medicines within 2 RENEW + NEAR +
  SETTLING + two transfers + RENEW (see `scenarios.medicines_bound`);
- invoices are never left unattended longer than a crashed keeper's claim holds (UNCLOSED) plus the
  handover above, while some computer is on with a healthy sync.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator

import pytest

from sioul_tray.lease import ALIVE, RENEW, SETTLING, UNCLOSED, Keeper

from .figures import Figures, spans_report
from .scenarios import SCENARIOS, Play, invoices_take_bound, medicines_bound

SEEDS = (1, 2)
# Each scenario runs its `ci_hours` (8 h from 7:00: the person's morning, with moves, takes and
# faults; longer where a fault needs more than a day to bite).

# Clocks agree, the sync is healthy, every computer answers: the handover bounds hold exactly.
# (Elsewhere a take waits, by design, for a computer that is silent: see docs/reliability.md.)
BOUNDED = ("calm",)
NOBODY = Keeper("invoices", None, None, False, None, False, False, False, False)


pytestmark = pytest.mark.slow  # each scenario's runs take a few seconds (CI runs them all)

PLAYS: dict[str, Play] = {}  # each scenario's first seed, kept for the healing test


@functools.cache
def figures(name: str) -> Figures:
    f = Figures(name)
    for seed in SEEDS:
        play = Play(SCENARIOS[name], seed, SCENARIOS[name].ci_hours / 24)
        f.add(seed, copy.deepcopy(play.world.run(play.end)), 0.0)
        if seed == SEEDS[0]:
            PLAYS[name] = play
        else:
            play.world.close()
    return f


@pytest.fixture(scope="module", autouse=True)
def _close_plays() -> Iterator[None]:
    yield
    for play in PLAYS.values():
        play.world.close()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_invoices_never_act_twice(name: str) -> None:
    f = figures(name)
    assert f.double["invoices"] == 0, spans_report([f], "invoices", trace=True)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_safety_argument_holds_at_every_call(name: str) -> None:
    """Every invariant of docs/protocol.md's "Why it is safe", after every call on invoices."""
    f = figures(name)
    assert not f.violations, f.violations[0]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_no_invoice_number_is_made_twice(name: str) -> None:
    """Sioul, numbering into records that sync later than the claims, through the verdict and
    `must_have` (`records.Numberer`): invoices are made, and no number twice."""
    f = figures(name)
    assert f.numbered > 0
    assert f.duplicates == 0


@pytest.mark.parametrize("name", sorted(n for n, s in SCENARIOS.items() if s.timely))
def test_medicines_never_twice_when_the_sync_is_timely(name: str) -> None:
    s = SCENARIOS[name]
    assert s.transfer_bound() <= SETTLING - RENEW
    f = figures(name)
    assert f.double["medicines"] == 0, spans_report([f], "medicines", trace=True)


@pytest.mark.parametrize("name", BOUNDED)
def test_handovers_within_the_bounds_of_the_spec(name: str) -> None:
    s = SCENARIOS[name]
    f = figures(name)
    assert f.handover["invoices"], "no take was measured: the scenario lost its takes"
    assert f.handover["medicines"], "no move was measured"
    assert max(f.handover["invoices"]) <= invoices_take_bound(s)
    assert max(f.handover["medicines"]) <= medicines_bound(s)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_invoices_find_a_keeper_once_the_faults_end(name: str) -> None:
    """Not unattended forever: once every fault ends, the claims that still hold lapse within
    UNCLOSED (a laptop that sleeps without its close getting out may start that wait up to 20
    minutes later), and one computer numbers within the take bound after that.

    Except where the spec says it must wait and ask: a computer that hears nobody else cannot tell
    the others' silence from its own sync having stopped. Here that is a lone awake desktop whose
    companions went to sleep without their closed claims getting out: it must name them as the
    ones it waits for, and waking them (what the person does when the tray asks) ends the wait.
    """
    s = SCENARIOS[name]
    figures(name)  # runs the first seed up to its end
    play = PLAYS[name]
    w = play.world
    try:
        play.heal()
        w.run(play.end + UNCLOSED + 2 * 3600)
        if not w.actors("invoices"):
            awake = [c for c in w.computers.values() if c.running]
            waited = {x for c in awake for x in (c.last["invoices"] or NOBODY).waiting}
            asleep = {c.id for c in w.computers.values() if c.on and not c.awake}
            assert len(awake) == 1 and waited and waited <= asleep, (awake, waited, asleep)
            for c in sorted(waited):
                w.computers[c].wake(5.0)
            bursts = 2 * (1800 + 120 + 90) if "phone" in waited else 0  # a phone's sync
            w.run(w.now + invoices_take_bound(s) + ALIVE + bursts)
        assert len(w.actors("invoices")) == 1, w.actors("invoices")
        assert w.measures.double["invoices"] == 0
    finally:
        w.close()


def test_a_crashed_keeper_is_replaced_once_declared_gone() -> None:
    """Three computers, the invoices keeper crashes for good: the others hear each other, yet
    no silence alone replaces a keeper (cut off, it may be numbering on declarations its person
    made there). Once the person says on another computer that it is gone, that computer
    numbers. (No person otherwise: the laptop's tray would close its claims as away.)"""
    play = Play(SCENARIOS["calm"], 5, 1.6, away=False)
    w = play.world
    w._queue.clear()  # no person, no faults: only the trays
    for c in w.computers.values():
        w.at(0.0, c.start)
    w.run(SETTLING + 4 * RENEW)
    keeper = next(c for c in w.computers.values() if c.acting["invoices"])
    crashed_at = w.now
    keeper.crash()
    try:
        w.run(crashed_at + UNCLOSED + invoices_take_bound(SCENARIOS["calm"]))
        assert not w.actors("invoices"), "a silent keeper was passed over"
        other = next(c for c in w.computers.values() if c is not keeper)
        other.forget(keeper.id)
        w.run(w.now + SETTLING + 3 * RENEW)
        assert len(w.actors("invoices")) == 1
    finally:
        w.close()
    assert w.measures.double["invoices"] == 0
