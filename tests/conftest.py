"""Shared test settings.

Desktop tests (display, tray host, D-Bus) skip with a reason for a newcomer who lacks those parts,
and fail instead when ``SIOUL_REQUIRE_DESKTOP=1`` (CI sets it), so a missing install step in CI
cannot hide behind a skip.
"""

from __future__ import annotations

import os

import pytest


def require_desktop(available: bool, reason: str) -> None:
    """Skip (newcomer) or fail (CI) when a desktop part the test needs is missing."""
    if available:
        return
    if os.environ.get("SIOUL_REQUIRE_DESKTOP") == "1":
        pytest.fail(f"SIOUL_REQUIRE_DESKTOP=1 but {reason}", pytrace=False)
    pytest.skip(reason)
