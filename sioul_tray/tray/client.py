"""Talking to the running tray from another process: a second launch, the command line, scripts.

No Qt here on Unix (a plain Unix socket), so the command line stays quick; `single` is the server
side, `request` what travels.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from sioul_tray.tray.request import (
    THROUGH_TRAY,
    decode_answer,
    encode_request,
    server_name,
    socket_path,
)


def ask(state_dir: Path, argv: Sequence[str], timeout_ms: int = 5000) -> tuple[int, str] | None:
    """Pass a request to the running tray; its answer, or None when no tray runs."""
    request = encode_request(argv)
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
    return decode_answer(data)


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
        return decode_answer(data)
    finally:
        sock.disconnectFromServer()


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
