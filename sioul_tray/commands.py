"""The command line's commands: setup, look, claims, take, close, renew, forget, wrote.

`sioul_tray.cli` reads the words and calls them; the tray never imports this module.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from sioul_tray import history, i18n, phrases
from sioul_tray.dirs import check_home
from sioul_tray.errors import SealExists, SioulError
from sioul_tray.files import make_folders
from sioul_tray.i18n import CommandLine, Core
from sioul_tray.install import Installation, check_writable, make_part_folders
from sioul_tray.lease import PARTS, Claim, Keeper, Lease
from sioul_tray.lease.codec import printable
from sioul_tray.lease.status import SCHEMA, Status, Why
from sioul_tray.share import SEAL_NAME, Share
from sioul_tray.timefmt import ago, clock_time


def _title(part: str) -> str:
    return CommandLine.tr("Medicines") if part == "medicines" else CommandLine.tr("Invoices")


# -- setup ------------------------------------------------------------------------------


def _passphrase(twice: bool) -> str:
    given = os.environ.get("SIOUL_PASSPHRASE")
    if given is not None:
        if not given:
            raise SioulError(Core.mark("SIOUL_PASSPHRASE is empty"))
        return _text(given)
    if not sys.stdin.isatty():
        raise SioulError(
            Core.mark("no passphrase: set SIOUL_PASSPHRASE, or run setup in a terminal")
        )
    first = _ask(CommandLine.tr("Passphrase for the sharing folder: "))
    if not first:
        raise SioulError(Core.mark("the passphrase is empty"))
    if twice and _ask(CommandLine.tr("The same passphrase again: ")) != first:
        raise SioulError(Core.mark("the two passphrases differ; nothing was changed"))
    return first


def _ask(prompt: str) -> str:
    try:
        return _text(getpass.getpass(prompt))
    except EOFError:  # Ctrl-D
        raise SioulError(Core.mark("no passphrase given; nothing was changed")) from None


def _text(passphrase: str) -> str:
    """The passphrase, if it is text (the environment and a terminal may carry other bytes)."""
    try:
        passphrase.encode("utf-8")
    except UnicodeEncodeError:
        raise SioulError(
            Core.mark("the passphrase is not valid text (UTF-8); nothing was changed")
        ) from None
    return passphrase


def cmd_setup(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    if args.share is None and args.name is None:
        raise SioulError(Core.mark("setup needs --share DIR, --name NAME, or both"))
    # Refused now, not at the first start, which names it in the login entry (UTF-8).
    check_home(os.environ.get("SIOUL_TRAY_HOME", ""))
    if args.name is not None and ("\0" in args.name or len(args.name) > 1000):
        raise SioulError(Core.mark("--name needs a name of at most 64 bytes"))
    folder = None
    if args.share is not None:
        if not args.share.strip() or "\0" in args.share:
            raise SioulError(Core.mark("--share needs the path of a folder your sync tool syncs"))
        folder = Path(args.share).expanduser().absolute()
        _usable_folder(folder)
        check_writable(folder)
    with inst.writer():  # a running tray writes this computer's claims: it must quit first
        if args.name is not None:
            name = inst.set_name(args.name)
            text = CommandLine.tr("The other computers show this one as {name}.")
            print(text.format(name=printable(name)), file=out)
        return _setup(inst, folder, out) if folder is not None else 0


def _setup(inst: Installation, folder: Path, out: TextIO) -> int:
    computer = inst.computer()
    share: Share
    if os.path.lexists(folder / SEAL_NAME):
        share = Share.open(folder, _passphrase(twice=False))
        made = "joined"
    else:
        try:
            share = Share.create(folder, _passphrase(twice=True), computer)
            made = "created"
        except SealExists:
            if not (folder / SEAL_NAME).is_file():
                raise  # claims arrived before the seal, or it is arriving: wait, then join
            # Another computer's seal arrived while we asked: join it instead, never overwrite.
            share = Share.open(folder, _passphrase(twice=False))
            made = "joined"
    make_part_folders(folder)
    _leave_previous(inst, folder, out)
    if made == "created":
        inst.made_folder(share)
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


def _usable_folder(folder: Path) -> None:
    """`folder` is a folder, or is made in an existing one; SioulError naming what is wrong."""
    if folder.is_dir():
        return
    if folder.exists():
        raise SioulError(Core.mark("{folder} is not a folder", folder=folder))
    missing = folder.parent
    while not missing.parent.is_dir() and missing.parent != missing:
        missing = missing.parent
    if not folder.parent.is_dir():
        if missing.exists():
            raise SioulError(Core.mark("{folder} is not a folder", folder=missing))
        raise SioulError(
            Core.mark(
                "{folder} does not exist: choose a folder your sync tool syncs", folder=missing
            )
        )
    try:
        make_folders(folder, 0o755)  # whatever the umask: nobody else may write claims there
    except OSError as e:
        raise SioulError(
            Core.mark("cannot make {folder}: {error}", folder=folder, error=e.strerror or str(e))
        ) from None


def _leave_previous(inst: Installation, folder: Path, out: TextIO) -> None:
    """Moving to another folder: close this computer's claims in the one it leaves, so the
    computers still there do not wait for it (as the tray's "Change sharing folder" does)."""
    try:
        previous = inst.share_folder()
        if previous is None or previous.absolute() == folder:
            return
        lease = inst.lease(verify=True)
    except SioulError:
        return  # nothing readable to close there (moved, sealed again, never joined)
    try:
        for part in PARTS:
            lease.close(part)
    except SioulError as e:
        text = CommandLine.tr("Could not close this computer's claims in {folder}: {error}")
        print(text.format(folder=previous, error=i18n.message(e)), file=out)
    else:
        text = CommandLine.tr("Closed this computer's claims in {folder}.")
        print(text.format(folder=previous), file=out)


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
        "status": keeper.status.to_json(),
    }


