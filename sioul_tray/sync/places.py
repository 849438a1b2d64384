"""Where Syncthing keeps its config.xml, per platform: known without loading the configuration
parser or the HTTP client, so a computer without Syncthing pays for nothing more than a few
`stat`s (`Installation` looks here first)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path


def system_name() -> str:
    """As `platform.system()` says it, without loading `platform`."""
    if sys.platform.startswith("win"):
        return "Windows"
    if sys.platform == "darwin":
        return "Darwin"
    return "Linux"


def home_folder() -> Path:
    try:
        return Path.home()
    except RuntimeError:  # no HOME and no passwd entry: nothing to expand ~ to
        return Path("~")


def config_candidates(
    env: Mapping[str, str] | None = None, home: Path | None = None, system: str | None = None
) -> list[Path]:
    """Where config.xml may be, in the order Syncthing itself looks.

    ``$STCONFDIR`` / ``$STHOMEDIR`` first (set for a Syncthing started with them). On Linux,
    Syncthing 1.27+ keeps using ``$XDG_CONFIG_HOME/syncthing`` or ``~/.config/syncthing`` when a
    config is there (every older install, Debian 12's 1.19 included), else
    ``$XDG_STATE_HOME/syncthing`` or ``~/.local/state/syncthing``.
    """
    env = os.environ if env is None else env
    home = home_folder() if home is None else home
    system = system_name() if system is None else system
    folders: list[Path] = [Path(env[name]) for name in ("STCONFDIR", "STHOMEDIR") if env.get(name)]
    if system == "Windows":
        local = env.get("LOCALAPPDATA")
        folders.append(
            Path(local) / "Syncthing" if local else home / "AppData" / "Local" / "Syncthing"
        )
    elif system == "Darwin":
        folders.append(home / "Library" / "Application Support" / "Syncthing")
    else:
        # XDG variables count only as absolute paths (the XDG rule; Syncthing follows it).
        for variable, default in (
            ("XDG_CONFIG_HOME", home / ".config"),
            ("XDG_STATE_HOME", home / ".local" / "state"),
        ):
            value = env.get(variable, "")
            if os.path.isabs(value):
                folders.append(Path(value) / "syncthing")
            folders.append(default / "syncthing")
    unique = list(dict.fromkeys(folders))
    return [folder / "config.xml" for folder in unique]


def any_config() -> bool:
    """Whether a config.xml is in any of the standard places (Syncthing may sync the folder)."""
    return any(path.is_file() for path in config_candidates())
