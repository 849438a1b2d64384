"""The seal: create, open, unlock; wrong passphrase vs damaged seal; claims bound to their path."""

from __future__ import annotations

import base64
import json
import os
import resource
import time
from pathlib import Path

import pytest

from sioul_tray.errors import ForeignSeal, SealDamaged, SioulError, Unreadable
from sioul_tray.share import SEAL_NAME, SealExists, Share, WrongPassphrase
from sioul_tray.share.seal import MAX_SEAL, OVERHEAD, read_seal
from sioul_tray.timing import CONTRACT, Timing
from tests.helpers import plant, python_env, run_python


def test_create_then_open_gives_the_same_keys(folder: Path) -> None:
    made = Share.create(folder, "correct horse", "laptop_x1", cost=10)
    opened = Share.open(folder, "correct horse")
    assert opened.folder_key == made.folder_key and opened.key_id == made.key_id
    assert opened.creator == "laptop_x1" and opened.folder_id == made.folder_id
    unlocked = Share.unlock(folder, made.folder_key)
    assert unlocked.creator == "laptop_x1"


def test_the_seal_is_plain_json_without_the_secret(folder: Path) -> None:
    made = Share.create(folder, "correct horse", "aa", cost=10)
    text = (folder / SEAL_NAME).read_text()
    doc = json.loads(text)
    assert doc["version"] == 1 and doc["kdf"]["name"] == "scrypt" and doc["creator"] == "aa"
    assert made.folder_key.hex() not in text
    assert "correct horse" not in text


def test_create_never_overwrites(folder: Path) -> None:
    Share.create(folder, "first passphrase", "aa", cost=10)
    before = (folder / SEAL_NAME).read_bytes()
    with pytest.raises(FileExistsError):
        Share.create(folder, "second passphrase", "bb", cost=10)
    with pytest.raises(SealExists):
        Share.create(folder, "second passphrase", "bb", cost=10)
    assert (folder / SEAL_NAME).read_bytes() == before


def test_a_wrong_passphrase_is_said_as_such(folder: Path) -> None:
    Share.create(folder, "the right one", "aa", cost=10)
    with pytest.raises(WrongPassphrase, match="wrong passphrase"):
        Share.open(folder, "wrong")


def test_a_wrong_cached_key_is_said_as_such(folder: Path) -> None:
    Share.create(folder, "the right one", "aa", cost=10)
    with pytest.raises(WrongPassphrase):
        Share.unlock(folder, os.urandom(32))


def edit_seal(folder: Path, change: dict[str, object]) -> None:
    doc = json.loads((folder / SEAL_NAME).read_text())
    doc.update(change)
    (folder / SEAL_NAME).write_text(json.dumps(doc))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"creator": "mallory"}, "key does not open"),  # bound in the wrapping
        ({"version": 9}, "newer version"),
        ({"format": "other"}, "not a Sioul seal"),
        ({"kdf": {"name": "md5"}}, "damaged"),
        ({"kdf": "scrypt"}, "kdf is missing"),
        ({"check": "###"}, "not base64"),
    ],
)
def test_a_damaged_seal_is_not_a_wrong_passphrase(
    folder: Path, change: dict[str, object], words: str
) -> None:
    Share.create(folder, "the right one", "aa", cost=10)
    edit_seal(folder, change)
    with pytest.raises(SealDamaged, match=words):
        Share.open(folder, "the right one")


