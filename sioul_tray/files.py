"""Files that appear whole or not at all, and never over what a person set up. No Qt here.

Every file this program writes goes through `write_new`: a temporary with a random name, created
exclusively and without following links (nobody can plant one to read it or redirect it), given
its mode whatever the umask, fsynced, then linked to its name, or renamed over the old file where
replacing is meant. Claim files and the state file come here through `write_atomic`,
the settings, status.json, closed.json, the seal, the computer id and the key cache directly.
The one file opened in place is the writer lock (`open_lock`): never through a link either.
Folders are made by `make_folders`, each with its mode whatever the umask. docs/files.md lists
what is written where, with the modes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from pathlib import Path

# Links are refused by some file systems (FAT, exFAT, some network shares): then the file is made
# exclusively in place, and removed again if it could not be written whole.
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS, errno.EACCES}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


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
