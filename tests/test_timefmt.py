"""Times as people read them (`sioul_tray.timefmt`), in English, the source language: the clock
time with its date when not today, how long ago, a countdown, a span.

The French words are checked in tests/test_i18n.py.
"""

from __future__ import annotations

import time

import pytest

from sioul_tray.timefmt import ago, clock_time, countdown, span
from tests.helpers import T0

pytestmark = pytest.mark.usefixtures("utc")  # local times in UTC (tests/conftest.py)


def test_a_time_of_today_is_its_hour_and_minute() -> None:
    now = time.time()
    assert clock_time(now) == time.strftime("%H:%M", time.gmtime(now))
    assert clock_time(now, always_date=True) == time.strftime("%Y-%m-%d %H:%M", time.gmtime(now))


def test_a_time_of_another_day_has_its_date() -> None:
    assert clock_time(T0) == "2025-06-15 15:06"  # in UTC, the fixture's zone
    yesterday = time.time() - 86400
    assert clock_time(yesterday).startswith(time.strftime("%Y-%m-%d ", time.gmtime(yesterday)))


def test_a_time_is_local(monkeypatch: pytest.MonkeyPatch) -> None:
    """The person reads their own clock: the same instant in Paris is two hours later in June.
    Paris's rule as POSIX writes it, so that no time zone database is needed."""
    monkeypatch.setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3")
    time.tzset()  # the `utc` fixture sets UTC back after the test
    assert clock_time(T0) == "2025-06-15 17:06"


@pytest.mark.parametrize(
    ("before", "said"),
    [
        (0, "just now"),
        (44, "just now"),
        (45, "1 min ago"),
        (180, "3 min ago"),
        (3599, "60 min ago"),
        (3600, "1 h ago"),
        (2 * 86400 - 1, "48 h ago"),
        (2 * 86400, "2 days ago"),
        (5 * 86400 + 3 * 3600, "5 days ago"),
    ],
)
def test_how_long_ago(before: int, said: str) -> None:
    assert ago(T0 - before, T0) == said


@pytest.mark.parametrize(
    ("after", "said"),
    [(30, "just now"), (300, "in 5 min"), (3 * 3600, "in 3 h"), (4 * 86400, "in 4 days")],
)
def test_a_time_still_to_come_says_in(after: int, said: str) -> None:
    """A clock behind another computer's: its claim's time is ahead of ours."""
    assert ago(T0 + after, T0) == said


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (-5, "10 s"),  # time up: the countdown never shows less
        (0, "10 s"),
        (1, "10 s"),
        (40, "40 s"),
        (41, "50 s"),
        (60, "1 min"),
        (61, "1 min 10 s"),
        (100, "1 min 40 s"),
        (120, "2 min"),
        (121.5, "2 min 10 s"),
    ],
)
def test_a_countdown_rounds_up_to_ten_seconds(seconds: float, said: str) -> None:
    assert countdown(seconds) == said


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0, "0 s"),
        (40, "40 s"),
        (119, "119 s"),
        (120, "2 min"),
        (7199, "119 min"),
        (7200, "2 h"),
        (-360, "6 min"),  # a clock behind: the length alone
        (5 * 3600 + 59 * 60, "5 h"),
    ],
)
def test_a_span_is_short_and_rounded_down(seconds: float, said: str) -> None:
    assert span(seconds) == said
