"""Start at login: an XDG autostart file (Linux), a LaunchAgent (macOS), the Run key (Windows).

This module is the one source of the desktop entry and the LaunchAgent: the packaged files
(packaging/linux/org.sioul.tray.desktop, packaging/macos/org.sioul.tray.plist) are written from
`desktop_entry` and `launch_agent` by packaging/make-entries.py, and tests/packaging checks that
they still are. The installer's Run value (packaging/windows/sioul-tray.iss) is checked too.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path

from sioul_tray.errors import SioulError
from sioul_tray.files import make_folders, write_new
from sioul_tray.i18n import Core

APP = "sioul-tray"
# The application id: the desktop entry's file name, the LaunchAgent's label, AppStream's id.
APP_ID = "org.sioul.tray"
LABEL = APP_ID
ICON = APP  # the theme icon name (hicolor/*/apps/sioul-tray.png), also the notifications' icon

COMMENT = "Keeps Sioul's medicines and invoices on one computer at a time"
COMMENT_FR = "Garde les médicaments et les factures de Sioul sur un seul ordinateur à la fois"


def command() -> list[str]:
    """How to start this tray again (and its windows, each in a process of its own): the bundle's
    program when frozen (PyInstaller), else the same interpreter running the installed package.
    `-P`: the current folder is not put on the module path, so a tray started from a checkout
    (`.venv/bin/sioul-tray` there) starts the package installed, not the checkout's source tree
    (which has no `sioul_tray.resources` and no compiled catalogue); PYTHONPATH is kept."""
    if getattr(sys, "frozen", False):
        program = Path(sys.executable)
        # Windows: the windowed twin, so that no console window opens at login (see the spec).
        gui = program.with_name(f"{APP}-gui.exe")
        if sys.platform == "win32" and gui.is_file():
            return [str(gui)]
        return [str(program)]
    return [sys.executable, "-P", "-m", "sioul_tray.cli"]


def login_command() -> list[str]:
    """What starts the tray at login: the bundle's program when frozen; else the `sioul-tray`
    entry point pip installed beside this interpreter (or on PATH), which a moved checkout or a
    newer Python does not leave pointing at a module path; else the module, as `command`. An
    installation kept in SIOUL_TRAY_HOME (a portable one) says so: login sets no variable."""
    home = os.environ.get("SIOUL_TRAY_HOME")
    where = ["--home", str(Path(home).expanduser().absolute())] if home else []
    if getattr(sys, "frozen", False):
        return [*command(), *where]
    import shutil

    beside = Path(sys.executable).with_name(APP + (".exe" if sys.platform == "win32" else ""))
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside), *where]
    found = shutil.which(APP)
    return [found, *where] if found else [*command(), *where]


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def install_launcher(resources: Path, data: Path | None = None) -> list[Path]:
    """On Linux, where no package did: the menu's desktop entry and the icon it names, in this
    user's data folders (the autostart entry and the notifications name that icon too). Files
    already there are left as they are (a package's, or the person's). Returns those written."""
    if sys.platform in ("win32", "darwin") or getattr(sys, "frozen", False):
        return []
    data = data or data_home()
    wanted: list[tuple[Path, bytes]] = [
        (
            data / "applications" / f"{APP_ID}.desktop",
            _utf8(desktop_entry(login_command()), data / "applications" / f"{APP_ID}.desktop"),
        ),
        (data / "icons" / "hicolor" / "scalable" / "apps" / f"{ICON}.svg",
         (resources / "both.svg").read_bytes()),
    ]  # fmt: skip
    for png in sorted(resources.glob("both-*.png")):
        size = png.stem.removeprefix("both-")
        wanted.append(
            (
                data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{ICON}.png",
                png.read_bytes(),
            )
        )
    written = []
    for path, content in wanted:
        if path.exists() or path.is_symlink():
            continue
        make_folders(path.parent, 0o755)
        with contextlib.suppress(FileExistsError):  # made meanwhile: theirs, kept
            write_new(path, content, replace=False, mode=0o644)
            written.append(path)
    return written


def xdg_file(config_home: Path | None = None) -> Path:
    base = config_home or Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "autostart" / f"{APP_ID}.desktop"


def _legacy_xdg_file() -> Path:
    # Before the file was named by the app id (0.1.0 and earlier): read and removed, never written.
    return xdg_file().with_name(f"{APP}.desktop")


# The Desktop Entry Specification's reserved characters: an argument holding one is quoted.
_RESERVED = re.compile(r"""[\s"'\\><~|&;$*?#()`]""")


