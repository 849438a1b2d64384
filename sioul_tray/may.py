"""`sioul-tray may PART` and `sioul-tray run PART -- COMMAND`: the tray's verdict for a script.

Both read the tray's status file through `sioul_tray.client`, so they start fast and need no
passphrase. `may` exits 0 when this computer may act on the part now (printing the token, until
when, and the records to hold first), 1 when it may not (saying why, in the menu's words), 2 on an
error. `run` runs a command only while this computer acts on the part, like flock(1), and fences
the command's whole process tree, not one process: the command starts in a session and process
group of its own; the verdict lost, the group gets SIGTERM at once and SIGKILL after GRACE
seconds. On Linux `run` is a child subreaper, so descendants that left the group come back to it
and are ended too, and the command gets a parent-death signal; a guard process of its own ends
the group if `run` itself is killed. Its exit codes are timeout(1)'s and env(1)'s manner
(`EXIT_CODES`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import subprocess

from sioul_tray import client
from sioul_tray.i18n import CommandLine

GRACE = 5.0  # seconds between SIGTERM and SIGKILL for a command whose verdict was lost
POLL = 0.25  # how often `run` reads the verdict again (seconds)

# `run`'s own outcomes: the block 123-127 next to timeout(1)'s 124-127 (the codes a shell gives
# a command it cannot start), above what commands usually return, below 128 + a signal's number.
MAY_NOT = 123  # the verdict said no: the command never started
LOST = 124  # the verdict was lost while the command ran: it was stopped (timeout's "timed out")
FAILED = 125  # `run` itself failed: a usage error, an error of its own (env's and timeout's 125)
CANNOT_START = 126  # the command was found but could not be started (as a shell, env, timeout)
NOT_FOUND = 127  # the command was not found (as a shell, env, timeout)
# (code, meaning): the table --help and docs/integration.md give.
EXIT_CODES = (
    ("0-122", CommandLine.mark("the command's own exit code, unchanged (above 122 too)")),
    (str(MAY_NOT), CommandLine.mark("the verdict said no: the command never started")),
    (str(LOST), CommandLine.mark("the verdict was lost while the command ran: it was stopped")),
    (str(FAILED), CommandLine.mark("sioul-tray run itself failed (a usage error, for one)")),
    (str(CANNOT_START), CommandLine.mark("the command was found but could not be started")),
    (str(NOT_FOUND), CommandLine.mark("the command was not found")),
    ("128+N", CommandLine.mark("the command was ended by signal N (143: SIGTERM)")),
)
# Passed on to the command's group: a closed terminal (SIGHUP) must not leave it unwatched.
FORWARDED = tuple(
    getattr(signal, name)
    for name in ("SIGHUP", "SIGINT", "SIGTERM", "SIGQUIT")
    if hasattr(signal, name)
)
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_PR_SET_CHILD_SUBREAPER = 36


def command_code(returncode: int) -> int:
    """The command's end as a shell reports it: its own code, or 128 + N when signal N ended it
    (`subprocess` gives -N)."""
    return 128 - returncode if returncode < 0 else returncode


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
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the table's lines kept
        epilog=exit_table(),
    )
    p.add_argument("part", choices=list(client.PARTS), metavar="PART")
    _wait_argument(p)
    # The command comes after `--`, taken off before the parser sees the words (`split_command`):
    # argparse's REMAINDER would swallow `--wait` too.
    p.usage = "sioul-tray run PART [--wait SECONDS] -- COMMAND [ARG ...]"


def exit_table() -> str:
    """`run`'s exit codes as --help shows them, in the person's language."""
    from sioul_tray.i18n import translated

    rows = [f"  {code:<7} {translated(meaning)}" for code, meaning in EXIT_CODES]
    return "\n".join([CommandLine.tr("exit codes:"), *rows])


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
    if found.reason == client.NOT_ACTING:
        # The tray's status in the menu's words, as of now, by the function `look` uses
        # (`phrases.part_line`): a countdown written into status.json a while ago ("in 1 min")
        # would differ from what `look` says now ("in 20 s"); and in this command's language.
        from sioul_tray import phrases
        from sioul_tray.lease.status import Status

        status = Status.from_json(found.status) if found.status is not None else None
        if status is not None:
            return phrases.part_line(found.part, status, phrases.PLAIN, time.time())
        if found.line is not None:
            return found.line  # the tray's menu line, from a tray that wrote no status
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
        client.NOT_MINE: CommandLine.tr(
            "{path} or its folder belongs to another user, or is a link: not trusted"
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
        # The token alone on stdout, what a script reads (`token=$(sioul-tray may invoices)`);
        # the words for the person on stderr, as a refusal's are (docs/integration.md).
        print(found.token, file=out)
        print(text.format(time=clock_time(found.valid_until), token=found.token), file=sys.stderr)
        for computer, wrote in sorted(found.must_have.items()):
            text = CommandLine.tr("  first, the records of {computer} up to {wrote}")
            print(text.format(computer=computer, wrote=wrote), file=sys.stderr)
    else:
        print(why_not(found), file=sys.stderr)
    return 0 if found.may else 1


def cmd_run(args: argparse.Namespace, command: list[str], out: TextIO) -> int:
    if not command:
        print(CommandLine.tr("sioul-tray run: give the command after --"), file=sys.stderr)
        return FAILED
    found = _asked(args)
    if not found.may:
        print(why_not(found), file=sys.stderr)
        return MAY_NOT
    env = dict(os.environ)
    env.update(
        SIOUL_LEASE_PART=args.part,
        SIOUL_LEASE_TOKEN=found.token or "",
        SIOUL_LEASE_VALID_UNTIL=str(found.valid_until),
        SIOUL_LEASE_MUST_HAVE=json.dumps(dict(found.must_have), sort_keys=True),
    )
    import subprocess  # here: see `Tree.start`

    tree = Tree()
    try:
        child = tree.start(command, env)
    except FileNotFoundError as e:
        _say(f"sioul-tray run: {command[0]}: {e.strerror or e}")
        return NOT_FOUND
    except OSError as e:
        _say(f"sioul-tray run: {command[0]}: {e.strerror or e}")
        return CANNOT_START
    started = found.token
    # Passed on to the command's group, which decides how to end; `run` goes on watching.
    for sig in FORWARDED:
        signal.signal(sig, lambda n, _f: tree.signal(n))
    try:
        while True:
            try:
                code = child.wait(timeout=min(POLL, max(0.01, found.left())))
            except subprocess.TimeoutExpired:
                pass
            else:
                tree.end()  # what the command left behind does not outlive it
                return command_code(code)
            tree.reap()
            found = client.verdict(args.part)
            if found.may and found.token == started:
                continue
            reason = (
                why_not(found)
                if not found.may
                else CommandLine.tr("the part was taken again: another tenure")
            )
            tree.end()
            text = CommandLine.tr("sioul-tray run: stopped {command}: {reason}")
            _say(text.format(command=command[0], reason=reason))
            return LOST
    finally:
        tree.release()


def _say(text: str) -> None:
    with contextlib.suppress(OSError):  # a terminal closed (SIGHUP) takes nothing more
        print(text, file=sys.stderr)


class Tree:
    """The command's process tree, as `run` starts, watches and ends it.

    POSIX: the command leads a session and process group of its own, and a guard process (forked
    from `run`, in a session of its own) waits on a pipe: if `run` dies without its word, the
    guard sends the group SIGTERM, then SIGKILL after GRACE. Linux: `run` is also a child
    subreaper (descendants that leave the group are reparented to it, found in /proc and ended
    with the group) and the command gets SIGTERM when `run` dies (a parent-death signal).
    Windows: the command alone, as before (docs/integration.md says so).
    """

    def __init__(self) -> None:
        self.child: subprocess.Popen[bytes] | None = None
        self.guard: int | None = None  # the guard's pid
        self._word: int | None = None  # the pipe's end `run` writes its word to, then closes

    def start(self, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        # Here, not at the top: the tray parses its command line with this module, and
        # subprocess would stay in its memory for a command it never runs.
        import subprocess

        if os.name != "posix":
            self.child = subprocess.Popen(command, env=env)
            return self.child
        prctl = _prctl()
        if prctl is not None:
            prctl(_PR_SET_CHILD_SUBREAPER, 1)
        self.child = subprocess.Popen(
            command, env=env, start_new_session=True, preexec_fn=_dies_with(os.getpid(), prctl)
        )
        self.guard, self._word = _start_guard(self.child.pid)
        return self.child

    def signal(self, sig: int) -> None:
        """`sig` to the command's group (Windows: to the command)."""
        assert self.child is not None
        if os.name != "posix":
            with contextlib.suppress(OSError):
                self.child.send_signal(sig)
            return
        _signal_group(self.child.pid, sig)

    def reap(self) -> None:
        """Descendants reparented to `run` that have ended: reaped, so they do not pile up."""
        for pid in _children() - self._kept():
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)

    def end(self) -> None:
        """SIGTERM to the command's group and to every descendant found outside it, SIGKILL to
        whatever is left after GRACE; returns once none is left (or a second after that)."""
        child = self.child
        assert child is not None
        if os.name != "posix":
            _stop_alone(child)
            return
        group = child.pid
        deadline = time.monotonic() + GRACE
        sig = signal.SIGTERM
        termed: set[int] = set()
        while True:
            child.poll()  # the command itself is reaped by Popen, which keeps its code
            self.reap()
            there = _signal_group(group, 0)
            if there and (sig == signal.SIGKILL or group not in termed):
                _signal_group(group, sig)
                termed.add(group)
            strays = {pid for pid in _children() - self._kept() if _group_of(pid) != group}
            for pid in strays if sig == signal.SIGKILL else strays - termed:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
            termed |= strays
            if not there and not strays and child.returncode is not None:
                return
            now = time.monotonic()
            if now >= deadline + 1.0:
                return  # past SIGKILL: what is left cannot be killed (a process in the kernel)
            if now >= deadline:
                sig = signal.SIGKILL
            time.sleep(0.02)

    def release(self) -> None:
        """The guard told that `run` ends by its own hand: it leaves the group alone."""
        if self._word is None or self.guard is None:
            return
        with contextlib.suppress(OSError):
            os.write(self._word, b"done")
            os.close(self._word)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.guard, 0)
        self._word = self.guard = None

    def _kept(self) -> set[int]:
        """`run`'s children that are not strays: the command (Popen's) and the guard."""
        return {pid for pid in (self.guard, self.child.pid if self.child else None) if pid}


