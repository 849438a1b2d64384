"""What the tray shows, as plain data: no Qt here, so every text and rule is tested directly.

The controller reads the core (Keepers, claims, heard times) into a `View`; the functions below turn
a `View` into menu lines, the tooltip, the icon's state, the status file and the notifications.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sioul_tray import history, phrases
from sioul_tray.i18n import Menu, translated
from sioul_tray.lease import CONTRACT, PARTS, Claim, Keeper, Timing
from sioul_tray.lease.folder import Problem
from sioul_tray.lease.lease import Snapshot
from sioul_tray.lease.rules import Rule, heir
from sioul_tray.lease.status import Status, Why
from sioul_tray.share import SEAL_NAME
from sioul_tray.timefmt import clock_time, span

if TYPE_CHECKING:
    from sioul_tray.sync.report import SyncReport

label = phrases.label  # a part's name as the menu shows it


# status.json's shape (docs/integration.md): 3 since a part says its own `wrote`, the mark the
# tray takes only while it acts; a reader (`client.SCHEMA`) never acts on an older tray's.
STATUS_SCHEMA = 3
# A clock that is off by more than this is worth a warning (the spec reports offsets over RENEW).
CLOCK_WARNING = 60


@dataclass(frozen=True)
class View:
    """Everything the tray shows at one moment."""

    computer: str
    now: float
    parts: Mapping[str, Keeper]  # each part's verdict, as the core gives it
    # Each part as the tick read it: every claim (this computer's too) and when each was heard.
    # The core's own answer, not a copy per claim: a tick would make thousands with many computers.
    seen: Mapping[str, Snapshot] = field(default_factory=dict)
    offsets: Mapping[str, int] = field(default_factory=dict)  # computer -> seconds ahead
    problems: tuple[tuple[str, Problem], ...] = ()  # (part, a file of it that does not read)
    idle_source: str = ""
    idle_known: bool = True
    error: str | None = None  # the last read or write of the sharing folder that failed
    state_problem: str | None = None  # this computer's local state cannot be read or written
    name: str = ""  # this computer's name
    sync: SyncReport | None = None  # what Syncthing says of the folder, where it syncs it
    timing: Timing = CONTRACT  # the folder's (`Lease.timing`)
    # Parts closed here on request (`sioul-tray close`), kept closed across restarts until
    # reopened (`sioul-tray renew`, or the menu's "Reopen here").
    paused: frozenset[str] = frozenset()

    @cached_property
    def names(self) -> phrases.Names:
        """Names as shown: with the id where two computers in view share one."""
        known: list[tuple[str, str | None]] = [(self.computer, self.name)]
        for part in self.seen:
            known += [(c.computer, c.name) for c in self.others(part)]
        known += [(p.computer, p.name) for p in self.parts.values() if p.computer is not None]
        return phrases.Names(known)

    def shown_name(self, computer: str) -> str:
        """`computer`'s name for the menu and the notifications (see `names`)."""
        return self.names(computer, self.name_of(computer))

    def worrying_problems(self) -> tuple[tuple[str, Problem], ...]:
        """The claim files worth a warning: not the temporaries and placeholders of a sync under
        way (each write of a claim passes through one; "Computers…" still lists them all), nor
        the seal's problem, which has its own line (`seal_problem`)."""
        return tuple(
            (part, p) for part, p in self.problems if not p.passing and p.file != SEAL_NAME
        )

    def seal_problem(self) -> str | None:
        """Why the folder's seal stops this computer (sealed again, missing, damaged), if so."""
        return next((p.reason for _, p in self.problems if p.file == SEAL_NAME), None)

    def others(self, part: str) -> list[Claim]:
        """The other computers' claims on `part`, as the tick read them."""
        seen = self.seen.get(part)
        me = self.computer
        return [] if seen is None else [c for c in seen.claims if c.computer != me]

    def name_of(self, computer: str) -> str:
        for read in self.seen:
            for c in self.others(read):
                if c.computer == computer and c.name:
                    return c.name
        for part in self.parts.values():
            if part.computer == computer and part.name:
                return part.name
        return computer

    def heard(self, part: str, computer: str) -> float | None:
        """When another computer's claim on `part` was last heard (wall clock), if it was."""
        seen = self.seen.get(part)
        if seen is None or computer == self.computer:
            return None
        return seen.heard.get(computer)


