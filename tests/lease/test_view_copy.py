"""`_as_seen`, the copy `Lease._view` makes of each claim, is `dataclasses.replace` exactly."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from sioul_tray.lease.lease import _as_seen
from sioul_tray.lease.rules import Claim

ids = st.from_regex(r"[a-z0-9_]{1,63}", fullmatch=True)
times = st.integers(0, 2**34)
claims = st.builds(
    Claim,
    computer=ids,
    part=st.sampled_from(["medicines", "invoices"]),
    name=st.text(max_size=64),
    seq=st.integers(0, 2**63 - 1),
    since=times,
    renewed=times,
    active=times,
    taken=st.none() | times,
    closed=st.booleans(),
    wrote=st.integers(0, 2**63 - 1),
    sees=st.none() | ids,
    forgets=st.dictionaries(ids, st.integers(0, 2**63 - 1), max_size=4),
)


@given(claims, times, st.booleans())
def test_as_seen_is_replace(claim: Claim, renewed: int, closed: bool) -> None:
    seen = _as_seen(claim, renewed, closed)
    expected = dataclasses.replace(claim, renewed=renewed, closed=closed)
    assert seen == expected
    assert dataclasses.astuple(seen) == dataclasses.astuple(expected)
    assert seen.forgets is claim.forgets  # shared, as replace shares it


def test_as_seen_copies_every_field() -> None:
    # Every field set to a value distinct from its default and from the replaced ones.
    claim = Claim("a", "invoices", "A", 7, 1, 2, 3, 4, False, 5, "b", {"c": 6})
    seen = _as_seen(claim, 9, True)
    for f in dataclasses.fields(Claim):
        want = {"renewed": 9, "closed": True}.get(f.name, getattr(claim, f.name))
        assert getattr(seen, f.name) == want, f.name
