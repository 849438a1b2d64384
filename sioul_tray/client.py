"""Sioul's side: may this computer act on a part now, until when, under which token?

The tray writes its verdict in ``status.json`` in its state directory (docs/integration.md); this
module reads it and checks its bound, with nothing heavy to import (no Qt, no cryptography, not
the lease): a Sioul written in Python asks ``verdict("invoices")`` before each record it makes. A
verdict holds only while the tray that wrote it runs, on this boot, before its ``valid_until`` on
both clocks: a tray stopped, hung or asleep lets it lapse within RENEW, by itself.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from sioul_tray.boot import boot_id, boot_ticks
from sioul_tray.dirs import home_dirs
from sioul_tray.files import FOREIGN, NotReadable, read_bounded

PARTS = ("medicines", "invoices")
STATUS_NAME = "status.json"
SCHEMA = 3  # the first shape whose tray takes a mark only while it acts (`wrote`): an older
# tray's file never says "may"
MAX_SIZE = 1 << 20  # status.json is a few kilobytes; anything larger is not the tray's

# Why a verdict says no, as a word for scripts (`reason`); `sioul-tray may` says it in words.
NO_TRAY = "no tray"  # no status.json: no tray has run here, or it could not write it
DAMAGED = "damaged"  # status.json does not read as the tray writes it
OLD_TRAY = "old tray"  # written by a tray without bounds or without `wrote` (schema 1, 2)
STOPPED = "stopped"  # the tray quit or the computer went to sleep: nothing acts
GONE = "gone"  # the process that wrote it is not running
OTHER_BOOT = "other boot"  # written before this computer last started
NOT_ACTING = "not acting"  # the tray runs and does not act on the part (its status says why)
LAPSED = "lapsed"  # the tray has not renewed the verdict in time (hung, stopped, asleep)
NOT_MINE = "not mine"  # status.json or its folder is another user's (or a link): never trusted
ACTING = "acting"


@dataclass(frozen=True)
class Verdict:
    """What the tray's status says of one part, checked against its bound now."""

    part: str
    may: bool
    reason: str  # ACTING, or why not (the words above)
    token: str | None = None  # the keeper and its tenure: written into each record made
    valid_until: float | None = None  # wall clock (Unix seconds)
    valid_until_boot: float | None = None  # this computer's boot clock (`boot.boot_ticks`)
    must_have: Mapping[str, int] = field(default_factory=dict)  # records to hold first
    wrote: int = 0  # how far this computer's own records count: past it, a record is void
    status: Mapping[str, Any] | None = None  # the core's reason (docs/tray.md), when the tray runs
    line: str | None = None  # the tray's menu line for the part, in its language

    def __bool__(self) -> bool:
        return self.may

    def left(self, now: float | None = None, ticks: float | None = None) -> float:
        """Seconds this verdict holds from now (0 when it does not)."""
        if not self.may or self.valid_until is None or self.valid_until_boot is None:
            return 0.0
        now = time.time() if now is None else now
        ticks = boot_ticks() if ticks is None else ticks
        return max(0.0, min(self.valid_until - now, self.valid_until_boot - ticks))


def status_path(state_dir: str | os.PathLike[str] | None = None) -> Path:
    """The tray's status file: in `state_dir`, else this installation's state directory
    (``SIOUL_TRAY_HOME``, else the platform's)."""
    folder = Path(state_dir) if state_dir is not None else home_dirs()[1]
    return folder / STATUS_NAME


def verdict(
    part: str,
    state_dir: str | os.PathLike[str] | None = None,
    *,
    now: float | None = None,
    ticks: float | None = None,
    alive: Callable[[int], bool] | None = None,
) -> Verdict:
    """May this computer act on `part` now? Never raises for what the file holds: a missing,
    damaged, old or lapsed status says no, with its reason."""
    if part not in PARTS:
        raise ValueError(f"no part named {part!r}: the parts are {', '.join(PARTS)}")
    path = status_path(state_dir)
    doc = _read(path) if _mine(path.parent) else NOT_MINE
    if isinstance(doc, str):
        return Verdict(part, False, doc)
    return judge(part, doc, now=now, ticks=ticks, alive=alive)


