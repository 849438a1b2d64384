"""The menu model: texts, actions, icon state, status file and notifications.

Every part shown here is a state real Leases produced (tests/scenes.py, tests/tray/views.py):
the words come from the core's status through the phrasebook; nothing is typed by hand.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from sioul_tray import phrases
from sioul_tray.lease import ALIVE, PARTS, RENEW, SETTLING, Lease
from sioul_tray.lease.lease import Snapshot
from sioul_tray.lease.status import Why
from sioul_tray.share import SEAL_NAME, Share
from sioul_tray.sync.report import SyncReport, Unconnected
from sioul_tray.timefmt import clock_time
from sioul_tray.tray import model
from sioul_tray.tray.model import Action, Icon, Note
from tests.helpers import FakeClock
from tests.tray.views import T0, Seen, make, problems_in, view

pytestmark = pytest.mark.usefixtures("utc")  # local times in UTC (tests/conftest.py)


KINDS = {
    "acting": (Why.ACTING, "invoices", ""),
    "settling": (Why.SETTLING, "invoices", ""),
    "elsewhere": (Why.ELSEWHERE, "invoices", ""),
    "elsewhere-silent": (Why.ELSEWHERE, "invoices", "silent"),
    "elsewhere-starting": (Why.ELSEWHERE, "invoices", "starting"),
    "elsewhere-commands": (Why.ELSEWHERE, "invoices", "commands"),
    "elsewhere-idle": (Why.ELSEWHERE, "invoices", "commands-idle"),
    "nobody": (Why.NOBODY, "invoices", ""),
    "waiting": (Why.WAITING, "invoices", ""),
    "silent": (Why.WAITING, "invoices", "silent"),
    "stalled": (Why.WAITING, "invoices", "stalled"),
    "alone": (Why.ALONE, "invoices", ""),
    "away": (Why.AWAY, "medicines", ""),
    "sealed": (Why.BLOCKED, "invoices", ""),
    "clone": (Why.BLOCKED, "invoices", "clone"),
}


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    """Each kind of state, made once by real Leases."""
    return {
        kind: make(why, tmp_path_factory.mktemp(kind), part, variant)
        for kind, (why, part, variant) in KINDS.items()
    }


def hhmm(t: float) -> str:
    return clock_time(t)


def test_every_kind_is_what_it_says(seen: dict[str, Seen]) -> None:
    for kind, (why, part, _) in KINDS.items():
        assert seen[kind].parts[part].status.why is why, kind


def test_lines_for_here_elsewhere_nobody(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["elsewhere"])
    since = v.parts["invoices"].status.since
    assert since is not None
    # The office kept them before this computer saw it (the oldest claim): "seen since".
    assert model.part_line(v, "invoices") == f"Invoices: Office PC (seen since {hhmm(since)})"
    assert model.part_line(v, "medicines") == "Medicines: here"
    nobody = view(seen["nobody"], seen["nobody"])
    assert model.part_line(nobody, "invoices") == "Invoices: no computer keeps them"


def test_settling_line_counts_down_to_when_it_acts(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["settling"])
    until = v.parts["invoices"].status.until
    assert until is not None
    sooner = dataclasses.replace(v, now=until - 95)
    assert model.part_line(sooner, "invoices") == "Invoices: here in 1 min 40 s"
    assert model.part_line(dataclasses.replace(v, now=until - 40), "invoices") == (
        "Invoices: here in 40 s"
    )
    assert model.part_line(dataclasses.replace(v, now=until + 3), "invoices") == (
        "Invoices: here in a moment"
    )
    # Without the time of the view (the phrasebook alone), the time it acts.
    status = v.parts["invoices"].status
    assert phrases.part_line("invoices", status) == (
        f"Invoices: here from {hhmm(until)} (settling)"
    )


def test_settling_has_its_own_icon(seen: dict[str, Seen]) -> None:
    """During a handover the new keeper shows it is coming, not "keeps nothing"; a part that
    acts here still shows first."""
    nothing_acts = view(seen["elsewhere"], seen["settling"])
    assert model.icon(nothing_acts) is Icon.SETTLING
    assert model.icon(view(seen["acting"], seen["settling"])) is Icon.MEDICINES
    assert model.icon(view(seen["elsewhere"], seen["elsewhere"])) is Icon.NOTHING


def test_waiting_line_names_the_computers_and_when_they_were_heard(seen: dict[str, Seen]) -> None:
    s = seen["waiting"]
    v = view(s, s)
    waited = v.parts["invoices"].status.waiting
    expected = "; ".join(f"{w.name}, last heard {hhmm(w.heard or 0)}" for w in waited)
    assert model.part_line(v, "invoices") == f"Invoices: here, waiting for {expected}"


def test_waiting_on_everyone_silent_suggests_a_stopped_sync(seen: dict[str, Seen]) -> None:
    stalled = view(seen["stalled"], seen["stalled"])
    assert model.part_line(stalled, "invoices").endswith("(is the sync running?)")
    # One computer still heard lately: this computer's sync flows, no such hint.
    silent = view(seen["silent"], seen["silent"])
    assert "sync" not in model.part_line(silent, "invoices")


def test_the_menu_names_each_computer_waited_for_on_a_line_of_its_own(
    seen: dict[str, Seen],
) -> None:
    # One line would run off a small screen (tests/tray/test_tray_menu_shots.py).
    guess = "Nothing heard from them lately: is the sync running?"
    for kind, hint in (("waiting", []), ("stalled", [guess])):
        v = view(seen["acting"], seen[kind])
        waited = v.parts["invoices"].status.waiting
        texts = [i.text for i in model.menu(v, autostart=False) if i.data == "invoices"]
        assert texts == [
            "Invoices: here, waiting for 2 computers",
            *(f"    {w.name}, last heard {hhmm(w.heard or 0)}" for w in waited),
            *hint,
        ]
    one = view(seen["acting"], seen["silent"])  # one computer: the part's line as it is
    assert model.part_lines(one, "invoices") == [model.part_line(one, "invoices")]


def test_where_syncthing_answers_it_says_what_it_knows_instead_of_a_guess(
    seen: dict[str, Seen],
) -> None:
    # The report is what sync.report.ask makes of Syncthing's answers (tests/sync); the part is
    # a real Lease's stalled wait.
    report = SyncReport(True, unconnected=(Unconnected("Laptop", T0 - 600),))
    stalled = view(seen["stalled"], seen["stalled"], sync=report)
    line = model.part_line(stalled, "invoices")
    assert line.startswith("Invoices: here, waiting for ") and "sync" not in line
    texts = [item.text for item in model.menu(stalled, autostart=False)]
    assert f"Syncthing is not connected to Laptop since {hhmm(T0 - 600)}" in texts
    # Nothing waits here: Syncthing's view of the others is not worth a line...
    acting = view(seen["acting"], seen["acting"], sync=report)
    assert not [t for t in model.notes(acting) if "Syncthing" in t]
    # ...unless Syncthing itself is the problem.
    down = view(seen["acting"], seen["acting"], sync=SyncReport(False, problem="refused"))
    assert "Syncthing does not answer (is it running?)" in model.notes(down)


def test_waiting_without_names_and_paused_while_away(seen: dict[str, Seen]) -> None:
    alone = view(seen["alone"], seen["alone"])
    assert model.part_line(alone, "invoices") == "Invoices: here, waiting to hear another computer"
    # Found by the review: this line could never show; the core now says it (two real Leases,
    # the person away from the computer cut off from the other).
    away = view(seen["away"], seen["away"])
    assert model.part_line(away, "medicines") == "Medicines: here, paused while you are away"


def test_notes_for_clock_problems_idle_and_error(seen: dict[str, Seen], tmp_path: Path) -> None:
    v = view(
        seen["acting"],
        seen["waiting"],
        offsets={"laptop": 400, "office": 30},
        problems=problems_in(tmp_path, {"x.lease": b"not a claim at all"}),
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


def test_files_of_a_sync_under_way_are_not_warned_about(
    seen: dict[str, Seen], tmp_path: Path
) -> None:
    # A sync tool's temporary, an iCloud placeholder, and a claim file made but not yet filled.
    syncing = {".~laptop.1a2b3c4d.tmp": b"{", ".laptop.lease.icloud": b"", "laptop.lease": b""}
    passing = problems_in(tmp_path / "syncing", syncing)
    assert len(passing) == 3 and all(p.passing for _, p in passing)
    v = view(seen["acting"], seen["acting"], problems=passing)
    assert model.notes(v) == [] and model.warnings(v) == {}
    assert model.icon(v) is not Icon.ATTENTION
    both = problems_in(tmp_path / "damaged", {**syncing, "x.lease": b"not a claim at all"})
    damaged = [p for _, p in both if not p.passing]
    assert [p.file for p in damaged] == ["x.lease"]
    v = view(seen["acting"], seen["acting"], problems=both)
    assert model.notes(v) == ["1 file in the sharing folder does not read"]
    assert list(model.warnings(v)) == [f"problem:invoices/x.lease:{damaged[0].reason}"]


def test_menu_is_flat_with_every_command(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["elsewhere"])
    items = model.menu(v, autostart=True)
    texts = [i.text for i in items]
    assert texts[:3] == [
        "This computer: This PC",
        "Medicines: here",
        model.part_line(v, "invoices"),
    ]
    actions = [i.action for i in items if i.action is not None]
    assert actions == [
        Action.COMPUTERS, Action.COMPUTERS, Action.COMPUTERS,  # they open the list of computers
        Action.TAKE_INVOICES, Action.COMPUTERS, Action.OPEN_FOLDER, Action.CHANGE_FOLDER,
        Action.AUTOSTART, Action.ABOUT, Action.QUIT,
    ]  # fmt: skip
    autostart = next(i for i in items if i.action is Action.AUTOSTART)
    assert autostart.checkable and autostart.checked


def test_gone_for_good_offered_only_for_silent_computers_invoices_wait_on(
    seen: dict[str, Seen],
) -> None:
    items = model.menu(view(seen["silent"], seen["silent"]), autostart=False)
    forget = [(i.text, i.data) for i in items if i.action is Action.FORGET]
    assert forget == [("Treat Laptop as gone for good…", "laptop")]  # the office was heard lately
    waiting = model.menu(view(seen["waiting"], seen["waiting"]), autostart=False)
    assert not [i for i in waiting if i.action is Action.FORGET]  # everyone heard lately
    here = model.menu(view(seen["acting"], seen["acting"]), autostart=False)
    assert not [i for i in here if i.action in (Action.FORGET, Action.TAKE_INVOICES)]


def test_take_confirmation_only_when_the_keeper_is_alive(seen: dict[str, Seen]) -> None:
    question = model.take_confirmation(view(seen["acting"], seen["elsewhere"]))
    assert question is not None and question.startswith("Office PC makes invoices now.")
    assert "stops numbering as soon as it sees this" in question
    assert model.take_confirmation(view(seen["acting"], seen["elsewhere-silent"])) is None
    assert model.take_confirmation(view(seen["acting"], seen["acting"])) is None


@pytest.mark.parametrize(
    ("medicines", "invoices", "expected"),
    [
        ("acting", "acting", Icon.BOTH),
        ("acting", "elsewhere", Icon.MEDICINES),
        ("elsewhere", "acting", Icon.INVOICES),
        ("elsewhere", "elsewhere", Icon.NOTHING),
    ],
)
def test_icon_follows_what_acts_here(
    seen: dict[str, Seen], medicines: str, invoices: str, expected: Icon
) -> None:
    if medicines == "elsewhere":
        # Medicines kept elsewhere: the elsewhere scene's medicines are kept by the office too.
        assert seen["elsewhere"].parts["medicines"].status.why is not Why.ACTING
    assert model.icon(view(seen[medicines], seen[invoices])) is expected


def test_icon_asks_for_attention_when_here_but_waiting(seen: dict[str, Seen]) -> None:
    assert model.icon(view(seen["acting"], seen["waiting"])) is Icon.ATTENTION


def test_status_content(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["waiting"])
    bounds = {"medicines": (T0 - 1, 5000.0), "invoices": (T0 - 1, 5000.0)}
    s = model.status(v, "pc", 42, running=True, now=T0, bounds=bounds, boot="b-1")
    assert s["schema"] == 3 and s["running"] and s["pid"] == 42 and s["at"] == int(T0)
    assert s["boot"] == "b-1"
    medicines = s["parts"]["medicines"]
    assert medicines["acting"] is True
    # The verdict holds RENEW from the start of the call that gave it, on both clocks.
    assert medicines["valid_until"] == int(T0 - 1 + RENEW)
    assert medicines["valid_until_boot"] == 5000.0 + RENEW
    (mine,) = (c for c in v.seen["medicines"].claims if c.computer == "pc")
    assert medicines["token"] == f"pc.{mine.tenure}" and mine.tenure is not None
    invoices = s["parts"]["invoices"]
    p = v.parts["invoices"]
    assert invoices == {
        "keeper": "pc", "name": "This PC", "here": True, "settled": True, "others_heard": False,
        "agreed": p.agreed, "acting": False, "since": p.since, "waiting": list(p.waiting),
        "blocked": None, "status": p.status.to_json(), "valid_until": None,
        "valid_until_boot": None, "token": None, "must_have": {}, "wrote": 0,
        "line": model.part_line(v, "invoices"),
    }  # fmt: skip
    assert invoices["status"]["why"] == "waiting"
    # A part the view says acting, with no call's bound, is not written acting.
    assert model.status(v, "pc", 42, True, T0)["parts"]["medicines"]["acting"] is False
    stopped = model.status(v, "pc", 42, running=False, now=T0, bounds=bounds)
    assert not any(p["acting"] for p in stopped["parts"].values())


def test_must_have_is_how_far_the_others_wrote(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["waiting"])
    others = [c for c in v.seen["invoices"].claims if c.computer != "pc"]
    assert others
    marked = dataclasses.replace(others[0], wrote=41)
    claims = [marked if c is others[0] else c for c in v.seen["invoices"].claims]
    v = dataclasses.replace(
        v, seen={**v.seen, "invoices": v.seen["invoices"]._replace(claims=claims)}
    )
    mine = next(c for c in claims if c.computer == "pc")
    claims = [dataclasses.replace(c, wrote=7) if c is mine else c for c in claims]
    v = dataclasses.replace(
        v, seen={**v.seen, "invoices": v.seen["invoices"]._replace(claims=claims)}
    )
    s = model.status(v, "pc", 42, True, T0, {"invoices": (T0, 0.0)})
    assert s["parts"]["invoices"]["must_have"] == {marked.computer: 41}
    assert s["parts"]["invoices"]["wrote"] == 7  # this computer's own mark, apart


def test_handover_notes_once_per_change(seen: dict[str, Seen]) -> None:
    sent: list[Note] = []
    n = model.NoteFilter(sent.append)
    here = view(seen["acting"], seen["acting"])
    starting = view(seen["acting"], seen["elsewhere-starting"])
    office = view(seen["acting"], seen["elsewhere"])
    n.update(here, 0)
    assert sent == []  # the first view is the starting point, not a change
    n.update(starting, 1)
    n.update(starting, 2)
    assert [s.title for s in sent] == ["Invoices move to Office PC"]
    assert sent[0].body.startswith("This computer no longer makes invoices. It numbers them once")
    n.update(office, 3)  # the office's claim now says it acts
    n.update(office, 4)
    assert [s.title for s in sent][1:] == ["Invoices are now made on Office PC"]
    n.update(here, 5)
    assert [s.title for s in sent][-1] == "Invoices are made here now"
    assert len(sent) == 3


def test_a_change_heard_late_says_it_is_made_there(seen: dict[str, Seen]) -> None:
    """Heard after the new keeper acts already (this computer asleep through the move)."""
    here = view(seen["acting"], seen["acting"])
    office = view(seen["acting"], seen["elsewhere"])
    assert [n.title for n in model.handovers(here, office)] == [
        "Invoices are now made on Office PC"
    ]


def test_a_take_by_commands_alone_is_never_said_made(seen: dict[str, Seen]) -> None:
    """The office renews by one-shot commands and runs no tray: nothing there numbers, so no
    notice says it does, and the menu says why."""
    here = view(seen["acting"], seen["acting"])
    commands = view(seen["acting"], seen["elsewhere-commands"])
    status = commands.parts["invoices"].status
    assert status.acts is False and status.live
    notes = model.handovers(here, commands) + model.handovers(commands, commands)
    assert [n.title for n in notes] == ["Invoices move to Office PC"]
    assert "while no sioul-tray runs there, nothing numbers them" in notes[0].body
    assert model.part_line(commands, "invoices") == "Invoices: Office PC (not numbering yet)"


def test_a_keeper_that_never_acted_and_went_quiet_is_said_silent(
    seen: dict[str, Seen],
) -> None:
    p = seen["elsewhere-starting"].parts["invoices"]
    quiet = dataclasses.replace(p, status=dataclasses.replace(p.status, live=False))
    v = view(seen["acting"], seen["elsewhere-starting"])
    v = dataclasses.replace(v, parts={**v.parts, "invoices": quiet})
    assert model.part_line(v, "invoices").startswith("Invoices: Office PC, silent since ")


def test_a_silent_keeper_is_shown_silent_with_one_note(seen: dict[str, Seen]) -> None:
    """Issue 42, item 3: the keeper's tray killed while it numbered: its last claim says it acts,
    and the menu said "Invoices: Office PC (since 20:41)" with no notification, for ever."""
    acting = view(seen["acting"], seen["elsewhere"])
    silent = view(seen["acting"], seen["elsewhere-silent"])
    status = silent.parts["invoices"].status
    assert status.acts is True and not status.live and status.heard is not None
    assert model.part_line(silent, "invoices") == (
        f"Invoices: Office PC, silent since {hhmm(status.heard)}"
    )
    assert model.icon(acting) is Icon.MEDICINES
    assert model.icon(silent) is Icon.ATTENTION
    sent: list[Note] = []
    notes = model.NoteFilter(sent.append)
    for n, v in enumerate([acting, acting, silent, silent, silent]):
        notes.update(v, n)
    assert [s.title for s in sent] == ["Office PC is silent"]
    assert sent[0].action is model.Action.TAKE_INVOICES
    assert f"since {hhmm(status.heard)}" in sent[0].body
    assert "Make invoices here…" in [i.text for i in model.menu(silent, True)]


def test_a_take_by_commands_that_never_acts_is_told_as_it_is(seen: dict[str, Seen]) -> None:
    """Issue 42, item 5: a take by `sioul-tray take` where no tray runs read "(not numbering
    yet)" in every other menu for as long as it lasted, and the take question said it "makes
    invoices now"."""
    commands = view(seen["acting"], seen["elsewhere-commands"])
    idle = view(seen["acting"], seen["elsewhere-idle"])
    status = idle.parts["invoices"].status
    assert status.live and status.acts is False and status.idle
    assert not commands.parts["invoices"].status.idle  # just taken: it may yet act
    assert model.part_line(idle, "invoices") == (
        "Invoices: Office PC, not numbering (is sioul-tray running there?)"
    )
    assert model.icon(idle) is Icon.ATTENTION
    question = model.take_confirmation(idle)
    assert question is not None and "makes invoices now" not in question
    assert "does not number them" in question
    sent: list[Note] = []
    notes = model.NoteFilter(sent.append)
    for n, v in enumerate([commands, idle, idle]):
        notes.update(v, n)
    assert [s.title for s in sent] == ["Office PC keeps invoices but does not number them"]
    assert sent[0].action is model.Action.TAKE_INVOICES