class Icon(Enum):
    NOTHING = "nothing"
    MEDICINES = "medicines"
    INVOICES = "invoices"
    BOTH = "both"
    SETTLING = "settling"  # nothing acts here yet; a part comes here once it has settled
    ATTENTION = "attention"


def hhmm(t: float) -> str:
    """A local time, the way the menu shows it (with the date when not today)."""
    return clock_time(t)


def shown_status(view: View, part: str) -> Status:
    """The core's status of `part`, as the menu words it: where Syncthing answers, it says what is
    wrong (a line of its own), so no guess about the sync."""
    status = view.parts[part].status
    if view.sync is not None and status.stalled:
        return dataclasses.replace(status, stalled=False)
    return status


def part_line(view: View, part: str) -> str:
    """One menu line: who keeps the part, and why it waits when it does (the core's status)."""
    return phrases.part_line(part, shown_status(view, part), view.names, view.now)


def part_lines(view: View, part: str) -> list[str]:
    """A part's lines in the menu: `part_line`, or for a wait here, each computer waited for on a
    line of its own (`phrases.waiting_lines`)."""
    status = view.parts[part].status
    if status.why is not Why.WAITING or (len(status.waiting) < 2 and not status.stalled):
        return [part_line(view, part)]
    return phrases.waiting_lines(part, shown_status(view, part), view.names)


def sync_lines(view: View) -> list[str]:
    """What Syncthing says, when it matters: it does not answer or paused the folder, or a part
    waits here (then: the computers it is not connected to)."""
    report = view.sync
    if report is None:
        return []
    waits = any(p.status.why is Why.WAITING for p in view.parts.values())
    if report.answering and not report.paused and not waits:
        return []
    return phrases.sync_lines(report)


def notes(view: View) -> list[str]:
    """Informational lines under the parts: clocks, unreadable files, idle time."""
    lines = []
    seal = view.seal_problem()
    if seal is not None:
        # The core's reason, "what happened: what to do", on two lines (one would run off a small
        # screen), each beginning with a capital.
        said = translated(seal)
        what, colon, todo = said.rpartition(":")
        for line in [what.rstrip(), todo.strip()] if colon else [said]:
            lines.append(line[:1].upper() + line[1:])
    if view.error:
        lines.append(Menu.tr("Sharing folder: {error}").format(error=translated(view.error)))
    if view.state_problem:
        lines.append(Menu.tr("This computer's state: {problem}").format(problem=view.state_problem))
    lines += sync_lines(view)
    for computer, offset in sorted(view.offsets.items()):
        if abs(offset) > CLOCK_WARNING:
            text = (
                Menu.tr("{computer}'s clock is {span} ahead of this one")
                if offset > 0
                else Menu.tr("{computer}'s clock is {span} behind this one")
            )
            lines.append(text.format(computer=view.shown_name(computer), span=span(offset)))
    worrying = view.worrying_problems()
    if worrying:
        lines.append(
            Menu.tr(
                "%n files in the sharing folder do not read",
                None,
                len(worrying),
                one="1 file in the sharing folder does not read",
            )
        )
    if not view.idle_known:
        lines.append(Menu.tr("Idle time unknown: counting from the session start"))
    return lines


def paused_line(view: View) -> str | None:
    """The menu's line for parts closed here by `sioul-tray close`: this computer takes no part
    in them until they are reopened (a restart keeps them closed, as the person asked)."""
    paused = [p for p in PARTS if p in view.paused]
    if not paused:
        return None
    if len(paused) == 2:
        return Menu.tr("Closed here by “sioul-tray close”: medicines and invoices")
    if paused == ["medicines"]:
        return Menu.tr("Closed here by “sioul-tray close”: medicines")
    return Menu.tr("Closed here by “sioul-tray close”: invoices")


def reopen_text(view: View) -> str | None:
    """The menu's item that reopens the parts closed here, or None when none is."""
    paused = [p for p in PARTS if p in view.paused]
    if not paused:
        return None
    if len(paused) == 2:
        return Menu.tr("Reopen medicines and invoices here")
    if paused == ["medicines"]:
        return Menu.tr("Reopen medicines here")
    return Menu.tr("Reopen invoices here")


