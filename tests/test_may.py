"""`sioul-tray may PART` and `sioul-tray run PART -- COMMAND` (`sioul_tray.may`): the tray's verdict
for a script. In this process for what is said and refused before any command runs; as real
processes for the exit codes, waiting, and a command stopped when its verdict is lost.

The verdict itself (`sioul_tray.client`) is in tests/test_client.py.
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sioul_tray import client, may
from sioul_tray.cliparser import parser
from sioul_tray.timefmt import clock_time
from tests.helpers import ROOT, python_env, status_doc, write_status


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This installation's home: its tray's status file is state/status.json in it."""
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(tmp_path))
    return tmp_path


def asked(*words: str) -> argparse.Namespace:
    """The command line's words as `may` and `run` get them (the fast parser, as Sioul calls)."""
    return parser(fast=True).parse_args(list(words))


# -- the words ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "before", "command"),
    [
        (["run", "invoices"], ["run", "invoices"], []),
        (["run", "invoices", "--"], ["run", "invoices"], []),
        (["run", "invoices", "--wait", "5", "--", "make", "--wait", "x"],
         ["run", "invoices", "--wait", "5"], ["make", "--wait", "x"]),
        (["run", "invoices", "--", "sh", "--", "-c"], ["run", "invoices"], ["sh", "--", "-c"]),
    ],
)  # fmt: skip
def test_the_command_is_what_follows_the_first_double_dash(
    words: list[str], before: list[str], command: list[str]
) -> None:
    assert may.split_command(words) == (before, command)


@pytest.mark.parametrize("given", ["0", "2.5", "10000000"])
def test_wait_takes_seconds(given: str) -> None:
    assert asked("may", "invoices", "--wait", given).wait == float(given)
    assert asked("may", "invoices").wait == 0.0  # by default, not at all


