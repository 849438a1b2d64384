"""`sioul-tray demo`: the tray on a temporary folder with two simulated computers.

Laptop and Office PC come and go, take invoices and follow a simulated person, so one machine shows
every state, handover and notification in a few minutes. Nothing of this installation is touched:
the folder, the keys and the state live in a temporary directory removed at the end.
"""

from __future__ import annotations

import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from sioul_tray.i18n import Tour, translated
from sioul_tray.lease import PARTS, Lease
from sioul_tray.share import Share

HERE = "this_pc"
PEERS = {"laptop": "Laptop", "office_pc": "Office PC"}
STEP = 10  # seconds between the simulated computers' renewals


@dataclass(frozen=True)
class Phase:
    """From `start` seconds into the demo: where the person is, and what the others do."""

    start: int
    person: str  # the computer the person uses
    running: frozenset[str]  # simulated computers that renew (the others are closed or silent)
    take: str | None = None  # a simulated computer that takes invoices at this phase's start
    crash: str | None = None  # a simulated computer that stops without closing its claims
    here_takes: bool = False  # the person makes invoices here ("Make invoices here")
    caption: str = ""  # marked: translated when shown


SCRIPT = (
    Phase(0, HERE, frozenset({"laptop"}), here_takes=True,
          caption=Tour.mark("You are here and make invoices here; Laptop runs too")),
    Phase(150, "laptop", frozenset({"laptop"}),
          caption=Tour.mark("You move to Laptop: medicines follow")),
    Phase(300, HERE, frozenset({"laptop", "office_pc"}), take="office_pc",
          caption=Tour.mark("You come back; Office PC starts and takes invoices")),
    Phase(450, HERE, frozenset({"office_pc"}), caption=Tour.mark("Laptop goes to sleep (closes)")),
    Phase(540, HERE, frozenset(), crash="office_pc",
          caption=Tour.mark("Office PC crashes without closing: it still holds invoices")),
    Phase(600, HERE, frozenset(), here_takes=True,
          caption=Tour.mark("You make invoices here: they wait for Office PC, "
                            "which may be gone for good")),
    Phase(720, HERE, frozenset({"laptop"}), caption=Tour.mark("Laptop is back")),
)  # fmt: skip


class Person:
    """The simulated person's `active` time for this computer (the tray's idle source)."""

    name = "simulated person (demo)"
    known = True

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.at = HERE
        self.last = clock()

    def active(self, now: float) -> int:
        if self.at == HERE:
            self.last = now
        return int(self.last)


class Demo(QObject):
    def __init__(self, root: Path, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.clock = clock
        self.start = clock()
        self.folder = root / "share"
        self.folder.mkdir()
        passphrase = secrets.token_urlsafe(16)
        share = Share.create(self.folder, passphrase, HERE)
        self.person = Person(clock)
        # The person's own computer, named in the person's language (the menu's first line).
        self.lease = Lease(share, HERE, name=Tour.tr("This computer"), clock=clock,
                           state_dir=root / "state")  # fmt: skip
        self.peers = {c: Lease(share, c, name=n, clock=clock) for c, n in PEERS.items()}
        self.running: set[str] = set()
        self.phase: Phase | None = None
        self.on_phase: Callable[[Phase], None] = lambda _phase: None
        # What the person does in the tray's own menu; the tray's controller, once it runs.
        self.take_here: Callable[[], object] = lambda: self.lease.renew("invoices", take=True)
        self.timer = QTimer(self)
        self.timer.setInterval(STEP * 1000)
        self.timer.timeout.connect(self.step)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def current(self) -> Phase:
        return [p for p in SCRIPT if p.start <= self.elapsed()][-1]

    def step(self) -> None:
        """Move the simulated computers along the script (the timer, or a test)."""
        phase = self.current()
        now = self.clock()
        if phase is not self.phase:
            self.phase = phase
            self.on_phase(phase)
            self.person.at = phase.person
            for computer in self.running - phase.running:
                if computer != phase.crash:
                    for part in PARTS:
                        self.peers[computer].close(part)
            self.running = set(phase.running)
            if phase.here_takes:
                self.take_here()
            if phase.take is not None:
                self.peers[phase.take].renew("invoices", active=self._active(phase.take, now),
                                             take=True)  # fmt: skip
        for computer in self.running:
            for part in PARTS:
                self.peers[computer].renew(part, active=self._active(computer, now))

    def _active(self, computer: str, now: float) -> int:
        assert self.phase is not None
        # The person left the other computers an hour before the demo began.
        return int(now) if self.phase.person == computer else int(self.start) - 3600


def run(language: str | None = None) -> int:
    """Start the demo tray; quits like the real one (claims closed), then removes everything."""
    import sys

    from PySide6.QtWidgets import QApplication

    from sioul_tray.desktop import notify
    from sioul_tray.tray import autostart
    from sioul_tray.tray.app import APP, Signals, Tray, install_language
    from sioul_tray.tray.controller import Controller

    app = QApplication(sys.argv[:1])
    app.setApplicationName(APP)
    app.setDesktopFileName(autostart.APP_ID)
    app.setQuitOnLastWindowClosed(False)
    install_language(app, language)
    with tempfile.TemporaryDirectory(prefix="sioul-tray-demo-") as tmp:
        demo = Demo(Path(tmp))
        demo.on_phase = lambda phase: print(
            Tour.tr("demo: {caption}").format(caption=translated(phase.caption)), file=sys.stderr
        )
        controller = Controller(demo.lease, HERE, demo.folder, demo.person, Path(tmp) / "state")
        demo.take_here = lambda: controller.take("invoices")
        demo.step()
        linux = sys.platform.startswith("linux")
        dbus = notify.DBusNotifications(APP, autostart.APP_ID) if linux else None
        tray = Tray(controller)
        tray.use_notifier(notify.Notifier(dbus, lambda t, b: tray._balloon("", t, b)))
        signals = Signals(lambda _sig: app.quit())
        app.aboutToQuit.connect(controller.shutdown)
        controller.start()
        demo.timer.start()
        tray.show()
        text = Tour.tr(
            "sioul-tray demo: a temporary folder in {folder}; quit from the menu or Ctrl+C"
        )
        print(text.format(folder=tmp), file=sys.stderr)
        code = app.exec()
        controller.shutdown()
        del signals
        return int(code)
