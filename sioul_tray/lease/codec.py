"""A claim as text inside its seal: a compact JSON array, checked field by field.

The array form keeps a claim file well under 512 bytes with 63-character ids. Fields are in the
contract's order, then the tenure fields (``tenure, sees_tenure, sees_seq``), then the fields of
the closes rule (``answers, closes, knows, counted``), then ``acting``, which no rule reads, then
``reads`` (the seq read of each computer in ``knows``, in its order), then ``admits`` (the
closes that admitted each computer, as ``closes``). Each
group was appended by a version that the versions before it ignore; a claim's `rules` says which
rules its writer follows (the groups of rules it wrote), and a newer version may append more,
which this one ignores. Every way the text can be wrong raises `Unreadable` with a reason, never
anything else.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from sioul_tray.errors import Unreadable
from sioul_tray.i18n import Core
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.lease.rules import ANY_CLOSE, EVERY_COMPUTER, PARTS, READ_UNSAID, Claim
from sioul_tray.share.seal import OVERHEAD

MAX_FILE = 512  # a claim file is at most this many bytes
MAX_NAME_BYTES = 64  # a display name is cut to this many UTF-8 bytes when written
MAX_FORGETS = 32
MAX_CLOSES = 16  # entries of `closes`; past this room, a claim names every computer at once
MAX_KNOWS = 32  # tags in `knows`
MAX_TAG = 2**32 - 1
MAX_INT = 2**63 - 1
MAX_TIME = 2**34  # the year 2514: later times are absurd, not a clock that is off

FIELDS = (
    "computer", "part", "name", "seq", "since", "renewed", "active",
    "taken", "closed", "wrote", "sees", "forgets",
)  # fmt: skip
TENURE_FIELDS = ("tenure", "sees_tenure", "sees_seq")  # appended; absent from older claims
CLOSES_FIELDS = ("answers", "closes", "knows", "counted")  # appended after them
SHOWN_FIELDS = ("acting",)  # appended after them: shown to the person, read by no rule
_OLD, _ALL = len(FIELDS), len(FIELDS) + len(TENURE_FIELDS)
_NEW = _ALL + len(CLOSES_FIELDS)
_READS = _NEW + len(SHOWN_FIELDS)  # where `reads` is, past `acting`


def printable(text: str) -> str:
    """`text` without control characters (escape sequences, bells, line breaks): each becomes a
    space, so what others wrote is shown, never obeyed, by a terminal."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def short_name(name: str) -> str:
    """The display name as it can be written: no control characters, at most 64 UTF-8 bytes."""
    clean = "".join(ch for ch in name if ch.isprintable()).strip()
    data = clean.encode("utf-8")[:MAX_NAME_BYTES]
    return data.decode("utf-8", errors="ignore")


def encode(claim: Claim) -> str:
    """The claim as compact JSON, without padding."""
    row = [
        claim.computer, claim.part, claim.name, claim.seq, claim.since, claim.renewed,
        claim.active, claim.taken, claim.closed, claim.wrote, claim.sees, dict(claim.forgets),
        claim.tenure, claim.sees_tenure, claim.sees_seq,
        claim.answers, [n for k in sorted(claim.closes) for n in (k, claim.closes[k])],
        sorted(claim.knows), sorted(claim.counted),
        claim.acting,
        [claim.reads.get(t, 0) for t in sorted(claim.knows)],
        _admits_row(claim),
    ]  # fmt: skip
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def _admits_row(claim: Claim) -> list[Any]:
    """`admits` in little room: the latest close's seq, a digit per tag of `knows` (1: that
    close admitted it), then (tag, seq) pairs for the others (an older close, or a computer no
    longer in `knows`). Most claims say "[seq, '111']"."""
    admits = claim.admits
    if not admits:
        return []
    latest = admits.get(ANY_CLOSE, 0)
    knows = sorted(claim.knows)
    bits = "".join("1" if latest and admits.get(t) == latest else "0" for t in knows)
    said = {t for t, bit in zip(knows, bits, strict=True) if bit == "1"}
    rest = [n for k in sorted(admits) if k != ANY_CLOSE and k not in said for n in (k, admits[k])]
    return [latest, bits, *rest]


