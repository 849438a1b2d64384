"""Where an installation keeps its config, state and cache. Light on imports: Sioul's side
(`sioul_tray.client`) finds the tray's status file through it.

``SIOUL_TRAY_HOME``, when set, holds all three instead of the platform directories.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sioul_tray.errors import SioulError
from sioul_tray.i18n import Core

APP = "sioul-tray"


# The XDG variables of the three directories, each with its default under the home directory.
_XDG = (("XDG_CONFIG_HOME", "~/.config"), ("XDG_STATE_HOME", "~/.local/state"),
        ("XDG_CACHE_HOME", "~/.cache"))  # fmt: skip


def home_dirs(home: str | os.PathLike[str] | None = None) -> tuple[Path, Path, Path]:
    """The config, state and cache directories of the installation at `home`, else at
    ``SIOUL_TRAY_HOME``, else this user's (`user_dirs`)."""
    home = home if home is not None else os.environ.get("SIOUL_TRAY_HOME") or None
    if home is None:
        return user_dirs()
    root = Path(home).expanduser().absolute()  # the status file's path, given to Sioul, too
    return root / "config", root / "state", root / "cache"


def user_dirs() -> tuple[Path, Path, Path]:
    """This user's config, state and cache directories for sioul-tray: platformdirs' answer.

    On Linux, in the usual case (an absolute HOME; each XDG variable unset, empty or absolute),
    that answer is the XDG rule itself, followed here without importing platformdirs, which would
    stay in the tray's memory for three paths. Any other case asks platformdirs, whose
    versions differ on it (a relative XDG variable was once used as it is). A test holds the two
    equal.
    """
    values = [os.environ.get(name, "") for name, _ in _XDG]
    if (
        sys.platform == "linux"
        and os.environ.get("HOME", "").startswith("/")
        and not ("ANDROID_DATA" in os.environ and "ANDROID_ROOT" in os.environ)
        and all(value == "" or value.startswith("/") for value in values)
    ):
        config, state, cache = (
            Path(value or os.path.expanduser(default), APP)
            for value, (_, default) in zip(values, _XDG, strict=True)
        )
        return config, state, cache
    import platformdirs

    return (
        platformdirs.user_config_path(APP, appauthor=False),
        platformdirs.user_state_path(APP, appauthor=False),
        platformdirs.user_cache_path(APP, appauthor=False),
    )


def check_home(home: str | os.PathLike[str]) -> None:
    """SioulError when the installation's folder `home` cannot be named in UTF-8 (a name in
    another encoding, its bytes kept by Python as surrogates): the login entry, the settings and
    the status file's path given to Sioul are UTF-8 text, and such a home would pass setup, then
    stop the first start as it writes the login entry."""
    text = os.fspath(home)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(text).decode("utf-8", "backslashreplace")
        raise SioulError(
            Core.mark(
                "the installation's folder {home} is not valid UTF-8: choose a folder whose "
                "name is",
                home=shown,
            )
        ) from None