def test_parts_closed_here_are_said_and_offered_to_reopen(seen: dict[str, Seen]) -> None:
    """Issue 42, item 6: a tray started on parts closed by `sioul-tray close` said only "no
    computer keeps them"."""
    v = dataclasses.replace(view(seen["nobody"], seen["nobody"]),
                            paused=frozenset({"medicines", "invoices"}))  # fmt: skip
    texts = [i.text for i in model.menu(v, True)]
    assert "Closed here by “sioul-tray close”: medicines and invoices" in texts
    reopen = [i for i in model.menu(v, True) if i.action is model.Action.REOPEN]
    assert [i.text for i in reopen] == ["Reopen medicines and invoices here"]
    warned = model.warnings(v)
    assert [n.title for n in warned.values()] == [
        "Medicines and invoices are closed on this computer"
    ]
    one = dataclasses.replace(v, paused=frozenset({"invoices"}))
    assert "Reopen invoices here" in [i.text for i in model.menu(one, True)]
    plain = view(seen["nobody"], seen["nobody"])
    assert not any(i.action is model.Action.REOPEN for i in model.menu(plain, True))


def test_medicines_notes(seen: dict[str, Seen]) -> None:
    here = view(seen["acting"], seen["acting"])
    starting = view(seen["elsewhere-starting"], seen["acting"])
    elsewhere = view(seen["elsewhere"], seen["acting"])
    keeper = elsewhere.parts["medicines"].status
    assert keeper.why is Why.ELSEWHERE
    assert [n.title for n in model.handovers(here, starting)] == [
        f"Medicine reminders move to {keeper.name}"
    ]
    assert [n.title for n in model.handovers(starting, elsewhere)] == [
        f"Medicine reminders are now on {keeper.name}"
    ]
    assert model.part_line(starting, "medicines") == "Medicines: Office PC (not reminding yet)"
    assert [n.title for n in model.handovers(elsewhere, here)] == [
        "Medicine reminders are here now"
    ]
    paused = view(seen["away"], seen["acting"])
    notes = model.handovers(here, paused)
    assert [n.title for n in notes] == ["Medicine reminders paused here"]
    assert notes[0].body == "Medicines: here, paused while you are away"


