"""`Lease`: one computer's claims in a sharing folder, and what it sees of everyone else's.

The I/O shell around the state machine (`machine.Machine`, one per part): it checks the folder's
seal, scans the part's folder (and any overlay), opens the seals, feeds the claims to the machine
with the time, writes the claim the machine returns, and keeps the state file. Every rule lives in
`rules`, `keeper` and `machine`; docs/protocol.md states them.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from sioul_tray.errors import ForeignSeal, SioulError, Unreadable
from sioul_tray.files import make_folders, write_atomic
from sioul_tray.i18n import Core
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.lease import codec, statefile
from sioul_tray.lease.folder import (
    CLAIM_NAME,
    Entry,
    Problem,
    file_size,
    linked_folder,
    read_folder,
    read_whole,
    remove_leftovers,
)
from sioul_tray.lease.host import boot_ticks, host_name, started
from sioul_tray.lease.keeper import Keeper
from sioul_tray.lease.machine import (
    Close,
    Forget,
    Heard,
    Knowledge,
    Look,
    Machine,
    Memory,
    Ready,
    Renew,
    Saved,
    new_tenure,
    wall_of,
    wall_seconds,
)
from sioul_tray.lease.overlay import Overlay
from sioul_tray.lease.rules import EVERY_FIX, PARTS, Claim, Fixes
from sioul_tray.share.seal import SEAL_NAME, Share, read_seal, timing_of
from sioul_tray.timing import Timing

MAX_DIAGNOSE = 256  # at most this many other paths are tried to explain a claim that does not open
MAX_DIAGNOSED = 16  # ...for at most this many claims a read (the others keep the plain reason)
# The other files of a read, where a claim that does not open may have been copied from: the
# folder's (name, bytes) pairs, or an overlay's entries.
Neighbours = Sequence[tuple[str, bytes]] | Sequence[Entry]


class Steady:
    """Ticks made from a wall clock that may be set: they follow it forward, never back.

    For a `Lease` given a clock of its own (tests, simulations) and no ticks: a clock set back
    then stands still for the lease, and one set forward counts as time gone by (as sleep would).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.last: float | None = None
        self.ticks = 0.0

    def __call__(self) -> float:
        now = float(self.clock())
        if self.last is None:
            self.ticks = now
        elif now > self.last:
            self.ticks += now - self.last
        self.last = now
        return self.ticks


class _Files:
    """What the shell keeps of one part's folder between reads."""

    def __init__(self) -> None:
        # Each file as last read: its bytes (the same bytes: the same write), its claim or reason.
        self.files: dict[str, tuple[bytes, Claim | None, str]] = {}
        # computer: (claim, its text) for the state file, the claim as the machine keeps it: one
        # whose mark the machine raised (`Fixes.marks_kept`) is another object, encoded again.
        self.texts: dict[str, tuple[Claim, str]] = {}
        self.problems: list[Problem] = []
        self.foreign: set[str] = set()  # claim files sealed with another key, as last read
        self.made_folder = False


