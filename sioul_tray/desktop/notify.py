"""Notifications: org.freedesktop.Notifications on Linux, `QSystemTrayIcon.showMessage` elsewhere.

`showMessage` draws a Qt balloon on plain X11 trays and is unreliable on macOS, so on Linux the tray
calls `Notify` itself with its desktop entry, as the Nextcloud client does.

Why libdbus through ctypes and not QtDBus for this one call: `Notify` takes `replaces_id` as a
uint32, and PySide6 cannot put a uint32 into a D-Bus message (a Python int becomes `i`, `x`, or `q`
through `QDBusArgument`), while GDBus- and QtDBus-based notification servers reject a call whose
signature is not `susssasa{sv}i`. libdbus is what QtDBus itself loads, so nothing new is needed.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"

_DBUS_BUS_SESSION = 0


@cache
def _libdbus() -> Any:
    from sioul_tray.desktop.x11 import load

    lib = load("libdbus-1.so.3", "dbus-1")
    if lib is None:
        return None
    p, c = ctypes.c_void_p, ctypes.c_char_p
    for fn, res, args in (
        ("dbus_error_init", None, [p]),
        ("dbus_error_free", None, [p]),
        ("dbus_connection_open_private", p, [c, p]),
        ("dbus_bus_get_private", p, [ctypes.c_int, p]),
        ("dbus_bus_register", ctypes.c_int, [p, p]),
        ("dbus_connection_close", None, [p]),
        ("dbus_connection_set_exit_on_disconnect", None, [p, ctypes.c_uint]),
        ("dbus_connection_pop_message", p, [p]),
        ("dbus_connection_read_write", ctypes.c_uint, [p, ctypes.c_int]),
        ("dbus_connection_unref", None, [p]),
        ("dbus_message_new_method_call", p, [c, c, c, c]),
        ("dbus_message_unref", None, [p]),
        ("dbus_message_iter_init_append", None, [p, p]),
        ("dbus_message_iter_append_basic", ctypes.c_int, [p, ctypes.c_int, p]),
        ("dbus_message_iter_open_container", ctypes.c_int, [p, ctypes.c_int, c, p]),
        ("dbus_message_iter_close_container", ctypes.c_int, [p, p]),
        ("dbus_connection_send_with_reply_and_block", p, [p, p, ctypes.c_int, p]),
        ("dbus_message_get_args", ctypes.c_int, [p, p, ctypes.c_int]),
        ("dbus_message_iter_init", ctypes.c_int, [p, p]),
        ("dbus_message_iter_get_arg_type", ctypes.c_int, [p]),
        ("dbus_message_iter_get_basic", None, [p, p]),
        ("dbus_message_iter_next", ctypes.c_uint, [p]),
        ("dbus_message_is_signal", ctypes.c_uint, [p, c, c]),
        ("dbus_bus_add_match", None, [p, c, p]),
        ("dbus_connection_get_unix_fd", ctypes.c_uint, [p, ctypes.POINTER(ctypes.c_int)]),
    ):
        f = getattr(lib, fn)
        f.restype = res
        f.argtypes = args
    return lib


class _Error(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
        ("pad", ctypes.c_byte * 48),
    ]


def _iter() -> Any:
    return ctypes.create_string_buffer(256)  # DBusMessageIter is opaque and smaller than this


class DBusNotifications:
    """`org.freedesktop.Notifications.Notify` on the session bus (or the bus at `address`)."""

    name = "org.freedesktop.Notifications"

    def __init__(self, app_name: str, desktop_entry: str, address: str | None = None) -> None:
        self.app_name = app_name
        self.desktop_entry = desktop_entry
        self.address = address
        self._conn: int | None = None
        self.invoked: list[tuple[int, str]] = []  # (notification id, action key), not yet taken

    def _connection(self) -> int | None:
        lib = _libdbus()
        if lib is None:
            return None
        if self._conn is None:
            err = _Error()
            lib.dbus_error_init(ctypes.byref(err))
            if self.address is not None:
                conn = lib.dbus_connection_open_private(self.address.encode(), ctypes.byref(err))
                if conn and not lib.dbus_bus_register(conn, ctypes.byref(err)):
                    lib.dbus_connection_close(conn)
                    lib.dbus_connection_unref(conn)
                    conn = None
            elif os.environ.get("DBUS_SESSION_BUS_ADDRESS") or os.environ.get("XDG_RUNTIME_DIR"):
                conn = lib.dbus_bus_get_private(_DBUS_BUS_SESSION, ctypes.byref(err))
            else:
                conn = None
            lib.dbus_error_free(ctypes.byref(err))
            if conn:
                # libdbus would otherwise _exit() the whole tray when the session bus goes away.
                lib.dbus_connection_set_exit_on_disconnect(conn, 0)
            self._conn = conn or None
        return self._conn

    def _drain(self, lib: Any, conn: int) -> None:
        """Keep the buttons pressed (`ActionInvoked`) and drop the rest the bus sent besides
        replies (NameAcquired, NotificationClosed...): the queue would only grow."""
        lib.dbus_connection_read_write(conn, 0)
        while msg := lib.dbus_connection_pop_message(conn):
            try:
                if lib.dbus_message_is_signal(msg, SERVICE.encode(), b"ActionInvoked"):
                    pressed = _id_and_key(lib, msg)
                    if pressed is not None:
                        self.invoked.append(pressed)
            finally:
                lib.dbus_message_unref(msg)

    def watch(self) -> int | None:
        """Listen for buttons pressed on notifications: the connection's file descriptor, to
        call `take_invoked` when it is readable; None without a bus."""
        lib = _libdbus()
        conn = self._connection()
        if lib is None or conn is None:
            return None
        err = _Error()
        lib.dbus_error_init(ctypes.byref(err))
        rule = f"type='signal',interface='{SERVICE}',member='ActionInvoked'"
        lib.dbus_bus_add_match(conn, rule.encode(), ctypes.byref(err))
        failed = bool(err.name)
        lib.dbus_error_free(ctypes.byref(err))
        fd = ctypes.c_int(-1)
        if failed or not lib.dbus_connection_get_unix_fd(conn, ctypes.byref(fd)):
            return None
        return fd.value

    def take_invoked(self) -> list[tuple[int, str]]:
        """The buttons pressed since last asked, as (notification id, action key)."""
        lib = _libdbus()
        if lib is not None and self._conn is not None:
            self._drain(lib, self._conn)
        taken, self.invoked = self.invoked, []
        return taken

    def send(
        self,
        summary: str,
        body: str,
        replaces: int = 0,
        timeout_ms: int = 2000,
        actions: Sequence[tuple[str, str]] = (),
    ) -> int | None:
        """Show a notification with a button for each (key, label) of `actions`; its id, or
        None when no notification service answered."""
        lib = _libdbus()
        conn = self._connection()
        if lib is None or conn is None:
            return None
        msg = lib.dbus_message_new_method_call(SERVICE.encode(), PATH.encode(),
                                               SERVICE.encode(), b"Notify")  # fmt: skip
        if not msg:
            return None
        keep: list[Any] = []  # the C strings must outlive the append calls

        def basic(it: Any, kind: str, value: Any) -> None:
            if kind == "s":
                cvalue: Any = ctypes.c_char_p(value.encode())
            elif kind == "u":
                cvalue = ctypes.c_uint32(value)
            elif kind == "i":
                cvalue = ctypes.c_int32(value)
            else:
                cvalue = ctypes.c_uint8(value)
            keep.append(cvalue)
            lib.dbus_message_iter_append_basic(it, ord(kind), ctypes.byref(cvalue))

        try:
            top = _iter()
            lib.dbus_message_iter_init_append(msg, top)
            basic(top, "s", self.app_name)
            basic(top, "u", replaces)
            basic(top, "s", "sioul-tray")  # app_icon: the theme icon installed with the entry
            basic(top, "s", summary)
            basic(top, "s", body)
            buttons = _iter()
            lib.dbus_message_iter_open_container(top, ord("a"), b"s", buttons)
            for key, label in actions:
                basic(buttons, "s", key)
                basic(buttons, "s", label)
            lib.dbus_message_iter_close_container(top, buttons)
            hints = _iter()
            lib.dbus_message_iter_open_container(top, ord("a"), b"{sv}", hints)
            for key, kind, value in (
                ("desktop-entry", "s", self.desktop_entry),
                ("urgency", "y", 1),
            ):
                entry, variant = _iter(), _iter()
                lib.dbus_message_iter_open_container(hints, ord("e"), None, entry)
                basic(entry, "s", key)
                lib.dbus_message_iter_open_container(entry, ord("v"), kind.encode(), variant)
                basic(variant, kind, value)
                lib.dbus_message_iter_close_container(entry, variant)
                lib.dbus_message_iter_close_container(hints, entry)
            lib.dbus_message_iter_close_container(top, hints)
            basic(top, "i", -1)
            err = _Error()
            lib.dbus_error_init(ctypes.byref(err))
            reply = lib.dbus_connection_send_with_reply_and_block(
                conn, msg, timeout_ms, ctypes.byref(err)
            )
            lib.dbus_error_free(ctypes.byref(err))
            if not reply:
                return None
            try:
                it = _iter()
                if lib.dbus_message_iter_init(reply, it) and (
                    lib.dbus_message_iter_get_arg_type(it) in (ord("u"), ord("i"))
                ):  # the specification says a uint32; a server that answers an int32 means it
                    out = ctypes.c_uint32()
                    lib.dbus_message_iter_get_basic(it, ctypes.byref(out))
                    return int(out.value)
                return 0
            finally:
                lib.dbus_message_unref(reply)
        finally:
            lib.dbus_message_unref(msg)
            self._drain(lib, conn)

    def close(self) -> None:
        lib = _libdbus()
        if self._conn is not None and lib is not None:
            lib.dbus_connection_close(self._conn)
            lib.dbus_connection_unref(self._conn)
            self._conn = None


def _id_and_key(lib: Any, msg: int) -> tuple[int, str] | None:
    """`ActionInvoked`'s arguments (uint32 id, string key), or None when they are not those."""
    it = _iter()
    if not lib.dbus_message_iter_init(msg, it) or lib.dbus_message_iter_get_arg_type(it) != ord(
        "u"
    ):
        return None
    number = ctypes.c_uint32()
    lib.dbus_message_iter_get_basic(it, ctypes.byref(number))
    if not lib.dbus_message_iter_next(it) or lib.dbus_message_iter_get_arg_type(it) != ord("s"):
        return None
    text = ctypes.c_char_p()
    lib.dbus_message_iter_get_basic(it, ctypes.byref(text))
    return int(number.value), (text.value or b"").decode("utf-8", errors="replace")


