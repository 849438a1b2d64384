"""One tray per installation: a second launch, and the command line, talk to the running one.

The running tray listens on a local socket (`request` says what travels and where).

On Unix it is a plain Unix socket (0600, in a folder of this user's alone: `request.socket_path`)
read through a QSocketNotifier: QtNetwork would add about 3 MB to a process meant to stay small. On
Windows, a QLocalServer (a named pipe).
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier, QTimer

from sioul_tray.i18n import App
from sioul_tray.tray.client import ask
from sioul_tray.tray.request import (
    MAX_REQUEST,
    decode_request,
    encode_answer,
    private_folder,
    server_name,
    socket_path,
)

Handler = Callable[[list[str]], tuple[int, str]]


MAX_CLIENTS = 16  # connections at once; beyond, the oldest is dropped
CLIENT_SECONDS = 5.0  # a connection that has not sent its request by then is dropped
PAUSE_MS = 1000  # after the process ran out of files, accept again this much later


def _answer(handler: Handler, data: bytes) -> bytes:
    """The answer to one request. Whatever the words, the tray answers and goes on: a request
    it could not take is said to be one, never a traceback in the tray's loop."""
    try:
        rc, out = handler(decode_request(data))
    except Exception:
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
        """Start listening; False when another tray of this installation already does.
        NotPrivate (an OSError) when the socket's folder is not this user's alone."""
        return self._impl.listen()

    def close(self) -> None:
        self._impl.close()


class _UnixServer:
    def __init__(self, owner: Server) -> None:
        self.owner = owner
        self.path = socket_path(owner.state_dir)
        self.sock: socket.socket | None = None
        self.notifier: QSocketNotifier | None = None
        # Each connection: its socket, its notifier, what it sent so far, when it came.
        self.clients: dict[int, tuple[socket.socket, QSocketNotifier, bytearray, float]] = {}
        self.sweep = QTimer(owner)  # drops connections that say nothing
        self.sweep.setInterval(1000)
        self.sweep.timeout.connect(self._drop_idle)

    def listen(self) -> bool:
        private_folder(self.path)  # raises NotPrivate: never listen where others may bind
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
        self.sweep.start()
        return True

    def _accept(self, *_: Any) -> None:
        assert self.sock is not None
        while True:
            try:
                client, _addr = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    self._pause()  # the listening socket stays readable: no loop on it
                return
            if len(self.clients) >= MAX_CLIENTS:
                self._drop(next(iter(self.clients)))  # the oldest
            client.setblocking(False)
            notifier = QSocketNotifier(client.fileno(), QSocketNotifier.Type.Read, self.owner)
            fd = client.fileno()
            self.clients[fd] = (client, notifier, bytearray(), time.monotonic())
            notifier.activated.connect(lambda *_a, fd=fd: self._read(fd))

    def _pause(self) -> None:
        """Out of files: make room and stop accepting for a moment."""
        if self.clients:
            self._drop(next(iter(self.clients)))
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            QTimer.singleShot(PAUSE_MS, self._resume)

    def _resume(self) -> None:
        if self.notifier is not None and self.sock is not None:
            self.notifier.setEnabled(True)

    def _read(self, fd: int) -> None:
        if fd not in self.clients:
            return
        client, _notifier, buffer, _came = self.clients[fd]
        try:
            chunk = client.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        buffer += chunk
        if chunk and not buffer.endswith(b"\n") and len(buffer) < MAX_REQUEST:
            return
        try:
            if buffer.endswith(b"\n"):
                reply = _answer(self.owner.handler, bytes(buffer))
                client.setblocking(True)
                client.settimeout(2)
                with contextlib.suppress(OSError):
                    client.sendall(reply)
        finally:
            self._drop(fd)

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for fd in [fd for fd, (*_, came) in self.clients.items() if now - came > CLIENT_SECONDS]:
            self._drop(fd)

    def _drop(self, fd: int) -> None:
        client, notifier, _buffer, _came = self.clients.pop(fd)
        notifier.setEnabled(False)
        notifier.deleteLater()
        client.close()

    def close(self) -> None:
        self.sweep.stop()
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
