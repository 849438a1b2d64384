"""How sioul-tray talks to Syncthing's REST API (`sioul_tray.sync.sttransport`): HTTP/1.0 on
loopback only, the key sent only to a socket of this user (Linux) and, over HTTPS, only to
Syncthing's own certificate; a reply broken off or odd said as a SyncToolError.

Against the stand-in of tests/sync/conftest.py, real sockets on loopback, and a bare server that
answers whatever bytes a test gives it.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sioul_tray.sync.stconfig import Gui, SyncToolError
from sioul_tray.sync.sttransport import Transport, first_line
from sioul_tray.sync.syncthing import Client
from tests.sync.conftest import self_signed
from tests.sync.stkit import PEER, Start, connection


def test_a_client_never_connects_off_loopback(tmp_path: Path) -> None:
    gui = Gui("192.0.2.2:8384", "192.0.2.2", 8384, False, "k3y", tmp_path / "config.xml")
    began = time.monotonic()
    with pytest.raises(
        SyncToolError, match=r"192\.0\.2\.2:8384 is not on this computer's loopback"
    ):
        Client(gui, timeout=5).ping()
    assert time.monotonic() - began < 0.5  # refused before any connection is tried


def test_https_with_a_self_signed_certificate(start_fake: Start) -> None:
    server = start_fake(tls=True)
    server.connections = {PEER: connection(True)}
    client = Client(server.gui())
    client.ping()
    assert client.connections()[PEER].connected
    assert [a.path for a in server.asked] == ["/rest/system/ping", "/rest/system/connections"]
    # Plain HTTP to it fails as a SyncToolError too, never as another exception.
    with pytest.raises(SyncToolError, match="Syncthing"):
        Client(server.gui(tls=False)).ping()


def test_https_is_pinned_to_syncthings_own_certificate(start_fake: Start, tmp_path: Path) -> None:
    """The certificate must be the one Syncthing keeps beside its config.xml: a foreign one,
    or none to compare with, gets no request, hence no key."""
    server = start_fake(tls=True)
    client = Client(server.gui())
    client.ping()  # its own: asked
    other = tmp_path / "other"
    other.mkdir()
    foreign, _ = self_signed(other)
    mine = (tmp_path / "https-cert.pem").read_bytes()
    (tmp_path / "https-cert.pem").write_bytes(foreign.read_bytes())  # as if another answered
    with pytest.raises(SyncToolError, match="a certificate that is not Syncthing's own"):
        client.ping()
    (tmp_path / "https-cert.pem").unlink()
    with pytest.raises(SyncToolError, match="cannot read Syncthing's GUI certificate"):
        client.ping()
    assert [a.path for a in server.asked] == ["/rest/system/ping"]  # the first ping alone
    (tmp_path / "https-cert.pem").write_bytes(mine)
    client.ping()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /proc/net/tcp")
@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a socket of another user")
def test_another_users_listener_on_the_gui_port_never_gets_the_key(tmp_path: Path) -> None:
    """Syncthing not running yet, another local user listens on its port: the key is not sent.
    The listener is made as nobody (its owner is who made it), and reads what came only after
    the client gave up, as that user would."""
    os.seteuid(65534)
    try:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    finally:
        os.seteuid(0)
    with listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        gui = Gui(f"127.0.0.1:{port}", "127.0.0.1", port, False, "k3y", tmp_path / "config.xml")
        with pytest.raises(SyncToolError, match="belongs to another user"):
            Client(gui).ping()
        listener.settimeout(2)
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(2)
            assert conn.recv(65536) == b""  # closed without a word


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /proc/net/tcp")
@pytest.mark.parametrize(
    ("listen", "connect"),
    [("127.0.0.1", "127.0.0.1"), ("::", "127.0.0.1"), ("::1", "::1")],
    ids=["ipv4", "dual-stack", "ipv6"],
)
def test_the_owner_of_the_answering_end_is_read_from_the_kernel(listen: str, connect: str) -> None:
    """The check the key waits on, against real sockets: the end that answers this very
    connection (listed in /proc/net/tcp or tcp6, an IPv4 one as mapped where Syncthing listens
    dual-stack, as Go does on "0.0.0.0")."""
    from sioul_tray.sync.sttransport import _server_uid

    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    try:
        listener = socket.socket(family, socket.SOCK_STREAM)
        if family == socket.AF_INET6:
            listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        listener.bind((listen, 0))
    except OSError as e:
        pytest.skip(f"no {listen} here: {e}")
    with listener:
        listener.listen(1)
        with socket.create_connection((connect, listener.getsockname()[1]), timeout=2) as sock:
            assert _server_uid(sock) == os.getuid()


# -- against a bare server ------------------------------------------------------------------------


class Bare:
    """A server on loopback that answers one request with `reply`, exactly, then closes; what
    it was sent is `heard`."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.heard = b""
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            conn.settimeout(5)
            while b"\r\n\r\n" not in self.heard:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                self.heard += chunk
            conn.sendall(self.reply)

    def gui(self, api_key: str = "k3y") -> Gui:
        return Gui(f"127.0.0.1:{self.port}", "127.0.0.1", self.port, False, api_key,
                   Path("/nowhere/config.xml"))  # fmt: skip

    def close(self) -> None:
        self.thread.join(5)
        self.listener.close()