def line(
    part: str,
    status: Status,
    tray: bool,
    names: phrases.Names = phrases.PLAIN,
    now: float | None = None,
) -> str:
    """A part's line in the phrasebook's words. Without a tray, nothing acts here: a part kept
    here and settling or acting (in this one-off process's view) is said so. With the tray's
    status and `now`, the menu's own words (a part settling counts down)."""
    if not tray and status.why in (Why.SETTLING, Why.ACTING):
        return phrases.unattended_line(part)
    return phrases.part_line(part, status, names, now)


def names_in(lease: Lease) -> phrases.Names:
    """The names of the computers the last reads found, told apart where two share one."""
    known = [(lease.computer, lease.name)]
    for part in PARTS:
        known += [(c.computer, c.name) for c in lease.last_read(part).claims]
    return phrases.Names(known)


def _tray_view(inst: Installation) -> dict[str, Any] | None:
    """The running tray's view (it alone knows whether this computer acts), or None."""
    from sioul_tray.tray.client import ask

    answer = ask(inst.state_dir, ["look"])
    if answer is None or answer[0] != 0:
        return None
    try:
        view = json.loads(answer[1])
    except (ValueError, RecursionError):  # not JSON, or nested beyond reason: not our tray's
        return None
    return view if isinstance(view, dict) and isinstance(view.get("parts"), dict) else None


