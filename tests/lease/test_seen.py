"""`Lease` judges claims through `Seen` (heard times and forgets beside the claims, no copies).

That must decide exactly as the rules on copied claims whose ``renewed`` is the heard time and
whose ``closed`` includes "forgotten", which is how the contract states them.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from sioul_tray.lease import ALIVE, UNCLOSED, Rule, choose
from sioul_tray.lease.keeper import Seen, acknowledged, agreed, unanswering
from sioul_tray.lease.rules import Claim, Fixes, forgotten
from tests.lease.leasekit import Flags

NOW = 1_750_000_000
ids = st.sampled_from(["aa", "bb", "cc", "dd", "ee"])
near = st.integers(NOW - UNCLOSED - 2 * ALIVE, NOW + 10)


@st.composite
def claim_sets(draw: st.DrawFn, tenures: bool = False) -> list[Claim]:
    """Claims of up to five computers; with `tenures`, with tenures and acknowledgements of one."""
    computers = draw(st.lists(ids, min_size=1, max_size=5, unique=True))

    def acknowledging() -> dict[str, int | None]:
        if not tenures or draw(st.booleans()):
            return {}
        return {"sees_tenure": draw(st.integers(1, 3)), "sees_seq": draw(st.integers(0, 20))}

    return [
        Claim(
            computer=c,
            part="invoices",
            name=c.upper(),
            seq=draw(st.integers(0, 20)),
            since=draw(near),
            renewed=draw(near),
            active=draw(near),
            taken=draw(st.none() | near),
            closed=draw(st.booleans()),
            wrote=0,
            sees=draw(st.none() | ids),
            forgets=draw(st.dictionaries(ids, st.integers(0, 20), max_size=2)),
            tenure=draw(st.none() | st.integers(1, 3)) if tenures else None,
            **acknowledging(),  # type: ignore[arg-type]
        )
        for c in computers
    ]


@given(claim_sets(), st.data(), st.sampled_from(list(Rule)), ids)
def test_seen_decides_as_the_copied_claims_do(
    claims: list[Claim], data: st.DataObject, rule: Rule, keeper: str
) -> None:
    heard = {c.computer: data.draw(near) for c in claims}
    gone = forgotten(claims)
    copies = [
        dataclasses.replace(
            c,
            renewed=heard[c.computer],
            closed=c.closed or gone.get(c.computer, -1) >= c.seq,
        )
        for c in claims
    ]
    seen = Seen(claims, heard, gone)
    by_seen = choose(rule, claims, NOW, heard=heard)
    by_copy = choose(rule, copies, NOW)
    assert (by_seen and by_seen.computer) == (by_copy and by_copy.computer)
    me = claims[0].computer
    flags: Flags = {"read_others": True, "created": False}
    assert acknowledged(keeper, me, seen, rule, NOW, **flags) == acknowledged(
        keeper, me, copies, rule, NOW, **flags
    )
    assert agreed(keeper, me, seen, NOW) == agreed(keeper, me, copies, NOW)
    # The keeper's claim handed over, as the verdict does, decides as the one found in the view.
    in_view = next((c for c in claims if c.computer == keeper), None)
    assert acknowledged(keeper, me, seen, rule, NOW, **flags, keeper_claim=in_view) == (
        acknowledged(keeper, me, seen, rule, NOW, **flags)
    )
    # The claims alive, with or without one computer's; with or without heard times beside them.
    for view in (seen, Seen(claims, heard, {}), Seen(copies)):
        alive = [c for c in view.claims if view.alive(c, NOW)]
        assert view.living(NOW) == alive
        assert view.living(NOW, but=me) == [c for c in alive if c.computer != me]


@given(claim_sets(tenures=True), st.data(), st.sampled_from(list(Rule)), st.booleans())
def test_each_claim_answers_the_keeper_by_itself(
    claims: list[Claim], data: st.DataObject, rule: Rule, tenure_rule: bool
) -> None:
    # `unanswering` tests every claim in one comprehension per case: a claim's answer must not
    # depend on the claims beside it, the order is kept, and for a part that must never happen
    # twice only a claim naming the keeper and its tenure ever counts.
    sees = [c for c in claims if c.sees is not None]
    keeper = data.draw(st.sampled_from(claims))
    # len(): after `sees and`, mypy would infer the draw as a list of claims.
    if len(sees) > 0 and data.draw(st.booleans()):  # often a keeper some claim names
        named = data.draw(st.sampled_from(sees)).sees
        keeper = dataclasses.replace(keeper, computer=named)  # type: ignore[arg-type]
    me = data.draw(st.sampled_from([keeper.computer, claims[0].computer]))
    heard = data.draw(st.none() | st.just({c.computer: data.draw(near) for c in claims}))
    written = data.draw(st.none() | st.dictionaries(st.integers(0, 20), near, max_size=5))
    fixes = Fixes(tenure=tenure_rule)
    seen = Seen(claims, heard, {}, written=written, fixes=fixes, opened=data.draw(near))
    left = unanswering(keeper, seen, NOW, rule, me, claims)
    assert left == [c for c in claims if unanswering(keeper, seen, NOW, rule, me, [c])]
    for c in claims:
        if c not in left and rule.never_twice and tenure_rule:
            assert c.sees == keeper.computer and c.sees_tenure == keeper.tenure is not None
    assert unanswering(None, seen, NOW, rule, me, claims) == claims
