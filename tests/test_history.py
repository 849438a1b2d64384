"""What changed hands, as this computer saw it (`sioul_tray.history`): the file the tray keeps in
its state folder, read back oldest first, and each change as a person reads it.

`sioul-tray history` over the same file is in tests/test_cli.py; the Computers window's last
changes in tests/tray/test_tray_listing.py.
"""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest

from sioul_tray import history
from sioul_tray.history import KEPT, Change, Damaged
from sioul_tray.timefmt import clock_time
from tests.helpers import T0, plant

pytestmark = pytest.mark.usefixtures("utc")  # local times in UTC (tests/conftest.py)

TAKEN = Change(int(T0), "invoices", "here")
MOVED = Change(int(T0) + 600, "invoices", "moves", "Laptop", left=True)


def test_no_file_is_no_change_yet(tmp_path: Path) -> None:
    assert history.read(history.path_in(tmp_path / "state")) == []


def test_changes_read_back_oldest_first_in_the_state_folder(tmp_path: Path) -> None:
    state = tmp_path / "state"
    path = history.path_in(state)
    assert path == state / "history.json"
    history.record(path, [TAKEN])
    history.record(path, [MOVED])
    assert history.read(path) == [TAKEN, MOVED]


def test_the_file_is_this_users_alone(tmp_path: Path) -> None:
    """What changed hands when is this person's business: the folder and the file it makes are
    closed to other users of the computer."""
    state = tmp_path / "state"
    history.record(history.path_in(state), [TAKEN])
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE(history.path_in(state).stat().st_mode) == 0o600


def test_recording_nothing_makes_no_file(tmp_path: Path) -> None:
    path = history.path_in(tmp_path / "state")
    history.record(path, [])
    assert not path.exists() and not path.parent.exists()


def test_only_the_last_changes_are_kept(tmp_path: Path) -> None:
    path = history.path_in(tmp_path)
    many = [Change(int(T0) + n, "medicines", "moves", f"PC {n}") for n in range(KEPT + 7)]
    history.record(path, many[:30])
    history.record(path, many[30:])
    kept = history.read(path)
    assert kept == many[-KEPT:]
    assert kept[0].computer == "PC 7"


def test_a_french_tray_s_words_read_back_as_written(tmp_path: Path) -> None:
    """A file of schema 1 holds the words of the tray that saw each change: shown as they are."""
    path = history.path_in(tmp_path)
    french = {"at": int(T0), "part": "medicines", "what": "Les médicaments sont tenus ici",
              "why": "à l’instant"}  # fmt: skip
    path.write_text(json.dumps({"schema": 1, "changes": [french]}), encoding="utf-8")
    (change,) = history.read(path)
    assert history.shown(change).endswith("  Les médicaments sont tenus ici (à l’instant)")
    history.record(path, [TAKEN])  # kept beside the new ones, in the file's new schema
    assert "médicaments" in path.read_text(encoding="utf-8")  # readable as it is, not escaped
    assert history.read(path) == [change, TAKEN]


def test_a_change_is_stored_as_data_and_shown_in_the_readers_language(tmp_path: Path) -> None:
    """Issue 42, item 8: history lines kept the language they were first shown in (the French
    Computers window showed English history)."""
    from sioul_tray import i18n

    path = history.path_in(tmp_path)
    history.record(path, [MOVED])
    stored = json.loads(path.read_text(encoding="utf-8"))["changes"][0]
    assert stored["kind"] == "moves" and stored["computer"] == "Laptop" and stored["left"]
    assert "what" not in stored or not stored["what"]  # no words in the file
    (change,) = history.read(path)
    english = history.shown(change)
    assert "Invoices move to Laptop" in english
    assert i18n.install("fr")
    try:
        french = history.shown(change)
    finally:
        i18n.install("en")
    assert "Laptop" in french and "Invoices" not in french and "factures" in french


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("not json", "history.json: "),
        ("[]", "TypeError"),  # a list, not our document
        ('{"changes": []}', "KeyError"),
        ('{"schema": 2, "changes": [{"at": 1, "kind": "here"}]}', "KeyError"),
        ('{"schema": 1, "changes": [{"at": "soon", "part": "x", "what": "", "why": ""}]}', "soon"),
        ('{"schema": 3, "changes": []}', "schema 3, not 2"),
    ],
    ids=["not-json", "a-list", "no-schema", "a-change-cut-short", "a-time-in-words", "newer"],
)
def test_a_file_that_is_not_ours_is_damaged_with_its_reason(
    tmp_path: Path, text: str, fact: str
) -> None:
    path = history.path_in(tmp_path)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(Damaged) as raised:
        history.read(path)
    assert str(raised.value).startswith(f"{path}: ") and fact in str(raised.value)


def test_a_damaged_file_starts_again_at_the_next_change(tmp_path: Path) -> None:
    """The file is a convenience: the tray never stops for it, it writes a good one over it."""
    path = history.path_in(tmp_path)
    path.write_bytes(b"\xff\xfe not ours")
    history.record(path, [MOVED])
    assert history.read(path) == [MOVED]
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == 2


def test_a_change_reads_with_its_time_and_its_reason_when_it_has_one() -> None:
    assert history.shown(TAKEN) == f"{clock_time(TAKEN.at)}  Invoices are made here now"
    assert history.shown(MOVED) == (
        f"{clock_time(MOVED.at)}  Invoices move to Laptop (This computer no longer makes "
        "invoices. It numbers them once its sioul-tray has kept them for 2 minutes; while no "
        "sioul-tray runs there, nothing numbers them.)"
    )


def test_a_change_of_today_reads_without_its_date_unless_asked() -> None:
    now = int(time.time())
    today = Change(now, "invoices", "here")
    what = "Invoices are made here now"
    assert history.shown(today) == f"{time.strftime('%H:%M', time.gmtime(now))}  {what}"
    dated = history.shown(today, always_date=True)
    assert dated == f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(now))}  {what}"
    # T0 is June 2025: never today, so always with its date.
    assert history.shown(TAKEN).startswith("2025-06-15 15:06  ")


# -- what is not the tray's file: one line, at once ------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "sparse 2 GB", "nested", "link"])
def test_a_history_that_is_not_the_tray_s_is_damaged_at_once(tmp_path: Path, kind: str) -> None:
    """A FIFO hung `sioul-tray history`, 2 GB cost 2.6 GB, deep brackets printed a traceback."""
    path = history.path_in(tmp_path)
    (tmp_path / "elsewhere.json").write_text('{"schema": 1, "changes": []}')
    plant(path, kind, tmp_path / "elsewhere.json")
    began = time.perf_counter()
    with pytest.raises(Damaged, match=str(path)):
        history.read(path)
    assert time.perf_counter() - began < 0.5
    history.record(path, [TAKEN])  # the tray starts it again, as for any damaged file
    assert history.read(path) == [TAKEN]
