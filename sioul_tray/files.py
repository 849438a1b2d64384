"""Files that appear whole or not at all, and never over what a person set up. No Qt here.

Every file this program writes goes through `write_new`: a temporary with a random name, created
exclusively and without following links (nobody can plant one to read it or redirect it), given
its mode whatever the umask, fsynced, then linked to its name, or renamed over the old file where
replacing is meant. Claim files and the state file come here through `write_atomic`,
the settings, status.json, closed.json, the seal, the computer id and the key cache directly.
The one file opened in place is the writer lock (`open_lock`): never through a link either.
Folders are made by `make_folders`, each with its mode whatever the umask. docs/files.md lists
what is written where, with the modes.

Every file this program reads goes through `read_bounded` (a tick's one read of each claim file
through its open, `open_to_read`, in `lease.folder`): a regular file only, opened without
following a link and without blocking, and never more than the cap its kind allows. A peer can
sync a link to /dev/zero, a FIFO or a 2 GB file into the folder, and a damaged disk can grow a
local file: none of them may block the tray or grow its memory.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from pathlib import Path

from sioul_tray.errors import SioulError
from sioul_tray.i18n import Core

# Links are refused by some file systems (FAT, exFAT, some network shares): then the file is made
# exclusively in place, and removed again if it could not be written whole.
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS, errno.EACCES}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# A FIFO opened for reading without O_NONBLOCK waits for a writer, for ever: with it the open
# returns at once, and the fstat that follows refuses the FIFO before any read.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_READ_FLAGS = os.O_RDONLY | _NONBLOCK | _CLOEXEC | getattr(os, "O_BINARY", 0)
# Reading must not write to the disk: with the usual `relatime`, the first read of a file after each
# change updates its access time, so every tick would write back one inode per claim (2,000 with
# 1,000 computers, each minute, on a laptop's disk). Linux lets only the file's owner ask this,
# which the person is in their own sharing folder; elsewhere the open is tried again without it.
_NOATIME = getattr(os, "O_NOATIME", 0)


def make_folders(path: Path, mode: int) -> None:
    """`path` and its missing parents, each made with `mode` whatever the umask (under umask 000,
    mkdir alone would make ~/.config or ~/.local/state writable by everyone). Folders that exist
    are left as they are. OSError when one cannot be made."""
    missing: list[Path] = []
    while not path.is_dir():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, mode)
        except FileExistsError:
            if not folder.is_dir():
                raise
            continue  # made by another process meanwhile: its mode is its own
        _fix_folder_mode(folder, mode)


def _fix_folder_mode(folder: Path, mode: int) -> None:
    if os.name == "nt":
        return
    # Through a descriptor of the folder itself: a link swapped in after mkdir is not followed.
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC)
    try:
        _set_mode(fd, mode)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace `path` with `data` through a fsynced temporary and one rename; never in place:
    `write_new`'s way for claim files and the state file, mode 0644 whatever the umask."""
    write_new(path, data, replace=True, mode=0o644, sync=sync)


def write_new(
    path: Path, data: bytes, *, replace: bool = False, mode: int = 0o644, sync: bool = True
) -> None:
    """Write `path` whole or not at all. FileExistsError when it exists and `replace` is false;
    OSError (with the errno: a full disk, a read-only folder) when it cannot be written.

    `replace`: rename over the old file (a link there is replaced, never followed). `sync`:
    fsync the file and its folder (off for a file a crash may lose, as the state file)."""
    tmp = path.with_name(f".~{path.name}.{os.urandom(8).hex()}.tmp")
    try:
        _write(tmp, data, mode, sync)
        if replace:
            _replace(tmp, path)
        else:
            _link(tmp, path, data, mode, sync)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if sync:
        _sync_folder(path.parent)


def _link(tmp: Path, path: Path, data: bytes, mode: int, sync: bool) -> None:
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in _NO_LINKS:
            raise
        _write_in_place(path, data, mode, sync)


def _write(path: Path, data: bytes, mode: int, sync: bool) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0), mode)
    try:
        _set_mode(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _set_mode(fd: int, mode: int) -> None:
    """`mode`, whatever the umask. A file system without modes (FAT, exFAT, some shares) refuses
    the change: the file stands if nobody else may write it there."""
    if os.name == "nt":
        return
    try:
        os.fchmod(fd, mode)
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
        if stat.S_IMODE(os.fstat(fd).st_mode) & ~mode & 0o022:
            raise


def _write_in_place(path: Path, data: bytes, mode: int, sync: bool) -> None:
    try:
        _write(path, data, mode, sync)
    except FileExistsError:
        raise
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)  # made by this call (exclusively): never half a file left
        raise


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
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class NotPlain(OSError):
    """Where this program keeps a file of its own: a link (symbolic or hard), something that is
    not a regular file, or another user's file. Nothing was written to it."""


