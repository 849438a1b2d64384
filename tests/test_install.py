"""This installation's files: the computer id, the cached key, settings, the writer lock."""

from __future__ import annotations

import base64
import os
import sys
import time
import zlib
from pathlib import Path
from unittest import mock

import platformdirs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sioul_tray.dirs import APP, user_dirs
from sioul_tray.errors import Busy, Copied, NotSetUp, SioulError, WrongPassphrase
from sioul_tray.ids import COMPUTER_ID
from sioul_tray.install import Installation
from sioul_tray.share import Share
from tests.helpers import python_env, run_python


def test_the_computer_id_is_made_once(tmp_path: Path) -> None:
    inst = Installation(tmp_path)
    made = inst.computer()
    assert COMPUTER_ID.fullmatch(made)
    assert Installation(tmp_path).computer() == made
    assert (tmp_path / "config" / "computer").read_text().strip() == made


def test_the_home_variable_moves_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(tmp_path))
    inst = Installation()
    assert inst.config_dir == tmp_path / "config" and inst.state_dir == tmp_path / "state"


def test_settings_keep_what_the_person_set(tmp_path: Path) -> None:
    inst = Installation(tmp_path)
    inst.update_settings(share="/a", start_at_login=True)
    inst.update_settings(share="/b")
    assert inst.settings() == {"share": "/b", "start_at_login": True}


def test_the_key_is_cached_for_this_user_only(tmp_path: Path, share: Share) -> None:
    inst = Installation(tmp_path)
    with pytest.raises(NotSetUp):
        inst.open_share()
    inst.update_settings(share=str(share.folder))
    with pytest.raises(NotSetUp, match="no key"):
        inst.open_share()
    inst.remember_key(share)
    (key,) = (tmp_path / "config" / "keys").iterdir()
    assert key.stat().st_mode & 0o777 == 0o600
    assert inst.open_share().folder_key == share.folder_key
    lease = inst.lease()
    assert lease.renew("invoices").computer == inst.computer()


def test_a_resealed_folder_says_to_set_up_again(tmp_path: Path, share: Share) -> None:
    inst = Installation(tmp_path)
    inst.update_settings(share=str(share.folder))
    inst.remember_key(share)
    seal = share.folder / "sioul.seal"
    seal.unlink()
    again = Share.create(share.folder, "a new passphrase", "bb", cost=10)
    again_id = again.folder_id
    # Same folder, new seal: the cached key is for another folder id.
    with pytest.raises(NotSetUp, match=again_id[:0] + "no key"):
        inst.open_share()
    key_file = tmp_path / "config" / "keys" / f"{share.folder_id}.key"
    key_file.rename(key_file.with_name(f"{again_id}.key"))
    with pytest.raises(WrongPassphrase, match="sealed again"):
        inst.open_share()


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    inst = Installation(tmp_path)
    with (
        inst.writer(),
        pytest.raises(Busy, match="another sioul-tray process"),
        Installation(tmp_path).writer(),
    ):
        pass
    with Installation(tmp_path).writer():
        pass


def test_a_lock_file_damaged_while_held_names_its_holder_in_a_few_characters(
    tmp_path: Path,
) -> None:
    # The holder's pid was read whole, as UTF-8: any other bytes were a traceback.
    inst = Installation(tmp_path)
    with inst.writer():
        (tmp_path / "state" / "writer.lock").write_bytes(b"\xff" * 100_000)
        with pytest.raises(Busy) as refused, Installation(tmp_path).writer():
            pass
    assert len(str(refused.value)) < 200


def _no_derivation(monkeypatch: pytest.MonkeyPatch) -> None:
    from sioul_tray.share import seal

    def refused(*_: object) -> bytes:
        raise AssertionError("a key was derived")

    monkeypatch.setattr(seal, "_hkdf", refused)


def _set_up(tmp_path: Path, share: Share) -> tuple[Installation, Path]:
    """An installation joined to `share`, and its key file."""
    inst = Installation(tmp_path)
    inst.update_settings(share=str(share.folder))
    inst.remember_key(share)
    (key_file,) = (tmp_path / "config" / "keys").iterdir()
    return inst, key_file


def _second_line(derived: bytes) -> bytes:
    return base64.b64encode(derived + zlib.crc32(derived).to_bytes(4, "big"))


