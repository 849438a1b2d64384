"""The sharing folder's seal (``sioul.seal``) and the sealing of claim files.

The seal is plain JSON with no secret: a random folder key wrapped by a key derived from the
passphrase (scrypt), as Cryptomator does. A short check value derived from the passphrase key tells
a wrong passphrase from a damaged seal, which an AEAD tag alone cannot do. Randomness comes from
os.urandom, the source of `secrets`, which would pull in hashlib and the system's libcrypto.

A claim file is ``header || nonce || AES-GCM(claim key, plaintext, header || relative path)``: the
path in the associated data makes a claim copied under another name or into another part unreadable.
The header carries a key id, so "sealed with another key" is told apart from "damaged".
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sioul_tray.errors import (
    ForeignSeal,
    SealDamaged,
    SealExists,
    SioulError,
    Unreadable,
    WrongPassphrase,
)
from sioul_tray.files import FAILED, NotReadable, read_bounded, write_new
from sioul_tray.i18n import Core
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.timing import CONTRACT, MAX_SCALE, Timing


def _load_cryptography() -> type[Exception]:
    """cryptography's bindings, without OpenSSL's legacy provider (Blowfish, CAST5, RC4, ...).

    Sioul seals with AES-GCM, scrypt and HKDF alone. cryptography loads that provider when its
    bindings load unless CRYPTOGRAPHY_OPENSSL_NO_LEGACY is set (its documented switch), and it
    would stay in the tray's memory for nothing. The variable is put back as it was at once, so
    that no program this one starts (a file manager, a window) inherits it; a person's own
    setting stands.
    """
    name = "CRYPTOGRAPHY_OPENSSL_NO_LEGACY"
    had = name in os.environ
    os.environ.setdefault(name, "1")
    try:
        from cryptography.exceptions import InvalidTag
    finally:
        if not had:
            del os.environ[name]
    return InvalidTag


InvalidTag = _load_cryptography()

SEAL_NAME = "sioul.seal"
SEAL_VERSION = 1
MAX_SEAL = 8192  # bytes: a seal is about 450, each of its fields bounded
DEFAULT_COST = 17  # scrypt n = 2**17, r = 8: about 0.4 s and 128 MiB, once per setup

CLAIM_MAGIC = b"SIOL"
CLAIM_VERSION = 1
KEY_ID_SIZE = 8
NONCE_SIZE = 12
TAG_SIZE = 16
HEADER_SIZE = len(CLAIM_MAGIC) + 1 + KEY_ID_SIZE
OVERHEAD = HEADER_SIZE + NONCE_SIZE + TAG_SIZE
WRAPPED_SIZE = 32 + TAG_SIZE  # the folder key, sealed by the passphrase key

# A folder id as `create` makes it (8 random bytes in hex): it names the key cache's file.
FOLDER_ID = re.compile(r"[0-9a-f]{16}")
_KEY_ID = re.compile(rf"[0-9a-f]{{{2 * KEY_ID_SIZE}}}")


if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
else:
    try:
        # The very class `cryptography.hazmat.primitives.ciphers.aead` names (a test checks it is
        # the same object), reached without that package's classic cipher modes, algorithms and
        # decrepit ciphers: 0.3 MB the running tray would keep for nothing. Should a later
        # cryptography move it, the public name serves.
        from cryptography.hazmat.bindings._rust import openssl as _openssl

        AESGCM = _openssl.aead.AESGCM
    except (ImportError, AttributeError):
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def gmac(key: bytes, text: bytes) -> bytes:
    """AES-GCM's tag of `text` under `key` (16 or 32 bytes), nothing encrypted: a keyed digest
    with the cipher loaded for the claims anyway (HMAC's modules would cost 0.3 MB more)."""
    return bytes(AESGCM(key).encrypt(b"\0" * NONCE_SIZE, b"", text))


def _hkdf(key: bytes, purpose: bytes, length: int = 32) -> bytes:
    # Imported here: a tray started with cached keys (`Share.unlock(..., derived=...)`) never
    # derives one, and HKDF's first use costs 0.3 MB for the process's life.
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=purpose).derive(key)