def test_quiet_after_wake_swallows_the_catch_up(seen: dict[str, Seen]) -> None:
    sent: list[Note] = []
    n = model.NoteFilter(sent.append)
    n.update(view(seen["acting"], seen["acting"]), 0)
    n.quiet(until=10)
    office = view(seen["acting"], seen["elsewhere"])
    n.update(office, 5)
    n.update(office, 11)  # the change happened while quiet: not sent later either
    assert sent == []


def test_warnings_once_while_they_stand_and_again_when_they_return(
    seen: dict[str, Seen],
) -> None:
    sent: list[Note] = []
    n = model.NoteFilter(sent.append)
    calm = view(seen["acting"], seen["waiting"])
    clock_off = view(seen["acting"], seen["waiting"], offsets={"laptop": 300})
    n.update(calm, 0)
    n.update(clock_off, 1)
    n.update(clock_off, 2)
    assert [s.title for s in sent] == ["Laptop's clock is off"]
    n.update(calm, 3)
    n.update(clock_off, 4)
    assert len(sent) == 2


def test_warning_for_unheard_computer_invoices_wait_on(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["silent"])
    notes = model.warnings(v)
    assert list(notes) == ["unheard:laptop"]
    laptop = next(w for w in v.parts["invoices"].status.waiting if w.computer == "laptop")
    assert f"not been heard from since {hhmm(laptop.heard or 0)}" in notes["unheard:laptop"].body


