"""The phrasebook: a status, a wait and a notification in words (English; French in
tests/tray/test_tray_i18n.py). The menu's lines over statuses real Leases made are in
tests/tray/test_tray_model.py; this module holds the phrasebook's own choices."""

from __future__ import annotations

import dataclasses

import pytest

from sioul_tray import phrases
from sioul_tray.lease.status import Status, Waited, Why
from sioul_tray.timefmt import clock_time

T = 1_800_000_000.0  # 2027-01-15 08:00 UTC


pytestmark = pytest.mark.usefixtures("utc")


def waited(
    name: str,
    heard: float | None = None,
    closed: bool = False,
    unheard: bool = False,
    counts_from: float | None = None,
    on_close: bool = False,
) -> Waited:
    return Waited(
        name.lower(),
        name,
        None if heard is None else int(heard),
        closed=closed,
        unheard=unheard,
        counts_from=None if counts_from is None else int(counts_from),
        on_close=on_close,
    )


def test_a_keeper_elsewhere_is_said_by_what_its_claim_says() -> None:
    status = Status(Why.ELSEWHERE, "office", "Office PC", since=int(T), live=True, taken=True)
    assert phrases.part_line("invoices", status) == f"Invoices: Office PC (since {clock_time(T)})"
    acts = Status(Why.ELSEWHERE, "office", "Office PC", since=int(T), live=True, acts=True,
                  taken=True)  # fmt: skip
    assert phrases.part_line("invoices", acts) == phrases.part_line("invoices", status)
    starting = Status(Why.ELSEWHERE, "office", "Office PC", since=int(T), live=True, acts=False)
    assert phrases.part_line("invoices", starting) == "Invoices: Office PC (not numbering yet)"
    assert phrases.part_line("medicines", starting) == "Medicines: Office PC (not reminding yet)"


def test_since_is_the_keepers_own_take_or_says_it_is_when_this_computer_saw_it() -> None:
    """Issue 42, item 8: "Invoices: Laptop (since 19:58)" was when this computer joined."""
    seen = Status(Why.ELSEWHERE, "laptop", "Laptop", since=int(T), live=True, acts=True)
    assert phrases.part_line("invoices", seen) == f"Invoices: Laptop (seen since {clock_time(T)})"
    taken = dataclasses.replace(seen, taken=True)
    assert phrases.part_line("invoices", taken) == f"Invoices: Laptop (since {clock_time(T)})"


@pytest.mark.parametrize("acts", [True, False, None])
def test_a_silent_keeper_is_said_silent_whatever_its_last_claim_said(acts: bool | None) -> None:
    """Issue 42, item 3: "(sioul-tray is not running there)" only when its last claim said it
    did not act; a keeper killed while acting read "Office PC (since 20:41)" for ever."""
    silent = Status(Why.ELSEWHERE, "office", "Office PC", since=int(T), live=False, acts=acts,
                    taken=True, heard=int(T) + 60)  # fmt: skip
    line = phrases.part_line("invoices", silent)
    assert line == f"Invoices: Office PC, silent since {clock_time(T + 60)}"
    never = dataclasses.replace(silent, heard=None)
    assert phrases.part_line("invoices", never) == "Invoices: Office PC, silent"


def test_a_keeper_that_does_not_act_long_after_its_take_is_not_said_to_start() -> None:
    """Issue 42, item 5: a take by the command line with no tray there read "(not numbering
    yet)" for as long as it lasted."""
    idle = Status(Why.ELSEWHERE, "nas", "NAS", since=int(T), live=True, acts=False, idle=True)
    line = phrases.part_line("invoices", idle)
    assert line == "Invoices: NAS, not numbering (is sioul-tray running there?)"
    assert "yet" not in phrases.part_line("medicines", idle)
    title, body = phrases.handover("moves", "invoices", "NAS")
    assert title == "Invoices move to NAS" and "2 minutes" not in title
    assert "while no sioul-tray runs there, nothing numbers them" in body


