"""Syncthing, when it syncs the sharing folder: its config.xml, its folder holding the share, and
the few REST calls sioul-tray makes (scan one file now, who is connected, who has everything).

Syncthing notices a change through its watcher, which waits fsWatcherDelayS (10 s by default)
before it scans; ``POST /rest/db/scan?folder=ID&sub=PATH`` scans that one path at once and the
file leaves within a fraction of a second. Only loopback is asked, with the API key from the
person's own config.xml, which gives full control of Syncthing: it is sent to no other address,
over HTTPS only to Syncthing's own certificate (https-cert.pem beside config.xml), and on Linux
only to a socket of this user (docs/sync.md, "How the key is protected"). Standard library only,
no Qt; every failure, and every answer however odd, is a `SyncToolError` whose message states
the fact.
"""

from __future__ import annotations

import json
import math
import os
import re
import socket
import sys
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ssl
    import xml.etree.ElementTree as ET

from sioul_tray.errors import SioulError
from sioul_tray.sync.paths import resolved, within
from sioul_tray.sync.places import config_candidates, home_folder

# Under a second: the tray's loop and the command line must never wait on a stuck Syncthing.
DEFAULT_TIMEOUT = 0.8
DEFAULT_PORT = 8384
_MAX_ANSWER = 4 * 1024 * 1024
# Addresses Syncthing listens on everywhere: it is asked on loopback then. Go listens dual-stack
# on "[::]", so 127.0.0.1 reaches it too, even where IPv6 is switched off.
_WILDCARDS = {"", "0.0.0.0", "::"}


class SyncToolError(SioulError):
    """The sync tool cannot be asked: not running, key refused, odd answer; the message says."""


# -- config.xml -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gui:
    """Where Syncthing's GUI and REST API answer, and the key they want."""

    address: str  # as written in config.xml
    host: str  # where to connect: loopback for a wildcard address
    port: int
    tls: bool
    api_key: str
    config: Path

    @property
    def where(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.where}"


@dataclass(frozen=True)
class Device:
    id: str
    name: str
    paused: bool


@dataclass(frozen=True)
class Folder:
    """A Syncthing folder: `devices` are the ids it is shared with (this device's included)."""

    id: str
    label: str
    path: Path
    kind: str  # sendreceive, sendonly, receiveonly, receiveencrypted
    paused: bool
    devices: tuple[str, ...]

    def holds(self, share: Path) -> bool:
        """Whether `share` is this folder's root or inside it (both resolved)."""
        if not self.path.is_absolute():
            # Syncthing resolves a relative path against its own working directory, unknown here.
            return False
        return within(share, self.path)


@dataclass(frozen=True)
class Config:
    """What sioul-tray reads from one config.xml."""

    path: Path
    gui: Gui | None
    gui_problem: str | None  # why `gui` is None
    folders: tuple[Folder, ...]
    devices: tuple[Device, ...]

    def folder_holding(self, share: Path) -> Folder | None:
        """The folder whose root is or contains `share`; the innermost if folders nest."""
        holding = [folder for folder in self.folders if folder.holds(share)]
        if not holding:
            return None
        return max(holding, key=lambda folder: len(resolved(folder.path).parts))