def test_a_start_derives_no_key(
    tmp_path: Path, share: Share, monkeypatch: pytest.MonkeyPatch
) -> None:
    inst, key_file = _set_up(tmp_path, share)
    assert key_file.read_bytes().splitlines()[1] == _second_line(share.derived)
    _no_derivation(monkeypatch)
    opened = inst.open_share()
    relpath = "leases/invoices/alpha.lease"
    assert share.unseal(relpath, opened.seal(relpath, b"claim")) == b"claim"


def test_a_key_file_of_an_older_version_opens_and_is_completed(
    tmp_path: Path, share: Share, monkeypatch: pytest.MonkeyPatch
) -> None:
    inst, key_file = _set_up(tmp_path, share)
    first_line = key_file.read_bytes().splitlines()[0]
    key_file.write_bytes(first_line + b"\n")  # as earlier versions wrote it: the folder key alone
    assert inst.open_share().folder_key == share.folder_key
    assert key_file.read_bytes().splitlines() == [first_line, _second_line(share.derived)]
    assert key_file.stat().st_mode & 0o777 == 0o600
    _no_derivation(monkeypatch)
    assert inst.open_share().derived == share.derived


@pytest.mark.parametrize("damage", ["flipped bit", "cut", "not base64"])
def test_damaged_derived_keys_are_derived_again(tmp_path: Path, share: Share, damage: str) -> None:
    inst, key_file = _set_up(tmp_path, share)
    first, second = key_file.read_bytes().splitlines()
    if damage == "flipped bit":  # still base64, the CRC no longer matches
        data = bytearray(base64.b64decode(second))
        data[20] ^= 0x10  # in the claim key: only the CRC tells
        second = base64.b64encode(bytes(data))
    elif damage == "cut":
        second = second[:12]
    else:
        second = b"not*base64"
    key_file.write_bytes(first + b"\n" + second + b"\n")
    opened = inst.open_share()
    assert opened.derived == share.derived
    assert key_file.read_bytes().splitlines() == [first, _second_line(share.derived)]


# HOME and the XDG variables as a person's session may have them: unset (None), empty, blank,
# relative, absolute with and without a trailing slash, the root, a leading double slash.
_HOMES = st.sampled_from([None, "", "anna", "/", "/home/anna", "/home/anna/", "//srv/anna"])
_XDG_VALUES = st.sampled_from([None, "", " ", "rel/dir", "~/x", "/x", "/x/", "/", "//y/z"])


@given(home=_HOMES, config=_XDG_VALUES, state=_XDG_VALUES, cache=_XDG_VALUES)
def test_the_directories_are_platformdirs_answer(
    home: str | None, config: str | None, state: str | None, cache: str | None
) -> None:
    env = {"HOME": home, "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state,
           "XDG_CACHE_HOME": cache}  # fmt: skip
    with mock.patch.dict(os.environ, {k: v for k, v in env.items() if v is not None}):
        for name in [k for k, v in env.items() if v is None] + ["SIOUL_TRAY_HOME"]:
            os.environ.pop(name, None)
        try:
            expected = (
                platformdirs.user_config_path(APP, appauthor=False),
                platformdirs.user_state_path(APP, appauthor=False),
                platformdirs.user_cache_path(APP, appauthor=False),
            )
        except RuntimeError:  # no home directory platformdirs can name: neither can we
            with pytest.raises(RuntimeError):
                user_dirs()
            return
        assert user_dirs() == expected
        inst = Installation()
        assert (inst.config_dir, inst.state_dir, inst.cache_dir) == expected


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG rule is followed directly on Linux")
@pytest.mark.parametrize(("variable", "imported"), [("/home/anna/.cfg", False), ("cfg", True)])
def test_the_usual_case_needs_no_platformdirs(
    tmp_path: Path, variable: str, imported: bool
) -> None:
    """The tray keeps no platformdirs for its three paths in the usual case (0.34 MB)."""
    env = python_env(HOME=str(tmp_path), XDG_CONFIG_HOME=variable)
    env.pop("SIOUL_TRAY_HOME", None)
    code = (
        "import sys; from sioul_tray.dirs import APP; from sioul_tray.install import Installation; "
        "i = Installation(); "
        "print('platformdirs' in sys.modules); import platformdirs; "
        "print(i.config_dir == platformdirs.user_config_path(APP, appauthor=False))"
    )
    assert run_python(code, env) == [str(imported), "True"]


# -- a copied installation ---------------------------------------------------------------------