@pytest.mark.parametrize("given", ["-1", "soon", "nan", "1e8", "inf"])
def test_wait_refuses_what_is_not_a_number_of_seconds(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        asked("run", "medicines", "--wait", given)
    assert ended.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("sioul-tray: run: argument --wait: ")
    assert f"{given!r} is not a number of seconds" in said


# -- why not --------------------------------------------------------------------------------------


def test_each_reason_not_to_act_is_said_in_words(home: Path) -> None:
    reasons = [client.NO_TRAY, client.DAMAGED, client.OLD_TRAY, client.STOPPED, client.GONE,
               client.OTHER_BOOT, client.LAPSED]  # fmt: skip
    said = {reason: may.why_not(client.Verdict("invoices", False, reason)) for reason in reasons}
    assert len(set(said.values())) == len(reasons)  # each its own sentence
    assert all(text != reason and " " in text for reason, text in said.items())
    status = str(home / "state" / "status.json")
    assert said[client.DAMAGED] == f"{status} does not read as the tray writes it"
    assert said[client.GONE] == f"the tray that wrote {status} no longer runs"
    assert status in said[client.OTHER_BOOT]


def test_a_tray_that_does_not_act_says_why_in_its_menu_s_words() -> None:
    line = "Invoices: Laptop (since 10:32)"
    found = client.Verdict("invoices", False, client.NOT_ACTING, line=line)
    assert may.why_not(found) == line


def test_may_and_look_say_a_settling_part_the_same_at_the_same_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 42, item 8: `may` said "in 1 min" (the line status.json was written with) while
    `look` said "in 20 s" for the same settling; both now say it from the status, as of now."""
    from sioul_tray import commands
    from sioul_tray.lease.status import Status, Why

    now = 1_800_000_000.0
    monkeypatch.setattr(time, "time", lambda: now)
    status = Status(Why.SETTLING, "pc", "PC", until=int(now) + 20)
    written = "Invoices: here in 1 min"  # the line as the tray wrote it 40 s before
    found = client.Verdict("invoices", False, client.NOT_ACTING, status=status.to_json(),
                           line=written)  # fmt: skip
    looked = commands.line("invoices", status, True, now=now)
    assert may.why_not(found) == looked == "Invoices: here in 20 s"


def test_the_json_carries_the_whole_verdict() -> None:
    found = client.Verdict("invoices", True, client.ACTING, "desk.7", 1.5e9, 1234.5, {"lap": 41})
    assert may.as_json(found) == {
        "part": "invoices", "may": True, "reason": "acting", "token": "desk.7",
        "valid_until": 1.5e9, "valid_until_boot": 1234.5, "must_have": {"lap": 41},
    }  # fmt: skip
    json.dumps(may.as_json(found))  # as it is printed


# -- may, in this process -------------------------------------------------------------------------


def test_may_prints_the_token_alone_and_says_the_rest_on_stderr(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found as a script: plain `may` printed the token in a sentence, then "first, the records
    of vm_45b2 up to 9", which broke a script reading the token from the last word. Its output
    is the token alone, whatever else it says (docs/integration.md, "From a shell")."""
    doc = status_doc(must_have={"laptop_9": 41, "kitchen_2": 7})
    write_status(home / "state", doc)
    out = io.StringIO()
    assert may.cmd_may(asked("may", "invoices"), out) == 0
    assert out.getvalue() == "desk_1234.77\n"
    until = clock_time(doc["parts"]["invoices"]["valid_until"])
    assert capsys.readouterr().err.splitlines() == [
        f"Invoices: this computer may number them until {until}, token desk_1234.77",
        "  first, the records of kitchen_2 up to 7",  # by computer
        "  first, the records of laptop_9 up to 41",
    ]


def test_may_for_medicines_speaks_of_reminding(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = status_doc()
    doc["parts"]["medicines"] = dict(doc["parts"]["invoices"])
    write_status(home / "state", doc)
    out = io.StringIO()
    assert may.cmd_may(asked("may", "medicines"), out) == 0
    assert capsys.readouterr().err.startswith("Medicines: this computer may remind them until ")


def test_may_not_says_why_on_stderr_only(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert may.cmd_may(asked("may", "invoices"), out) == 1  # no status file: no tray
    assert out.getvalue() == ""
    assert capsys.readouterr().err.startswith("no tray runs here")
    assert may.cmd_may(asked("may", "invoices", "--json"), out) == 1
    assert json.loads(out.getvalue())["reason"] == client.NO_TRAY  # said on stdout as JSON


# -- run, refused before its command --------------------------------------------------------------


def test_run_without_a_command_is_a_usage_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_status(home / "state", status_doc())
    assert may.cmd_run(asked("run", "invoices"), [], io.StringIO()) == may.FAILED
    assert capsys.readouterr().err == "sioul-tray run: give the command after --\n"


def test_run_without_the_verdict_runs_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_status(home / "state", status_doc(acting=False))
    mark = home / "ran"
    command = [sys.executable, "-c", f"open({str(mark)!r}, 'w')"]
    assert may.cmd_run(asked("run", "invoices"), command, io.StringIO()) == may.MAY_NOT
    assert capsys.readouterr().err == "Invoices: no computer keeps them\n"
    assert not mark.exists()


def test_run_says_a_command_that_does_not_start(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_status(home / "state", status_doc())
    missing = str(home / "no such program")
    assert may.cmd_run(asked("run", "invoices"), [missing], io.StringIO()) == may.NOT_FOUND
    # The system's own words for it, in the process's locale (another test may have set one).
    reason = os.strerror(errno.ENOENT)
    assert capsys.readouterr().err == f"sioul-tray run: {missing}: {reason}\n"


# -- may and run as Sioul starts them -------------------------------------------------------------


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", *args],
        capture_output=True, text=True, timeout=60,
        env=python_env(SIOUL_TRAY_HOME=str(home)),
    )  # fmt: skip


def test_may_from_the_command_line(tmp_path: Path) -> None:
    write_status(tmp_path / "state", status_doc(must_have={"laptop_9": 41}))
    done = cli(tmp_path, "may", "invoices")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "desk_1234.77\n"
    assert "token desk_1234.77" in done.stderr and "laptop_9 up to 41" in done.stderr
    done = cli(tmp_path, "may", "invoices", "--json")
    assert json.loads(done.stdout)["may"] is True and done.returncode == 0
    write_status(tmp_path / "state", status_doc(left=-5))
    done = cli(tmp_path, "may", "invoices")
    assert done.returncode == 1 and "not renewed its verdict" in done.stderr
    write_status(tmp_path / "state", status_doc(acting=False))
    done = cli(tmp_path, "may", "invoices")
    assert done.returncode == 1 and done.stderr == "Invoices: no computer keeps them\n"
    done = cli(tmp_path, "may", "spoons")
    assert done.returncode == 2


def test_may_waits_for_the_verdict(tmp_path: Path) -> None:
    write_status(tmp_path / "state", status_doc(acting=False))
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "may", "invoices", "--wait", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None  # still waiting
    write_status(tmp_path / "state", status_doc())
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert out == "desk_1234.77\n"
    done = cli(tmp_path, "may", "medicines", "--wait", "0.5")
    assert done.returncode == 1


def test_run_gives_the_command_its_verdict_and_its_exit_code(tmp_path: Path) -> None:
    write_status(tmp_path / "state", status_doc(must_have={"laptop_9": 41}))
    script = (
        "import os; print(os.environ['SIOUL_LEASE_TOKEN'], os.environ['SIOUL_LEASE_MUST_HAVE']);"
        "raise SystemExit(7)"
    )
    done = cli(tmp_path, "run", "invoices", "--", sys.executable, "-c", script)
    assert done.returncode == 7, done.stderr
    assert done.stdout.split(maxsplit=1) == ["desk_1234.77", '{"laptop_9": 41}\n']
    write_status(tmp_path / "state", status_doc(acting=False))
    done = cli(tmp_path, "run", "invoices", "--", sys.executable, "-c", "print('ran')")
    assert done.returncode == may.MAY_NOT and "ran" not in done.stdout


@pytest.mark.parametrize(
    "loss",
    # A lapse waits for the verdict's bound to pass: near the fast suite's budget, so slow.
    [pytest.param("lapses", marks=pytest.mark.slow), "taken elsewhere", "new tenure"],
)
def test_run_stops_the_command_when_the_verdict_is_lost(tmp_path: Path, loss: str) -> None:
    write_status(tmp_path / "state", status_doc(left=4 if loss == "lapses" else 60))
    began = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--", "sleep", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None
    if loss == "taken elsewhere":
        write_status(tmp_path / "state", status_doc(acting=False))
    elif loss == "new tenure":
        write_status(tmp_path / "state", status_doc(token="desk_1234.78"))
    _, err = child.communicate(timeout=30)
    assert child.returncode == may.LOST, err
    assert "stopped sleep" in err
    assert time.monotonic() - began < 15  # SIGTERM at once: `sleep` ends on it


def test_run_waits_before_its_command_and_leaves_the_command_s_words_alone(
    tmp_path: Path,
) -> None:
    write_status(tmp_path / "state", status_doc(acting=False))
    child = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--wait", "20", "--",
         sys.executable, "-c", "import sys; print(sys.argv[1:])", "--wait", "x"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(tmp_path)),
    )  # fmt: skip
    time.sleep(1.0)
    assert child.poll() is None  # waiting for the verdict, not given up
    write_status(tmp_path / "state", status_doc())
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert out.strip() == "['--wait', 'x']"
    assert cli(tmp_path, "run", "invoices").returncode == may.FAILED  # no command after --


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="gives a file away")
def test_may_and_run_refuse_a_state_folder_another_user_owns(tmp_path: Path) -> None:
    """The tray refuses such a folder; `may` said yes there, with that user's forged token."""
    write_status(tmp_path / "state", status_doc(token="forged.1"))
    os.chown(tmp_path / "state", 65534, 65534)
    done = cli(tmp_path, "may", "invoices")
    assert done.returncode == 1 and "forged" not in done.stdout
    status = tmp_path / "state" / "status.json"
    assert done.stderr == (
        f"{status} or its folder belongs to another user, or is a link: not trusted\n"
    )
    done = cli(tmp_path, "run", "invoices", "--", sys.executable, "-c", "print('ran')")
    assert done.returncode == may.MAY_NOT and "ran" not in done.stdout


