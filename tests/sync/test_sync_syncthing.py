"""Syncthing: finding and reading config.xml, the REST client against a stand-in on loopback
(HTTP and HTTPS with a self-signed certificate), the Nudger and sent_to_all."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.sync import Nudger, Syncthing, SyncToolError, find, sent_to_all
from sioul_tray.sync.places import config_candidates
from sioul_tray.sync.syncthing import (
    Client,
    Config,
    Folder,
    Gui,
    read_config,
)
from tests.helpers import ROOT, python_env
from tests.sync.conftest import self_signed

if TYPE_CHECKING:
    from tests.sync.conftest import FakeSyncthing

ME = "AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA"
PEER = "BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB"
THIRD = "CCCCCCC-CCCCCCC-CCCCCCC-CCCCCCC-CCCCCCC-CCCCCCC-CCCCCCC-CCCCCCC"
FOLDER_ID = "sioul-share"
Start = Callable[..., "FakeSyncthing"]


def config_xml(
    folders: list[dict[str, Any]],
    address: str = "127.0.0.1:8384",
    tls: str = "false",
    api_key: str = "k3y",
    gui_enabled: str = "true",
) -> str:
    """A config.xml laid out as Syncthing 1.19 writes it. A folder is a dict of attributes plus
    "devices" (ids, default ME and PEER) and "paused": ("attribute" | "element", "true"|"false"),
    the two ways Syncthing versions have written it."""
    lines = ['<configuration version="36">']
    for folder in folders:
        attributes = {k: v for k, v in folder.items() if k not in ("devices", "paused")}
        attributes.setdefault("type", "sendreceive")
        paused_as, paused = folder.get("paused", (None, None))
        if paused_as == "attribute":
            attributes["paused"] = paused
        text = " ".join(f'{k}="{v}"' for k, v in attributes.items())
        lines.append(f"    <folder {text}>")
        lines.append("        <filesystemType>basic</filesystemType>")
        for device in folder.get("devices", [ME, PEER]):
            lines.append(f'        <device id="{device}" introducedBy=""></device>')
        if paused_as == "element":
            lines.append(f"        <paused>{paused}</paused>")
        lines.append("    </folder>")
    lines += [
        f'    <device id="{ME}" name="here" compression="metadata">',
        "        <address>dynamic</address>",
        "        <paused>false</paused>",
        "    </device>",
        f'    <device id="{PEER}" name="there" compression="metadata" paused="true">',
        "        <address>tcp://192.0.2.7:22000</address>",
        "    </device>",
        f'    <gui enabled="{gui_enabled}" tls="{tls}" debugging="false">',
        f"        <address>{address}</address>",
        f"        <apikey>{api_key}</apikey>",
        "    </gui>",
        "    <options><urAccepted>-1</urAccepted></options>",
        "</configuration>",
    ]
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def connection(connected: bool, paused: bool = False) -> dict[str, Any]:
    """An entry of /rest/system/connections as Syncthing 1.19 writes it."""
    return {
        "at": "2026-01-01T00:00:00Z",
        "connected": connected,
        "paused": paused,
        "address": "127.0.0.1:22000" if connected else "",
        "clientVersion": "v1.19.2" if connected else "",
        "type": "tcp-client" if connected else "",
    }


def completion(percent: float, need_items: int = 0, sequence: int = 7) -> dict[str, Any]:
    """An answer of /rest/db/completion as Syncthing 1.19 writes it."""
    return {
        "completion": percent,
        "globalBytes": 1000,
        "globalItems": 10,
        "needBytes": 200 * need_items,
        "needDeletes": 0,
        "needItems": need_items,
        "sequence": sequence,
    }


@pytest.fixture
def fake(start_fake: Start) -> FakeSyncthing:
    """A stand-in on plain HTTP: this device, and one peer connected and up to date."""
    server = start_fake()
    server.connections = {ME: connection(False), PEER: connection(True)}
    server.completions = {PEER: completion(100)}
    return server


def folder_at(path: Path, devices: tuple[str, ...] = (ME, PEER)) -> Folder:
    return Folder(FOLDER_ID, "Sioul", path, "sendreceive", False, devices)


def syncthing_at(root: Path, gui: Gui) -> Syncthing:
    config = Config(gui.config, gui, None, (folder_at(root),), ())
    return Syncthing(config, gui, folder_at(root))


# -- where config.xml is --------------------------------------------------------------------------


def test_linux_candidates_follow_syncthing_order(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"XDG_CONFIG_HOME": "/xdg/config", "XDG_STATE_HOME": "/xdg/state", "STHOMEDIR": "/st"}
    assert config_candidates(env, home, "Linux") == [
        Path("/st/config.xml"),
        Path("/xdg/config/syncthing/config.xml"),
        home / ".config/syncthing/config.xml",  # Debian 12's 1.19, any install before 1.27
        Path("/xdg/state/syncthing/config.xml"),
        home / ".local/state/syncthing/config.xml",  # 1.27+ on a new install
    ]


def test_relative_xdg_variables_are_ignored(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": ""}
    assert config_candidates(env, tmp_path, "Linux") == [
        tmp_path / ".config/syncthing/config.xml",
        tmp_path / ".local/state/syncthing/config.xml",
    ]


def test_macos_and_windows_candidates(tmp_path: Path) -> None:
    assert config_candidates({}, tmp_path, "Darwin") == [
        tmp_path / "Library/Application Support/Syncthing/config.xml"
    ]
    local = "C:/Users/x/AppData/Local"
    assert config_candidates({"LOCALAPPDATA": local}, tmp_path, "Windows") == [
        Path(local) / "Syncthing" / "config.xml"
    ]
    assert config_candidates({}, tmp_path, "Windows") == [
        tmp_path / "AppData/Local/Syncthing/config.xml"
    ]


# -- reading config.xml ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "host", "port", "where"),
    [
        ("127.0.0.1:8384", "127.0.0.1", 8384, "127.0.0.1:8384"),
        ("0.0.0.0:8385", "127.0.0.1", 8385, "127.0.0.1:8385"),  # wildcard: asked on loopback
        ("[::]:8386", "127.0.0.1", 8386, "127.0.0.1:8386"),
        (":8387", "127.0.0.1", 8387, "127.0.0.1:8387"),
        ("localhost:8388", "localhost", 8388, "localhost:8388"),
        ("[::1]:8389", "::1", 8389, "[::1]:8389"),
        ("127.0.0.1", "127.0.0.1", 8384, "127.0.0.1:8384"),
    ],
)
def test_gui_addresses(tmp_path: Path, address: str, host: str, port: int, where: str) -> None:
    config = read_config(write(tmp_path / "config.xml", config_xml([], address=address)))
    assert config.gui is not None
    assert (config.gui.host, config.gui.port, config.gui.where) == (host, port, where)
    assert config.gui.address == address
    assert config.gui.base_url == f"http://{where}"


@pytest.mark.parametrize(
    "address", ["192.0.2.2:8384", "https://192.0.2.2:8384", "sync.example:8384", "[2001:db8::2]:80"]
)
def test_a_gui_address_off_loopback_is_never_asked(tmp_path: Path, address: str) -> None:
    """The module asks loopback only: the API key gives full control of Syncthing."""
    share = tmp_path / "Sync"
    path = write(tmp_path / "config.xml", config_xml([{"id": "f", "path": share}], address=address))
    found = find(share, [path])
    assert found is not None and found.gui is None
    with pytest.raises(SyncToolError, match="not on this computer's loopback"):
        found.client()


def test_a_client_never_connects_off_loopback(tmp_path: Path) -> None:
    gui = Gui("192.0.2.2:8384", "192.0.2.2", 8384, False, "k3y", tmp_path / "config.xml")
    began = time.monotonic()
    with pytest.raises(
        SyncToolError, match=r"192\.0\.2\.2:8384 is not on this computer's loopback"
    ):
        Client(gui, timeout=5).ping()
    assert time.monotonic() - began < 0.5  # refused before any connection is tried


def test_tls_attribute_and_api_key(tmp_path: Path) -> None:
    path = write(tmp_path / "config.xml", config_xml([], tls="true", api_key="s3cret"))
    gui = read_config(path).gui
    assert gui is not None
    assert gui.tls and gui.base_url == "https://127.0.0.1:8384"
    assert gui.api_key == "s3cret" and gui.config == path


def test_a_gui_switched_off_or_on_a_unix_socket_cannot_be_asked(tmp_path: Path) -> None:
    share = tmp_path / "Sync"
    off = write(tmp_path / "off.xml", config_xml([{"id": "f", "path": share}], gui_enabled="false"))
    unix = write(
        tmp_path / "unix.xml", config_xml([{"id": "f", "path": share}], address="unix:///run/st")
    )
    for path, fact in ((off, "switched off"), (unix, "Unix socket")):
        found = find(share, [path])
        assert found is not None and found.gui is None
        with pytest.raises(SyncToolError, match=fact):
            found.client()


def test_folders_devices_and_paused_written_both_ways(tmp_path: Path) -> None:
    text = config_xml(
        [
            {"id": "a", "label": "A", "path": "/srv/a", "paused": ("element", "true")},
            {"id": "b", "path": "/srv/b", "paused": ("attribute", "true")},
            {"id": "c", "path": "/srv/c", "paused": ("element", "false"), "devices": [ME]},
            {"id": "d", "path": "/srv/d", "type": "receiveonly"},
        ]
    )
    config = read_config(write(tmp_path / "config.xml", text))
    by_id = {folder.id: folder for folder in config.folders}
    assert [by_id[i].paused for i in "abcd"] == [True, True, False, False]
    assert by_id["a"] == Folder("a", "A", Path("/srv/a"), "sendreceive", True, (ME, PEER))
    assert by_id["c"].devices == (ME,)
    assert by_id["d"].kind == "receiveonly"
    assert [(d.id, d.name, d.paused) for d in config.devices] == [
        (ME, "here", False),  # <paused> as an element
        (PEER, "there", True),  # paused as an attribute
    ]


def test_tilde_in_folder_paths_is_the_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    text = config_xml([{"id": "a", "path": "~/Sync/"}, {"id": "b", "path": "~"}])
    config = read_config(write(tmp_path / "config.xml", text), home=home)
    assert [folder.path for folder in config.folders] == [home / "Sync", home]


def test_damaged_or_foreign_files_say_so(tmp_path: Path) -> None:
    broken = write(tmp_path / "broken.xml", "<configuration><folder")
    foreign = write(tmp_path / "foreign.xml", "<settings/>")
    with pytest.raises(SyncToolError, match=r"broken\.xml is not valid XML"):
        read_config(broken)
    with pytest.raises(SyncToolError, match="not a Syncthing configuration"):
        read_config(foreign)
    with pytest.raises(SyncToolError, match="no Syncthing configuration at"):
        read_config(tmp_path / "absent.xml")
    assert issubclass(SyncToolError, SioulError)


# -- which folder holds the share -----------------------------------------------------------------


def test_the_share_at_the_root_inside_or_outside(tmp_path: Path) -> None:
    sync = tmp_path / "Sync"
    (sync / "pharmacy" / "share").mkdir(parents=True)
    (tmp_path / "Sync2").mkdir()
    path = write(tmp_path / "config.xml", config_xml([{"id": FOLDER_ID, "path": sync}]))
    for share in (sync, sync / "pharmacy" / "share"):
        found = find(share, [path])
        assert found is not None
        assert found.folder.id == FOLDER_ID and found.folder.path == sync
        assert found.gui is not None and found.gui.api_key == "k3y"
    assert find(tmp_path / "Sync2", [path]) is None  # a name that merely starts alike
    assert find(tmp_path, [path]) is None  # the folder is inside the share: not syncing it


def test_nested_folders_give_the_innermost(tmp_path: Path) -> None:
    outer, inner = tmp_path / "all", tmp_path / "all" / "pharmacy"
    inner.mkdir(parents=True)
    text = config_xml([{"id": "outer", "path": outer}, {"id": "inner", "path": inner}])
    found = find(inner / "share", [write(tmp_path / "config.xml", text)])
    assert found is not None and found.folder.id == "inner"


def test_a_share_reached_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "Sync"
    (real / "share").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real / "share")
    found = find(link, [write(tmp_path / "config.xml", config_xml([{"id": "f", "path": real}]))])
    assert found is not None and found.folder.id == "f"
    assert (
        found.sub(link / "leases" / "medicines" / "aa.lease") == "share/leases/medicines/aa.lease"
    )


def test_find_passes_over_missing_and_broken_configs(tmp_path: Path) -> None:
    share = tmp_path / "Sync"
    broken = write(tmp_path / "one" / "config.xml", "not xml at all")
    elsewhere = write(tmp_path / "two" / "config.xml", config_xml([{"id": "x", "path": "/srv"}]))
    good = write(tmp_path / "three" / "config.xml", config_xml([{"id": "s", "path": share}]))
    candidates = [tmp_path / "absent.xml", broken, elsewhere, good]
    found = find(share, candidates)
    assert found is not None and found.config.path == good
    assert find(share, candidates[:3]) is None
    assert find(share, []) is None


def test_find_looks_in_the_standard_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    share = tmp_path / "Sync"
    write(tmp_path / "st" / "config.xml", config_xml([{"id": "s", "path": share}]))
    monkeypatch.setenv("STHOMEDIR", str(tmp_path / "st"))
    found = find(share)
    assert found is not None and found.config.path == tmp_path / "st" / "config.xml"


# -- the REST client ------------------------------------------------------------------------------


def test_ping_sends_the_api_key(fake: FakeSyncthing) -> None:
    Client(fake.gui()).ping()
    assert [(a.method, a.path, a.api_key) for a in fake.asked] == [
        ("GET", "/rest/system/ping", fake.api_key)
    ]


def test_syncthing_not_running(tmp_path: Path, closed_port: int) -> None:
    gui = Gui(f"127.0.0.1:{closed_port}", "127.0.0.1", closed_port, False, "k", tmp_path)
    began = time.monotonic()
    with pytest.raises(SyncToolError) as raised:
        Client(gui).ping()
    assert time.monotonic() - began < 1.0
    assert str(raised.value) == (
        f"Syncthing does not answer at 127.0.0.1:{closed_port}: connection refused"
    )


def test_a_stuck_syncthing_is_given_up_within_the_timeout(tmp_path: Path, silent_port: int) -> None:
    gui = Gui(f"127.0.0.1:{silent_port}", "127.0.0.1", silent_port, False, "k", tmp_path)
    began = time.monotonic()
    with pytest.raises(SyncToolError, match=r"did not reply to /rest/db/scan within 0\.3 s"):
        Client(gui, timeout=0.3).scan(FOLDER_ID, "x")
    assert time.monotonic() - began < 1.0


def test_a_wrong_api_key_names_the_config(fake: FakeSyncthing) -> None:
    with pytest.raises(SyncToolError) as raised:
        Client(fake.gui(api_key="stale")).ping()
    assert str(raised.value) == f"Syncthing refused the API key in {fake.config}"
    with pytest.raises(SyncToolError, match="There is no Syncthing API key in"):
        Client(fake.gui(api_key="")).ping()


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


def test_scan_sends_folder_and_subs(fake: FakeSyncthing) -> None:
    client = Client(fake.gui())
    client.scan(FOLDER_ID, "leases/medicines/aa.lease", "leases/invoices/aa.lease")
    client.scan(FOLDER_ID)
    assert [(a.method, a.query) for a in fake.scans()] == [
        (
            "POST",
            {
                "folder": [FOLDER_ID],
                "sub": ["leases/medicines/aa.lease", "leases/invoices/aa.lease"],
            },
        ),
        ("POST", {"folder": [FOLDER_ID]}),
    ]


def test_connections_completion_status(fake: FakeSyncthing) -> None:
    fake.connections = {
        ME: connection(False),
        PEER: connection(True),
        THIRD: connection(False, True),
    }
    fake.completions = {PEER: completion(95.5, need_items=2)}
    client = Client(fake.gui())
    links = client.connections()
    assert {d: (c.connected, c.paused) for d, c in links.items()} == {
        ME: (False, False),
        PEER: (True, False),
        THIRD: (False, True),
    }
    assert links[PEER].address == "127.0.0.1:22000"
    done = client.completion(FOLDER_ID, PEER)
    assert (done.percent, done.need_items, done.need_bytes, done.complete) == (95.5, 2, 400, False)
    assert fake.asked[-1].query == {"folder": [FOLDER_ID], "device": [PEER]}
    status = client.status(FOLDER_ID)
    assert (status.state, status.need_items, status.errors) == ("idle", 0, 0)
    assert client.my_id() == "AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA"


NESTED_ADDRESS = b'{"connections": {"X": {"connected": true, "address": %s}}}' % (
    b"[" * 900 + b"]" * 900
)


@pytest.mark.parametrize(
    ("answer", "fact"),
    [
        ((200, b"<html>login</html>"), "answered /rest/system/connections with something that is"),
        ((200, b'{"total": {}}'), "answered /rest/system/connections with unexpected data"),
        ((200, b'{"connections": {"X": {"paused": false}}}'), "with unexpected data"),
        ((200, b'{"connections": []}'), "with unexpected data"),
        ((500, b"no such folder\n"), "answered 500 to /rest/system/connections: no such folder"),
        ((404, b"404 page not found\n"), "does not know /rest/system/connections"),
        ((200, b"\xff\xfe"), "not JSON"),
        pytest.param((200, b"[" * 200_000), "not JSON", id="nested-200k"),  # RecursionError
        pytest.param((200, b"[" * 900 + b"]" * 900), "unexpected data", id="nested-900"),
        pytest.param((200, NESTED_ADDRESS), "with unexpected data", id="nested-address"),
        pytest.param((200, b'{"connections": NaN}'), "not JSON", id="nan"),
        pytest.param((200, b" " * (5 * 1024 * 1024)), "over 4194304 bytes", id="five-mb"),
    ],
)
def test_odd_answers_are_sync_tool_errors(
    fake: FakeSyncthing, answer: tuple[int, bytes], fact: str
) -> None:
    fake.answers["/rest/system/connections"] = answer
    with pytest.raises(SyncToolError, match=fact):
        Client(fake.gui()).connections()


@pytest.mark.parametrize(
    "odd",
    [{"needItems": 1e999}, {"needItems": 10**400}, {"completion": 10**400}, {"needItems": 2.5},
     {"sequence": -1}, {"remoteState": ["valid"]}, {"completion": "100"}],
    ids=["inf", "huge-int", "huge-percent", "fraction", "negative", "list-state", "text"],
)  # fmt: skip
def test_odd_numbers_in_a_completion_are_sync_tool_errors(
    fake: FakeSyncthing, odd: dict[str, object]
) -> None:
    body = json.dumps({**completion(100), **odd}).replace("Infinity", "1e999")
    fake.answers["/rest/db/completion"] = (200, body.encode())
    with pytest.raises(SyncToolError, match="with unexpected data"):
        Client(fake.gui()).completion(FOLDER_ID, PEER)


def test_a_completion_without_an_index_is_not_complete(fake: FakeSyncthing) -> None:
    # Syncthing 1.19 says 100 % for a device that never sent an index, even right after a scan.
    fake.completions = {PEER: completion(100, sequence=0)}
    assert not Client(fake.gui()).completion(FOLDER_ID, PEER).complete
    fake.completions = {PEER: {**completion(100), "remoteState": "notSharing"}}
    assert not Client(fake.gui()).completion(FOLDER_ID, PEER).complete
    fake.completions = {PEER: {**completion(100), "remoteState": "valid"}}
    assert Client(fake.gui()).completion(FOLDER_ID, PEER).complete


# -- sent_to_all ----------------------------------------------------------------------------------


def test_sent_to_all_waits_for_the_connected_peer(fake: FakeSyncthing) -> None:
    answers = iter([completion(50, 1), completion(50, 1), completion(100)])
    fake.answers["/rest/db/completion"] = lambda asked: (200, json.dumps(next(answers)).encode())
    client = Client(fake.gui())
    assert sent_to_all(client, folder_at(Path("/srv")), timeout=5, poll=0.01)
    asked = [a.query.get("device") for a in fake.asked if a.path == "/rest/db/completion"]
    assert asked == [[PEER]] * 3  # never this device, asked until complete


def test_sent_to_all_gives_up_at_the_timeout(fake: FakeSyncthing) -> None:
    fake.completions = {PEER: completion(99, 1)}
    began = time.monotonic()
    assert not sent_to_all(Client(fake.gui()), folder_at(Path("/srv")), timeout=0.3, poll=0.05)
    assert 0.3 <= time.monotonic() - began < 1.0


def test_sent_to_all_skips_devices_not_connected_or_paused(fake: FakeSyncthing) -> None:
    fake.connections = {
        ME: connection(False),
        PEER: connection(False),
        THIRD: connection(True, paused=True),
    }
    fake.completions = {PEER: completion(0, 10), THIRD: completion(0, 10)}
    folder = folder_at(Path("/srv"), (ME, PEER, THIRD))
    assert sent_to_all(Client(fake.gui()), folder, timeout=1)
    assert not [a for a in fake.asked if a.path == "/rest/db/completion"]


def test_sent_to_all_never_outlasts_its_time(tmp_path: Path, silent_port: int) -> None:
    """Before sleep it runs on the tray's thread: a Syncthing that never replies holds it no
    longer than it was given, whatever each question's own limit."""
    gui = Gui("x", "127.0.0.1", silent_port, False, "k", tmp_path)
    began = time.monotonic()
    assert not sent_to_all(Client(gui, timeout=5), folder_at(Path("/srv")), timeout=0.3)
    assert time.monotonic() - began < 0.6


