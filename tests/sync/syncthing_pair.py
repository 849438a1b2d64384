"""Two real Syncthing instances on loopback sharing one folder: for tests/sync and the benchmark.

Each instance has its own home (keys, config.xml, database) and its own copy of the folder. All
addresses are 127.0.0.1 on free ports; discovery, relays, NAT, usage reporting, crash reporting
and upgrades are off, so nothing leaves this machine. Each knows the other's device id with an
explicit address. The folder keeps Syncthing's default watcher (fsWatcherEnabled, 10 s delay) and
a one-hour rescan, so only the watcher or a nudge makes a file leave, as on a person's computer.

    with SyncthingPair(tmp) as pair:   # started, connected, folders scanned
        (pair.a.folder / "x").write_bytes(b"...")

Written for Syncthing 1.19 (Debian 12) and later: ``syncthing generate --home=DIR`` makes the keys
and config, ``syncthing serve --home=DIR`` runs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.helpers import wait_for

FOLDER_ID = "sioul-share"
WATCHER_DELAY_S = 10  # Syncthing's default, kept so an unnudged file leaves as it would at home
RESCAN_S = 3600

# Never through a proxy: everything here is on loopback.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def binary() -> str | None:
    return shutil.which("syncthing")


def missing() -> str | None:
    """Why a real pair cannot run here, or None."""
    if binary() is None:
        return "the syncthing program is not installed (apt-get install syncthing)"
    return None


def free_port() -> int:
    # Closed at once: a race with another program taking it is possible but rare on loopback.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _set(parent: ET.Element, tag: str, text: str) -> None:
    child = parent.find(tag)
    if child is None:
        child = ET.SubElement(parent, tag)
    child.text = text


class Instance:
    """One Syncthing: its home, its copy of the folder, its ports and its process."""

    def __init__(self, root: Path, name: str, tls: bool = False) -> None:
        self.name = name
        self.tls = tls  # the GUI over HTTPS, with the certificate Syncthing makes on first start
        self.home = root / f"{name}-home"
        self.folder = root / f"{name}-share"
        self.folder.mkdir(parents=True)
        # Syncthing refuses to sync a folder without its marker; made here, as the GUI would.
        (self.folder / ".stfolder").mkdir()
        self.gui_port = free_port()
        self.listen_port = free_port()
        self.log = self.home / "syncthing.log"
        self.process: subprocess.Popen[bytes] | None = None
        done = subprocess.run(
            [_need_binary(), "generate", f"--home={self.home}", "--no-default-folder"],
            capture_output=True,
            timeout=60,
            env=self._env(),
        )
        if done.returncode != 0:
            raise RuntimeError(f"syncthing generate failed: {done.stderr.decode(errors='replace')}")
        config = ET.parse(self.config_path).getroot()
        device = config.find("device")
        gui = config.find("gui")
        assert device is not None and gui is not None, "syncthing generate wrote no device or gui"
        self.device_id = device.attrib["id"]
        self.api_key = gui.findtext("apikey") or ""

    @property
    def config_path(self) -> Path:
        return self.home / "config.xml"

    @property
    def gui_address(self) -> str:
        return f"127.0.0.1:{self.gui_port}"

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        # Its home is the instance's: nothing written into the real one.
        env.update(HOME=str(self.home), STNODEFAULTFOLDER="1", STNOUPGRADE="1", STNORESTART="1")
        for variable in ("STHOMEDIR", "STCONFDIR", "STDATADIR", "STGUIADDRESS", "STGUIAPIKEY"):
            env.pop(variable, None)
        return env

    def configure(self, other: Instance) -> None:
        """Write the addresses, the switches and the shared folder into config.xml."""
        tree = ET.parse(self.config_path)
        config = tree.getroot()
        gui = config.find("gui")
        options = config.find("options")
        assert gui is not None and options is not None
        gui.set("tls", "true" if self.tls else "false")
        _set(gui, "address", self.gui_address)
        for tag, value in {
            "listenAddress": f"tcp://127.0.0.1:{self.listen_port}",
            "globalAnnounceEnabled": "false",
            "localAnnounceEnabled": "false",
            "relaysEnabled": "false",
            "natEnabled": "false",  # also turns STUN off
            "urAccepted": "-1",  # usage reporting declined, not merely unanswered
            "autoUpgradeIntervalH": "0",
            "startBrowser": "false",
            "crashReportingEnabled": "false",
            # A peer that was down is dialled again within seconds, not a minute.
            "reconnectionIntervalS": "2",
        }.items():
            _set(options, tag, value)
        peer = ET.SubElement(
            config,
            "device",
            {"id": other.device_id, "name": other.name, "compression": "metadata"},
        )
        _set(peer, "address", f"tcp://127.0.0.1:{other.listen_port}")
        _set(peer, "paused", "false")
        folder = ET.Element(
            "folder",
            {
                "id": FOLDER_ID,
                "label": "Sioul",
                "path": str(self.folder),
                "type": "sendreceive",
                "rescanIntervalS": str(RESCAN_S),
                "fsWatcherEnabled": "true",
                "fsWatcherDelayS": str(WATCHER_DELAY_S),
            },
        )
        ET.SubElement(folder, "device", {"id": self.device_id})
        ET.SubElement(folder, "device", {"id": other.device_id})
        # No free-space floor: a nearly full /tmp on a CI machine must not stop the sync.
        ET.SubElement(folder, "minDiskFree", {"unit": "%"}).text = "0"
        _set(folder, "paused", "false")
        # Folders before devices, as Syncthing writes them (it reads either order).
        config.insert(0, folder)
        tree.write(self.config_path, encoding="utf-8")

    def start(self) -> None:
        assert self.process is None or self.process.poll() is not None, f"{self.name} runs"
        with open(self.log, "ab") as log:  # the child keeps its own descriptor
            self.process = subprocess.Popen(
                [
                    _need_binary(),
                    "serve",
                    f"--home={self.home}",
                    "--no-browser",
                    "--no-restart",
                    "--no-upgrade",
                    "--logflags=3",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self._env(),
            )
        wait_for(self._answers, 30, why=f"Syncthing {self.name} to answer at {self.gui_address}")

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"Syncthing {self.name} exited: {self.log_tail()}")
        try:
            return bool(self.get("/rest/system/ping") == {"ping": "pong"})
        except OSError:
            return False

    def stop(self) -> None:
        """Terminate (Syncthing shuts down cleanly on SIGTERM), wait; kill if it hangs."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def base_url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.gui_address}"

    def get(self, path: str) -> Any:
        """GET on this instance's REST API (independent of the code under test)."""
        request = urllib.request.Request(
            f"{self.base_url}{path}", headers={"X-API-Key": self.api_key}
        )
        with self._opener().open(request, timeout=5) as answer:
            return json.load(answer)

    def post(self, path: str) -> None:
        """POST on this instance's REST API; Syncthing answers a scan once it is done."""
        request = urllib.request.Request(
            f"{self.base_url}{path}", method="POST", headers={"X-API-Key": self.api_key}
        )
        with self._opener().open(request, timeout=30) as answer:
            answer.read()

    def _opener(self) -> urllib.request.OpenerDirector:
        if not self.tls:
            return _OPENER
        import ssl

        # The harness's own requests: the certificate is the one under test elsewhere.
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        https = urllib.request.HTTPSHandler(context=context)
        return urllib.request.build_opener(urllib.request.ProxyHandler({}), https)

    def connected_to(self, other: Instance) -> bool:
        try:
            connections = self.get("/rest/system/connections")["connections"]
        except OSError:
            return False
        return bool(connections.get(other.device_id, {}).get("connected"))

    def folder_idle(self) -> bool:
        try:
            status = self.get(f"/rest/db/status?folder={FOLDER_ID}")
        except OSError:
            return False
        return bool(status.get("state") == "idle")

    def log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return "(no log)"