def b64(size: int) -> str:
    return base64.b64encode(bytes(size)).decode()


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        pytest.param(("folder",), "../../../public/pwn", "the folder id is not", id="folder-up"),
        pytest.param(("folder",), "", "the folder id is not valid", id="folder-empty"),
        pytest.param(("creator",), "../x", "the creator is not valid", id="creator-up"),
        pytest.param(("creator",), "A" * 64, "the creator is not valid", id="creator-upper"),
        pytest.param(("key_id",), "zz", "the key id is not valid", id="key-id-not-hex"),
        pytest.param(("key_id",), None, "the key id is not valid", id="key-id-null"),
        pytest.param(("kdf", "name"), "argon2id", "unknown key derivation", id="kdf-argon2"),
        pytest.param(("kdf", "log2n"), True, "unknown key derivation", id="kdf-bool"),
        pytest.param(("kdf", "salt"), b64(100), "the salt is too long", id="salt-long"),
        pytest.param(("check",), b64(8), "the check value is cut short", id="check-short"),
        pytest.param(("wrapped", "aead"), "chacha20", "unknown key wrapping", id="aead-other"),
        pytest.param(("wrapped", "nonce"), b64(8), "the nonce is cut short", id="nonce-short"),
        pytest.param(("wrapped", "key"), b64(40), "the wrapped key is cut", id="key-short"),
        pytest.param(("wrapped", "key"), 5, "the wrapped key is not text", id="key-number"),
    ],
)
def test_every_field_of_a_seal_is_checked(
    folder: Path, where: tuple[str, ...], value: object, words: str
) -> None:
    """As strictly as a claim's: a member of the folder may write any seal."""
    made = Share.create(folder, "the right one", "aa", cost=10)
    doc = json.loads((folder / SEAL_NAME).read_text())
    *sections, key = where
    table = doc
    for section in sections:
        table = table[section]
    table[key] = value
    (folder / SEAL_NAME).write_text(json.dumps(doc))
    with pytest.raises(SealDamaged, match=words):
        read_seal(folder)
    with pytest.raises(SealDamaged, match=words):
        Share.unlock(folder, made.folder_key)


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b"\xff\xfe", b"x" * 70000])
def test_garbage_seal_is_damaged(folder: Path, content: bytes) -> None:
    (folder / SEAL_NAME).write_bytes(content)
    with pytest.raises(SealDamaged):
        Share.open(folder, "anything")


def test_no_seal_is_a_clear_error(folder: Path) -> None:
    with pytest.raises(SioulError, match="not a Sioul sharing folder"):
        Share.open(folder, "x")


def test_an_empty_passphrase_is_refused(folder: Path) -> None:
    with pytest.raises(SioulError, match="empty"):
        Share.create(folder, "", "aa", cost=10)
    assert not (folder / SEAL_NAME).exists()


def test_claims_are_bound_to_their_path_and_key(share: Share, tmp_path: Path) -> None:
    sealed = share.seal("leases/invoices/aa.lease", b"[1]")
    assert len(sealed) == 3 + OVERHEAD
    assert share.unseal("leases/invoices/aa.lease", sealed) == b"[1]"
    with pytest.raises(Unreadable, match="damaged"):
        share.unseal("leases/invoices/bb.lease", sealed)
    with pytest.raises(Unreadable, match="damaged"):
        share.unseal("leases/medicines/aa.lease", sealed)
    other_folder = tmp_path / "other"
    other_folder.mkdir()
    other = Share.create(other_folder, "another passphrase", "zz", cost=10)
    with pytest.raises(Unreadable, match="another key"):
        other.unseal("leases/invoices/aa.lease", sealed)


def test_every_seal_uses_a_fresh_nonce(share: Share) -> None:
    assert share.seal("p", b"same") != share.seal("p", b"same")


def test_the_aes_gcm_used_is_cryptographys_public_class() -> None:
    # seal.py reaches it without the public module's other imports; it must be the same class.
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from sioul_tray.share import seal

    # The name seal.py imported for itself (not an export): the very one checked.
    assert seal.AESGCM is AESGCM  # type: ignore[attr-defined]


