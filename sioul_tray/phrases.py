"""The phrasebook: a part's status (`lease.status.Status`) in words. No Qt here.

One place for the words that the tray's menu, the command line and the notifications say of a
part: none of them applies a rule of the lease again, they say what the core decided. Texts are
in context "Phrase" (translated like every other, `sioul_tray.i18n`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sioul_tray.i18n import Notification, Phrase
from sioul_tray.lease.status import Status, Waited, Why
from sioul_tray.timefmt import clock_time, countdown, span

if TYPE_CHECKING:
    from sioul_tray.sync.report import SyncReport


def label(part: str) -> str:
    """A part's name as people read it."""
    if part == "medicines":
        return Phrase.tr("Medicines")
    if part == "invoices":
        return Phrase.tr("Invoices")
    return part.capitalize()


class Names:
    """Computers' names as shown: a name two computers share gets the id that tells them apart.

    `known`: (computer id, name) of every computer in view, this one included. Names are the
    person's to choose and default to the host name, so two "vm"s are common: "vm (vm_k3x9)".
    """

    def __init__(self, known: Iterable[tuple[str, str | None]] = ()) -> None:
        owners: dict[str, set[str]] = {}
        for computer, name in known:
            if name:
                owners.setdefault(name.casefold(), set()).add(computer)
        self.shared = frozenset(n for n, computers in owners.items() if len(computers) > 1)

    def __call__(self, computer: str | None, name: str | None) -> str:
        if not name:
            return computer or "?"
        if computer and name.casefold() in self.shared:
            return Phrase.tr("{name} ({computer})").format(name=name, computer=computer)
        return name


PLAIN = Names()


def part_line(part: str, status: Status, names: Names = PLAIN, now: float | None = None) -> str:
    """One line: who keeps the part, and why it waits when it does. With `now` (the wall clock),
    a part settling here says how long it has left ("Invoices: here in 1 min 40 s")."""
    name = label(part)
    why = status.why
    if status.cause == "mark":  # here or, its claims handing nothing on, at the keeper
        return Phrase.tr("{part}: stopped, this computer's records mark is unknown").format(
            part=name
        )
    if why is Why.NOBODY:
        return Phrase.tr("{part}: no computer keeps them").format(part=name)
    if why is Why.ELSEWHERE:
        return elsewhere_line(part, status, names)
    if why is Why.ACTING:
        return Phrase.tr("{part}: here").format(part=name)
    if why is Why.SETTLING:
        if status.until is None:
            return Phrase.tr("{part}: here (settling)").format(part=name)
        if now is not None:
            if status.until <= now:
                return Phrase.tr("{part}: here in a moment").format(part=name)
            return Phrase.tr("{part}: here in {left}").format(
                part=name, left=countdown(status.until - now)
            )
        return Phrase.tr("{part}: here from {time} (settling)").format(
            part=name, time=clock_time(status.until)
        )
    if why is Why.WAITING:
        morning = morning_line(part, status, names)
        if morning is not None:
            return morning
        waiting = waiting_text(status.waiting, names)
        if status.stalled:
            return Phrase.tr("{part}: here, {waiting} (is the sync running?)").format(
                part=name, waiting=waiting
            )
        return Phrase.tr("{part}: here, {waiting}").format(part=name, waiting=waiting)
    if why is Why.ALONE:
        return Phrase.tr("{part}: here, waiting to hear another computer").format(part=name)
    if why is Why.AWAY:
        return Phrase.tr("{part}: here, paused while you are away").format(part=name)
    if status.cause == "clone":
        return Phrase.tr("{part}: stopped, another computer uses this computer's id").format(
            part=name
        )
    return Phrase.tr("{part}: stopped, the sharing folder's seal changed").format(part=name)