def silent_keepers(view: View) -> dict[str, list[str]]:
    """Computers that keep a part and are silent (not heard within ALIVE, whatever their last
    claim said), with the parts each keeps."""
    found: dict[str, list[str]] = {}
    for part in PARTS:
        p = view.parts.get(part)
        if p is not None and p.status.why is Why.ELSEWHERE and not p.status.live and p.computer:
            found.setdefault(p.computer, []).append(part)
    return found


def idle_keepers(view: View) -> list[str]:
    """Parts another computer keeps, heard, without acting long after it took them
    (`Status.idle`: nothing acts on them there, most often a take with no tray there)."""
    return [
        part
        for part in PARTS
        if part in view.parts
        and view.parts[part].status.why is Why.ELSEWHERE
        and view.parts[part].status.live
        and view.parts[part].status.idle
    ]


def gone_candidates(view: View) -> list[str]:
    """Computers invoices wait on, silent lately (as the core says): the person may forget them.
    Not one whose last claim is a close: it is switched off or quit, not gone, and starting it
    ends the wait (the Computers window and `sioul-tray forget` still can)."""
    p = view.parts.get("invoices")
    if p is None or p.status.why is not Why.WAITING:
        return []
    return [w.computer for w in p.status.waiting if w.silent and not w.closed]


def waits_for_last(view: View) -> str | None:
    """The morning after: invoices are kept here but wait for the computer that numbered last
    before every computer closed (it numbers alone when it starts). Its id, or None."""
    p = view.parts.get("invoices")
    if p is None or p.status.why is not Why.WAITING:
        return None
    return next((w.computer for w in p.status.waiting if w.closed and w.last), None)


class Action(Enum):
    TAKE_INVOICES = "take-invoices"
    REOPEN = "reopen"  # the parts closed here by `sioul-tray close`
    FORGET = "forget"
    COMPUTERS = "computers"
    OPEN_FOLDER = "open-folder"
    CHANGE_FOLDER = "change-folder"
    AUTOSTART = "autostart"
    ABOUT = "about"
    QUIT = "quit"


@dataclass(frozen=True)
class Item:
    """One line of the flat menu; `action` None is an information line or a separator."""

    text: str
    action: Action | None = None
    data: str = ""
    enabled: bool = True
    checkable: bool = False
    checked: bool = False

    @property
    def separator(self) -> bool:
        return self.text == "" and self.action is None


SEPARATOR = Item("")


def menu(view: View, autostart: bool) -> list[Item]:
    """The whole flat menu (flat because AppIndicator hosts drop submenus' `aboutToShow`)."""
    # The part lines stay enabled (greyed text is hard to read); they open the Computers window.
    # First, which computer this is: the parts' "here" means it.
    this = Menu.tr("This computer: {name}").format(name=view.names(view.computer, view.name))
    items = [Item(this, Action.COMPUTERS, "this")]
    items += [
        Item(line, Action.COMPUTERS, p)
        for p in PARTS
        if p in view.parts
        for line in part_lines(view, p)
    ]
    closed = paused_line(view)
    if closed is not None:
        items.append(Item(closed, Action.COMPUTERS, "paused"))
    items += [Item(line, Action.COMPUTERS, "notes") for line in notes(view)]
    items.append(SEPARATOR)
    reopen = reopen_text(view)
    if reopen is not None:
        items.append(Item(reopen, Action.REOPEN))
    invoices = view.parts.get("invoices")
    # Also while this computer waits for the one that numbered last: taken here, invoices stay
    # here once that one is heard, instead of going to it.
    if invoices is not None and (not invoices.here or waits_for_last(view) is not None):
        items.append(Item(Menu.tr("Make invoices here…"), Action.TAKE_INVOICES))
    for computer in gone_candidates(view):
        text = Menu.tr("Treat {computer} as gone for good…").format(
            computer=view.shown_name(computer)
        )
        items.append(Item(text, Action.FORGET, computer))
    items += [
        Item(Menu.tr("Computers…"), Action.COMPUTERS),
        Item(Menu.tr("Open sharing folder"), Action.OPEN_FOLDER),
        Item(Menu.tr("Change sharing folder…"), Action.CHANGE_FOLDER),
        SEPARATOR,
        Item(Menu.tr("Start at login"), Action.AUTOSTART, checkable=True, checked=autostart),
        Item(Menu.tr("About sioul-tray"), Action.ABOUT),
        Item(Menu.tr("Quit"), Action.QUIT),
    ]
    return items


