"""Syncthing (`sioul_tray.sync.syncthing`): finding the folder that holds the share, the REST
client against a stand-in on loopback, and sent_to_all; the sync package's lazy names.

Reading config.xml is in test_sync_stconfig.py, the transport (loopback, the owner of the socket,
HTTPS pinning) in test_sync_sttransport.py, the Nudger in test_sync_nudger.py and where config.xml
is in test_sync_places.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sioul_tray.sync import SyncToolError, find, sent_to_all
from sioul_tray.sync.syncthing import (
    Client,
    Gui,
)
from tests.helpers import ROOT, python_env
from tests.sync.conftest import FakeSyncthing
from tests.sync.stkit import (
    FOLDER_ID,
    ME,
    PEER,
    THIRD,
    completion,
    config_xml,
    connection,
    folder_at,
    write,
)

# -- a GUI that cannot be asked -------------------------------------------------------------------


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