def elsewhere_line(part: str, status: Status, names: Names = PLAIN) -> str:
    """Another computer keeps the part: whether it acts, as its claim says and as it is heard.

    Silent (not heard within ALIVE) is said whatever its last claim said: a keeper whose tray
    was killed still reads "acting" in its last claim. A keeper that does not act long after it
    took the part (`Status.idle`: a take by the command line with no tray there, most often) is
    not "not numbering yet": nothing numbers there until its tray runs."""
    name = label(part)
    who = names(status.keeper, status.name)
    if not status.live:
        if status.heard is None:
            return Phrase.tr("{part}: {computer}, silent").format(part=name, computer=who)
        return Phrase.tr("{part}: {computer}, silent since {time}").format(
            part=name, computer=who, time=clock_time(status.heard)
        )
    if status.acts is False:  # its claim says it does not act: say so, not "since"
        if status.idle:
            line = (
                Phrase.tr("{part}: {computer}, not numbering (is sioul-tray running there?)")
                if part == "invoices"
                else Phrase.tr("{part}: {computer}, not reminding (is sioul-tray running there?)")
            )
        elif part == "invoices":  # settling there, or taken by a command with no tray
            line = Phrase.tr("{part}: {computer} (not numbering yet)")
        else:
            line = Phrase.tr("{part}: {computer} (not reminding yet)")
        return line.format(part=name, computer=who)
    if status.since is None:
        return Phrase.tr("{part}: {computer}").format(part=name, computer=who)
    if status.taken:  # the keeper's own take, by its clock
        return Phrase.tr("{part}: {computer} (since {time})").format(
            part=name, computer=who, time=clock_time(status.since)
        )
    # Kept since before this computer saw it (it started, or joined, later): say what it is.
    return Phrase.tr("{part}: {computer} (seen since {time})").format(
        part=name, computer=who, time=clock_time(status.since)
    )


def waiting_text(waiting: Iterable[Waited], names: Names = PLAIN) -> str:
    """ "waiting for Laptop, last heard 10:12; Office PC, not heard yet" (two named at most)."""
    said = [waited_text(w, names) for w in waiting]
    if len(said) > 2:
        said = [*said[:2], Phrase.tr("%n more", None, len(said) - 2)]
    return Phrase.tr("waiting for {computers}").format(computers="; ".join(said))


def waited_text(w: Waited, names: Names = PLAIN) -> str:
    """ "Laptop, last heard 10:12", or "Office PC, not heard yet"."""
    if w.unheard:
        # Known by the tag alone (`keeper.unheard_id`): the menu offers to treat it as gone by
        # it, and `sioul-tray forget` takes it.
        return Phrase.tr("a computer the others know ({id}), not heard here yet").format(
            id=w.computer
        )
    who = names(w.computer, w.name)
    if w.on_close:
        # Its declaration cannot count: it may be numbering on this computer's close for good.
        return Phrase.tr("{name}, declared gone: start it with its sync").format(name=who)
    if w.counts_from is not None:
        return Phrase.tr("{name}, declared gone: counts as gone from {time}").format(
            name=who, time=clock_time(w.counts_from)
        )
    if w.closed and w.last:
        # It numbered last before every computer closed: it numbers alone when it starts.
        return Phrase.tr("{name}, last to number: start it with its sync").format(name=who)
    if w.closed:
        # Asleep or quit, and it may count this computer's close: both woken apart would act.
        return Phrase.tr("{name}, closed: start it for a minute with its sync running").format(
            name=who
        )
    if w.heard is not None:
        return Phrase.tr("{name}, last heard {time}").format(name=who, time=clock_time(w.heard))
    return Phrase.tr("{name}, not heard yet").format(name=who)


def waiting_lines(part: str, status: Status, names: Names = PLAIN) -> list[str]:
    """A wait here in the menu's lines: `part_line`'s words, but each computer waited for on a line
    of its own when there are several, and the guess about the sync on its own line (one line would
    run off a small screen, in French first)."""
    waiting = status.waiting
    lines = []
    morning = morning_line(part, status, names)
    if morning is not None:
        lines.append(morning)
    elif len(waiting) == 1:
        text = Phrase.tr("{part}: here, {waiting}")
        lines.append(text.format(part=label(part), waiting=waiting_text(waiting, names)))
    else:
        text = Phrase.tr("{part}: here, waiting for %n computers", None, len(waiting))
        lines.append(text.format(part=label(part)))
        lines += [INDENT + waited_text(w, names) for w in waiting[:3]]
        if len(waiting) > 3:
            lines.append(INDENT + Phrase.tr("%n more", None, len(waiting) - 3))
    if status.stalled:
        lines.append(Phrase.tr("Nothing heard from them lately: is the sync running?"))
    return lines


