"""The command line: ``sioul-tray SUBCOMMAND``, for scripts, headless machines and tests.

With no subcommand it starts the tray. Errors name the file and the fact, exit non-zero, and print
no traceback. Texts for people are in the chosen language (--lang, SIOUL_TRAY_LANG, the locale);
machine output (--json) is not translated. argparse's own words ("usage:", "options") stay as
argparse writes them; the help texts given to it are translated.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sioul_tray import i18n
from sioul_tray.dirs import check_home
from sioul_tray.errors import SioulError
from sioul_tray.i18n import CommandLine

if TYPE_CHECKING:
    import argparse


# The options before the command that take a value as the next word.
_VALUED = ("--lang", "--home")
_RUN_FAILED = 125  # may.FAILED, without importing `may` for every command


def _command_of(words: Sequence[str]) -> str | None:
    """The subcommand's word, past the options before it (`--lang fr`)."""
    i = 0
    while i < len(words):
        if words[i] in _VALUED:
            i += 2
        elif words[i].startswith("-"):
            i += 1
        else:
            return words[i]
    return None


def _asked_language(argv: Sequence[str]) -> str | None:
    """--lang, read before the parser is made: its help texts are in that language."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.removeprefix("--lang=")
    return None


def _take_home(words: list[str]) -> list[str]:
    """--home DIR, before the command: this installation's folder, for this process and those it
    starts, as SIOUL_TRAY_HOME (made absolute: a tray started at login has another working
    folder; empty: the system's). Returns the words without it; a last ``--home`` without its DIR
    is left for the parser to refuse. SioulError for a DIR not named in UTF-8 (`check_home`)."""
    i = 0
    while i < len(words) and words[i] != "--" and words[i].startswith("-"):
        word = words[i]
        if word.startswith("--home="):
            home, rest = word.removeprefix("--home="), words[:i] + words[i + 1 :]
        elif word == "--home" and i + 1 < len(words):
            home, rest = words[i + 1], words[:i] + words[i + 2 :]
        else:
            i += 2 if word in _VALUED else 1
            continue
        if home:
            check_home(home)  # written into the login entry, as UTF-8
            os.environ["SIOUL_TRAY_HOME"] = str(Path(home).expanduser().absolute())
        else:  # as an empty SIOUL_TRAY_HOME: the system's folders
            os.environ.pop("SIOUL_TRAY_HOME", None)
        return rest
    return words


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # `run`'s own failures have a code of their own, apart from the command's (may.EXIT_CODES).
    failed = _RUN_FAILED if _command_of(words) == "run" else 1
    try:
        words = _take_home(words)
    except SioulError as e:  # before the language is known: English
        print(_error(i18n.message(e)), file=sys.stderr)
        return failed
    # English needs no catalogue (and no Qt); another language loads Qt's translator.
    i18n.install(i18n.pick_language(_asked_language(words)))
    try:
        rc = _run(words)
        sys.stdout.flush()  # what a full disk refuses must not pass for success
        return rc
    except SioulError as e:
        print(_error(i18n.message(e)), file=sys.stderr)
        return failed
    except BrokenPipeError:
        # `sioul-tray claims | head`: the reader left; not an error worth a message.
        _drop_stdout()
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(_error(f"{where}{e.strerror or e}"), file=sys.stderr)
        _drop_stdout()
        return failed
    except KeyboardInterrupt:
        print(CommandLine.tr("sioul-tray: interrupted"), file=sys.stderr)
        return 130


def _run(words: list[str]) -> int:
    if not words:
        # The tray, as the desktop starts it, with no parser to build: argparse's gettext lookups
        # import `locale`, and the parser `may`, which the tray would keep for its whole life.
        return _start_tray(None)
    fast = _command_of(words) in ("may", "run")
    after: list[str] = []
    if _command_of(words) == "run":
        from sioul_tray.may import split_command

        words, after = split_command(words)  # the command to run: never the parser's
    from sioul_tray.cliparser import parser as make_parser

    parser = make_parser(fast)
    try:
        args = parser.parse_args(words)
    except SystemExit as e:
        if e.code == 2 and _command_of(words) == "run":
            raise SystemExit(_RUN_FAILED) from None  # a usage error of `run`'s, not the command's
        raise
    out = sys.stdout
    if args.command == "wrote" and not args.token and not args.confirm:
        parser.error(
            CommandLine.tr(
                "wrote: give --token, the verdict's token the records were made under "
                "(`sioul-tray run` sets SIOUL_LEASE_TOKEN)"
            )
        )
    if args.command is None:
        return _start_tray(args.lang)
    if fast:
        from sioul_tray import may

        return may.cmd_may(args, out) if args.command == "may" else may.cmd_run(args, after, out)
    if args.command == "demo":
        return _start_demo(args.lang)
    if args.command in ("computers", "about", "folder"):
        return _start_window(args.command, args.lang, args.state_dir)
    # Not imported for the tray: what only the commands need stays out of its memory.
    from sioul_tray.commands import COMMANDS
    from sioul_tray.install import Installation

    inst = Installation()
    from sioul_tray.tray.request import THROUGH_TRAY

    if args.command in THROUGH_TRAY:
        from sioul_tray.tray.client import through_tray

        rc = through_tray(inst.state_dir, _request(args), out)
        if rc is not None:
            return rc
    try:
        return COMMANDS[args.command](args, inst, out)
    finally:
        # The claim files written go to Syncthing before this process ends (at most 1 s).
        inst.send_pending(1.0)


def _drop_stdout() -> None:
    """stdout takes nothing more (a reader gone, a full disk): what is left in its buffer goes to
    the null device, so the interpreter's last flush neither fails nor says so."""
    try:
        sys.stdout.flush()
    except OSError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _error(text: str) -> str:
    return CommandLine.tr("sioul-tray: {error}").format(error=text)


def _start_tray(language: str | None) -> int:
    try:
        from sioul_tray.tray import pyside  # type: ignore[import-not-found,unused-ignore]

        pyside.load()  # before the tray's modules: 3 MB less for its life
        from sioul_tray.tray.app import run  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print(
            CommandLine.tr(
                "sioul-tray: this build has no tray; use the commands (sioul-tray --help)"
            ),
            file=sys.stderr,
        )
        return 1
    result: int = run(language=language)
    return result


def _start_demo(language: str | None) -> int:
    from sioul_tray.tray import display, pyside

    if display.missing():
        return display.say_missing()
    pyside.load()
    from sioul_tray.tray.demo import run

    result: int = run(language)
    return result


def _start_window(command: str, language: str | None, state_dir: str | None) -> int:
    """A window of the running tray in a process of its own (`computers`, `about`)."""
    from sioul_tray.tray import display, pyside

    if display.missing():
        return display.say_missing()
    pyside.load()
    if command == "about":
        from sioul_tray.tray.aboutbox import main as window
    elif command == "folder":
        from sioul_tray.tray.setup import change_folder as window
    else:
        from sioul_tray.tray.computers import main as window

    if state_dir is None:
        from sioul_tray.install import Installation

        state_dir = str(Installation().state_dir)
    result: int = window(Path(state_dir), language)
    return result


def _request(args: argparse.Namespace) -> list[str]:
    """The request as the running tray takes it: the command and its words."""
    words = [args.command]
    if args.command == "forget":
        words.append(args.computer)
    elif args.command == "wrote" and args.confirm:
        words = ["confirm", args.part, str(args.n)]
    elif args.command == "wrote":
        words += [args.part, str(args.n), args.token]
    elif args.part:
        words.append(args.part)
    return words


if __name__ == "__main__":
    raise SystemExit(main())
