"""The rules as tables of cases: holds and choose, pure functions of their arguments."""

from __future__ import annotations

import dataclasses

import pytest

from sioul_tray.lease import ALIVE, NEAR, PARTS, UNCLOSED, Claim, Rule, choose, holds
from tests.helpers import NOW, claim


def test_parts_and_rules_are_the_contract() -> None:
    assert PARTS == {"medicines": Rule.FOLLOWS, "invoices": Rule.STAYS}
    assert Rule.STAYS.never_twice and not Rule.FOLLOWS.never_twice


def test_claim_is_immutable_and_hashable() -> None:
    c = claim()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.seq = 2  # type: ignore[misc]
    assert hash(c) == hash(claim())
    assert claim(forgets={"bb": 3}) != claim()


HOLDS = [
    # (renewed age, closed, rule, holds)
    (0, False, Rule.FOLLOWS, True),
    (ALIVE, False, Rule.FOLLOWS, True),
    (ALIVE + 1, False, Rule.FOLLOWS, False),
    (ALIVE + 1, False, Rule.STAYS, True),
    (UNCLOSED, False, Rule.STAYS, True),
    (UNCLOSED + 1, False, Rule.STAYS, False),
    (0, True, Rule.FOLLOWS, False),
    (0, True, Rule.STAYS, False),
    (ALIVE + 1, True, Rule.STAYS, False),
    (-500, False, Rule.FOLLOWS, True),  # renewed ahead of now: a clock ahead, still alive
]


@pytest.mark.parametrize(("age", "closed", "rule", "expected"), HOLDS)
def test_holds(age: int, closed: bool, rule: Rule, expected: bool) -> None:
    assert holds(claim(renewed=NOW - age, closed=closed), rule, NOW) is expected


CHOOSE = [
    # (rule, claims, keeper id)
    ("nobody", Rule.STAYS, [], None),
    ("only closed", Rule.STAYS, [claim("aa", closed=True)], None),
    ("oldest since", Rule.STAYS, [claim("aa", since=NOW - 10), claim("bb", since=NOW - 20)], "bb"),
    (
        "since tie: smaller id",
        Rule.STAYS,
        [claim("bb", since=NOW - 10), claim("aa", since=NOW - 10)],
        "aa",
    ),
    (
        "taken beats since",
        Rule.STAYS,
        [claim("aa", since=NOW - 100), claim("bb", since=NOW - 5, taken=NOW - 5)],
        "bb",
    ),
    (
        "latest taken",
        Rule.STAYS,
        [claim("aa", taken=NOW - 50), claim("bb", taken=NOW - 60), claim("cc")],
        "aa",
    ),
    ("taken tie: smaller id", Rule.STAYS, [claim("cc", taken=NOW), claim("bb", taken=NOW)], "bb"),
    (
        "lapsed but unclosed still holds a part that stays",
        Rule.STAYS,
        [claim("aa", since=NOW - 9000, renewed=NOW - 3600), claim("bb", since=NOW - 10)],
        "aa",
    ),
    (
        "closed taker does not hold",
        Rule.STAYS,
        [claim("aa", taken=NOW, closed=True), claim("bb")],
        "bb",
    ),
    (
        "forgotten by another claim counts as closed",
        Rule.STAYS,
        [claim("aa", seq=7, taken=NOW), claim("bb", forgets={"aa": 7})],
        "bb",
    ),
    (
        "a later copy than the one forgotten counts again",
        Rule.STAYS,
        [claim("aa", seq=8, taken=NOW), claim("bb", forgets={"aa": 7})],
        "aa",
    ),
    (
        "latest active",
        Rule.FOLLOWS,
        [claim("aa", active=NOW - 1000), claim("bb", active=NOW - 10)],
        "bb",
    ),
    (
        "within NEAR: tied, smaller id",
        Rule.FOLLOWS,
        [claim("aa", active=NOW - NEAR), claim("bb", active=NOW)],
        "aa",
    ),
    (
        "just beyond NEAR: latest",
        Rule.FOLLOWS,
        [claim("aa", active=NOW - NEAR - 1), claim("bb", active=NOW)],
        "bb",
    ),
    (
        "lapsed claim does not hold a part that follows",
        Rule.FOLLOWS,
        [claim("aa", active=NOW, renewed=NOW - ALIVE - 1), claim("bb", active=NOW - 9000)],
        "bb",
    ),
    ("taken means nothing for follows", Rule.FOLLOWS, [claim("bb", taken=NOW), claim("aa")], "aa"),
]


@pytest.mark.parametrize(
    ("rule", "claims", "expected"), [c[1:] for c in CHOOSE], ids=[c[0] for c in CHOOSE]
)
def test_choose(rule: Rule, claims: list[Claim], expected: str | None) -> None:
    chosen = choose(rule, claims, NOW)
    assert (chosen.computer if chosen else None) == expected
    # Every computer reading the same claims, in any order, picks the same keeper.
    again = choose(rule, list(reversed(claims)), NOW)
    assert (again.computer if again else None) == expected