def test_sent_to_all_raises_when_syncthing_is_gone(tmp_path: Path, closed_port: int) -> None:
    gui = Gui("x", "127.0.0.1", closed_port, False, "k", tmp_path)
    with pytest.raises(SyncToolError, match="connection refused"):
        sent_to_all(Client(gui), folder_at(Path("/srv")), timeout=1)


# -- the Nudger -----------------------------------------------------------------------------------


@pytest.fixture
def share_root(tmp_path: Path) -> Path:
    root = tmp_path / "Sync"
    (root / "share" / "leases" / "medicines").mkdir(parents=True)
    return root


def test_a_nudge_scans_the_file_relative_to_the_folder_root(
    fake: FakeSyncthing, share_root: Path
) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "leases" / "medicines" / "aa.lease")
        assert nudger.flush(5)
        assert [(a.method, a.query) for a in fake.scans()] == [
            ("POST", {"folder": [FOLDER_ID], "sub": ["share/leases/medicines/aa.lease"]})
        ]
        assert nudger.problem is None and nudger.scans == 1
    finally:
        nudger.close()


def test_nudges_queued_while_a_scan_runs_go_in_one_request(
    fake: FakeSyncthing, share_root: Path
) -> None:
    medicines = share_root / "share" / "leases" / "medicines"
    fake.gate.clear()  # the first scan is held until the others are queued
    # A patient client: the held scan must not time out while the test queues.
    nudger = Nudger(syncthing_at(share_root, fake.gui()), Client(fake.gui(), timeout=5))
    try:
        nudger.nudge(medicines / "aa.lease")
        deadline = time.monotonic() + 5
        while not fake.scans() and time.monotonic() < deadline:
            time.sleep(0.005)
        for name in ("bb.lease", "bb.lease", "cc.lease", "bb.lease"):
            nudger.nudge(medicines / name)
        assert not nudger.flush(0.05)  # held: not sent yet
        fake.gate.set()
        assert nudger.flush(5)
        subs = [a.query["sub"] for a in fake.scans()]
        assert subs == [
            ["share/leases/medicines/aa.lease"],
            ["share/leases/medicines/bb.lease", "share/leases/medicines/cc.lease"],
        ]
        assert nudger.scans == 2
    finally:
        fake.gate.set()
        nudger.close()


