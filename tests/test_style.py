"""The code stays clean: ruff on everything, mypy (strict) on the whole package and its tests."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

CHECKED = ("sioul_tray", "tests", "benchmarks", "packaging")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--no-cache", *CHECKED)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_kept() -> None:
    done = run("ruff", "format", "--check", "--no-cache", *CHECKED)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_package_and_its_tests() -> None:
    done = run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert done.returncode == 0, done.stdout + done.stderr
