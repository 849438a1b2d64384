"""Claim files on disk: which names are claims, reading them safely, writing them atomically.

Only regular files named ``^[a-z0-9_]{1,63}\\.lease$`` of at most 4096 bytes are read; everything
else in a part's folder gets a reason, so the tray can say why a file does not count. A write goes
to a ``.~*.tmp`` temporary beside the claim, is fsynced, and replaces the claim with one atomic
rename: a reader, or a sync tool, never sees a torn claim.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from sioul_tray.i18n import Core

CLAIM_NAME = re.compile(r"([a-z0-9_]{1,63})\.lease")
MAX_READ = 4096

# Names some tool leaves beside claims, with what they are. First match wins.
_NOT_CLAIMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\.~.*\.tmp"), Core.mark("temporary file: still being written")),
    (
        re.compile(r"(\.syncthing\..*|~syncthing~.*)\.tmp"),
        Core.mark("Syncthing temporary: still syncing"),
    ),
    (re.compile(r".*\.sync-conflict-.*"), Core.mark("conflicted copy made by Syncthing")),
    (
        re.compile(r".*\(.*conflicted copy.*\).*", re.I),
        Core.mark("conflicted copy made by the sync tool"),
    ),
    (re.compile(r".*\(.*case conflict.*\).*", re.I), Core.mark("case conflict made by Dropbox")),
    (
        re.compile(r".*_conflict-\d{8}-\d{6}.*"),
        Core.mark("conflicted copy made by ownCloud or Nextcloud"),
    ),
    (re.compile(r"\..*\.icloud"), Core.mark("iCloud placeholder: not downloaded yet")),
    (re.compile(r"\..*\.~[0-9a-f]+"), Core.mark("Nextcloud temporary: still syncing")),
    (
        re.compile(r".*\.(part|partial|crdownload|download)"),
        Core.mark("partial download: still syncing"),
    ),
    (re.compile(r"[a-z0-9_]{1,63} \d+\.lease"), Core.mark("conflicted copy (iCloud style)")),
    (re.compile(r"[a-z0-9_]{1,63}-[^.]+\.lease"), Core.mark("conflicted copy (OneDrive style)")),
    (
        re.compile(r"(\.ds_store|desktop\.ini|thumbs\.db|\.dropbox.*|icon\r)", re.I),
        Core.mark("system file"),
    ),
    (re.compile(r".*\.lease", re.I | re.S), Core.mark("not a claim file name")),
)

VANISHED = Core.mark("vanished while reading")

# Reasons that only mean "wait a little": the tray lists them but does not warn (tray/model.py).
PASSING = frozenset(
    {
        "temporary file: still being written",
        "Syncthing temporary: still syncing",
        "iCloud placeholder: not downloaded yet",
        "Nextcloud temporary: still syncing",
        "partial download: still syncing",
        "system file",
        "vanished while reading",
    }
)


def why_not_a_claim(name: str) -> str:
    """The reason a file name in a part's folder is not a claim."""
    for pattern, reason in _NOT_CLAIMS:
        if pattern.fullmatch(name):
            return reason
    return Core.mark("not a claim")


class Entry(NamedTuple):
    """One file of a part's folder: a claim candidate with its bytes, or a reason it is not.

    A named tuple, not a dataclass: a tick makes one per file, thousands with many computers.
    """

    name: str
    signature: tuple[int, int, int] | None = None  # (inode, size, mtime_ns) when it was read
    data: bytes | None = None
    problem: str | None = None


# A named tuple's own constructor is a Python function; tuple's is not. A tick makes one Entry
# per file (2,000 with 1,000 computers): the two usual ones are made this way, 0.3 us each less.
_new = tuple.__new__


def signature_of(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)  # a link put in place after listing is still refused
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO put in place after listing must not block the tick
    | getattr(os, "O_BINARY", 0)
)


def scan(folder: Path, known: dict[str, tuple[int, int, int]] | None = None) -> Iterator[Entry]:
    """The entries of a part's folder. A claim whose signature is in `known` is not read again.

    A file that is unchanged since the last read (same inode, size and nanosecond mtime) yields an
    Entry without data; the caller keeps what it read before.
    """
    try:
        listing = os.scandir(folder)
    except FileNotFoundError:
        return
    except OSError as e:
        yield Entry(
            name=".", problem=Core.mark("cannot list the folder: {error}", error=e.strerror)
        )
        return
    with listing:
        for item in listing:
            name = item.name
            if not CLAIM_NAME.fullmatch(name):
                yield Entry(name=name, problem=why_not_a_claim(name))
                continue
            yield _read(item, known)


def _read(item: os.DirEntry[str], known: dict[str, tuple[int, int, int]] | None) -> Entry:
    name = item.name
    try:
        if not item.is_file(follow_symlinks=False):  # from the listing: no system call on Linux
            if item.is_symlink():
                return Entry(name, problem=Core.mark("a link, not a file"))
            if item.is_dir(follow_symlinks=False):
                return Entry(name, problem=Core.mark("a folder, not a file"))
            return Entry(name, problem=Core.mark("not a regular file"))
    except OSError:
        return Entry(name, problem=VANISHED)
    try:
        fd = os.open(item.path, _OPEN_FLAGS)
    except FileNotFoundError:
        return Entry(name, problem=VANISHED)
    except PermissionError:
        return Entry(name, problem=Core.mark("cannot be read: permission denied"))
    except OSError as e:
        if e.errno == errno.ELOOP:
            return Entry(name, problem=Core.mark("a link, not a file"))
        return Entry(name, problem=Core.mark("cannot be read: {error}", error=e.strerror))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return Entry(name, problem=Core.mark("not a regular file"))
        sig = (st.st_ino, st.st_size, st.st_mtime_ns)
        if known is not None and known.get(name) == sig:
            return _new(Entry, (name, sig, None, None))
        size = st.st_size
        if size == 0:
            return Entry(name, sig, problem=Core.mark("empty: still syncing"))
        if size > MAX_READ:
            return Entry(name, sig, problem=Core.mark("too large ({size} bytes)", size=size))
        # One byte more than fstat said: a file that grew meanwhile shows in the same call.
        data = os.read(fd, size + 1)
        while len(data) < size:  # a short read (a network file system): read on to the end
            more = os.read(fd, size + 1 - len(data))
            if not more:
                break
            data += more
        if len(data) > size:
            data += os.read(fd, MAX_READ + 1 - len(data))
            if len(data) > MAX_READ:
                return Entry(name, sig, problem=Core.mark("grew too large while reading"))
        return _new(Entry, (name, sig, data, None))
    except PermissionError:
        return Entry(name, problem=Core.mark("cannot be read: permission denied"))
    except OSError as e:
        return Entry(name, problem=Core.mark("cannot be read: {error}", error=e.strerror))
    finally:
        os.close(fd)


def file_size(path: Path) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def write_atomic(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace `path` with `data` through a fsynced temporary and one rename; never in place."""
    folder = path.parent
    tmp = folder / f".~{path.stem}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        _replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync:
        _sync_folder(folder)


def _replace(tmp: Path, path: Path) -> None:
    # Windows refuses a rename while an antivirus, indexer or sync client holds the target open.
    for delay in (0.01, 0.05, 0.1, 0.25, 0.5):
        try:
            os.replace(tmp, path)
            return
        except PermissionError:
            if os.name != "nt":
                raise
            time.sleep(delay)
    os.replace(tmp, path)


def _sync_folder(folder: Path) -> None:
    # The rename itself is durable only once the folder is synced (POSIX); Windows has no such call.
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