# -- the exit codes, each row of may.EXIT_CODES ---------------------------------------------------


@pytest.mark.parametrize(
    ("row", "command", "code"),
    [
        ("0-122", [sys.executable, "-c", "raise SystemExit(3)"], 3),  # not "lost" any more
        ("123", None, may.MAY_NOT),
        ("125", [], may.FAILED),
        ("126", ["{home}/not executable"], may.CANNOT_START),
        ("127", ["{home}/no such program"], may.NOT_FOUND),
        ("128+N", ["sh", "-c", "kill -TERM $$"], 128 + 15),  # was 241
    ],
)
def test_each_exit_code_of_run(
    tmp_path: Path, row: str, command: list[str] | None, code: int
) -> None:
    write_status(tmp_path / "state", status_doc(acting=command is not None))
    (tmp_path / "not executable").write_text("echo hello\n")
    words = [w.format(home=tmp_path) for w in (["true"] if command is None else command)]
    done = cli(tmp_path, "run", "invoices", "--", *words)
    assert done.returncode == code, done.stderr
    assert any(r == row for r, _ in may.EXIT_CODES)


def test_a_usage_error_of_run_is_run_s_code_not_the_command_s(tmp_path: Path) -> None:
    assert cli(tmp_path, "run", "spoons", "--", "true").returncode == may.FAILED
    assert cli(tmp_path, "may", "spoons").returncode == 2  # `may` keeps 0, 1, 2