def test_tooltip_has_the_summary(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["acting"])
    assert model.tooltip(v) == "sioul-tray\nMedicines: here\nInvoices: here"


def test_a_copied_configuration_is_said(seen: dict[str, Seen]) -> None:
    v = view(seen["acting"], seen["clone"])
    line = model.part_line(v, "invoices")
    assert line == "Invoices: stopped, another computer uses this computer's id"


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
    problems = tuple((p, x) for p in PARTS for x in lease.last_read(p).problems)
    one = Seen(dict(keepers),
               {p: lease.last_read(p) for p in PARTS}, T0, problems=problems)  # fmt: skip
    v = view(one, one)
    assert model.part_line(v, "invoices") == "Invoices: stopped, the sharing folder's seal changed"
    assert model.part_line(v, "medicines") == "Medicines: here"
    assert model.notes(v)[:2] == [  # what happened, what to do: two lines
        "The sharing folder was sealed again by laptop",
        "Join it again with its passphrase",
    ]
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
    nothing_read = Snapshot([], {}, {}, [])  # the line comes from the state problem alone
    one = Seen({p: lease.look(p) for p in PARTS}, {p: nothing_read for p in PARTS}, T0)
    v = view(one, one, state_problem=lease.state_problem)
    (line,) = [n for n in model.notes(v) if n.startswith("This computer's state:")]
    assert str(path) in line