def derive(folder_key: bytes, timing: Timing = CONTRACT) -> bytes:
    """The keys a folder key gives: its key id then the claim key (see `Share.derived`).

    A folder on a test's scale (`Timing.scaled`) has a key id of its own: a claim written on one
    timing reads as sealed with another key on any other (waited for, never counted), so two
    computers that disagree on the times can never number side by side."""
    purpose = b"sioul key id" if timing.scale == 1 else b"sioul key id|scale=%d" % timing.scale
    return _hkdf(folder_key, purpose, KEY_ID_SIZE) + _hkdf(folder_key, b"sioul claim v1")


def _same(a: bytes, b: bytes) -> bool:
    """Equal, in time that does not depend on where they differ.

    Not hmac.compare_digest: hmac pulls in hashlib and the system's libcrypto (3 MB resident).
    """
    if len(a) != len(b):
        return False
    diff = 0
    for x, y in zip(a, b, strict=True):
        diff |= x ^ y
    return diff == 0


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: object, what: str) -> bytes:
    if not isinstance(text, str):
        raise SealDamaged(
            Core.mark("{file} is damaged: {what} is not text", file=SEAL_NAME, what=what)
        )
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise SealDamaged(
            Core.mark("{file} is damaged: {what} is not base64", file=SEAL_NAME, what=what)
        ) from None


def _wrap_aad(folder_id: str, creator: str) -> bytes:
    return f"sioul.seal v{SEAL_VERSION}|{folder_id}|{creator}".encode()


# The key derivation costs this version accepts in a seal: what it writes (2^17, r = 8, p = 1)
# with room for later versions, never what would take minutes or gigabytes on a planted seal.
MAX_SCRYPT_MEMORY = 2**29  # bytes (scrypt needs 128 * r * n)
MIN_PASSPHRASE = 8  # characters, when creating a folder


