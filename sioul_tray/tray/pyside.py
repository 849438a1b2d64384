"""The one way the tray loads PySide6, with the workarounds it needs (today: one).

`load()` is called once, before any tray module imports Qt. The PySide6 version that lost
references to `None` on Python 3.11 (6.12.0) is excluded by the dependency (pyproject.toml), so
no guard for it is carried here.
"""

from __future__ import annotations

import sys


def load() -> bool:
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
