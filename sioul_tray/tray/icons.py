"""The tray's icons: drawn as SVG in resources/, loaded as PNGs rendered from them.

Loading the SVGs at run time would keep Qt's SVG library and its icon plugin in the tray for its
whole life to draw a few small pictures. The PNGs at the sizes trays ask for
are rendered from the SVGs by `python -m sioul_tray.tray.icons`; a test checks they still match.
macOS keeps the SVG templates: it needs masks, drawn at its own sizes.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QIcon

from sioul_tray.tray.model import Icon

if TYPE_CHECKING:
    from PySide6.QtGui import QImage  # for the build's rendering alone

# Panels ask for 16 to 24 (32 to 48 at double scale); 64 and 128 for notifications and About.
SIZES = (16, 22, 24, 32, 48, 64, 128)
# resources/ in a checkout, sioul_tray/resources installed or bundled. By the package's own file
# rather than importlib.resources: the same folder, without importing seven modules into the tray.
RESOURCES = Path(str(importlib.import_module("sioul_tray.resources").__file__)).parent

_LOADED: dict[Icon, QIcon] = {}


def svg(state: Icon, *, template: bool = False) -> Path:
    return RESOURCES / f"{'template-' if template else ''}{state.value}.svg"


def png(state: Icon, size: int) -> Path:
    return RESOURCES / f"{state.value}-{size}.png"


def icon(state: Icon) -> QIcon:
    """One QIcon per state for the whole run: a new QIcon per tick would fill Qt's pixmap cache
    with renderings of the same picture."""
    if state not in _LOADED:
        if sys.platform == "darwin":
            # A template icon (a mask): macOS colours it for the menu bar's light or dark look.
            result = QIcon(str(svg(state, template=True)))
            result.setIsMask(True)
        else:
            result = QIcon()
            for size in SIZES:
                result.addFile(str(png(state, size)))
        _LOADED[state] = result
    return _LOADED[state]


def render(state: Icon, size: int) -> QImage:
    """The state's SVG drawn at `size` pixels (needs Qt's SVG icon plugin: for the build only)."""
    return QIcon(str(svg(state))).pixmap(size, size).toImage()


def main() -> int:
    """Write the PNGs next to the SVGs (run after changing an SVG)."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    for state in Icon:
        for size in SIZES:
            if not render(state, size).save(str(png(state, size))):
                print(f"could not write {png(state, size)}", file=sys.stderr)
                return 1
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