def tooltip(view: View) -> str:
    return "\n".join(["sioul-tray", *(part_line(view, p) for p in PARTS if p in view.parts)])


def settling(view: View) -> bool:
    """Some part settles here: it acts here once it has, if nothing changes."""
    return any(p.status.why is Why.SETTLING for p in view.parts.values())


# The reasons that need the person: the core's status says the part waits here (maestral-qt's
# icon mapping: the icon follows the core's state, it applies no rule of its own).
NEEDS_YOU = frozenset({Why.WAITING, Why.ALONE, Why.AWAY, Why.BLOCKED})
ACTING_ICONS = {
    frozenset({"medicines", "invoices"}): Icon.BOTH,
    frozenset({"medicines"}): Icon.MEDICINES,
    frozenset({"invoices"}): Icon.INVOICES,
}


def icon(view: View) -> Icon:
    """The icon for the view: a part waiting here or anything warned of first, then what acts
    here, then a part settling here."""
    whys = {part: p.status.why for part, p in view.parts.items()}
    clock = any(abs(o) > CLOCK_WARNING for o in view.offsets.values())
    warned = view.seal_problem() is not None or bool(view.worrying_problems()) or clock
    # A keeper elsewhere that is silent, or that keeps a part without acting on it: nothing may
    # act on that part anywhere, which the person should look at.
    stopped = bool(silent_keepers(view)) or bool(idle_keepers(view))
    if warned or view.error or stopped or not NEEDS_YOU.isdisjoint(whys.values()):
        return Icon.ATTENTION
    acting = frozenset(part for part, why in whys.items() if why is Why.ACTING)
    if acting:
        return ACTING_ICONS[acting]
    return Icon.SETTLING if Why.SETTLING in whys.values() else Icon.NOTHING


def take_confirmation(view: View) -> str | None:
    """The question before "Make invoices here", or None when nobody else keeps them alive. It
    says what the keeper does, as its claim says: numbering, or only keeping them (a take by the
    command line with no tray there numbers nothing)."""
    last = waits_for_last(view)
    if last is not None:
        return Menu.tr(
            "{computer} numbered last: started, it numbers invoices. Make them here instead?\n\n"
            "This computer then numbers them once it has heard {computer}: start it for a "
            "minute with its sync running."
        ).format(computer=view.shown_name(last))
    p = view.parts.get("invoices")
    if p is None or p.status.why is not Why.ELSEWHERE or not p.status.live:
        return None
    who = view.names(p.computer, p.name)
    if p.status.idle:
        return Menu.tr(
            "{computer} keeps invoices but does not number them: nothing numbers them there "
            "until sioul-tray runs there. Make them here instead?\n\n"
            "This computer starts once every other computer has confirmed it, in about 2 "
            "minutes while they are on."
        ).format(computer=who)
    if p.status.acts is False:
        return Menu.tr(
            "{computer} keeps invoices but does not number them yet. Make them here instead?\n\n"
            "This computer starts once every other computer has confirmed it, in about 2 "
            "minutes while they are on."
        ).format(computer=who)
    return Menu.tr(
        "{computer} makes invoices now. Make them here instead?\n\n"
        "{computer} stops numbering as soon as it sees this; this computer starts once every "
        "other computer has confirmed it, in about 2 minutes while they are on."
    ).format(computer=who)


@dataclass(frozen=True)
class QuitQuestion:
    """The question before Quit: its words, and whether it offers to make invoices here first
    (`Action.TAKE_INVOICES`, then quit)."""

    text: str
    offers_take: bool = False


