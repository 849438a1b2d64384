"""Fake D-Bus services for the desktop tests, served with QtDBus on a private bus.

Run as a separate process (a service must answer while the tray blocks in a call):

    python fake_dbus_service.py ADDRESS KIND

KIND is `logind` (system bus: Inhibit with a real file descriptor, PrepareForSleep, session idle
and lock hints), `notifications` (org.freedesktop.Notifications), `mutter` (IdleMonitor) or
`screensaver`. Every call received is printed as one JSON line on stdout: member, signature and
arguments. Commands on stdin, one per line: `sleep`, `wake` (emit PrepareForSleep), `set NAME
JSON` (a property or answer value), `quit`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QSocketNotifier
from PySide6.QtDBus import (
    QDBusConnection,
    QDBusMessage,
    QDBusObjectPath,
    QDBusUnixFileDescriptor,
    QDBusVariant,
    QDBusVirtualObject,
)

SERVICES = {
    "logind": ("org.freedesktop.login1", "/org/freedesktop/login1"),
    "notifications": ("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
    "mutter": ("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor"),
    "screensaver": ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
}
NOTIFY_XML = """<interface name="org.freedesktop.Notifications">
 <method name="Notify">
  <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
  <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
  <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
 </method>
 <method name="GetServerInformation">
  <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
  <arg type="s" direction="out"/>
 </method>
</interface>
"""
SESSION_PATH = "/org/freedesktop/login1/session/_31"


def plain(value: Any) -> Any:
    """Arguments as JSON-friendly values."""
    if isinstance(value, QDBusVariant):
        return plain(value.variant())
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return repr(value)


def reply_with(message: QDBusMessage, args: list[Any]) -> QDBusMessage:
    # Not createReply(list): PySide picks its QVariant overload and sends one array argument.
    reply = message.createReply()
    reply.setArguments(args)
    return reply


def say(**event: Any) -> None:
    print(json.dumps(event), flush=True)


class Fake(QDBusVirtualObject):
    def __init__(self, kind: str, bus: QDBusConnection) -> None:
        super().__init__()
        self.kind = kind
        self.bus = bus
        self.values: dict[str, Any] = {
            "IdleHint": False, "IdleSinceHint": 0, "LockedHint": False, "idletime": 1234,
            "active": False,
        }  # fmt: skip
        self.inhibitors: list[tuple[int, QSocketNotifier]] = []
        self.next_id = 0

    def introspect(self, path: str) -> str:
        if self.kind == "notifications" and path == SERVICES["notifications"][1]:
            return NOTIFY_XML
        return ""

    def handleMessage(self, message: QDBusMessage, connection: QDBusConnection) -> bool:
        member = message.member()
        args = list(message.arguments())
        say(event="call", path=message.path(), interface=message.interface(), member=member,
            signature=message.signature(), args=plain(args))  # fmt: skip
        reply = self.answer(message, member, args)
        if reply is None:
            reply = message.createErrorReply(
                "org.freedesktop.DBus.Error.UnknownMethod", f"fake has no {member}"
            )
        connection.send(reply)
        return True

    def answer(self, message: QDBusMessage, member: str, args: list[Any]) -> QDBusMessage | None:
        if member == "Introspect":
            node = '<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"'
            node += ' "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">\n'
            return reply_with(message, [f"{node}<node>{self.introspect(message.path())}</node>"])
        if member == "Get" and len(args) == 2:
            name = args[1]
            if name in self.values:
                return reply_with(message, [QDBusVariant(self.values[name])])
            return None
        if self.kind == "logind":
            if member == "Inhibit":
                read, write = os.pipe()
                fd = QDBusUnixFileDescriptor(write)  # Qt keeps its own duplicate
                os.close(write)
                notifier = QSocketNotifier(read, QSocketNotifier.Type.Read)
                notifier.activated.connect(lambda *_: self.released(read, notifier))
                self.inhibitors.append((read, notifier))
                say(event="inhibit", args=plain(args))
                return reply_with(message, [fd])
            if member in ("GetSessionByPID", "GetSession"):
                return reply_with(message, [QDBusObjectPath(SESSION_PATH)])
        if self.kind == "notifications":
            if member == "Notify":
                self.next_id += 1
                return reply_with(message, [self.next_id])
            if member == "GetServerInformation":
                return reply_with(message, ["fake", "sioul", "1", "1.2"])
            if member == "GetCapabilities":
                return reply_with(message, [["body"]])
        if self.kind == "mutter" and member == "GetIdletime":
            return reply_with(message, [self.values["idletime"]])
        if self.kind == "screensaver" and member == "GetActive":
            return reply_with(message, [bool(self.values["active"])])
        return None

    def released(self, read: int, notifier: QSocketNotifier) -> None:
        if os.read(read, 1) == b"":  # every copy of the write end closed: the inhibitor is gone
            notifier.setEnabled(False)
            os.close(read)
            self.inhibitors = [(r, n) for r, n in self.inhibitors if r != read]
            say(event="released", files=self.snapshot())

    def snapshot(self) -> dict[str, str]:
        """The files under `snapshot` as they are at this moment (what sleep would find)."""
        root = self.values.get("snapshot")
        if not root:
            return {}
        out = {}
        for dirpath, _dirs, names in os.walk(root):
            for name in names:
                path = os.path.join(dirpath, name)
                with open(path, "rb") as f:
                    out[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
        return out

    def signal(self, going: bool) -> None:
        message = QDBusMessage.createSignal(
            "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep"
        )
        message.setArguments([going])
        self.bus.send(message)
        say(event="signal", going=going)


class Commands(QObject):
    def __init__(self, fake: Fake) -> None:
        super().__init__()
        self.fake = fake
        self.notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self.read)

    def read(self, *_args: Any) -> None:
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            QCoreApplication.quit()
            return
        command, _, rest = line.strip().partition(" ")
        if command == "sleep":
            self.fake.signal(True)
        elif command == "wake":
            self.fake.signal(False)
        elif command == "set":
            name, _, value = rest.partition(" ")
            self.fake.values[name] = json.loads(value)
            say(event="set", name=name)


def main() -> None:
    address, kind = sys.argv[1], sys.argv[2]
    app = QCoreApplication(sys.argv)
    bus = QDBusConnection.connectToBus(address, f"fake-{kind}")
    service, root = SERVICES[kind]
    fake = Fake(kind, bus)
    if not bus.registerVirtualObject(
        root, fake, QDBusConnection.VirtualObjectRegisterOption.SubPath
    ):
        sys.exit(f"cannot register {root}")
    if kind == "screensaver":
        bus.registerService("org.gnome.ScreenSaver")
    if not bus.registerService(service):
        sys.exit(f"cannot own {service}")
    commands = Commands(fake)
    say(event="ready", service=service)
    app.exec()
    del commands


if __name__ == "__main__":
    main()
