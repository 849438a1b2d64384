"""The request channel to the running tray (tray/single.py, tray/client.py): private to this
user, bounded in time and size, and a server that answers anything and goes on."""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from sioul_tray.tray import client, request, single
from sioul_tray.tray.request import NotPrivate, private_folder, socket_path


@pytest.fixture
def no_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)


def test_the_socket_lives_in_a_folder_of_this_user_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = Path(tempfile.mkdtemp(prefix="run-"))  # 0700, and short as /run/user/1000 is
    try:
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        assert socket_path(tmp_path / "state").parent == runtime
        runtime.chmod(0o755)  # a runtime folder others may enter is not used
        assert socket_path(tmp_path / "state") == tmp_path / "state" / "run" / "tray.sock"
    finally:
        runtime.rmdir()
    deep = tmp_path / ("d" * 120) / "state"
    fallback = socket_path(deep)
    assert fallback.parent.name == f"sioul-tray-{os.getuid()}"
    assert fallback.parent.parent != tmp_path and fallback.parent != Path("/tmp")


def test_a_folder_another_may_enter_or_a_link_is_refused(tmp_path: Path) -> None:
    open_folder = tmp_path / "open"
    open_folder.mkdir(mode=0o755)
    open_folder.chmod(0o755)
    with pytest.raises(NotPrivate):
        private_folder(open_folder / "tray.sock")
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    with pytest.raises(NotPrivate):
        private_folder(tmp_path / "link" / "tray.sock")
    assert private_folder(tmp_path / "mine" / "tray.sock").stat().st_mode & 0o777 == 0o700


class Listener:
    """A stranger's server on a Unix socket: each connection answered by `serve(conn)`."""

    def __init__(self, path: Path, serve: object) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(4)
        self.serve = serve
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn, contextlib.suppress(OSError):
                self.serve(conn)  # type: ignore[operator]

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def stranger(tmp_path: Path, no_runtime: None) -> Iterator[tuple[Path, list[Listener]]]:
    state = tmp_path / "state"
    path = socket_path(state)
    private_folder(path)
    made: list[Listener] = []
    yield state, made
    for listener in made:
        listener.close()


def test_a_server_that_trickles_is_given_up_on_in_time(
    stranger: tuple[Path, list[Listener]],
) -> None:
    state, made = stranger

    def trickle(conn: socket.socket) -> None:
        conn.recv(1000)
        for _ in range(100):
            conn.sendall(b" ")
            time.sleep(0.3)

    made.append(Listener(socket_path(state), trickle))
    began = time.monotonic()
    assert client.ask(state, ["renew"], timeout_ms=1500) is None
    assert time.monotonic() - began < 3  # one deadline for the whole exchange


def test_an_answer_too_large_is_not_read_whole(stranger: tuple[Path, list[Listener]]) -> None:
    state, made = stranger

    def flood(conn: socket.socket) -> None:
        conn.recv(1000)
        chunk = b"x" * 65536
        for _ in range(client.MAX_ANSWER // len(chunk) + 8):
            conn.sendall(chunk)

    made.append(Listener(socket_path(state), flood))
    assert client.ask(state, ["look"], timeout_ms=20000) is None


def test_a_socket_in_a_folder_others_may_enter_is_never_asked(
    tmp_path: Path, no_runtime: None
) -> None:
    state = tmp_path / "state"
    path = socket_path(state)
    private_folder(path)
    asked: list[bytes] = []
    listener = Listener(path, lambda conn: asked.append(conn.recv(1000)))
    try:
        path.parent.chmod(0o755)
        assert client.ask(state, ["take", "invoices"], timeout_ms=1000) is None
        time.sleep(0.2)
        assert asked == []  # the words never reached it
    finally:
        listener.close()


@pytest.mark.slow
@pytest.mark.skipif(os.getuid() != 0, reason="needs root: a server run as another user")
def test_a_server_run_by_another_user_is_never_believed(tmp_path: Path, no_runtime: None) -> None:
    """Another user's process listening where this user's client connects (the kernel says
    who it is: SO_PEERCRED): the client gets no answer it would trust."""
    state = tmp_path / "state"
    path = socket_path(state)
    private_folder(path)
    os.chmod(path.parent, 0o700)
    ready = tmp_path / "ready"
    pid = os.fork()
    if pid == 0:  # the child: another user, answering as a tray would
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(path))
            os.chown(path, 0, 0)  # the socket looks like this user's
            sock.listen(1)
            os.setuid(65534)
            ready.touch()
            conn, _ = sock.accept()
            conn.recv(1000)
            conn.sendall(request.encode_answer(0, "Invoices are taken here\n"))
            time.sleep(1)
        finally:
            os._exit(0)
    try:
        for _ in range(100):
            if ready.exists():
                break
            time.sleep(0.05)
        assert client.ask(state, ["take", "invoices"], timeout_ms=3000) is None
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


