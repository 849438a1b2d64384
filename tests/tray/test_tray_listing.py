"""What the Computers window shows, as data (`sioul_tray.tray.listing`): the rows built from what
the last read found, the JSON the tray sends the window's process, the last changes of hands,
and the question before forgetting a computer.

The tray answering with it, and the window laying it out, are in test_tray_computers.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray import history
from sioul_tray.history import Change
from sioul_tray.lease.lease import Snapshot
from sioul_tray.timefmt import clock_time
from sioul_tray.tray.listing import (
    SHOWN_CHANGES,
    FileProblem,
    Listing,
    Row,
    forget_question,
    recent,
    rows,
    shown_names,
)
from tests.helpers import NOW, claim

pytestmark = pytest.mark.usefixtures("utc")  # local times in UTC (tests/conftest.py)


def seen(*claims: object, heard: dict[str, int] | None = None, **offsets: int) -> Snapshot:
    return Snapshot(list(claims), heard or {}, dict(offsets), [])  # type: ignore[arg-type]


def test_this_computer_comes_first_then_the_others_by_name() -> None:
    found = rows("pc", None, {"invoices": seen(
        claim("zed", name="anna's laptop"), claim("kit", name="Kitchen"),
        claim("pc", name="Zoé's PC"), claim("abc", name="Anna's laptop"),
    )})  # fmt: skip
    assert [r.computer for r in found] == ["pc", "abc", "zed", "kit"]  # names without case


def test_a_row_gathers_a_computer_across_both_parts() -> None:
    snapshots = {
        "medicines": seen(claim("lap", part="medicines", active=NOW - 50), heard={"lap": NOW - 5},
                          lap=-3),
        "invoices": seen(claim("lap", active=NOW - 10, closed=True), heard={"lap": NOW - 20},
                         lap=2),
    }  # fmt: skip
    (row,) = rows("pc", None, snapshots)
    assert (row.heard, row.active) == (NOW - 5, NOW - 10)  # the latest of each
    assert row.closed == ["invoices"] and row.offset == 2  # the last part's reading
    assert row.keeps == [] and not row.waited  # no view: nothing said of the verdicts


def test_a_computer_never_heard_here_has_no_time() -> None:
    (row,) = rows("pc", None, {"invoices": seen(claim("lap"))})
    assert row.heard is None and row.active == NOW


def test_two_computers_of_one_name_are_told_apart_by_their_ids() -> None:
    found = [Row("vm_a1", "vm"), Row("vm_b2", "vm"), Row("pc", "PC")]
    assert shown_names(found) == {"vm_a1": "vm (vm_a1)", "vm_b2": "vm (vm_b2)", "pc": "PC"}


def test_the_listing_reads_back_as_it_was_sent() -> None:
    sent = Listing(
        "pc", 1.75e9,
        rows=[Row("pc", "PC", heard=NOW, keeps=["invoices"], lines=["Invoices: here"]),
              Row("lap", "Laptop", closed=["medicines"], offset=-4, waited=True)],
        problems=[FileProblem("invoices", "broken.lease", "truncated", "/s/leases/invoices")],
        sync=["Syncthing is connected to every computer sharing the folder."],
        raised=2, changes=["10:32  Invoices are made here now"],
    )  # fmt: skip
    assert Listing.from_json(sent.to_json()) == sent


def test_a_listing_from_another_version_reads_or_is_refused() -> None:
    newer = Listing("pc", 1.0).to_json().replace('"rows": []', '"rows": [{"computer": "a", '
                                                  '"name": "A", "colour": "red"}]')  # fmt: skip
    assert Listing.from_json(newer).rows[0].name == "A"  # fields it does not know: left out
    with pytest.raises(ValueError):
        Listing.from_json('{"rc": 0}')


def test_a_listing_from_an_older_tray_has_no_changes_and_was_not_raised() -> None:
    older = '{"computer": "pc", "now": 5, "rows": [], "problems": [], "sync": null}'
    assert Listing.from_json(older) == Listing("pc", 5.0)


@pytest.mark.parametrize(
    "text", ["[]", '{"computer": "pc", "now": 5, "rows": [1], "problems": [], "sync": null}']
)
def test_what_is_not_a_listing_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="not a listing of computers"):
        Listing.from_json(text)


def test_the_last_changes_newest_first(tmp_path: Path) -> None:
    path = history.path_in(tmp_path)
    changes = [Change(1_750_000_000 + 60 * n, "invoices", "moves", f"PC {n}") for n in range(8)]
    history.record(path, changes)
    shown = recent(path)
    assert len(shown) == SHOWN_CHANGES
    assert shown[0] == history.shown(changes[-1]) and shown[-1] == history.shown(changes[3])


def test_no_history_or_a_damaged_one_shows_no_change(tmp_path: Path) -> None:
    path = history.path_in(tmp_path)
    assert recent(None) == [] and recent(path) == []
    path.write_text("not ours")
    assert recent(path) == []


def test_the_question_before_forgetting_a_computer() -> None:
    title, question = forget_question("Laptop")
    assert title == "Laptop is gone for good"
    assert question.startswith("Treat Laptop as gone for good") and "For invoices" not in question
    _, later = forget_question("Laptop", counts_from=1_750_000_000)
    assert later.startswith(question)
    assert later.endswith(
        f"For invoices it counts from {clock_time(1_750_000_000)}: until then Laptop may still "
        "be numbering them, cut off from the sync."
    )
    _, never = forget_question("Laptop", counts_from=1_750_000_000, on_close=True)
    assert never.startswith(question) and "counts from" not in never
    assert never.endswith(
        "For invoices it cannot count: Laptop may be numbering them on this computer's close, "
        "cut off from the sync, for as long as it runs. Start Laptop for a minute with its sync "
        "running to end the wait."
    )


def test_a_listing_nested_too_deep_is_not_a_listing() -> None:
    with pytest.raises(ValueError, match="not a listing"):
        Listing.from_json('{"rows": ' + "[" * 100_000 + "]" * 100_000 + "}")
