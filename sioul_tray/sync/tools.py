"""Which sync tool syncs a folder, read from the tools' own configuration files (no API asked).

Syncthing (config.xml), Dropbox (``~/.dropbox/info.json``), Nextcloud (``nextcloud.cfg``) and
OneDrive (Windows' environment, or the Linux client's ``~/.config/onedrive/config``). Only
Syncthing can be asked anything (see syncthing.py); the others are named so the setup window and
the messages can say which tool is in charge. Detection never raises: a configuration that does
not read is passed over.
"""

from __future__ import annotations

import configparser
import json
import os
import platform
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sioul_tray.errors import SioulError
from sioul_tray.files import read_bounded
from sioul_tray.sync import syncthing
from sioul_tray.sync.paths import resolved, within
from sioul_tray.sync.places import config_candidates

SYNCTHING = "Syncthing"
DROPBOX = "Dropbox"
NEXTCLOUD = "Nextcloud"
ONEDRIVE = "OneDrive"

SCAN_AND_COMPLETION = "scan and completion"
DETECTION_ONLY = "nothing: detection only"
# Dropbox's info.json, nextcloud.cfg and OneDrive's config name a few folders each: some kilobytes.
# Read with no more (`files.read_bounded`; the tools' own files: a link is followed).
MAX_TOOL_CONFIG = 1 << 20


@dataclass(frozen=True)
class Found:
    """A folder a sync tool syncs: `root` is its top, `can` what sioul-tray can ask the tool."""

    tool: str
    root: Path
    can: str
    label: str = ""  # Syncthing's folder label, Dropbox's account, ...
    config: Path | None = None  # the file it was read from
    folder_id: str | None = None  # Syncthing's folder id

    def holds(self, share: Path) -> bool:
        return within(share, self.root)


def which_tool(
    share: Path,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
    system: str | None = None,
) -> Found | None:
    """The tool syncing `share` (the innermost folder when tools' folders nest), or None."""
    holding = [found for found in synced_folders(home, env, system) if found.holds(share)]
    if not holding:
        return None
    # max() keeps the first of equals: the order of synced_folders breaks ties.
    return max(holding, key=lambda found: len(resolved(found.root).parts))


def synced_folders(
    home: Path | None = None, env: Mapping[str, str] | None = None, system: str | None = None
) -> list[Found]:
    """Every folder the detected tools sync, as their configuration says, each root once."""
    home = Path.home() if home is None else home
    env = os.environ if env is None else env
    system = platform.system() if system is None else system
    readers: tuple[Callable[[Path, Mapping[str, str], str], list[Found]], ...] = (
        _syncthing,
        _dropbox,
        _nextcloud,
        _onedrive,
    )
    found: dict[tuple[str, Path], Found] = {}
    for read in readers:
        try:
            listed = read(home, env, system)
        # SioulError: SyncToolError, files.NotReadable; RecursionError: JSON nested beyond reason
        except (OSError, ValueError, RecursionError, SioulError, configparser.Error):
            continue  # detection: a configuration that does not read is no tool
        for each in listed:
            found.setdefault((each.tool, resolved(each.root)), each)
    return list(found.values())


# -- each tool ------------------------------------------------------------------------------------


def _read(config: Path) -> bytes:
    """A tool's configuration file; files.NotReadable (a FIFO, a device, too large) or OSError."""
    return read_bounded(config, MAX_TOOL_CONFIG, follow=True)


def _syncthing(home: Path, env: Mapping[str, str], system: str) -> list[Found]:
    found = []
    for path in config_candidates(env, home, system):
        try:
            config = syncthing.read_config(path, home)
        except syncthing.SyncToolError:
            continue
        can = SCAN_AND_COMPLETION if config.gui is not None else DETECTION_ONLY
        found += [
            Found(SYNCTHING, folder.path, can, folder.label or folder.id, path, folder.id)
            for folder in config.folders
            if folder.path.is_absolute()
        ]
    return found


