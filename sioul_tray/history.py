"""What changed hands, as this computer saw it: the last changes, kept for the person who was away.

The tray records each change of keeper or of acting here (`tray.model.handovers`, the same ones it
notifies, and also those it keeps quiet about just after a wake: the catch-up is not news, but it
is history) in ``history.json`` in its state folder. ``sioul-tray history`` and the Computers
window read it. No Qt here: each change is data, put in words by the phrasebook when it is shown,
in the reader's language (`Change.words`).

The file is this tray's alone and a convenience: the tray starts a damaged one again, and never
stops for it; `sioul-tray history` says that it does not read.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sioul_tray.files import NotReadable, make_folders, read_bounded, write_new
from sioul_tray.i18n import message
from sioul_tray.timefmt import clock_time

NAME = "history.json"
KEPT = 50  # the last changes; older ones are dropped
# 2: each change as data (what happened, to which computer), put in words when it is read, in
# the reader's language; 1: the words of the tray that saw it, read still and shown as they were.
SCHEMA = 2
READ_SCHEMAS = (1, 2)
KINDS = ("here", "paused", "nobody", "moves", "made")  # `Change.kind` (`phrases.handover`)
# KEPT changes, each a few fields (or, from schema 1, a notification's title and body: a few
# hundred bytes in any language): the file is some 40 KiB at most. Past this it is not the
# tray's, and is not read.
MAX_SIZE = 256 * 1024


@dataclass(frozen=True)
class Change:
    """One change as seen here: when (wall clock), the part, and what happened as data: `kind`,
    one of the handover notes' (`phrases.handover`: "here", "paused", "nobody", "moves",
    "made"), `computer` the new keeper's name as it was shown, `left` whether this computer
    stopped acting, `status` the part's status then (`Status.to_json`, for "paused").

    `what` and `why`: a change recorded by schema 1, in the words (and the language) of the
    tray that saw it; shown as they are."""

    at: int
    part: str
    kind: str = ""
    computer: str = ""
    left: bool = False
    status: dict[str, Any] | None = None
    what: str = ""
    why: str = ""

    def words(self) -> tuple[str, str]:
        """What happened and why, in the language installed now: the notification's title and
        body."""
        if not self.kind:
            return self.what, self.why
        from sioul_tray import phrases  # the words: read only when shown
        from sioul_tray.lease.status import Status

        status = Status.from_json(self.status) if self.status is not None else None
        return phrases.handover(self.kind, self.part, self.computer, self.left, status)


class Damaged(ValueError):
    """history.json does not read: the reason."""


def path_in(state_dir: Path) -> Path:
    return Path(state_dir) / NAME


def read(path: Path) -> list[Change]:
    """The changes recorded, oldest first; [] when none were. Damaged when the file is not ours."""
    try:
        raw = read_bounded(path, MAX_SIZE)
    except FileNotFoundError:
        return []
    except NotReadable as e:  # a link, a FIFO, too large: its message names the file
        raise Damaged(message(e)) from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as e:  # RecursionError: nested beyond reason
        raise Damaged(f"{path}: {e}") from None
    try:
        schema = data["schema"]
        changes = [_change(c) for c in data["changes"]]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise Damaged(f"{path}: {e!r}") from None
    if schema not in READ_SCHEMAS:
        raise Damaged(f"{path}: schema {schema!r}, not {SCHEMA}")
    return changes


def _change(c: Any) -> Change:
    status = c.get("status")
    if status is not None and not isinstance(status, dict):
        raise TypeError("status is not an object")
    kind = str(c.get("kind", ""))
    if (kind and kind not in KINDS) or (not kind and "what" not in c):
        raise ValueError(f"no change of the kind {kind!r}")
    return Change(
        int(c["at"]),
        str(c["part"]),
        kind,
        str(c.get("computer", "")),
        bool(c.get("left", False)),
        status,
        str(c.get("what", "")),
        str(c.get("why", "")),
    )


def shown(change: Change, always_date: bool = False) -> str:
    """A change as a person reads it, in the language installed now: "10:32  Invoices move to
    Laptop (This computer no longer makes invoices.)", with the date when not today (or
    always)."""
    what, why = change.words()
    line = f"{clock_time(change.at, always_date)}  {what}"
    return line + (f" ({why})" if why else "")


def record(path: Path, changes: list[Change]) -> None:
    """Add `changes` to the file, keeping the last KEPT. A damaged file starts again; OSError
    when the file cannot be written (the caller goes on without it)."""
    if not changes:
        return
    try:
        kept = read(path)
    except Damaged:
        kept = []
    kept = [*kept, *changes][-KEPT:]
    doc = {"schema": SCHEMA, "changes": [asdict(c) for c in kept]}
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    make_folders(path.parent, 0o700)
    write_new(path, data, replace=True, mode=0o600, sync=False)
