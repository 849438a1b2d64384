"""Times as people read them: "10:32", "3 min ago"."""

from __future__ import annotations

import time

from sioul_tray.i18n import Time


def clock_time(t: float, always_date: bool = False) -> str:
    """Local wall-clock time; with the date when it is not today (or always)."""
    local = time.localtime(t)
    today = time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d", time.localtime())
    if today and not always_date:
        return time.strftime("%H:%M", local)
    return time.strftime("%Y-%m-%d %H:%M", local)


def ago(t: float, now: float) -> str:
    """How long before `now`: "just now", "3 min ago", "2 h ago", "4 days ago", or "in 5 min"."""
    delta = now - t
    future = delta < 0
    delta = abs(delta)
    if delta < 45:
        return Time.tr("just now")
    # Whole templates, not "in " + span: word order differs between languages.
    if delta < 3600:
        n = round(delta / 60)
        return Time.tr("in %n min", None, n) if future else Time.tr("%n min ago", None, n)
    if delta < 2 * 86400:
        n = round(delta / 3600)
        return Time.tr("in %n h", None, n) if future else Time.tr("%n h ago", None, n)
    n = round(delta / 86400)  # 2 or more
    return Time.tr("in %n days", None, n) if future else Time.tr("%n days ago", None, n)


def countdown(seconds: float) -> str:
    """Time left, as a countdown reads it, rounded up to ten seconds: "40 s", "1 min 40 s",
    "2 min"."""
    left = max(10, -(-int(seconds) // 10) * 10)
    minutes, rest = divmod(left, 60)
    if not minutes:
        return Time.tr("%n s", None, rest)
    if not rest:
        return Time.tr("%n min", None, minutes)
    return Time.tr("{minutes} min {seconds} s").format(minutes=minutes, seconds=rest)


def span(seconds: float) -> str:
    """A length of time, short: "40 s", "6 min", "3 h"."""
    seconds = abs(int(seconds))
    if seconds < 120:
        return Time.tr("%n s", None, seconds)
    if seconds < 7200:
        return Time.tr("%n min", None, seconds // 60)
    return Time.tr("%n h", None, seconds // 3600)