@pytest.mark.parametrize(
    ("returncode", "code"), [(0, 0), (3, 3), (255, 255), (-15, 143), (-9, 137)]
)
def test_a_command_ended_by_signal_n_is_128_plus_n(returncode: int, code: int) -> None:
    assert may.command_code(returncode) == code


# -- the whole tree -------------------------------------------------------------------------------

# A command that starts a writer in its own process group (a grandchild) and, with "stray", a
# second one that leaves the group (setsid), then writes itself: each appends to its file.
TREE = """
import os, subprocess, sys, time
writer = "import sys, time\\nwhile True:\\n  open(sys.argv[1], 'a').write('x')\\n  time.sleep(0.02)"
for name in sys.argv[2:]:
    subprocess.Popen([sys.executable, "-c", writer, os.path.join(sys.argv[1], name)],
                     start_new_session=name == "stray")
exec(writer.replace("sys.argv[1]", repr(os.path.join(sys.argv[1], "child"))))
"""


def _hangup_as_a_terminal_sends_it() -> None:
    # Under `nohup` the tests inherit SIGHUP ignored, and so would the command, which then
    # rightly outlives a closed terminal: `run` is started as from a terminal.
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)


def start_tree(home: Path, *writers: str) -> subprocess.Popen[str]:
    run = subprocess.Popen(
        [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--",
         sys.executable, "-c", TREE, str(home), *writers],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=python_env(SIOUL_TRAY_HOME=str(home)),
        preexec_fn=_hangup_as_a_terminal_sends_it if os.name == "posix" else None,
    )  # fmt: skip
    names = ["child", *writers]
    deadline = time.monotonic() + 10
    while not all((home / n).exists() for n in names):
        assert time.monotonic() < deadline and run.poll() is None, run.communicate()
        time.sleep(0.05)
    return run


def still_writing(home: Path, names: list[str]) -> list[str]:
    """The writers whose files still grow."""
    sizes = {n: (home / n).stat().st_size for n in names}
    time.sleep(0.3)
    return [n for n in names if (home / n).stat().st_size != sizes[n]]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper: Linux")
def test_a_lost_verdict_stops_the_command_s_whole_tree(tmp_path: Path) -> None:
    """Only the direct child was stopped: a program it started kept numbering after `run`."""
    write_status(tmp_path / "state", status_doc())
    run = start_tree(tmp_path, "grandchild", "stray")
    assert still_writing(tmp_path, ["child", "grandchild", "stray"]) == ["child", "grandchild",
                                                                         "stray"]  # fmt: skip
    write_status(tmp_path / "state", status_doc(acting=False))
    lost = time.monotonic()
    _, err = run.communicate(timeout=may.GRACE + 5)
    assert run.returncode == may.LOST, err
    assert time.monotonic() - lost < may.GRACE
    assert still_writing(tmp_path, ["child", "grandchild", "stray"]) == []


