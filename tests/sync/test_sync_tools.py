"""Which sync tool syncs the sharing folder, from configuration files written in a fake home."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sioul_tray.sync import Found, synced_folders, which_tool
from sioul_tray.sync.tools import DETECTION_ONLY, MAX_TOOL_CONFIG, SCAN_AND_COMPLETION

LINUX: dict[str, str] = {}  # an environment with nothing set: the defaults apply


@pytest.fixture
def home(tmp_path: Path) -> Path:
    made = tmp_path / "home"
    made.mkdir()
    return made


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def syncthing_config(home: Path, folders: dict[str, str], gui: str = "true") -> Path:
    lines = ['<configuration version="36">']
    lines += [
        f'<folder id="{i}" label="L{i}" path="{p}"><paused>false</paused></folder>'
        for i, p in folders.items()
    ]
    lines.append(f'<gui enabled="{gui}" tls="false"><address>127.0.0.1:8384</address></gui>')
    lines.append("</configuration>")
    return write(home / ".config" / "syncthing" / "config.xml", "\n".join(lines))


def dropbox_info(home: Path, info: object) -> Path:
    return write(home / ".dropbox" / "info.json", json.dumps(info))


def test_no_tool_at_all(home: Path) -> None:
    assert synced_folders(home, LINUX, "Linux") == []
    assert which_tool(home / "share", home, LINUX, "Linux") is None


def test_syncthing_folder(home: Path) -> None:
    config = syncthing_config(home, {"sioul": "~/Sync", "photos": str(home / "Photos")})
    share = home / "Sync" / "pharmacy"
    assert which_tool(share, home, LINUX, "Linux") == Found(
        "Syncthing", home / "Sync", SCAN_AND_COMPLETION, "Lsioul", config, "sioul"
    )
    assert [(f.tool, f.root) for f in synced_folders(home, LINUX, "Linux")] == [
        ("Syncthing", home / "Sync"),
        ("Syncthing", home / "Photos"),
    ]


def test_syncthing_without_its_gui_is_detection_only(home: Path) -> None:
    syncthing_config(home, {"sioul": "~/Sync"}, gui="false")
    found = which_tool(home / "Sync", home, LINUX, "Linux")
    assert found is not None and (found.tool, found.can) == ("Syncthing", DETECTION_ONLY)


def test_dropbox_personal_and_business(home: Path) -> None:
    info = dropbox_info(
        home,
        {
            "personal": {"path": str(home / "Dropbox"), "host": 123, "is_team": False},
            "business": {"path": str(home / "Dropbox (Pharmacy)"), "is_team": True},
        },
    )
    found = which_tool(home / "Dropbox (Pharmacy)" / "share", home, LINUX, "Linux")
    assert found == Found("Dropbox", home / "Dropbox (Pharmacy)", DETECTION_ONLY, "business", info)
    assert [f.label for f in synced_folders(home, LINUX, "Linux")] == ["personal", "business"]
    assert which_tool(home / "Documents", home, LINUX, "Linux") is None


def test_dropbox_on_windows_reads_appdata(home: Path, tmp_path: Path) -> None:
    appdata = tmp_path / "AppData" / "Roaming"
    write(appdata / "Dropbox" / "info.json", json.dumps({"personal": {"path": "D:/Dropbox"}}))
    found = synced_folders(home, {"APPDATA": str(appdata)}, "Windows")
    assert [(f.tool, f.root) for f in found] == [("Dropbox", Path("D:/Dropbox"))]


def test_nextcloud_accounts_and_folders(home: Path) -> None:
    cfg = write(
        home / ".config" / "Nextcloud" / "nextcloud.cfg",
        "\n".join(
            [
                "[General]",
                "clientVersion=3.7.3",
                "",
                "[Accounts]",
                "version=2",
                r"0\url=https://cloud.example.org",
                r"0\Folders\1\localPath=/home/x/Nextcloud/",
                r"0\Folders\1\paused=false",
                r"0\Folders\2\localPath=/srv/pharma%20share/",  # % is no interpolation
                r"1\FoldersWithPlaceholders\1\localPath=/home/x/Work/",
                r'1\Folders\3\localPath="/home/x/Caf\x00e9, share/"',  # Qt's quoting, escapes
                r"1\Folders\3\targetPath=/",
            ]
        ),
    )
    found = synced_folders(home, LINUX, "Linux")
    assert [(f.tool, f.root, f.config) for f in found] == [
        ("Nextcloud", Path("/home/x/Nextcloud"), cfg),
        ("Nextcloud", Path("/srv/pharma%20share"), cfg),
        ("Nextcloud", Path("/home/x/Work"), cfg),
        ("Nextcloud", Path("/home/x/Café, share"), cfg),
    ]
    found_one = which_tool(Path("/home/x/Nextcloud/pharmacy"), home, LINUX, "Linux")
    assert found_one is not None and found_one.root == Path("/home/x/Nextcloud")


def test_nextcloud_follows_xdg_config_home(home: Path, tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    write(xdg / "Nextcloud" / "nextcloud.cfg", "[Accounts]\n0\\Folders\\1\\localPath=/nc/\n")
    found = synced_folders(home, {"XDG_CONFIG_HOME": str(xdg)}, "Linux")
    assert [f.root for f in found] == [Path("/nc")]


def test_onedrive_linux_client(home: Path) -> None:
    config = write(
        home / ".config" / "onedrive" / "config",
        '# sync_dir = "~/Old"\nskip_file = "~*"\nsync_dir = "~/Cloud/OneDrive"\n',
    )
    assert which_tool(home / "Cloud" / "OneDrive" / "share", home, LINUX, "Linux") == Found(
        "OneDrive", home / "Cloud" / "OneDrive", DETECTION_ONLY, "", config
    )


def test_onedrive_linux_defaults_to_home_onedrive(home: Path) -> None:
    write(home / ".config" / "onedrive" / "config", '# sync_dir = "~/OneDrive"\n')
    assert [f.root for f in synced_folders(home, LINUX, "Linux")] == [home / "OneDrive"]


def test_onedrive_linux_signed_in_without_a_config(home: Path) -> None:
    write(home / ".config" / "onedrive" / "refresh_token", "token")
    assert [f.root for f in synced_folders(home, LINUX, "Linux")] == [home / "OneDrive"]


def test_onedrive_windows_environment(home: Path) -> None:
    env = {
        "OneDrive": r"C:\Users\x\OneDrive - Pharmacy",
        "OneDriveCommercial": r"C:\Users\x\OneDrive - Pharmacy",
        "OneDriveConsumer": r"C:\Users\x\OneDrive",
    }
    found = synced_folders(home, env, "Windows")
    assert [(f.tool, f.label) for f in found] == [
        ("OneDrive", "OneDrive"),
        ("OneDrive", "OneDriveConsumer"),
    ]
    assert synced_folders(home, env, "Linux") == []  # read on Windows only


def test_the_innermost_folder_wins(home: Path) -> None:
    dropbox_info(home, {"personal": {"path": str(home / "Dropbox")}})
    syncthing_config(home, {"sioul": "~/Dropbox/pharmacy"})
    found = which_tool(home / "Dropbox" / "pharmacy" / "share", home, LINUX, "Linux")
    assert found is not None and found.tool == "Syncthing"
    found = which_tool(home / "Dropbox" / "other", home, LINUX, "Linux")
    assert found is not None and found.tool == "Dropbox"


def test_damaged_configurations_are_passed_over(home: Path) -> None:
    write(home / ".dropbox" / "info.json", "{not json")
    write(home / ".config" / "Nextcloud" / "nextcloud.cfg", "\x00\x01 no section\n")
    write(home / ".config" / "syncthing" / "config.xml", "<configuration")
    write(home / ".config" / "onedrive" / "config", 'sync_dir = "~/OneDrive"\n')
    assert [f.tool for f in synced_folders(home, LINUX, "Linux")] == ["OneDrive"]
    dropbox_info(home, ["a", "list"])
    assert [f.tool for f in synced_folders(home, LINUX, "Linux")] == ["OneDrive"]


def test_a_configuration_nested_too_deep_or_too_large_is_passed_over(home: Path) -> None:
    # Deep nesting was a RecursionError out of detection; a large file was read whole.
    write(home / ".dropbox" / "info.json", "[" * 100_000 + "]" * 100_000)
    write(home / ".config" / "onedrive" / "config", 'sync_dir = "~/OneDrive"\n')
    assert [f.tool for f in synced_folders(home, LINUX, "Linux")] == ["OneDrive"]
    padding = " " * MAX_TOOL_CONFIG
    write(home / ".dropbox" / "info.json", '{"personal": {"path": "/d"}}' + padding)
    assert [f.tool for f in synced_folders(home, LINUX, "Linux")] == ["OneDrive"]


@pytest.mark.skipif(os.name == "nt", reason="links: POSIX")
def test_a_configuration_behind_a_link_is_read(home: Path, tmp_path: Path) -> None:
    # The tools' own files, often links kept by a dotfiles manager: followed, unlike ours.
    real = dropbox_info(tmp_path / "dotfiles", {"personal": {"path": str(home / "Dropbox")}})
    (home / ".dropbox").mkdir()
    (home / ".dropbox" / "info.json").symlink_to(real)
    assert [f.tool for f in synced_folders(home, LINUX, "Linux")] == ["Dropbox"]