@pytest.fixture
def bare() -> Iterator[Callable[[bytes], Bare]]:
    made: list[Bare] = []

    def start(reply: bytes) -> Bare:
        made.append(Bare(reply))
        return made[-1]

    yield start
    for server in made:
        server.close()


def test_one_http_1_0_request_with_the_key(bare: Callable[[bytes], Bare]) -> None:
    """HTTP/1.0: the body is what comes before the server closes, never chunked."""
    server = bare(
        b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + b'{"ping": "pong"}'
    )
    answer = Transport(server.gui(), timeout=5).exchange("POST", "/rest/db/scan?folder=f")
    assert answer == (200, b'{"ping": "pong"}')
    server.close()
    assert (
        server.heard
        == (
            f"POST /rest/db/scan?folder=f HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n"
            "X-API-Key: k3y\r\nContent-Length: 0\r\n\r\n"
        ).encode()
    )


@pytest.mark.parametrize(
    ("reply", "fact"),
    [
        (b"", "broke off its reply to /rest/db/scan"),
        (b"HTTP/1.0 200 OK\r\nContent-Type: applica", "broke off its reply to /rest/db/scan"),
        (b"SSH-2.0-OpenSSH_9.2\r\n\r\n", "broke off its reply to /rest/db/scan"),
        (b"HTTP/1.0\r\n\r\n", "broke off its reply to /rest/db/scan"),
        (b"HTTP/1.0 OK fine\r\n\r\n{}", "answered /rest/db/scan with 'HTTP/1.0 OK fine'"),
    ],
    ids=["nothing", "cut-in-the-head", "not-http", "no-status", "status-in-words"],
)
def test_a_reply_that_is_not_http_is_said(
    bare: Callable[[bytes], Bare], reply: bytes, fact: str
) -> None:
    """Said without the query: the folder's id and the files are not the person's concern."""
    server = bare(reply)
    with pytest.raises(SyncToolError) as raised:
        Transport(server.gui(), timeout=5).exchange("POST", "/rest/db/scan?folder=f&sub=a")
    assert f"Syncthing at 127.0.0.1:{server.port} {fact}" == str(raised.value)


@pytest.mark.parametrize("key", ["k3y\r\nX-Other: 1", "k3y\n", "k\x003y"])
def test_a_key_that_would_break_the_request_is_never_sent(closed_port: int, key: str) -> None:
    """Refused before any connection: nothing listens on the port, and that is not what is said."""
    gui = Gui("x", "127.0.0.1", closed_port, False, key, Path("/etc/syncthing/config.xml"))
    with pytest.raises(SyncToolError, match=r"API key in /etc/syncthing/config\.xml is not valid"):
        Transport(gui, timeout=5).exchange("GET", "/rest/system/ping")


def test_first_line_of_a_body() -> None:
    assert first_line(b"") == ""
    assert first_line(b"\n\n  no such folder\nat line 2\n") == "no such folder"
    assert first_line(b"\xff\xfe bad") == "\ufffd\ufffd bad"
    assert first_line(b"x" * 500) == "x" * 200


@pytest.mark.skipif(sys.byteorder != "little", reason="the kernel's words in little-endian order")
def test_an_address_as_proc_net_tcp_writes_it() -> None:
    from sioul_tray.sync.sttransport import _row

    assert _row(socket.AF_INET, "127.0.0.1", 8384) == "0100007F:20C0"
    assert _row(socket.AF_INET6, "::1", 22000) == "00000000000000000000000001000000:55F0"