INDENT = "    "  # the menu's lines under a part's line


def morning_line(part: str, status: Status, names: Names = PLAIN) -> str | None:
    """The morning after, in one line: this computer started alone and waits for the one computer
    that numbered last before every computer closed ("Invoices: waiting for Laptop, last to
    number: start it with its sync"). None for any other wait."""
    if status.why is not Why.WAITING or len(status.waiting) != 1 or status.stalled:
        return None
    (w,) = status.waiting
    if not (w.closed and w.last):
        return None
    # One line, short enough for a small screen's menu in French too (tests/tray, the shots).
    return Phrase.tr(
        "{part}: waiting for {computer}, last to number: start it with its sync"
    ).format(part=label(part), computer=names(w.computer, w.name))


def unattended_line(part: str) -> str:
    """The command line's line for a part kept here when no tray runs: it cannot act."""
    return Phrase.tr("{part}: kept here; no tray runs, so nothing acts here").format(
        part=label(part)
    )


def sync_lines(report: SyncReport) -> list[str]:
    """What Syncthing knows of the folder's sync, in words (`sync.report`)."""
    if not report.answering:
        return [Phrase.tr("Syncthing does not answer (is it running?)")]
    lines = []
    if report.paused:
        lines.append(Phrase.tr("Syncthing has paused the sharing folder"))
    for device in report.unconnected[:3]:
        if device.last_seen is None:
            lines.append(
                Phrase.tr("Syncthing has never been connected to {device}").format(
                    device=device.name
                )
            )
        else:
            lines.append(
                Phrase.tr("Syncthing is not connected to {device} since {time}").format(
                    device=device.name, time=clock_time(device.last_seen)
                )
            )
    return lines


# -- notifications -----------------------------------------------------------------------------


def notice(kind: str, part: str) -> str:
    """A notification's text of `kind` for `part`, in the language installed now. Each is
    written out whole (the translators' tools read them here), as a table of (medicines,
    invoices)."""
    texts = {
        # The new keeper acts once it has kept the part SETTLING, as it sees it: not yet.
        # It acts once its tray has kept the part SETTLING, if a tray runs there: not yet, and
        # never for a take by the command line with no tray there (its claim does not say which).
        "moves": (
            Notification.tr("Medicine reminders move to {computer}"),
            Notification.tr("Invoices move to {computer}"),
        ),
        "moves then": (
            Notification.tr(
                "It reminds them once its sioul-tray has kept them for 2 minutes; while no "
                "sioul-tray runs there, nothing reminds them."
            ),
            Notification.tr(
                "It numbers them once its sioul-tray has kept them for 2 minutes; while no "
                "sioul-tray runs there, nothing numbers them."
            ),
        ),
        # ...and once its claim says it acts.
        "made": (
            Notification.tr("Medicine reminders are now on {computer}"),
            Notification.tr("Invoices are now made on {computer}"),
        ),
        "left": (
            Notification.tr("This computer no longer reminds medicines."),
            Notification.tr("This computer no longer makes invoices."),
        ),
        "here": (
            Notification.tr("Medicine reminders are here now"),
            Notification.tr("Invoices are made here now"),
        ),
        "paused": (
            Notification.tr("Medicine reminders paused here"),
            Notification.tr("Invoices paused here"),
        ),
        "nobody": (
            Notification.tr("No computer keeps medicines now"),
            Notification.tr("No computer keeps invoices now"),
        ),
        # What the person can do, rather than the title again.
        "nobody then": (
            Notification.tr("The next computer you use takes them over."),
            Notification.tr("Choose “Make invoices here” on the computer that should number them."),
        ),
    }
    # Warnings, the same whatever the part (a seal stops invoices alone).
    unreadable = Notification.tr("A claim in the sharing folder does not read")
    sealed = Notification.tr("Invoices stopped: the seal changed")
    texts["unreadable"], texts["sealed"] = (unreadable, unreadable), (sealed, sealed)
    medicines, invoices = texts[kind]
    return medicines if part == "medicines" else invoices


