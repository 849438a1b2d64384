"""The local state file: what a restart reads back, and how a damaged one is taken (what reads
is kept, the rest is read again from the folder: tests/lease/test_claims_alone.py shows that
safety never rests on it)."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest

from sioul_tray.lease import codec, statefile
from sioul_tray.lease.rules import tag
from tests.helpers import claim, plant

ONE = claim("aa", seq=7, forgets={"cc": 3})
TWO = claim("bb", seq=9, sees="aa", sees_tenure=4, sees_seq=7, tenure=5)


def saved(path: Path) -> statefile.Remembered:
    statefile.save(
        path,
        {"invoices": {"aa": codec.encode(ONE), "bb": codec.encode(TWO)}, "medicines": {}},
        {"invoices": {"cc": 3}, "medicines": {}},
        {"invoices": {tag("bb"): 8}},
    )
    return statefile.load(path)


def test_what_is_saved_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "state" / "lease.state"
    got = saved(path)
    assert got.found and got.problem is None
    assert {c: claim for c, (claim, _) in got.claims["invoices"].items()} == {"aa": ONE, "bb": TWO}
    assert got.claims["invoices"]["bb"][1] == codec.encode(TWO)  # the text as it was written
    assert got.forgets["invoices"] == {"cc": 3} and got.named["invoices"] == {tag("bb"): 8}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700  # this user's alone


def test_no_file_is_no_problem(tmp_path: Path) -> None:
    got = statefile.load(tmp_path / "none.state")
    assert not got.found and got.problem is None and got.claims["invoices"] == {}


def test_damaged_lines_are_skipped_and_said(tmp_path: Path) -> None:
    path = tmp_path / "lease.state"
    saved(path)
    with path.open("a", encoding="utf-8") as f:
        f.write("invoices\tnot a claim\n")
        f.write(f"medicines\t{codec.encode(ONE)}\n")  # an invoices claim under medicines
    got = statefile.load(path)
    assert set(got.claims["invoices"]) == {"aa", "bb"} and got.claims["medicines"] == {}
    assert got.problem is not None and "2 damaged lines skipped" in got.problem


def test_a_damaged_header_keeps_nothing_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "lease.state"
    saved(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["forgets"] = {"invoices": {"Not An Id!": 3}}  # would spoil every claim written
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    got = statefile.load(path)
    assert got.found and got.problem is not None and "damaged header" in got.problem
    assert got.claims["invoices"] == {} and got.forgets["invoices"] == {}


def test_an_older_version_reads(tmp_path: Path) -> None:
    """Version 1 kept [seq, heard] per declaration; version 2 named computers by id."""
    path = tmp_path / "lease.state"
    header = {"version": 1, "forgets": {"invoices": {"cc": [3, 12345]}}}
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert statefile.load(path).forgets["invoices"] == {"cc": 3}
    header = {"version": 2, "forgets": {}, "named": {"invoices": {"bb": 8}}}
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert statefile.load(path).named["invoices"] == {tag("bb"): 8}


def test_an_unknown_version_is_not_guessed(tmp_path: Path) -> None:
    path = tmp_path / "lease.state"
    path.write_text(json.dumps({"version": 99}) + "\n", encoding="utf-8")
    got = statefile.load(path)
    assert got.problem is not None and "damaged header" in got.problem


@pytest.mark.parametrize("kind", ["fifo", "sparse 2 GB", "link"])
def test_a_state_file_that_is_no_file_is_a_problem_said_at_once(tmp_path: Path, kind: str) -> None:
    """A FIFO kept the tray from starting; 2 GB cost 6.2 GB and 60 s of `look`."""
    path = tmp_path / "lease-f-c.state"
    plant(path, kind)
    began = time.perf_counter()
    got = statefile.load(path)
    assert time.perf_counter() - began < 0.5
    assert got.found and got.problem is not None
    assert got.problem.startswith(f"{path} is ") and "starting from the folder alone" in got.problem
    assert got.claims == {"medicines": {}, "invoices": {}}  # nothing taken from it
