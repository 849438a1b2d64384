"""How sioul-tray talks to Syncthing's REST API: HTTP/1.0 on loopback, and only once the other
end is known to be Syncthing's (a socket of this user on Linux; over HTTPS, Syncthing's own
certificate) before its API key is sent (docs/sync.md, "How the key is protected").
"""

from __future__ import annotations

import os
import re
import socket
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl

from sioul_tray.files import NotReadable, read_bounded
from sioul_tray.i18n import message
from sioul_tray.sync.stconfig import Gui, SyncToolError, loopback, shown

_MAX_ANSWER = 4 * 1024 * 1024
MAX_CERTIFICATE = 1 << 20  # https-cert.pem: a certificate, or a short chain (some kilobytes)
_MAX_LINE = 4096  # a line of /proc/net/tcp is some 150 bytes


class Transport:
    """One request at a time to Syncthing's GUI at `gui`, each within `timeout` seconds."""

    def __init__(self, gui: Gui, timeout: float) -> None:
        self.gui = gui
        self.timeout = timeout
        self._tls: ssl.SSLContext | None = None

    def within(self, timeout: float) -> Transport:
        """This transport with another limit, keeping its TLS context."""
        bounded = Transport(self.gui, timeout)
        bounded._tls = self._tls
        return bounded

    def exchange(self, method: str, target: str) -> tuple[int, bytes]:
        """One HTTP/1.0 request on a socket of its own: (status code, body).

        Not urllib or http.client: they import ssl and the email package, 6 to 8 MB the tray
        would carry for its whole life for a few hundred bytes a minute. HTTP/1.0, so the answer
        is neither chunked nor kept alive: the body is what comes before the server closes. No
        proxy is ever used: the API key goes to loopback only, once the other end is known to be
        Syncthing's (`_trusted`).
        """
        key = self.gui.api_key
        if any(c in key for c in "\r\n\0"):
            raise SyncToolError(f"The Syncthing API key in {shown(self.gui.config)} is not valid")
        if not loopback(self.gui.host):
            raise SyncToolError(
                f"{self.gui.where} is not on this computer's loopback: Syncthing's API key is "
                "sent to loopback only"
            )
        deadline = time.monotonic() + self.timeout
        sock = socket.create_connection((self.gui.host, self.gui.port), timeout=self.timeout)
        try:
            sock = self._trusted(sock, deadline)
            request = (
                f"{method} {target} HTTP/1.0\r\nHost: {self.gui.where}\r\n"
                f"X-API-Key: {key}\r\nContent-Length: 0\r\n\r\n"
            )
            sock.sendall(request.encode("utf-8"))
            chunks: list[bytes] = []
            size = 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > _MAX_ANSWER:
                    raise SyncToolError(
                        f"Syncthing at {self.gui.where} answered {target} with over "
                        f"{_MAX_ANSWER} bytes"
                    )
        finally:
            sock.close()
        head, blank, body = b"".join(chunks).partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0].split(None, 2)
        if not blank or len(status) < 2 or not status[0].startswith(b"HTTP/"):
            raise SyncToolError(
                f"Syncthing at {self.gui.where} broke off its reply to {target.split('?')[0]}"
            )
        try:
            return int(status[1]), body
        except ValueError:
            raise SyncToolError(
                f"Syncthing at {self.gui.where} answered {target.split('?')[0]} with "
                f"{first_line(head)!r}"
            ) from None

    def _trusted(self, sock: socket.socket, deadline: float) -> socket.socket:
        """`sock`, once its other end is known to be Syncthing's: on loopback (a name may have
        led elsewhere), a socket of this user (Linux), over HTTPS showing Syncthing's own
        certificate. SyncToolError otherwise, before anything is sent."""
        where = self.gui.where
        if not loopback(sock.getpeername()[0]):
            raise SyncToolError(f"{where} is not on this computer's loopback: no key is sent")
        _check_owner(sock, where)
        if not self.gui.tls:
            return sock
        own = _own_certificate(self.gui)
        if self._tls is None:
            self._tls = _tls_context()
        sock.settimeout(max(0.001, deadline - time.monotonic()))  # the handshake is in the limit
        tls = self._tls.wrap_socket(sock, server_hostname=self.gui.host)
        if tls.getpeercert(binary_form=True) != own:
            tls.close()
            raise SyncToolError(
                f"Syncthing at {where} showed a certificate that is not Syncthing's own (in "
                f"{shown(self.gui.config.parent / 'https-cert.pem')}): its API key is not sent"
            )
        return tls


def first_line(body: bytes) -> str:
    lines = body.decode("utf-8", "replace").strip().splitlines()
    return lines[0][:200] if lines else ""


