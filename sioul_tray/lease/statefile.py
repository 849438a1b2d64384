"""What one computer remembers of the claims it read: the local state file.

The last good copy of every claim (which carries the highest ``seq`` seen), and the computers this
one declared gone, survive a restart, so an old copy put back by a sync tool is still refused and a
claim that vanished from the folder still lapses like any other.

The file is a JSON header line, then one line per claim: ``<part> TAB <claim text>``, the text being
the same compact JSON as inside the seal. Writing it costs a join, not a serialization per claim.
A damaged state file is not fatal: what reads is kept, the rest is read again from the folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sioul_tray.errors import Unreadable
from sioul_tray.files import NotReadable, make_folders, read_bounded, write_atomic
from sioul_tray.i18n import message
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.lease.codec import MAX_INT, MAX_TAG, decode
from sioul_tray.lease.rules import PARTS, Claim, tag

# 1: each declaration with when it was last heard; 2: the seq alone; 3: what the closes named, by
# the computers' tags (`rules.tag`), as the claims carry it.
STATE_VERSION = 3
# A line per computer and part, each under a claim's 512 bytes (`codec.MAX_FILE`), and a header
# of declarations: 8 MiB holds 8,000 computers, eight times the most measured
# (docs/performance.md). A larger file is not this program's: not read, the folder read instead.
MAX_SIZE = 8 << 20


@dataclass
class Remembered:
    """The state as read back: claims per part, and forgotten computers per part.

    `found`: the file was there. `problem`: what did not read (then not everything is known).
    """

    claims: dict[str, dict[str, tuple[Claim, str]]] = field(default_factory=dict)
    forgets: dict[str, dict[str, int]] = field(default_factory=dict)
    named: dict[str, dict[int, int]] = field(default_factory=dict)  # see `machine.Knowledge.named`
    problem: str | None = None
    found: bool = False


def load(path: Path) -> Remembered:
    got = Remembered({p: {} for p in PARTS}, {p: {} for p in PARTS}, {p: {} for p in PARTS})
    try:
        raw = read_bounded(path, MAX_SIZE).decode("utf-8")
    except FileNotFoundError:
        return got
    except NotReadable as e:  # its message names the file
        got.found = True
        got.problem = f"{message(e)}; starting from the folder alone"
        return got
    except UnicodeDecodeError as e:
        got.found = True
        got.problem = f"{path}: cannot be read ({e}); starting from the folder alone"
        return got
    got.found = True
    head, _, body = raw.partition("\n")
    try:
        header = json.loads(head)
        version = header.get("version")
        if version not in (1, 2, STATE_VERSION):
            raise ValueError("unknown version")
        forgets: dict[str, dict[str, int]] = {}
        for part, table in header.get("forgets", {}).items():
            if part in got.forgets:
                forgets[part] = {_id(k): _declared(v, version) for k, v in table.items()}
        named: dict[str, dict[int, int]] = {}
        for part, table in header.get("named", {}).items():
            if part in got.named:
                named[part] = {_key(k, version): _declared(v, 2) for k, v in table.items()}
    except (ValueError, TypeError, AttributeError, LookupError, RecursionError):
        got.problem = f"{path}: damaged header; starting from the folder alone"
        return got
    got.forgets.update(forgets)
    got.named.update(named)
    bad = 0
    for line in body.splitlines():
        part, _, text = line.partition("\t")
        try:
            claim = decode(text)
        except Unreadable:
            bad += 1
            continue
        if claim.part != part or part not in got.claims:
            bad += 1
            continue
        got.claims[part][claim.computer] = (claim, text)
    if bad:
        got.problem = f"{path}: {bad} damaged lines skipped"
    return got


def _id(value: object) -> str:
    # Remembered declarations go into this computer's claims as they are: a bad one would make
    # every claim it writes unreadable to the others.
    if not isinstance(value, str) or not COMPUTER_ID.fullmatch(value):
        raise ValueError("not a computer id")
    return value


def _key(value: object, version: int) -> int:
    """A key of `named`: a tag (version 3), or the computer id it stands for (version 2)."""
    if version < STATE_VERSION:
        return tag(_id(value))
    if not isinstance(value, str) or not value.isdigit() or len(value) > 10:
        raise ValueError("not a key")
    key = int(value)
    if key > MAX_TAG:
        raise ValueError("not a key")
    return key


def _declared(value: object, version: int) -> int:
    """The seq of one remembered declaration, or ValueError. Version 1 kept [seq, heard]."""
    if version == 1:
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError("not a declaration")
        value = value[0]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_INT:
        raise ValueError("not a declaration")
    return value


def save(
    path: Path,
    claims: Mapping[str, Mapping[str, str]],
    forgets: Mapping[str, Mapping[str, int]],
    named: Mapping[str, Mapping[int, int]] | None = None,
) -> None:
    """Write the state atomically. Not fsynced: a crash of the process loses nothing written,
    a crash of the machine may lose the last writes (the claims' own seqs keep rising then)."""
    header = json.dumps(
        {
            "version": STATE_VERSION,
            "forgets": {p: dict(t) for p, t in forgets.items() if t},
            "named": {p: {str(k): v for k, v in t.items()} for p, t in (named or {}).items() if t},
        }
    )

    def lines() -> Iterator[str]:
        yield header
        for part, texts in claims.items():
            for text in texts.values():
                yield f"{part}\t{text}"

    make_folders(path.parent, 0o700)  # this user's alone, whatever the umask
    write_atomic(path, ("\n".join(lines()) + "\n").encode("utf-8"), sync=False)


def begin(path: Path) -> None:
    """The state file of a folder's creator, begun as it seals the folder: empty. Its first run
    reads it whole, which is how a run shows that this installation made the folder and ran on
    it since (the creator alone acts on an empty view: docs/protocol.md, "When this computer
    acts", S2). Never over one that is there."""
    if not path.exists():
        save(path, {}, {})


def state_file(state_dir: str | os.PathLike[str], folder_id: str, computer: str) -> Path:
    return Path(state_dir) / f"lease-{folder_id}-{computer}.state"
