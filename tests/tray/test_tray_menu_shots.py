"""The tray's menu in each state worth showing, in English and in French: each part a state real
Leases produced (tests/tray/views.py), the menu filled by the tray's own code (`app.fill_menu`),
opened offscreen with real fonts. Fails when a line is cut off or the menu grows too wide; a
picture of each (docs/menu/ is refreshed from them with SIOUL_UPDATE_DOCS=1)."""

from __future__ import annotations

import os
import shutil
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import QMenu, QStyle, QStyleOptionMenuItem
from pytestqt.qtbot import QtBot

from sioul_tray import i18n, timefmt
from sioul_tray.lease.status import Why
from sioul_tray.sync.report import SyncReport, Unconnected
from sioul_tray.tray import model
from sioul_tray.tray.app import fill_menu
from sioul_tray.tray.model import View
from tests.helpers import ROOT
from tests.tray.views import T0, Seen, make, problems_in, view

# Wider than this, the menu covers half of a 1024-pixel screen (a small laptop's): a line that long
# is said in fewer words.
WIDEST = 512

SCENES = {
    "acting": (Why.ACTING, "invoices", ""),
    "settling-medicines": (Why.SETTLING, "medicines", ""),
    "settling": (Why.SETTLING, "invoices", ""),
    "elsewhere": (Why.ELSEWHERE, "invoices", ""),
    "starting": (Why.ELSEWHERE, "invoices", "starting"),
    "nobody": (Why.NOBODY, "invoices", ""),
    "keeper-silent": (Why.ELSEWHERE, "invoices", "silent"),
    "keeper-idle": (Why.ELSEWHERE, "invoices", "commands-idle"),
    "waiting": (Why.WAITING, "invoices", ""),
    "silent": (Why.WAITING, "invoices", "silent"),
    "stalled": (Why.WAITING, "invoices", "stalled"),
    "morning": (Why.WAITING, "invoices", "morning"),
    "on-close": (Why.WAITING, "invoices", "on-close"),
    "alone": (Why.ALONE, "invoices", ""),
    "away": (Why.AWAY, "medicines", ""),
    "sealed": (Why.BLOCKED, "invoices", ""),
    "clone": (Why.BLOCKED, "invoices", "clone"),
}


def _notes(s: dict[str, Seen], tmp: Path) -> View:
    damaged = {"x.lease": b"not a claim at all", "y.lease": b"{}"}
    return view(s["acting"], s["elsewhere"], offsets={"office": 400},
                problems=problems_in(tmp, damaged), idle_known=False)  # fmt: skip


def _syncthing(s: dict[str, Seen], _tmp: Path) -> View:
    # What sync.report.ask makes of Syncthing's answers (tests/sync) over a real stalled wait.
    report = SyncReport(True, unconnected=(Unconnected("Laptop", T0 - 600),), connected=1)
    return view(s["acting"], s["stalled"], sync=report)


# name -> the View, and the line that makes the picture worth showing (None: nothing beyond the
# part lines). The order is docs/tray.md's.
STATES: dict[str, Callable[[dict[str, Seen], Path], View]] = {
    "here": lambda s, _: view(s["acting"], s["acting"]),
    "settling": lambda s, _: view(s["settling-medicines"], s["settling"]),
    "elsewhere": lambda s, _: view(s["acting"], s["elsewhere"]),
    "starting": lambda s, _: view(s["acting"], s["starting"]),
    "waiting": lambda s, _: view(s["acting"], s["waiting"]),
    "gone": lambda s, _: view(s["acting"], s["silent"]),
    "morning": lambda s, _: view(s["acting"], s["morning"]),
    "on-close": lambda s, _: view(s["acting"], s["on-close"]),
    "stalled": lambda s, _: view(s["acting"], s["stalled"]),
    "syncthing": _syncthing,
    "alone": lambda s, _: view(s["alone"], s["alone"]),
    "away": lambda s, _: view(s["away"], s["elsewhere"]),
    "nobody": lambda s, _: view(s["nobody"], s["nobody"]),
    "keeper-silent": lambda s, _: view(s["acting"], s["keeper-silent"]),
    "keeper-idle": lambda s, _: view(s["acting"], s["keeper-idle"]),
    "closed-here": lambda s, _: view(
        s["nobody"], s["nobody"], paused=frozenset({"medicines", "invoices"})
    ),
    "sealed": lambda s, _: view(s["acting"], s["sealed"]),
    "clone": lambda s, _: view(s["acting"], s["clone"]),
    "notes": _notes,
}


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    return {
        name: make(why, tmp_path_factory.mktemp(name), part, variant)
        for name, (why, part, variant) in SCENES.items()
    }


@pytest.fixture(params=["en", "fr"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert i18n.install(request.param)
    yield request.param
    i18n.install("en")


@pytest.fixture(autouse=True)
def on_the_scenes_day(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Times as on the day the scenes happen (UTC), so the pictures show "08:12", not a date."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    clock = types.SimpleNamespace(
        localtime=lambda t=None: time.localtime(T0 if t is None else t), strftime=time.strftime
    )
    monkeypatch.setattr(timefmt, "time", clock)
    yield
    monkeypatch.undo()
    time.tzset()


def cut_off(menu: QMenu) -> list[str]:
    """What the person could not read whole, one line per action; and a menu too wide."""
    found = []
    metrics = menu.fontMetrics()
    for act in menu.actions():
        if act.isSeparator():
            continue
        option = QStyleOptionMenuItem()
        menu.initStyleOption(option, act)
        text = QSize(metrics.horizontalAdvance(act.text()), metrics.height())
        needs = menu.style().sizeFromContents(QStyle.ContentsType.CT_MenuItem, option, text, menu)
        has = menu.actionGeometry(act)
        if not menu.rect().contains(has) or needs.width() > has.width():
            found.append(f"{act.text()!r}: {has.width()} px wide, needs {needs.width()}")
    if menu.width() > WIDEST:
        found.append(f"the menu is {menu.width()} px wide (at most {WIDEST})")
    screen = menu.screen().availableGeometry()
    if not screen.contains(menu.geometry()):
        found.append(f"the menu ({menu.geometry()}) leaves the screen ({screen})")
    return found


@pytest.mark.parametrize("state", list(STATES))
def test_the_menu(
    state: str, seen: dict[str, Seen], language: str, qtbot: QtBot, tmp_path: Path
) -> None:
    v = STATES[state](seen, tmp_path)
    items = model.menu(v, autostart=True)
    menu = QMenu()
    qtbot.addWidget(menu)
    actions = fill_menu(menu, items, run=lambda _item: None)
    assert [a.text() for a in actions] == [i.text for i in items]
    menu.popup(QPoint(0, 0))
    qtbot.waitExposed(menu)
    assert cut_off(menu) == []
    path = tmp_path / f"{state}-{language}.png"
    assert menu.grab().save(str(path)) and path.stat().st_size > 1000
    menu.close()
    if os.environ.get("SIOUL_UPDATE_DOCS") == "1":
        (ROOT / "docs" / "menu").mkdir(exist_ok=True)
        shutil.copyfile(path, ROOT / "docs" / "menu" / path.name)
