"""Claim files on disk: which names are claims, reading them safely, writing them atomically.

Only regular files named ``^[a-z0-9_]{1,63}\\.lease$`` of at most MAX_READ bytes are read, through
the program's one bounded reader (`files.open_to_read`, `files.read_bounded`); everything else in
a part's folder gets a reason, so the tray can say why a file does not count. A write goes
to a ``.~*.tmp`` temporary beside the claim, is fsynced, and replaces the claim with one atomic
rename: a reader, or a sync tool, never sees a torn claim.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path
from typing import NamedTuple

from sioul_tray.files import (
    LINK,
    NOT_A_FILE,
    TOO_LARGE,
    NotReadable,
    open_to_read,
    read_bounded,
)
from sioul_tray.i18n import Core

CLAIM_NAME = re.compile(r"([a-z0-9_]{1,63})\.lease")
# A claim is written within 512 bytes (`codec.MAX_FILE`), and read up to eight times that: later
# versions append fields to the claim text, which this one ignores, so a newer computer's claim
# may be larger and must still count here, not be said "too large". 4 KiB a file keeps a tick's
# memory bounded all the same.
MAX_READ = 4096
# The names that matched CLAIM_NAME (a fact about the name alone), so a tick matches each once;
# emptied past MAX_KNOWN_NAMES, so a folder flooded with names cannot grow it without end.
_CLAIM_NAMES: set[str] = set()
MAX_KNOWN_NAMES = 65536

# Names some tool leaves beside claims: what each is, and whether it passes by itself (a sync
# tool's temporary or placeholder: listed, never warned about). First match wins.
_NOT_CLAIMS: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(r"\.~.*\.tmp"), Core.mark("temporary file: still being written"), True),
    (
        re.compile(r"(\.syncthing\..*|~syncthing~.*)\.tmp"),
        Core.mark("Syncthing temporary: still syncing"),
        True,
    ),
    (re.compile(r".*\.sync-conflict-.*"), Core.mark("conflicted copy made by Syncthing"), False),
    (
        re.compile(r".*\(.*conflicted copy.*\).*", re.I),
        Core.mark("conflicted copy made by the sync tool"),
        False,
    ),
    (
        re.compile(r".*\(.*case conflict.*\).*", re.I),
        Core.mark("case conflict made by Dropbox"),
        False,
    ),
    (
        re.compile(r".*_conflict-\d{8}-\d{6}.*"),
        Core.mark("conflicted copy made by ownCloud or Nextcloud"),
        False,
    ),
    (re.compile(r"\..*\.icloud"), Core.mark("iCloud placeholder: not downloaded yet"), True),
    (re.compile(r"\..*\.~[0-9a-f]+"), Core.mark("Nextcloud temporary: still syncing"), True),
    (
        re.compile(r".*\.(part|partial|crdownload|download)"),
        Core.mark("partial download: still syncing"),
        True,
    ),
    (
        re.compile(r"[a-z0-9_]{1,63} \d+\.lease"),
        Core.mark("conflicted copy (iCloud style)"),
        False,
    ),
    (
        re.compile(r"[a-z0-9_]{1,63}-[^.]+\.lease"),
        Core.mark("conflicted copy (OneDrive style)"),
        False,
    ),
    (
        re.compile(r"(\.ds_store|desktop\.ini|thumbs\.db|\.dropbox.*|icon\r)", re.I),
        Core.mark("system file"),
        True,
    ),
    (re.compile(r".*\.lease", re.I | re.S), Core.mark("not a claim file name"), False),
)

VANISHED = Core.mark("vanished while reading")
EMPTY = Core.mark("empty: still syncing")  # a sync tool makes the file, then fills it

# Reasons that pass by themselves: the table's, and a file emptied or gone while a sync writes it.
PASSING = frozenset({reason for _, reason, passing in _NOT_CLAIMS if passing} | {VANISHED, EMPTY})


class Problem(NamedTuple):
    """A file of a part's folder that does not count as a claim, and why."""

    file: str
    reason: str  # marked for translation (i18n.Core)
    passing: bool = False  # it goes by itself (a sync under way): listed, never warned about

    @classmethod
    def of(cls, file: str, reason: str) -> Problem:
        return cls(file, reason, reason in PASSING)


def why_not_a_claim(name: str) -> str:
    """The reason a file name in a part's folder is not a claim."""
    for pattern, reason, _ in _NOT_CLAIMS:
        if pattern.fullmatch(name):
            return reason
    return Core.mark("not a claim")


class Entry(NamedTuple):
    """One file of a part's folder: a claim candidate with its bytes, or a reason it is not.

    A tick has a plain pair for each claim file it read (`read_folder`), an Entry for the rest.
    The bytes are also what tells an unchanged claim (see `Lease`): a seal's nonce is new at every
    write, so equal bytes are the same write, and no stat call is needed to know it.
    """

    name: str
    data: bytes | None = None
    problem: str | None = None


def scan(folder: Path, careful: bool = False) -> list[Entry]:
    """The entries of a part's folder, each claim file with its bytes or the reason it has none:
    `read_folder`'s answer as one list of named tuples, the claim files first."""
    claims, others = read_folder(folder, careful)
    return [Entry(name, data) for name, data in claims] + others


