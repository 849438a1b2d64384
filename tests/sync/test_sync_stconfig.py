"""Syncthing's config.xml as sioul-tray reads it (`sioul_tray.sync.stconfig`): where its GUI and
REST API answer, its folders and devices, which folder holds the share, and every file that is
not one said as a SyncToolError. Real files in tmp_path, laid out as Syncthing writes them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.sync.stconfig import (
    MAX_CONFIG,
    Config,
    Folder,
    SyncToolError,
    loopback,
    read_config,
    shown,
)
from tests.helpers import plant
from tests.sync.stkit import ME, PEER, config_xml, write


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


def test_tls_attribute_and_api_key(tmp_path: Path) -> None:
    path = write(tmp_path / "config.xml", config_xml([], tls="true", api_key="s3cret"))
    gui = read_config(path).gui
    assert gui is not None
    assert gui.tls and gui.base_url == "https://127.0.0.1:8384"
    assert gui.api_key == "s3cret" and gui.config == path


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


@pytest.mark.skipif(os.name == "nt", reason="FIFOs and devices: POSIX")
@pytest.mark.parametrize(
    ("kind", "said"),
    [("fifo", "a FIFO"), ("link to /dev/zero", "a device"), ("too large", "large")],
)
def test_a_config_that_is_no_file_says_so_at_once(tmp_path: Path, kind: str, said: str) -> None:
    # A FIFO hung the parser for ever; a large file was read and parsed whole.
    path = tmp_path / "config.xml"
    if kind == "too large":
        write(path, config_xml([]) + " " * MAX_CONFIG)
    else:  # a link is followed (Syncthing's file), a device is not
        plant(path, kind)
    with pytest.raises(SyncToolError, match=f"{path} is .*{said}"):
        read_config(path)


@pytest.mark.parametrize(
    ("address", "tls", "where"),
    [
        ("https://127.0.0.1:8385", True, "127.0.0.1:8385"),
        ("http://localhost", False, "localhost:8384"),
        ("http://[::1]:8386", False, "[::1]:8386"),
    ],
)
def test_a_scheme_in_the_address_says_how_to_ask(
    tmp_path: Path, address: str, tls: bool, where: str
) -> None:
    gui = read_config(write(tmp_path / "config.xml", config_xml([], address=address))).gui
    assert gui is not None and (gui.tls, gui.where) == (tls, where)


@pytest.mark.parametrize(
    ("address", "enabled", "problem"),
    [
        ("127.0.0.1:8384", "false", "Syncthing's GUI and REST API are switched off in "),
        ("unix:///run/syncthing.sock", "true", "listens on a Unix socket (unix:///run/"),
        ("/run/syncthing.sock", "true", "listens on a Unix socket (/run/syncthing.sock)"),
        ("127.0.0.1:99999", "true", "'127.0.0.1:99999' in "),
        ("127.0.0.1:http", "true", "is not host:port"),
        ("192.0.2.2:8384", "true", "is not on this computer's loopback"),
    ],
)
def test_a_gui_that_cannot_be_asked_says_why(
    tmp_path: Path, address: str, enabled: str, problem: str
) -> None:
    path = write(tmp_path / "config.xml", config_xml([], address=address, gui_enabled=enabled))
    config = read_config(path)
    assert config.gui is None and config.gui_problem is not None
    assert problem in config.gui_problem
    assert shown(path) in config.gui_problem or "Unix socket" in problem  # which config.xml


def test_a_config_without_a_gui_has_none(tmp_path: Path) -> None:
    config = read_config(write(tmp_path / "config.xml", "<configuration/>"))
    assert config.gui is None and config.gui_problem is not None
    assert (config.folders, config.devices) == ((), ())


def test_old_configs_and_entries_without_an_id(tmp_path: Path) -> None:
    """Syncthing's first config versions named a folder's path "directory"; an entry without an
    id names nothing Syncthing could be asked about."""
    text = (
        '<configuration version="2">\n'
        f'  <folder id="old" directory="/srv/old"><device id="{ME}"/><device/></folder>\n'
        '  <folder path="/srv/no-id"></folder>\n'
        '  <device name="no id"></device>\n'
        f'  <device id="{PEER}"></device>\n'
        "</configuration>\n"
    )
    config = read_config(write(tmp_path / "config.xml", text))
    assert config.folders == (Folder("old", "", Path("/srv/old"), "sendreceive", False, (ME,)),)
    assert [(d.id, d.name, d.paused) for d in config.devices] == [(PEER, "", False)]


def folder(path: Path, id: str = "f") -> Folder:
    return Folder(id, "", path, "sendreceive", False, (ME, PEER))


def test_the_folder_holding_the_share_is_the_innermost(tmp_path: Path) -> None:
    outer, inner = folder(tmp_path / "all", "outer"), folder(tmp_path / "all" / "pharmacy", "inner")
    config = Config(tmp_path / "config.xml", None, None, (inner, outer), ())
    assert config.folder_holding(tmp_path / "all" / "pharmacy" / "share") == inner
    assert config.folder_holding(tmp_path / "all" / "photos") == outer
    assert config.folder_holding(tmp_path / "all") == outer  # the root itself
    assert config.folder_holding(tmp_path / "allsorts") is None  # a name that starts alike


def test_a_relative_folder_path_holds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Syncthing resolves it against its own working directory, which is not known here."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Sync" / "share").mkdir(parents=True)
    assert not folder(Path("Sync")).holds(tmp_path / "Sync" / "share")
    assert folder(tmp_path / "Sync").holds(Path("Sync") / "share")  # the share's own is resolved


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.200.0.9", "::1", "::ffff:127.0.0.1", "localhost"]
)
def test_loopback_addresses(host: str) -> None:
    assert loopback(host)


@pytest.mark.parametrize(
    "host",
    ["192.0.2.1", "128.0.0.1", "0.0.0.0", "::", "::2", "::ffff:192.0.2.1", "2001:db8::1",
     "sync.example", "localhost.example", ""],
)  # fmt: skip
def test_other_addresses_are_not_loopback(host: str) -> None:
    """As written, no name looked up: a name may lead anywhere."""
    assert not loopback(host)


def test_a_path_is_shown_with_the_home_as_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert shown(tmp_path / ".local/state/syncthing/config.xml") == (
        "~/.local/state/syncthing/config.xml"
    )
    assert shown(Path("/etc/syncthing/config.xml")) == "/etc/syncthing/config.xml"
