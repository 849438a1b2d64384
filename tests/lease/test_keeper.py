"""Acting as tables: the acknowledgement (others_heard), the majority (agreed), and weigh."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sioul_tray.lease import ALIVE, SETTLING, UNCLOSED, Claim, Rule
from sioul_tray.lease.keeper import (
    FRESH,
    Keeper,
    Seen,
    acknowledged,
    agreed,
    weigh,
)
from sioul_tray.lease.rules import ANY_CLOSE, Fixes, tag
from tests.helpers import NOW, claim
from tests.lease.leasekit import Flags

ME = "me"
TENURE = 7  # the keeper's tenure in these tables
KK = claim("kk", seq=50, tenure=TENURE, sees="kk", sees_tenure=TENURE, sees_seq=50)


def ack(who: str, keeper: Claim = KK, **fields: Any) -> Claim:
    """`who`'s claim acknowledging `keeper`'s tenure, as it read it."""
    made: dict[str, Any] = {
        "sees": keeper.computer,
        "sees_tenure": keeper.tenure,
        "sees_seq": keeper.seq,
    } | fields
    return claim(who, **made)


def heard_ok(
    view: list[Claim], rule: Rule = Rule.STAYS, *, read_others: bool = True, created: bool = False
) -> bool:
    keeper = [] if any(c.computer == "kk" for c in view) else [KK]
    return acknowledged(
        "kk", ME, [*keeper, *view], rule, NOW, read_others=read_others, created=created
    )[0]


ACK = [
    # (case, other claims (besides mine and the keeper's), rule, heard)
    ("alone, created the folder", [], Rule.STAYS, {"created": True, "read_others": False}, True),
    ("alone, joined, read nobody", [], Rule.STAYS, {"read_others": False}, False),
    ("closed counts as heard", [claim("bb", closed=True, sees="xx")], Rule.STAYS, {}, True),
    ("alive and acknowledges the keeper's tenure", [ack("bb")], Rule.STAYS, {}, True),
    (
        "alive, names the keeper but another tenure",
        [ack("bb", sees_tenure=TENURE + 1)],
        Rule.STAYS,
        {},
        False,
    ),
    (
        "alive, names the keeper without a tenure (a version before tenures)",
        [claim("bb", sees="kk")],
        Rule.STAYS,
        {},
        False,
    ),
    ("follows: names the keeper, alive: enough", [claim("bb", sees="kk")], Rule.FOLLOWS, {}, True),
    ("alive, sees another", [claim("bb", sees="xx")], Rule.STAYS, {}, False),
    ("alive, sees nobody", [claim("bb", sees=None)], Rule.STAYS, {}, False),
    (
        "lapsed, acknowledged, within UNCLOSED - ALIVE (stays)",
        [ack("bb", renewed=NOW - (UNCLOSED - ALIVE))],
        Rule.STAYS,
        {},
        True,
    ),
    (
        "lapsed, acknowledged, past UNCLOSED - ALIVE",
        [ack("bb", renewed=NOW - (UNCLOSED - ALIVE) - 1)],
        Rule.STAYS,
        {},
        False,
    ),
    (
        "lapsed, acknowledged, follows: only alive counts",
        [claim("bb", sees="kk", renewed=NOW - ALIVE - 1)],
        Rule.FOLLOWS,
        {},
        False,
    ),
    (
        "gone, and another computer heard lately: silence never counts on invoices (S4)",
        [claim("bb", renewed=NOW - UNCLOSED - 1), ack("cc")],
        Rule.STAYS,
        {},
        False,
    ),
    (
        "gone, but nobody else heard lately: maybe my sync stopped",
        [claim("bb", renewed=NOW - UNCLOSED - 1), ack("kk", renewed=NOW - ALIVE - 1)],
        Rule.STAYS,
        {},
        False,
    ),
    (
        "gone, other heard lately is closed: silence never counts on invoices (S4)",
        [claim("bb", renewed=NOW - UNCLOSED - 1), claim("cc", closed=True)],
        Rule.STAYS,
        {},
        False,
    ),
]

# The same silences as the rule before `Fixes.silence_never_counts` judged them: gone once the
# sync is seen flowing (as medicines still judge them).
SILENCES = [
    ("sync flows", [claim("bb", renewed=NOW - UNCLOSED - 1), ack("cc")], True),
    (
        "nobody else heard lately",
        [claim("bb", renewed=NOW - UNCLOSED - 1), ack("kk", renewed=NOW - ALIVE - 1)],
        False,
    ),
    (
        "closed, still flowing",
        [claim("bb", renewed=NOW - UNCLOSED - 1), claim("cc", closed=True)],
        True,
    ),
]


@pytest.mark.parametrize(
    ("view", "expected"), [c[1:] for c in SILENCES], ids=[c[0] for c in SILENCES]
)
def test_silence_counted_gone_only_with_the_fix_off(view: list[Claim], expected: bool) -> None:
    keeper = [] if any(c.computer == "kk" for c in view) else [KK]
    seen = Seen([*keeper, ack(ME), *view], fixes=Fixes(silence_never_counts=False))
    flags: Flags = {"read_others": True, "created": False}
    assert acknowledged("kk", ME, seen, Rule.STAYS, NOW, **flags)[0] is expected
    every = dataclasses.replace(seen, fixes=Fixes())
    assert not acknowledged("kk", ME, every, Rule.STAYS, NOW, **flags)[0]


@pytest.mark.parametrize(
    ("view", "rule", "flags", "expected"), [c[1:] for c in ACK], ids=[c[0] for c in ACK]
)
def test_acknowledged(
    view: list[Claim], rule: Rule, flags: dict[str, bool], expected: bool
) -> None:
    mine = ack(ME)
    assert heard_ok([mine, *view], rule, **flags) is expected


def test_acknowledged_names_who_it_waits_for() -> None:
    view = [KK, ack(ME), ack("bb"), claim("cc", sees="xx"), claim("dd", sees=None)]
    ok, waiting = acknowledged("kk", ME, view, Rule.STAYS, NOW, read_others=True, created=False)
    assert not ok and waiting == ("cc", "dd")


def test_a_file_sealed_with_another_key_is_waited_for_until_declared_gone() -> None:
    view = [KK, ack(ME), ack("bb")]
    flags: Flags = {"read_others": True, "created": False}
    seen = Seen(view, foreign=("zz", ME))  # this computer's own file never counts
    assert acknowledged("kk", ME, seen, Rule.STAYS, NOW, **flags) == (False, ("zz",))
    declared = Seen(view, gone={"zz": 0}, foreign=("zz",))
    assert acknowledged("kk", ME, declared, Rule.STAYS, NOW, **flags) == (True, ())
    # Medicines follow the person: a second seal there is shown, not waited for.
    assert acknowledged("kk", ME, seen, Rule.FOLLOWS, NOW, **flags)[0]


MINE = claim(ME, seq=90, tenure=TENURE, sees=ME, sees_tenure=TENURE, sees_seq=90)
WRITTEN = {80: NOW - FRESH, 85: NOW - FRESH + 1, 90: NOW}  # seq -> tick of this tenure's writes


@pytest.mark.parametrize(
    ("other", "ok"),
    [
        (ack("bb", MINE), True),
        (ack("bb", MINE, sees_seq=85), True),  # answers a version written FRESH - 1 ago
        (ack("bb", MINE, sees_seq=80), True),  # ... exactly FRESH ago
        (ack("bb", MINE, sees_seq=70), False),  # a version not written in this tenure
        (ack("bb", MINE, sees_tenure=TENURE + 1), False),  # another tenure of this computer
        (claim("bb", sees=ME), False),  # a version before tenures
    ],
)
def test_my_tenure_is_acknowledged_by_a_recent_version_of_my_claim(other: Claim, ok: bool) -> None:
    """The keeper knows when it wrote each version: however late the answer was delivered, it
    counts while the version it answers is at most FRESH old by this computer's ticks."""
    flags: Flags = {"read_others": True, "created": False}
    seen = Seen([MINE, other], written=WRITTEN)
    assert acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)[0] is ok
    later = Seen([MINE, other], written=WRITTEN)
    assert not acknowledged(ME, ME, later, Rule.STAYS, NOW + FRESH + 1, **flags)[0]


