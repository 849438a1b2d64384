"""The sync tool that syncs the sharing folder: which one it is (tools), and for Syncthing, a
nudge that sends a claim file at once instead of after the watcher's delay. No Qt here.

The names below are loaded when first used: the tray imports only what it needs (a person
without Syncthing loads no configuration parser, no HTTP code).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sioul_tray.sync.nudger import Nudger
    from sioul_tray.sync.syncthing import (
        Client,
        Completion,
        Connection,
        Syncthing,
        SyncToolError,
        find,
        sent_to_all,
    )
    from sioul_tray.sync.tools import Found, synced_folders, which_tool

_HOME = {
    "Nudger": "nudger",
    "Client": "syncthing",
    "Completion": "syncthing",
    "Connection": "syncthing",
    "Syncthing": "syncthing",
    "SyncToolError": "syncthing",
    "find": "syncthing",
    "sent_to_all": "syncthing",
    "Found": "tools",
    "synced_folders": "tools",
    "which_tool": "tools",
}

__all__ = [
    "Client",
    "Completion",
    "Connection",
    "Found",
    "Nudger",
    "SyncToolError",
    "Syncthing",
    "find",
    "sent_to_all",
    "synced_folders",
    "which_tool",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
