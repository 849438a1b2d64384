"""The example Sioul's records (examples/numberer.py), on real files: what counts, what is void."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("numberer", ROOT / "examples" / "numberer.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


numberer = load()


def write(log: Path, *numbers: int) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("".join(f"{n} desk.7\n" for n in numbers), encoding="ascii")


def test_own_records_past_the_mark_are_dropped(tmp_path: Path) -> None:
    log = tmp_path / "records" / "desk.log"
    write(log, 1, 2, 3, 4)
    assert numberer.drop_void(log, 3)  # record 4 was refused its mark
    assert numberer.records(log.parent) == {"desk": [1, 2, 3]}
    assert numberer.drop_void(log, 3)  # nothing more to drop


def test_fewer_own_records_than_the_mark_wait_and_lose_nothing(tmp_path: Path) -> None:
    log = tmp_path / "records" / "desk.log"
    write(log, 1, 2)  # an older copy of the log, brought back by the sync
    assert not numberer.drop_void(log, 3)
    assert numberer.records(log.parent) == {"desk": [1, 2]}
    assert not numberer.drop_void(tmp_path / "records" / "none.log", 1)  # no log at all


def test_the_numbers_that_count_stop_at_each_writers_mark() -> None:
    held = {"desk": [1, 2, 5], "lap": [3, 4, 6], "gone": [7]}
    # desk's 5 and lap's 6 are past their marks (void); gone's mark is not known: its 7 stands.
    assert sorted(numberer.counted(held, {"desk": 2, "lap": 2})) == [1, 2, 3, 4, 7]
    assert numberer.records_reached(held, {"lap": 3}, "desk")
    assert not numberer.records_reached(held, {"lap": 4}, "desk")
    assert numberer.records_reached(held, {"desk": 9}, "desk")  # its own mark: drop_void's
