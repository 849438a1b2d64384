"""Writes the packaged desktop entry and LaunchAgent from sioul_tray.tray.autostart, their one
source (tests/packaging checks that the committed files are what this writes):

    python packaging/make-entries.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sioul_tray.tray import autostart  # noqa: E402

DESKTOP = ROOT / "packaging" / "linux" / f"{autostart.APP_ID}.desktop"
LAUNCH_AGENT = ROOT / "packaging" / "macos" / f"{autostart.LABEL}.plist"
# The LaunchAgent's program: the .app's binary where the .app is usually dragged to. An installer
# that puts it elsewhere writes its own path (the tray's "Start at login" always does).
MAC_PROGRAM = "/Applications/sioul-tray.app/Contents/MacOS/sioul-tray"


def expected() -> dict[Path, bytes]:
    return {
        # Exec=sioul-tray: a distribution package puts the program (or a link to the bundle's)
        # on PATH; the autostart entry the tray writes names its own program in full instead.
        DESKTOP: autostart.desktop_entry([autostart.APP]).encode(),
        LAUNCH_AGENT: autostart.launch_agent([MAC_PROGRAM]),
    }


def main() -> int:
    for path, content in expected().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
