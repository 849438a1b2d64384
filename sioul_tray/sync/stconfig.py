"""Syncthing's config.xml, as sioul-tray reads it: where its GUI and REST API answer (with the API
key), its devices and its folders. Standard library only, no Qt; every failure is a
`SyncToolError` whose message states the fact.
"""

from __future__ import annotations

import os
import socket
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

from sioul_tray.errors import SioulError
from sioul_tray.files import NotReadable, read_bounded
from sioul_tray.sync.paths import resolved, within
from sioul_tray.sync.places import home_folder

DEFAULT_PORT = 8384
# config.xml is some kilobytes, a few hundred bytes a folder and a device: 8 MiB holds thousands
# of each. A larger file is not read (its tree would take ten times that in memory).
MAX_CONFIG = 8 << 20
# Addresses Syncthing listens on everywhere: it is asked on loopback then. Go listens dual-stack
# on "[::]", so 127.0.0.1 reaches it too, even where IPv6 is switched off.
_WILDCARDS = {"", "0.0.0.0", "::"}


class SyncToolError(SioulError):
    """The sync tool cannot be asked: not running, key refused, odd answer; the message says."""


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
        # Syncthing's own file, not ours: a link (a dotfiles manager's) is followed; a FIFO, a
        # device or a huge file is refused at once.
        root = ET.fromstring(read_bounded(path, MAX_CONFIG, follow=True))
    except FileNotFoundError:
        raise SyncToolError(f"There is no Syncthing configuration at {path}") from None
    except NotReadable as e:
        raise SyncToolError(*e.args) from None
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
        return None, f"Syncthing's GUI and REST API are switched off in {shown(config)}"
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
        return None, f"Syncthing's GUI address {address!r} in {shown(config)} is not host:port"
    host = "127.0.0.1" if host in _WILDCARDS else host
    if not loopback(host):
        return None, (
            f"Syncthing's GUI address {address} in {shown(config)} is not on this computer's "
            "loopback: its API key is sent to loopback only"
        )
    api_key = (element.findtext("apikey") or "").strip()
    return Gui(address, host, port, tls, api_key, config), None


def loopback(host: str) -> bool:
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


def shown(path: Path) -> str:
    """`path` with the home folder as ~, as the person would type it."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):
        return str(path)