def _need_binary() -> str:
    found = binary()
    if found is None:
        raise RuntimeError(missing())
    return found


class SyncthingPair:
    """Instances `a` and `b`, started and connected on entry, stopped on exit."""

    def __init__(self, root: Path) -> None:
        self.a = Instance(root, "a")
        self.b = Instance(root, "b")
        self.a.configure(self.b)
        self.b.configure(self.a)

    def __enter__(self) -> SyncthingPair:
        try:
            self.a.start()
            self.b.start()
            self.wait_connected()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        try:
            self.b.stop()
        finally:
            self.a.stop()

    def lay_out_share(self, parts: tuple[str, ...] = ("medicines", "invoices")) -> None:
        """A sharing folder as sioul-tray lays it out, on both sides before anything is timed:
        the claims' folders are in both indexes (a scan of one new file then stays that file) and
        B has sent an index (Syncthing tracks B's completion only from then on)."""
        (self.a.folder / "sioul.seal").write_bytes(os.urandom(120))
        for part in parts:
            (self.a.folder / "leases" / part).mkdir(parents=True, exist_ok=True)
        self.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
        wait_for(
            lambda: (
                all((self.b.folder / "leases" / part).is_dir() for part in parts)
                and (self.b.folder / "sioul.seal").is_file()
            ),
            30,
            why="the sharing folder to reach b",
        )

    def wait_connected(self, timeout: float = 30) -> None:
        """Until each sees the other connected and both folders are idle (first scan done)."""
        try:
            wait_for(
                lambda: self.a.connected_to(self.b) and self.b.connected_to(self.a),
                timeout,
                step=0.1,
                why="the two Syncthing instances to connect",
            )
            wait_for(
                lambda: self.a.folder_idle() and self.b.folder_idle(),
                timeout,
                step=0.1,
                why="both folders to be idle",
            )
        except AssertionError as e:
            raise RuntimeError(
                f"{e}\n--- a ---\n{self.a.log_tail()}\n--- b ---\n{self.b.log_tail()}"
            ) from None
