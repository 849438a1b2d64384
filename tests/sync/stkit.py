"""Builders for the Syncthing tests: device and folder ids, a config.xml as Syncthing writes it,
and the answers of its REST API (served by the stand-in of tests/sync/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sioul_tray.sync.syncthing import Config, Folder, Gui, Syncthing

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


def folder_at(path: Path, devices: tuple[str, ...] = (ME, PEER)) -> Folder:
    return Folder(FOLDER_ID, "Sioul", path, "sendreceive", False, devices)


def syncthing_at(root: Path, gui: Gui) -> Syncthing:
    config = Config(gui.config, gui, None, (folder_at(root),), ())
    return Syncthing(config, gui, folder_at(root))
