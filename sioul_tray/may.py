"""`sioul-tray may PART` and `sioul-tray run PART -- COMMAND`: the tray's verdict for a script.

Both read the tray's status file through `sioul_tray.client`, so they start fast and need no
passphrase. `may` exits 0 when this computer may act on the part now (printing the token, until
when, and the records to hold first), 1 when it may not (saying why, in the menu's words), 2 on an
error. `run` runs a command only while this computer acts on the part, like flock(1): the verdict
lost (a take elsewhere, sleep, quit, a tray that stops renewing it), the command gets SIGTERM at
once and SIGKILL after GRACE seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import subprocess

from sioul_tray import client
from sioul_tray.i18n import CommandLine

GRACE = 5.0  # seconds between SIGTERM and SIGKILL for a command whose verdict was lost
POLL = 0.25  # how often `run` reads the verdict again (seconds)
LOST = 3  # `run`'s exit code when the verdict was lost while the command ran


def add_may(sub: Any) -> None:
    p = sub.add_parser(
        "may",
        help=CommandLine.tr("exit 0 when this computer may act on the part now (Sioul's check)"),
    )
    p.add_argument("part", choices=list(client.PARTS), metavar="PART")
    p.add_argument("--json", action="store_true", help=CommandLine.tr("print JSON"))
    _wait_argument(p)


def add_run(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help=CommandLine.tr("run a command only while this computer acts on the part"),
    )
    p.add_argument("part", choices=list(client.PARTS), metavar="PART")
    _wait_argument(p)
    # The command comes after `--`, taken off before the parser sees the words (`split_command`):
    # argparse's REMAINDER would swallow `--wait` too.
    p.usage = "sioul-tray run PART [--wait SECONDS] -- COMMAND [ARG ...]"


def split_command(words: list[str]) -> tuple[list[str], list[str]]:
    """`run`'s words before `--`, and the command after it."""
    if "--" not in words:
        return words, []
    at = words.index("--")
    return words[:at], words[at + 1 :]


def _wait_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--wait",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help=CommandLine.tr("wait this long for the verdict to say yes (default: not at all)"),
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 10**7:
        raise argparse.ArgumentTypeError(
            CommandLine.tr("{text} is not a number of seconds").format(text=repr(text))
        )
    return value


def _asked(args: argparse.Namespace) -> client.Verdict:
    """The verdict, waited for as `--wait` says."""
    return client.wait(args.part, args.wait) if args.wait else client.verdict(args.part)


def why_not(found: client.Verdict) -> str:
    """Why this computer may not act on the part, as the person reads it."""
    if found.reason == client.NOT_ACTING and found.line is not None:
        return found.line  # the tray's menu line: why it does not act
    texts = {
        client.NO_TRAY: CommandLine.tr(
            "no tray runs here: only a running tray knows whether this computer acts"
        ),
        client.DAMAGED: CommandLine.tr("{path} does not read as the tray writes it"),
        client.OLD_TRAY: CommandLine.tr(
            "the tray running here is older than this command: quit it and start it again"
        ),
        client.STOPPED: CommandLine.tr("the tray has stopped (it quit, or the computer slept)"),
        client.GONE: CommandLine.tr("the tray that wrote {path} no longer runs"),
        client.OTHER_BOOT: CommandLine.tr("{path} was written before this computer last started"),
        client.LAPSED: CommandLine.tr(
            "the tray has not renewed its verdict in time (is it stuck?)"
        ),
    }
    return texts.get(found.reason, found.reason).format(path=client.status_path())


def as_json(found: client.Verdict) -> dict[str, Any]:
    return {
        "part": found.part,
        "may": found.may,
        "reason": found.reason,
        "token": found.token,
        "valid_until": found.valid_until,
        "valid_until_boot": found.valid_until_boot,
        "must_have": dict(found.must_have),
    }


def cmd_may(args: argparse.Namespace, out: TextIO) -> int:
    found = _asked(args)
    if args.json:
        json.dump(as_json(found), out, indent=2)
        out.write("\n")
    elif found.may:
        from sioul_tray.timefmt import clock_time

        assert found.valid_until is not None
        text = (
            CommandLine.tr("Invoices: this computer may number them until {time}, token {token}")
            if args.part == "invoices"
            else CommandLine.tr(
                "Medicines: this computer may remind them until {time}, token {token}"
            )
        )
        print(text.format(time=clock_time(found.valid_until), token=found.token), file=out)
        for computer, wrote in sorted(found.must_have.items()):
            text = CommandLine.tr("  first, the records of {computer} up to {wrote}")
            print(text.format(computer=computer, wrote=wrote), file=out)
    else:
        print(why_not(found), file=sys.stderr)
    return 0 if found.may else 1


def cmd_run(args: argparse.Namespace, command: list[str], out: TextIO) -> int:
    if not command:
        print(CommandLine.tr("sioul-tray run: give the command after --"), file=sys.stderr)
        return 2
    found = _asked(args)
    if not found.may:
        print(why_not(found), file=sys.stderr)
        return 1
    env = dict(os.environ)
    env.update(
        SIOUL_LEASE_PART=args.part,
        SIOUL_LEASE_TOKEN=found.token or "",
        SIOUL_LEASE_VALID_UNTIL=str(found.valid_until),
        SIOUL_LEASE_MUST_HAVE=json.dumps(dict(found.must_have), sort_keys=True),
    )
    # Here, not at the top: the tray parses its command line with this module, and subprocess
    # would stay in its memory for a command it never runs.
    import subprocess

    try:
        child = subprocess.Popen(command, env=env)
    except OSError as e:
        print(f"sioul-tray run: {command[0]}: {e.strerror or e}", file=sys.stderr)
        return 2
    started = found.token
    # Passed on to the command, which decides how to end; `run` goes on watching.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda n, _f: child.send_signal(n))
    while True:
        try:
            return child.wait(timeout=min(POLL, max(0.01, found.left())))
        except subprocess.TimeoutExpired:
            pass
        found = client.verdict(args.part)
        if found.may and found.token == started:
            continue
        reason = (
            why_not(found)
            if not found.may
            else CommandLine.tr("the part was taken again: another tenure")
        )
        _stop(child)
        text = CommandLine.tr("sioul-tray run: stopped {command}: {reason}")
        print(text.format(command=command[0], reason=reason), file=sys.stderr)
        return LOST


def _stop(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM now, SIGKILL after GRACE: the command must not go on acting."""
    child.terminate()
    deadline = time.monotonic() + GRACE
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if child.poll() is None:
        child.kill()
        child.wait()
