"""Renders the application icon from its SVG into every file the packages need:

    python packaging/make-icons.py     # needs PySide6 (QtSvg); draws offscreen

- packaging/linux/icons/hicolor/<N>x<N>/apps/sioul-tray.png and scalable/apps/sioul-tray.svg
- packaging/windows/sioul-tray.ico: 16 to 256 pixels, each image the hicolor PNG of its size
- packaging/macos/sioul-tray.icns: 16 to 1024 pixels (PNG entries, macOS 10.7 and later)

The icon is resources/both.svg: the launcher's icon says what the program is about (medicines,
green, and invoices, blue) where the tray's own icon, which starts as the grey ring of
nothing.svg, says what this computer keeps. tests/packaging checks the committed files.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "resources" / "both.svg"
NAME = "sioul-tray"  # the theme icon name: Icon= of the desktop entry, the notifications' icon
HICOLOR = ROOT / "packaging" / "linux" / "icons" / "hicolor"
ICO = ROOT / "packaging" / "windows" / f"{NAME}.ico"
ICNS = ROOT / "packaging" / "macos" / f"{NAME}.icns"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # 22 is a Linux panel size only
# ICNS entry types holding PNG data, by pixel size (the @2x types repeat a size with a new name).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
    (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
    (b"ic14", 512),
)  # fmt: skip


def png(size: int) -> bytes:
    """The icon drawn at size x size pixels, as PNG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])  # QPainter on text needs one
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"make-icons: {SOURCE} does not render")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico(images: dict[int, bytes]) -> bytes:
    """A Windows icon holding each PNG (PNG entries: Windows Vista and later)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, data in sorted(images.items()):
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return header + entries + blobs


def icns(images: dict[int, bytes]) -> bytes:
    body = b"".join(
        kind + struct.pack(">I", 8 + len(images[size])) + images[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def expected() -> dict[Path, bytes]:
    """Every file this script writes, with its content."""
    images = {size: png(size) for size in sorted({*SIZES, *(s for _k, s in ICNS_TYPES)})}
    files = {HICOLOR / f"{s}x{s}" / "apps" / f"{NAME}.png": images[s] for s in SIZES}
    files[HICOLOR / "scalable" / "apps" / f"{NAME}.svg"] = SOURCE.read_bytes()
    files[ICO] = ico({s: images[s] for s in ICO_SIZES})
    files[ICNS] = icns(images)
    return files


def main() -> int:
    for path, content in expected().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(f"wrote {path.relative_to(ROOT)} ({len(content)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