def test_a_computer_that_lost_its_state_trusts_only_answers() -> None:
    """Closed, forgotten and gone claims stand for nothing while this computer distrusts what it
    cannot have witnessed."""
    flags: Flags = {"read_others": True, "created": True}
    mine = ack(ME, MINE)
    old = Fixes(silence_never_counts=False)  # silence counts on invoices only with it off (S4)
    for other in (claim("bb", closed=True), claim("bb", renewed=NOW - UNCLOSED - 1)):
        trusting = Seen([MINE, other, ack("cc", MINE)], written=WRITTEN, fixes=old)
        assert acknowledged(ME, ME, trusting, Rule.STAYS, NOW, **flags)[0], other
        wary = Seen([MINE, other, ack("cc", MINE)], written=WRITTEN, trusting=False, fixes=old)
        assert acknowledged(ME, ME, wary, Rule.STAYS, NOW, **flags) == (False, ("bb",))
    alone: Flags = {"read_others": False, "created": True}
    assert acknowledged(ME, ME, Seen([mine]), Rule.STAYS, NOW, **alone)[0]


def test_gone_counts_silence_observed_in_this_run_only() -> None:
    """A first read estimates when a claim was written by its writer's clock; only silence this
    computer observed itself makes a computer gone (on invoices, only with the rule before
    `Fixes.silence_never_counts`)."""
    flags: Flags = {"read_others": True, "created": False}
    old = claim("bb", renewed=NOW - UNCLOSED - 1)
    for started, ok in ((NOW - UNCLOSED - 1, True), (NOW - UNCLOSED, False), (NOW - 60, False)):
        seen = Seen(
            [MINE, old, ack("cc", MINE)], written=WRITTEN, started=started,
            fixes=Fixes(silence_never_counts=False),
        )  # fmt: skip
        assert acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)[0] is ok, started


