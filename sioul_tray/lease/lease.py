"""`Lease`: one computer's claims in a sharing folder, and what it sees of everyone else's.

The I/O shell around the pure rules: it reads the part's folder (and any overlay), keeps the last
good copy and the highest ``seq`` of every claim, judges liveness by when *this* computer heard each
claim change (its own clock), writes its own claim, and tracks since when it has seen each keeper.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from sioul_tray.errors import SioulError, Unreadable
from sioul_tray.i18n import Core
from sioul_tray.lease import codec, memory
from sioul_tray.lease.folder import (
    Entry,
    file_size,
    read_whole,
    remove_leftovers,
    scan,
    write_atomic,
)
from sioul_tray.lease.host import host_name, started
from sioul_tray.lease.keeper import Keeper, Seen, judge
from sioul_tray.lease.overlay import Overlay
from sioul_tray.lease.rules import (
    ALIVE,
    COMPUTER_ID,
    PARTS,
    RENEW,
    UNCLOSED,
    Claim,
    choose,
    forgotten,
)
from sioul_tray.share.seal import Share

STATE_EVERY = ALIVE  # the state file is rewritten at most this often for mere renewals
FORGET_SPARE = 16  # bytes a claim keeps free after a declaration, for later, longer numbers
MAX_DIAGNOSE = 256  # at most this many other paths are tried to explain a claim that does not open


def _news(known: Claim | None, claim: Claim) -> bool:
    """A newer copy says more than "still renewing": the state file must follow at once."""
    return (
        known is None
        or known.closed != claim.closed
        or known.taken != claim.taken
        or known.sees != claim.sees
        or known.since != claim.since
        or known.forgets != claim.forgets
    )


@dataclass
class _Part:
    """What this Lease knows of one part."""

    best: dict[str, Claim] = field(default_factory=dict)  # last good copy per computer
    text: dict[str, str] = field(default_factory=dict)  # its claim text, for the state file
    heard: dict[str, int | None] = field(default_factory=dict)  # local clock; None: not yet read
    read: set[str] = field(default_factory=set)  # computers read from the folder in this process
    # Each file as last read: its bytes (the same bytes: the same write), its claim or reason.
    files: dict[str, tuple[bytes, Claim | None, str]] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)
    ahead: dict[str, int] = field(default_factory=dict)  # clocks seen ahead of ours, by seconds
    forgets: dict[str, tuple[int, int]] = field(default_factory=dict)  # id: (seq, heard here)
    kept: tuple[str | None, int] | None = None  # KEPT: (keeper seen here, since when)
    flowing_since: int | None = None  # since when other claims keep being heard (None: not now)
    run_since: int | None = None  # `since` of this computer's open claim in this run
    made_folder: bool = False


class Lease:
    """This computer's claims on the parts of a sharing folder.

    `clock` returns Unix seconds; `state_dir=None` keeps the local state in memory only. Several
    Leases with their own clocks and state can share one folder in one process.
    """

    def __init__(
        self,
        share: Share,
        computer: str,
        name: str | None = None,
        clock: Callable[[], float] = time.time,
        state_dir: str | os.PathLike[str] | None = None,
        overlays: Iterable[Overlay] = (),
    ) -> None:
        if not COMPUTER_ID.fullmatch(computer):
            raise SioulError(
                Core.mark(
                    "{computer} is not a computer id: use a-z, 0-9 and _ (1 to 63)",
                    computer=repr(computer),
                )
            )
        started()  # the process's start, as the lease first asked
        self.share = share
        self.computer = computer
        self.name = codec.short_name(name if name is not None else host_name()) or computer
        self._clock = clock
        self._overlays = list(overlays)
        self._parts = {part: _Part() for part in PARTS}
        self._last_now: float | None = None
        self._state = (
            None if state_dir is None else memory.state_file(state_dir, share.folder_id, computer)
        )
        self.state_problem: str | None = None
        if self._state is not None:
            self._restore(self._state)
        for part in PARTS:
            remove_leftovers(self._folder(part), computer)
        if self._state is not None:
            remove_leftovers(self._state.parent, self._state.stem)

    def __repr__(self) -> str:
        return f"Lease({self.computer!r}, {self.share!r})"

    # -- the contract ---------------------------------------------------------------------

    def renew(
        self, part: str, active: float | None = None, take: bool = False, wrote: int | None = None
    ) -> Keeper:
        """Write this computer's claim on `part` (open), then say who keeps it as seen here."""
        now = self._now()
        p = self._read(part, now)
        mine = p.best.get(self.computer)
        t = int(now)
        open_run = p.run_since is not None and mine is not None and not mine.closed
        claim = Claim(
            computer=self.computer,
            part=part,
            name=self.name,
            seq=self._next_seq(mine, t),
            since=p.run_since if open_run and p.run_since is not None else t,
            renewed=t,
            active=t if active is None else min(int(active), t),
            taken=t if take else (mine.taken if mine else None),
            closed=False,
            wrote=self._wrote(mine, wrote),
            forgets=self._forgets(p, t),
        )
        view, keeper = self._write(part, p, claim, t)
        p.run_since = claim.since
        return self._judge(part, p, view, keeper, t)

    def close(self, part: str, wrote: int | None = None) -> None:
        """Close this computer's claim on `part`: it marks nothing until it renews again."""
        now = self._now()
        p = self._read(part, now)
        p.kept = None
        p.run_since = None
        mine = p.best.get(self.computer)
        if mine is None:
            return  # nothing of ours to close
        t = int(now)
        claim = dataclasses.replace(
            mine,
            name=self.name,
            seq=self._next_seq(mine, t),
            renewed=t,
            closed=True,
            wrote=self._wrote(mine, wrote),
            forgets=self._forgets(p, t),
        )
        self._write(part, p, claim, t)

    def look(self, part: str) -> Keeper:
        """Who keeps `part`, as read now, without claiming it."""
        now = self._now()
        p = self._read(part, now)
        view = self._view(p)
        t = int(now)
        keeper = self._judge(
            part, p, view, choose(PARTS[part], view.claims, t, heard=view.heard, gone=view.gone), t
        )
        self._save()
        return keeper

    def claims(self, part: str) -> list[Claim]:
        """Every claim on `part` that reads, live or not, as last written by its computer."""
        p = self._read(part, self._now())
        self._save()
        return sorted(p.best.values(), key=lambda c: c.computer)

    def forget(self, computer: str) -> None:
        """Declare `computer` gone for good on every part: its claims up to now count as closed.

        Refused, changing nothing, when this computer's claim has no room left for one more
        declaration (a claim file is at most 512 bytes).
        """
        if computer == self.computer:
            raise SioulError(Core.mark("this computer cannot declare itself gone"))
        now = self._now()
        t = int(now)
        planned: list[tuple[str, _Part, Claim, tuple[int, int]]] = []
        for part in PARTS:
            p = self._read(part, now)
            theirs = p.best.get(computer)
            if theirs is None:
                continue
            # Aged by this clock, like liveness: their `renewed` is their clock, maybe days off.
            heard = p.heard.get(computer)
            forgets = self._forgets(p, t)
            forgets[computer] = theirs.seq
            mine = p.best.get(self.computer)
            if mine is None:
                # A closed claim carries the news without claiming the part.
                mine = Claim(self.computer, part, self.name, 0, t, t, t, closed=True)
            claim = dataclasses.replace(
                mine,
                name=self.name,
                seq=self._next_seq(p.best.get(self.computer), t),
                renewed=t,
                forgets=dict(sorted(forgets.items())),
            )
            # Room for the longest `sees` and a few more digits, so later renewals fit too.
            widest = dataclasses.replace(claim, sees="x" * 63)
            if not codec.fits(codec.encode(widest), spare=FORGET_SPARE):
                raise SioulError(
                    Core.mark(
                        "this computer's claim has no room to declare {computer} gone: "
                        "%n computers are declared gone already; "
                        "try again once they have been gone for two days",
                        None,
                        len(forgets) - 1,
                        one="this computer's claim has no room to declare {computer} gone: "
                        "1 computer is declared gone already; "
                        "try again once it has been gone for two days",
                        computer=repr(computer),
                    )
                )
            planned.append((part, p, claim, (theirs.seq, t if heard is None else heard)))
        if not planned:
            raise SioulError(
                Core.mark(
                    "no claim of {computer} was ever read here: nothing to forget",
                    computer=repr(computer),
                )
            )
        # Every part is checked before any is written: a refusal changes nothing.
        for part, p, claim, declared in planned:
            p.forgets[computer] = declared
            self._urgent = True
            self._write(part, p, claim, t)

    def problems(self, part: str) -> list[tuple[str, str]]:
        """(file name, reason) for each file the last read of `part` skipped."""
        return list(self._parts[part].problems)

    # -- more for the tray ----------------------------------------------------------------

    def heard(self, part: str) -> dict[str, int]:
        """When each computer's claim on `part` was last heard changing, by this clock."""
        return {c: h for c, h in self._parts[part].heard.items() if h is not None}

    def clock_offsets(self, part: str) -> dict[str, int]:
        """Computers whose claims arrived over RENEW ahead of this clock, by how many seconds."""
        return dict(self._parts[part].ahead)

    # -- reading --------------------------------------------------------------------------

    def _folder(self, part: str) -> Path:
        return self.share.folder / "leases" / part

    def _read(self, part: str, now: float) -> _Part:
        if part not in PARTS:
            raise SioulError(
                Core.mark(
                    "unknown part {part}: the parts are {parts}",
                    part=repr(part),
                    parts=", ".join(PARTS),
                )
            )
        p = self._parts[part]
        t = int(now)
        problems: list[tuple[str, str]] = []
        # The best copy of each claim this read found: (claim, text, where). In the folder a
        # computer's claim has one file, named after it; overlays may bring second copies.
        fresh: dict[str, tuple[Claim, str, str]] = {}
        old_files = p.files
        files: dict[str, tuple[bytes, Claim | None, str]] = {}
        folder = self._folder(part)
        entries = scan(folder)
        for name, data, problem in entries:
            if data is None:
                problems.append((name, problem or ""))
                continue
            cached = old_files.get(name)
            if cached is not None and cached[0] == data:  # the same write as last read
                files[name] = cached
                claim, text = cached[1], cached[2]
                if claim is None:
                    problems.append((name, text))
                    continue
            else:
                result = self._open_entry(part, name, data, entries, folder)
                if isinstance(result, str):
                    problems.append((name, result))
                    files[name] = (data, None, result)
                    continue
                claim, text, data = result
                files[name] = (data, claim, text)
            fresh[claim.computer] = (claim, text, name)
        p.files = files
        for overlay in self._overlays:
            try:
                fetched = list(overlay.fetch(part))
            except OSError as e:
                problems.append(
                    (
                        overlay.name,
                        Core.mark("overlay cannot be read: {error}", error=e.strerror or str(e)),
                    )
                )
                continue
            for name, data, problem in fetched:
                where = f"{overlay.name}: {name}"
                if data is None:
                    problems.append((where, problem or ""))
                    continue
                result = self._open_entry(part, name, data, fetched)
                if isinstance(result, str):
                    problems.append((where, result))
                    continue
                claim, text, _ = result
                best = fresh.get(claim.computer)
                if best is None or claim.seq > best[0].seq:  # the folder's copy wins a tie
                    fresh[claim.computer] = (claim, text, where)
        best_known = p.best
        heard = p.heard
        read = p.read
        me = self.computer
        flowing = False  # another computer's claim heard within ALIVE: the sync is flowing
        for c, (claim, text, where) in fresh.items():
            known = best_known.get(c)
            if known is not None and known.seq == claim.seq:
                read.add(c)  # the same copy as before: nothing new was heard
                continue
            if self._learn(p, known, claim, text, where, t, problems) and not flowing:
                flowing = c != me and t - (heard[c] or 0) <= ALIVE
        if None in heard.values():  # restored from the state file, not in the folder any more
            for computer, h in heard.items():
                if h is None:
                    heard[computer] = min(t, best_known[computer].renewed)
        # Most reads learn some other claim just now; else, any heard lately.
        flowing = flowing or any(
            t - h <= ALIVE for c, h in heard.items() if c != me and h is not None
        )
        if not flowing:
            p.flowing_since = None
        elif p.flowing_since is None:
            p.flowing_since = t
        p.problems = problems
        return p

    def _open_entry(
        self,
        part: str,
        name: str,
        data: bytes,
        neighbours: list[Entry],
        folder: Path | None = None,
    ) -> tuple[Claim, str, bytes] | str:
        """The claim in one file (with the bytes it was read from), or the reason it does not count.

        `folder`: the folder the file is in, to read it again, whole, when its seal does not open
        (a file system that gave a short read); None for an overlay's files, read whole already.
        """
        relpath = f"leases/{part}/{name}"
        try:
            try:
                plaintext = self.share.unseal(relpath, data)
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
        except Unreadable as e:
            reason: str = e.args[0]  # the marked reason (a Text), translated on screen
            if reason.startswith("damaged"):
                return self._copied_from(relpath, data, neighbours) or reason
            return reason
        stem = name[:-6]  # without ".lease"
        if claim.computer != stem or claim.part != part:
            return Core.mark("does not match its file name")
        return claim, text, data

    def _copied_from(self, relpath: str, data: bytes, neighbours: list[Entry]) -> str | None:
        """Say where a claim that does not open at its path was copied from, when that shows."""
        names = {e.name for e in neighbours if e.name.endswith(".lease")}
        for p in self._parts.values():
            names.update(f"{c}.lease" for c in p.best)
        tries = 0
        for part in PARTS:
            for name in sorted(names):
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

    def _learn(
        self,
        p: _Part,
        known: Claim | None,
        claim: Claim,
        text: str,
        where: str,
        t: int,
        problems: list[tuple[str, str]],
    ) -> bool:
        """Take in the best copy of one computer's claim found by this read; False if stale."""
        c = claim.computer
        if known is not None and claim.seq < known.seq:
            problems.append(
                (
                    where,
                    Core.mark(
                        "stale copy: seq {seq}, already read seq {known}",
                        seq=claim.seq,
                        known=known.seq,
                    ),
                )
            )
            p.read.add(c)
            return False
        if known is not None and claim.seq == known.seq:
            p.read.add(c)
            return False
        first = c not in p.read
        p.best[c] = claim
        p.text[c] = text
        p.read.add(c)
        p.heard[c] = min(t, claim.renewed) if first else t
        self._dirty = True
        if not self._urgent and _news(known, claim):
            self._urgent = True
        if c == self.computer:
            # Another run of this installation wrote later (state lost): adopt what it declared.
            for gone, seq in claim.forgets.items():
                if gone not in p.forgets or p.forgets[gone][0] < seq:
                    p.forgets[gone] = (seq, t)
            return True
        if claim.renewed - t > RENEW:
            p.ahead[c] = claim.renewed - t
        else:
            p.ahead.pop(c, None)
        return True

    # -- judging --------------------------------------------------------------------------

    def _view(self, p: _Part) -> Seen:
        """The claims as the rules see them: heard here, forgotten ones closed. No copies."""
        heard = cast(dict[str, int], p.heard)  # no None left: _read fills them in
        mine = p.best.get(self.computer)
        opened = mine.since if mine is not None and not mine.closed else None
        gone = forgotten(p.best.values())
        return Seen(list(p.best.values()), heard, gone, opened, p.flowing_since, tracks_flow=True)

    def _judge(self, part: str, p: _Part, view: Seen, keeper: Claim | None, t: int) -> Keeper:
        chosen = keeper.computer if keeper else None
        if p.kept is None or p.kept[0] != chosen:
            p.kept = (chosen, t)
        since = p.kept[1] if chosen is not None else None
        others = any(c != self.computer for c in p.best)
        return judge(
            part,
            PARTS[part],
            self.computer,
            keeper,
            view,
            t,
            since,
            read_others=others,
            created=self.share.creator == self.computer,
        )

    # -- writing --------------------------------------------------------------------------

    def _write(self, part: str, p: _Part, claim: Claim, t: int) -> tuple[Seen, Claim | None]:
        """Write this computer's claim, acknowledging the keeper it sees; the view and keeper."""
        before = p.best.get(self.computer)
        p.best[self.computer] = claim
        p.heard[self.computer] = t
        view = self._view(p)
        keeper = choose(PARTS[part], view.claims, t, heard=view.heard, gone=view.gone)
        claim = dataclasses.replace(claim, sees=keeper.computer if keeper else None)
        self._dirty = True
        if _news(before, claim):
            self._urgent = True
        text = codec.encode(claim)
        while not codec.fits(text) and p.forgets:
            # Only a safety net: forget() keeps FORGET_SPARE bytes free, so numbers that grow
            # never get here in practice. Dropping beats writing no claim at all.
            oldest = min(p.forgets, key=lambda c: p.forgets[c][1])
            del p.forgets[oldest]
            claim = dataclasses.replace(claim, forgets=self._forgets(p, t))
            text = codec.encode(claim)
        folder = self._folder(part)
        relpath = f"leases/{part}/{self.computer}.lease"
        path = self.share.folder / relpath
        try:
            if not p.made_folder:
                if not self.share.folder.is_dir():
                    raise SioulError(
                        Core.mark(
                            "the sharing folder {folder} is missing", folder=self.share.folder
                        )
                    )
                folder.mkdir(parents=True, exist_ok=True)
                p.made_folder = True
            data = self.share.seal(relpath, codec.padded(text, file_size(path)))
            write_atomic(path, data)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None
        p.files[path.name] = (data, claim, text)
        p.best[self.computer] = claim
        p.text[self.computer] = text
        p.read.add(self.computer)
        for overlay in self._overlays:
            try:
                overlay.publish(part, path.name, data)
            except OSError as e:
                p.problems.append(
                    (
                        overlay.name,
                        Core.mark("overlay cannot be written: {error}", error=e.strerror or str(e)),
                    )
                )
        self._save()
        claims = [claim if c.computer == self.computer else c for c in view.claims]
        opened = None if claim.closed else claim.since
        return dataclasses.replace(view, claims=claims, opened=opened), keeper

    def _next_seq(self, mine: Claim | None, t: int) -> int:
        # The clock makes seq go up across reinstalls that lost the state, too.
        return max(mine.seq + 1 if mine else 0, t)

    def _wrote(self, mine: Claim | None, wrote: int | None) -> int:
        if wrote is not None:
            if wrote < 0:
                raise SioulError(Core.mark("wrote must not be negative"))
            return int(wrote)
        return mine.wrote if mine else 0

    def _forgets(self, p: _Part, t: int) -> dict[str, int]:
        for c in [c for c, (_, renewed) in p.forgets.items() if t - renewed > 2 * UNCLOSED]:
            del p.forgets[c]  # a claim that old holds nowhere: the declaration is moot
        return {c: seq for c, (seq, _) in sorted(p.forgets.items())}

    # -- time and state -------------------------------------------------------------------

    def _now(self) -> float:
        now = float(self._clock())
        last = self._last_now
        if last is not None and now < last:
            # The clock was set back (sleep only ever moves it forward). Heard times move back
            # with it, so every claim keeps its age: clamped to now instead, old acknowledgements
            # would look younger than they are (found by the simulation, docs/reliability.md).
            back = int(last) - int(now)
            for p in self._parts.values():
                p.heard = {c: h if h is None else h - back for c, h in p.heard.items()}
        if last is not None and abs(now - last) > 2 * RENEW:
            # Slept without telling us, or the clock was set: settle again.
            t = int(now)
            for p in self._parts.values():
                if p.kept is not None:
                    p.kept = (p.kept[0], t)
        self._last_now = now
        return now

    _dirty = False  # the state file is behind what this Lease knows
    _urgent = False  # ...by more than renewals: write it at the next call, not within STATE_EVERY
    _saved_at: float | None = None

    def _restore(self, path: Path) -> None:
        got = memory.load(path)
        self.state_problem = got.problem
        for part, table in got.claims.items():
            p = self._parts[part]
            for computer, (claim, text) in table.items():
                p.best[computer] = claim
                p.text[computer] = text
                p.heard[computer] = None
            p.forgets = dict(got.forgets.get(part, {}))

    def _save(self) -> None:
        """Write the state file when it lags, at most once per STATE_EVERY for mere renewals.

        Every minute brings a new seq from every computer: rewriting the whole state for each
        would double a tick's cost with many computers. What a crash can lose this way is a few
        high-water seqs of plain renewals, never a close, a take, an acknowledgement or a forget.
        """
        if self._state is None or not self._dirty:
            return
        now = self._last_now or 0.0
        if not self._urgent and self._saved_at is not None and now - self._saved_at < STATE_EVERY:
            return
        try:
            memory.save(
                self._state,
                {part: p.text for part, p in self._parts.items()},
                {part: p.forgets for part, p in self._parts.items()},
            )
        except OSError as e:
            self.state_problem = f"{self._state}: cannot be written ({e.strerror or e})"
            return
        self._dirty = self._urgent = False
        self._saved_at = now
