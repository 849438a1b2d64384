"""Small synchronous QtDBus calls with a timeout, without introspection.

`QDBusInterface` introspects the remote object at construction (a blocking round trip, and a hang
when the service is wedged); a plain method-call message does not.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtDBus import QDBus, QDBusConnection, QDBusMessage, QDBusVariant

PROPERTIES = "org.freedesktop.DBus.Properties"


def call(
    bus: QDBusConnection,
    service: str,
    path: str,
    interface: str,
    method: str,
    *args: Any,
    timeout_ms: int = 2000,
) -> list[Any] | None:
    """The reply's arguments, or None on any error (no service, no method, timeout)."""
    if not bus.isConnected():
        return None
    message = QDBusMessage.createMethodCall(service, path, interface, method)
    if args:
        message.setArguments(list(args))
    reply = bus.call(message, QDBus.CallMode.Block, timeout_ms)
    if reply.type() != QDBusMessage.MessageType.ReplyMessage:
        return None
    return list(reply.arguments())


def get_property(bus: QDBusConnection, service: str, path: str, interface: str, name: str) -> Any:
    """One property's value, or None."""
    reply = call(bus, service, path, PROPERTIES, "Get", interface, name)
    if not reply:
        return None
    value = reply[0]
    if isinstance(value, QDBusVariant):
        value = value.variant()
    return value
