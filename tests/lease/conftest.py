"""The replica worlds' invariants (tests/lease/replicas.py), judged at every test's end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.lease import replicas


@pytest.fixture(autouse=True)
def _invariants_hold() -> Iterator[None]:
    """A test whose trays all ran every fix broke no invariant after any call; one that switched
    a fix off shows what it found when it fails."""
    replicas.MADE.clear()
    yield
    broken = [v for world in replicas.MADE if world.all_fixes for v in world.violations]
    replicas.MADE.clear()
    assert not broken, "an invariant broken on real replicas:\n" + broken[0]
