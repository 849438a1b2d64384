"""One SVG per state, for the colour panels and as a macOS template; each draws at tray sizes."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QIcon, QImage
from pytestqt.qtbot import QtBot

from sioul_tray.tray.app import RESOURCES, icon
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
@pytest.mark.parametrize("prefix", ["", "template-"])
def test_each_state_draws_at_tray_sizes(qtbot: QtBot, state: Icon, prefix: str) -> None:
    path = RESOURCES / f"{prefix}{state.value}.svg"
    assert path.is_file()
    for size in (16, 22, 32):
        share = opaque_share(drawn(str(path), size))
        assert 0.15 < share < 0.9, (path.name, size, share)  # a shape, neither empty nor a block


def test_the_states_look_different(qtbot: QtBot) -> None:
    images = [drawn(str(RESOURCES / f"{s.value}.svg"), 22) for s in Icon]
    for i, a in enumerate(images):
        for b in images[i + 1 :]:
            assert a != b


def test_icons_are_made_once_per_state(qtbot: QtBot) -> None:
    assert icon(Icon.BOTH) is icon(Icon.BOTH)
