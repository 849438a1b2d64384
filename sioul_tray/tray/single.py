"""One tray per installation: a second launch, and the command line, talk to the running one.

The running tray listens on a local socket (`request` says what travels and where).

On Unix it is a plain Unix socket (0600, in `$XDG_RUNTIME_DIR` or the temporary directory) read
through a QSocketNotifier: QtNetwork would add about 3 MB to a process meant to stay small. On
Windows, a QLocalServer (a named pipe).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier

from sioul_tray.i18n import App
from sioul_tray.tray.client import ask
from sioul_tray.tray.request import (
    MAX_REQUEST,
    BadRequest,
    decode_request,
    encode_answer,
    server_name,
    socket_path,
)

Handler = Callable[[list[str]], tuple[int, str]]


def _answer(handler: Handler, data: bytes) -> bytes:
    try:
        rc, out = handler(decode_request(data))
    except (BadRequest, ValueError, KeyError, TypeError):  # words the handler could not take
        text = App.tr("sioul-tray: the running tray did not understand the request")
        rc, out = 2, text + "\n"
    return encode_answer(rc, out)


class Server(QObject):
    """Listens for requests while the tray runs."""

    def __init__(self, state_dir: Path, handler: Handler, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state_dir = state_dir
        self.handler = handler
        self._impl: _UnixServer | _PipeServer = (
            _PipeServer(self) if sys.platform == "win32" else _UnixServer(self)
        )

    def listen(self) -> bool:
        """Start listening; False when another tray of this installation already does."""
        return self._impl.listen()

    def close(self) -> None:
        self._impl.close()


class _UnixServer:
    def __init__(self, owner: Server) -> None:
        self.owner = owner
        self.path = socket_path(owner.state_dir)
        self.sock: socket.socket | None = None
        self.notifier: QSocketNotifier | None = None
        self.clients: dict[int, tuple[socket.socket, QSocketNotifier, bytearray]] = {}

    def listen(self) -> bool:
        if ask(self.owner.state_dir, ["ping"], timeout_ms=1000) is not None:
            return False
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # left by a tray that crashed: nobody answers on it
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is born 0600: only this user may ask
        try:
            sock.bind(str(self.path))
        except OSError:
            sock.close()
            return False
        finally:
            os.umask(old)
        sock.listen(8)
        sock.setblocking(False)
        self.sock = sock
        self.notifier = QSocketNotifier(sock.fileno(), QSocketNotifier.Type.Read, self.owner)
        self.notifier.activated.connect(self._accept)
        return True

    def _accept(self, *_: Any) -> None:
        assert self.sock is not None
        while True:
            try:
                client, _addr = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            client.setblocking(False)
            notifier = QSocketNotifier(client.fileno(), QSocketNotifier.Type.Read, self.owner)
            fd = client.fileno()
            self.clients[fd] = (client, notifier, bytearray())
            notifier.activated.connect(lambda *_a, fd=fd: self._read(fd))

    def _read(self, fd: int) -> None:
        client, _notifier, buffer = self.clients[fd]
        try:
            chunk = client.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        buffer += chunk
        if chunk and not buffer.endswith(b"\n") and len(buffer) < MAX_REQUEST:
            return
        if buffer.endswith(b"\n"):
            reply = _answer(self.owner.handler, bytes(buffer))
            client.setblocking(True)
            client.settimeout(2)
            with contextlib.suppress(OSError):
                client.sendall(reply)
        self._drop(fd)

    def _drop(self, fd: int) -> None:
        client, notifier, _buffer = self.clients.pop(fd)
        notifier.setEnabled(False)
        notifier.deleteLater()
        client.close()

    def close(self) -> None:
        for fd in list(self.clients):
            self._drop(fd)
        if self.notifier is not None:
            self.notifier.setEnabled(False)
        if self.sock is not None:
            self.sock.close()
            self.sock = None
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()


class _PipeServer:
    def __init__(self, owner: Server) -> None:
        from PySide6.QtNetwork import QLocalServer

        self.owner = owner
        self.name = server_name(owner.state_dir)
        self.server = QLocalServer(owner)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self.buffers: dict[Any, bytes] = {}

    def listen(self) -> bool:
        from PySide6.QtNetwork import QLocalServer

        if self.server.listen(self.name):
            return True
        if ask(self.owner.state_dir, ["ping"], timeout_ms=1000) is not None:
            return False
        QLocalServer.removeServer(self.name)
        return bool(self.server.listen(self.name))

    def _accept(self) -> None:
        while (sock := self.server.nextPendingConnection()) is not None:
            self.buffers[sock] = b""
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._drop(s))

    def _drop(self, sock: Any) -> None:
        self.buffers.pop(sock, None)
        sock.deleteLater()

    def _read(self, sock: Any) -> None:
        data = self.buffers.get(sock, b"") + bytes(sock.readAll().data())
        if not data.endswith(b"\n"):
            if len(data) >= MAX_REQUEST:  # as on Unix: dropped unanswered
                sock.disconnectFromServer()
                return
            self.buffers[sock] = data
            return
        self.buffers[sock] = b""
        sock.write(_answer(self.owner.handler, data))
        sock.flush()

    def close(self) -> None:
        self.server.close()