def test_nudge_never_waits_for_syncthing(fake: FakeSyncthing, share_root: Path) -> None:
    fake.gate.clear()
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        began = time.monotonic()
        for n in range(50):
            nudger.nudge(share_root / "share" / f"{n}.lease")
        assert time.monotonic() - began < 0.1
    finally:
        fake.gate.set()
        nudger.close()


def test_failures_are_kept_not_raised(tmp_path: Path, closed_port: int, share_root: Path) -> None:
    gui = Gui("x", "127.0.0.1", closed_port, False, "k", tmp_path)
    nudger = Nudger(syncthing_at(share_root, gui))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem == (
            f"Syncthing does not answer at 127.0.0.1:{closed_port}: connection refused"
        )
        assert nudger.scans == 0
        assert not nudger.sent_to_all(1)  # asked, failed, kept: never raised
    finally:
        nudger.close()


def test_a_file_outside_the_folder_is_a_problem_not_a_scan(
    fake: FakeSyncthing, share_root: Path, tmp_path: Path
) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(tmp_path / "elsewhere.lease")
        assert nudger.flush(2)
        assert nudger.problem is not None and "is outside Syncthing's folder" in nudger.problem
        assert fake.scans() == []
        nudger.nudge(share_root / "share" / "aa.lease")  # a scan that works clears it
        assert nudger.flush(2)
        assert nudger.problem is None and len(fake.scans()) == 1
    finally:
        nudger.close()


