"""The claim as text: what the writer makes fit in a file, the padding that defeats a sync tool's
size-and-second check, and the helpers the command line shares. Decoding every way a text can be
wrong is in test_fuzz.py (any text: a claim or `Unreadable`) and test_corpus.py (each field)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sioul_tray.errors import Unreadable
from sioul_tray.lease import codec
from sioul_tray.lease.rules import ANY_CLOSE, EVERY_COMPUTER, READ_UNSAID, Claim
from sioul_tray.share.seal import OVERHEAD
from tests.helpers import claim

LONG = "x" * 63  # the longest computer id


def crowded(**fields: object) -> Claim:
    """A claim of the longest ids, naming many successors, knowing many computers."""
    base = claim(
        LONG,
        name="N" * 64,
        seq=codec.MAX_INT,
        sees=LONG,
        sees_tenure=2**32 - 1,
        sees_seq=codec.MAX_INT,
        tenure=2**32 - 1,
        # `forget` refuses a declaration where the closes that admitted anyone would not fit
        forgets={"a" * 40: codec.MAX_TIME},
        closes={ANY_CLOSE: 10**15, **{t: 10**15 + t for t in range(2, 2 + codec.MAX_CLOSES - 1)}},
        knows=tuple(range(2**31, 2**31 + codec.MAX_KNOWS)),
        counted=(2**31, 2**31 + 1),
        acting=False,
        reads={t: 10**15 + t for t in range(2**31, 2**31 + codec.MAX_KNOWS)},
        admits={ANY_CLOSE: 10**15, 2**31: 10**15, 2**31 + 1: 10**14, 5: 10**14},
    )
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def test_every_field_reads_back() -> None:
    c = crowded()
    assert codec.decode(codec.encode(c)) == c


def test_what_does_not_fit_is_left_out_in_order() -> None:
    """First the seqs read (each still said read), then the declarations that count already,
    then the successors named and the computers admitted one by one (all at once instead), then
    the last computers known: never a field a rule needs to stay safe."""
    c = crowded()
    assert not codec.fits(codec.encode(c))
    fitted = codec.fitted(c)
    assert codec.fits(codec.encode(fitted))
    assert fitted.reads == dict.fromkeys(fitted.knows, READ_UNSAID)
    assert fitted.counted == ()
    assert fitted.admits == {ANY_CLOSE: 10**15, EVERY_COMPUTER: 10**15}  # every one, at once
    assert codec.decode(codec.encode(fitted)) == fitted
    assert set(fitted.closes) == {ANY_CLOSE, EVERY_COMPUTER}
    assert fitted.closes[EVERY_COMPUTER] == max(v for k, v in c.closes.items() if k != ANY_CLOSE)
    assert fitted.knows == c.knows[: len(fitted.knows)]  # the first ones kept
    room = dataclasses.replace(c, closes={ANY_CLOSE: 5}, knows=(), forgets={})
    assert codec.fitted(room) is room  # what fits is left as it is


def test_padding_changes_the_size_a_sync_tool_would_compare() -> None:
    text = codec.encode(claim())
    same_size = len(text.encode()) + OVERHEAD
    assert codec.padded(text, same_size) == text.encode() + b" "
    assert codec.padded(text, same_size + 1) == text.encode()
    assert codec.padded(text, None) == text.encode()
    assert codec.decode(codec.padded(text, same_size).decode().rstrip(" ")) == claim()


@pytest.mark.parametrize(
    ("text", "count"),
    [("0", 0), ("42", 42), (str(codec.MAX_INT), codec.MAX_INT), (str(codec.MAX_INT + 1), None),
     ("-1", None), ("4.0", None), ("٣", None), ("", None)],
)  # fmt: skip
def test_a_mark_is_a_whole_number_every_reader_accepts(text: str, count: int | None) -> None:
    assert codec.whole_number(text) == count


def test_names_are_cut_to_what_a_claim_holds_and_never_reach_a_terminal_raw() -> None:
    assert codec.short_name("  Anna's laptop\x1b[2J ") == "Anna's laptop[2J"
    cut = codec.short_name("é" * 40)
    assert len(cut.encode()) <= codec.MAX_NAME_BYTES and cut == "é" * 32
    assert codec.printable("a\x07b\nc") == "a b c"


def test_a_row_longer_than_this_version_knows_still_reads() -> None:
    """A later version may append fields: this one reads what it knows and ignores the rest."""
    row = json.loads(codec.encode(claim()))
    assert codec.decode(json.dumps([*row, "later", 1])) == claim()


def test_acting_must_be_true_false_or_null() -> None:
    row = json.loads(codec.encode(claim()))
    row[len(codec.FIELDS + codec.TENURE_FIELDS + codec.CLOSES_FIELDS)] = "yes"
    with pytest.raises(Unreadable, match="acting"):
        codec.decode(json.dumps(row))


def test_reads_go_with_knows_one_seq_each() -> None:
    """`reads` is written as one seq per tag of `knows`, in its order; 0 is "not said"."""
    c = claim(knows=(7, 3, 9), reads={3: 120, 9: 5})
    row = json.loads(codec.encode(c))
    at = codec._READS
    assert row[at] == [120, 0, 5]  # knows is written sorted: 3, 7, 9
    assert codec.decode(json.dumps(row)).reads == {3: 120, 9: 5}
    row[at] = [120, 5]
    with pytest.raises(Unreadable, match="reads"):
        codec.decode(json.dumps(row))


def test_admits_follows_reads_in_little_room() -> None:
    """`admits` follows `reads`: the latest close's seq, a digit per tag of `knows` (that close
    admitted it), then (tag, seq) pairs for the rest. A version before it reads a claim without
    it as admitting nothing said; a damaged one is Unreadable."""
    c = claim(knows=(3, 5), reads={3: 120}, admits={0: 130, 3: 130, 5: 90, 7: 130})
    row = json.loads(codec.encode(c))
    assert row[codec._READS + 1] == [130, "10", 5, 90, 7, 130]  # 7 is in no `knows` any more
    assert codec.decode(json.dumps(row)).admits == c.admits
    assert codec.decode(json.dumps(row[:-1])).admits == {}
    for bad in ([130], [130, "1"], [130, "12"], [130, 10], [-1, "10"], [130, "10", 5]):
        row[codec._READS + 1] = bad
        with pytest.raises(Unreadable, match="admits"):
            codec.decode(json.dumps(row))


def test_a_claim_short_of_room_says_it_read_not_what() -> None:
    """Short of room, `reads` keeps each computer read but not the seq (READ_UNSAID): a close
    still admits the same computers."""
    tags = tuple(range(2, 2 + codec.MAX_KNOWS))
    c = claim(knows=tags, reads=dict.fromkeys(tags, 1_750_000_000), closed=True)
    fitted = codec.fitted(c)
    assert set(fitted.reads) == set(fitted.knows) and set(fitted.reads.values()) == {READ_UNSAID}
