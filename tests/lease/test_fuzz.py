"""Properties of the lease core under arbitrary input, checked with Hypothesis.

(a) no bytes break a reader; (b) every computer picks the same keeper from the same claims;
(c) a claim survives sealing unchanged, in a file small enough for every sync tool.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sioul_tray.errors import SioulError, Unreadable
from sioul_tray.lease import PARTS, Claim, Lease, Rule, choose, codec, holds, statefile
from sioul_tray.lease.rules import forgotten
from sioul_tray.share import Share
from sioul_tray.share.seal import HEADER_SIZE, OVERHEAD
from tests.lease.leasekit import T0, FakeClock, make_share, part_folder, relpath

NOW = int(T0)

ID_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789_")
ids = st.text(ID_CHARS, min_size=1, max_size=63)  # [a-z0-9_]{1,63}, faster than from_regex
times = st.integers(0, codec.MAX_TIME)
counts = st.integers(0, codec.MAX_INT)
KEY = Share(Path("unused"), "0" * 16, "alpha", b"k" * 32)  # sealing needs a key, not a folder


def scratch() -> tempfile.TemporaryDirectory[str]:
    # Many small fsynced writes per example: memory-backed /dev/shm keeps this test in seconds.
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None)


# -- (a) any bytes give a claim or a reported problem ----------------------------------------


@dataclass
class Folder:
    share: Share
    clock: FakeClock
    sealed: bytes  # a real claim file, sealed for zed.lease, to damage in small ways
    seqs: dict[str, int]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Folder:
    clock = FakeClock()
    share = make_share(tmp_path_factory.mktemp("fuzz") / "sync")
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    bravo = Lease(share, "bravo", name="Bravo", clock=clock)
    alpha.renew("medicines", active=T0 - 1000)
    bravo.renew("medicines")
    zed = Lease(share, "zed", name="Zed", clock=clock)
    zed.renew("medicines", active=T0 - 2000)
    path = part_folder(share, "medicines") / "zed.lease"
    sealed = path.read_bytes()
    path.unlink()
    seqs = {c.computer: c.seq for c in bravo.claims("medicines")}
    return Folder(share, clock, sealed, seqs)


@st.composite
def damaged(draw: st.DrawFn, sealed: bytes) -> bytes:
    """A real claim file, cut, spliced or with bits flipped: closer to the checks than noise."""
    data = bytearray(sealed)
    how = draw(st.sampled_from(["flip", "cut", "splice"]))
    if how == "flip":
        for i in draw(st.lists(st.integers(0, len(data) - 1), min_size=1, max_size=4)):
            data[i] ^= 1 << draw(st.integers(0, 7))
    elif how == "cut":
        data = data[: draw(st.integers(0, len(data) - 1))]
    else:
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.binary(min_size=1, max_size=64))
    return bytes(data)


def claim_file_bytes(sealed: bytes) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=600),
        st.binary(min_size=4090, max_size=4100),  # around the 4096-byte limit
        st.binary(max_size=300).map(lambda tail: sealed[:HEADER_SIZE] + tail),  # our header
        damaged(sealed),
    )


def test_any_bytes_in_a_claim_file_give_a_claim_or_a_problem(folder: Folder) -> None:
    @given(data=claim_file_bytes(folder.sealed))
    def run(data: bytes) -> None:
        path = part_folder(folder.share, "medicines") / "zed.lease"
        path.write_bytes(data)
        try:
            reader = Lease(folder.share, "reader", clock=folder.clock)
            keeper = reader.look("medicines")
            claims = {c.computer: c.seq for c in reader.claims("medicines")}
            problems = reader.problems("medicines")
        finally:
            path.unlink()
        assert keeper.computer == "bravo"
        assert {c: claims[c] for c in ("alpha", "bravo")} == folder.seqs
        reported = [n for n, _ in problems]
        # Exactly one of: zed read as a claim, or zed.lease reported; nothing else reported.
        assert ("zed" in claims) != (reported == ["zed.lease"])
        assert reported in ([], ["zed.lease"])

    run()


@given(data=st.binary(max_size=600))
def test_unseal_then_decode_of_any_bytes_raise_only_unreadable(data: bytes) -> None:
    share = KEY
    with contextlib.suppress(Unreadable):
        codec.decode(share.unseal("leases/medicines/zed.lease", data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=14) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@given(
    text=st.one_of(
        json_values.map(json.dumps),
        st.lists(json_values, min_size=12, max_size=13).map(json.dumps),  # claim-shaped
        st.text(max_size=200),
    )
)
@example(text="[" + "1" * 4301 + "]")  # over Python's 4300-digit limit for int("...")
@example(text="[" * 5000)
def test_decode_of_any_text_raises_only_unreadable(text: str) -> None:
    # A peer holding the key may seal any plaintext; and the state file holds such text too.
    share = KEY
    path = "leases/medicines/zed.lease"
    plaintext = share.unseal(path, share.seal(path, text.encode("utf-8")))
    assert plaintext == text.encode("utf-8")
    try:
        claim = codec.decode(plaintext)
    except Unreadable:
        return
    assert isinstance(claim, Claim)


state_headers = st.fixed_dictionaries(
    {
        "version": st.just(1),
        "forgets": st.dictionaries(
            st.sampled_from(sorted(PARTS)),
            st.dictionaries(
                st.text(max_size=8),
                st.one_of(
                    json_values,
                    st.tuples(st.integers(-5, 2**70), st.integers(int(T0) - 10, int(T0))).map(list),
                ),
                max_size=3,
            ),
        ),
    }
)


@given(
    head=st.one_of(state_headers.map(json.dumps), st.text(max_size=50)),
    body=st.lists(st.text(max_size=60), max_size=3),
)
@example(head='{"version": 1, "forgets": {"invoices": {"zed": {"x": 1}}}}', body=[])
@example(head="[" * 5000, body=[])
@example(head='{"version": 1}', body=["medicines\t[" + "1" * 4301 + "]"])
@example(head=f'{{"version": 1, "forgets": {{"invoices": {{"Bad!": [5, {NOW}]}}}}}}', body=[])
@example(head=f'{{"version": 1, "forgets": {{"invoices": {{"zed": [-5, {NOW}]}}}}}}', body=[])
def test_a_damaged_state_file_neither_stops_the_lease_nor_spoils_its_claims(
    head: str, body: list[str]
) -> None:
    """The state file is this computer's own, but a disk or a person can damage it."""
    with scratch() as tmp:
        clock = FakeClock()
        share = make_share(Path(tmp) / "sync")
        state = statefile.state_file(Path(tmp) / "state", share.folder_id, "alpha")
        state.parent.mkdir()
        state.write_text("\n".join([head, *body]) + "\n", encoding="utf-8")
        lease = Lease(share, "alpha", clock=clock, state_dir=Path(tmp) / "state")
        lease.renew("invoices")
        # Whatever the state said, the claim written from it reads for everyone else.
        other = Lease(share, "bravo", clock=clock)
        assert [c.computer for c in other.claims("invoices")] == ["alpha"]
        assert other.problems("invoices") == []


