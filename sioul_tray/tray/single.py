"""One tray per installation: a second launch, and the command line, talk to the running one.

The running tray listens on a QLocalServer (a Unix socket or a Windows named pipe) whose name is
derived from the installation's state directory, so two installations (SIOUL_TRAY_HOME) never mix.
A request is one JSON line `{"argv": [...]}`; the answer one JSON line `{"rc": int, "out": str}`.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

Handler = Callable[[list[str]], tuple[int, str]]


def server_name(state_dir: Path) -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    digest = hashlib.sha256(f"{user}\0{Path(state_dir).resolve()}".encode()).hexdigest()
    return f"sioul-tray-{digest[:16]}"


def ask(state_dir: Path, argv: Sequence[str], timeout_ms: int = 5000) -> tuple[int, str] | None:
    """Pass a request to the running tray; its answer, or None when no tray runs."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(state_dir))
    if not socket.waitForConnected(timeout_ms):
        return None
    try:
        socket.write(json.dumps({"argv": list(argv)}).encode() + b"\n")
        socket.flush()
        data = b""
        while not data.endswith(b"\n"):
            if not socket.waitForReadyRead(timeout_ms):
                return None
            data += bytes(socket.readAll().data())
        answer = json.loads(data)
        return int(answer["rc"]), str(answer["out"])
    except (ValueError, KeyError, TypeError):
        return None
    finally:
        socket.disconnectFromServer()


class Server(QObject):
    """Listens for requests while the tray runs."""

    def __init__(self, state_dir: Path, handler: Handler, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(state_dir)
        self.handler = handler
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        """Start listening; False when another tray of this installation already does."""
        if self.server.listen(self.name):
            return True
        probe = QLocalSocket()
        probe.connectToServer(self.name)
        if probe.waitForConnected(1000):
            probe.disconnectFromServer()
            return False
        # A socket file left by a tray that crashed: nobody answers on it.
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while (socket := self.server.nextPendingConnection()) is not None:
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._drop(s))

    def _drop(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    def _read(self, socket: QLocalSocket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if not data.endswith(b"\n"):
            self._buffers[socket] = data
            return
        self._buffers[socket] = b""
        try:
            argv = json.loads(data)["argv"]
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise TypeError
            rc, out = self.handler(argv)
        except (ValueError, KeyError, TypeError):
            rc, out = 2, "sioul-tray: the running tray did not understand the request\n"
        socket.write(json.dumps({"rc": rc, "out": out}).encode() + b"\n")
        socket.flush()
