"""Files that appear whole or not at all, and never over what a person set up. No Qt here.

For the seal, the computer id and the key cache: a temporary with a random name, created
exclusively and without following links (nobody can plant one to read it or redirect it),
fsynced, then linked to its name, or renamed over the old file where replacing is meant. Claim
files have their own writer (`lease.folder.write_atomic`), which sync tools watch.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

# Links are refused by some file systems (FAT, exFAT, some network shares): then the file is made
# exclusively in place, and removed again if it could not be written whole.
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS, errno.EACCES}


def write_new(path: Path, data: bytes, *, replace: bool = False, mode: int = 0o644) -> None:
    """Write `path` whole or not at all. FileExistsError when it exists and `replace` is false;
    OSError (with the errno: a full disk, a read-only folder) when it cannot be written."""
    tmp = path.with_name(f".~{path.name}.{os.urandom(8).hex()}.tmp")
    try:
        _write(tmp, data, mode)
        if replace:
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError as e:
            if e.errno not in _NO_LINKS:
                raise
            _write_in_place(path, data, mode)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _sync_folder(path.parent)


def _write(path: Path, data: bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0), mode)
    try:
        if os.name != "nt":
            os.fchmod(fd, mode)  # the umask must not change it
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_in_place(path: Path, data: bytes, mode: int) -> None:
    try:
        _write(path, data, mode)
    except FileExistsError:
        raise
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)  # made by this call (exclusively): never half a file left
        raise


def _sync_folder(folder: Path) -> None:
    if os.name == "nt":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