def on(home: Path, machine_id: bytes | None) -> Installation:
    """This installation's files as the machine `machine_id` runs them."""
    return Installation(home, machine=lambda: machine_id)


def copy_of(home: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(home, to, symlinks=True)
    return to


def test_an_id_is_bound_to_the_machine_it_was_made_on(tmp_path: Path) -> None:
    made = on(tmp_path, b"a" * 32).computer()
    binding = (tmp_path / "config" / "machine").read_text()
    assert binding.split()[0] == made and b"a" * 32 not in binding.encode()  # a digest, not the id
    assert (tmp_path / "config" / "machine").stat().st_mode & 0o777 == 0o600
    assert on(tmp_path, b"a" * 32).computer() == made
    with pytest.raises(Copied, match="copied from another computer") as raised:
        on(tmp_path, b"b" * 32).computer()
    assert raised.value.computer == made
    assert (tmp_path / "config" / "computer").read_text().strip() == made  # nothing changed


def test_an_installation_from_before_bindings_is_bound_at_its_next_start(tmp_path: Path) -> None:
    made = on(tmp_path, None).computer()  # a system that names no machine: nothing is bound
    assert not (tmp_path / "config" / "machine").exists()
    assert on(tmp_path, b"a" * 32).computer() == made
    with pytest.raises(Copied):
        on(tmp_path, b"b" * 32).computer()
    assert on(tmp_path, None).computer() == made  # where nothing tells machines apart: no check


def test_an_id_made_anew_is_bound_anew(tmp_path: Path) -> None:
    first = on(tmp_path, b"a" * 32).computer()
    (tmp_path / "config" / "computer").unlink()  # the person's way to a new id, as its error says
    second = on(tmp_path, b"a" * 32).computer()
    assert second != first
    assert (tmp_path / "config" / "machine").read_text().split()[0] == second


def test_a_damaged_binding_is_named_not_guessed_at(tmp_path: Path) -> None:
    on(tmp_path, b"a" * 32).computer()
    (tmp_path / "config" / "machine").write_text("garbage\n")
    with pytest.raises(SioulError, match="machine is damaged"):
        on(tmp_path, b"a" * 32).computer()


@pytest.fixture
def desk_copied(tmp_path: Path, share: Share) -> tuple[Installation, str, Installation]:
    """Desk set up and renewing (its installation, its id), then copied to another machine."""
    original = on(tmp_path / "desk", b"a" * 32)
    original.update_settings(share=str(share.folder))
    original.remember_key(share)
    old = original.computer()
    original.lease().renew("invoices")
    return original, old, on(copy_of(tmp_path / "desk", tmp_path / "laptop"), b"b" * 32)


def test_a_new_computer_gets_an_id_of_its_own(
    desk_copied: tuple[Installation, str, Installation],
) -> None:
    original, old, copy = desk_copied
    with pytest.raises(SioulError, match="made on this computer"):
        original.become_new_computer()
    done = copy.become_new_computer()
    assert done.old == old and done.new != old and not done.declared
    assert copy.computer() == done.new
    assert original.computer() == old  # the original runs on as it was
    lease = copy.lease()
    lease.renew("invoices")
    mine = {c.computer: c for c in lease.claims("invoices")}
    assert set(mine) == {old, done.new}
    assert not any(old in c.forgets for c in mine.values())


def test_a_replacement_declares_the_old_computer_gone(
    desk_copied: tuple[Installation, str, Installation],
) -> None:
    original, old, copy = desk_copied
    assert original.name_in_claims(old) == original.name()
    done = copy.become_new_computer(replaces=True)
    assert done.declared and done.old == old
    # Declared now, it counts for invoices only once the old one can no longer be numbering.
    assert done.counts_from is not None and done.counts_from > time.time() + 3600
    (claim,) = (c for c in copy.lease().claims("invoices") if c.computer == done.new)
    assert old in claim.forgets


def test_the_machine_digest_is_keyed_and_the_same_for_one_id_however_written() -> None:
    from sioul_tray.install import machine_digest

    uuid = b"3d1219c7c4c5404aaa1f6d2a48adfda4"
    assert machine_digest(uuid) == machine_digest(b"3D1219C7-C4C5-404A-AA1F-6D2A48ADFDA4\n")
    assert machine_digest(uuid) != machine_digest(b"3d1219c7c4c5404aaa1f6d2a48adfda5")
    assert len(machine_digest(b"an id of another shape")) == 32
    assert uuid.decode() not in machine_digest(uuid)
