"""This installation: where it keeps its config, state and cache, its computer id, the folder key
it cached, and the lock that makes one process at a time the writer of its claims.

``SIOUL_TRAY_HOME``, when set, holds all of it instead of the platform directories (tests, portable
use). No Qt here: the command line and the tray share it.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sioul_tray.dirs import home_dirs
from sioul_tray.errors import Busy, Copied, NotSetUp, SioulError, WrongPassphrase
from sioul_tray.files import (
    NotPlain,
    make_folders,
    open_lock,
    read_bounded,
    write_atomic,
    write_new,
)
from sioul_tray.i18n import Core
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.lease import PARTS, Lease
from sioul_tray.lease.host import host_name, machine_id, new_computer_id
from sioul_tray.share import Share

if TYPE_CHECKING:
    from sioul_tray.sync.nudger import Nudger

# What each of this installation's files may hold, read with no more (`files.read_bounded`):
MAX_ID_FILE = 256  # the computer id (63 characters at most), or the binding (an id and a digest)
MAX_KEY_FILE = 4096  # the folder key and the derived keys, each a line of base64
MAX_SETTINGS = 64 * 1024  # a few paths and a name


def machine_digest(raw: bytes) -> str:
    """A keyed digest of a machine's id (32 hex digits): a GMAC of a fixed text with the id as
    the key. The id is 128 bits on every system (a machine-id, a UUID, a GUID); any other is
    hashed to a key first."""
    from sioul_tray.share.seal import gmac

    try:
        key = bytes.fromhex(raw.decode("ascii").replace("-", "").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) not in (16, 32):
        import hashlib

        key = hashlib.sha256(raw).digest()
    return gmac(key, b"sioul-tray: the machine a computer id was made on").hex()


@dataclass(frozen=True)
class NewId:
    """What the answer for a copied installation did: the id it had, the id made here, and
    whether the old one was declared gone (from when it counts: `Lease.forget_counts_from`)."""

    old: str
    new: str
    declared: bool = False
    counts_from: int | None = None


class Installation:
    """The files of one installation of sioul-tray on this computer."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        machine: Callable[[], bytes | None] = machine_id,
    ) -> None:
        self.config_dir, self.state_dir, self.cache_dir = home_dirs(home)
        # Asks Syncthing to send each claim file at once, when Syncthing syncs the folder.
        self.nudger: Nudger | None = None
        self._machine = machine
        self._here: str | None = None  # this machine's binding, once asked

    # -- identity -------------------------------------------------------------------------

    def computer(self) -> str:
        """This installation's computer id, once it is known to be this machine's own.

        Raises Copied when the id was made on another machine (`_bind`).
        """
        computer = self._computer_id()
        self._bind(computer)
        return computer

    def _computer_id(self) -> str:
        """The computer id, made once from the host name and then kept.

        The id file appears whole or not at all. One left empty or blank (by an older version
        killed during its first setup, or a full disk) never held an id that wrote a claim: it
        is replaced. One that holds anything else is not guessed at: the error names it.
        """
        path = self.config_dir / "computer"
        text = self._read_id(path)
        if text is None or not text.strip():
            _private_dir(self.config_dir)
            made = new_computer_id(host_name())
            try:
                write_new(path, (made + "\n").encode("ascii"), replace=text is not None)
            except FileExistsError:
                pass  # another process made it a moment ago: take that one
            except OSError as e:
                raise SioulError(
                    Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
                ) from None
            else:
                return made
            text = self._read_id(path) or ""
        text = text.strip()
        if not COMPUTER_ID.fullmatch(text):
            raise SioulError(
                Core.mark(
                    "{path} holds {text}, which is not a computer id: "
                    "remove that file to make a new id (this computer's claims then start anew)",
                    path=path,
                    text=repr(text[:80]),
                )
            )
        return text

    @property
    def binding_file(self) -> Path:
        """Which machine the computer id was made on: ``<id> <digest of the machine's id>``."""
        return self.config_dir / "machine"

    def _machine_here(self) -> str | None:
        """This machine's binding: a keyed digest of its id, never the id itself (systemd asks
        that the machine id not be shown as it is). None where the system names no machine."""
        if self._here is None:
            raw = self._machine()
            if raw is None:
                return None
            self._here = machine_digest(raw)
        return self._here

    def _read_binding(self) -> tuple[str, str] | None:
        """The binding file's id and digest; None when there is none."""
        text = self._read_id(self.binding_file)
        if text is None:
            return None
        words = text.split()
        if len(words) != 2 or not COMPUTER_ID.fullmatch(words[0]) or len(words[1]) != 32:
            raise SioulError(
                Core.mark(
                    "{path} is damaged: remove it if this installation was made on this computer",
                    path=self.binding_file,
                )
            )
        return words[0], words[1]

    def _bind(self, computer: str) -> None:
        """Raise Copied when `computer` was made on another machine; else bind it to this one,
        the first time a version that binds runs it (or when its id was made anew)."""
        here = self._machine_here()
        if here is None:
            return  # nothing tells machines apart here: docs/protocol.md, "A copied installation"
        written = self._read_binding()
        if written == (computer, here):
            return
        if written is not None and written[0] == computer:
            raise Copied(
                Core.mark(
                    "this installation was copied from another computer, where its claims are "
                    "{computer}'s: run `sioul-tray copied new` if this is a new computer, or "
                    "`sioul-tray copied gone` if it replaces that one for good",
                    computer=computer,
                ),
                computer,
            )
        self._write_binding(computer, here, replace=written is not None)

    def _write_binding(self, computer: str, here: str, replace: bool) -> None:
        _private_dir(self.config_dir)
        try:
            write_new(self.binding_file, f"{computer} {here}\n".encode("ascii"),
                      replace=replace, mode=0o600)  # fmt: skip
        except FileExistsError:
            pass  # another process bound it a moment ago: checked again at the next start
        except OSError as e:
            raise SioulError(
                Core.mark(
                    "cannot write {path}: {error}",
                    path=self.binding_file,
                    error=e.strerror or str(e),
                )
            ) from None

    def name_in_claims(self, computer: str) -> str | None:
        """The name `computer`'s claims carry in the sharing folder, read as a look would, writing
        nothing; None when none reads (or no folder is set up)."""
        if self.share_folder() is None:
            return None
        lease = Lease(self.open_share(), self._computer_id(), name=self.name(),
                      state_dir=self.state_dir, read_only=True)  # fmt: skip
        names = (c.name for part in PARTS for c in lease.claims(part) if c.computer == computer)
        return next(names, None)

    def become_new_computer(self, replaces: bool = False) -> NewId:
        """The person's answer for a copied installation: a new id, bound to this machine. The
        old id stays the other computer's ("this is a new computer"), or, when this one
        `replaces` it for good, is declared gone as `sioul-tray forget` would. Never the old id
        kept: were the person wrong, two computers would write one computer's claims.

        The state files name the old id and are left as they are: the new id starts anew. The
        caller holds `writer`."""
        try:
            old = self.computer()
        except Copied as e:
            old = e.computer
        else:
            raise SioulError(
                Core.mark(
                    "this installation was made on this computer: nothing to change "
                    "(its claims are {computer}'s)",
                    computer=old,
                )
            )
        here = self._machine_here()
        assert here is not None  # a copy is only ever told by this machine's binding
        made = new_computer_id(host_name())
        path = self.config_dir / "computer"
        try:
            write_new(path, (made + "\n").encode("ascii"), replace=True)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None
        self._write_binding(made, here, replace=True)
        if not replaces or self.share_folder() is None:
            return NewId(old, made)
        lease = self.lease(verify=True)
        if not any(c.computer == old for part in PARTS for c in lease.claims(part)):
            return NewId(old, made)  # it never wrote a claim that reached here: none holds back
        lease.forget(old)
        return NewId(old, made, declared=True, counts_from=lease.forget_counts_from(old))

    @staticmethod
    def _read_id(path: Path) -> str | None:
        """The id file's text, or None when there is none."""
        try:
            return read_bounded(path, MAX_ID_FILE).decode("ascii")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            return "\ufffd"  # not ASCII: reported as not an id

    # -- settings -------------------------------------------------------------------------

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    def settings(self) -> dict[str, Any]:
        try:
            raw = read_bounded(self.settings_file, MAX_SETTINGS)
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested beyond reason
            raise SioulError(
                Core.mark("{path} is damaged: not JSON", path=self.settings_file)
            ) from None
        if not isinstance(data, dict):
            raise SioulError(
                Core.mark("{path} is damaged: not a table of settings", path=self.settings_file)
            )
        return data

    def update_settings(self, **changes: Any) -> None:
        """Change some settings, keeping every other one the person set."""
        data = self.settings()
        data.update(changes)
        _private_dir(self.config_dir)
        try:
            write_atomic(
                self.settings_file,
                (json.dumps(data, indent=2) + "\n").encode("utf-8"),
                sync=False,
            )
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=self.settings_file, error=e.strerror)
            ) from None

    def name(self) -> str:
        """The name this computer shows the others: the one the person chose, else the name
        people call it (the host's). Carried in each claim."""
        from sioul_tray.lease.codec import short_name

        chosen = self.settings().get("name")
        if isinstance(chosen, str) and short_name(chosen):
            return short_name(chosen)
        return host_name()

    def set_name(self, name: str) -> str:
        """Keep `name` as this computer's name (cleaned as a claim carries it); the name kept.
        An empty name goes back to the host's."""
        from sioul_tray.lease.codec import short_name

        clean = short_name(name)
        self.update_settings(name=clean or None)
        return clean or host_name()

    def share_folder(self) -> Path | None:
        folder = self.settings().get("share")
        if not isinstance(folder, str) or not folder:
            return None
        if "\0" in folder:
            raise SioulError(
                Core.mark(
                    "{path} is damaged: the sharing folder's path holds a NUL character",
                    path=self.settings_file,
                )
            )
        return Path(folder)

    # -- the folder key -------------------------------------------------------------------

    def _key_file(self, folder_id: str) -> Path:
        from sioul_tray.share.seal import FOLDER_ID

        if not FOLDER_ID.fullmatch(folder_id):  # read_seal refuses it first: never a path
            raise SioulError(Core.mark("{id} is not a folder id", id=repr(folder_id[:40])))
        return self.config_dir / "keys" / f"{folder_id}.key"

    def made_folder(self, share: Share) -> None:
        """This installation sealed `share`'s folder: its state file there begins now, so that
        its first run may act on an empty view, and a later one that lost it may not
        (`statefile.begin`)."""
        from sioul_tray.lease import statefile

        _private_dir(self.state_dir)
        path = statefile.state_file(self.state_dir, share.folder_id, self.computer())
        try:
            statefile.begin(path)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None

    def remember_key(self, share: Share) -> None:
        """Cache the folder key, readable only by this user, so later starts need no passphrase.

        The first line is the folder key. The second holds the keys derived from it (key id and
        claim key) with a CRC-32 against damage, so a start derives nothing (see `open_share`).
        """
        path = self._key_file(share.folder_id)
        _private_dir(self.config_dir)
        _private_dir(path.parent)
        derived = share.derived + zlib.crc32(share.derived).to_bytes(4, "big")
        data = base64.b64encode(share.folder_key) + b"\n" + base64.b64encode(derived) + b"\n"
        try:
            write_new(path, data, replace=True, mode=0o600)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None

    def open_share(self, verify: bool = False) -> Share:
        """The sharing folder set up here, opened with the cached key (no passphrase).

        `verify`: derive the claim key from the folder key again and use it if the cached one
        differs (a cache edited by hand passes its CRC: claims sealed with it would read to
        nobody). The command line verifies; the tray does not (HKDF would stay in its memory).
        """
        folder = self.share_folder()
        if folder is None:
            raise NotSetUp(
                Core.mark("no sharing folder is set up here: run `sioul-tray setup --share DIR`")
            )
        from sioul_tray.share.seal import read_seal, timing_of

        _still_there(folder)
        doc = read_seal(folder)  # every field checked
        path = self._key_file(doc["folder"])
        try:
            lines = read_bounded(path, MAX_KEY_FILE).split()
            key = base64.b64decode(lines[0] if lines else b"", validate=True)
        except FileNotFoundError:
            raise NotSetUp(
                Core.mark(
                    "this computer has no key for {folder}: "
                    "run `sioul-tray setup --share {folder}`",
                    folder=folder,
                )
            ) from None
        except ValueError:
            key = b""
        if len(key) != 32:
            raise SioulError(
                Core.mark(
                    "{path} is damaged (its key is cut short or not base64): "
                    "run `sioul-tray setup --share {folder}` to write it again",
                    path=path,
                    folder=folder,
                )
            )
        derived = _derived(lines[1]) if len(lines) > 1 else None
        if verify and derived is not None:
            from sioul_tray.share.seal import derive

            if derived != derive(key, timing_of(doc)):
                derived = None  # the key alone is trusted: derived again, and the cache rewritten
        try:
            share = Share.unlock(folder, key, derived)
        except WrongPassphrase:
            raise WrongPassphrase(
                Core.mark(
                    "the key kept in {path} does not open {folder}: the folder was sealed again; "
                    "run `sioul-tray setup --share {folder}`",
                    path=path,
                    folder=folder,
                )
            ) from None
        if derived != share.derived:  # written by an older version, or damaged: write it anew
            with contextlib.suppress(SioulError):  # the next start tries again
                self.remember_key(share)
        return share

    def lease(
        self, clock: Callable[[], float] = time.time, verify: bool = False, read_only: bool = False
    ) -> Lease:
        """This installation's lease on its folder. `read_only` for a look beside its writer
        (`writer`): it saves no state and writes nothing."""
        _private_dir(self.state_dir)
        share = self.open_share(verify)
        if read_only:
            return Lease(share, self.computer(), name=self.name(), clock=clock,
                         state_dir=self.state_dir, read_only=True)  # fmt: skip
        nudger = self._nudger(share.folder)
        return Lease(share, self.computer(), name=self.name(), clock=clock,
                     state_dir=self.state_dir,
                     wrote_file=nudger.nudge if nudger is not None else None)  # fmt: skip

    def _nudger(self, folder: Path) -> Nudger | None:
        """A nudger for the Syncthing folder holding `folder`, or None when Syncthing does not
        sync it (or SIOUL_TRAY_NO_NUDGE=1: the sync tool is then left to its own watcher)."""
        self.send_pending(0.0)
        if os.environ.get("SIOUL_TRAY_NO_NUDGE") == "1":
            return None
        from sioul_tray.sync.places import any_config

        if not any_config():  # no Syncthing here: its parser and HTTP code are never loaded
            return None
        from sioul_tray.sync.syncthing import find

        found = find(folder)
        if found is None or found.gui is None:
            return None
        from sioul_tray.sync.nudger import Nudger

        self.nudger = Nudger(found)
        return self.nudger

    def send_pending(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the claim files written to be handed to the sync tool
        (a command line about to exit); True when nothing is left. Then stop asking."""
        nudger, self.nudger = self.nudger, None
        if nudger is None:
            return True
        try:
            return nudger.flush(timeout)
        finally:
            nudger.close(0.0)

    # -- one writer -----------------------------------------------------------------------

    @contextlib.contextmanager
    def writer(self) -> Iterator[None]:
        """Be the only process of this installation writing its claims, or raise Busy."""
        _private_dir(self.state_dir)
        path = self.state_dir / "writer.lock"
        f = os.fdopen(_open_lock(path), "r+", encoding="utf-8", errors="replace")
        try:
            if not _try_lock(f):
                f.seek(0)
                holder = f.read(32).strip() or "?"  # a pid: never more read
                raise Busy(
                    Core.mark(
                        "another sioul-tray process (pid {pid}) writes this computer's claims; "
                        "try again when it has quit",
                        pid=holder,
                    )
                )
            f.seek(0)
            f.truncate()
            f.write(f"{os.getpid()}\n")
            f.flush()
            yield
        finally:
            f.close()  # closing the file releases the lock


def _still_there(folder: Path) -> None:
    """The sharing folder set up here is there with its seal, else where it was and what may have
    happened: never "not a sharing folder yet", which would lead the person to seal it again."""
    from sioul_tray.share.seal import SEAL_NAME

    if not folder.is_dir():
        raise SioulError(
            Core.mark(
                "the sharing folder {folder} is missing: deleted, moved, or on a disk that is "
                "not mounted now",
                folder=folder,
            )
        )
    if not os.path.lexists(folder / SEAL_NAME):
        raise SioulError(
            Core.mark(
                "the sharing folder {folder} holds no {file} any more: is its disk mounted? "
                "If it was emptied, the sync brings the seal back from the other computers",
                folder=folder,
                file=SEAL_NAME,
            )
        )


def make_part_folders(folder: Path) -> None:
    """The sharing folder's folders of claims (leases/<part>), 0755 whatever the umask. Made at
    setup: the core makes one that is missing when it writes, with the process's umask."""
    for part in PARTS:
        path = folder / "leases" / part
        try:
            make_folders(path, 0o755)
        except OSError as e:
            raise SioulError(
                Core.mark("cannot make {path}: {error}", path=path, error=e.strerror or str(e))
            ) from None


def check_writable(folder: Path) -> None:
    """SioulError when this computer could not write its claims in `folder` (an existing one): a
    read-only mount, a folder this user may not write. Said at setup, before any passphrase:
    joining such a folder would succeed, then every renew would fail."""
    for path in (folder, folder / "leases", *(folder / "leases" / part for part in PARTS)):
        if not path.is_dir() or os.access(path, os.W_OK | os.X_OK):
            continue  # a missing one is made in the folder above, checked already
        if _read_only(path):
            raise SioulError(
                Core.mark(
                    "{folder} is on a read-only file system: this computer could not write its "
                    "claims there; choose a folder it can write",
                    folder=path,
                )
            )
        raise SioulError(
            Core.mark(
                "this user may not write in {folder}: this computer could not write its claims "
                "there",
                folder=path,
            )
        )


def _read_only(path: Path) -> bool:
    if not hasattr(os, "statvfs"):  # Windows: a read-only folder is an attribute, said as such
        return False
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _open_lock(path: Path) -> int:
    try:
        return open_lock(path)
    except NotPlain:
        raise SioulError(
            Core.mark(
                "{path} is a link or another user's file, not this installation's lock: "
                "remove it (someone may have planted it)",
                path=path,
            )
        ) from None
    except OSError as e:
        raise SioulError(
            Core.mark("cannot write {path}: {error}", path=path, error=e.strerror or str(e))
        ) from None


def _private_dir(path: Path) -> None:
    """Make `path` (and its missing parents) readable by this user only, whatever the umask.

    An existing folder that other users may write is tightened when it is ours (a planted link
    there could read the folder key); one that belongs to another user is refused.
    """
    try:
        make_folders(path, 0o700)
        if os.name == "nt":
            return  # the user's profile folders are private already
        # Through a descriptor of the folder itself: a link swapped in is never followed.
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            raise SioulError(
                Core.mark("{path} is not a folder (a link?): remove it", path=path)
            ) from None
        raise SioulError(
            Core.mark("cannot make {path}: {error}", path=path, error=e.strerror or str(e))
        ) from None
    try:
        _tighten(fd, path)
    finally:
        os.close(fd)


def _tighten(fd: int, path: Path) -> None:
    st = os.fstat(fd)
    if st.st_uid != os.getuid():
        raise SioulError(
            Core.mark("{path} belongs to another user: it must be this user's own", path=path)
        )
    if st.st_mode & 0o077:
        try:
            os.fchmod(fd, 0o700)
        except OSError as e:
            raise SioulError(
                Core.mark(
                    "{path} is open to other users and cannot be made private: {error}",
                    path=path,
                    error=e.strerror or str(e),
                )
            ) from None


def _derived(line: bytes) -> bytes | None:
    """The derived keys of a key file's second line, or None when it is not intact."""
    try:
        data = base64.b64decode(line, validate=True)
    except ValueError:
        return None
    keys, crc = data[:-4], data[-4:]
    if len(data) < 5 or zlib.crc32(keys).to_bytes(4, "big") != crc:
        return None
    return keys


def _try_lock(f: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
