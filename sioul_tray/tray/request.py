"""The requests to the running tray, as they travel between processes (no Qt, no I/O).

A request is one JSON line `{"argv": [...]}`; the answer one JSON line `{"rc": int, "out": str}`.
The client side (`client`: a second launch, the command line, scripts) and the server side
(`single`, in the tray) both speak it through this module; the tray's `handle_request` answers
the words. The server listens on a local socket whose name is derived from the user and the
installation's state directory, so two installations (SIOUL_TRAY_HOME) never mix.
"""

from __future__ import annotations

import json
import os
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path

# A request is never longer: a client that sends more is dropped unanswered.
MAX_REQUEST = 64 * 1024

# The command line's requests that the running tray carries out itself: while it runs, it is the
# only writer of this computer's claims (it holds the writer lock).
THROUGH_TRAY = ("take", "close", "renew", "forget", "wrote")


class BadRequest(ValueError):
    """A request that is not one JSON line with a list of words."""


def server_name(state_dir: Path) -> str:
    """The local server's name for this user and installation (a name, not a secret)."""
    key = f"{_user()}\0{Path(state_dir).resolve()}".encode()
    # Two independent 32-bit checksums: the socket is the user's own, so no secret is needed.
    return f"sioul-tray-{zlib.crc32(key):08x}{zlib.adler32(key):08x}"


def _user() -> str:
    """The login name as ``getpass.getuser`` finds it, without loading getpass (and termios,
    0.1 MB of the tray's memory at start, measured) for one name."""
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        user = os.environ.get(variable)
        if user:
            return user
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, OSError):
        return ""


def socket_path(state_dir: Path) -> Path:
    """Where the Unix socket of `server_name` lives."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return Path(base) / f"{server_name(state_dir)}.sock"


def encode_request(argv: Sequence[str]) -> bytes:
    return json.dumps({"argv": list(argv)}).encode() + b"\n"


def decode_request(data: bytes) -> list[str]:
    """The words of a request; `BadRequest` when it is not one."""
    try:
        argv = json.loads(data)["argv"]
    except (ValueError, KeyError, TypeError) as e:
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
    except (ValueError, KeyError, TypeError):
        return None
