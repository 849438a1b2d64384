"""What the "Computers…" window shows, as data (no Qt): the rows, the files that do not read,
what Syncthing says, in the tray's words.

The running tray answers the `computers` request with `Listing.to_json()`; the window, which
runs in a process of its own (`tray/computers.py`), reads it back with `Listing.from_json` and
only lays it out. `rows` is the one place that says who the computers are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sioul_tray import history, phrases
from sioul_tray.i18n import App, Computers, translated
from sioul_tray.lease import ALIVE, PARTS
from sioul_tray.lease.lease import Snapshot
from sioul_tray.timefmt import clock_time
from sioul_tray.tray import model
from sioul_tray.tray.model import View

if TYPE_CHECKING:
    from sioul_tray.tray.controller import Controller

SCHEMA = 1


@dataclass
class Row:
    """One computer, as this one knows it across both parts."""

    computer: str
    name: str
    heard: int | None = None  # the latest hearing of any of its claims (this computer's clock)
    active: int | None = None  # when its person was last at it, as its claims say
    keeps: list[str] = field(default_factory=list)  # parts it keeps, as seen here
    closed: list[str] = field(default_factory=list)  # parts whose claim says closed
    offset: int = 0  # how far its clock is ahead of this one's (seconds; negative: behind)
    waited: bool = False  # this computer waits for its acknowledgement
    shown: str = ""  # its name as shown: with its id where two share a name (`shown_names`)
    lines: list[str] = field(default_factory=list)  # this computer: its part lines, as the menu's
    idle: list[str] = field(default_factory=list)  # parts it keeps without acting (`Status.idle`)


@dataclass
class FileProblem:
    """A file of the sharing folder that does not read."""

    part: str
    file: str
    reason: str  # translated
    folder: str  # the folder that holds it, to show in the file manager


@dataclass
class Listing:
    """Everything the window shows, at `now` (the tray's clock)."""

    computer: str  # this computer
    now: float
    rows: list[Row] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    sync: list[str] | None = None  # what Syncthing says, where it syncs the folder
    raised: int = 0  # counts the tray's "Computers…" while the window is open: it comes forward
    changes: list[str] = field(default_factory=list)  # the last changes of hands, newest first
    alive: float = ALIVE  # the folder's ALIVE (`Timing.alive`): a claim not heard within is silent

    def to_json(self) -> str:
        return json.dumps({"schema": SCHEMA, **asdict(self)})

    @classmethod
    def from_json(cls, text: str) -> Listing:
        """The listing a `to_json` wrote; ValueError when it is not one."""
        try:
            data = json.loads(text)
            return cls(
                computer=str(data["computer"]),
                now=float(data["now"]),
                rows=[Row(**_fields(Row, r)) for r in data["rows"]],
                problems=[FileProblem(**_fields(FileProblem, p)) for p in data["problems"]],
                sync=None if data["sync"] is None else [str(s) for s in data["sync"]],
                raised=int(data.get("raised", 0)),
                changes=[str(line) for line in data.get("changes", [])],
                alive=float(data.get("alive", ALIVE)),
            )
        except (KeyError, TypeError, AttributeError, RecursionError) as e:
            raise ValueError("not a listing of computers") from e


def _fields(kind: type[Row | FileProblem], data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields `kind` knows (a newer tray may send more)."""
    known = {f.name for f in fields(kind)}
    return {k: v for k, v in data.items() if k in known}


def rows(computer: str, view: View | None, snapshots: Mapping[str, Snapshot]) -> list[Row]:
    """The window's rows: this computer first, then the others by name."""
    found: dict[str, Row] = {}
    for part, seen in snapshots.items():
        p = view.parts.get(part) if view is not None else None
        for c in seen.claims:
            row = found.setdefault(c.computer, Row(c.computer, c.name))
            heard = seen.heard.get(c.computer)
            if heard is not None and (row.heard is None or heard > row.heard):
                row.heard = heard
            row.active = c.active if row.active is None else max(row.active, c.active)
            if c.closed:
                row.closed.append(part)
            if p is not None and p.computer == c.computer:
                row.keeps.append(part)
                if p.status.idle:
                    row.idle.append(part)
            if p is not None and any(w.computer == c.computer for w in p.status.waiting):
                row.waited = True
            row.offset = seen.offsets.get(c.computer, row.offset)
    return sorted(
        found.values(), key=lambda r: (r.computer != computer, r.name.casefold(), r.computer)
    )


def shown_names(found: list[Row]) -> dict[str, str]:
    """Each computer's name as the window shows it: with its id where two share a name (the
    menu's words, `phrases.Names`)."""
    names = phrases.Names((row.computer, row.name) for row in found)
    return {row.computer: names(row.computer, row.name) for row in found}


def read(controller: Controller, raised: int = 0) -> Listing:
    """The window's content from the running tray's controller: its view and what its last
    tick read."""
    c = controller
    snapshots = {part: c.lease.last_read(part) for part in PARTS}
    found = listing(c.computer, c.view, snapshots, c.folder, c.clock(), raised)
    found.changes = recent(c.driver.history_path)
    return found


SHOWN_CHANGES = 5


def recent(path: Path | None) -> list[str]:
    """The last changes of hands this tray saw (`sioul_tray.history`), newest first, each with
    when: what the person missed while away."""
    try:
        changes = history.read(path) if path is not None else []
    except history.Damaged:
        return []
    return [history.shown(c) for c in reversed(changes[-SHOWN_CHANGES:])]


def listing(
    computer: str,
    view: View | None,
    snapshots: Mapping[str, Snapshot],
    folder: Path,
    now: float,
    raised: int = 0,
) -> Listing:
    """The window's content from what the last tick read (no scan of its own), in the words of
    the language installed."""
    found = rows(computer, view, snapshots)
    names = shown_names(found)
    for row in found:
        row.shown = names[row.computer]
        if row.computer == computer and view is not None:
            row.lines = [model.part_line(view, p) for p in PARTS if p in view.parts]
    report = view.sync if view is not None else None
    sync = None
    if report is not None:
        sync = phrases.sync_lines(report) or [
            Computers.tr("Syncthing is connected to every computer sharing the folder.")
        ]
    problems = [
        FileProblem(part, problem.file, translated(problem.reason), str(folder / "leases" / part))
        for part, seen in snapshots.items()
        for problem in seen.problems
    ]
    alive = view.timing.alive if view is not None else ALIVE
    return Listing(computer, now, found, problems, sync, raised, alive=alive)


def forget_question(
    name: str, counts_from: int | None = None, *, on_close: bool = False
) -> tuple[str, str]:
    """The title and question before declaring `name` gone for good: the menu's and the
    Computers window's. `counts_from`: when the declaration would count for invoices (it may
    still be numbering until then, only cut off), None when at once or not known. `on_close`:
    it cannot count for invoices until `name` is heard (it may be numbering on this
    computer's close)."""
    question = App.tr(
        "Treat {computer} as gone for good (given away, reinstalled, broken)?\n\n"
        "Your computers stop waiting for it: they keep medicines and make invoices without "
        "hearing from it. If {computer} comes back, it takes part again."
    ).format(computer=name)
    if on_close:
        question += "\n\n" + App.tr(
            "For invoices it cannot count: {computer} may be numbering them on this computer's "
            "close, cut off from the sync, for as long as it runs. Start {computer} for a minute "
            "with its sync running to end the wait."
        ).format(computer=name)
    elif counts_from is not None:
        question += "\n\n" + App.tr(
            "For invoices it counts from {time}: until then {computer} may still be numbering "
            "them, cut off from the sync."
        ).format(computer=name, time=clock_time(counts_from))
    return App.tr("{computer} is gone for good").format(computer=name), question