AGREED = [
    # (case, other claims, my active age, agreed)
    ("alone, knowing nobody: a majority of one", [], 10_000, True),
    ("others all closed: a majority of one", [claim("bb", closed=True)], 10_000, True),
    ("others all gone: a majority of one", [claim("bb", renewed=NOW - UNCLOSED - 1)], 10_000, True),
    ("lost touch with one, person here", [claim("bb", renewed=NOW - ALIVE - 1)], 0, True),
    ("lost touch with one, person away", [claim("bb", renewed=NOW - ALIVE - 1)], ALIVE + 1, False),
    ("two, the other agrees", [claim("bb", sees=ME)], 10_000, True),
    ("two, the other disagrees: 1 of 2 is no majority", [claim("bb", sees="bb")], 0, False),
    ("three, one disagrees", [claim("bb", sees=ME), claim("cc", sees="cc")], 0, True),
    ("three, two disagree", [claim("bb", sees="bb"), claim("cc", sees="bb")], 0, False),
    (
        "closed ones do not vote",
        [claim("bb", sees=ME), claim("cc", sees="cc", closed=True)],
        0,
        True,
    ),
]


@pytest.mark.parametrize(
    ("others", "idle", "expected"), [c[1:] for c in AGREED], ids=[c[0] for c in AGREED]
)
def test_agreed(others: list[Claim], idle: int, expected: bool) -> None:
    view = [claim(ME, active=NOW - idle), *others]
    assert agreed(ME, ME, view, NOW)[0] is expected


JUDGE = [
    # (case, rule, kept for, my active age, the other claim, heard, agreed, acting)
    ("stays: settled and acknowledged", Rule.STAYS, SETTLING, 0, ack("bb", MINE),
     True, True, True),
    ("stays: not settled yet", Rule.STAYS, SETTLING - 1, 0, ack("bb", MINE),
     True, True, False),
    ("stays: the other sees itself", Rule.STAYS, SETTLING, 0, claim("bb", sees="bb"),
     False, False, False),
    ("stays: acknowledged lately, lost touch, person away: acts on the acknowledgement",
     Rule.STAYS, SETTLING, ALIVE + 1, ack("bb", MINE, renewed=NOW - ALIVE - 1),
     True, False, True),
    ("follows: lost touch, person here: acts on the majority of one",
     Rule.FOLLOWS, SETTLING, 0, claim("bb", sees=ME, renewed=NOW - ALIVE - 1),
     False, True, True),
    ("follows: the other alive disagrees", Rule.FOLLOWS, SETTLING, 0, claim("bb", sees="bb"),
     False, False, False),
]  # fmt: skip


def judge(
    rule: Rule, keeper: Claim | None, view: list[Claim], since: int | None, **flags: Any
) -> Keeper:
    """The verdict on `keeper` seen by ME at NOW, as the state machine builds it."""
    return weigh(rule, ME, keeper, view, NOW, since, part="invoices", shown=since, **flags)


@pytest.mark.parametrize(
    ("rule", "kept_for", "idle", "other", "heard", "agree", "acting"),
    [c[1:] for c in JUDGE],
    ids=[c[0] for c in JUDGE],
)
def test_judge(
    rule: Rule, kept_for: int, idle: int, other: Claim, heard: bool, agree: bool, acting: bool
) -> None:
    mine = ack(ME, MINE, seq=MINE.seq, tenure=TENURE, active=NOW - idle)
    keeper = judge(rule, mine, [mine, other], NOW - kept_for, read_others=True, created=False)
    assert keeper.here and keeper.computer == ME and keeper.since == NOW - kept_for
    assert keeper.settled is (kept_for >= SETTLING)
    assert (keeper.others_heard, keeper.agreed, keeper.acting) == (heard, agree, acting)


def test_nobody_keeps() -> None:
    keeper = judge(Rule.STAYS, None, [], None, read_others=True, created=True)
    assert keeper.computer is None and keeper.name is None
    assert not (keeper.here or keeper.settled or keeper.others_heard or keeper.agreed)
    assert not keeper.acting