def _passphrase_key(passphrase: str, salt: bytes, cost: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt  # for create and open only

    try:
        secret = passphrase.encode("utf-8")
    except UnicodeEncodeError:
        raise SioulError(Core.mark("the passphrase is not valid text (UTF-8)")) from None
    try:
        return Scrypt(salt=salt, length=32, n=2**cost, r=r, p=p).derive(secret)
    except MemoryError:  # cryptography's word for any parameters OpenSSL refuses, or no memory
        raise SioulError(
            Core.mark(
                "this computer cannot make the key derivation (scrypt n=2^{cost}, r={r}, p={p}): "
                "not enough memory",
                cost=cost,
                r=r,
                p=p,
            )
        ) from None


def _nfc(passphrase: str) -> str:
    """One spelling of a passphrase (é typed as one character or as e and an accent)."""
    import unicodedata  # for create and open only

    return unicodedata.normalize("NFC", passphrase)


class Share:
    """An opened sharing folder: its id, creator and the keys that seal its claims.

    Made by `create`, `open` (passphrase) or `unlock` (a folder key cached on this computer). No key
    derivation happens after that: sealing a claim costs one AES-GCM operation.
    """

    def __init__(
        self,
        folder: Path,
        folder_id: str,
        creator: str,
        folder_key: bytes,
        derived: bytes | None = None,
        timing: Timing = CONTRACT,
    ) -> None:
        self.folder = Path(folder)
        self.folder_id = folder_id
        self.creator = creator
        self.folder_key = folder_key
        # The protocol's times on this folder, as its seal says (`timing_of`): the contract's
        # unless a test's setup sealed it on a scale.
        self.timing = timing
        if derived is None or len(derived) != KEY_ID_SIZE + 32:
            derived = derive(folder_key, timing)
        # This process sealed the folder (`create`) and no lease has started on it yet: the
        # first one begins its state file (`statefile.begin`), which shows that it made the
        # folder (docs/protocol.md, "When this computer acts").
        self.made = False
        # What the folder key gives (key id, claim key), to cache beside it: as secret as it.
        self.derived = derived
        self.key_id = derived[:KEY_ID_SIZE]
        self._claims = AESGCM(derived[KEY_ID_SIZE:])
        self._header = CLAIM_MAGIC + bytes([CLAIM_VERSION]) + self.key_id

    def __repr__(self) -> str:
        return f"Share({str(self.folder)!r}, folder_id={self.folder_id!r})"

    # -- making and opening ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        folder: str | os.PathLike[str],
        passphrase: str,
        creator: str,
        *,
        cost: int = DEFAULT_COST,
        timing: Timing = CONTRACT,
    ) -> Share:
        """Seal a new sharing folder. Never overwrites: FileExistsError if it has a seal.

        Refused too (SealExists) where claims arrived before the seal, or the seal there is
        damaged or still arriving: a second seal would let two computers each number alone
        (docs/protocol.md, "One seal"). The seal appears whole or not at all. `timing`: a test's
        folder on a scale (`Timing.scaled`), recorded in the seal; neither the tray nor the
        command line ever passes it.
        """
        if not passphrase:
            raise SioulError(Core.mark("the passphrase is empty"))
        passphrase = _nfc(passphrase)
        if len(passphrase.strip()) < MIN_PASSPHRASE:
            raise SioulError(
                Core.mark(
                    "the passphrase is too short: use at least {n} characters "
                    "(a few words are easy to remember)",
                    n=MIN_PASSPHRASE,
                )
            )
        folder = Path(folder)
        _refuse_to_seal_over(folder)
        folder_id = os.urandom(8).hex()
        folder_key = os.urandom(32)
        salt = os.urandom(16)
        r, p = 8, 1
        kek = _passphrase_key(passphrase, salt, cost, r, p)
        nonce = os.urandom(NONCE_SIZE)
        sealed = AESGCM(kek).encrypt(nonce, folder_key, _wrap_aad(folder_id, creator))
        share = cls(folder, folder_id, creator, folder_key, timing=timing)
        share.made = True
        document: dict[str, Any] = {
            "format": "sioul-seal",
            "version": SEAL_VERSION,
            "folder": folder_id,
            "creator": creator,
            "kdf": {"name": "scrypt", "log2n": cost, "r": r, "p": p, "salt": _b64(salt)},
            "check": _b64(_hkdf(kek, b"sioul passphrase check", 16)),
            "wrapped": {"aead": "aes-256-gcm", "nonce": _b64(nonce), "key": _b64(sealed)},
            "key_id": share.key_id.hex(),
        }
        if timing.scale != 1:
            document["timing"] = {"scale": timing.scale}
        data = (json.dumps(document, indent=2) + "\n").encode("utf-8")
        _refuse_to_seal_over(folder)
        _write_new(folder / SEAL_NAME, data)
        return share

    @classmethod
    def open(cls, folder: str | os.PathLike[str], passphrase: str) -> Share:
        """Open a sealed folder with its passphrase. WrongPassphrase when it does not fit."""
        folder = Path(folder)
        doc = read_seal(folder)  # every field checked: types and sizes
        kdf = doc["kdf"]
        salt = _unb64(kdf["salt"], Core.mark("the salt"))
        cost, r, p = kdf["log2n"], kdf["r"], kdf["p"]
        if not (
            10 <= cost <= 22
            and 1 <= r <= 32
            and 1 <= p <= 2
            and 128 * r * 2**cost <= MAX_SCRYPT_MEMORY
            and cost < 16 * r  # scrypt's own rule (n < 2^(128 r / 8)): else it refuses
        ):
            raise SealDamaged(
                Core.mark(
                    "{path} asks for a key derivation this version does not make "
                    "(scrypt n=2^{cost}, r={r}, p={p}): refused",
                    path=folder / SEAL_NAME,
                    cost=cost,
                    r=r,
                    p=p,
                )
            )
        check = _unb64(doc["check"], Core.mark("the check value"))
        # The passphrase as typed, in one spelling; seals made before that was so were made
        # from the spelling as typed, which is tried next.
        for spelling in dict.fromkeys((_nfc(passphrase), passphrase)):
            kek = _passphrase_key(spelling, salt, cost, r, p)
            if _same(_hkdf(kek, b"sioul passphrase check", 16), check):
                break
        else:
            raise WrongPassphrase(Core.mark("wrong passphrase for {folder}", folder=folder))
        wrapped = doc["wrapped"]
        nonce = _unb64(wrapped["nonce"], Core.mark("the nonce"))
        sealed = _unb64(wrapped["key"], Core.mark("the wrapped key"))
        try:
            folder_key = AESGCM(kek).decrypt(
                nonce, sealed, _wrap_aad(doc["folder"], doc["creator"])
            )
        except (InvalidTag, ValueError):
            raise SealDamaged(
                Core.mark(
                    "{path} is damaged: the passphrase fits but the key does not open",
                    path=folder / SEAL_NAME,
                )
            ) from None
        share = cls(folder, doc["folder"], doc["creator"], folder_key, timing=timing_of(doc))
        if share.key_id.hex() != doc["key_id"]:
            # The passphrase opened the key, bound to this folder id and creator: the seal's
            # key id alone is wrong.
            raise SealDamaged(
                Core.mark("{path} is damaged: its key id is not its key's", path=folder / SEAL_NAME)
            )
        return share

    @classmethod
    def unlock(
        cls, folder: str | os.PathLike[str], folder_key: bytes, derived: bytes | None = None
    ) -> Share:
        """Open a sealed folder with a folder key cached on this computer (no passphrase).

        `derived`: the share's `derived` keys, cached with the folder key, so no key derivation
        happens at all; checked against the seal's key id like the key itself.
        """
        folder = Path(folder)
        return cls._checked(folder, read_seal(folder), folder_key, derived)

    @classmethod
    def _checked(
        cls, folder: Path, doc: dict[str, Any], folder_key: bytes, derived: bytes | None = None
    ) -> Share:
        timing = timing_of(doc)
        if timing != CONTRACT:
            derived = None  # a test's folder: its key id is derived for the scale its seal says
        share = cls(folder, doc["folder"], doc["creator"], folder_key, derived, timing)
        if share.key_id.hex() != doc.get("key_id"):
            raise WrongPassphrase(
                Core.mark("the key kept on this computer does not open {folder}", folder=folder)
            )
        return share

    # -- claims ---------------------------------------------------------------------------

    def seal(self, relpath: str, plaintext: bytes) -> bytes:
        """A claim file's bytes: the plaintext sealed and bound to its path in the folder."""
        nonce = os.urandom(NONCE_SIZE)
        header = self._header
        return header + nonce + self._claims.encrypt(nonce, plaintext, header + relpath.encode())

    def unseal(self, relpath: str, data: bytes) -> bytes:
        """The plaintext of a claim file at `relpath`, or Unreadable with the reason."""
        if len(data) < OVERHEAD:
            raise Unreadable(Core.mark("truncated: still syncing or damaged"))
        header = data[:HEADER_SIZE]
        if header[:4] != CLAIM_MAGIC:
            raise Unreadable(Core.mark("not a Sioul claim"))
        version = header[4]
        if version > CLAIM_VERSION:
            raise Unreadable(Core.mark("made by a newer version of sioul-tray"))
        if version != CLAIM_VERSION:
            raise Unreadable(Core.mark("unknown claim format {version}", version=version))
        if header[5:] != self.key_id:
            raise ForeignSeal(Core.mark("sealed with another key (another sharing folder's seal)"))
        nonce = data[HEADER_SIZE : HEADER_SIZE + NONCE_SIZE]
        try:
            return self._claims.decrypt(
                nonce, data[HEADER_SIZE + NONCE_SIZE :], header + relpath.encode()
            )
        except InvalidTag:
            raise Unreadable(Core.mark("damaged or still syncing")) from None


