"""The tray's loop, without Qt: what to do at each event, and what to publish and notify.

The events: a tick (every RENEW of the folder's `Timing`), a change in the sharing folder (read
again shortly after), the end of a settling the driver asked to be woken for (`recheck`), a take, a
declaration of a computer gone, a part closed or reopened by the person, Sioul's mark (`mark`),
sleep and wake, quit. For each, the driver calls the core's `Lease`, turns what it says into a
`View` (`model.View`), sends it to `publish`, and the notes a person should see to `notify`. When
to call belongs to the adapter that drives it: the Qt controller (`controller.Controller`: QTimers,
a folder watcher) in the tray, the event loop of tests/simulation in the simulator. Whether the
machine slept or its clock was set is the core's to see (`Snapshot.jumped`, in the `Reading` of
each call), not the loop's.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sioul_tray import history
from sioul_tray.boot import boot_id, boot_ticks
from sioul_tray.client import judge
from sioul_tray.files import NotReadable, make_folders, read_bounded, write_new
from sioul_tray.i18n import App
from sioul_tray.lease import PARTS, Keeper, Timing
from sioul_tray.lease.folder import Problem
from sioul_tray.lease.lease import Reading, Snapshot
from sioul_tray.lease.status import Why
from sioul_tray.tray import model
from sioul_tray.tray.model import Note, View

if TYPE_CHECKING:
    from sioul_tray.sync.report import SyncReport


REREAD_DELAY = 0.1  # a change in the folder is read this long after it settles (a burst of files)
QUIET_AFTER_WAKE = 10.0  # after a wake, the catch-up is not news: no notes this long (seconds)
RECHECK_MARGIN = 1.0  # a settling part is read again this long after its `until` (whole seconds)


class LeaseLike(Protocol):
    """What the driver asks of the core (`lease.Lease`)."""

    @property
    def timing(self) -> Timing: ...  # the folder's: a tick every `renew`

    def renew(
        self,
        part: str,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        *,
        confirm: bool = False,
    ) -> Keeper: ...
    def tick(
        self,
        part: str,
        *,
        renew: bool = True,
        active: float | None = None,
        wrote: int | None = None,
        take: bool = False,
    ) -> Reading: ...
    def close(self, part: str, wrote: int | None = None) -> None: ...
    def forget(self, computer: str) -> None: ...
    def forget_counts_from(self, computer: str) -> int | None: ...
    def forget_stands_on_close(self, computer: str) -> bool: ...
    # For the Computers window (`listing.read`); the loop has each call's in its `Reading`.
    def last_read(self, part: str) -> Snapshot: ...


class ActiveLike(Protocol):
    """When the person was last at this computer (`desktop.idle`)."""

    @property
    def name(self) -> str: ...
    @property
    def known(self) -> bool: ...
    def active(self, now: float) -> int: ...


def write_status(path: Path, content: dict[str, Any]) -> None:
    """Atomically: a reader sees the old file or the new one, never half of one; never written
    through a link planted beside it (`files.write_new`)."""
    make_folders(path.parent, 0o700)
    data = json.dumps(content, indent=1, sort_keys=True).encode("utf-8")
    write_new(path, data, replace=True, mode=0o644)


class Driver:
    """One installation's loop over the core: call its methods for events, read `view`.

    `publish(view)` receives each new View; `notify(note)` each note a person should see;
    `woke()` is called when the machine slept without telling or its clock was set (the tray
    shows its icon again then). `recheck(seconds)` asks the adapter to call `reread` that many
    seconds from now (one pending request: a new one replaces it): a part kept here settles
    then, and acting at that moment rather than at the next tick is up to a RENEW sooner.
    `state_dir`: where status.json and closed.json live (None: no
    files, as in the simulator).
    """

    def __init__(
        self,
        lease: LeaseLike,
        computer: str,
        active: ActiveLike,
        state_dir: Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        ticks: Callable[[], float] = boot_ticks,
        publish: Callable[[View], None] = lambda view: None,
        notify: Callable[[Note], None] = lambda note: None,
        woke: Callable[[], None] = lambda: None,
        recheck: Callable[[float], None] = lambda seconds: None,
        away_after: float | None = None,
    ) -> None:
        self.lease = lease
        self.timing = lease.timing
        self.computer = computer
        self.active = active
        self.clock = clock
        self.monotonic = monotonic
        self.ticks = ticks
        self.boot = boot_id() if ticks is boot_ticks else None
        # Each part this computer acts on: when (wall, ticks) the renew that said so began. A
        # verdict holds RENEW from then (docs/protocol.md, "When this computer acts"): status.json
        # says until when, so that a tray stopped or asleep cannot leave Sioul acting on it.
        self.bounds: dict[str, tuple[float, float]] = {}
        self.publish = publish
        self.woke = woke
        self.recheck = recheck
        # A machine that sleeps when idle: close both parts once the person has been away this
        # long (seconds), reopen when they are back (None: never, as a desktop that stays on).
        self.away_after = away_after
        self.away = False
        self.status_path = Path(state_dir) / "status.json" if state_dir is not None else None
        # Parts closed on request (`sioul-tray close PART`): kept closed across restarts of the
        # tray until `sioul-tray renew`, as the person asked.
        self.paused_path = Path(state_dir) / "closed.json" if state_dir is not None else None
        self.paused: set[str] = self._load_paused()
        self.wrote: dict[str, int | None] = dict.fromkeys(PARTS)
        self.view: View | None = None
        self.running = False
        self.asleep = False
        self._closed = False
        self._status: dict[str, Any] | None = None
        self.status_error: str | None = None  # why status.json could not be written, if so
        self.history_path = history.path_in(state_dir) if state_dir is not None else None
        self.notifier = model.NoteFilter(notify, record=self._remember)
        # What the sync tool says of the folder (`sync.report`), where the tray can ask it.
        self.sync_report: Callable[[], SyncReport | None] = lambda: None

    def _remember(self, notes: list[Note]) -> None:
        """Each change of hands into the history (`sioul-tray history`, the Computers window).
        A convenience: a file that cannot be written loses the entry, never stops the tray."""
        if self.history_path is None or not notes:
            return
        changes = [n.change for n in notes if n.change is not None]
        with contextlib.suppress(OSError):
            history.record(self.history_path, changes)

    # -- the loop ------------------------------------------------------------------------

    def start(self) -> None:
        self.running = True
        self._closed = False
        self.tick()

    def tick(self, take: str | None = None) -> Reading | None:
        """Renew both parts (the timer, a wake, a request); a part closed on request is read,
        and both while the person is away (`_go_away`). `take`: a part this computer takes on
        purpose in this tick, renewed whatever else (a take's reading, or None when no part was
        taken)."""
        if not self.running or self.asleep:
            return None
        now = self.clock()
        active = self.active.active(now)
        away = self.away_after is not None and self.active.known and now - active >= self.away_after
        if away:
            self._go_away()
        else:
            if self.away:
                # Back: what changed while away is the catch-up of the person's own leaving, as
                # after a wake; the menu shows it.
                self.notifier.quiet(self.monotonic() + QUIET_AFTER_WAKE)
            self.away = False
            self._closed = False
        readings, error = self._call(renew=not away, active=active, take=take)
        if not away and any(r.seen.jumped for r in readings.values()):
            # The core saw the machine sleep without telling, or its clock set: the catch-up
            # that follows is not news, and the tray host may have lost the icon.
            self.notifier.quiet(self.monotonic() + QUIET_AFTER_WAKE)
            self.woke()
        self._publish(readings, error)
        return readings.get(take) if take is not None else None

    def _go_away(self) -> None:
        """The person left a machine that sleeps when idle: close both parts now (their closes
        leave long before the idle sleep, whatever the sync tool) and only read until they are
        back; the next tick with the person here renews, which reopens them."""
        if not self.away:
            self.close_claims()
            self.away = True
        # Nobody is here to read a note: none while away (until the next tick, renewed at each);
        # a standing warning is sent once the person is back.
        self.notifier.quiet(self.monotonic() + self.timing.renew + 5)

    def _call(
        self, *, renew: bool, active: float | None = None, take: str | None = None
    ) -> tuple[dict[str, Reading], str | None]:
        """Renew each part (but those closed on request), or only read them (`renew` False);
        each verdict bounds acting. A part that cannot be read is left out, with the error. The
        part taken (`take`) is renewed, taken, in any case; what stops that is raised."""
        readings: dict[str, Reading] = {}
        error = None
        for part in PARTS:
            began = self._began(part)
            try:
                readings[part] = self.lease.tick(
                    part,
                    renew=(renew and part not in self.paused) or part == take,
                    active=active,
                    wrote=self.wrote[part],
                    take=part == take,
                )
            except OSError as exc:
                if part == take:
                    raise
                error = describe(exc)
                continue
            self._bound(part, readings[part].keeper, began)
        return readings, error

    def _began(self, part: str) -> tuple[float, float]:
        """A call on `part` begins: its old bound ends, and the new one counts from now."""
        self.bounds.pop(part, None)
        return self.clock(), self.ticks()

    def _bound(self, part: str, keeper: Keeper, began: tuple[float, float]) -> None:
        """The call that began at `began` said `keeper`: a verdict to act holds from then."""
        if keeper.acting and part not in self.paused and not self.away:
            self.bounds[part] = began

    def reread(self) -> None:
        """Read again without writing (a claim arrived); renew at once if a keeper changed: the
        acknowledgement is what the handover waits on."""
        if not self.running or self.asleep:
            return
        readings, error = self._call(renew=False)
        before = self.view
        changed = before is not None and any(
            part in before.parts and before.parts[part].computer != reading.keeper.computer
            for part, reading in readings.items()
        )
        if changed:
            self.tick()
        else:
            self._publish(readings, error)

    # -- the person's requests -----------------------------------------------------------

    def take(self, part: str = "invoices") -> Keeper:
        """A take ("Make invoices here") carried by a tick, now: one read and one write per part,
        even while the person is away; asleep or stopped, by a renew of its own."""
        self._closed = False  # open again, even while away: sleep and quit close it
        reading = self.tick(take=part)
        if reading is not None:
            return reading.keeper
        return self.lease.renew(
            part, active=self.active.active(self.clock()), take=True, wrote=self.wrote[part]
        )

    def forget(self, computer: str) -> None:
        self.lease.forget(computer)
        self.tick()

    def forget_counts_from(self, computer: str) -> int | None:
        """When a declaration that `computer` is gone would count here (None: at once), as the
        core's last read says (`Lease.forget_counts_from`)."""
        return self.lease.forget_counts_from(computer)

    def forget_stands_on_close(self, computer: str) -> bool:
        """A declaration that `computer` is gone cannot count here until it is heard
        (`Lease.forget_stands_on_close`)."""
        return self.lease.forget_stands_on_close(computer)

    def pause(self, parts: list[str]) -> OSError | None:
        """Close these parts and keep them closed until `unpause` (the command line's close),
        across restarts through closed.json. What stopped that file being written, if anything:
        the parts stay closed all the same while this process runs, and the person is told."""
        for part in parts:
            self.bounds.pop(part, None)
            self.lease.close(part, wrote=self.wrote[part])
            self.paused.add(part)
        failed = self._save_paused()
        self.tick()
        return failed

    def unpause(self, parts: list[str]) -> OSError | None:
        """Renew these parts again; what stopped closed.json being written, as for `pause`."""
        self.paused -= set(parts)
        failed = self._save_paused()
        self.tick()
        return failed

    def mark(self, part: str, wrote: int, token: str, by: float | None = None) -> str | None:
        """Sioul's records on `part` here reach `wrote`, the last made under `token`: carry that
        mark in this computer's claim, and say so only once it is written (None), else why not.

        The mark is taken only while this computer acts on the part under that token, within
        the verdict's bound, which is when no other computer acts (docs/integration.md): any
        claim that hands the part on is written after it, so carries it, and a successor waits
        for those records. A record whose mark is refused was never made (a void record): the
        part may already have been handed on with the mark before it. `by`: the boot-clock time
        after which the asker no longer waits for the answer (`tray.client.through_tray`)."""
        if part not in PARTS:
            raise ValueError(f"no part named {part!r}")
        if by is not None and self.ticks() > by:
            return App.tr(
                "the mark came {late:.0f} s after the asking command gave up waiting: not taken"
            ).format(late=self.ticks() - by)
        if not self._acts_under(part, token):
            return App.tr(
                "this computer does not act on {part} under {token} now: the records made "
                "after the last mark are void"
            ).format(part=part, token=token)
        carried = self._carried(part)
        if wrote < carried:
            return App.tr(
                "{wrote} is below the mark this computer's claim carries ({carried})"
            ).format(wrote=wrote, carried=carried)
        before, self.wrote[part] = self.wrote[part], wrote
        self.tick()  # the renew carries it, and status.json says it
        if self._carried(part) < wrote:
            self.wrote[part] = before  # not written: the next claim must not carry it either
            return App.tr("the mark could not be written: {error}").format(
                error=(self.view.error if self.view else None) or "?"
            )
        return None

    def confirm(self, part: str, wrote: int) -> str | None:
        """The person vouches that this computer's records on `part` count up to `wrote`, where
        the core cannot prove its mark (its state lost: the status says the mark is unknown,
        S6). Carried in the claim, and the state file, before it is said done (None), else why
        not. The core never writes a mark lower than one it read of this computer."""
        if part not in PARTS:
            raise ValueError(f"no part named {part!r}")
        self._closed = False
        self.lease.renew(part, active=self.active.active(self.clock()), wrote=wrote, confirm=True)
        self.wrote[part] = wrote
        self.tick()
        if self._carried(part) < wrote:
            return App.tr("the mark could not be written: {error}").format(
                error=(self.view.error if self.view else None) or "?"
            )
        return None

    def _acts_under(self, part: str, token: str) -> bool:
        """This computer acts on `part` under `token` now, as Sioul's own check of status.json
        finds it (`client.judge`: acting, and within the verdict's bound on both clocks)."""
        doc = self.status(running=self.running and not self.asleep)
        found = judge(part, doc, now=self.clock(), ticks=self.ticks(), alive=lambda _pid: True)
        return found.may and found.token == token

    def _carried(self, part: str) -> int:
        """The `wrote` mark of this computer's claim on `part`, as the last published call read
        or wrote it (0: that call failed on `part`, or none was made)."""
        seen = self.view.seen.get(part) if self.view is not None else None
        mine = (c for c in (seen.claims if seen is not None else ()) if c.computer == self.computer)
        return next((c.wrote for c in mine), 0)

    # -- sleep, wake, quit ---------------------------------------------------------------

    def close_claims(self) -> None:
        """Close both parts (with `wrote`): nothing is marked here until the next renew."""
        self.bounds.clear()
        if self._closed:
            return
        for part in PARTS:
            with contextlib.suppress(OSError):
                self.lease.close(part, wrote=self.wrote[part])
        self._closed = True

    def suspend(self) -> None:
        """Before sleep: close both claims and stop renewing until `resume`."""
        self.asleep = True
        self.close_claims()
        self._write_status(running=False)

    def resume(self) -> None:
        """After wake: renew at once, quietly."""
        if not self.running:
            return
        self.asleep = False
        self.notifier.quiet(self.monotonic() + QUIET_AFTER_WAKE)
        self.tick()
        self.woke()

    def shutdown(self) -> None:
        """Quit, SIGTERM, SIGINT, end of session: close both parts before the process exits."""
        if not self.running:
            return
        self.running = False
        self.close_claims()
        self._write_status(running=False)

    # -- what is published ---------------------------------------------------------------

    def _publish(self, readings: dict[str, Reading], error: str | None) -> None:
        parts: dict[str, Keeper] = {}
        seen_parts: dict[str, Snapshot] = {}
        offsets: dict[str, int] = {}
        problems: list[tuple[str, Problem]] = []
        for part, (keeper, seen) in readings.items():
            parts[part] = keeper
            seen_parts[part] = seen
            for computer, offset in seen.offsets.items():
                if abs(offset) > abs(offsets.get(computer, 0)):
                    offsets[computer] = offset
            problems += [(part, problem) for problem in seen.problems]
        if not parts and self.view is not None:
            parts = dict(self.view.parts)  # keep showing the last known keepers with the error
        view = View(
            computer=self.computer,
            now=self.clock(),
            parts=parts,
            seen=seen_parts,
            offsets=offsets,
            problems=tuple(problems),
            idle_source=self.active.name,
            idle_known=self.active.known,
            error=error or self.status_error,
            state_problem=getattr(self.lease, "state_problem", None),
            name=getattr(self.lease, "name", ""),
            timing=self.timing,
            sync=self.sync_report(),
            paused=frozenset(self.paused),
        )
        self.view = view
        self.notifier.update(view, self.monotonic())
        self._write_status(running=True)
        self.publish(view)
        self._ask_recheck([r.keeper for r in readings.values()], view.now)

    def _ask_recheck(self, keepers: list[Keeper], now: float) -> None:
        """A part kept here settles at its `until`: be woken then, not at the next tick. A part
        acted on is read again halfway to the next tick, so that its verdict's bound (RENEW
        from the call) is renewed well before it passes and Sioul never sees it lapse."""
        due: list[float] = [
            k.status.until
            for k in keepers
            if k.status.why is Why.SETTLING and k.status.until is not None
        ]
        if self.bounds:
            due.append(now + self.timing.renew / 2 - RECHECK_MARGIN)
        if due:
            self.recheck(max(0.0, min(due) - now) + RECHECK_MARGIN)

    def status(self, running: bool) -> dict[str, Any]:
        """What status.json says now (`model.status`): the `look` request answers it too."""
        bounds = self.bounds if running else {}
        return model.status(
            self.view, self.computer, os.getpid(), running, self.clock(), bounds, self.boot
        )

    def _write_status(self, running: bool) -> None:
        """status.json, on each change. One that cannot be written is removed (a reader finds no
        verdict rather than an old one), tried again at the next tick, and said in the menu."""
        if self.status_path is None:
            return
        content = self.status(running)
        comparable = {k: v for k, v in content.items() if k != "at"}
        if self._status == comparable and running:
            return
        self._status = None
        try:
            write_status(self.status_path, content)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.unlink(self.status_path)
            self.status_error = describe(e)
            return
        self._status = comparable
        self.status_error = None

    def _load_paused(self) -> set[str]:
        if self.paused_path is None:
            return set()
        try:
            # A list of parts: a few bytes. A FIFO here kept the tray from ever answering.
            content = json.loads(read_bounded(self.paused_path, 4096))
        except FileNotFoundError:
            return set()
        except (NotReadable, ValueError, RecursionError):
            return set()  # unreadable: both parts renew, as before any `close`
        parts = content.get("closed") if isinstance(content, dict) else None
        return {p for p in parts if p in PARTS} if isinstance(parts, list) else set()

    def _save_paused(self) -> OSError | None:
        if self.paused_path is None:
            return None
        try:
            write_status(self.paused_path, {"closed": sorted(self.paused)})
        except OSError as e:
            return e
        return None


def describe(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"
