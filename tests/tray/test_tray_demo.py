"""`sioul-tray demo`: the scripted story, run on a fake clock, shows every state and handover."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from sioul_tray.tray import model
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.demo import HERE, Demo


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_demo_story(qtbot: QtBot, tmp_path: Path) -> None:
    clock = Clock()
    demo = Demo(tmp_path, clock)
    c = Controller(demo.lease, HERE, demo.folder, demo.person, tmp_path / "state", clock=clock,
                   monotonic=clock)  # fmt: skip
    demo.take_here = lambda: c.take("invoices")
    notes: list[tuple[int, str]] = []
    c.notify.connect(lambda n: notes.append((round(clock.now - demo.start), n.title)))
    demo.step()
    c.start()
    seen: dict[int, tuple[str, str, list[str]]] = {}
    try:
        for t in range(10, 900, 10):
            clock.now += 10
            demo.step()
            c.tick() if t % 60 == 0 else c.reread()  # the timer, or the folder watcher
            assert c.view is not None
            seen[t] = (
                model.part_line(c.view, "medicines"),
                model.part_line(c.view, "invoices"),
                [i.text for i in model.menu(c.view, False) if i.action is model.Action.FORGET],
            )
    finally:
        c.shutdown()
    assert seen[60][0].startswith("Medicines: here in ")  # settling: it counts down
    assert seen[60][1].startswith("Invoices: here in ")
    assert seen[140][:2] == ("Medicines: here", "Invoices: here")
    # Medicines follow the person; the menu says "since" once Laptop's claim says it reminds.
    assert seen[200][0] == "Medicines: Laptop (not reminding yet)"
    assert seen[280][0].startswith("Medicines: Laptop (seen since ")  # it took none: seen here
    assert seen[360][1] == "Invoices: Office PC (not numbering yet)"
    assert seen[440][1].startswith("Invoices: Office PC (since ")
    assert seen[440][0] == "Medicines: here"
    assert seen[660][1].startswith("Invoices: here in ")  # taken back while Office PC is silent
    assert seen[880][1].startswith("Invoices: here, waiting for Office PC, last heard ")
    assert seen[880][2] == ["Treat Office PC as gone for good…"]
    assert [title for _t, title in notes] == [
        "Medicine reminders are here now",
        "Invoices are made here now",
        "Medicine reminders move to Laptop",
        "Medicine reminders are now on Laptop",
        "Invoices move to Office PC",
        "Medicine reminders are here now",
        "Invoices are now made on Office PC",
        "Invoices wait for Office PC",
    ]


def test_the_french_demo_calls_its_computer_in_french(qtbot: QtBot, tmp_path: Path) -> None:
    """Issue 42, item 8: the French demo called its computer "This computer"."""
    from sioul_tray import i18n

    assert i18n.install("fr")
    try:
        demo = Demo(tmp_path, Clock())
    finally:
        i18n.install("en")
    assert demo.lease.name == "Cet ordinateur"
