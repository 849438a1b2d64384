"""What changed hands, as this computer saw it: the last changes, kept for the person who was away.

The tray records each change of keeper or of acting here (`tray.model.handovers`, the same ones it
notifies, and also those it keeps quiet about just after a wake: the catch-up is not news, but it
is history) in ``history.json`` in its state folder. ``sioul-tray history`` and the Computers
window read it. No Qt here, no lease: a reader needs only this module.

The file is this tray's alone and a convenience: the tray starts a damaged one again, and never
stops for it; `sioul-tray history` says that it does not read.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from sioul_tray.files import NotReadable, make_folders, read_bounded, write_new
from sioul_tray.i18n import message
from sioul_tray.timefmt import clock_time

NAME = "history.json"
KEPT = 50  # the last changes; older ones are dropped
SCHEMA = 1
# KEPT changes, each a notification's title and body (a few hundred bytes, in any language): the
# file is some 40 KiB at most. Past this it is not the tray's, and is not read.
MAX_SIZE = 256 * 1024


@dataclass(frozen=True)
class Change:
    """One change as seen here: when (wall clock), the part, what happened (the notification's
    title, in the language of the tray that saw it) and its body (empty where it has none)."""

    at: int
    part: str
    what: str
    why: str


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
        changes = [
            Change(int(c["at"]), str(c["part"]), str(c["what"]), str(c["why"]))
            for c in data["changes"]
        ]
    except (KeyError, TypeError, ValueError) as e:
        raise Damaged(f"{path}: {e!r}") from None
    if schema != SCHEMA:
        raise Damaged(f"{path}: schema {schema!r}, not {SCHEMA}")
    return changes


def shown(change: Change, always_date: bool = False) -> str:
    """A change as a person reads it: "10:32  Invoices move to Laptop… (This computer no longer
    makes invoices.)", with the date when not today (or always)."""
    line = f"{clock_time(change.at, always_date)}  {change.what}"
    return line + (f" ({change.why})" if change.why else "")


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