def test_quit_asks_first_only_when_no_other_computer_would_take_over(
    seen: dict[str, Seen],
) -> None:
    # This computer keeps both parts and nobody else renews: quitting leaves both to nobody.
    question = model.quit_warning(view(seen["acting"], seen["acting"]))
    assert question is not None
    assert question.startswith("No other computer will remind medicines or number invoices")
    assert question.endswith("\n\nQuit anyway?")
    # Laptop and Office PC renew invoices (heard within ALIVE): only medicines are said.
    assert model.quit_warning(view(seen["acting"], seen["waiting"])) == (
        "No other computer will remind medicines while sioul-tray is stopped here.\n\nQuit anyway?"
    )
    # The others went silent (heard 480 s ago): invoices would wait for nobody.
    stalled = model.quit_warning(view(seen["nobody"], seen["stalled"]))
    assert stalled is not None and stalled.startswith("No other computer will number invoices")
    # Nothing kept here: nothing to ask.
    assert model.quit_warning(view(seen["elsewhere"], seen["elsewhere"])) is None


def test_a_notes_body_never_says_its_title_again(seen: dict[str, Seen]) -> None:
    elsewhere = view(seen["elsewhere"], seen["elsewhere"])
    here = model.handovers(elsewhere, view(seen["acting"], seen["acting"]))
    assert [(n.title, n.body) for n in here] == [
        ("Medicine reminders are here now", ""),
        ("Invoices are made here now", ""),
    ]
    nobody = model.handovers(elsewhere, view(seen["nobody"], seen["nobody"]))
    assert [(n.title, n.body) for n in nobody] == [
        ("No computer keeps medicines now", "The next computer you use takes them over."),
        ("No computer keeps invoices now",
         "Choose “Make invoices here” on the computer that should number them."),
    ]  # fmt: skip


def test_a_note_offers_the_menu_action_that_answers_it(seen: dict[str, Seen]) -> None:
    """No computer keeps invoices: a button takes them here (asking first, as the menu does);
    a computer invoices wait for, or a file that does not read: a button opens Computers."""
    elsewhere = view(seen["elsewhere"], seen["elsewhere"])
    medicines, invoices = model.handovers(elsewhere, view(seen["nobody"], seen["nobody"]))
    assert model.note_actions(medicines) == []  # the next computer used takes them: nothing to do
    assert model.note_actions(invoices) == [("take-invoices", "Make invoices here…")]
    (unheard,) = model.warnings(view(seen["acting"], seen["silent"])).values()
    assert model.note_actions(unheard) == [("computers", "Computers…")]
    assert model.Action(model.note_actions(unheard)[0][0]) is Action.COMPUTERS