def quit_question(view: View) -> QuitQuestion | None:
    """The question before Quit (`quit_warning`), and where this tray is the last one (every
    other computer closed) where invoices are numbered tomorrow: here, or on the computer that
    numbered last, with the offer to make them here instead where a take here would hold."""
    warning = _left_to_nobody(view)
    if warning is None:
        return None
    ask = Menu.tr("Quit anyway?")
    tomorrow = _tomorrow(view)
    if tomorrow is None:
        return QuitQuestion(warning + "\n\n" + ask)
    last, others = tomorrow
    if last is None:
        if any(c.sees is None for c in others) and not view.parts["invoices"].acting:
            # Another close names nobody (it was the heir): a take here that never numbered
            # makes two such closes, and neither computer counts the other's alone.
            return QuitQuestion(warning + "\n\n" + Menu.tr(
                "Tomorrow, invoices are numbered here once this computer has heard the others: "
                "start them with their sync running."
            ) + "\n\n" + ask)  # fmt: skip
        return QuitQuestion(warning + "\n\n" + Menu.tr(
            "Tomorrow, invoices are numbered on this computer: the others wait for it to start."
        ) + "\n\n" + ask)  # fmt: skip
    who = view.shown_name(last.computer)
    if last.sees is None:
        # It numbered last, and its close names nobody: it numbers alone tomorrow; a take here
        # now would leave neither computer numbering alone (`_tomorrow`).
        said = Menu.tr(
            "Tomorrow, invoices are numbered on {computer}, which numbered last: this computer "
            "waits for it."
        ).format(computer=who)
        return QuitQuestion(warning + "\n\n" + said + "\n\n" + ask)
    said = Menu.tr(
        "Tomorrow, invoices are numbered on {computer}: this computer waits for it. Make them "
        "here instead?"
    ).format(computer=who)
    return QuitQuestion(warning + "\n\n" + said, offers_take=True)


def _tomorrow(view: View) -> tuple[Claim | None, list[Claim]] | None:
    """Where this tray is the last one on invoices (kept here, every other claim closed): the
    computer whose close the others will wait for tomorrow (None: this one), as the heir its
    close will name (`rules.heir`, as the core asks it; a computer that numbers records its take,
    `Knowledge.inherits`), with the other computers' claims. None where this tray is not the
    last."""
    p = view.parts.get("invoices")
    seen = view.seen.get("invoices")
    if p is None or not p.here or seen is None:
        return None
    others = view.others("invoices")
    mine = next((c for c in seen.claims if c.computer == view.computer), None)
    if mine is None or not others or not all(c.closed for c in others):
        return None
    if p.acting:
        return None, others
    return heir(Rule.STAYS, seen.claims, mine, view.timing), others


def quit_warning(view: View) -> str | None:
    """The question before Quit when quitting leaves a part to nobody: this computer keeps it
    and no other computer's tray has renewed it lately (an open claim heard within ALIVE)."""
    warning = _left_to_nobody(view)
    return None if warning is None else warning + "\n\n" + Menu.tr("Quit anyway?")


def _left_to_nobody(view: View) -> str | None:
    """`quit_warning`'s first paragraph: which parts nobody else keeps while this tray stops."""
    alone = [part for part in PARTS if part in view.parts and view.parts[part].here
             and not _others_renew(view, part)]  # fmt: skip
    if not alone:
        return None
    if len(alone) == 2:
        text = Menu.tr(
            "No other computer will remind medicines or number invoices while sioul-tray is "
            "stopped here."
        )
    elif alone == ["medicines"]:
        text = Menu.tr("No other computer will remind medicines while sioul-tray is stopped here.")
    else:
        text = Menu.tr("No other computer will number invoices while sioul-tray is stopped here.")
    return text


def _others_renew(view: View, part: str) -> bool:
    for c in view.others(part):
        heard = view.heard(part, c.computer)
        if not c.closed and heard is not None and view.now - heard <= view.timing.alive:
            return True
    return False