def read_config(path: Path, home: Path | None = None) -> Config:
    """Parse config.xml at `path`; `~` in folder paths is `home` (this user's by default)."""
    home = home_folder() if home is None else home
    if not os.path.lexists(path):  # the usual case in find(): no parser loaded for nothing
        raise SyncToolError(f"There is no Syncthing configuration at {path}")
    import xml.etree.ElementTree as ET  # only where a config.xml is read: 0.5 MB in the tray

    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise SyncToolError(f"There is no Syncthing configuration at {path}") from None
    except OSError as e:
        raise SyncToolError(f"Cannot read {path}: {e.strerror or e}") from None
    except ET.ParseError as e:
        raise SyncToolError(f"{path} is not valid XML: {e}") from None
    if root.tag != "configuration":
        raise SyncToolError(f"{path} is not a Syncthing configuration (<{root.tag}>)")
    gui, gui_problem = _read_gui(root.find("gui"), path)
    folders = tuple(
        Folder(
            id=element.get("id", ""),
            label=element.get("label", ""),
            # "directory" was the attribute's name in Syncthing's first config versions.
            path=_expand(element.get("path") or element.get("directory") or "", home),
            kind=element.get("type", "sendreceive"),
            paused=_flag(element, "paused"),
            devices=tuple(d.get("id", "") for d in element.findall("device") if d.get("id")),
        )
        for element in root.findall("folder")
        if element.get("id")
    )
    devices = tuple(
        Device(
            id=element.get("id", ""), name=element.get("name", ""), paused=_flag(element, "paused")
        )
        for element in root.findall("device")
        if element.get("id")
    )
    return Config(path, gui, gui_problem, folders, devices)


def _read_gui(element: ET.Element | None, config: Path) -> tuple[Gui | None, str | None]:
    if element is None or not _truthy(element.get("enabled", "true")):
        return None, f"Syncthing's GUI and REST API are switched off in {_shown(config)}"
    address = (element.findtext("address") or "").strip()
    tls = _truthy(element.get("tls", "false"))
    if address.startswith(("unix://", "/")):
        return None, f"Syncthing's GUI listens on a Unix socket ({address}), not on TCP"
    for scheme in ("http://", "https://"):
        if address.startswith(scheme):
            address, tls = address[len(scheme) :], tls or scheme == "https://"
    try:
        parts = urllib.parse.urlsplit(f"//{address}")
        host = parts.hostname or ""
        port = parts.port or DEFAULT_PORT
    except ValueError:
        return None, f"Syncthing's GUI address {address!r} in {_shown(config)} is not host:port"
    host = "127.0.0.1" if host in _WILDCARDS else host
    if not _loopback(host):
        return None, (
            f"Syncthing's GUI address {address} in {_shown(config)} is not on this computer's "
            "loopback: its API key is sent to loopback only"
        )
    api_key = (element.findtext("apikey") or "").strip()
    return Gui(address, host, port, tls, api_key, config), None


def _loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 (or an IPv4 loopback mapped in IPv6), or localhost: as written, no name
    looked up."""
    if host == "localhost":
        return True
    try:
        return socket.inet_pton(socket.AF_INET, host)[0] == 127
    except OSError:
        pass
    try:
        raw = socket.inet_pton(socket.AF_INET6, host)
    except OSError:
        return False
    return raw == bytes(15) + b"\1" or (raw[:12] == bytes(10) + b"\xff\xff" and raw[12] == 127)


def _flag(element: ET.Element, name: str) -> bool:
    """A boolean Syncthing wrote as an attribute (old configs) or as a child element (newer)."""
    value = element.get(name)
    if value is None:
        value = element.findtext(name)
    return value is not None and _truthy(value)


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("true", "1", "yes")


def _expand(raw: str, home: Path) -> Path:
    # Syncthing expands a leading ~ only, to the home of the user it runs as.
    if raw == "~":
        return home
    if raw.startswith(("~/", "~\\")):
        return home / raw[2:]
    return Path(raw)


def _shown(path: Path) -> str:
    """`path` with the home folder as ~, as the person would type it."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):
        return str(path)


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


def _tls_context() -> ssl.SSLContext:
    # Syncthing's GUI certificate is self-signed, made on each computer: no authority vouches for
    # it, and its name is "syncthing". It is pinned instead (`_trusted`): after the handshake the
    # certificate shown must be the very one in https-cert.pem, beside config.xml, before a byte
    # of the request (and its key) is sent.
    import ssl  # only for a GUI served over HTTPS: 4.5 MB the usual plain GUI never loads

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


_PEM = re.compile(rb"-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----")


