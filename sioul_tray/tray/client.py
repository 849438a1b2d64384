"""Talking to the running tray from another process: a second launch, the command line, scripts.

No Qt here on Unix (a plain Unix socket), so the command line stays quick; `single` is the server
side, `request` what travels.
"""

from __future__ import annotations

import os
import socket
import struct
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from sioul_tray.boot import boot_ticks
from sioul_tray.tray.request import (
    CONFIRM,
    THROUGH_TRAY,
    decode_answer,
    encode_request,
    owned_socket,
    server_name,
    socket_path,
)

# An answer is never longer (the Computers window's listing of a hundred computers is ~100 KB):
# a server that sends more is not the tray.
MAX_ANSWER = 4 * 1024 * 1024


ASK_MS = 5000  # the whole exchange with the tray, at most
# A mark (`wrote`) is sent with the boot-clock time after which the tray must refuse it: by then
# this process has given up on the answer (less a second for the answer to come back), and Sioul,
# told nothing, may drop the record; a mark taken after that would count a record that is gone.
MARK_ANSWER_MARGIN = 1.0


def ask(state_dir: Path, argv: Sequence[str], timeout_ms: int = ASK_MS) -> tuple[int, str] | None:
    """Pass a request to the running tray; its answer, or None when no tray of this user
    answers within `timeout_ms` in all (connecting, sending and reading)."""
    request = encode_request(argv)
    if sys.platform == "win32":
        return _ask_pipe(state_dir, request, timeout_ms)
    path = socket_path(state_dir)
    if not owned_socket(path):
        return None  # none there, or one another user made: never asked
    deadline = time.monotonic() + timeout_ms / 1000
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.settimeout(_left(deadline))
            sock.connect(str(path))
            if not _peer_is_me(sock):
                return None
            sock.settimeout(_left(deadline))
            sock.sendall(request)
            data = bytearray()
            while not data.endswith(b"\n"):
                sock.settimeout(_left(deadline))
                chunk = sock.recv(65536)
                if not chunk or len(data) + len(chunk) > MAX_ANSWER:
                    return None
                data += chunk
        except (OSError, ValueError):  # ValueError: the deadline passed (a timeout of 0 or less)
            return None
    return decode_answer(bytes(data))


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the tray did not answer in time")
    return left


def _peer_is_me(sock: socket.socket) -> bool:
    """The process at the other end runs as this user (Linux: SO_PEERCRED). Elsewhere the
    socket's owner and its private folder were checked before connecting (`owned_socket`)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, option, 12))
    return bool(uid == os.getuid())


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
            if len(data) > MAX_ANSWER:  # as on Unix: not the tray's answer
                return None
        return decode_answer(data)
    finally:
        sock.disconnectFromServer()


def through_tray(state_dir: Path, argv: Sequence[str], out: TextIO) -> int | None:
    """Run a command line request in the running tray and print its answer; its exit code, or
    None when no tray runs here (the command line then does the work itself)."""
    if not argv or (argv[0] not in THROUGH_TRAY and argv[0] != CONFIRM):
        return None
    if argv[0] == "wrote":
        argv = [*argv, f"{boot_ticks() + ASK_MS / 1000 - MARK_ANSWER_MARGIN:.3f}"]
    answer = ask(state_dir, argv)
    if answer is None:
        return None
    rc, text = answer
    out.write(text)
    return rc
