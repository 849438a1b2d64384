"""Minimal libX11 access through ctypes (no extra Python dependency).

Used for the XScreenSaver idle time and, by the virtual desktop, to see when a tray host owns the
system tray selection.
"""

from __future__ import annotations

import ctypes
from functools import cache


def load(soname: str, short: str) -> ctypes.CDLL | None:
    """A shared library by its usual soname, else wherever the system says it is.

    The soname first: `find_library` runs `ldconfig` (a process) on Linux, at every start.
    """
    try:
        return ctypes.CDLL(soname)
    except OSError:
        pass
    from ctypes import util  # here: it brings subprocess, 0.5 MB the tray would keep

    found = util.find_library(short)
    if found is None:
        return None
    try:
        return ctypes.CDLL(found)
    except OSError:
        return None


@cache
def libx11() -> ctypes.CDLL | None:
    lib = load("libX11.so.6", "X11")
    if lib is None:
        return None
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    lib.XDefaultRootWindow.restype = ctypes.c_ulong
    lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    lib.XInternAtom.restype = ctypes.c_ulong
    lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.XGetSelectionOwner.restype = ctypes.c_ulong
    lib.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    lib.XFree.argtypes = [ctypes.c_void_p]
    return lib


def open_display(name: str | None = None) -> int | None:
    """An X display pointer, or None when there is no libX11 or no server."""
    lib = libx11()
    if lib is None:
        return None
    dpy = lib.XOpenDisplay(name.encode() if name else None)
    return int(dpy) if dpy else None


def close_display(dpy: int) -> None:
    lib = libx11()
    if lib is not None:
        lib.XCloseDisplay(ctypes.c_void_p(dpy))


def tray_owner(display: str | None = None) -> int:
    """The window owning ``_NET_SYSTEM_TRAY_S0`` on screen 0 (0 when no tray host runs)."""
    lib = libx11()
    dpy = open_display(display)
    if lib is None or dpy is None:
        return 0
    try:
        atom = lib.XInternAtom(ctypes.c_void_p(dpy), b"_NET_SYSTEM_TRAY_S0", 0)
        return int(lib.XGetSelectionOwner(ctypes.c_void_p(dpy), atom))
    finally:
        close_display(dpy)