def open_lock(path: Path) -> int:
    """The lock file at `path`, opened for reading and writing, made (0600) when missing; its
    descriptor. Never through a link: NotPlain for anything but this user's own regular file,
    which a planted link would make of any file (truncated as the holder's pid is written)."""
    # O_NONBLOCK: a FIFO planted there must not hang the open (no effect on a regular file).
    flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o600)
    except OSError as e:
        if _NOFOLLOW and e.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: FreeBSD's word
            raise NotPlain(e.errno, "a symbolic link", str(path)) from None
        raise
    try:
        st = os.fstat(fd)
        theirs = os.name != "nt" and st.st_uid != os.getuid()
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or theirs:
            raise NotPlain(errno.EPERM, "a link or not a plain file of this user", str(path))
        _set_mode(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd


class NotReadable(SioulError):
    """A file this program reads is not what it may read: a link, a FIFO, a device, a folder,
    larger than its kind allows, another user's, or the system refused it. The message names the
    file and says which; `kind` says it as a word (LINK, NOT_A_FILE, TOO_LARGE, FOREIGN, FAILED)
    for callers that keep their own words, with the file's `size` (TOO_LARGE) or the system's
    `error` (FAILED)."""

    def __init__(
        self,
        message: object,
        path: Path,
        kind: str,
        *,
        size: int | None = None,
        error: OSError | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.kind = kind
        self.size = size
        self.error = error


LINK = "link"
NOT_A_FILE = "not a file"
TOO_LARGE = "too large"
FAILED = "failed"
FOREIGN = "foreign"


def open_to_read(path: str | Path, *, follow: bool = False, noatime: bool = False) -> int:
    """`path` opened for reading without blocking (a FIFO answers at once) and, unless `follow`,
    without following a link (ELOOP then). `noatime`: its access time left alone where the system
    allows it (the claims, read at every tick). The descriptor; OSError as os.open raises it."""
    flags = _READ_FLAGS | (0 if follow else _NOFOLLOW)
    if noatime and _NOATIME:
        try:
            return os.open(path, flags | _NOATIME)
        except PermissionError:  # not the file's owner: O_NOATIME is refused, a plain open is not
            pass
    return os.open(path, flags)


def read_bounded(
    path: Path, cap: int, *, follow: bool = False, mine: bool = False, noatime: bool = False
) -> bytes:
    """The bytes of the regular file at `path`, at most `cap` of them (`noatime`: `open_to_read`).

    FileNotFoundError when there is none (callers tell "not made yet" from "wrong"); NotReadable,
    whose one line names the file and the fact, for a link (unless `follow`), a FIFO, a device, a
    socket or a folder (refused before any read), a file larger than `cap` (refused by its size
    before any read, or when it grows past it while read), with `mine` a file another user owns
    (POSIX), or an OSError from the system.
    """
    if not follow and not _NOFOLLOW and os.path.islink(path):  # no O_NOFOLLOW (Windows)
        raise _is_link(path)
    try:
        fd = open_to_read(path, follow=follow, noatime=noatime)
    except FileNotFoundError:
        raise
    except OSError as e:
        if not follow and e.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: FreeBSD's word
            raise _is_link(path) from None
        if e.errno == errno.ENXIO:  # a socket: open refuses it
            raise _not_a_file(path, Core.mark("a socket")) from None
        raise _failed(path, e) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_a_file(path, _what(st.st_mode))
        if mine and os.name != "nt" and st.st_uid != os.getuid():
            raise NotReadable(
                Core.mark("{path} belongs to another user: not trusted", path=path), path, FOREIGN
            )
        if st.st_size > cap:
            raise _too_large(path, st.st_size, cap)
        chunks: list[bytes] = []
        size = 0
        while size <= cap:  # a file that grows while read stops at cap + 1 bytes
            chunk = os.read(fd, cap + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise _too_large(path, max(size, os.fstat(fd).st_size), cap)
        return b"".join(chunks)
    except OSError as e:
        raise _failed(path, e) from None
    finally:
        os.close(fd)


def _what(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return Core.mark("a FIFO")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Core.mark("a device")
    if stat.S_ISDIR(mode):
        return Core.mark("a folder")
    if stat.S_ISSOCK(mode):
        return Core.mark("a socket")
    return Core.mark("something else")


def _is_link(path: Path) -> NotReadable:
    return NotReadable(
        Core.mark("{path} is a link, not a file: not read (remove it)", path=path), path, LINK
    )


def _not_a_file(path: Path, what: str) -> NotReadable:
    return NotReadable(
        Core.mark("{path} is {what}, not a file: not read (remove it)", path=path, what=what),
        path,
        NOT_A_FILE,
    )


def _too_large(path: Path, size: int, cap: int) -> NotReadable:
    return NotReadable(
        Core.mark(
            "{path} is too large ({size} bytes, at most {cap}): not read",
            path=path,
            size=size,
            cap=cap,
        ),
        path,
        TOO_LARGE,
        size=size,
    )


def _failed(path: Path, e: OSError) -> NotReadable:
    return NotReadable(
        Core.mark("cannot read {path}: {error}", path=path, error=e.strerror or str(e)),
        path,
        FAILED,
        error=e,
    )