def _own_certificate(gui: Gui) -> bytes:
    """Syncthing's own GUI certificate (DER): the first in https-cert.pem beside config.xml."""
    import ssl

    path = gui.config.parent / "https-cert.pem"
    try:
        with open(path, "rb") as f:
            pem = f.read(65536)
    except OSError as e:
        raise SyncToolError(
            f"cannot read Syncthing's GUI certificate {_shown(path)} ({e.strerror or e}): "
            "its API key is not sent over HTTPS without it"
        ) from None
    found = _PEM.search(pem)
    try:
        if found is None:
            raise ValueError
        return ssl.PEM_cert_to_DER_cert(found.group().decode("ascii"))
    except ValueError:
        raise SyncToolError(
            f"Syncthing's GUI certificate {_shown(path)} is not a certificate: "
            "its API key is not sent over HTTPS"
        ) from None


# -- whose socket answers (Linux) ----------------------------------------------------------------


def _server_uid(sock: socket.socket) -> int | None:
    """The user owning the socket at the other end of `sock`, a loopback connection: the row of
    /proc/net/tcp (or tcp6) whose local address is our peer and remote address ours. The kernel
    lists there the uid of the socket's owner: the user whose process made the listening socket
    (a connection not yet accepted), or accepted it. None when no row shows it."""
    ours, theirs = sock.getsockname()[:2], sock.getpeername()[:2]
    table = "tcp6" if sock.family == socket.AF_INET6 else "tcp"
    wanted = {table: {(_row(sock.family, *theirs), _row(sock.family, *ours))}}
    if sock.family == socket.AF_INET:  # a dual-stack listener ("[::]", Go's "0.0.0.0") maps it
        v6 = socket.AF_INET6
        wanted["tcp6"] = {(_row(v6, *_mapped(theirs)), _row(v6, *_mapped(ours)))}
    for _ in range(3):  # with syncookies, the other end is made a moment after connect returns
        for name, rows in wanted.items():
            uid = _uid_in(name, rows)
            if uid is not None:
                return uid
        time.sleep(0.005)
    return None


def _mapped(address: tuple[str, int]) -> tuple[str, int]:
    return f"::ffff:{address[0]}", address[1]


def _row(family: int, host: str, port: int) -> str:
    """An address as /proc/net/tcp writes it: each 32-bit word in the host's byte order, in hex."""
    raw = socket.inet_pton(family, host)
    words = (int.from_bytes(raw[i : i + 4], sys.byteorder) for i in range(0, len(raw), 4))
    return "".join(f"{word:08X}" for word in words) + f":{port:04X}"


def _uid_in(table: str, wanted: set[tuple[str, str]]) -> int | None:
    try:
        with open(f"/proc/net/{table}", "rb") as f:
            lines = f.read().decode("ascii", "replace").splitlines()[1:]
    except OSError:  # tcp6 without IPv6
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 7 and (fields[1], fields[2]) in wanted and fields[7].isdigit():
            return int(fields[7])
    return None