def test_cached_derived_keys_open_the_same_share_without_deriving(
    share: Share, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sioul_tray.share import seal

    assert share.derived == seal.derive(share.folder_key)

    def no_derivation(*_: object) -> bytes:
        raise AssertionError("a key was derived")

    monkeypatch.setattr(seal, "_hkdf", no_derivation)
    again = Share.unlock(share.folder, share.folder_key, share.derived)
    relpath = "leases/invoices/alpha.lease"
    assert again.unseal(relpath, share.seal(relpath, b"claim")) == b"claim"
    assert share.unseal(relpath, again.seal(relpath, b"claim")) == b"claim"


def test_derived_keys_of_another_folder_are_refused(share: Share, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    elsewhere = Share.create(other, "another passphrase", "bravo", cost=10)
    with pytest.raises(WrongPassphrase):
        Share.unlock(share.folder, share.folder_key, elsewhere.derived)


@pytest.mark.parametrize("setting", [None, "1"])
def test_openssl_legacy_ciphers_are_not_loaded_nor_the_switch_left_set(
    setting: str | None,
) -> None:
    """Sioul needs none of OpenSSL's legacy ciphers (0.08 MB of the tray's memory); the switch
    that keeps them out is not passed on to the programs the tray starts, unless the person set
    it."""
    env = python_env()
    env.pop("CRYPTOGRAPHY_OPENSSL_NO_LEGACY", None)
    if setting is not None:
        env["CRYPTOGRAPHY_OPENSSL_NO_LEGACY"] = setting
    code = (
        "import os; import sioul_tray.share.seal; "
        "from cryptography.hazmat.bindings._rust import openssl; "
        "print(getattr(openssl, '_legacy_provider_loaded', 'unknown'), "
        "os.environ.get('CRYPTOGRAPHY_OPENSSL_NO_LEGACY'))"
    )
    out = run_python(code, env)
    if out[0] == "unknown":
        pytest.skip("this cryptography does not say whether it loaded the legacy provider")
    assert out == ["False", str(setting)]


# -- the folder's timing --------------------------------------------------------------------


def test_a_folder_sealed_without_a_scale_has_the_contract_times(folder: Path) -> None:
    made = Share.create(folder, "correct horse", "aa", cost=10)
    assert "timing" not in read_seal(folder)
    assert made.timing == CONTRACT
    assert Share.open(folder, "correct horse").timing == CONTRACT
    assert Share.unlock(folder, made.folder_key, made.derived).timing == CONTRACT


def test_a_test_scale_is_in_the_seal_and_every_opening_reads_it(folder: Path) -> None:
    made = Share.create(folder, "correct horse", "aa", cost=10, timing=Timing.scaled(20))
    assert read_seal(folder)["timing"] == {"scale": 20}
    for opened in (
        made,
        Share.open(folder, "correct horse"),
        Share.unlock(folder, made.folder_key),
        Share.unlock(folder, made.folder_key, made.derived),
    ):
        assert opened.timing == Timing.scaled(20)
        assert (opened.timing.renew, opened.timing.alive, opened.timing.unclosed) == (3, 15, 4320)


def test_claims_of_a_scaled_folder_read_as_sealed_with_another_key_on_other_times(
    folder: Path,
) -> None:
    """The scale is bound into the key id: two computers that disagree on the times never count
    each other's claims (each waits for the other's)."""
    made = Share.create(folder, "correct horse", "aa", cost=10, timing=Timing.scaled(20))
    contract = Share(folder, made.folder_id, "aa", made.folder_key)
    assert contract.key_id != made.key_id
    sealed = made.seal("leases/invoices/aa.lease", b"[]")
    with pytest.raises(ForeignSeal):
        contract.unseal("leases/invoices/aa.lease", sealed)


@pytest.mark.parametrize(
    "timing", [{"scale": 0}, {"scale": 1}, {"scale": 101}, {"scale": "20"}, {"scale": 2.5},
               {"scale": True}, {"scale": 20, "renew": 1}, [20], "fast"],
)  # fmt: skip
def test_a_timing_no_version_writes_is_damage(folder: Path, timing: object) -> None:
    Share.create(folder, "correct horse", "aa", cost=10, timing=Timing.scaled(20))
    edit_seal(folder, {"timing": timing})
    with pytest.raises(SealDamaged, match="timing"):
        read_seal(folder)


def test_a_scale_edited_into_a_seal_does_not_open_with_the_passphrase(folder: Path) -> None:
    """The seal's key id was derived without a scale: one added by hand no longer fits it."""
    made = Share.create(folder, "correct horse", "aa", cost=10)
    edit_seal(folder, {"timing": {"scale": 20}})
    with pytest.raises(SealDamaged, match="key id"):
        Share.open(folder, "correct horse")
    with pytest.raises(WrongPassphrase):
        Share.unlock(folder, made.folder_key, made.derived)


# -- what a peer can sync in as the seal: refused before it is read ------------------------------


@pytest.mark.skipif(os.name == "nt", reason="links, FIFOs and devices: POSIX")
@pytest.mark.parametrize("kind", ["link to /dev/zero", "fifo", "sparse 2 GB"])
def test_a_seal_that_is_no_file_is_damaged_at_once_without_reading_it(
    folder: Path, kind: str
) -> None:
    """A link to /dev/zero ran `look` out of memory; a FIFO hung it; 2 GB cost 2 GB and 13 s."""
    path = folder / SEAL_NAME
    plant(path, kind)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    with pytest.raises(SealDamaged, match=str(path)):
        read_seal(folder)
    assert time.perf_counter() - began < 0.5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 16 * 1024  # KiB


def test_a_seal_just_over_its_cap_is_too_large(folder: Path) -> None:
    (folder / SEAL_NAME).write_bytes(b" " * (MAX_SEAL + 1))
    with pytest.raises(SealDamaged, match="too large"):
        read_seal(folder)
