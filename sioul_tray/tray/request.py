"""The requests to the running tray, as they travel between processes (no Qt, no I/O).

A request is one JSON line `{"argv": [...]}`; the answer one JSON line `{"rc": int, "out": str}`.
The client side (`client`: a second launch, the command line, scripts) and the server side
(`single`, in the tray) both speak it through this module; the tray's `answers` answer
the words. The server listens on a local socket whose name is derived from the user and the
installation's state directory, so two installations (SIOUL_TRAY_HOME) never mix.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path

# A request is never longer: a client that sends more is dropped unanswered.
MAX_REQUEST = 64 * 1024

# The command line's requests that the running tray carries out itself: while it runs, it is the
# only writer of this computer's claims (it holds the writer lock).
THROUGH_TRAY = ("take", "close", "renew", "forget", "wrote")
CONFIRM = "confirm"  # `sioul-tray wrote PART N --confirm`, as the tray takes it (S6)


class BadRequest(ValueError):
    """A request that is not one JSON line with a list of words."""


def server_name(state_dir: Path) -> str:
    """The local server's name for this user and installation (a name, not a secret)."""
    key = f"{_user()}\0{Path(state_dir).resolve()}".encode()
    # Two independent 32-bit checksums: the socket is the user's own, so no secret is needed.
    return f"sioul-tray-{zlib.crc32(key):08x}{zlib.adler32(key):08x}"


def _user() -> str:
    """The login name as ``getpass.getuser`` finds it, without loading getpass (and termios,
    which would stay in the tray's memory) for one name."""
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        user = os.environ.get(variable)
        if user:
            return user
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, OSError):
        return ""


# The longest path a Unix socket may have everywhere (macOS: 104 bytes with the final NUL).
MAX_SOCKET_PATH = 100


class NotPrivate(OSError):
    """The socket's folder, or the socket, is not this user's alone: nobody is asked there."""


def socket_path(state_dir: Path) -> Path:
    """Where the Unix socket of `server_name` lives: in a folder that is this user's alone.

    `$XDG_RUNTIME_DIR` when it is ours and 0700 (the session's, cleaned at logout); else the
    state directory's ``run`` folder, made 0700; else, for a state directory too deep for a
    socket's path, ``sioul-tray-<uid>`` in the temporary folder, made 0700 and checked ours.
    Never the shared temporary folder itself, where another user could bind the name first.
    """
    name = f"{server_name(state_dir)}.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _private(Path(runtime)) and len(os.fsencode(runtime)) + len(name) < 99:
        return Path(runtime) / name
    run = Path(state_dir) / "run"
    if len(os.fsencode(str(run / "tray.sock"))) <= MAX_SOCKET_PATH:
        return run / "tray.sock"
    return Path(tempfile.gettempdir()) / f"sioul-tray-{os.getuid()}" / name


def private_folder(path: Path) -> Path:
    """Make (0700) or check the folder of `path` as this user's alone; NotPrivate if it is not
    (another user made it first, or it is a link, or others may enter it)."""
    folder = path.parent
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700, parents=True)
    if not _private(folder):
        raise NotPrivate(f"{folder} is not this user's alone")
    return folder


def _private(folder: Path) -> bool:
    """A real folder (not a link), owned by this user, that nobody else may enter or write."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077 == 0


def owned_socket(path: Path) -> bool:
    """`path` is a socket this user made, in a folder of this user's alone."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid() and _private(path.parent)


def encode_request(argv: Sequence[str]) -> bytes:
    return json.dumps({"argv": list(argv)}).encode() + b"\n"


def decode_request(data: bytes) -> list[str]:
    """The words of a request; `BadRequest` when it is not one."""
    try:
        argv = json.loads(data)["argv"]
    except (ValueError, KeyError, TypeError, RecursionError) as e:  # Recursion: nested too deep
        raise BadRequest("not a request") from e
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise BadRequest("the request's argv is not a list of words")
    return argv


def encode_answer(rc: int, out: str) -> bytes:
    return json.dumps({"rc": rc, "out": out}).encode() + b"\n"


def decode_answer(data: bytes) -> tuple[int, str] | None:
    """(exit code, text) of an answer; None when it is not one (the tray is not ours)."""
    try:
        answer = json.loads(data)
        return int(answer["rc"]), str(answer["out"])
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
