"""Fixtures for the sync tests: a stand-in for Syncthing's REST API (a real HTTP server on
loopback, HTTPS on request; `fake`, one such with a peer up to date), ports where nothing answers,
and `need`.

`need(missing)` skips when `missing` names a missing part (the syncthing program) and fails
instead under SIOUL_REQUIRE_DESKTOP=1 (CI), as the `need` of tests/qtkit.py does, without Qt.
"""

from __future__ import annotations

import datetime
import json
import socket
import ssl
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from sioul_tray.sync.syncthing import Gui
from tests.helpers import need_or_skip
from tests.sync.stkit import ME, PEER, completion, connection

API_KEY = "k3y-of-the-test"  # the key the stand-in wants; FakeSyncthing.api_key
MY_ID = ME


@pytest.fixture
def need() -> Callable[[str | None], None]:
    """`need(missing)`: skip when `missing` names a missing part; fail under SIOUL_REQUIRE_DESKTOP=1
    (CI), so an install step lost from CI cannot hide behind a skip."""
    return need_or_skip


# -- a stand-in for Syncthing's REST API ----------------------------------------------------------


@dataclass
class Asked:
    """One request the stand-in received."""

    method: str
    path: str
    query: dict[str, list[str]]
    api_key: str | None


Answer = tuple[int, bytes]


@dataclass
class FakeSyncthing:
    """Answers like Syncthing 1.19 from `connections` and `completions` (by device id, as in
    /rest/system/connections and /rest/db/completion); `answers` overrides a
    path with a fixed (status, body) or a function of the request; `gate`, when cleared, holds
    every scan until set."""

    server: ThreadingHTTPServer
    config: Path
    tls: bool
    asked: list[Asked] = field(default_factory=list)
    connections: dict[str, dict[str, Any]] = field(default_factory=dict)
    completions: dict[str, dict[str, Any]] = field(default_factory=dict)
    answers: dict[str, Answer | Callable[[Asked], Answer]] = field(default_factory=dict)
    gate: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    api_key: str = API_KEY

    def __post_init__(self) -> None:
        self.gate.set()

    @property
    def port(self) -> int:
        port: int = self.server.server_address[1]
        return port

    def gui(self, api_key: str | None = None, tls: bool | None = None) -> Gui:
        """Where the stand-in answers, with its key unless told another."""
        tls = self.tls if tls is None else tls
        key = self.api_key if api_key is None else api_key
        return Gui(f"127.0.0.1:{self.port}", "127.0.0.1", self.port, tls, key, self.config)

    def scans(self) -> list[Asked]:
        with self.lock:
            return [a for a in self.asked if a.path == "/rest/db/scan"]

    def answer(self, asked: Asked) -> Answer:
        with self.lock:
            self.asked.append(asked)
        if asked.api_key != self.api_key:
            return 403, b"CSRF Error\n"
        fixed = self.answers.get(asked.path)
        if fixed is not None:
            return fixed(asked) if callable(fixed) else fixed
        if asked.path == "/rest/system/ping":
            return _json({"ping": "pong"})
        if asked.path == "/rest/system/status":
            return _json({"myID": MY_ID, "uptime": 10})
        if asked.path == "/rest/db/scan" and asked.method == "POST":
            self.gate.wait(10)
            return 200, b""
        if asked.path == "/rest/system/connections":
            return _json({"connections": self.connections, "total": {}})
        if asked.path == "/rest/db/completion":
            device = asked.query.get("device", [""])[0]
            if device not in self.completions:
                return 500, b"no such device\n"
            return _json(self.completions[device])
        if asked.path == "/rest/db/status":
            return _json({"state": "idle", "needTotalItems": 0, "errors": 0, "invalid": ""})
        return 404, b"404 page not found\n"


def _json(value: Any) -> Answer:
    return 200, json.dumps(value).encode()


def _serve(fake_holder: list[FakeSyncthing]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            parts = urllib.parse.urlsplit(self.path)
            asked = Asked(
                self.command,
                parts.path,
                urllib.parse.parse_qs(parts.query, keep_blank_values=True),
                self.headers.get("X-API-Key"),
            )
            status, body = fake_holder[0].answer(asked)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = _answer
        do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the test asserts on `asked`

    return Handler


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate and key like the one Syncthing makes for its GUI (self-signed, ECDSA)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "syncthing")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("syncthing")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "https-cert.pem", folder / "https-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def start_fake(tmp_path: Path) -> Iterator[Callable[..., FakeSyncthing]]:
    """`start_fake(tls=False)`: a running stand-in; all are shut down after the test."""
    started: list[tuple[FakeSyncthing, threading.Thread]] = []

    def start(tls: bool = False) -> FakeSyncthing:
        holder: list[FakeSyncthing] = []
        server = ThreadingHTTPServer(("127.0.0.1", 0), _serve(holder))
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self_signed(tmp_path))
            server.socket = context.wrap_socket(server.socket, server_side=True)
        fake = FakeSyncthing(server, tmp_path / "config.xml", tls)
        holder.append(fake)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
        thread.start()
        started.append((fake, thread))
        return fake

    yield start
    for fake, thread in started:
        fake.gate.set()  # a scan held by a test must not hold the shutdown
        fake.server.shutdown()
        fake.server.server_close()
        thread.join(5)


@pytest.fixture
def fake(start_fake: Callable[..., FakeSyncthing]) -> FakeSyncthing:
    """A stand-in on plain HTTP: this device, and one peer connected and up to date."""
    server = start_fake()
    server.connections = {ME: connection(False), PEER: connection(True)}
    server.completions = {PEER: completion(100)}
    return server


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that takes connections and never answers (a stuck Syncthing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)  # never accepted: the kernel completes the handshake, nobody reads
        yield listener.getsockname()[1]


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on (Syncthing not running)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port