def test_the_problem_clears_once_syncthing_answers_again(
    fake: FakeSyncthing, share_root: Path
) -> None:
    fake.answers["/rest/db/scan"] = (500, b"folder is paused\n")
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem is not None and nudger.problem.endswith("folder is paused")
        del fake.answers["/rest/db/scan"]
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem is None
    finally:
        nudger.close()


def test_flush_with_nothing_queued_and_after_close(fake: FakeSyncthing, share_root: Path) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    assert nudger.flush(0)
    nudger.close()
    nudger.nudge(share_root / "share" / "aa.lease")  # ignored once closed
    assert nudger.flush(0)
    assert fake.scans() == []
    assert not any(t.name == "sioul-nudger" and t.is_alive() for t in threading.enumerate())


def test_nudger_sent_to_all(fake: FakeSyncthing, share_root: Path) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.sent_to_all(2)
        assert [a.path for a in fake.asked] == [
            "/rest/db/scan",
            "/rest/system/connections",
            "/rest/db/completion",
        ]
        fake.completions = {PEER: completion(80, 1)}
        assert not nudger.sent_to_all(0.2)
    finally:
        nudger.close()


def test_the_nudgers_sent_to_all_never_raises_on_an_odd_answer(
    fake: FakeSyncthing, share_root: Path
) -> None:
    fake.answers["/rest/db/completion"] = (200, b'{"completion": 100, "needItems": 1e999}')
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        assert not nudger.sent_to_all(1)  # on the tray's thread, before sleep
        assert nudger.problem is not None and "unexpected data" in nudger.problem
    finally:
        nudger.close()