def status(
    view: View | None,
    computer: str,
    pid: int,
    running: bool,
    now: float,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    boot: str | None = None,
) -> dict[str, Any]:
    """The status file's content: may Sioul on this computer act on each part now, until when,
    under which token, and with which records first (docs/integration.md)?

    `bounds`: for each part acted on, when (wall, ticks) the renew that said so began; a part
    without one is written not acting, whatever the view says."""
    bounds = bounds or {}
    parts: dict[str, Any] = {}
    for part in PARTS:
        p = view.parts.get(part) if view is not None else None
        if p is None or not running:
            # The same keys as a running part's: a reader needs no second shape.
            parts[part] = {"keeper": None, "name": None, "here": False, "settled": False,
                           "others_heard": False, "agreed": False, "acting": False,
                           "since": None, "waiting": [], "blocked": None,
                           "status": None, "valid_until": None, "valid_until_boot": None,
                           "token": None, "must_have": {}, "wrote": 0,
                           "line": None}  # fmt: skip
            continue
        assert view is not None
        renew = view.timing.renew  # a verdict holds RENEW from the call that gave it
        bound = bounds.get(part) if p.acting else None
        seen = view.seen.get(part)
        claims = seen.claims if seen is not None else []
        mine = next((c for c in claims if c.computer == computer), None)
        parts[part] = {
            "keeper": p.computer,
            "name": p.name,
            "here": p.here,
            "settled": p.settled,
            "others_heard": p.others_heard,
            "agreed": p.agreed,
            "acting": bound is not None,
            "since": p.since,
            "waiting": list(p.waiting),
            "blocked": p.blocked,
            "status": p.status.to_json(),
            "valid_until": int(bound[0] + renew) if bound is not None else None,
            "valid_until_boot": round(bound[1] + renew, 3) if bound is not None else None,
            # The keeper's tenure names this stretch of keeping: a record made under it is
            # recognisable when the records merge.
            "token": f"{computer}.{mine.tenure}"
            if bound is not None and mine is not None and mine.tenure is not None
            else None,
            # How far every other computer wrote its records, by its own claim: Sioul's records
            # here must reach these marks before it acts.
            "must_have": {
                c.computer: c.wrote for c in claims if c.computer != computer and c.wrote
            },
            # How far this computer's own records count, by its own claim (`Driver.mark`): a
            # record of its own past this mark is void, and Sioul drops it before it acts. None
            # while the mark cannot be proven (its state lost): unknown, never a lower one that
            # would void records Sioul was told count (S6), whoever keeps the part.
            "wrote": None
            if p.status.cause == "mark" or (seen is not None and seen.mark_unknown)
            else mine.wrote
            if mine is not None
            else 0,
            "line": part_line(view, part),  # the menu's words, for `sioul-tray may`
        }
    return {
        "schema": STATUS_SCHEMA,
        "computer": computer,
        "pid": pid,
        "boot": boot,
        "running": running,
        "at": int(now),
        "parts": parts,
    }


@dataclass(frozen=True)
class Note:
    key: str
    title: str
    body: str
    action: Action | None = None  # what its button does: the menu's action of that name
    # A change of hands as data, for the history (`history.Change`), shown in the reader's
    # language whenever it is read; None for a standing warning.
    change: history.Change | None = None


def note_actions(note: Note) -> list[tuple[str, str]]:
    """The note's button as (key, label) pairs for the notification service: the menu's words."""
    labels = {
        Action.TAKE_INVOICES: Menu.tr("Make invoices here…"),
        Action.COMPUTERS: Menu.tr("Computers…"),
        Action.REOPEN: Menu.tr("Reopen here"),
    }
    return [] if note.action is None else [(note.action.value, labels[note.action])]


