"""Issue 42, items 1 and 2, the morning after, on REAL trays under Xvfb (trayer docks them, a
private D-Bus carries their notifications) on a folder sealed at 1/20 of the protocol's times
(ALIVE 15 s, SETTLING 6 s, RENEW 3 s).

Office PC takes invoices; both trays run; they are quit in either order. The next morning the
one quit last (which numbered last) numbers alone; the other, started alone, says in one line to
start it, pushes no "gone for good", and once "Make invoices here" is chosen there, starting the
other for a minute ends with invoices numbered there, never on the other.

Screenshots of the waiting menu, in English and French, are copied to docs/menu/ when
SIOUL_UPDATE_DOCS=1 (docs/waiting.md and docs/tray.md show them)."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.desktop.test_desktop_everyday import Desk, missing
from tests.desktop.tray_process import cli, status, stop
from tests.helpers import wait_for

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

NAMES = {"office": "Office PC", "laptop": "Laptop"}
LINE = {
    "en": "Invoices: waiting for {name}, last to number: start it with its sync",
    "fr": "Factures : lancez {name} avec sa synchro, il a numéroté en dernier",
}
GONE = {"en": "Treat ", "fr": "Considérer "}


def quit_tray(proc: subprocess.Popen[str]) -> None:
    """Quit as a logout does (SIGTERM): the tray closes its claims, then exits."""
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(15) == 0
    stop(proc)


def invoices(desk: Desk, who: str) -> dict[str, object]:
    return (status(desk.home(who)) or {"parts": {"invoices": {}}})["parts"]["invoices"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("first", "lang"),
    [("office", "en"), ("laptop", "en"), ("office", "fr"), ("laptop", "fr")],
    ids=["office-quit-first", "laptop-quit-first", "office-quit-first-fr", "laptop-quit-first-fr"],
)
def test_the_morning_after(
    first: str, lang: str, need: Callable[[str | None], None], tmp_path: Path
) -> None:
    need(missing())
    last = "laptop" if first == "office" else "office"
    with ExitStack() as stack:
        desk = Desk(tmp_path, stack, lang)
        desk.setup("office", "Office PC")
        desk.setup("laptop", "Laptop")
        trays = {who: desk.start(who) for who in ("office", "laptop")}
        time.sleep(1.1)  # "Make invoices here" on Office PC, a second after both opened
        taken = cli(desk.home("office"), "take", "invoices")
        assert taken.returncode == 0, taken.stderr
        wait_for(lambda: invoices(desk, "office").get("acting"), 30, why="Office PC to number")
        wait_for(lambda: invoices(desk, "laptop").get("name") == "Office PC", 30,
                 why="Laptop to see Office PC keep invoices")  # fmt: skip
        # The evening: `first` quits; `last` numbers on its close, then quits too.
        quit_tray(trays[first])
        if last == "laptop":
            wait_for(lambda: invoices(desk, "laptop").get("acting"), 30,
                     why="Laptop to number once Office PC quit")  # fmt: skip
        time.sleep(2 * desk.timing.renew)
        assert invoices(desk, last).get("acting")
        quit_tray(trays[last])

        # The next morning: the last to number, started alone, numbers alone.
        alone = desk.start(last)
        wait_for(lambda: invoices(desk, last).get("acting"), desk.timing.settling + 20,
                 why=f"{NAMES[last]}, which numbered last, to number alone")  # fmt: skip
        quit_tray(alone)

        # The other, started alone, says in one line which computer to start and why.
        before = len(desk.titles())
        desk.start(first)
        line = LINE[lang].format(name=NAMES[last])
        wait_for(lambda: desk.line(first, line), desk.timing.settling + 20,
                 why=f"{NAMES[first]}'s menu to say to start {NAMES[last]}")  # fmt: skip
        assert not invoices(desk, first).get("acting")
        # Silent for longer than ALIVE, it is switched off, not gone: nothing pushes it.
        time.sleep(desk.timing.alive + 2 * desk.timing.renew)
        texts = desk.menu(first)["texts"]
        assert line in texts and not any(t.startswith(GONE[lang]) for t in texts), texts
        said = desk.titles()[before:]  # this morning's notifications: none about it
        assert not any(NAMES[last] in t for t in said), said
        if first == "office":
            desk.open_menu(first)
            desk.shot(f"morning-after-{lang}.png")
            desk.x("xdotool", "key", "Escape")

        # "Make invoices here" there, then the other started for a minute with its sync:
        # once heard, invoices are numbered here, and never there.
        taken = cli(desk.home(first), "take", "invoices")
        assert taken.returncode == 0, taken.stderr
        desk.start(last)
        numbered_there = False

        def numbers_here() -> bool:
            nonlocal numbered_there
            numbered_there = numbered_there or bool(invoices(desk, last).get("acting"))
            return bool(invoices(desk, first).get("acting"))

        wait_for(numbers_here, desk.timing.settling + 30,
                 why=f"{NAMES[first]} to number once {NAMES[last]} is heard")  # fmt: skip
        for _ in range(int(2 * desk.timing.renew)):
            numbers_here()
            time.sleep(0.5)
        assert not numbered_there, f"{NAMES[last]} numbered: invoices went there first"
        assert invoices(desk, last).get("name") == NAMES[first]
