"""Times as people read them: "10:32", "3 min ago"."""

from __future__ import annotations

import time


def clock_time(t: float) -> str:
    """Local wall-clock time; with the date when it is not today."""
    local = time.localtime(t)
    if time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d", time.localtime()):
        return time.strftime("%H:%M", local)
    return time.strftime("%Y-%m-%d %H:%M", local)


def ago(t: float, now: float) -> str:
    """How long before `now`: "just now", "3 min ago", "2 h ago", "4 days ago", or "in 5 min"."""
    delta = now - t
    future = delta < 0
    delta = abs(delta)
    if delta < 45:
        return "just now"
    if delta < 3600:
        text = f"{round(delta / 60)} min"
    elif delta < 2 * 86400:
        text = f"{round(delta / 3600)} h"
    else:
        text = f"{round(delta / 86400)} days"
    return f"in {text}" if future else f"{text} ago"