def handover(
    kind: str, part: str, computer: str = "", left: bool = False, status: Status | None = None
) -> tuple[str, str]:
    """A change of hands in words, the notification's title and body, in the language installed
    now: for the note when it happens and for the history whenever it is read (`history`).
    `kind`: "here", "paused" (with the part's `status` then), "nobody", "moves" (to `computer`,
    not acting there yet), "made" (acting there); `left`: this computer stopped acting."""
    if kind == "here":
        return notice("here", part), ""  # the title says it all
    if kind == "paused":
        return notice("paused", part), part_line(part, status) if status is not None else ""
    if kind == "nobody":
        return notice("nobody", part), notice("nobody then", part)
    title = notice(kind, part).format(computer=computer)
    said = [notice("left", part)] if left else []
    if kind == "moves":
        said.append(notice("moves then", part))
    return title, " ".join(said)


def silent_keeper(name: str, parts: list[str], heard: float | None) -> tuple[str, str]:
    """The title and body of the warning that a computer keeping `parts` is silent (not heard
    within ALIVE): its tray was killed, or its sync stopped."""
    if len(parts) == 2:
        body = Notification.tr(
            "It keeps medicines and invoices and has not been heard from since {time}. Is "
            "sioul-tray running there, and its sync? If it has stopped, nothing reminds or "
            "numbers them: choose “Make invoices here” on the computer that should number them."
        )
    elif parts == ["medicines"]:
        body = Notification.tr(
            "It keeps medicines and has not been heard from since {time}. Is sioul-tray "
            "running there, and its sync?"
        )
    else:
        body = Notification.tr(
            "It keeps invoices and has not been heard from since {time}. Is sioul-tray running "
            "there, and its sync? If it has stopped, nothing numbers them: choose “Make "
            "invoices here” on the computer that should number them."
        )
    title = Notification.tr("{computer} is silent").format(computer=name)
    return title, body.format(time=clock_time(heard) if heard is not None else "?")


def idle_keeper(name: str, part: str) -> tuple[str, str]:
    """The title and body of the warning that a computer keeps `part` without acting on it, long
    after it took it (a take by the command line where no tray runs, most often)."""
    if part == "invoices":
        title = Notification.tr("{computer} keeps invoices but does not number them")
        body = Notification.tr(
            "Nothing numbers invoices until sioul-tray runs on {computer}: start it there, or "
            "choose “Make invoices here”."
        )
    else:
        title = Notification.tr("{computer} keeps medicines but does not remind them")
        body = Notification.tr(
            "Nothing reminds medicines until sioul-tray runs on {computer}: start it there."
        )
    return title.format(computer=name), body.format(computer=name)


def closed_here(parts: list[str]) -> tuple[str, str]:
    """The title and body of the warning that parts are closed here by `sioul-tray close`: kept
    closed across restarts until reopened."""
    if len(parts) == 2:
        title = Notification.tr("Medicines and invoices are closed on this computer")
    elif parts == ["medicines"]:
        title = Notification.tr("Medicines are closed on this computer")
    else:
        title = Notification.tr("Invoices are closed on this computer")
    body = Notification.tr(
        "Closed by “sioul-tray close”: this computer takes no part in them until you reopen "
        "them (“Reopen … here” in the menu, or sioul-tray renew)."
    )
    return title, body


def unheard(name: str, heard: float | None) -> tuple[str, str]:
    """The title and body of the warning that invoices wait for a computer not heard lately."""
    body = (
        Notification.tr(
            "{computer} has not been heard from since {time}. "
            "If it is gone for good, say so in the menu."
        )
        if heard is not None
        else Notification.tr(
            "{computer} has not been heard from yet. If it is gone for good, say so in the menu."
        )
    )
    title = Notification.tr("Invoices wait for {computer}").format(computer=name)
    return title, body.format(computer=name, time=clock_time(heard) if heard is not None else "")


def clock_off(name: str, offset: int) -> tuple[str, str]:
    """The title and body of the warning that a computer's clock differs from this one's."""
    body = (
        Notification.tr("It is {span} ahead of this computer's clock.")
        if offset > 0
        else Notification.tr("It is {span} behind this computer's clock.")
    )
    title = Notification.tr("{computer}'s clock is off")
    return title.format(computer=name), body.format(span=span(offset))
