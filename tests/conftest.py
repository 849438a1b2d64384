"""Shared fixtures: a hand-moved clock and a sealed sharing folder.

Desktop tests (display, tray host, D-Bus) skip with a reason for a newcomer who lacks those parts,
and fail instead when ``SIOUL_REQUIRE_DESKTOP=1`` (CI sets it): the `need` fixture of
tests/qtkit.py, used by tests/tray and tests/desktop.

Texts are English (the source language) whatever this machine's locale, unless a test asks for
another language; the French catalogue is compiled first when missing or older than its ``.ts``
(a checkout that was never built, or a catalogue just edited).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from sioul_tray.share import Share
from sioul_tray.translations import compile_all
from tests.helpers import FakeClock

# Inherited by every child process the tests start (command line, tray, demo).
os.environ["SIOUL_TRAY_LANG"] = "en"
# Into the checkout's package, which the tests import (pytest's pythonpath ["."]).
compile_all(only_stale=True)

# Hypothesis profiles, instead of a number in each test: "dev" for the README's command, "ci"
# (more examples) where CI runs (CI=true); `--hypothesis-profile NAME` chooses another. No
# deadline: the tests share a 2-core machine, and file I/O takes what it takes there.
settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local times in UTC: "08:00" for T0, whatever the machine's zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "share"
    made.mkdir()
    return made


@pytest.fixture
def share(folder: Path) -> Share:
    """A sealed sharing folder made by computer "aa" (cheap key derivation: tests only)."""
    return Share.create(folder, "correct horse", "aa", cost=10)


@pytest.fixture
def memory_path(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory (tmpfs: /dev/shm) for the tests that write a simulated day of claims,
    where the files are not what they test: real files still, but an fsync costs nothing there
    (such a test runs in 1.5 s instead of 5). `tmp_path` where the system has no such folder."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK):
        yield tmp_path
        return
    made = Path(tempfile.mkdtemp(prefix="sioul-tests-", dir=shm))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


@pytest.fixture
def day_share(memory_path: Path) -> Share:
    """`share`, in memory (`memory_path`): for a simulated day of claims."""
    folder = memory_path / "share"
    folder.mkdir()
    return Share.create(folder, "correct horse", "aa", cost=10)


# The fast suite stays fast: a test not marked slow that takes longer than this (its setup, its
# call or its teardown) fails, saying so. The fast suite is what every change waits for.
FAST_LIMIT = float(os.environ.get("SIOUL_FAST_LIMIT", "5"))  # seconds


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.passed and report.duration > FAST_LIMIT and item.get_closest_marker("slow") is None:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid}: its {report.when} took {report.duration:.1f} s, over the fast "
            f"suite's {FAST_LIMIT:g} s: make it faster, or mark it slow (pytest.mark.slow)"
        )
