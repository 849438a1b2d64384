"""The command line: ``sioul-tray SUBCOMMAND``, for scripts, headless machines and tests.

With no subcommand it starts the tray. Errors name the file and the fact, exit non-zero, and print
no traceback. Texts for people are in the chosen language (--lang, SIOUL_TRAY_LANG, the locale);
machine output (--json) is not translated. argparse's own words ("usage:", "options") stay as
argparse writes them; the help texts given to it are translated.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from sioul_tray import __version__, i18n
from sioul_tray.errors import SealExists, SioulError
from sioul_tray.i18n import CommandLine, Core
from sioul_tray.install import Installation
from sioul_tray.lease import PARTS, Claim, Keeper, Lease
from sioul_tray.share import Share
from sioul_tray.timefmt import ago, clock_time


def _title(part: str) -> str:
    return CommandLine.tr("Medicines") if part == "medicines" else CommandLine.tr("Invoices")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    part_arg: dict[str, Any] = {"nargs": "?", "choices": list(PARTS), "metavar": "PART"}
    json_help = CommandLine.tr("print JSON")

    p = sub.add_parser("setup", help=CommandLine.tr("create or join the sharing folder"))
    p.add_argument(
        "--share", required=True, metavar="DIR", help=CommandLine.tr("the synced sharing folder")
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

    p = sub.add_parser(
        "wrote",
        help=CommandLine.tr("how far Sioul wrote its records here (carried in the claim)"),
    )
    p.add_argument("part", choices=list(PARTS), metavar="PART")
    p.add_argument("n", type=_count, metavar="N")

    sub.add_parser(
        "demo",
        help=CommandLine.tr("the tray on a temporary folder with two simulated computers"),
    )
    return parser


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(
            CommandLine.tr("{text} is not a whole number of 0 or more").format(text=repr(text))
        )
    return int(text)


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


# Requests the running tray carries out itself: while it runs, it is the only writer of this
# computer's claims (it holds the writer lock).
THROUGH_TRAY = ("take", "close", "renew", "forget", "wrote")


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # English needs no catalogue (and no Qt); another language loads Qt's translator.
    i18n.install(i18n.choose(_asked_language(words)))
    # No words: the tray, as the desktop starts it, with no parser to build (argparse's gettext
    # lookups import `locale`: 0.2 MB kept for the tray's whole life).
    args = _parser().parse_args(words) if words else argparse.Namespace(command=None, lang=None)
    out = sys.stdout
    try:
        if args.command is None:
            return _start_tray(args.lang)
        if args.command == "demo":
            return _start_demo(args.lang)
        inst = Installation()
        if args.command in THROUGH_TRAY:
            from sioul_tray.tray.client import through_tray

            rc = through_tray(inst.state_dir, _request(args), out)
            if rc is not None:
                return rc
        command: Callable[[argparse.Namespace, Installation, TextIO], int] = COMMANDS[args.command]
        return command(args, inst, out)
    except SioulError as e:
        print(_error(i18n.message(e)), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # `sioul-tray claims | head`: the reader left; not an error worth a message.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(_error(f"{where}{e.strerror or e}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(CommandLine.tr("sioul-tray: interrupted"), file=sys.stderr)
        return 130


def _error(text: str) -> str:
    return CommandLine.tr("sioul-tray: {error}").format(error=text)


def _start_tray(language: str | None) -> int:
    try:
        from sioul_tray.tray import qtfix  # type: ignore[import-not-found,unused-ignore]

        qtfix.import_qt_lightly()  # before the tray's modules: 3 MB less for its life
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
    from sioul_tray.tray import qtfix
    from sioul_tray.tray.demo import run

    qtfix.import_qt_lightly()
    result: int = run(language)
    return result


def _request(args: argparse.Namespace) -> list[str]:
    """The request as the running tray takes it: the command and its words."""
    words = [args.command]
    if args.command == "forget":
        words.append(args.computer)
    elif args.command == "wrote":
        words += [args.part, str(args.n)]
    elif args.part:
        words.append(args.part)
    return words


# -- setup ------------------------------------------------------------------------------


def _passphrase(twice: bool) -> str:
    given = os.environ.get("SIOUL_PASSPHRASE")
    if given is not None:
        if not given:
            raise SioulError(Core.mark("SIOUL_PASSPHRASE is empty"))
        return given
    if not sys.stdin.isatty():
        raise SioulError(
            Core.mark("no passphrase: set SIOUL_PASSPHRASE, or run setup in a terminal")
        )
    first = getpass.getpass(CommandLine.tr("Passphrase for the sharing folder: "))
    if not first:
        raise SioulError(Core.mark("the passphrase is empty"))
    if twice and getpass.getpass(CommandLine.tr("The same passphrase again: ")) != first:
        raise SioulError(Core.mark("the two passphrases differ; nothing was changed"))
    return first


def cmd_setup(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    folder = Path(args.share).expanduser().absolute()
    if not folder.is_dir():
        if folder.exists():
            raise SioulError(Core.mark("{folder} is not a folder", folder=folder))
        if not folder.parent.is_dir():
            raise SioulError(
                Core.mark(
                    "{folder} does not exist: choose a folder your sync tool syncs",
                    folder=folder.parent,
                )
            )
        folder.mkdir()
    computer = inst.computer()
    share: Share
    if (folder / "sioul.seal").exists():
        share = Share.open(folder, _passphrase(twice=False))
        made = "joined"
    else:
        try:
            share = Share.create(folder, _passphrase(twice=True), computer)
            made = "created"
        except SealExists:
            # Another computer's seal arrived while we asked: join it instead, never overwrite.
            share = Share.open(folder, _passphrase(twice=False))
            made = "joined"
    inst.remember_key(share)
    inst.update_settings(share=str(folder))
    if made == "created":
        text = CommandLine.tr("Created the sharing folder {folder}; this computer is {computer}.")
        print(text.format(folder=folder, computer=computer), file=out)
        print(
            CommandLine.tr(
                "On each other computer, run: sioul-tray setup --share <its copy of it>"
            ),
            file=out,
        )
    else:
        text = CommandLine.tr("Joined the sharing folder {folder}; this computer is {computer}.")
        print(text.format(folder=folder, computer=computer), file=out)
    return 0


# -- reading ----------------------------------------------------------------------------


def _parts(part: str | None) -> list[str]:
    return [part] if part else list(PARTS)


def keeper_json(keeper: Keeper) -> dict[str, Any]:
    return {
        "computer": keeper.computer,
        "name": keeper.name,
        "here": keeper.here,
        "since": keeper.since,
        "settled": keeper.settled,
        "others_heard": keeper.others_heard,
        "agreed": keeper.agreed,
        "acting": keeper.acting,
        "waiting": list(keeper.waiting),
    }


def describe(keeper: Keeper, lease: Lease, now: float, acting: bool | None = None) -> str:
    """One line for a part, as the tray's menu says it; `acting` as the running tray knows it
    (None: no tray says, so a keeper here that has not settled is said to be settling)."""
    title = _title(keeper.part)
    if keeper.computer is None:
        return CommandLine.tr("{part}: nobody keeps it").format(part=title)
    if keeper.here:
        line = CommandLine.tr("{part}: here").format(part=title)
    else:
        who = keeper.name or keeper.computer
        line = CommandLine.tr("{part}: {computer}").format(part=title, computer=who)
    if keeper.since is not None:
        line = CommandLine.tr("{line} (seen since {time})").format(
            line=line, time=clock_time(keeper.since)
        )
    if keeper.waiting:
        heard = lease.heard(keeper.part)
        names = {c.computer: c.name for c in lease.claims(keeper.part)}
        waits = ", ".join(
            CommandLine.tr("{computer}, last heard {ago}").format(
                computer=names.get(c, c), ago=ago(heard[c], now)
            )
            if c in heard
            else names.get(c, c)
            for c in keeper.waiting
        )
        line = CommandLine.tr("{line}; waiting for {computers}").format(line=line, computers=waits)
    elif acting is None and keeper.here and not keeper.settled:
        line = CommandLine.tr("{line}; settling").format(line=line)
    if acting:
        line = CommandLine.tr("{line}; acting here").format(line=line)
    return line


def _tray_view(inst: Installation) -> dict[str, Any] | None:
    """The running tray's view (it alone knows whether this computer acts), or None."""
    from sioul_tray.tray.client import ask

    answer = ask(inst.state_dir, ["look"])
    if answer is None or answer[0] != 0:
        return None
    try:
        view = json.loads(answer[1])
    except json.JSONDecodeError:
        return None
    return view if isinstance(view, dict) and isinstance(view.get("parts"), dict) else None