def test_a_folder_sealed_again_blocks_acting_on_invoices_only() -> None:
    flags: Flags = {"read_others": True, "created": False}
    mine = ack(ME, MINE, seq=MINE.seq, tenure=TENURE)
    view = [mine, ack("bb", MINE)]
    for rule, acting in ((Rule.STAYS, False), (Rule.FOLLOWS, True)):
        k = judge(rule, mine, view, NOW - SETTLING, blocked="sealed again", **flags)
        assert k.acting is acting and k.blocked == ("sealed again" if rule is Rule.STAYS else None)


def test_without_the_tenure_rule_only_answers_heard_since_opening_counted() -> None:
    # Found by the simulation: asleep (closed), another computer may have taken the part; the
    # acknowledgements read before the sleep do not answer the reopened claim.
    mine = claim(ME, since=NOW - 100)
    before = claim("bb", sees=ME, renewed=NOW - 200)  # acknowledged before the reopening
    after = claim("bb", sees=ME, renewed=NOW - 50)
    flags: Flags = {"read_others": True, "created": False}
    for other, ok in ((before, False), (after, True)):
        seen = Seen([mine, other], opened=NOW - 100, fixes=Fixes(tenure=False))
        assert acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)[0] is ok


def test_gone_needs_the_sync_seen_flowing_for_settling() -> None:
    # Found by the simulation: woken after two days, every claim in view is "gone"; the first file
    # the reconnecting sync brings must not make them gone at once (the keeper's arrives next).
    mine = MINE
    gone = claim("bb", sees="cc", renewed=NOW - UNCLOSED - 1)
    fresh = ack("cc", MINE)
    flags: Flags = {"read_others": True, "created": False}
    for flowing_since, ok in ((None, False), (NOW, False), (NOW - SETTLING, True)):
        seen = Seen(
            [mine, gone, fresh], written=WRITTEN, flowing_since=flowing_since, tracks_flow=True,
            fixes=Fixes(silence_never_counts=False),  # the rule before it (S4)
        )  # fmt: skip
        assert acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)[0] is ok, flowing_since


def test_a_silent_keeper_is_not_gone_on_invoices() -> None:
    # Found by the model checker's walks: aa, cut off from bb and cc for a day, numbers on its
    # person's declarations of both; bb and cc, hearing each other, must not count aa's claim,
    # which keeps invoices, gone by its silence. Nor any silent claim (S4): it may be numbering
    # on closes read after its last claim came through (`Fixes.silence_never_counts`, which
    # took in this first case, once `keepers_declared`).
    keeper = claim("aa", sees="aa", renewed=NOW - UNCLOSED - 1)
    follower = claim("dd", sees="aa", renewed=NOW - UNCLOSED - 1)
    fresh = ack("cc", MINE)
    flags: Flags = {"read_others": True, "created": False}
    for silent in (keeper, follower):
        before = Seen(
            [MINE, silent, fresh], written=WRITTEN, flowing_since=NOW - SETTLING,
            tracks_flow=True, fixes=Fixes(silence_never_counts=False),
        )  # fmt: skip
        # The rule before it: a silent claim, a keeper's too, was gone.
        assert acknowledged(ME, ME, before, Rule.STAYS, NOW, **flags) == (True, ())
        every = dataclasses.replace(before, fixes=Fixes())
        assert acknowledged(ME, ME, every, Rule.STAYS, NOW, **flags) == (False, (silent.computer,))
        # Medicines follow the person: a silent keeper of theirs is gone either way.
        assert acknowledged(ME, ME, every, Rule.FOLLOWS, NOW, **flags)[0]


@pytest.mark.parametrize("rule_on", [True, False])
def test_a_close_naming_no_successor_is_not_counted_by_one_that_closed(rule_on: bool) -> None:
    # Found by the model checker's walks: aa closed (naming bb); cc, keeping invoices, closed a
    # day later having read aa's close, naming nobody (it would keep them). Waking, cc counts
    # aa's close; aa, keeping invoices again, must not count cc's in turn.
    theirs = claim("cc", closed=True, sees=None, renewed=NOW - 100)
    named = {ANY_CLOSE: NOW - 90_000, tag("bb"): NOW - 90_000}  # aa's close named bb
    seen = Seen([MINE, theirs], written=WRITTEN, named=named, fixes=Fixes(heirless_closes=rule_on))
    flags: Flags = {"read_others": True, "created": False}
    heard, waiting = acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)
    assert heard is not rule_on and ("cc" in waiting) is rule_on
    # A computer that never closed counts it: the heir is asleep, and it may take over.
    seen = Seen([MINE, theirs], written=WRITTEN, named={}, fixes=Fixes(heirless_closes=rule_on))
    assert acknowledged(ME, ME, seen, Rule.STAYS, NOW, **flags)[0]