class Notifier:
    """D-Bus first (Linux); `fallback(title, body)` (the tray icon's balloon) when it fails."""

    def __init__(
        self, dbus: DBusNotifications | None, fallback: Callable[[str, str], object]
    ) -> None:
        self.dbus = dbus
        self.fallback = fallback
        self._ids: dict[str, int] = {}
        self._buttons: dict[int, set[str]] = {}  # the buttons of each notification still shown

    def __call__(
        self, key: str, title: str, body: str, actions: Sequence[tuple[str, str]] = ()
    ) -> str:
        """Send; returns which way it went ("dbus" or "fallback", which has no buttons)."""
        if self.dbus is not None:
            group = key.split(":", 1)[0]  # a newer note on the same part replaces the older
            replaces = self._ids.get(group, 0)
            sent = self.dbus.send(title, body, replaces=replaces, actions=actions)
            if sent is not None:
                self._buttons.pop(replaces, None)
                if sent:
                    self._ids[group] = sent
                    self._buttons[sent] = {k for k, _ in actions}
                return "dbus"
        self.fallback(title, body)
        return "fallback"

    def pressed(self) -> list[str]:
        """The action keys of the buttons pressed since last asked, on notifications this
        notifier sent with them (another program's notification, or a key it never offered,
        does nothing)."""
        if self.dbus is None:
            return []
        return [key for n, key in self.dbus.take_invoked() if key in self._buttons.get(n, set())]
