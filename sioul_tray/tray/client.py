"""Talking to the running tray from another process: a second launch, the command line, scripts.

No Qt here on Unix (a plain Unix socket), so the command line stays quick; see `single` for the
server side and the protocol.
"""

from __future__ import annotations

import getpass
import json
import os
import socket
import sys
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

MAX_REQUEST = 64 * 1024


def server_name(state_dir: Path) -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    key = f"{user}\0{Path(state_dir).resolve()}".encode()
    # Two independent 32-bit checksums: a name, not a secret (the socket is the user's own).
    return f"sioul-tray-{zlib.crc32(key):08x}{zlib.adler32(key):08x}"


def socket_path(state_dir: Path) -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return Path(base) / f"{server_name(state_dir)}.sock"


def _decode(data: bytes) -> tuple[int, str] | None:
    try:
        answer = json.loads(data)
        return int(answer["rc"]), str(answer["out"])
    except (ValueError, KeyError, TypeError):
        return None


def ask(state_dir: Path, argv: Sequence[str], timeout_ms: int = 5000) -> tuple[int, str] | None:
    """Pass a request to the running tray; its answer, or None when no tray runs."""
    request = json.dumps({"argv": list(argv)}).encode() + b"\n"
    if sys.platform == "win32":
        return _ask_pipe(state_dir, request, timeout_ms)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_ms / 1000)
        try:
            sock.connect(str(socket_path(state_dir)))
            sock.sendall(request)
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    return None
                data += chunk
        except OSError:
            return None
    return _decode(data)


def _ask_pipe(state_dir: Path, request: bytes, timeout_ms: int) -> tuple[int, str] | None:
    from PySide6.QtNetwork import QLocalSocket

    sock = QLocalSocket()
    sock.connectToServer(server_name(state_dir))
    if not sock.waitForConnected(timeout_ms):
        return None
    try:
        sock.write(request)
        sock.flush()
        data = b""
        while not data.endswith(b"\n"):
            if not sock.waitForReadyRead(timeout_ms):
                return None
            data += bytes(sock.readAll().data())
        return _decode(data)
    finally:
        sock.disconnectFromServer()


# The command line's requests that the running tray carries out itself: it is the only writer of
# this computer's claims while it runs.
THROUGH_TRAY = ("take", "close", "renew", "forget", "wrote", "look")


def through_tray(state_dir: Path, argv: Sequence[str], out: TextIO) -> int | None:
    """Run a command line request in the running tray and print its answer; its exit code, or
    None when no tray runs here (the command line then does the work itself)."""
    if not argv or argv[0] not in THROUGH_TRAY:
        return None
    answer = ask(state_dir, argv)
    if answer is None:
        return None
    rc, text = answer
    out.write(text)
    return rc
