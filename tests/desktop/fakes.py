"""Starting the fake D-Bus services (fake_dbus_service.py) and reading what they saw."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

SCRIPT = Path(__file__).with_name("fake_dbus_service.py")


class FakeService:
    """One fake service process on a private bus; its JSON events arrive on a queue."""

    def __init__(self, address: str, kind: str) -> None:
        self.address = address
        self.kind = kind
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> Self:
        self.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), self.address, self.kind],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        threading.Thread(target=self._pump, daemon=True).start()
        self.wait(lambda e: e["event"] == "ready", 20)
        return self

    def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.events.put(json.loads(line))

    def send(self, command: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait(
        self,
        match: Callable[[dict[str, Any]], bool],
        timeout: float = 10,
        pump: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """The first event (seen or coming) that matches; `pump` runs the caller's event loop."""
        for event in self.seen:
            if match(event):
                self.seen.remove(event)
                return event
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pump is not None:
                pump()
            try:
                event = self.events.get(timeout=0.02)
            except queue.Empty:
                continue
            if match(event):
                return event
            self.seen.append(event)
        raise AssertionError(f"the fake {self.kind} saw no matching event; it saw {self.seen}")

    def calls(self, member: str) -> list[dict[str, Any]]:
        while True:
            try:
                self.seen.append(self.events.get_nowait())
            except queue.Empty:
                break
        return [e for e in self.seen if e["event"] == "call" and e["member"] == member]

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.proc is None:
            return
        try:
            self.send("quit")
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def setv(fake: FakeService, name: str, value: str) -> None:
    """Set one of a fake service's values, and wait until it has."""
    fake.send(f"set {name} {value}")
    fake.wait(lambda e: e["event"] == "set" and e["name"] == name)