def fitted(claim: Claim, spare: int = 0) -> Claim:
    """`claim` as it can be written within MAX_FILE (with `spare` bytes left): where its closes
    or the computers it knows take too much room, the seqs it read are left unsaid (a computer
    that lost its state then learns less of its past; a close still admits the same ones),
    then the declarations that count already (a start then waits for them again), the
    closes name and admit every computer at once (a computer then waits for more closes, never
    fewer) and the last tags it knows are left out.
    """
    if fits(encode(claim), spare):
        return claim
    if any(seq != READ_UNSAID for seq in claim.reads.values()):
        # Each seq read unsaid (a computer that lost its past learns less of it), still said
        # read: a close admits the same computers.
        claim = dataclasses.replace(claim, reads=dict.fromkeys(claim.reads, READ_UNSAID))
        if fits(encode(claim), spare):
            return claim
    if claim.counted:
        claim = dataclasses.replace(claim, counted=())
        if fits(encode(claim), spare):
            return claim
    named = [seq for k, seq in claim.closes.items() if k != ANY_CLOSE]
    if len(named) > 1:
        collapsed = {k: seq for k, seq in claim.closes.items() if k == ANY_CLOSE}
        collapsed[EVERY_COMPUTER] = max(named)
        claim = dataclasses.replace(claim, closes=collapsed)
    admitted = [seq for k, seq in claim.admits.items() if k != ANY_CLOSE]
    if len(admitted) > 1 and not fits(encode(claim), spare):
        collapsed = {k: seq for k, seq in claim.admits.items() if k == ANY_CLOSE}
        collapsed[EVERY_COMPUTER] = max(admitted)
        smaller = dataclasses.replace(claim, admits=collapsed)
        if len(encode(smaller)) < len(encode(claim)):
            claim = smaller
    knows = sorted(claim.knows)
    while knows and not fits(encode(claim), spare):
        knows.pop()
        kept = set(knows)
        reads = {t: seq for t, seq in claim.reads.items() if t in kept}
        claim = dataclasses.replace(claim, knows=tuple(knows), reads=reads)
    return claim


def fits(text: str, spare: int = 0) -> bool:
    """The sealed file, padded by one byte, stays within MAX_FILE with `spare` bytes left."""
    return len(text.encode("utf-8")) + 1 + OVERHEAD + spare <= MAX_FILE


def padded(text: str, old_size: int | None) -> bytes:
    """The plaintext, padded with spaces so the sealed file's size differs from `old_size`.

    Some sync tools compare size and whole-second modification time only and would miss a
    same-size rewrite within one second.
    """
    data = text.encode("utf-8")
    if old_size is not None and len(data) + OVERHEAD == old_size:
        data += b" "
    return data


def whole_number(text: str) -> int | None:
    """`text` as a count every reader of a claim accepts (0 to MAX_INT, digits only), or None:
    a `wrote` mark as the command line and the tray's requests take it."""
    return int(text) if text.isascii() and text.isdigit() and int(text) <= MAX_INT else None


def _int(value: Any, what: str, top: int = MAX_INT) -> int:
    if type(value) is not int:  # not isinstance: a bool is an int to Python, not to us
        raise Unreadable(Core.mark("not valid: {what} is not a whole number", what=what))
    if not 0 <= value <= top:
        raise Unreadable(Core.mark("not valid: {what} is out of range", what=what))
    return value


def _maybe_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not COMPUTER_ID.fullmatch(value):
        raise Unreadable(Core.mark("not valid: {what} is not a computer id", what=what))
    return value