# -- (b) same claims, same keeper ------------------------------------------------------------


@st.composite
def claim_sets(draw: st.DrawFn) -> list[Claim]:
    """Claims of distinct computers on one part, with times clustered so ties happen."""
    computers = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True))
    near = st.integers(int(T0) - 90_000, int(T0) + 400).map(lambda t: t - t % 60)
    claims = []
    for c in computers:
        forgets = draw(st.dictionaries(st.sampled_from(computers), st.integers(0, 5), max_size=2))
        claims.append(
            Claim(
                computer=c,
                part="invoices",
                name=c.upper(),
                seq=draw(st.integers(0, 5)),
                since=draw(near),
                renewed=draw(near),
                active=draw(near),
                taken=draw(st.none() | near),
                closed=draw(st.booleans()),
                sees=draw(st.none() | st.sampled_from(computers)),
                forgets=forgets,
            )
        )
    return claims


@given(claims=claim_sets(), rule=st.sampled_from(Rule), data=st.data())
def test_choose_does_not_depend_on_the_order_of_the_claims(
    claims: list[Claim], rule: Rule, data: st.DataObject
) -> None:
    now = T0
    chosen = choose(rule, claims, now)
    shuffled = data.draw(st.permutations(claims))
    assert choose(rule, shuffled, now) == chosen
    assert choose(rule, list(reversed(claims)), now) == chosen
    if chosen is not None:
        assert chosen in claims


@given(claims=claim_sets(), rule=st.sampled_from(Rule))
def test_the_keeper_is_chosen_among_the_claims_that_hold(claims: list[Claim], rule: Rule) -> None:
    # `holds` is the contract's word for a claim that counts; `choose` is what the core runs.
    gone = forgotten(claims)
    holding = [c for c in claims if holds(c, rule, T0) and gone.get(c.computer, -1) < c.seq]
    chosen = choose(rule, claims, T0)
    assert (chosen is None) == (not holding)
    assert chosen is None or chosen in holding


Op = tuple[str, int, int]  # (action, which computer, how far to move the clock first)

ops = st.tuples(
    st.sampled_from(["renew", "renew_idle", "take", "close", "forget", "look"]),
    st.integers(0, 3),
    st.sampled_from([0, 0, 30, 61, 130, 301, 4000, 86_401]),
)


