"""One SVG per state (the colour panels' and, as a template, macOS's), shipped as PNGs at the
sizes trays ask for; each draws a shape and the PNGs still match their SVG."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtGui import QIcon, QImage
from pytestqt.qtbot import QtBot

from sioul_tray.tray import icons
from sioul_tray.tray.icons import SIZES, icon
from sioul_tray.tray.model import Icon


def drawn(path: str, size: int) -> QImage:
    image = QIcon(path).pixmap(size, size).toImage()
    assert not image.isNull(), path
    return image


def opaque_share(image: QImage) -> float:
    pixels = [image.pixelColor(x, y).alpha() for x in range(image.width())
              for y in range(image.height())]  # fmt: skip
    return sum(1 for a in pixels if a > 128) / len(pixels)


@pytest.mark.parametrize("state", list(Icon))
@pytest.mark.parametrize("template", [False, True])
def test_each_state_draws_at_tray_sizes(qtbot: QtBot, state: Icon, template: bool) -> None:
    path = icons.svg(state, template=template)
    assert path.is_file()
    for size in (16, 22, 32):
        share = opaque_share(drawn(str(path), size))
        assert 0.15 < share < 0.9, (path.name, size, share)  # a shape, neither empty nor a block


@pytest.mark.parametrize("state", list(Icon))
def test_the_pngs_match_their_svg(qtbot: QtBot, state: Icon) -> None:
    for size in SIZES:
        shipped = QImage(str(icons.png(state, size)))
        assert shipped.size().width() == size, f"{icons.png(state, size).name} missing or resized"
        fresh = icons.render(state, size).convertToFormat(shipped.format())
        worst = max(
            abs(getattr(shipped.pixelColor(x, y), c)() - getattr(fresh.pixelColor(x, y), c)())
            for x in range(size)
            for y in range(size)
            for c in ("red", "green", "blue", "alpha")
        )
        # Anti-aliasing may move by a step between Qt versions; a changed SVG moves far more.
        assert worst <= 16, f"{icons.png(state, size).name} is stale: python -m {icons.__name__}"


def test_the_tray_loads_every_size_of_the_pngs(qtbot: QtBot) -> None:
    if sys.platform == "darwin":
        pytest.skip(reason="macOS loads the SVG templates")
    loaded = icon(Icon.INVOICES)
    assert sorted(s.width() for s in loaded.availableSizes()) == sorted(SIZES)
    assert opaque_share(loaded.pixmap(22, 22).toImage()) > 0.15


def test_the_states_look_different(qtbot: QtBot) -> None:
    images = [icon(s).pixmap(22, 22).toImage() for s in Icon]
    for i, a in enumerate(images):
        for b in images[i + 1 :]:
            assert a != b


def test_icons_are_made_once_per_state(qtbot: QtBot) -> None:
    assert icon(Icon.BOTH) is icon(Icon.BOTH)
