"""The table of requests the running tray answers (tests/tray/test_tray_app.py and
test_tray_computers.py send them to a real tray; this module checks the table's shape)."""

from __future__ import annotations

from sioul_tray.tray.answers import REQUESTS, Request
from sioul_tray.tray.request import THROUGH_TRAY


def first(argv: list[str]) -> Request | None:
    """The row that answers `argv`, as `answers.answer` picks it."""
    name, args = argv[0], argv[1:]
    return next((r for r in REQUESTS if r.name == name and r.fits(args)), None)


def test_every_write_the_command_line_sends_through_the_tray_has_a_row() -> None:
    for name in THROUGH_TRAY:
        assert any(r.name == name for r in REQUESTS), name


def test_each_form_reaches_its_own_row() -> None:
    """Rows are tried in order: no earlier row takes a later one's words."""
    closes = [r for r in REQUESTS if r.name == "close"]
    assert first(["close", "windows"]) is closes[1]  # not a part: the windows
    assert first(["close", "invoices"]) is closes[0]
    assert first(["close"]) is closes[0]  # every part
    opened = [first(["open", what]) for what in ("computers", "about", "setup")]
    assert len({id(r) for r in opened}) == 3 and None not in opened


def test_words_out_of_form_find_no_row() -> None:
    for argv in (
        ["take", "medicines"],  # medicines follow the person: never taken
        ["forget"],
        ["forget", "a", "b"],
        ["close", "recipes"],
        ["wrote", "invoices", "12"],  # no token
        ["wrote", "invoices", "-1", "tok"],
        ["wrote", "invoices", "12", "tok", "nan"],
        ["wrote", "vitamins", "12", "tok"],
        ["about", "extra"],
        ["open", "rockets"],
    ):
        assert first(argv) is None, argv
    assert first(["wrote", "invoices", "12", "tok", "3.5"]) is not None
