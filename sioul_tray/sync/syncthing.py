"""Syncthing, when it syncs the sharing folder: which of its folders holds the share (`find`),
and the few REST calls sioul-tray makes (scan one file now, who is connected, who has
everything), with the wait until every connected device has the folder (`sent_to_all`).

Syncthing notices a change through its watcher, which waits fsWatcherDelayS (10 s by default)
before it scans; ``POST /rest/db/scan?folder=ID&sub=PATH`` scans that one path at once and the
file leaves within a fraction of a second. Its config.xml is read in `stconfig`; the requests go
through `sttransport`, which sends the API key (full control of Syncthing) to loopback only, to
Syncthing's own socket and certificate. Standard library only, no Qt; every failure, and every
answer however odd, is a `SyncToolError` whose message states the fact.
"""

from __future__ import annotations

import json
import math
import re
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sioul_tray.sync.paths import resolved
from sioul_tray.sync.places import config_candidates
from sioul_tray.sync.stconfig import (
    Config,
    Device,
    Folder,
    Gui,
    SyncToolError,
    read_config,
    shown,
)
from sioul_tray.sync.sttransport import Transport, first_line

__all__ = [
    "Client",
    "Config",
    "Device",
    "Folder",
    "Gui",
    "SyncToolError",
    "Syncthing",
    "find",
    "read_config",
    "sent_to_all",
]

# Under a second: the tray's loop and the command line must never wait on a stuck Syncthing.
DEFAULT_TIMEOUT = 0.8


# -- the folder holding the share -----------------------------------------------------------------


@dataclass(frozen=True)
class Syncthing:
    """The Syncthing folder that syncs the share, and how to reach that Syncthing."""

    config: Config
    gui: Gui | None
    folder: Folder

    def client(self, timeout: float = DEFAULT_TIMEOUT) -> Client:
        if self.gui is None:
            raise SyncToolError(self.config.gui_problem or "Syncthing has no GUI address")
        return Client(self.gui, timeout)

    def sub(self, path: Path) -> str:
        """`path` relative to the folder's root, with / separators, as the scan API wants it."""
        # The parent is resolved, not the file: the share may be reached through a symlink.
        absolute = resolved(path.parent) / path.name
        try:
            return absolute.relative_to(resolved(self.folder.path)).as_posix()
        except ValueError:
            raise SyncToolError(
                f"{path} is outside Syncthing's folder {self.folder.path}"
            ) from None


def find(share: Path, candidates: Iterable[Path] | None = None) -> Syncthing | None:
    """The Syncthing folder holding `share`, from the first config.xml (of `candidates`, else the
    standard places) that has one; None when Syncthing does not sync it. Unreadable configs are
    passed over: this is detection."""
    for path in config_candidates() if candidates is None else candidates:
        try:
            config = read_config(path)
        except SyncToolError:
            continue
        folder = config.folder_holding(share)
        if folder is not None:
            return Syncthing(config, config.gui, folder)
    return None


# -- the REST API ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Connection:
    device_id: str
    connected: bool
    paused: bool
    address: str


@dataclass(frozen=True)
class Completion:
    """What Syncthing knows of one device's copy of one folder."""

    percent: float
    need_items: int
    need_bytes: int
    need_deletes: int
    sequence: int  # the last index entry received from that device; 0: none yet
    remote_state: str | None  # "valid", "paused", "notSharing", "unknown" (Syncthing 1.20+)

    @property
    def complete(self) -> bool:
        """The device has everything this one has, as far as Syncthing can tell.

        A device that never sent an index (sequence 0) is not tracked: Syncthing reports it at
        100 with nothing needed even just after a scan (seen with 1.19), so that proves nothing.
        """
        return (
            self.percent >= 100
            and self.need_items == 0
            and self.need_deletes == 0
            and self.sequence > 0
            and self.remote_state in (None, "valid")
        )


@dataclass(frozen=True)
class FolderStatus:
    state: str  # idle, scanning, syncing, error, ...
    need_items: int
    errors: int
    invalid: str


# -- answers --------------------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity: not JSON, and never Syncthing's


