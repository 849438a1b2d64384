"""The sync tool that syncs the sharing folder: which one it is (tools), and for Syncthing, a
nudge that sends a claim file at once instead of after the watcher's delay. No Qt here."""

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