def exec_arg(arg: str) -> str:
    """One argument of an Exec line, quoted and escaped as the Desktop Entry Specification says."""
    arg = arg.replace("%", "%%")  # a lone % starts a field code
    if not arg or _RESERVED.search(arg):
        arg = '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'
    # The string escapes come on top of the quoting: a literal backslash ends up as four.
    return arg.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def desktop_entry(argv: list[str], autostart: bool = False) -> str:
    """The desktop entry: the menu's (packaged, Exec=sioul-tray) or the autostart one."""
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        f"Name={APP}",
        f"Name[fr]={APP}",
        "GenericName=Medicines and invoices keeper",
        "GenericName[fr]=Gardien des médicaments et des factures",
        f"Comment={COMMENT}",
        f"Comment[fr]={COMMENT_FR}",
        f"Exec={' '.join(exec_arg(a) for a in argv)}",
        f"Icon={ICON}",
        "Terminal=false",
        "StartupNotify=false",
        "Categories=Office;",
        "Keywords=Sioul;medicines;invoices;sync;tray;",
        "Keywords[fr]=Sioul;médicaments;factures;synchronisation;",
        "X-GNOME-UsesNotifications=true",
    ]
    if autostart:
        lines.append("X-GNOME-Autostart-enabled=true")
    return "\n".join([*lines, ""])


def xdg_entry(argv: list[str]) -> str:
    return desktop_entry(argv, autostart=True)


def launch_agent_file(home: Path | None = None) -> Path:
    return (home or Path.home()) / "Library" / "LaunchAgents" / f"{LABEL}.plist"


def launch_agent(argv: list[str]) -> bytes:
    import plistlib  # here, not at the top: xml and expat cost the tray 1 MB elsewhere

    return plistlib.dumps({"Label": LABEL, "ProgramArguments": argv, "RunAtLoad": True,
                           "ProcessType": "Interactive"})  # fmt: skip


RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
RUN_VALUE = APP


def enabled() -> bool:
    if sys.platform == "win32":
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                winreg.QueryValueEx(key, RUN_VALUE)
            return True
        except OSError:
            return False
    if sys.platform == "darwin":
        return launch_agent_file().exists()
    return xdg_file().exists() or _legacy_xdg_file().exists()


def set_enabled(on: bool, argv: list[str] | None = None) -> None:
    argv = argv or login_command()
    if sys.platform == "win32":
        import subprocess
        import winreg

        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            if on:
                winreg.SetValueEx(key, RUN_VALUE, 0, winreg.REG_SZ, subprocess.list2cmdline(argv))
            else:
                with contextlib.suppress(FileNotFoundError):
                    winreg.DeleteValue(key, RUN_VALUE)
        return
    path = launch_agent_file() if sys.platform == "darwin" else xdg_file()
    if sys.platform != "darwin":
        _legacy_xdg_file().unlink(missing_ok=True)  # one file at most, by its new name
    if not on:
        path.unlink(missing_ok=True)
        return
    # What runs at login is this user's alone to change: explicit modes whatever the umask, and
    # a link planted at the entry's name is replaced, never written through.
    make_folders(path.parent, 0o700)
    data = launch_agent(argv) if sys.platform == "darwin" else _utf8(xdg_entry(argv), path)
    write_new(path, data, replace=True, mode=0o644)


def _utf8(entry: str, path: Path) -> bytes:
    """A desktop entry as its file holds it (UTF-8); SioulError when a path in it is named in
    another encoding (its bytes kept by Python as surrogates), which no entry can carry."""
    try:
        return entry.encode("utf-8")
    except UnicodeEncodeError:
        raise SioulError(
            Core.mark(
                "{path} cannot be written: the command it starts is in a folder whose name is "
                "not valid UTF-8",
                path=path,
            )
        ) from None