def read_folder(folder: Path, careful: bool = False) -> tuple[list[tuple[str, bytes]], list[Entry]]:
    """A part's folder read: (name, bytes) of each claim file, and an `Entry` with its reason for
    every other name in it, each list in the listing's order.

    A claim file is read with one call of MAX_READ + 1 bytes and no stat: a local disk gives a
    small file whole that way. Where a file system may give less, the caller reads again with
    `read_whole` when the seal does not open (`Lease` does), or passes `careful` to read every
    file to its end. The claim files come as plain (name, bytes) pairs; `Entry` carries what the
    other names need (a reason, a kind).
    """
    try:
        listing = os.scandir(folder)
    except FileNotFoundError:
        return [], []
    except OSError as e:
        problem = Core.mark("cannot list the folder: {error}", error=e.strerror)
        return [], [Entry(".", problem=problem)]
    claims: list[tuple[str, bytes]] = []
    others: list[Entry] = []
    add, other = claims.append, others.append
    claim_name = CLAIM_NAME.fullmatch
    names = _CLAIM_NAMES
    if len(names) > MAX_KNOWN_NAMES:
        names.clear()
    read, open_, close = os.read, open_to_read, os.close
    limit = MAX_READ + 1
    with listing:
        for item in listing:
            name = item.name
            try:
                # A name already seen to be a claim's needs no second match: every tick lists
                # the same thousands of names.
                if name not in names:
                    if claim_name(name) is None:
                        other(Entry(name, problem=_not_read(item)))
                        continue
                    names.add(name)
                usual = item.is_file(follow_symlinks=False)
            except OSError:  # is_file stats where the listing has no type: gone meanwhile
                other(Entry(name, problem=VANISHED))
                continue
            if not usual:
                other(Entry(name, problem=_not_read(item)))
                continue
            if careful:
                whole = read_whole(Path(item.path))
                if whole.data is None:
                    other(whole)
                else:
                    add((name, whole.data))
                continue
            try:
                # No link followed, no FIFO waited on, no access time written back.
                fd = open_(item.path, noatime=True)
            except OSError as e:
                other(Entry(name, problem=_cannot_open(e)))
                continue
            try:
                data = read(fd, limit)
                if 0 < len(data) < limit:
                    add((name, data))
                else:
                    other(Entry(name, problem=_odd(fd, len(data))))
            except OSError as e:
                other(Entry(name, problem=_cannot_read(e, fd)))
            finally:
                close(fd)
    return claims, others


def linked_folder(root: Path, part: str) -> tuple[str, str] | None:
    """(name, reason) when `leases/` or `leases/<part>` under `root` is a link or not a folder.

    A sync tool carries links: one planted as a part's folder would have this computer list and
    write claims wherever it points (`/etc`, as root). Such a folder is refused, never followed.
    A folder not made yet is fine (the first write makes it).
    """
    for path in (root / "leases", root / "leases" / part):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as e:
            return path.name, Core.mark("cannot be read: {error}", error=e.strerror)
        if stat.S_ISLNK(st.st_mode):
            return path.name, Core.mark(
                "{folder} is a link, not a folder: refused (remove it)",
                folder=path.relative_to(root).as_posix(),
            )
        if not stat.S_ISDIR(st.st_mode):
            return path.name, Core.mark(
                "{folder} is not a folder: refused (remove it)",
                folder=path.relative_to(root).as_posix(),
            )
    return None


def read_whole(path: Path) -> Entry:
    """One claim file read to its end, however many reads it takes: the careful path."""
    try:
        data = read_bounded(path, MAX_READ, noatime=True)
    except FileNotFoundError:
        return Entry(path.name, problem=VANISHED)
    except NotReadable as e:
        return Entry(path.name, problem=_refused(e))
    return Entry(path.name, data) if data else Entry(path.name, problem=EMPTY)


def _refused(e: NotReadable) -> str:
    """The reason a claim file is listed with, for what the bounded reader refused."""
    if e.kind == LINK:
        return Core.mark("a link, not a file")
    if e.kind == NOT_A_FILE:
        return Core.mark("not a regular file")
    if e.kind == TOO_LARGE:
        return _too_large(e.size or 0)
    return _cannot_open(e.error or OSError(errno.EIO, e.kind))  # FAILED, with the system's error


def _not_read(item: os.DirEntry[str]) -> str:
    """Why a listed file is not read: its name, or what it is."""
    name = item.name
    if not CLAIM_NAME.fullmatch(name):
        return why_not_a_claim(name)
    try:
        if item.is_symlink():
            return Core.mark("a link, not a file")
        if item.is_dir(follow_symlinks=False):
            return Core.mark("a folder, not a file")
    except OSError:
        return VANISHED
    return Core.mark("not a regular file")


def _odd(fd: int, got: int) -> str:
    """Why a claim file opened but read as empty or too long: only now is it worth a stat."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # swapped for a FIFO or a device after listing
        return Core.mark("not a regular file")
    if got == 0:
        return EMPTY
    return _too_large(st.st_size)


def _too_large(size: int) -> str:
    if size <= MAX_READ:  # it was longer while reading
        return Core.mark("grew too large while reading")
    return Core.mark("too large ({size} bytes)", size=size)


def _cannot_open(e: OSError) -> str:
    if isinstance(e, FileNotFoundError):
        return VANISHED
    if e.errno == errno.ELOOP:
        return Core.mark("a link, not a file")
    return _cannot_read(e)


def _cannot_read(e: OSError, fd: int | None = None) -> str:
    if fd is not None:
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder or a FIFO swapped in
                return Core.mark("not a regular file")
    if isinstance(e, PermissionError):
        return Core.mark("cannot be read: permission denied")
    return Core.mark("cannot be read: {error}", error=e.strerror)


def file_size(path: Path) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def remove_leftovers(folder: Path, computer: str) -> None:
    """Remove this computer's temporaries left by a crash mid-write."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    prefix = f".~{computer}."
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)