def _dropbox(home: Path, env: Mapping[str, str], system: str) -> list[Found]:
    places = [home / ".dropbox" / "info.json"]
    if system == "Windows":
        places += [
            Path(env[v]) / "Dropbox" / "info.json" for v in ("APPDATA", "LOCALAPPDATA") if v in env
        ]
    found = []
    for place in places:
        if not place.is_file():
            continue
        # {"personal": {"path": "/home/x/Dropbox", ...}, "business": {"path": ...}}
        info = json.loads(_read(place).decode("utf-8"))
        if not isinstance(info, dict):
            continue
        for account, entry in info.items():
            if isinstance(entry, dict) and isinstance(entry.get("path"), str) and entry["path"]:
                found.append(Found(DROPBOX, Path(entry["path"]), DETECTION_ONLY, account, place))
    return found


# Qt's INI keys for a synced folder: 0\Folders\1\localPath (also the virtual-files variants).
_NEXTCLOUD_FOLDER = re.compile(
    r"\d+\\(Folders|FoldersWithPlaceholders|Multifolders)\\[^\\]+\\localPath"
)
_QT_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,4}|.)")


def _nextcloud(home: Path, env: Mapping[str, str], system: str) -> list[Found]:
    if system == "Windows":
        places = [Path(env["APPDATA"]) / "Nextcloud"] if "APPDATA" in env else []
    elif system == "Darwin":
        places = [home / "Library" / "Preferences" / "Nextcloud"]
    else:
        places = [_xdg_config(home, env) / "Nextcloud"]
    found = []
    for place in (folder / "nextcloud.cfg" for folder in places):
        if not place.is_file():
            continue
        ini = configparser.RawConfigParser(strict=False)  # Qt's INI: % and repeats are fine
        ini.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
        ini.read_string(_read(place).decode("utf-8", errors="replace"))
        if not ini.has_section("Accounts"):
            continue
        for key, value in ini.items("Accounts"):
            if _NEXTCLOUD_FOLDER.fullmatch(key) and value.strip():
                root = Path(_qt_ini_string(value.strip()))
                found.append(Found(NEXTCLOUD, root, DETECTION_ONLY, "", place))
    return found


def _qt_ini_string(raw: str) -> str:
    """A string value as QSettings writes it: maybe quoted, with \\\\, \\" and \\xNNNN escapes."""
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]

    def unescape(match: re.Match[str]) -> str:
        code = match.group(1)
        return chr(int(code[1:], 16)) if code.startswith("x") and len(code) > 1 else code

    return _QT_ESCAPE.sub(unescape, raw)


def _onedrive(home: Path, env: Mapping[str, str], system: str) -> list[Found]:
    found = []
    if system == "Windows":
        # The OneDrive client sets these for the signed-in accounts.
        for variable in ("OneDrive", "OneDriveConsumer", "OneDriveCommercial"):
            if env.get(variable):
                found.append(Found(ONEDRIVE, Path(env[variable]), DETECTION_ONLY, variable))
        return found
    # The Linux client (abraunegg/onedrive) keeps its state, and an optional config, here.
    folder = _xdg_config(home, env) / "onedrive"
    config = folder / "config"
    if config.is_file():
        root = _onedrive_sync_dir(_read(config).decode("utf-8", errors="replace"))
    elif (folder / "refresh_token").is_file():  # signed in, never configured: the default
        root = None
    else:
        return found
    root = root or "~/OneDrive"
    path = home / root[2:] if root.startswith("~/") else Path(root)
    found.append(Found(ONEDRIVE, path, DETECTION_ONLY, "", config if config.is_file() else folder))
    return found


def _onedrive_sync_dir(text: str) -> str | None:
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        if key.strip() == "sync_dir":
            return value.strip().strip('"').strip() or None
    return None


def _xdg_config(home: Path, env: Mapping[str, str]) -> Path:
    value = env.get("XDG_CONFIG_HOME", "")
    return Path(value) if os.path.isabs(value) else home / ".config"