def handovers(before: View | None, after: View) -> list[Note]:
    """Notes for each change of keeper, of acting here, or of the keeper saying it acts, between
    two views (none at start). Each carries its change as data for the history."""
    if before is None:
        return []
    out = []
    for part, p in after.parts.items():
        q = before.parts.get(part)
        if q is None:
            continue
        change: history.Change | None = None
        key = ""
        action = None
        if p.acting and not q.acting:
            key, change = f"{part}:here", history.Change(int(after.now), part, "here")
        elif q.acting and not p.acting and p.here:
            status = shown_status(after, part).to_json()
            key = f"{part}:paused"
            change = history.Change(int(after.now), part, "paused", status=status)
        elif p.computer != q.computer and not p.here:
            if p.computer is None:
                key, change = f"{part}:nobody", history.Change(int(after.now), part, "nobody")
                action = Action.TAKE_INVOICES if part == "invoices" else None
                if part in after.paused:  # closed here by the person: the warning says it
                    action = Action.REOPEN
            else:
                # Already acting there (this computer heard the change late): it is made there.
                # Else it moves there, and acts once a tray there has settled (if one runs).
                kind = "made" if p.status.acts else "moves"
                who = after.names(p.computer, p.name)
                key = f"{part}:{p.computer}"
                # "This computer no longer…" when it did act, not only settled.
                change = history.Change(int(after.now), part, kind, who, left=q.acting)
        elif not p.here and p.computer is not None and p.status.acts and q.status.acts is False:
            # The keeper's claim now says it acts: said once it is true, never for a take that
            # nothing there acts on (a command line with no tray).
            who = after.names(p.computer, p.name)
            key = f"{part}:{p.computer}:acts"
            change = history.Change(int(after.now), part, "made", who)
        if change is not None:
            title, body = change.words()
            out.append(Note(key, title, body, action, change))
    return out


def warnings(view: View) -> dict[str, Note]:
    """Standing warnings by key; the controller notifies each key once while it stands."""
    out: dict[str, Note] = {}
    seal = view.seal_problem()
    if seal is not None:
        key = f"seal:{seal}"
        out[key] = Note(key, phrases.notice("sealed", "invoices"), translated(seal))
    for computer in gone_candidates(view):
        title, body = phrases.unheard(view.shown_name(computer), view.heard("invoices", computer))
        out[f"unheard:{computer}"] = Note(f"unheard:{computer}", title, body, Action.COMPUTERS)
    for computer, parts in silent_keepers(view).items():
        # One note per silent computer, whichever parts it keeps, once while it stays silent.
        heard = view.parts[parts[0]].status.heard
        key = f"silent:{computer}"
        take = Action.TAKE_INVOICES if "invoices" in parts else None
        out[key] = Note(key, *phrases.silent_keeper(view.shown_name(computer), parts, heard),
                        take)  # fmt: skip
    for part in idle_keepers(view):
        p = view.parts[part]
        key = f"idle:{part}:{p.computer}"
        title, body = phrases.idle_keeper(view.names(p.computer, p.name), part)
        out[key] = Note(key, title, body, Action.TAKE_INVOICES if part == "invoices" else None)
    paused = [p for p in PARTS if p in view.paused]
    if paused:
        key = f"paused:{','.join(paused)}"
        out[key] = Note(key, *phrases.closed_here(paused), Action.REOPEN)
    for part, problem in view.worrying_problems():
        key = f"problem:{part}/{problem.file}:{problem.reason}"
        out[key] = Note(key, phrases.notice("unreadable", "invoices"),
                        f"leases/{part}/{problem.file}: {translated(problem.reason)}",
                        Action.COMPUTERS)  # fmt: skip
    for computer, offset in view.offsets.items():
        if abs(offset) > CLOCK_WARNING:
            key = f"clock:{computer}"
            out[key] = Note(key, *phrases.clock_off(view.shown_name(computer), offset))
    return out


class NoteFilter:
    """Decides which notes to send: each handover once, each warning once while it stands,
    nothing while quiet (just after a wake, when the catch-up is not news)."""

    def __init__(
        self,
        send: Callable[[Note], None],
        record: Callable[[list[Note]], None] = lambda notes: None,
    ) -> None:
        self.send = send
        self.record = record  # every change of hands, quiet or not (`sioul_tray.history`)
        self.before: View | None = None
        self.warned: set[str] = set()
        self.quiet_until = 0.0

    def quiet(self, until: float) -> None:
        self.quiet_until = max(self.quiet_until, until)

    def update(self, view: View, monotonic: float) -> list[Note]:
        quiet = monotonic < self.quiet_until
        changes = handovers(self.before, view)
        self.record(changes)  # the catch-up after a wake is not news, but it is history
        sent = [] if quiet else changes
        self.before = view
        standing = warnings(view)
        self.warned &= set(standing)  # a warning that cleared may be sent again if it returns
        if not quiet:
            for key, note in standing.items():
                if key not in self.warned:
                    self.warned.add(key)
                    sent.append(note)
        for note in sent:
            self.send(note)
        return sent