def _prctl() -> Callable[[int, int], int] | None:
    """Linux's prctl(option, value), or None elsewhere or when it cannot be called."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.prctl
    except (OSError, AttributeError):
        return None

    def prctl(option: int, value: int) -> int:
        return int(call(option, ctypes.c_ulong(value), 0, 0, 0))

    return prctl


def _dies_with(parent: int, prctl: Callable[[int, int], int] | None) -> Callable[[], None] | None:
    """What the command's process does before it runs the command (after setsid): ask SIGTERM
    when `run` dies; when `run` died already (its parent is another), end at once."""
    if prctl is None:
        return None

    def before_exec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return before_exec


def _start_guard(group: int) -> tuple[int | None, int | None]:
    """The guard (see `Tree`): its pid, and the end of its pipe `run` keeps (its word)."""
    listen, word = os.pipe()  # not inherited by the command (PEP 446)
    try:
        pid = os.fork()
    except OSError:
        os.close(listen)
        os.close(word)
        return None, None
    if pid:
        os.close(listen)
        return pid, word
    try:  # the guard: nothing of `run`'s but the pipe, deaf to the signals a terminal sends
        os.setsid()
        for sig in FORWARDED:
            signal.signal(sig, signal.SIG_IGN)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, listen)
        os.closerange(listen + 1, 1 << 16)
        if not os.read(listen, 4):  # the pipe closed without the word: `run` was killed
            _signal_group(group, signal.SIGTERM)
            deadline = time.monotonic() + GRACE
            while _signal_group(group, 0) and time.monotonic() < deadline:
                time.sleep(0.05)
            _signal_group(group, signal.SIGKILL)
    finally:
        os._exit(0)


def _signal_group(group: int, sig: int) -> bool:
    """`sig` to process group `group`; whether the group is there (signal 0: only asks)."""
    try:
        os.killpg(group, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member changed user: there, and beyond `run`'s reach
    return True


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _children() -> set[int]:
    """`run`'s children (Linux, from /proc: as a subreaper, they include the descendants whose
    parent ended); none where the system does not list them."""
    found: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", "rb") as f:
                found.update(int(pid) for pid in f.read(1 << 20).split())
        except (OSError, ValueError):
            continue
    return found


def _stop_alone(child: subprocess.Popen[bytes]) -> None:
    """Where there are no process groups (Windows): the command, SIGTERM then SIGKILL."""
    with contextlib.suppress(OSError):
        child.terminate()
    deadline = time.monotonic() + GRACE
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if child.poll() is None:
        with contextlib.suppress(OSError):
            child.kill()
        child.wait()