# -- the server ---------------------------------------------------------------------------------


@pytest.fixture
def server(qtbot: QtBot, tmp_path: Path, no_runtime: None) -> Iterator[tuple[Path, list[str]]]:
    state = tmp_path / "state"
    heard: list[str] = []

    def handler(argv: list[str]) -> tuple[int, str]:
        heard.append(" ".join(argv))
        if argv == ["wrote"]:
            return 0, argv[1]  # IndexError, as a handler with a bug would
        return 0, "pong\n"

    made = single.Server(state, handler)
    assert made.listen()
    yield state, heard
    made.close()


def ask_later(qtbot: QtBot, state: Path, argv: list[str]) -> tuple[int, str] | None:
    """Ask from a thread while the test's event loop serves."""
    got: list[tuple[int, str] | None] = []
    thread = threading.Thread(target=lambda: got.append(client.ask(state, argv, 5000)))
    thread.start()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=10000)
    return got[0]


def test_a_request_the_tray_cannot_take_is_answered_and_the_tray_goes_on(
    qtbot: QtBot, server: tuple[Path, list[str]]
) -> None:
    state, _ = server
    rc, out = ask_later(qtbot, state, ["wrote"]) or (None, "")
    assert rc == 2 and "did not understand" in out
    assert ask_later(qtbot, state, ["ping"]) == (0, "pong\n")


@pytest.mark.slow
def test_connections_that_say_nothing_are_dropped(
    qtbot: QtBot, server: tuple[Path, list[str]]
) -> None:
    state, _ = server
    silent = []
    for _ in range(single.MAX_CLIENTS + 4):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(str(socket_path(state)))
        silent.append(s)
        qtbot.wait(20)  # the tray accepts it (a full backlog would hold the next connect)
    assert ask_later(qtbot, state, ["ping"]) == (0, "pong\n")  # the oldest made room
    last = silent[-1]
    last.setblocking(False)
    began = time.monotonic()

    def dropped() -> bool:
        try:
            return last.recv(10) == b""  # closed by the tray, unanswered
        except BlockingIOError:
            return False

    qtbot.waitUntil(dropped, timeout=int((single.CLIENT_SECONDS + 3) * 1000))
    assert time.monotonic() - began >= single.CLIENT_SECONDS - 2  # not before its time
    for s in silent:
        s.close()


SERVER_OUT_OF_FILES = """
import os, resource, sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QTimer
from sioul_tray.tray import single
app = QCoreApplication([])
server = single.Server(Path(sys.argv[1]), lambda argv: (0, "pong\\n"))
assert server.listen()
spare = len(os.listdir("/proc/self/fd")) + 3
resource.setrlimit(resource.RLIMIT_NOFILE, (spare, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
print("ready", flush=True)
began = time.process_time()
QTimer.singleShot(int(float(sys.argv[2]) * 1000), app.quit)
app.exec()
print(f"{time.process_time() - began:.2f}", flush=True)
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="counts its files in /proc")
def test_a_tray_out_of_files_neither_spins_nor_stops_answering(
    tmp_path: Path, no_runtime: None
) -> None:
    import subprocess
    import sys

    from tests.helpers import python_env

    state = tmp_path / "state"
    with subprocess.Popen(
        [sys.executable, "-c", SERVER_OUT_OF_FILES, str(state), "6"],
        stdout=subprocess.PIPE, text=True, env=python_env(QT_QPA_PLATFORM="offscreen"),
    ) as child:  # fmt: skip
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        held = []
        for _ in range(12):  # more than its files allow: accept() fails with EMFILE
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(1)
            with contextlib.suppress(OSError):
                s.connect(str(socket_path(state)))
            held.append(s)
        time.sleep(2)
        for s in held:
            s.close()
        time.sleep(1.5)  # it accepts again after its pause
        assert client.ask(state, ["ping"], timeout_ms=3000) == (0, "pong\n")
        cpu = float(child.stdout.readline())
        child.wait(timeout=20)
    assert cpu < 1.5, f"the tray spun on its listening socket: {cpu} s of CPU in 6 s"
