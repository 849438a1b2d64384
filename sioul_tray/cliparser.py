"""The command line's words: its parser, built only for a command (the tray, started with no
words, never builds it). Help texts are translated; argparse's own words stay as it writes them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from sioul_tray import __version__
from sioul_tray.i18n import CommandLine

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class Parser(argparse.ArgumentParser):
    """argparse, whose errors are one line like every other error of ours (exit status 2)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops a failed write: --help or --version into a full disk would exit 0.
        if message:
            file = file or sys.stderr
            file.write(message)
            flush = getattr(file, "flush", None)
            if flush is not None:
                flush()

    def error(self, message: str) -> NoReturn:
        from sioul_tray.lease.codec import printable

        where = "" if self.prog == "sioul-tray" else f"{self.prog.removeprefix('sioul-tray ')}: "
        text = CommandLine.tr("sioul-tray: {error} (see sioul-tray --help)")
        self.exit(2, text.format(error=printable(where + message)) + "\n")


def parser(fast: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; `fast`: only `may` and `run`, which read the tray's verdict and
    import nothing of the lease (Sioul calls them before each record)."""
    from sioul_tray import may

    parser = Parser(
        prog="sioul-tray",
        description=CommandLine.tr(
            "Keeps Sioul's medicines and invoices on one computer at a time. "
            "With no command, starts the tray."
        ),
    )
    parser.add_argument("--version", action="version", version=f"sioul-tray {__version__}")
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=CommandLine.tr(
            "the language to show (fr, en); by default SIOUL_TRAY_LANG, else the system's"
        ),
    )
    parser.add_argument(
        "--home",
        metavar="DIR",
        help=CommandLine.tr(
            "the folder that holds this installation's settings and state; by default "
            "SIOUL_TRAY_HOME, else the system's"
        ),
    )  # taken out before the parser reads the words (cli._take_home): shown in the help
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    if fast:
        may.add_may(sub)
        may.add_run(sub)
        return _lang_after_the_command(parser, sub)
    from sioul_tray.lease import PARTS

    part_arg: dict[str, Any] = {"nargs": "?", "choices": list(PARTS), "metavar": "PART"}
    json_help = CommandLine.tr("print JSON")

    p = sub.add_parser(
        "setup", help=CommandLine.tr("create or join the sharing folder, name this computer")
    )
    p.add_argument("--share", metavar="DIR", help=CommandLine.tr("the synced sharing folder"))
    p.add_argument(
        "--name",
        metavar="NAME",
        help=CommandLine.tr("the name the other computers show for this one (default: its host's)"),
    )

    p = sub.add_parser(
        "look", help=CommandLine.tr("who keeps each part, as read now, without claiming it")
    )
    p.add_argument("part", **part_arg)
    p.add_argument("--json", action="store_true", help=json_help)

    p = sub.add_parser(
        "claims",
        help=CommandLine.tr("every claim in the folder, and every file that does not read"),
    )
    p.add_argument("part", **part_arg)
    p.add_argument("--json", action="store_true", help=json_help)

    p = sub.add_parser(
        "history",
        help=CommandLine.tr("the last changes of hands this computer's tray saw, with when"),
    )
    p.add_argument("--json", action="store_true", help=json_help)

    p = sub.add_parser("take", help=CommandLine.tr('"Make invoices here": take a part on purpose'))
    p.add_argument("part", choices=["invoices"], metavar="invoices")

    p = sub.add_parser(
        "close", help=CommandLine.tr("close this computer's claims (all parts by default)")
    )
    p.add_argument("part", **part_arg)

    p = sub.add_parser(
        "renew",
        help=CommandLine.tr("renew this computer's claims once (for a timer on a server)"),
    )
    p.add_argument("part", **part_arg)

    p = sub.add_parser(
        "forget", help=CommandLine.tr("declare a computer gone for good (given away, broken)")
    )
    p.add_argument("computer", help=CommandLine.tr("its id, as `sioul-tray claims` lists it"))

    may.add_may(sub)
    may.add_run(sub)

    p = sub.add_parser(
        "copied",
        help=CommandLine.tr(
            "say which computer a copied installation runs on (it waits till then)"
        ),
    )
    p.add_argument(
        "answer",
        choices=["new", "gone"],
        metavar="new|gone",
        help=CommandLine.tr(
            "new: this is another computer; gone: it replaces the one it was copied from for good"
        ),
    )

    p = sub.add_parser(
        "wrote",
        help=CommandLine.tr(
            "Sioul's records here reach N: the running tray carries the mark in its claim while "
            "it acts under the token (exit 1: it does not, and records past the last mark are void)"
        ),
    )
    p.add_argument("part", choices=list(PARTS), metavar="PART")
    p.add_argument("n", type=_count, metavar="N")
    p.add_argument(
        "--token",
        default=os.environ.get("SIOUL_LEASE_TOKEN"),
        help=CommandLine.tr(
            "the verdict's token the records were made under (default: $SIOUL_LEASE_TOKEN, "
            "which `sioul-tray run` sets)"
        ),
    )
    p.add_argument(
        "--confirm",
        action="store_true",
        help=CommandLine.tr(
            "the person confirms that this computer's records count up to N, where its mark is "
            "unknown after its state was lost (no token; never lowers a mark already carried)"
        ),
    )

    p = sub.add_parser(
        "computers",
        help=CommandLine.tr("the Computers window of the tray running here"),
    )
    # The tray passes its own: the window asks the tray of that installation.
    p.add_argument("--state-dir", metavar="DIR", help=argparse.SUPPRESS)

    p = sub.add_parser("about", help=CommandLine.tr("the About box of the tray running here"))
    p.add_argument("--state-dir", metavar="DIR", help=argparse.SUPPRESS)
    p = sub.add_parser(
        "folder",
        help=CommandLine.tr(
            "the window to choose another sharing folder (exit 0: closed; the tray follows the "
            "folder saved)"
        ),
    )
    p.add_argument("--state-dir", metavar="DIR", help=argparse.SUPPRESS)

    sub.add_parser(
        "demo",
        help=CommandLine.tr("the tray on a temporary folder with two simulated computers"),
    )
    return _lang_after_the_command(parser, sub)


def _lang_after_the_command(parser: Parser, sub: Any) -> Parser:
    """`--lang` after the command too (`sioul-tray may invoices --lang fr`), as before it: the
    language is installed from it before the parser is made (cli._asked_language), wherever it
    is. Not shown in each command's help (the main help has it); not given, it leaves the
    value given before the command."""
    for p in sub.choices.values():
        p.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _count(text: str) -> int:
    # What every reader of a claim accepts (the codec's MAX_INT), said before anything is written.
    from sioul_tray.lease.codec import MAX_INT, whole_number

    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            CommandLine.tr("{text} is not a whole number from 0 to {top}").format(
                text=repr(text), top=MAX_INT
            )
        )
    return value