def test_settling_counts_down_given_the_clock() -> None:
    status = Status(Why.SETTLING, "pc", "PC", until=int(T) + 100)
    assert phrases.part_line("invoices", status, now=T) == "Invoices: here in 1 min 40 s"
    assert phrases.part_line("invoices", status, now=T + 100) == "Invoices: here in a moment"
    assert phrases.part_line("invoices", status) == (
        f"Invoices: here from {clock_time(T + 100)} (settling)"
    )


def test_a_wait_names_two_computers_then_counts_the_rest() -> None:
    four = [waited(n, heard=T) for n in ("Laptop", "Office PC", "Den", "Attic")]
    text = phrases.waiting_text(four)
    assert text.startswith("waiting for Laptop, last heard ") and text.endswith("; 2 more")
    lines = phrases.waiting_lines("invoices", Status(Why.WAITING, waiting=tuple(four)))
    assert lines[0] == "Invoices: here, waiting for 4 computers"
    assert lines[1:4] == [phrases.INDENT + phrases.waited_text(w) for w in four[:3]]
    assert lines[4] == phrases.INDENT + "1 more"


def test_each_computer_waited_for_is_said_by_what_would_end_the_wait() -> None:
    assert phrases.waited_text(waited("Laptop")) == "Laptop, not heard yet"
    assert phrases.waited_text(waited("Laptop", closed=True)) == (
        "Laptop, closed: start it for a minute with its sync running"
    )
    assert phrases.waited_text(waited("Laptop", counts_from=T)).startswith(
        "Laptop, declared gone: counts as gone from "
    )
    # Declared, but it may be numbering on this computer's close (`admitted_closes`).
    assert phrases.waited_text(waited("Laptop", closed=True, on_close=True)) == (
        "Laptop, declared gone: start it with its sync"
    )
    # Named by its stand-in id: the menu's "Treat #1a2b3c4d as gone for good…" and
    # `sioul-tray forget` take it.
    assert phrases.waited_text(waited("#1a2b3c4d", unheard=True)) == (
        "a computer the others know (#1a2b3c4d), not heard here yet"
    )


def test_two_computers_with_one_name_are_told_apart() -> None:
    names = phrases.Names([("pc_a", "Home PC"), ("pc_b", "home pc"), ("office", "Office PC")])
    assert names("pc_a", "Home PC") == "Home PC (pc_a)"
    assert names("office", "Office PC") == "Office PC"
    assert names("zed", None) == "zed"


def test_every_notice_has_words_for_both_parts() -> None:
    kinds = ("moves", "made", "left", "here", "paused", "nobody", "nobody then")
    for kind in kinds:
        medicines, invoices = phrases.notice(kind, "medicines"), phrases.notice(kind, "invoices")
        assert medicines and invoices and medicines != invoices, kind
    titles = [phrases.notice(kind, "invoices") for kind in kinds]
    assert len(set(titles)) == len(titles)


def test_the_warnings_say_who_and_since_when() -> None:
    title, body = phrases.unheard("Laptop", T)
    assert title == "Invoices wait for Laptop"
    assert body.startswith(f"Laptop has not been heard from since {clock_time(T)}.")
    assert phrases.unheard("Laptop", None)[1].startswith("Laptop has not been heard from yet.")
    assert phrases.clock_off("Laptop", 90) == (
        "Laptop's clock is off",
        "It is 90 s ahead of this computer's clock.",
    )
    assert phrases.clock_off("Laptop", -90)[1] == "It is 90 s behind this computer's clock."


def test_a_mark_unknown_here_stops_invoices_whoever_keeps_them() -> None:
    """Issue 39: a computer whose records mark is unknown hands nothing on, so the keeper
    elsewhere waits for it; its person must hear that, not "Invoices: Office PC"."""
    elsewhere = Status(Why.ELSEWHERE, "office", "Office PC", since=int(T), live=True, acts=True,
                       problem="unknown", cause="mark")  # fmt: skip
    blocked = Status(Why.BLOCKED, "laptop", "Laptop", problem="unknown", cause="mark")
    line = "Invoices: stopped, this computer's records mark is unknown"
    assert phrases.part_line("invoices", elsewhere) == line
    assert phrases.part_line("invoices", blocked) == line
    plain = dataclasses.replace(elsewhere, problem=None, cause=None)
    assert phrases.part_line("invoices", plain).startswith("Invoices: Office PC")
