"""Fixtures for the packaging tests: see tests/qtkit.py (`need`: skip, or fail in CI)."""

from tests.qtkit import need

__all__ = ["need"]