def judge(
    part: str,
    doc: Mapping[str, Any],
    *,
    now: float | None = None,
    ticks: float | None = None,
    alive: Callable[[int], bool] | None = None,
) -> Verdict:
    """The verdict a status document gives for `part` at `now` (wall) and `ticks` (boot)."""
    schema, parts = doc.get("schema"), doc.get("parts")
    if not _whole(schema) or not isinstance(parts, dict) or not isinstance(parts.get(part), dict):
        return Verdict(part, False, DAMAGED)
    if schema < SCHEMA:
        return Verdict(part, False, OLD_TRAY)
    p: dict[str, Any] = parts[part]
    status = p.get("status") if isinstance(p.get("status"), dict) else None
    line = p.get("line") if isinstance(p.get("line"), str) else None
    if doc.get("running") is not True:
        return Verdict(part, False, STOPPED)
    pid = doc.get("pid")
    if not _whole(pid) or not (alive or _alive)(pid):
        return Verdict(part, False, GONE)
    written_boot, this_boot = doc.get("boot"), boot_id()
    if written_boot is not None and this_boot is not None and written_boot != this_boot:
        return Verdict(part, False, OTHER_BOOT)
    if p.get("acting") is not True:
        return Verdict(part, False, NOT_ACTING, status=status, line=line)
    until, until_boot, token = p.get("valid_until"), p.get("valid_until_boot"), p.get("token")
    must_have, wrote = p.get("must_have"), p.get("wrote")
    if (
        not _number(until)
        or not _number(until_boot)
        or not isinstance(token, str)
        or not isinstance(must_have, dict)
        or not all(isinstance(k, str) and _whole(v) for k, v in must_have.items())
        or not _whole(wrote)
    ):
        return Verdict(part, False, DAMAGED)
    now = time.time() if now is None else now
    ticks = boot_ticks() if ticks is None else ticks
    found = Verdict(
        part, True, ACTING, token, float(until), float(until_boot), must_have, wrote, status, line
    )
    if found.left(now, ticks) <= 0:
        return Verdict(part, False, LAPSED, status=status, line=line)
    return found


def wait(
    part: str,
    seconds: float,
    state_dir: str | os.PathLike[str] | None = None,
    *,
    poll: float = 0.25,
) -> Verdict:
    """The first verdict that says "may" within `seconds`, else the last one read."""
    deadline = time.monotonic() + seconds
    while True:
        found = verdict(part, state_dir)
        left = deadline - time.monotonic()
        if found.may or left <= 0:
            return found
        time.sleep(min(poll, left))


def _mine(folder: Path) -> bool:
    """The state folder is this user's own folder, as the tray requires of it (install's
    `_private_dir`): another user could write any verdict in theirs. Not checked on Windows,
    whose profile folders are private already."""
    if os.name == "nt":
        return True
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return True  # no folder: no status.json either, said as NO_TRAY
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()


def _read(path: Path) -> dict[str, Any] | str:
    try:
        # No link followed, no FIFO waited on, no more than MAX_SIZE, this user's file only.
        data = read_bounded(path, MAX_SIZE, mine=True)
    except FileNotFoundError:
        return NO_TRAY
    except NotReadable as e:
        return NOT_MINE if e.kind == FOREIGN else DAMAGED
    try:
        doc = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return DAMAGED
    return doc if isinstance(doc, dict) else DAMAGED


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def _number(value: object) -> TypeGuard[int | float]:
    return (isinstance(value, int | float) and not isinstance(value, bool)) and abs(value) < 1e15


def _alive(pid: int) -> bool:
    """Whether process `pid` runs. Windows has no signal 0 (os.kill would end the process):
    there the pid is taken as alive, and the bound alone ends a verdict."""
    if sys.platform == "win32":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user: the bound still applies
    except OSError:
        return False
    return True
