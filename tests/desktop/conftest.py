"""Fixtures for the desktop tests: see tests/qtkit.py."""

from tests.qtkit import need

__all__ = ["need"]