def _refuse_to_seal_over(folder: Path) -> None:
    """SealExists when `folder` holds a seal (whole or not) or claims: it must be joined."""
    path = folder / SEAL_NAME
    if os.path.lexists(path):
        try:
            read_seal(folder)
        except SioulError:
            raise SealExists(
                Core.mark(
                    "{path} is damaged or still arriving: wait for the sync to bring it whole, "
                    "then join the folder; it is never sealed over",
                    path=path,
                )
            ) from None
        raise SealExists(Core.mark("{path} exists already: join it with its passphrase", path=path))
    leases = folder / "leases"
    if leases.is_dir() and any(files for _, _, files in os.walk(leases)):
        raise SealExists(
            Core.mark(
                "{folder} holds claims but no {file}: the sync has not brought the seal yet; "
                "wait for it, then join the folder",
                folder=folder,
                file=SEAL_NAME,
            )
        )


def _write_new(path: Path, data: bytes) -> None:
    """The seal, whole or not at all, and never over another (`files.write_new`)."""
    try:
        write_new(path, data)
    except FileExistsError:
        raise SealExists(
            Core.mark("{path} exists already: join it with its passphrase", path=path)
        ) from None
    except OSError as e:
        raise SioulError(
            Core.mark(
                "cannot write {path}: {error}", path=path, error=e.strerror or type(e).__name__
            )
        ) from None


