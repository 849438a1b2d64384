"""A guard against a reference-counting bug of PySide6 6.12.0 on Python 3.11.

There, every call of a Qt method returning void (`QAction.setText`, `QTimer.start`,
`processEvents`, ...) takes one reference from `None` without having given one. `None` starts
with a few thousand references, so a tray making a few dozen such calls per minute aborts with
"Fatal Python error: none_dealloc" after an hour or two. PySide6 6.11.3 does not do it, and from
Python 3.12 `None` is immortal (PEP 683), so the bug is harmless there.

The guard measures the bug at start and, only where it shows, gives `None` a reserve of
references that the bug cannot use up in the lifetime of the process. `None` is never freed
anyway: the reserve changes nothing else.
"""

from __future__ import annotations

import ctypes
import sys

RESERVE = 1 << 40  # at a million lost references a second, 12 days; at a tray's rate, forever


def none_loses_references() -> bool:
    """Whether this Python and PySide6 take references from None on void calls."""
    if sys.version_info >= (3, 12):
        return False
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(200):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before - 100


def keep_none_alive() -> bool:
    """Apply the guard where the bug shows; True when it was needed."""
    if not none_loses_references():
        return False
    # True and False lose references on that build too (seen: "bool_dealloc" after a few
    # thousand ticks); like None, they live as long as the interpreter.
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        refcount.value += RESERVE
    return True
