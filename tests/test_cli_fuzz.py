"""The command line under random words, environments and damaged files (Hypothesis).

The invariant, as h11's fuzz harness has it for bytes: every run ends with exit 0, or with a
non-zero exit and one line on stderr that starts with ``sioul-tray:``; never a traceback, never a
hang (each run has a time limit), and a command that fails leaves the sharing folder's bytes as
they were.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import python_env

PASS = "correct horse battery"
COMMANDS = ["setup", "look", "claims", "take", "close", "renew", "forget", "wrote", "--version"]
PARTS = ["medicines", "invoices"]
ODD = ["", " ", "-", "--", "--json", "--share", "x" * 300, "é", "\u202e", "a\x1bb", "../..", "0",
       "-1", "9223372036854775808", "invoices", "medicines", "vitamins"]  # fmt: skip

# Any text a command line can carry: every character but NUL, which no operating system passes in
# an argument (subprocess refuses it before the program runs).
words = st.one_of(
    st.sampled_from(ODD), st.text(st.characters(exclude_characters="\x00"), max_size=12)
)
command_lines = st.tuples(st.sampled_from(COMMANDS), st.lists(words, max_size=3))
damage = st.sampled_from(
    ["none", "empty", "truncate", "random", "nested", "not-utf8"]
)  # what happens to the chosen file
targets = st.sampled_from(
    ["config/computer", "config/settings.json", "state", "key", "sioul.seal", "claim", "none"]
)
environments = st.fixed_dictionaries(
    {},
    optional={
        "LANG": st.sampled_from(["fr_FR.UTF-8", "C", "x" * 300, "de", ""]),
        "SIOUL_TRAY_LANG": st.sampled_from(["fr", "en", "zz", "f" * 300, ""]),
        "SIOUL_PASSPHRASE": st.sampled_from([PASS, "", "x", "wrong passphrase!"]),
    },
)


@pytest.fixture(scope="module")
def installed() -> Path:
    """An installation set up on a folder, renewed once: copied afresh for every example."""
    root = Path(tempfile.mkdtemp(prefix="sioul-fuzz-"))
    folder = root / "Sync" / "Sioul"
    folder.parent.mkdir()
    env = python_env(SIOUL_TRAY_HOME=str(root / "home"), SIOUL_PASSPHRASE=PASS)
    for args in (["setup", "--share", str(folder)], ["renew"]):
        done = subprocess.run([sys.executable, "-m", "sioul_tray.cli", *args], env=env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def spoil(root: Path, target: str, how: str, rnd: bytes) -> None:
    home, folder = root / "home", root / "Sync" / "Sioul"
    paths = {
        "config/computer": home / "config" / "computer",
        "config/settings.json": home / "config" / "settings.json",
        "state": next((home / "state").glob("lease-*.state"), None),
        "key": next((home / "config" / "keys").glob("*.key"), None),
        "sioul.seal": folder / "sioul.seal",
        "claim": next((folder / "leases" / "invoices").glob("*.lease"), None),
    }
    path = paths.get(target)
    if path is None or how == "none" or not path.exists():
        return
    data = path.read_bytes()
    path.write_bytes(
        {
            "empty": b"",
            "truncate": data[: len(data) // 2],
            "random": rnd,
            "nested": b"[" * 5000 + b"]" * 5000,
            "not-utf8": b"\xff\xfe" + data,
        }[how]
    )


@pytest.mark.slow  # a process each example: 150 of them in CI's profile
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command_lines, environments, targets, damage, st.binary(max_size=64))
def test_any_command_line_gives_a_result_or_one_line_of_ours(
    installed: Path,
    line: tuple[str, list[str]],
    env_extra: dict[str, str],
    target: str,
    how: str,
    rnd: bytes,
) -> None:
    ends_well(installed, line, env_extra, (target, how, rnd))


@pytest.mark.parametrize(
    ("target", "how"),
    [("config/computer", "not-utf8"), ("config/settings.json", "nested"), ("state", "random"),
     ("key", "truncate"), ("sioul.seal", "empty"), ("claim", "random")],
)  # fmt: skip
def test_each_file_damaged_gives_a_result_or_one_line_of_ours(
    installed: Path, target: str, how: str
) -> None:
    """The fuzz test's invariant on a look, for one damage of each file: the fast suite's share."""
    ends_well(installed, ("look", []), {}, (target, how, b"\x00\xff" * 20))


def ends_well(
    installed: Path,
    line: tuple[str, list[str]],
    env_extra: dict[str, str],
    spoiled: tuple[str, str, bytes],
) -> None:
    """A copy of `installed`, one of its files spoiled (`spoil`'s target, how, random bytes),
    runs the command `line`: exit 0, or one line of ours and the sharing folder's bytes as they
    were; never a traceback or a hang."""
    command, args = line
    target, how, rnd = spoiled
    with tempfile.TemporaryDirectory(prefix="sioul-fuzz-run-") as tmp:
        root = Path(tmp)
        shutil.copytree(installed, root, dirs_exist_ok=True, symlinks=True)
        # The settings name the original folder: point them at this copy.
        settings_file = root / "home" / "config" / "settings.json"
        settings_file.write_text(settings_file.read_text().replace(str(installed), str(root)))
        spoil(root, target, how, rnd)
        folder = root / "Sync" / "Sioul"
        before = snapshot(folder)
        argv = [command, *args]
        if command == "setup" and args[:1] != ["--share"]:
            argv = ["setup", "--share", str(folder) if not args else args[0], *args[1:]]
        env = python_env(SIOUL_TRAY_HOME=str(root / "home"), **env_extra)
        env.pop("SIOUL_PASSPHRASE", None) if "SIOUL_PASSPHRASE" not in env_extra else None
        try:
            done = subprocess.run(
                [sys.executable, "-m", "sioul_tray.cli", *argv], env=env, cwd=root,
                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            pytest.fail(f"hangs: {argv} with {env_extra}, {target} {how}")
        assert "Traceback" not in done.stderr, (argv, env_extra, target, how, done.stderr)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(("sioul-tray:", "sioul-tray :")), (
                argv, env_extra, target, how, done.stderr,
            )  # fmt: skip
            assert snapshot(folder) == before, (argv, target, how, "changed the folder")
