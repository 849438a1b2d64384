"""The fast suite stays fast (tests/conftest.py): a test not marked slow that takes longer than
its budget fails, saying so; one marked slow may take what it needs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT, python_env

SLEEPY = """
import time
import pytest

def test_sleepy_in_the_fast_suite():
    time.sleep(0.6)

@pytest.mark.slow
def test_sleepy_and_marked_slow():
    time.sleep(0.6)

def test_quick():
    pass
"""


def test_a_slow_test_left_in_the_fast_suite_fails_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "test_sleepy.py").write_text(SLEEPY)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
         "--rootdir", str(ROOT), "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-m", "slow or not slow", "-q", str(tmp_path / "test_sleepy.py")],
        cwd=ROOT, env=python_env(SIOUL_FAST_LIMIT="0.3"), capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "1 failed, 2 passed" in out, out
    assert "test_sleepy_in_the_fast_suite: its call took 0.6 s, over the fast suite's" in out
    assert "mark it slow" in out