def _check_owner(sock: socket.socket, where: str) -> None:
    """On Linux, the end of `sock` that answers is this user's: with Syncthing not running yet,
    another user listening on its GUI port would get the key. Elsewhere no such check is made
    (docs/sync.md)."""
    if not sys.platform.startswith("linux"):
        return
    uid = _server_uid(sock)
    if uid is None:
        raise SyncToolError(
            f"cannot tell whose program answers at {where} (/proc/net/tcp does not list it): "
            "Syncthing's API key is not sent"
        )
    if uid != os.getuid():
        raise SyncToolError(
            f"what answers at {where} belongs to another user (uid {uid}), not to Syncthing "
            "running as this one: its API key is not sent"
        )


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
        self._tls: ssl.SSLContext | None = None

    def within(self, seconds: float) -> Client:
        """This client with each call ending within `seconds` (never more than its own limit)."""
        bounded = Client(self.gui, min(self.timeout, seconds))
        bounded._tls = self._tls
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
            code, body = self._exchange(method, target)
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
            raise self._refused(path, code, _first_line(body))
        if not body.strip():
            return None
        try:
            return json.loads(body, parse_constant=_no_constant)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested beyond reason
            raise SyncToolError(
                f"Syncthing at {where} answered {path} with something that is not JSON: "
                f"{_first_line(body)!r}"
            ) from None

    def _exchange(self, method: str, target: str) -> tuple[int, bytes]:
        """One HTTP/1.0 request on a socket of its own: (status code, body).

        Not urllib or http.client: they import ssl and the email package, 6 to 8 MB the tray
        would carry for its whole life for a few hundred bytes a minute. HTTP/1.0, so the answer
        is neither chunked nor kept alive: the body is what comes before the server closes. No
        proxy is ever used: the API key goes to loopback only, once the other end is known to be
        Syncthing's (`_trusted`).
        """
        key = self.gui.api_key
        if any(c in key for c in "\r\n\0"):
            raise SyncToolError(f"The Syncthing API key in {_shown(self.gui.config)} is not valid")
        if not _loopback(self.gui.host):
            raise SyncToolError(
                f"{self.gui.where} is not on this computer's loopback: Syncthing's API key is "
                "sent to loopback only"
            )
        deadline = time.monotonic() + self.timeout
        sock = socket.create_connection((self.gui.host, self.gui.port), timeout=self.timeout)
        try:
            sock = self._trusted(sock, deadline)
            request = (
                f"{method} {target} HTTP/1.0\r\nHost: {self.gui.where}\r\n"
                f"X-API-Key: {key}\r\nContent-Length: 0\r\n\r\n"
            )
            sock.sendall(request.encode("utf-8"))
            chunks: list[bytes] = []
            size = 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > _MAX_ANSWER:
                    raise SyncToolError(
                        f"Syncthing at {self.gui.where} answered {target} with over "
                        f"{_MAX_ANSWER} bytes"
                    )
        finally:
            sock.close()
        head, blank, body = b"".join(chunks).partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0].split(None, 2)
        if not blank or len(status) < 2 or not status[0].startswith(b"HTTP/"):
            raise SyncToolError(
                f"Syncthing at {self.gui.where} broke off its reply to {target.split('?')[0]}"
            )
        try:
            return int(status[1]), body
        except ValueError:
            raise SyncToolError(
                f"Syncthing at {self.gui.where} answered {target.split('?')[0]} with "
                f"{_first_line(head)!r}"
            ) from None

    def _trusted(self, sock: socket.socket, deadline: float) -> socket.socket:
        """`sock`, once its other end is known to be Syncthing's: on loopback (a name may have
        led elsewhere), a socket of this user (Linux), over HTTPS showing Syncthing's own
        certificate. SyncToolError otherwise, before anything is sent."""
        where = self.gui.where
        if not _loopback(sock.getpeername()[0]):
            raise SyncToolError(f"{where} is not on this computer's loopback: no key is sent")
        _check_owner(sock, where)
        if not self.gui.tls:
            return sock
        own = _own_certificate(self.gui)
        if self._tls is None:
            self._tls = _tls_context()
        sock.settimeout(max(0.001, deadline - time.monotonic()))  # the handshake is in the limit
        tls = self._tls.wrap_socket(sock, server_hostname=self.gui.host)
        if tls.getpeercert(binary_form=True) != own:
            tls.close()
            raise SyncToolError(
                f"Syncthing at {where} showed a certificate that is not Syncthing's own (in "
                f"{_shown(self.gui.config.parent / 'https-cert.pem')}): its API key is not sent"
            )
        return tls

    def _refused(self, path: str, code: int, detail: str) -> SyncToolError:
        config = _shown(self.gui.config)
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


def _first_line(body: bytes) -> str:
    lines = body.decode("utf-8", "replace").strip().splitlines()
    return lines[0][:200] if lines else ""


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