def decode(plaintext: bytes | str) -> Claim:
    """The claim in an opened seal's plaintext, or Unreadable saying what is wrong."""
    try:
        text = plaintext.decode("utf-8") if isinstance(plaintext, bytes) else plaintext
        row = json.loads(text)
    except (ValueError, RecursionError):
        # ValueError covers bad UTF-8, bad JSON, and an integer over Python's 4300-digit limit.
        raise Unreadable(Core.mark("not valid: not a claim")) from None
    if not isinstance(row, list) or len(row) < len(FIELDS):
        raise Unreadable(Core.mark("not valid: fields are missing"))
    computer, part, name, seq, since, renewed, active, taken, closed, wrote, sees, forgets = row[
        : len(FIELDS)
    ]
    if type(part) is not str or part not in PARTS:
        raise Unreadable(Core.mark("not valid: unknown part"))
    if type(name) is not str or len(name) > 4 * MAX_NAME_BYTES:
        raise Unreadable(Core.mark("not valid: the name is not text of a sensible length"))
    if not name.isprintable():
        name = printable(name)  # a member's escape sequences never reach a terminal or a menu
    if type(closed) is not bool:
        raise Unreadable(Core.mark("not valid: closed is not true or false"))
    if type(forgets) is not dict or len(forgets) > MAX_FORGETS:
        raise Unreadable(Core.mark("not valid: forgets is not a small table"))
    _id(computer, "computer")
    if sees is not None:
        _id(sees, "sees")
    _int(seq, "seq")
    _int(since, "since", MAX_TIME)
    _int(renewed, "renewed", MAX_TIME)
    _int(active, "active", MAX_TIME)
    if taken is not None:
        _int(taken, "taken", MAX_TIME)
    _int(wrote, "wrote")
    tenure = sees_tenure = sees_seq = answers = None
    closes: dict[int, int] | None = None
    knows: tuple[int, ...] = ()
    counted: tuple[int, ...] = ()
    rules = 1
    if len(row) >= _ALL:
        rules = 2
        tenure, sees_tenure, sees_seq = row[_OLD:_ALL]
        tenure = _maybe_int(tenure, "tenure")
        sees_tenure = _maybe_int(sees_tenure, "sees_tenure")
        sees_seq = _maybe_int(sees_seq, "sees_seq")
        if (sees_tenure is None) != (sees_seq is None) or (sees is None and sees_seq is not None):
            raise Unreadable(Core.mark("not valid: the acknowledgement is incomplete"))
    if len(row) >= _NEW:
        rules = 3
        answers, closes, knows = _closes_fields(row[_ALL], row[_ALL + 1], row[_ALL + 2], sees)
        counted = _tags(row[_ALL + 3], "counted", MAX_FORGETS)
    acting = row[_NEW] if len(row) > _NEW else None
    if acting is not None and type(acting) is not bool:
        raise Unreadable(Core.mark("not valid: acting is not true, false or null"))
    reads: dict[int, int] = {}
    if len(row) > _READS and rules == 3:
        seqs = row[_READS]
        if type(seqs) is not list or len(seqs) != len(knows):
            raise Unreadable(Core.mark("not valid: reads does not match knows"))
        reads = {t: s for t, s in zip(knows, (_int(s, "reads") for s in seqs), strict=True) if s}
    admits: dict[int, int] = {}
    if len(row) > _READS + 1 and rules == 3:
        admits = _admits(row[_READS + 1], knows)
    return Claim(
        computer,
        part,
        name,
        seq,
        since,
        renewed,
        active,
        taken,
        closed,
        wrote,
        sees,
        {
            _id(k, Core.mark("a forgotten computer")): _int(v, Core.mark("a forgotten seq"))
            for k, v in forgets.items()
        },
        tenure,
        sees_tenure,
        sees_seq,
        answers,
        closes or {},
        knows,
        counted,
        acting,
        reads,
        admits,
        rules,
    )


def _closes_fields(
    answers: Any, closes: Any, knows: Any, sees: str | None
) -> tuple[int | None, dict[int, int] | None, tuple[int, ...]]:
    """The fields of the closes rule, checked: `answers` a seq or null (only beside `sees`),
    `closes` a flat list of (key, seq) pairs, `knows` a list of tags."""
    if answers is not None:
        answers = _int(answers, "answers")
        if sees is None:
            raise Unreadable(Core.mark("not valid: the acknowledgement is incomplete"))
    table = _table(closes, "closes")
    return answers, table or None, _tags(knows, "knows", MAX_KNOWS)


def _admits(value: Any, knows: tuple[int, ...]) -> dict[int, int]:
    """`admits` as `_admits_row` writes it, checked."""
    if type(value) is not list:
        raise Unreadable(Core.mark("not valid: {what} is not a small table", what="admits"))
    if not value:
        return {}
    if len(value) < 2:
        raise Unreadable(Core.mark("not valid: {what} is not a small table", what="admits"))
    latest, bits = _int(value[0], "admits"), value[1]
    if type(bits) is not str or len(bits) != len(knows) or set(bits) - {"0", "1"}:
        raise Unreadable(Core.mark("not valid: admits does not match knows"))
    admits = _table(value[2:], "admits")
    if latest:
        admits[ANY_CLOSE] = latest
        for t, bit in zip(knows, bits, strict=True):
            if bit == "1":
                admits[t] = max(admits.get(t, 0), latest)
    return admits


def _table(pairs: Any, what: str) -> dict[int, int]:
    """A flat list of (tag, seq) pairs, at most MAX_CLOSES (`closes`, `admits`)."""
    if type(pairs) is not list or len(pairs) % 2 or len(pairs) > 2 * MAX_CLOSES:
        raise Unreadable(Core.mark("not valid: {what} is not a small table", what=what))
    return {
        _int(pairs[i], f"a key of {what}", MAX_TAG): _int(pairs[i + 1], what)
        for i in range(0, len(pairs), 2)
    }


def _tags(value: Any, what: str, most: int) -> tuple[int, ...]:
    if type(value) is not list or len(value) > most:
        raise Unreadable(Core.mark("not valid: {what} is not a short list", what=what))
    return tuple(_int(t, what, MAX_TAG) for t in value)