def cmd_look(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    lease = inst.lease(verify=True, read_only=True)  # beside the tray: it reads, never saves
    keepers = {part: lease.look(part) for part in _parts(args.part)}
    tray = _tray_view(inst)
    running = tray is not None and bool(tray.get("running"))
    # The running tray has kept watch: its status (settling, acting, since when) is the real one.
    seen = {
        part: Status.from_json(tray["parts"].get(part, {}).get("status"))
        if running and tray is not None and isinstance(tray["parts"].get(part), dict)
        else None
        for part in keepers
    }
    if args.json:
        doc: dict[str, Any] = {"schema": SCHEMA}
        for part, k in keepers.items():
            doc[part] = keeper_json(k) | {"source": "read now"}
            flags = tray["parts"].get(part) if running and tray is not None else None
            if isinstance(flags, dict) and seen[part] is not None:
                doc[part] = {
                    key: flags.get(key, doc[part][key])
                    for key in keeper_json(k)
                    if key != "computer"
                } | {"computer": flags.get("keeper"), "source": "tray"}
        json.dump(doc, out, indent=2)
        out.write("\n")
        return 0
    names = names_in(lease)
    for part, keeper in keepers.items():
        status = seen[part] or keeper.status
        print(line(part, status, seen[part] is not None, names, time.time()), file=out)
        for computer, offset in sorted(lease.clock_offsets(keeper.part).items()):
            text = CommandLine.tr(
                "  the clock of {computer} is %n min ahead of this one", None, offset // 60
            )
            print(text.format(computer=computer), file=out)
    if not running:
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


def cmd_history(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    """What changed hands as this computer's tray saw it (`sioul_tray.history`), oldest first."""
    try:
        changes = history.read(history.path_in(inst.state_dir))
    except history.Damaged as e:
        raise SioulError(Core.mark("the history cannot be read: {reason}", reason=str(e))) from None
    if args.json:
        doc = {"schema": history.SCHEMA, "changes": [asdict(c) for c in changes]}
        json.dump(doc, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return 0
    if not changes:
        print(CommandLine.tr("No change of hands seen here yet."), file=out)
    for c in changes:
        print(printable(history.shown(c, always_date=True)), file=out)  # shown, never obeyed
    return 0


def cmd_claims(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    lease = inst.lease(verify=True, read_only=True)
    parts = _parts(args.part)
    claims = {part: lease.claims(part) for part in parts}
    problems = [(part, p) for part in parts for p in lease.last_read(part).problems]
    if args.json:
        doc: dict[str, Any] = {part: [claim_json(c) for c in cs] for part, cs in claims.items()}
        doc["problems"] = [{"part": part, "file": p.file, "reason": p.reason,
                            "passing": p.passing} for part, p in problems]  # fmt: skip
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
                # A computer never used (headless: `renew` from a timer) claims with active 0.
                CommandLine.tr("used {ago}").format(ago=ago(c.active, now))
                if c.active > 0
                else CommandLine.tr("never used"),
            ]
            if c.taken is not None:
                facts.append(CommandLine.tr("taken {ago}").format(ago=ago(c.taken, now)))
            if c.sees is not None:
                facts.append(CommandLine.tr("sees {computer}").format(computer=c.sees))
            facts.append(CommandLine.tr("wrote {n}").format(n=c.wrote))
            line = CommandLine.tr("  {computer}: {facts}")
            print(line.format(computer=who, facts=", ".join(facts)), file=out)
        for p, problem in problems:
            if p == part:
                # File names come from the folder: any member may plant escape sequences there.
                text = CommandLine.tr("  not read: {file}: {reason}")
                reason = i18n.translated(problem.reason)
                line = text.format(file=printable(problem.file), reason=printable(reason))
                print(line, file=out)
    return 0


# -- writing ----------------------------------------------------------------------------


def cmd_take(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        lease = inst.lease(verify=True)
        keeper = lease.renew(args.part, take=True)
        _state_warning(lease)
    # Here only when no tray answered (a running one takes the request itself): nothing acts
    # here until one starts, and the others stop, since this computer keeps the part: no
    # computer numbers until a tray runs here. Said as a warning, on stderr too.
    text = CommandLine.tr(
        "Invoices are kept here now, but no tray runs on this computer: no computer numbers "
        "them until sioul-tray starts here (it then numbers them once it has kept them for 2 "
        "minutes and every other computer has seen it)."
    )
    print(text, file=out)
    warning = CommandLine.tr(
        "sioul-tray: warning: no tray runs here, so no computer numbers invoices now: start "
        "sioul-tray here, or choose “Make invoices here” on another computer"
    )
    print(warning, file=sys.stderr)
    if keeper.waiting:
        # By the names a person knows them by (with the id where two share one).
        names = names_in(lease)
        named = {c.computer: c.name for c in lease.last_read(args.part).claims}
        shown = [printable(names(c, named.get(c))) for c in keeper.waiting]
        text = CommandLine.tr("Waiting for: {computers}")
        print(text.format(computers=", ".join(shown)), file=out)
    return 0


def cmd_close(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    failed: list[str] = []
    closed: list[str] = []
    with inst.writer():
        lease = inst.lease(verify=True)
        for part in _parts(args.part):
            try:
                lease.close(part)
            except SioulError as e:  # each part is tried; every failure is said
                failed.append(i18n.message(e))
            else:
                closed.append(part)
        _state_warning(lease)
    if closed:
        print(CommandLine.tr("Closed: {parts}").format(parts=", ".join(closed)), file=out)
    if failed:
        raise SioulError("; ".join(failed))
    return 0


def _state_warning(lease: Lease) -> None:
    """Say on stderr when this computer's local state could not be written (it still works, but
    a restart would forget what it read): a read-only folder, a folder where the file should be."""
    if lease.state_problem is not None:
        text = CommandLine.tr("sioul-tray: warning: {problem}")
        print(text.format(problem=printable(lease.state_problem)), file=sys.stderr)


def cmd_renew(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        lease = inst.lease(verify=True)
        for part in _parts(args.part):
            keeper = lease.renew(part, active=_kept_presence(lease, part))
            print(line(part, keeper.status, False, names_in(lease)), file=out)
        _state_warning(lease)
    return 0


def cmd_forget(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        lease = inst.lease(verify=True)
        lease.forget(args.computer)
        _state_warning(lease)
        counts_from = lease.forget_counts_from(args.computer)
        on_close = lease.forget_stands_on_close(args.computer)
    _declared(args.computer, counts_from, out, on_close=on_close)
    return 0


def _declared(
    computer: str, counts_from: int | None, out: TextIO, *, on_close: bool = False
) -> None:
    text = CommandLine.tr("{computer} is declared gone for good; it counts again if it comes back.")
    print(text.format(computer=computer), file=out)
    if on_close:
        text = CommandLine.tr(
            "For invoices it cannot count: {computer} may be numbering them on this computer's "
            "close, cut off from the sync, for as long as it runs. Start {computer} for a minute "
            "with its sync running to end the wait."
        )
        print(text.format(computer=computer), file=out)
    elif counts_from is not None:
        text = CommandLine.tr(
            "For invoices it counts from {time}: until then {computer} may still be numbering "
            "them, cut off from the sync."
        )
        print(text.format(computer=computer, time=clock_time(counts_from)), file=out)


def cmd_copied(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    with inst.writer():
        made = inst.become_new_computer(replaces=args.answer == "gone")
    text = CommandLine.tr(
        "This computer's claims are now {new}'s; {old}'s stay with the computer they were made on."
    )
    print(text.format(new=made.new, old=made.old), file=out)
    if made.declared:
        _declared(made.old, made.counts_from, out)
    elif args.answer == "gone":
        text = CommandLine.tr("No claim of {computer} was ever read here: nothing holds back.")
        print(text.format(computer=made.old), file=out)
    return 0


def cmd_wrote(args: argparse.Namespace, inst: Installation, out: TextIO) -> int:
    """No tray runs: nothing acts here, so no mark is taken (`Driver.mark`); but the person's
    word for a mark the core cannot prove (`--confirm`, S6) is carried in the claim."""
    if args.confirm:
        with inst.writer():
            lease = inst.lease(verify=True)
            lease.renew(
                args.part, active=_kept_presence(lease, args.part), wrote=args.n, confirm=True
            )
            _state_warning(lease)
        return 0
    text = CommandLine.tr(
        "sioul-tray: no tray runs here, so nothing acts on {part} under {token}: the mark is "
        "not taken, and the records made after the last one are void"
    )
    print(text.format(part=args.part, token=args.token), file=sys.stderr)
    return 1


def _kept_presence(lease: Lease, part: str) -> int:
    """The `active` a renew without a tray carries: no idle source here, so the person's
    presence is not claimed (a timer's renew would pull medicines to a computer nobody uses,
    where no tray reminds them), only what this computer's claim said before, or never."""
    mine = next((c for c in lease.claims(part) if c.computer == lease.computer), None)
    return mine.active if mine is not None else 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Installation, TextIO], int]] = {
    "setup": cmd_setup,
    "look": cmd_look,
    "claims": cmd_claims,
    "history": cmd_history,
    "take": cmd_take,
    "close": cmd_close,
    "renew": cmd_renew,
    "forget": cmd_forget,
    "copied": cmd_copied,
    "wrote": cmd_wrote,
}