def test_the_sync_package_imports_no_qt() -> None:
    code = (
        "import sys, sioul_tray.sync\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=python_env(),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_syncthing_nothing_heavy_is_loaded(tmp_path: Path) -> None:
    # The tray of a person without Syncthing pays for no parser and no HTTP or TLS code.
    import subprocess
    import sys

    from tests.helpers import python_env

    share, none = str(tmp_path), str(tmp_path / "none.xml")
    code = (
        "import sys\nfrom pathlib import Path\nimport sioul_tray.sync as sync\n"
        f"assert sync.find(Path({share!r}), [Path({none!r})]) is None\n"
        "heavy = ('xml.etree.ElementTree', 'ssl', 'http.client', 'urllib.request',\n"
        "         'configparser')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=python_env(), check=True)  # fmt: skip
    assert done.stdout.strip() == ""


def test_every_name_the_package_offers_is_there() -> None:
    import sioul_tray.sync as sync

    assert all(callable(getattr(sync, name)) for name in sync.__all__)
    with pytest.raises(AttributeError):
        _ = sync.nothing_of_the_kind


def test_a_computer_without_syncthing_does_not_load_its_module(tmp_path: Path) -> None:
    # Installation looks for a config.xml in the standard places with a few stats first.
    import subprocess
    import sys

    from tests.helpers import python_env

    code = (
        "import sys\nfrom pathlib import Path\nfrom sioul_tray.install import Installation\n"
        f"assert Installation(Path({str(tmp_path / 'home')!r}))._nudger(Path({str(tmp_path)!r}))"
        " is None\n"
        "print([m for m in sys.modules if m.startswith('sioul_tray.sync.')])\n"
    )
    env = python_env(HOME=str(tmp_path), XDG_CONFIG_HOME="", XDG_STATE_HOME="")
    for name in ("STCONFDIR", "STHOMEDIR"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env, check=True)  # fmt: skip
    assert done.stdout.strip() == "['sioul_tray.sync.places']"
