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


def import_qt_lightly() -> bool:
    """Import PySide6 without keeping the source text of every module in memory.

    PySide6 (6.4 and later) asks of every imported module whether its source mentions "PySide6"
    (for `from __feature__ import ...`), through `inspect.getsource`, which keeps each whole source
    in `linecache` for the life of the process: 3 MB in the tray, the largest part of the tray's
    Python memory. The same question is answered here by reading the file and keeping nothing.
    True when PySide6's check was found and replaced; False leaves PySide6 as it is.
    """
    import linecache

    import PySide6.QtCore  # noqa: F401  (loads the feature module and its import hook)

    linecache.clearcache()  # what PySide6 read of its own modules while importing
    for name in ("shibokensupport.feature", "PySide6.support.feature"):
        feature = sys.modules.get(name)
        if feature is not None and hasattr(feature, "_mod_uses_pyside"):
            setattr(feature, "_mod_uses_pyside", _uses_pyside)  # noqa: B010  (a private name)
            return True
    return False


def _uses_pyside(module: object) -> bool:
    """PySide6's question, "does this module's source mention PySide6?", without a cache."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return False  # built-in or source-less: PySide6's own check answers False too
    try:
        with open(path, "rb") as source:
            return b"PySide6" in source.read()
    except OSError:
        return False