def cmd_look(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    lease = inst.lease()
    keepers = {part: lease.look(part) for part in _parts(args.part)}
    tray = _tray_view(inst)
    if args.json:
        doc: dict[str, Any] = {}
        for part, k in keepers.items():
            doc[part] = keeper_json(k) | {"source": "read now"}
            seen = tray["parts"].get(part) if tray else None
            if isinstance(seen, dict) and tray and tray.get("running"):
                # The running tray has kept watch: its settled and acting flags are the real ones.
                doc[part] = {
                    key: seen.get(key, doc[part][key])
                    for key in keeper_json(k)
                    if key != "computer"
                } | {"computer": seen.get("keeper"), "source": "tray"}
        json.dump(doc, out, indent=2)
        out.write("\n")
        return 0
    now = time.time()
    for keeper in keepers.values():
        seen = tray["parts"].get(keeper.part) if tray and tray.get("running") else None
        acting = None
        if isinstance(seen, dict) and seen.get("keeper") == keeper.computer:
            acting = bool(seen.get("acting"))
        print(describe(keeper, lease, now, acting), file=out)
        for computer, offset in sorted(lease.clock_offsets(keeper.part).items()):
            text = CommandLine.tr(
                "  the clock of {computer} is %n min ahead of this one", None, offset // 60
            )
            print(text.format(computer=computer), file=out)
    if tray is None:
        print(
            CommandLine.tr(
                "(no tray runs here: whether this computer acts is known to the tray only)"
            ),
            file=out,
        )
    return 0


def claim_json(claim: Claim) -> dict[str, Any]:
    data = asdict(claim)
    data["forgets"] = dict(claim.forgets)
    return data


def cmd_claims(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    lease = inst.lease()
    parts = _parts(args.part)
    claims = {part: lease.claims(part) for part in parts}
    problems = [(part, name, why) for part in parts for name, why in lease.problems(part)]
    if args.json:
        doc: dict[str, Any] = {part: [claim_json(c) for c in cs] for part, cs in claims.items()}
        doc["problems"] = [{"part": p, "file": n, "reason": r} for p, n, r in problems]
        json.dump(doc, out, indent=2)
        out.write("\n")
        return 0
    now = time.time()
    for part, cs in claims.items():
        print(CommandLine.tr("{part}:").format(part=_title(part)), file=out)
        if not cs:
            print(CommandLine.tr("  no claims"), file=out)
        for c in cs:
            who = f"{c.name} [{c.computer}]"
            if c.computer == lease.computer:
                who = CommandLine.tr("{name} (this computer)").format(name=who)
            facts = [
                CommandLine.tr("closed") if c.closed else CommandLine.tr("open"),
                CommandLine.tr("renewed {ago}").format(ago=ago(c.renewed, now)),
                CommandLine.tr("used {ago}").format(ago=ago(c.active, now)),
            ]
            if c.taken is not None:
                facts.append(CommandLine.tr("taken {ago}").format(ago=ago(c.taken, now)))
            if c.sees is not None:
                facts.append(CommandLine.tr("sees {computer}").format(computer=c.sees))
            facts.append(CommandLine.tr("wrote {n}").format(n=c.wrote))
            line = CommandLine.tr("  {computer}: {facts}")
            print(line.format(computer=who, facts=", ".join(facts)), file=out)
        for p, name, why in problems:
            if p == part:
                text = CommandLine.tr("  not read: {file}: {reason}")
                print(text.format(file=name, reason=i18n.translated(why)), file=out)
    return 0


# -- writing ----------------------------------------------------------------------------


def cmd_take(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        keeper = inst.lease().renew(args.part, take=True)
    text = CommandLine.tr(
        "Invoices are taken here. This computer starts once it has kept them "
        "for 2 minutes and every other computer has seen it."
    )
    print(text, file=out)
    if keeper.waiting:
        text = CommandLine.tr("Waiting for: {computers}")
        print(text.format(computers=", ".join(keeper.waiting)), file=out)
    return 0


def cmd_close(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        lease = inst.lease()
        for part in _parts(args.part):
            lease.close(part)
    print(CommandLine.tr("Closed: {parts}").format(parts=", ".join(_parts(args.part))), file=out)
    return 0


def cmd_renew(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        lease = inst.lease()
        now = time.time()
        for part in _parts(args.part):
            print(describe(lease.renew(part), lease, now), file=out)
    return 0


def cmd_forget(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        inst.lease().forget(args.computer)
    text = CommandLine.tr("{computer} is declared gone for good; it counts again if it comes back.")
    print(text.format(computer=args.computer), file=out)
    return 0


def cmd_wrote(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    """No tray runs: carry `wrote` in this computer's claim, closed or open as it is."""
    with inst.writer():
        lease = inst.lease()
        mine = next((c for c in lease.claims(args.part) if c.computer == lease.computer), None)
        if mine is None or mine.closed:
            lease.close(args.part, wrote=args.n)
            if mine is None:
                text = CommandLine.tr(
                    "No claim here yet: run `sioul-tray renew` or start the tray."
                )
                print(text, file=out)
        else:
            lease.renew(args.part, wrote=args.n)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Installation, TextIO], int]] = {
    "setup": cmd_setup,
    "look": cmd_look,
    "claims": cmd_claims,
    "take": cmd_take,
    "close": cmd_close,
    "renew": cmd_renew,
    "forget": cmd_forget,
    "wrote": cmd_wrote,
}


if __name__ == "__main__":
    raise SystemExit(main())
