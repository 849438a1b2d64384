"""The lease core: one computer at a time for each part of Sioul's work. No Qt here.

The contract is the project's lease specification; these are exactly its public names.
"""

from sioul_tray.lease.host import host_name, started
from sioul_tray.lease.keeper import Keeper
from sioul_tray.lease.lease import Lease
from sioul_tray.lease.overlay import FolderOverlay, Overlay
from sioul_tray.lease.rules import PARTS, Claim, Rule, choose, holds
from sioul_tray.timing import ALIVE, CONTRACT, NEAR, RENEW, SETTLING, UNCLOSED, Timing

__all__ = [
    "ALIVE",
    "CONTRACT",
    "NEAR",
    "PARTS",
    "RENEW",
    "SETTLING",
    "UNCLOSED",
    "Claim",
    "FolderOverlay",
    "Keeper",
    "Lease",
    "Overlay",
    "Rule",
    "Timing",
    "choose",
    "holds",
    "host_name",
    "started",
]