class Lease:
    """This computer's claims on the parts of a sharing folder.

    `clock` returns Unix seconds; `state_dir=None` keeps the local state in memory only. Several
    Leases with their own clocks and state can share one folder in one process. `ticks` returns
    seconds of a clock that is never set and counts sleep: by default the system's boot clock
    with the system's clock, else made from `clock` (`Steady`). `wrote_file` is told the path of
    each claim file written, once it is whole on disk (the sync tool may be asked to send it now);
    it must not block, and what it raises is not the lease's concern (it is ignored).
    `read_only`: a look beside the installation's one writer (the tray, or a command that holds
    its lock): it reads the state file but never saves it, removes no temporary and writes no
    claim (SioulError). `fixes`: the protocol's fixes applied, all of them (`rules.Fixes`); the
    tests that show what one fixes switch it off, never the tray nor the command line.
    """

    def __init__(
        self,
        share: Share,
        computer: str,
        name: str | None = None,
        clock: Callable[[], float] = time.time,
        state_dir: str | os.PathLike[str] | None = None,
        overlays: Iterable[Overlay] = (),
        *,
        ticks: Callable[[], float] | None = None,
        tenure: Callable[[], int] | None = None,
        wrote_file: Callable[[Path], None] | None = None,
        read_only: bool = False,
        fixes: Fixes = EVERY_FIX,
    ) -> None:
        if not COMPUTER_ID.fullmatch(computer):
            raise SioulError(
                Core.mark(
                    "{computer} is not a computer id: use a-z, 0-9 and _ (1 to 63)",
                    computer=repr(computer),
                )
            )
        started()  # the process's start, as the first lease of the process asks it
        self.share = share
        self.computer = computer
        self.read_only = read_only
        self.name = codec.short_name(name if name is not None else host_name()) or computer
        self._clock = clock
        self._ticks = ticks or (boot_ticks if clock is time.time else Steady(clock))
        self._overlays = list(overlays)
        self._wrote_file = wrote_file
        self._files = {part: _Files() for part in PARTS}
        self._last: tuple[float, float] | None = None  # (wall, tick) of the last call
        self._state = (
            None
            if state_dir is None
            else statefile.state_file(state_dir, share.folder_id, computer)
        )
        self.state_problem: str | None = None
        got = statefile.Remembered()
        if self._state is not None:
            if share.made and not read_only and share.creator == computer:
                statefile.begin(self._state)  # the run that made the seal (S2)
            got = statefile.load(self._state)
            self.state_problem = got.problem
        share.made = False
        # Memory only: the caller vouches for this id. Else a state lost (missing or damaged)
        # makes the machines distrust what they cannot have witnessed (docs/protocol.md).
        remembers = self._state is None or (got.found and got.problem is None)
        self._machines: dict[str, Machine] = {}
        # What each machine's last step asked (its `Ready`): when the state file must be written.
        self._asked: dict[str, Ready] = {part: Ready() for part in PARTS}
        for part in PARTS:
            table = got.claims.get(part, {})
            for c, (claim, text) in table.items():
                self._files[part].texts[c] = (claim, text)
            remembered = Memory(
                {c: claim for c, (claim, _) in table.items()},
                dict(got.forgets.get(part, {})),
                dict(got.named.get(part, {})),
            )
            self._machines[part] = Machine(
                part,
                computer,
                self.name,
                created=share.creator == computer,
                remembered=remembered,
                remembers=remembers,
                tenure=tenure or new_tenure,
                fixes=fixes,
                timing=share.timing,
            )
        self._diagnosed = 0  # claims explained in this read (see `_copied_from`)
        self._candidates: tuple[Neighbours, list[str]] | None = None
        self._seal_stat: tuple[int, ...] | None = None
        self.seal_problem: str | None = None
        self._check_seal()
        if read_only:
            return  # the writer's temporaries may be its writes under way
        for part in PARTS:
            remove_leftovers(self._folder(part), computer)
        if self._state is not None:
            remove_leftovers(self._state.parent, self._state.stem)

    def __repr__(self) -> str:
        return f"Lease({self.computer!r}, {self.share!r})"

    @property
    def timing(self) -> Timing:
        """The protocol's times on this folder, as its seal says (`Share.timing`)."""
        return self.share.timing

    # -- the contract ---------------------------------------------------------------------

    def renew(
        self,
        part: str,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        *,
        confirm: bool = False,
    ) -> Keeper:
        """Write this computer's claim on `part` (open), then say who keeps it as seen here.
        `confirm`: the person vouches that this computer's records count up to `wrote`, where
        its mark could not be proven after its state was lost (`Knowledge.mark_unknown`, S6)."""
        self._writing()
        m, wall, tick = self._read(part)
        event = Renew(active, take, wrote, confirm)
        verdict = self._carry_out(part, m.step(event, wall, tick), tick)
        assert verdict is not None  # a renew says who keeps the part
        return verdict

    def close(self, part: str, wrote: int | None = None) -> None:
        """Close this computer's claim on `part`: it marks nothing until it renews again."""
        self._writing()
        m, wall, tick = self._read(part)
        self._carry_out(part, m.step(Close(wrote), wall, tick), tick)

    def look(self, part: str) -> Keeper:
        """Who keeps `part`, as read now, without claiming it."""
        m, wall, tick = self._read(part)
        verdict = self._carry_out(part, m.step(Look(), wall, tick), tick)
        assert verdict is not None  # a look says who keeps the part
        return verdict

    def tick(
        self,
        part: str,
        *,
        renew: bool = True,
        active: float | None = None,
        wrote: int | None = None,
        take: bool = False,
    ) -> Reading:
        """The tray's call on `part` at each tick: `renew` (`take`: on purpose, "Make invoices
        here"), or `look` with `renew=False`, and what that call read with the verdict, so that
        the loop asks nothing again."""
        keeper = self.renew(part, active, take, wrote) if renew else self.look(part)
        return Reading(keeper, self.last_read(part))

    def knowledge(self, part: str) -> Knowledge:
        """All this computer knows of `part` now, one frozen value (`machine.Knowledge`): for
        the invariants (`sioul_tray.lease.invariants`), which read it through its queries."""
        return self._machines[part].knowledge

    def claims(self, part: str) -> list[Claim]:
        """Every claim on `part` that reads, live or not, as last written by its computer."""
        m, _, tick = self._read(part)
        self._save(tick)
        return list(m.knowledge.best.values())  # in computer order (`Knowledge.best`)

    def forget(self, computer: str) -> None:
        """Declare `computer` gone for good on every part: its claims up to now count as closed.

        The declaration holds until that computer writes a newer claim (it came back). Refused,
        changing nothing, when this computer's claim has no room left for one more declaration
        (a claim file is at most 512 bytes).
        """
        self._writing()
        if computer == self.computer:
            raise SioulError(Core.mark("this computer cannot declare itself gone"))
        planned = []
        for part in PARTS:
            m, wall, tick = self._read(part)
            if m.knowledge.plan_forget(computer, wall) is not None:  # raises when it does not fit
                planned.append((part, m, wall, tick))
        if not planned:
            raise SioulError(
                Core.mark(
                    "no claim of {computer} was ever read here: nothing to forget",
                    computer=repr(computer),
                )
            )
        # Every part is checked before any is written: a refusal changes nothing.
        for part, m, wall, tick in planned:
            self._carry_out(part, m.step(Forget(computer), wall, tick), tick)

    def _writing(self) -> None:
        if self.read_only:
            raise SioulError(
                Core.mark(
                    "this process reads only: the tray or a command writes this computer's claims"
                )
            )

    def problems(self, part: str) -> list[tuple[str, str]]:
        """(file name, reason) for each file the last read of `part` skipped."""
        _known(part)
        return [(p.file, p.reason) for p in self._problems(part)]

    def _problems(self, part: str) -> list[Problem]:
        problems = list(self._files[part].problems)
        if self._last is not None:
            cloned = self._machines[part].knowledge.clone_problem(self._last[1])
            if cloned is not None:
                problems.insert(0, Problem(f"{self.computer}.lease", cloned))
        if self.seal_problem is not None:
            problems.insert(0, Problem(SEAL_NAME, self.seal_problem))
        return problems

    # -- more for the tray ----------------------------------------------------------------

    def last_read(self, part: str) -> Snapshot:
        """What the last call on `part` read, without reading again: every claim that reads
        (with when each was heard, by the wall clock), the clocks seen ahead, the problems, and
        whether that call found the machine had slept without telling or its clock was set.
        The tray's loop gets it with each verdict (`tick`): one scan of each part's folder a
        tick."""
        _known(part)
        k = self._machines[part].knowledge
        jumped = self._last is not None and k.jumped_at == self._last[1]
        return Snapshot(
            list(k.best.values()),  # in computer order (`Knowledge.best`)
            WallTimes(k.heard, *self._last) if self._last is not None else {},
            dict(k.ahead),
            self._problems(part),
            jumped,
            k.mark_unknown,
        )

    def heard(self, part: str) -> dict[str, int]:
        """When each computer's claim on `part` was last heard changing, by the wall clock."""
        _known(part)
        if self._last is None:
            return {}
        return dict(WallTimes(self._machines[part].knowledge.heard, *self._last))

    def clock_offsets(self, part: str) -> dict[str, int]:
        """Computers whose claims arrived over RENEW ahead of this clock, by how many seconds."""
        _known(part)
        return dict(self._machines[part].knowledge.ahead)

    def kept_since(self, part: str) -> int | None:
        """Since when (wall clock) this computer has seen the current keeper of `part`."""
        kept = self._machines[part].knowledge.kept
        if kept is None or self._last is None:
            return None
        return wall_of(kept[1], *self._last)

    def forget_counts_from(self, computer: str) -> int | None:
        """From when (wall clock) a declaration that `computer` is gone counts here, on the
        parts that must never happen twice, as of the last read: once it can no longer be
        numbering on this computer's acknowledgements (docs/protocol.md, "Gone for good").
        None: at once, or nothing read yet."""
        if self._last is None:
            return None
        wall = self._last[0]
        ticks = [
            m.knowledge.declared_from(computer)
            for m in self._machines.values()
            if m.knowledge.seat.rule.never_twice
        ]
        latest = max((t for t in ticks if math.isfinite(t)), default=None)
        when = wall_of(latest, *self._last)
        return when if when is not None and when > wall else None

    def forget_stands_on_close(self, computer: str) -> bool:
        """A declaration that `computer` is gone cannot count here on invoices (as of the last
        read): it may be numbering on a close of this computer's, which never lapses, until it
        is heard again (`Fixes.admitted_closes`, docs/protocol.md, "Gone for good")."""
        return any(
            m.knowledge.may_count_my_close(computer)
            for m in self._machines.values()
            if m.knowledge.seat.rule.never_twice
        )

    # -- reading --------------------------------------------------------------------------

    def _folder(self, part: str) -> Path:
        return self.share.folder / "leases" / part

    def _now(self) -> tuple[float, float]:
        # The wall clock unrounded: a moment of the ticks shown by it (since, until, heard) must
        # not flip by a second between calls with where in its second the clock was read.
        # Claims get whole seconds (`wall_seconds`, which also refuses a clock no reader accepts).
        wall, tick = float(self._clock()), float(self._ticks())
        wall_seconds(wall)
        self._last = (wall, tick)
        return wall, tick

    def _check_seal(self) -> None:
        """The folder's seal is the one this computer joined: a stat, then a read if it changed."""
        path = self.share.folder / SEAL_NAME
        try:
            st = os.stat(path)
            stat: tuple[int, ...] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except FileNotFoundError:
            stat = (-1,)
        except OSError:
            stat = (-2,)
        if stat == self._seal_stat:
            return
        self._seal_stat = stat
        problem: str | None = None
        if stat == (-1,):
            problem = Core.mark(
                "{file} is missing from the sharing folder: invoices wait until it is back",
                file=SEAL_NAME,
            )
        else:
            try:
                doc = read_seal(self.share.folder)
            except SioulError as e:
                problem = Core.mark(
                    "{file} cannot be used ({error}): invoices wait until it reads again",
                    file=SEAL_NAME,
                    error=str(e),
                )
            else:
                if doc.get("key_id") != self.share.key_id.hex() or timing_of(doc) != self.timing:
                    creator = doc.get("creator")
                    problem = Core.mark(
                        "the sharing folder was sealed again by {computer}: "
                        "join it again with its passphrase",
                        computer=creator if isinstance(creator, str) else "?",
                    )
        self.seal_problem = problem  # each read tells the machines (`Heard.sealed`)

    def _read(self, part: str) -> tuple[Machine, float, float]:
        """Read `part`'s folder and let its machine hear what it found."""
        _known(part)
        wall, tick = self._now()
        self._check_seal()
        m = self._machines[part]
        f = self._files[part]
        problems: list[Problem] = []
        foreign: set[str] = set()
        # The best copy of each claim this read found. In the folder a computer's claim has one
        # file, named after it; overlays may bring second copies (`where` says where they were).
        fresh: dict[str, Claim] = {}
        where: dict[str, str] = {}
        old_files = f.files
        files: dict[str, tuple[bytes, Claim | None, str]] = {}
        folder = self._folder(part)
        self._diagnosed, self._candidates = 0, None
        refused = linked_folder(self.share.folder, part)
        found: list[tuple[str, bytes]] = []
        if refused:
            others = [Entry(refused[0], problem=refused[1])]
        else:
            found, others = read_folder(folder)
        problems += [Problem.of(name, problem or "") for name, _, problem in others]
        unseal, decode, prefix = self.share.unseal, codec.decode, f"leases/{part}/"
        for name, data in found:
            cached = old_files.get(name)
            if cached is not None and cached[0] == data:  # the same write as last read
                files[name] = cached
                if cached[1] is None:
                    problems.append(Problem(name, cached[2]))
                    if name in f.foreign:
                        foreign.add(name[:-6])
                    continue
                claim = cached[1]
            else:
                # The usual file, opened here (this loop runs for every file at every tick); any
                # other outcome is told by _open_entry, from the start.
                opened: bytes | None = None
                try:
                    opened = unseal(prefix + name, data)
                    text = opened.decode("utf-8").rstrip(" ")
                    claim = decode(text)
                    usual = claim.computer == name[:-6] and claim.part == part
                except (SioulError, UnicodeDecodeError):
                    usual = False
                if not usual:
                    result = self._open_entry(part, name, data, found, folder, opened)
                    if isinstance(result, _Skip):
                        problems.append(Problem(name, result.reason))
                        files[name] = (data, None, result.reason)
                        if result.foreign:
                            foreign.add(name[:-6])
                        continue
                    claim, text, data = result
                files[name] = (data, claim, text)
            fresh[claim.computer] = claim
        f.files = files
        f.foreign = {f"{c}.lease" for c in foreign}
        for overlay in self._overlays:
            try:
                fetched = list(overlay.fetch(part))
            except OSError as e:
                problems.append(
                    Problem(
                        overlay.name,
                        Core.mark("overlay cannot be read: {error}", error=e.strerror or str(e)),
                    )
                )
                continue
            for name, copy, problem in fetched:
                place = f"{overlay.name}: {name}"
                if copy is None:
                    problems.append(Problem.of(place, problem or ""))
                    continue
                result = self._open_entry(part, name, copy, fetched)
                if isinstance(result, _Skip):
                    problems.append(Problem(place, result.reason))
                    if result.foreign:
                        foreign.add(name[:-6])
                    continue
                claim = result[0]
                best = fresh.get(claim.computer)
                if best is None or claim.seq > best.seq:  # the folder's copy wins a tie
                    fresh[claim.computer] = claim
                    where[claim.computer] = place
        ready = m.step(Heard(fresh.values(), foreign, where, self.seal_problem), wall, tick)
        self._asked[part] = ready
        problems += [Problem(name, reason) for name, reason in ready.problems]
        f.problems = problems
        return m, wall, tick

    def _open_entry(
        self,
        part: str,
        name: str,
        data: bytes,
        neighbours: Neighbours,
        folder: Path | None = None,
        opened: bytes | None = None,
    ) -> tuple[Claim, str, bytes] | _Skip:
        """The claim in one file (with the bytes it was read from), or the reason it does not count.

        `folder`: the folder the file is in, to read it again, whole, when its seal does not open
        (a file system that gave a short read); None for an overlay's files, read whole already.
        `opened`: the plaintext of `data`, when the caller opened its seal already.
        A claim file sealed with another key is marked `foreign`: it stands for a computer that
        runs under another seal (docs/protocol.md, "One seal").
        """
        relpath = f"leases/{part}/{name}"
        try:
            try:
                plaintext = self.share.unseal(relpath, data) if opened is None else opened
            except Unreadable:
                if folder is None:
                    raise
                again = read_whole(folder / name)
                if again.data is None or again.data == data:
                    raise
                data = again.data
                plaintext = self.share.unseal(relpath, data)
            try:
                text = plaintext.decode("utf-8").rstrip(" ")
            except UnicodeDecodeError:
                raise Unreadable(Core.mark("not valid: not a claim")) from None
            claim = codec.decode(text)
        except ForeignSeal as e:
            return _Skip(e.args[0], CLAIM_NAME.fullmatch(name) is not None)
        except Unreadable as e:
            reason: str = e.args[0]  # the marked reason (a Text), translated on screen
            if reason.startswith("damaged"):
                return _Skip(self._copied_from(relpath, data, neighbours) or reason)
            return _Skip(reason)
        stem = name[:-6]  # without ".lease"
        if claim.computer != stem or claim.part != part:
            return _Skip(Core.mark("does not match its file name"))
        return claim, text, data

    def _copied_from(self, relpath: str, data: bytes, neighbours: Neighbours) -> str | None:
        """Say where a claim that does not open at its path was copied from, when that shows.

        At most MAX_DIAGNOSED files a read, each against at most MAX_DIAGNOSE other paths, and the
        candidate names listed once a read: thousands of damaged files cost a read linear time.
        """
        if self._diagnosed >= MAX_DIAGNOSED:
            return None
        self._diagnosed += 1
        if self._candidates is None or self._candidates[0] is not neighbours:
            found = {e[0] for e in neighbours if e[0].endswith(".lease")}
            for m in self._machines.values():
                found.update(f"{c}.lease" for c in m.knowledge.best)
            self._candidates = (neighbours, sorted(found)[: MAX_DIAGNOSE + 1])
        names = self._candidates[1]
        tries = 0
        for part in PARTS:
            for name in names:
                other = f"leases/{part}/{name}"
                if other == relpath:
                    continue
                tries += 1
                if tries > MAX_DIAGNOSE:
                    return None
                try:
                    self.share.unseal(other, data)
                except Unreadable:
                    continue
                if other.split("/")[1] != relpath.split("/")[1]:
                    return Core.mark("copied from another part ({file})", file=other)
                return Core.mark("copied from another name ({file})", file=name)
        return None

    # -- writing --------------------------------------------------------------------------

    def _carry_out(self, part: str, ready: Ready, tick: float) -> Keeper | None:
        """Carry out what a step of `part`'s machine asks, in its order: the state file, then
        the claim. The verdict it gives."""
        self._asked[part] = ready
        if ready.claim is not None:
            # The claim's text first: the state file keeps it as written.
            self._files[part].texts[self.computer] = (ready.claim, codec.encode(ready.claim))
        # Before the claim goes out: a restart must know what this claim acknowledges.
        self._save(tick)
        if ready.claim is not None:
            self._write(part, ready.claim, tick)
        return ready.verdict

    def _write(self, part: str, claim: Claim, tick: float) -> None:
        """Write this computer's claim (the state file holds what it needs already)."""
        f = self._files[part]
        text = f.texts[self.computer][1]
        folder = self._folder(part)
        relpath = f"leases/{part}/{self.computer}.lease"
        path = self.share.folder / relpath
        refused = linked_folder(self.share.folder, part)
        if refused is not None:
            raise SioulError(
                Core.mark("cannot write {path}: {reason}", path=path, reason=refused[1])
            )
        try:
            plain = codec.padded(text, file_size(path))
            data = self.share.seal(relpath, plain)
            if not f.made_folder:
                if not self.share.folder.is_dir():
                    raise SioulError(
                        Core.mark(
                            "the sharing folder {folder} is missing", folder=self.share.folder
                        )
                    )
                make_folders(folder, 0o755)  # whatever the umask (docs/files.md)
                f.made_folder = True
            write_atomic(path, data)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None
        f.files[path.name] = (data, claim, text)
        if self._wrote_file is not None:
            with contextlib.suppress(Exception):  # a hint to the sync tool, never a failed write
                self._wrote_file(path)
        for overlay in self._overlays:
            try:
                overlay.publish(part, path.name, data)
            except OSError as e:
                f.problems.append(
                    Problem(
                        overlay.name,
                        Core.mark("overlay cannot be written: {error}", error=e.strerror or str(e)),
                    )
                )

    # -- state ----------------------------------------------------------------------------

    def _save(self, tick: float) -> None:
        """Write the state file when some part's machine asks for it by now (`Ready.save_by`):
        it holds every part's memory."""
        if self._state is None or self.read_only:
            return
        if not any(ready.save_due(tick) for ready in self._asked.values()):
            return
        if any(m.knowledge.mark_unknown for m in self._machines.values()):
            # The state stays lost until the person confirms the mark (S6): a restart before
            # then must not read a whole state file (one this run wrote before it read its own
            # claim) and take the claim's mark as proven.
            with contextlib.suppress(OSError):
                self._state.unlink()
            return
        memories = {part: m.knowledge.memory for part, m in self._machines.items()}
        texts: dict[str, dict[str, str]] = {}
        for part, memory in memories.items():
            # Each claim's text as read or written (the folder's files, this computer's claim,
            # or the state file it was restored from): encoded again only if none is at hand.
            f = self._files[part]
            known, files = f.texts, f.files
            table = texts[part] = {}
            for c, claim in memory.claims.items():
                cached = files.get(f"{c}.lease")
                if cached is not None and cached[1] is claim:
                    table[c] = cached[2]
                    continue
                claim_text = known.get(c)
                table[c] = (
                    claim_text[1]
                    if claim_text is not None and claim_text[0] is claim
                    else codec.encode(claim)
                )
        try:
            statefile.save(
                self._state,
                texts,
                {part: memory.forgets for part, memory in memories.items()},
                {part: memory.named for part, memory in memories.items()},
            )
        except OSError as e:
            self.state_problem = f"{self._state}: cannot be written ({e.strerror or e})"
            return
        wall = self._last[0] if self._last is not None else float(self._clock())
        for part, m in self._machines.items():
            self._asked[part] = m.step(Saved(), wall, tick)