@given(n=st.integers(2, 4), steps=st.lists(ops, min_size=1, max_size=10))
def test_computers_reading_one_folder_at_one_time_agree_on_the_keeper(
    n: int, steps: list[Op]
) -> None:
    with scratch() as tmp:
        clock = FakeClock()
        share = make_share(Path(tmp) / "sync", "c0")
        leases = [Lease(share, f"c{i}", name=f"C{i}", clock=clock) for i in range(n)]
        for action, who, wait in steps:
            clock.advance(wait)
            lease = leases[who % n]
            for part in PARTS:
                if action == "renew":
                    lease.renew(part)
                elif action == "renew_idle":
                    lease.renew(part, active=clock.now - 1000)
                elif action == "take":
                    lease.renew(part, take=True)
                elif action == "close":
                    lease.close(part)
            if action == "forget":
                # SioulError: nothing of that computer was read yet, so nothing to forget.
                with contextlib.suppress(SioulError):
                    lease.forget(leases[(who + 1) % n].computer)
            # Everyone reads at once, as a tick would; a newcomer reading now must agree too.
            observer = Lease(share, "observer", clock=clock)
            for part in PARTS:
                seen = {x.computer: x.look(part).computer for x in [*leases, observer]}
                assert len(set(seen.values())) == 1, (part, seen)


# -- (c) sealing round-trips, in at most 512 bytes --------------------------------------------

claims = st.builds(
    Claim,
    computer=ids,
    part=st.sampled_from(sorted(PARTS)),
    name=st.text(max_size=64).map(codec.short_name),  # as a writer makes it
    seq=counts,
    since=times,
    renewed=times,
    active=times,
    taken=st.none() | times,
    closed=st.booleans(),
    wrote=counts,
    sees=st.none() | ids,
    forgets=st.dictionaries(ids, counts, max_size=codec.MAX_FORGETS),
    acting=st.none() | st.booleans(),
)


@given(claim=claims)
def test_a_claim_from_a_version_before_acting_reads_as_not_saying(claim: Claim) -> None:
    row = json.loads(codec.encode(claim))
    before = dataclasses.replace(claim, acting=None, reads={}, admits={})
    assert codec.decode(json.dumps(row[:-3])) == before


@given(claim=claims, old_size=st.none() | st.integers(0, 4096))
def test_a_claim_survives_sealing_unchanged(claim: Claim, old_size: int | None) -> None:
    path = relpath(claim.part, f"{claim.computer}.lease")
    sealed = KEY.seal(path, codec.padded(codec.encode(claim), old_size))
    assert codec.decode(KEY.unseal(path, sealed)) == claim
    # Every write changes the size: sync tools comparing size and mtime see the rewrite.
    assert len(sealed) != old_size


@given(claim=claims)
def test_a_claim_reads_the_same_from_text_and_from_bytes(claim: Claim) -> None:
    text = codec.encode(claim)
    assert codec.decode(text) == codec.decode(text.encode()) == claim


@given(claim=claims, name=st.text(max_size=64))
def test_any_name_reads_printable(claim: Claim, name: str) -> None:
    """What another computer wrote as its name is shown, never obeyed by a terminal."""
    path = relpath(claim.part, f"{claim.computer}.lease")
    text = codec.encode(dataclasses.replace(claim, name=name))
    read = codec.decode(KEY.unseal(path, KEY.seal(path, text.encode())))
    assert read.name.isprintable() and len(read.name) == len(name)


long_ids = st.text(ID_CHARS, min_size=63, max_size=63)
# Quotes and backslashes double in JSON; multi-byte characters fill 64 bytes with fewer chars.
worst_names = st.text(st.sampled_from('"\\aé€😀'), min_size=64, max_size=64).map(codec.short_name)
big_counts = st.integers(codec.MAX_INT - 1000, codec.MAX_INT) | counts
big_times = st.integers(codec.MAX_TIME - 1000, codec.MAX_TIME) | times

largest_claims = st.builds(
    Claim,
    computer=long_ids,
    part=st.sampled_from(sorted(PARTS)),
    name=worst_names,
    seq=big_counts,
    since=big_times,
    renewed=big_times,
    active=big_times,
    taken=big_times,
    closed=st.booleans(),
    wrote=big_counts,
    sees=long_ids,
    forgets=st.dictionaries(long_ids, big_counts, max_size=codec.MAX_FORGETS),
    acting=st.just(False),  # the longest it writes
)


@given(claim=largest_claims)
def test_a_claim_with_what_forgets_fit_seals_into_512_bytes(claim: Claim) -> None:
    assert len(claim.name.encode("utf-8")) >= 61  # 64 bytes, less a character cut in two
    forgets = dict(claim.forgets)
    text = codec.encode(claim)
    while not codec.fits(text):
        # As Lease does: drop declarations until the claim fits; none left must always fit.
        assert forgets, "a claim without forgets does not fit"
        forgets.pop(next(iter(forgets)))
        claim = dataclasses.replace(claim, forgets=dict(forgets))
        text = codec.encode(claim)
    path = relpath(claim.part, f"{claim.computer}.lease")
    # None: a first write; the other forces the one byte of padding that changes the size.
    for old_size in (None, len(text.encode("utf-8")) + OVERHEAD):
        sealed = KEY.seal(path, codec.padded(text, old_size))
        assert len(sealed) <= codec.MAX_FILE
        assert codec.decode(KEY.unseal(path, sealed)) == claim