def read_seal(folder: Path) -> dict[str, Any]:
    """The seal's document, checked for shape. SealDamaged names what is wrong."""
    path = folder / SEAL_NAME
    try:
        raw = read_bounded(path, MAX_SEAL)
    except FileNotFoundError:
        raise SioulError(
            Core.mark(
                "{folder} has no {file}: it is not a Sioul sharing folder yet",
                folder=folder,
                file=SEAL_NAME,
            )
        ) from None
    except NotReadable as e:
        if e.kind == FAILED:
            raise
        # A link, a FIFO, a device or a huge file a peer synced in: no seal, as a damaged one.
        raise SealDamaged(*e.args) from None
    if not raw.strip():
        raise SealDamaged(
            Core.mark(
                "{path} is empty: the sync may still be bringing it (wait a minute); if it "
                "stays empty, a setup that failed left it: remove it, then set up again",
                path=path,
            )
        )
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested beyond reason
        raise SealDamaged(Core.mark("{path} is damaged: not JSON", path=path)) from None
    if not isinstance(doc, dict) or doc.get("format") != "sioul-seal":
        raise SealDamaged(Core.mark("{path} is damaged: not a Sioul seal", path=path))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SealDamaged(Core.mark("{path} is damaged: no version", path=path))
    if version > SEAL_VERSION:
        raise SealDamaged(
            Core.mark(
                "{path} was made by a newer version of sioul-tray: update this one", path=path
            )
        )
    for key, kind in (("folder", str), ("creator", str), ("kdf", dict), ("wrapped", dict)):
        if not isinstance(doc.get(key), kind):
            raise SealDamaged(Core.mark("{path} is damaged: {key} is missing", path=path, key=key))
    _check_fields(doc, path)
    return doc


def _check_fields(doc: dict[str, Any], path: Path) -> None:
    """Every field as this version writes it (`create`), as strictly as a claim's: any member of
    the folder may write a seal, and its folder id names a file of the key cache."""
    for key, pattern, what in (
        ("folder", FOLDER_ID, Core.mark("the folder id")),
        ("creator", COMPUTER_ID, Core.mark("the creator")),
        ("key_id", _KEY_ID, Core.mark("the key id")),
    ):
        value = doc.get(key)
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise SealDamaged(
                Core.mark("{path} is damaged: {what} is not valid", path=path, what=what)
            )
    kdf, wrapped = doc["kdf"], doc["wrapped"]
    if kdf.get("name") != "scrypt" or not all(type(kdf.get(k)) is int for k in ("log2n", "r", "p")):
        raise SealDamaged(Core.mark("{path} is damaged: unknown key derivation", path=path))
    if wrapped.get("aead") != "aes-256-gcm":
        raise SealDamaged(Core.mark("{path} is damaged: unknown key wrapping", path=path))
    _sized(kdf.get("salt"), Core.mark("the salt"), (16, 64), path)
    _sized(doc.get("check"), Core.mark("the check value"), (16, 16), path)
    _sized(wrapped.get("nonce"), Core.mark("the nonce"), (NONCE_SIZE, NONCE_SIZE), path)
    _sized(wrapped.get("key"), Core.mark("the wrapped key"), (WRAPPED_SIZE, WRAPPED_SIZE), path)
    if "timing" in doc:
        timing = doc["timing"]
        scale = timing.get("scale") if isinstance(timing, dict) else None
        if (
            not isinstance(timing, dict)
            or set(timing) != {"scale"}
            or type(scale) is not int
            or not 1 < scale <= MAX_SCALE
        ):
            raise SealDamaged(Core.mark("{path} is damaged: its timing is not valid", path=path))


def timing_of(doc: dict[str, Any]) -> Timing:
    """The protocol's times on a folder, as its seal (checked by `read_seal`) says: a real
    folder's says nothing, and has the contract's."""
    timing = doc.get("timing")
    return Timing.scaled(timing["scale"]) if isinstance(timing, dict) else CONTRACT


def _sized(text: object, what: str, sizes: tuple[int, int], path: Path) -> bytes:
    """A base64 field of the seal, of `sizes` bytes (fewest, most)."""
    data = _unb64(text, what)
    if len(data) < sizes[0]:
        raise SealDamaged(Core.mark("{path} is damaged: {what} is cut short", path=path, what=what))
    if len(data) > sizes[1]:
        raise SealDamaged(Core.mark("{path} is damaged: {what} is too long", path=path, what=what))
    return data