def _count(value: object) -> int:
    """A count or sequence number as Syncthing writes it: a whole number, from 0 to 2^63 (1e999
    reads as infinity: int() of it would raise OverflowError)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or not 0 <= value < 2**63:
        raise ValueError(value)
    return value


def _percent(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(value)
    try:
        percent = float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise ValueError(value) from None
    if not math.isfinite(percent):  # 1e999 reads as infinity
        raise ValueError(value)
    return percent


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def _text(value: object) -> str:
    """A text field; an absent one is empty."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(value)
    return value


class Client:
    """Syncthing's REST API at `gui`, each call under `timeout` seconds."""

    def __init__(self, gui: Gui, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.gui = gui
        self.timeout = timeout
        self.transport = Transport(gui, timeout)

    def within(self, seconds: float) -> Client:
        """This client with each call ending within `seconds` (never more than its own limit)."""
        bounded = Client(self.gui, min(self.timeout, seconds))
        bounded.transport = self.transport.within(bounded.timeout)
        return bounded

    def ping(self) -> None:
        """Returns when Syncthing answers with the key; raises SyncToolError otherwise."""
        answer = self._call("GET", "/rest/system/ping")
        if not isinstance(answer, dict) or answer.get("ping") != "pong":
            raise self._odd("/rest/system/ping", answer)

    def my_id(self) -> str:
        path = "/rest/system/status"
        return str(self._field(path, self._call("GET", path), "myID", str))

    def scan(self, folder_id: str, *subs: str) -> None:
        """Scan these paths of the folder now (the whole folder without `subs`).

        Syncthing answers once the scan is done, so the changes are in its index on return."""
        self._call("POST", "/rest/db/scan", [("folder", folder_id), *(("sub", s) for s in subs)])

    def connections(self) -> dict[str, Connection]:
        """Every device Syncthing knows (this one too on some versions), connected or not."""
        path = "/rest/system/connections"
        answer = self._call("GET", path)
        table = self._field(path, answer, "connections", dict)
        try:
            return {
                device: Connection(
                    device,
                    _bool(entry["connected"]),
                    _bool(entry.get("paused", False)),
                    _text(entry.get("address")),
                )
                for device, entry in table.items()
            }
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._odd(path, answer) from None

    def last_seen(self) -> dict[str, float | None]:
        """When Syncthing last saw each device connected (Unix seconds; None: never)."""
        path = "/rest/stats/device"
        answer = self._call("GET", path)
        if not isinstance(answer, dict):
            raise self._odd(path, answer)
        return {
            str(device): _instant(entry.get("lastSeen") if isinstance(entry, dict) else None)
            for device, entry in answer.items()
        }

    def folder_paused(self, folder_id: str) -> bool:
        """Whether the folder is paused now (its configuration as Syncthing runs it)."""
        path = f"/rest/config/folders/{urllib.parse.quote(folder_id, safe='')}"
        return bool(self._field(path, self._call("GET", path), "paused", bool))

    def completion(self, folder_id: str, device_id: str) -> Completion:
        path = "/rest/db/completion"
        answer = self._call("GET", path, [("folder", folder_id), ("device", device_id)])
        try:
            state = answer.get("remoteState")
            return Completion(
                percent=_percent(answer["completion"]),
                need_items=_count(answer.get("needItems", 0)),
                need_bytes=_count(answer.get("needBytes", 0)),
                need_deletes=_count(answer.get("needDeletes", 0)),
                sequence=_count(answer.get("sequence", 0)),
                remote_state=None if state is None else _text(state),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._odd(path, answer) from None

    def status(self, folder_id: str) -> FolderStatus:
        path = "/rest/db/status"
        answer = self._call("GET", path, [("folder", folder_id)])
        try:
            return FolderStatus(
                state=_text(answer["state"]),
                need_items=_count(answer.get("needTotalItems", answer.get("needFiles", 0))),
                errors=_count(answer.get("errors", 0)),
                invalid=_text(answer.get("invalid")),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise self._odd(path, answer) from None

    # -- one call -------------------------------------------------------------------------------

    def _call(self, method: str, path: str, query: Iterable[tuple[str, str]] = ()) -> Any:
        """The JSON answer (None for an empty one); every failure as SyncToolError."""
        target = path
        encoded = urllib.parse.urlencode(list(query))
        if encoded:
            target += "?" + encoded
        where = self.gui.where
        try:
            code, body = self.transport.exchange(method, target)
        except TimeoutError:
            raise SyncToolError(
                f"Syncthing at {where} did not reply to {path} within {self.timeout:g} s"
            ) from None
        except ConnectionRefusedError:
            raise SyncToolError(
                f"Syncthing does not answer at {where}: connection refused"
            ) from None
        except OSError as e:  # unreachable, reset, a TLS failure
            raise SyncToolError(
                f"Syncthing does not answer at {where}: {e.strerror or e}"
            ) from None
        if code >= 400:
            raise self._refused(path, code, first_line(body))
        if not body.strip():
            return None
        try:
            return json.loads(body, parse_constant=_no_constant)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested beyond reason
            raise SyncToolError(
                f"Syncthing at {where} answered {path} with something that is not JSON: "
                f"{first_line(body)!r}"
            ) from None

    def _refused(self, path: str, code: int, detail: str) -> SyncToolError:
        config = shown(self.gui.config)
        if code in (401, 403):
            if not self.gui.api_key:
                return SyncToolError(f"There is no Syncthing API key in {config}")
            return SyncToolError(f"Syncthing refused the API key in {config}")
        if code == 404:
            return SyncToolError(f"Syncthing at {self.gui.where} does not know {path}")
        return SyncToolError(
            f"Syncthing at {self.gui.where} answered {code} to {path}"
            + (f": {detail}" if detail else "")
        )

    def _odd(self, path: str, answer: Any) -> SyncToolError:
        try:
            shown = json.dumps(answer)[:200]
        except (ValueError, RecursionError):  # nested almost beyond reason: parsed, not written
            shown = f"a {type(answer).__name__} nested too deep to show"
        return SyncToolError(
            f"Syncthing at {self.gui.where} answered {path} with unexpected data: {shown}"
        )

    def _field(self, path: str, answer: Any, name: str, kind: type) -> Any:
        value = answer.get(name) if isinstance(answer, dict) else None
        if not isinstance(value, kind):
            raise self._odd(path, answer)
        return value


def _instant(value: object) -> float | None:
    """An RFC 3339 time as Syncthing writes it (nanoseconds, an offset) in Unix seconds; None for
    the zero time it gives a device never seen, or anything else."""
    if not isinstance(value, str):
        return None
    import datetime

    text = re.sub(r"(\.\d{6})\d+", r"\1", value.strip()).replace("Z", "+00:00")
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    seconds = moment.timestamp()
    return seconds if seconds > 86400 else None  # 1970-01-01: never


# -- has every connected device got everything? ---------------------------------------------------


def sent_to_all(client: Client, folder: Folder, timeout: float, poll: float = 0.1) -> bool:
    """Wait until every device sharing `folder` that is connected (and not paused) has all of it;
    whether it happened within `timeout` seconds. True at once when no such device is connected:
    nothing can be sent then. Raises SyncToolError when Syncthing does not answer."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if _connected_have_all(client, folder, deadline):
                return True
        except SyncToolError:
            if time.monotonic() < deadline:
                raise
            return False  # the time given ran out during a question: not known to have all
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(poll, left))


def _connected_have_all(client: Client, folder: Folder, deadline: float) -> bool:
    """Each question within what is left before `deadline` (before sleep this runs on the
    tray's thread: nothing may hold it longer); False when nothing is left."""
    asked = _until(client, deadline)
    if asked is None:
        return False
    connections = asked.connections()
    for device in folder.devices:
        link = connections.get(device)
        # This device itself is never "connected"; a paused or absent one gets nothing now.
        if link is None or not link.connected or link.paused:
            continue
        asked = _until(client, deadline)
        if asked is None or not asked.completion(folder.id, device).complete:
            return False
    return True


def _until(client: Client, deadline: float) -> Client | None:
    left = deadline - time.monotonic()
    return client.within(left) if left > 0 else None