@pytest.mark.skipif(os.name != "posix", reason="process groups: POSIX")
def test_the_command_s_tree_dies_with_run(tmp_path: Path) -> None:
    """`run` killed (SIGKILL, out of memory) left the command orphaned and acting."""
    write_status(tmp_path / "state", status_doc())
    run = start_tree(tmp_path, "grandchild")
    run.kill()
    run.communicate(timeout=5)
    deadline = time.monotonic() + may.GRACE
    while still_writing(tmp_path, ["child", "grandchild"]):
        assert time.monotonic() < deadline
    assert still_writing(tmp_path, ["child", "grandchild"]) == []


@pytest.mark.skipif(os.name != "posix", reason="SIGHUP and SIGQUIT: POSIX")
@pytest.mark.parametrize("sig", ["SIGHUP", "SIGINT", "SIGTERM", "SIGQUIT"])
def test_the_signals_a_terminal_sends_are_passed_on_to_the_group(tmp_path: Path, sig: str) -> None:
    """A closed terminal (SIGHUP) killed `run` and left the command numbering unwatched."""
    write_status(tmp_path / "state", status_doc())
    run = start_tree(tmp_path, "grandchild")
    number = getattr(signal, sig)
    run.send_signal(number)
    _, err = run.communicate(timeout=may.GRACE + 5)
    assert run.returncode == 128 + number, err  # the command's end, as a shell says it
    assert still_writing(tmp_path, ["child", "grandchild"]) == []


# -- the shell example of docs/integration.md, as written -----------------------------------------

FAKE_TRAY = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from sioul_tray.tray import single
app = QCoreApplication([])
heard = Path(sys.argv[2])

def handle(argv):
    with heard.open("a") as f:
        f.write(json.dumps(argv) + "\\n")
    return (0, "") if argv[0] != "wrote" or sys.argv[3] == "yes" else (1, "invoices went on\\n")

server = single.Server(Path(sys.argv[1]), handle)
assert server.listen()
print("ready", flush=True)
app.exec()
"""


def shell_example() -> str:
    """The block of docs/integration.md's "From a shell", as the page shows it."""
    page = (ROOT / "docs" / "integration.md").read_text(encoding="utf-8")
    section = page.split("\n## From a shell\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell")
@pytest.mark.parametrize("marked", ["yes", "no"])
def test_the_shell_example_of_the_docs_runs_and_marks_its_record(
    tmp_path: Path, marked: str
) -> None:
    """Found reading the page: its shell example left out `sioul-tray wrote`, the step without
    which a record does not count. Run here as written, against this installation (`sioul-tray`
    on PATH), a status.json saying yes and a tray that answers the mark."""
    home, bin_dir, heard = tmp_path / "home", tmp_path / "bin", tmp_path / "heard"
    bin_dir.mkdir()
    write_status(home / "state", status_doc(must_have={"laptop_9": 41}))
    programs = {
        "sioul-tray": f'exec {sys.executable} -m sioul_tray.cli "$@"',
        # Sioul's own steps: the record written (its count printed), the batch.
        "make-invoice": f'echo "make-invoice $*" >> {heard}; echo 5',
        "number-invoices": f'echo "number-invoices $* $SIOUL_LEASE_TOKEN" >> {heard}',
    }
    for name, body in programs.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = python_env(SIOUL_TRAY_HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    env.pop("XDG_RUNTIME_DIR", None)  # the tray's socket under its state folder
    with subprocess.Popen(
        [sys.executable, "-c", FAKE_TRAY, str(home / "state"), str(heard), marked],
        stdout=subprocess.PIPE, text=True, env=dict(env, QT_QPA_PLATFORM="offscreen"),
    ) as tray:  # fmt: skip
        try:
            assert tray.stdout is not None and tray.stdout.readline().strip() == "ready"
            done = subprocess.run(["sh", "-c", shell_example()], capture_output=True, text=True,
                                  env=env, timeout=60, cwd=tmp_path)  # fmt: skip
        finally:
            tray.terminate()
    said = heard.read_text().splitlines()
    assert said[0] == "make-invoice --token desk_1234.77"  # the token alone, as may printed it
    assert json.loads(said[1])[:4] == ["wrote", "invoices", "5", "desk_1234.77"]
    if marked == "yes":
        assert done.returncode == 0, done.stderr
        assert said[2:] == ["number-invoices --batch today.csv desk_1234.77"]
    else:  # the part went on first: the record is void, and the script says so
        assert done.returncode == 1 and "void" in done.stderr and len(said) == 2
