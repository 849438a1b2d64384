"""The packaged files: validated by the freedesktop and AppStream tools, written from their one
source (sioul_tray.tray.autostart), and the icons as packaging/make-icons.py draws them."""

from __future__ import annotations

import importlib.util
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from sioul_tray import __version__
from sioul_tray.tray import autostart
from tests.helpers import ROOT

PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
DESKTOP = LINUX / "org.sioul.tray.desktop"
METAINFO = LINUX / "org.sioul.tray.metainfo.xml"
Need = Callable[[str | None], None]


def script(name: str) -> ModuleType:
    """One of packaging/'s scripts (their names have dashes), as a module."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tool(name: str, package: str) -> str | None:
    """Why the validator cannot run, or None."""
    if shutil.which(name) is None:
        return f"{name} is not installed (apt-get install {package}; see .ci/install-desktop)"
    return None


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=60)


# -- the validators -------------------------------------------------------------------------------


def test_the_desktop_entry_validates(need: Need) -> None:
    need(tool("desktop-file-validate", "desktop-file-utils"))
    done = run("desktop-file-validate", DESKTOP)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_the_autostart_entry_the_tray_writes_validates(need: Need, tmp_path: Path) -> None:
    need(tool("desktop-file-validate", "desktop-file-utils"))
    entry = tmp_path / "org.sioul.tray.desktop"
    awkward = ["/opt/My Apps/$HOME/py`3`", "-m", "sioul_tray.cli", '"quoted"', "C:\\bin", "50%"]
    entry.write_text(autostart.xdg_entry(awkward), encoding="utf-8")
    done = run("desktop-file-validate", entry)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_the_metainfo_validates_without_warnings(need: Need) -> None:
    need(tool("appstreamcli", "appstream"))
    done = run("appstreamcli", "validate", "--no-net", METAINFO)
    assert done.returncode == 0, done.stdout + done.stderr
    issues = [line for line in done.stdout.splitlines() if re.match(r"\s*[EW]:", line)]
    # appstream 0.16 (Debian 12) does not know <developer> yet (1.0 does, and deprecates
    # <developer_name>): that is an info, not a warning.
    assert not issues, done.stdout


def test_an_installed_tree_validates(need: Need, tmp_path: Path) -> None:
    """The metainfo's launchable finds the desktop entry, as in /usr/share."""
    need(tool("appstreamcli", "appstream"))
    share = tmp_path / "usr" / "share"
    for folder, source in (("applications", DESKTOP), ("metainfo", METAINFO)):
        (share / folder).mkdir(parents=True)
        shutil.copy(source, share / folder)
    shutil.copytree(LINUX / "icons", share / "icons")
    done = run("appstreamcli", "validate-tree", "--no-net", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [line for line in done.stdout.splitlines() if re.match(r"\s*[EW]:", line)]


def test_the_metainfo_names_this_version_and_the_desktop_entry() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == autostart.APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("icon") == autostart.ICON
    assert root.findtext("project_license") == "MIT"
    releases = root.findall("releases/release")
    assert releases and releases[0].get("version") == __version__  # newest first
    assert releases[0].find("description") is not None
    shot = root.findtext("screenshots/screenshot/image") or ""
    assert shot.endswith("/docs/menu.png") and (ROOT / "docs" / "menu.png").is_file()


# -- one source for the entries -------------------------------------------------------------------


def test_the_packaged_entries_are_what_autostart_writes() -> None:
    """packaging/make-entries.py writes them from autostart.py; run it after changing either."""
    for path, content in script("make-entries").expected().items():
        assert path.read_bytes() == content, f"{path} is stale: python packaging/make-entries.py"


def test_the_autostart_entry_is_the_menus_but_for_exec() -> None:
    argv = ["/home/me/.venv/bin/python", "-m", "sioul_tray.cli"]
    written = autostart.xdg_entry(argv).splitlines()
    packaged = DESKTOP.read_text(encoding="utf-8").splitlines()

    def without_exec(lines: list[str]) -> list[str]:
        return [line for line in lines if not line.startswith("Exec=")]

    assert without_exec(written) == [*without_exec(packaged), "X-GNOME-Autostart-enabled=true"]
    assert "Exec=sioul-tray" in packaged
    assert "Exec=/home/me/.venv/bin/python -m sioul_tray.cli" in written
    assert f"Icon={autostart.ICON}" in packaged and DESKTOP.stem == autostart.APP_ID


def test_the_launch_agent_template_is_what_the_tray_writes() -> None:
    import plistlib

    template = plistlib.loads((PACKAGING / "macos" / "org.sioul.tray.plist").read_bytes())
    program = template["ProgramArguments"][0]
    assert program.endswith("sioul-tray.app/Contents/MacOS/sioul-tray")
    assert template == plistlib.loads(autostart.launch_agent([program]))


def test_the_installer_writes_the_run_value_the_tray_reads() -> None:
    iss = (PACKAGING / "windows" / "sioul-tray.iss").read_text(encoding="utf-8-sig")
    registry = [line for line in iss.splitlines() if line.startswith("Root: HKCU;")]
    assert registry, "no [Registry] entry in the installer"
    for line in registry:
        fields = {k: v.strip().strip('"') for k, v in re.findall(r"(\w+): ([^;]+)", line)}
        assert fields["Subkey"] == autostart.RUN_KEY
        assert fields["ValueName"] == autostart.RUN_VALUE
        assert "uninsdeletevalue" in fields["Flags"]
        assert fields["ValueData"].endswith("sioul-tray-gui.exe")  # windowed: no console at login
    # The uninstaller removes the value the tray's own menu may have written, too.
    assert f"'{autostart.RUN_KEY}', '{autostart.RUN_VALUE}');" in iss
    assert f'#define AppVersion "{__version__}"' in iss


# -- the icons ------------------------------------------------------------------------------------


def image(data: bytes) -> Any:
    from PySide6.QtGui import QImage

    # PySide6's stub says bytes for the format; it takes str, and refuses bytes when run.
    picture = QImage.fromData(data, "PNG")  # type: ignore[arg-type]
    assert not picture.isNull()
    return picture.convertToFormat(QImage.Format.Format_ARGB32)


def test_each_png_has_the_size_its_folder_names(qapp: Any) -> None:
    icons = script("make-icons")
    found = sorted(LINUX.glob("icons/hicolor/*x*/apps/*.png"))
    assert [p.parent.parent.name for p in found] == sorted(f"{s}x{s}" for s in icons.SIZES)
    for path in found:
        side = int(path.parent.parent.name.split("x")[0])
        picture = image(path.read_bytes())
        assert (picture.width(), picture.height()) == (side, side), path
        assert path.name == f"{autostart.ICON}.png"
    scalable = LINUX / "icons" / "hicolor" / "scalable" / "apps" / f"{autostart.ICON}.svg"
    assert scalable.read_bytes() == icons.SOURCE.read_bytes()


def test_the_ico_holds_every_size_as_the_hicolor_png(qapp: Any) -> None:
    icons = script("make-icons")
    data = (PACKAGING / "windows" / "sioul-tray.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind) == (0, 1)
    sizes = []
    for i in range(count):
        w, h, *_, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        side = w or 256  # 0 means 256
        assert (h or 256) == side
        png = LINUX / "icons" / "hicolor" / f"{side}x{side}" / "apps" / f"{autostart.ICON}.png"
        assert data[offset : offset + length] == png.read_bytes(), side
        sizes.append(side)
    assert sizes == list(icons.ICO_SIZES)


def test_the_icns_holds_every_size(qapp: Any) -> None:
    icons = script("make-icons")
    data = (PACKAGING / "macos" / "sioul-tray.icns").read_bytes()
    assert data[:4] == b"icns" and struct.unpack_from(">I", data, 4)[0] == len(data)
    at, kinds = 8, []
    while at < len(data):
        kind, length = data[at : at + 4], struct.unpack_from(">I", data, at + 4)[0]
        picture = image(data[at + 8 : at + length])
        assert picture.width() == dict(icons.ICNS_TYPES)[kind], kind
        kinds.append(kind)
        at += length
    assert kinds == [k for k, _s in icons.ICNS_TYPES]


def test_the_committed_icons_are_what_the_script_draws(qapp: Any) -> None:
    """Pixel for pixel within a small tolerance: another Qt may antialias an edge differently."""
    icons = script("make-icons")
    for size in icons.SIZES:
        path = LINUX / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{autostart.ICON}.png"
        drawn, committed = image(icons.png(size)), image(path.read_bytes())
        a, b = bytes(drawn.constBits()), bytes(committed.constBits())
        assert len(a) == len(b)
        worst = max(abs(x - y) for x, y in zip(a, b, strict=True))
        assert worst <= 24, f"{path} is stale (off by {worst}): python packaging/make-icons.py"


def test_the_notifications_use_the_packaged_icon_name() -> None:
    notify = (ROOT / "sioul_tray" / "desktop" / "notify.py").read_text(encoding="utf-8")
    assert f'basic(top, "s", "{autostart.ICON}")' in notify