class WallTimes(Mapping[str, int]):
    """When each computer's claim was last heard changing, by the wall clock as it read then.

    Each time is worked out when asked: a tick's menu asks for the few computers it names, a
    listing for all of them.
    """

    __slots__ = ("_tick", "_ticks", "_wall")

    def __init__(self, ticks: Mapping[str, float | None], wall: float, tick: float) -> None:
        self._ticks = dict(ticks)  # the machine's table goes on changing; this is its state now
        self._wall, self._tick = wall, tick

    def __getitem__(self, computer: str) -> int:
        h = self._ticks[computer]
        if h is None:  # remembered from the state file, not heard in this run yet
            raise KeyError(computer)
        return int(self._wall - (self._tick - h))

    def __iter__(self) -> Iterator[str]:
        return (c for c, h in self._ticks.items() if h is not None)

    def __len__(self) -> int:
        return sum(h is not None for h in self._ticks.values())

    def __repr__(self) -> str:
        return f"WallTimes({dict(self)!r})"


class Snapshot(NamedTuple):
    """One part as the last read found it (`Lease.last_read`)."""

    claims: list[Claim]
    heard: Mapping[str, int]  # computer: when heard (`WallTimes`)
    offsets: dict[str, int]
    problems: list[Problem]  # each with whether it passes by itself (a sync under way)
    jumped: bool = False  # that call saw the machine sleep without telling, or its clock set
    # This computer's records mark cannot be proven (`Knowledge.mark_unknown`, S6): its status
    # says it is unknown, whoever keeps the part.
    mark_unknown: bool = False


class Reading(NamedTuple):
    """A verdict on one part with what the call that made it read (`Lease.tick`): one answer,
    where asking for the read apart could get another call's."""

    keeper: Keeper
    seen: Snapshot


class _Skip(NamedTuple):
    """Why a file does not count; `foreign`: a claim file sealed with another key."""

    reason: str
    foreign: bool = False


def _known(part: str) -> None:
    if part not in PARTS:
        raise SioulError(
            Core.mark(
                "unknown part {part}: the parts are {parts}",
                part=repr(part),
                parts=", ".join(PARTS),
            )
        )