def _tls_context() -> ssl.SSLContext:
    # Syncthing's GUI certificate is self-signed, made on each computer: no authority vouches for
    # it, and its name is "syncthing". It is pinned instead (`_trusted`): after the handshake the
    # certificate shown must be the very one in https-cert.pem, beside config.xml, before a byte
    # of the request (and its key) is sent.
    import ssl  # only for a GUI served over HTTPS: 4.5 MB the usual plain GUI never loads

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


_PEM = re.compile(rb"-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----")


def _own_certificate(gui: Gui) -> bytes:
    """Syncthing's own GUI certificate (DER): the first in https-cert.pem beside config.xml."""
    import ssl

    path = gui.config.parent / "https-cert.pem"
    try:
        # Syncthing's file, not ours: a link is followed; a FIFO, a device, a huge file are not.
        pem = read_bounded(path, MAX_CERTIFICATE, follow=True)
    except (OSError, NotReadable) as e:
        why = message(e) if isinstance(e, NotReadable) else e.strerror or e
        raise SyncToolError(
            f"cannot read Syncthing's GUI certificate {shown(path)} ({why}): "
            "its API key is not sent over HTTPS without it"
        ) from None
    found = _PEM.search(pem)
    try:
        if found is None:
            raise ValueError
        return ssl.PEM_cert_to_DER_cert(found.group().decode("ascii"))
    except ValueError:
        raise SyncToolError(
            f"Syncthing's GUI certificate {shown(path)} is not a certificate: "
            "its API key is not sent over HTTPS"
        ) from None


# -- whose socket answers (Linux) ----------------------------------------------------------------


def _server_uid(sock: socket.socket) -> int | None:
    """The user owning the socket at the other end of `sock`, a loopback connection: the row of
    /proc/net/tcp (or tcp6) whose local address is our peer and remote address ours. The kernel
    lists there the uid of the socket's owner: the user whose process made the listening socket
    (a connection not yet accepted), or accepted it. None when no row shows it."""
    ours, theirs = sock.getsockname()[:2], sock.getpeername()[:2]
    table = "tcp6" if sock.family == socket.AF_INET6 else "tcp"
    wanted = {table: {(_row(sock.family, *theirs), _row(sock.family, *ours))}}
    if sock.family == socket.AF_INET:  # a dual-stack listener ("[::]", Go's "0.0.0.0") maps it
        v6 = socket.AF_INET6
        wanted["tcp6"] = {(_row(v6, *_mapped(theirs)), _row(v6, *_mapped(ours)))}
    for _ in range(3):  # with syncookies, the other end is made a moment after connect returns
        for name, rows in wanted.items():
            uid = _uid_in(name, rows)
            if uid is not None:
                return uid
        time.sleep(0.005)
    return None


def _mapped(address: tuple[str, int]) -> tuple[str, int]:
    return f"::ffff:{address[0]}", address[1]


def _row(family: int, host: str, port: int) -> str:
    """An address as /proc/net/tcp writes it: each 32-bit word in the host's byte order, in hex."""
    raw = socket.inet_pton(family, host)
    words = (int.from_bytes(raw[i : i + 4], sys.byteorder) for i in range(0, len(raw), 4))
    return "".join(f"{word:08X}" for word in words) + f":{port:04X}"


def _uid_in(table: str, wanted: set[tuple[str, str]]) -> int | None:
    # The kernel's table, a line a socket: read a line at a time (a busy machine lists thousands),
    # never whole.
    try:
        with open(f"/proc/net/{table}", "rb") as f:
            f.readline(_MAX_LINE)  # the heading
            for line in iter(lambda: f.readline(_MAX_LINE), b""):
                fields = line.decode("ascii", "replace").split()
                if len(fields) > 7 and (fields[1], fields[2]) in wanted and fields[7].isdigit():
                    return int(fields[7])
    except OSError:  # tcp6 without IPv6
        return None
    return None


def _check_owner(sock: socket.socket, where: str) -> None:
    """On Linux, the end of `sock` that answers is this user's: with Syncthing not running yet,
    another user listening on its GUI port would get the key. Elsewhere no such check is made
    (docs/sync.md)."""
    if not sys.platform.startswith("linux"):
        return
    uid = _server_uid(sock)
    if uid is None:
        raise SyncToolError(
            f"cannot tell whose program answers at {where} (/proc/net/tcp does not list it): "
            "Syncthing's API key is not sent"
        )
    if uid != os.getuid():
        raise SyncToolError(
            f"what answers at {where} belongs to another user (uid {uid}), not to Syncthing "
            "running as this one: its API key is not sent"
        )
