"""The menu model: texts, actions, icon state, status file and notifications, from plain views."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from sioul_tray.lease import ALIVE, PARTS, SETTLING, Lease
from sioul_tray.share import SEAL_NAME, Share
from sioul_tray.tray import model
from sioul_tray.tray.model import Action, Icon, Note, PartView, Peer, View
from tests.helpers import FakeClock
from tests.tray.views import T0, part


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def view(medicines: PartView | None = None, invoices: PartView | None = None, **kw: object) -> View:
    parts = {"medicines": medicines or part("medicines"), "invoices": invoices or part("invoices")}
    base: dict[str, object] = dict(computer="pc", now=T0, parts=parts)
    base.update(kw)
    return View(**base)  # type: ignore[arg-type]


LAPTOP_HEARD = T0 - 1680  # 07:32
PEERS = {
    "invoices": (
        Peer("laptop", "Laptop", LAPTOP_HEARD, False),
        Peer("office", "Office PC", T0, False),
    ),
    "medicines": (Peer("laptop", "Laptop", LAPTOP_HEARD, False),),
}


def test_lines_for_here_elsewhere_nobody() -> None:
    v = view(
        invoices=part("invoices", keeper="office", name="Office PC", here=False, acting=False,
                      since=T0 - 3600 + 32 * 60),
        medicines=part("medicines", keeper=None, name=None, here=False, acting=False),
    )  # fmt: skip
    assert model.part_line(v, "invoices") == "Invoices: Office PC (since 07:32)"
    assert model.part_line(v, "medicines") == "Medicines: no computer keeps them"
    assert model.part_line(view(), "medicines") == "Medicines: here"


def test_settling_line_says_when_it_acts() -> None:
    v = view(medicines=part("medicines", settled=False, acting=False, since=T0 - 30))
    expected = time.strftime("%H:%M", time.gmtime(T0 - 30 + SETTLING))
    assert model.part_line(v, "medicines") == f"Medicines: here from {expected} (settling)"


def test_waiting_line_names_the_computer_and_when_it_was_heard() -> None:
    v = view(invoices=part("invoices", acting=False, others_heard=False, waiting=("laptop",)),
             peers=PEERS)  # fmt: skip
    assert model.part_line(v, "invoices") == "Invoices: here, waiting for Laptop, last heard 07:32"


def test_waiting_on_everyone_silent_suggests_a_stopped_sync() -> None:
    silent = {"invoices": (Peer("laptop", "Laptop", T0 - ALIVE - 1, False),)}
    v = view(invoices=part("invoices", acting=False, others_heard=False, waiting=("laptop",)),
             peers=silent)  # fmt: skip
    assert model.part_line(v, "invoices").endswith("(is the sync running?)")
    # One peer still heard lately: our sync flows, no such hint.
    v2 = replace(v, peers={"invoices": (*silent["invoices"], Peer("office", "Office", T0, False))})
    assert "sync" not in model.part_line(v2, "invoices")


def test_waiting_without_names() -> None:
    v = view(
        invoices=part("invoices", acting=False, others_heard=False),
        medicines=part("medicines", acting=False, agreed=False),
    )
    assert model.part_line(v, "invoices") == "Invoices: here, waiting to hear another computer"
    assert model.part_line(v, "medicines") == "Medicines: here, paused while you are away"


def test_notes_for_clock_problems_idle_and_error() -> None:
    v = view(
        peers=PEERS,
        offsets={"laptop": 400, "office": 30},
        problems=(("invoices", "x.lease", "damaged or sealed with another key"),),
        idle_known=False,
        error="No such file or directory (/media/share)",
    )
    assert model.notes(v) == [
        "Sharing folder: No such file or directory (/media/share)",
        "Laptop's clock is 6 min ahead of this one",
        "1 file in the sharing folder does not read",
        "Idle time unknown: counting from the session start",
    ]
    assert model.icon(v) is Icon.ATTENTION


def test_files_of_a_sync_under_way_are_not_warned_about() -> None:
    passing = ("invoices", ".~laptop.1a2b3c4d.tmp", "temporary file: still being written")
    damaged = ("invoices", "x.lease", "damaged or sealed with another key")
    v = view(peers=PEERS, problems=(passing,))
    assert model.notes(v) == [] and model.warnings(v) == {}
    assert model.icon(v) is not Icon.ATTENTION
    v = view(peers=PEERS, problems=(passing, damaged))
    assert model.notes(v) == ["1 file in the sharing folder does not read"]
    assert list(model.warnings(v)) == [
        "problem:invoices/x.lease:damaged or sealed with another key"
    ]


def test_menu_is_flat_with_every_command() -> None:
    v = view(invoices=part("invoices", keeper="office", name="Office PC", here=False, acting=False))
    items = model.menu(v, autostart=True)
    texts = [i.text for i in items]
    assert texts[:2] == ["Medicines: here", "Invoices: Office PC (since 07:50)"]
    actions = [i.action for i in items if i.action is not None]
    assert actions == [
        Action.COMPUTERS, Action.COMPUTERS,  # the part lines open the list of computers
        Action.TAKE_INVOICES, Action.COMPUTERS, Action.OPEN_FOLDER, Action.CHANGE_FOLDER,
        Action.AUTOSTART, Action.ABOUT, Action.QUIT,
    ]  # fmt: skip
    autostart = next(i for i in items if i.action is Action.AUTOSTART)
    assert autostart.checkable and autostart.checked


def test_gone_for_good_offered_only_for_silent_computers_invoices_wait_on() -> None:
    waiting = part("invoices", acting=False, others_heard=False, waiting=("laptop", "office"))
    items = model.menu(view(invoices=waiting, peers=PEERS), autostart=False)
    forget = [(i.text, i.data) for i in items if i.action is Action.FORGET]
    assert forget == [("Laptop is gone for good…", "laptop")]  # office was heard just now
    here = model.menu(view(peers=PEERS), autostart=False)
    assert not [i for i in here if i.action in (Action.FORGET, Action.TAKE_INVOICES)]


def test_take_confirmation_only_when_the_keeper_is_alive() -> None:
    alive = view(invoices=part("invoices", keeper="office", name="Office PC", here=False),
                 peers=PEERS)  # fmt: skip
    question = model.take_confirmation(alive)
    assert question is not None and question.startswith("Office PC makes invoices now.")
    assert "stops numbering as soon as it sees this" in question
    silent = view(invoices=part("invoices", keeper="laptop", name="Laptop", here=False),
                  peers=PEERS)  # fmt: skip
    assert model.take_confirmation(silent) is None
    assert model.take_confirmation(view()) is None


@pytest.mark.parametrize(
    ("medicines", "invoices", "expected"),
    [
        (True, True, Icon.BOTH),
        (True, False, Icon.MEDICINES),
        (False, True, Icon.INVOICES),
        (False, False, Icon.NOTHING),
    ],
)
def test_icon_follows_what_acts_here(medicines: bool, invoices: bool, expected: Icon) -> None:
    def p(name: str, acting: bool) -> PartView:
        if acting:
            return part(name)
        return part(name, keeper="office", name="Office", here=False, acting=False)

    assert model.icon(view(p("medicines", medicines), p("invoices", invoices))) is expected


def test_icon_asks_for_attention_when_here_but_waiting() -> None:
    v = view(invoices=part("invoices", acting=False, others_heard=False, waiting=("laptop",)))
    assert model.icon(v) is Icon.ATTENTION


def test_status_content() -> None:
    v = view(invoices=part("invoices", acting=False, others_heard=False, waiting=("laptop",)))
    s = model.status(v, "pc", 42, running=True, now=T0)
    assert s["running"] and s["pid"] == 42 and s["at"] == int(T0)
    assert s["parts"]["medicines"]["acting"] is True
    assert s["parts"]["invoices"] == {
        "keeper": "pc", "name": "This PC", "here": True, "settled": True, "others_heard": False,
        "agreed": True, "acting": False, "since": T0 - 600, "waiting": ["laptop"],
        "blocked": None,
    }  # fmt: skip
    stopped = model.status(v, "pc", 42, running=False, now=T0)
    assert not any(p["acting"] for p in stopped["parts"].values())


def test_handover_notes_once_per_change() -> None:
    sent: list[Note] = []
    n = model.Notifier(sent.append)
    here = view()
    office = view(invoices=part("invoices", keeper="office", name="Office PC", here=False,
                                acting=False))  # fmt: skip
    n.update(here, 0)
    assert sent == []  # the first view is the starting point, not a change
    n.update(office, 1)
    n.update(office, 2)
    assert [s.title for s in sent] == ["Invoices are now made on Office PC"]
    n.update(here, 3)
    assert [s.title for s in sent][-1] == "Invoices are made here now"
    assert len(sent) == 2


def test_medicines_notes() -> None:
    away = view(medicines=part("medicines", keeper="laptop", name="Laptop", here=False,
                               acting=False))  # fmt: skip
    assert [n.title for n in model.handovers(view(), away)] == [
        "Medicine reminders are now on Laptop"
    ]
    assert [n.title for n in model.handovers(away, view())] == ["Medicine reminders are here now"]
    paused = view(medicines=part("medicines", acting=False, agreed=False))
    assert [n.title for n in model.handovers(view(), paused)] == ["Medicine reminders paused here"]


def test_quiet_after_wake_swallows_the_catch_up() -> None:
    sent: list[Note] = []
    n = model.Notifier(sent.append)
    n.update(view(), 0)
    n.quiet(until=10)
    office = view(invoices=part("invoices", keeper="office", name="Office", here=False,
                                acting=False))  # fmt: skip
    n.update(office, 5)
    n.update(office, 11)  # the change happened while quiet: not sent later either
    assert sent == []


def test_warnings_once_while_they_stand_and_again_when_they_return() -> None:
    sent: list[Note] = []
    n = model.Notifier(sent.append)
    clock_off = view(offsets={"laptop": 300}, peers=PEERS)
    n.update(view(), 0)
    n.update(clock_off, 1)
    n.update(clock_off, 2)
    assert [s.title for s in sent] == ["Laptop's clock is off"]
    n.update(view(), 3)
    n.update(clock_off, 4)
    assert len(sent) == 2


def test_warning_for_unheard_computer_invoices_wait_on() -> None:
    v = view(invoices=part("invoices", acting=False, others_heard=False, waiting=("laptop",)),
             peers=PEERS)  # fmt: skip
    notes = model.warnings(v)
    assert list(notes) == ["unheard:laptop"]
    assert "not been heard from since 07:32" in notes["unheard:laptop"].body


def test_tooltip_has_the_summary() -> None:
    assert model.tooltip(view()) == "sioul-tray\nMedicines: here\nInvoices: here"


def test_a_folder_sealed_again_is_shown_loudly(tmp_path: Path) -> None:
    """From a real Lease: another seal replaced this folder's. The invoices line says it stopped,
    a line under the parts says what to do, the icon asks for attention and one notification
    says it; it is not counted among the claim files that do not read."""
    clock = FakeClock(T0)
    folder = tmp_path / "share"
    folder.mkdir()
    share = Share.create(folder, "correct horse", "pc", cost=10)
    lease = Lease(share, "pc", name="This PC", clock=clock)
    for _ in range(3):
        keepers = {p: lease.renew(p) for p in PARTS}
        clock.advance(SETTLING)
    assert all(k.acting for k in keepers.values())
    other = tmp_path / "other"
    other.mkdir()
    Share.create(other, "another passphrase", "laptop", cost=10)
    shutil.copyfile(other / SEAL_NAME, folder / SEAL_NAME)  # the sync brings the other seal
    keepers = {p: lease.renew(p) for p in PARTS}
    problems = tuple((p, n, r) for p in PARTS for n, r in lease.problems(p))
    v = view(**{p: PartView.of(k) for p, k in keepers.items()}, problems=problems)
    assert model.part_line(v, "invoices") == "Invoices: stopped, the sharing folder's seal changed"
    assert model.part_line(v, "medicines") == "Medicines: here"
    assert (
        "the sharing folder was sealed again by laptop: join it again with its passphrase"
        in model.notes(v)
    )
    assert not any("do not read" in line or "does not read" in line for line in model.notes(v))
    assert model.icon(v) is Icon.ATTENTION
    (note,) = model.warnings(v).values()
    assert note.title == "Invoices stopped: the seal changed" and "laptop" in note.body
    status = model.status(v, "pc", 1, True, T0)
    assert status["parts"]["invoices"]["acting"] is False
    assert "sealed again" in status["parts"]["invoices"]["blocked"]


def test_a_state_that_cannot_be_saved_is_a_line(tmp_path: Path) -> None:
    """From a real Lease whose state file's place holds a folder: the menu says so."""
    clock = FakeClock(T0)
    folder = tmp_path / "share"
    folder.mkdir()
    share = Share.create(folder, "correct horse", "pc", cost=10)
    state = tmp_path / "state"
    lease = Lease(share, "pc", name="This PC", clock=clock, state_dir=state)
    lease.renew("invoices")
    (path,) = state.glob("lease-*.state")
    path.unlink()
    path.mkdir()
    clock.advance(ALIVE + 1)
    lease.renew("invoices", take=True)  # news: written at once, or said
    assert lease.state_problem is not None
    v = view(state_problem=lease.state_problem)
    (line,) = [n for n in model.notes(v) if n.startswith("This computer's state:")]
    assert str(path) in line
