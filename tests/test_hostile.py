"""Hostile input and faults, as a hostile user or folder member would try them.

Each case is one the hostile-input review reproduced against the installed program: a clear
message and nothing lost, or nothing let in. Real processes and real folders where a person would
have them; a patched write only for a full disk (a tmpfs needs root).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sioul_tray.errors import SealDamaged, SioulError
from sioul_tray.install import Installation
from sioul_tray.share import SEAL_NAME, Share
from tests.helpers import python_env
from tests.test_cli import PASS, cli, ok


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit non-zero with one line on stderr, ours, saying `words`: never a traceback."""
    assert done.returncode != 0, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sioul-tray:"), done.stderr
    assert words in lines[0], lines[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "Sync" / "Sioul"
    made.parent.mkdir()
    return made


# -- 1. the computer id file ------------------------------------------------------------------


def test_an_empty_id_file_is_replaced_not_looped_on(tmp_path: Path, folder: Path) -> None:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "computer").write_text("")  # a first setup killed mid-write
    done = ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    made = (home / "config" / "computer").read_text().strip()
    assert made and f"this computer is {made}" in done
    ok(cli(home, "look"))


def test_a_damaged_id_file_is_named(tmp_path: Path, folder: Path) -> None:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "computer").write_text("Not An Id!\n")
    done = cli(home, "setup", "--share", str(folder), passphrase=PASS)
    one_line_error(done, str(home / "config" / "computer"))
    assert "remove that file" in done.stderr
    assert not folder.exists() or not (folder / SEAL_NAME).exists()


# -- 2. a full disk during setup ----------------------------------------------------------


def test_a_full_disk_leaves_no_seal(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder.mkdir()
    real = os.write

    def full(fd: int, data: bytes) -> int:
        if len(data) > 200:  # the seal's document; smaller writes pass
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(SioulError, match=r"cannot write .*sioul\.seal: No space left on device"):
        Share.create(folder, PASS, "aa", cost=10)
    monkeypatch.undo()
    assert sorted(p.name for p in folder.iterdir()) == []  # no seal, no temporary
    Share.create(folder, PASS, "aa", cost=10)  # and the folder can still be set up


def test_an_empty_seal_says_what_to_do(tmp_path: Path, folder: Path) -> None:
    folder.mkdir()
    (folder / SEAL_NAME).write_bytes(b"")  # left by an older version on a full disk
    done = cli(tmp_path / "home", "setup", "--share", str(folder), passphrase=PASS)
    one_line_error(done, "is empty: the sync may still be bringing it")
    assert (folder / SEAL_NAME).read_bytes() == b""


# -- 5. the key cache ------------------------------------------------------------------------


def test_the_key_cache_is_private_whatever_the_umask(tmp_path: Path, folder: Path) -> None:
    home = tmp_path / "home"
    old = os.umask(0)
    try:
        ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    finally:
        os.umask(old)
    for d in (home / "config", home / "config" / "keys", home / "state"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d
    (key,) = (home / "config" / "keys").iterdir()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_a_link_planted_in_an_open_keys_folder_reads_nothing(tmp_path: Path, folder: Path) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    keys = home / "config" / "keys"
    (key,) = keys.iterdir()
    keys.chmod(0o777)  # as an older version left it under umask 000
    trap = tmp_path / "stolen"
    trap.write_bytes(b"")
    (keys / f".~{key.name}.tmp").symlink_to(trap)  # the fixed name the older version used
    key.write_bytes(key.read_bytes().splitlines()[0] + b"\n")  # an old key file: rewritten
    ok(cli(home, "look"))
    assert trap.read_bytes() == b""
    assert stat.S_IMODE(keys.stat().st_mode) == 0o700  # tightened


# -- 7. a planted seal's cost --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kdf", "words"),
    [({"log2n": 22, "r": 32}, r"n=2\^22, r=32"), ({"log2n": 18, "p": 16}, "p=16")],
)
def test_a_seal_that_asks_a_ruinous_key_derivation_is_refused(
    folder: Path, kdf: dict[str, int], words: str
) -> None:
    folder.mkdir()
    Share.create(folder, PASS, "aa", cost=10)
    doc = json.loads((folder / SEAL_NAME).read_text())
    doc["kdf"].update(kdf)
    (folder / SEAL_NAME).write_text(json.dumps(doc))
    with pytest.raises(SealDamaged, match=words):
        Share.open(folder, PASS)


# -- 8. tracebacks ------------------------------------------------------------------------


def test_a_passphrase_that_is_not_text(tmp_path: Path, folder: Path) -> None:
    env = python_env(SIOUL_TRAY_HOME=str(tmp_path / "home"))
    env_bytes = {k.encode(): v.encode("utf-8", "surrogateescape") for k, v in env.items()}
    env_bytes[b"SIOUL_PASSPHRASE"] = b"caf\xe9 au lait"  # Latin-1, not UTF-8
    done = subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", "setup", "--share", str(folder)],
        capture_output=True, text=True, timeout=120, env=env_bytes,
    )  # fmt: skip
    one_line_error(done, "not valid text")
    assert not (folder / SEAL_NAME).exists()


def test_ctrl_d_at_the_passphrase_prompt(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import getpass

    from sioul_tray import cli as cli_module

    def eof(prompt: str) -> str:
        raise EOFError

    # The very objects commands.py calls (its getpass and sys are these modules).
    monkeypatch.setattr(getpass, "getpass", eof)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SIOUL_PASSPHRASE", raising=False)
    assert cli_module.main(["setup", "--share", str(folder)]) == 1
    assert not (folder / SEAL_NAME).exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"share": "caf\xe9"}', "not JSON"),
        (b"[" * 30_000 + b"]" * 30_000, "not JSON"),  # within MAX_SETTINGS
        (json.dumps({"share": "/tmp/a\0b"}).encode(), "NUL"),
    ],
    ids=["not-utf8", "nested-30k", "nul-in-path"],
)
def test_damaged_settings_are_named(tmp_path: Path, content: bytes, words: str) -> None:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "settings.json").write_bytes(content)
    one_line_error(cli(home, "look"), words)


def test_a_deeply_nested_seal_is_damaged(tmp_path: Path, folder: Path) -> None:
    folder.mkdir()
    (folder / SEAL_NAME).write_bytes(b"[" * 4_000 + b"]" * 4_000)  # within MAX_SEAL
    one_line_error(cli(tmp_path / "h", "setup", "--share", str(folder), passphrase=PASS), "damaged")


@pytest.mark.parametrize("var", ["--lang", "LANG", "LANGUAGE", "SIOUL_TRAY_LANG"])
def test_a_300_character_language_is_english(tmp_path: Path, var: str) -> None:
    long = "f" * 300
    if var == "--lang":
        done = cli(tmp_path, "--lang", long, "--version")
    else:
        env = python_env(**{var: long}, SIOUL_TRAY_HOME=str(tmp_path))
        if var != "SIOUL_TRAY_LANG":
            del env["SIOUL_TRAY_LANG"]  # the tests' English would come first
        done = subprocess.run(
            [sys.executable, "-m", "sioul_tray.cli", "--version"], capture_output=True,
            text=True, timeout=60, env=env,
        )  # fmt: skip
    assert done.returncode == 0 and "sioul-tray" in done.stdout, done.stderr


# -- 9. silent successes ------------------------------------------------------------------


@pytest.mark.parametrize("share", ["", "   "])
def test_an_empty_share_is_refused(tmp_path: Path, share: str) -> None:
    done = cli(tmp_path / "home", "setup", "--share", share, passphrase=PASS)
    one_line_error(done, "--share needs the path of a folder")
    assert not list(Path.cwd().glob(SEAL_NAME))


def test_moving_to_another_folder_closes_the_claims_left(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(first), passphrase=PASS))
    ok(cli(home, "renew"))
    moved = ok(cli(home, "setup", "--share", str(second), passphrase=PASS))
    assert f"Closed this computer's claims in {first}" in moved
    other = Installation(tmp_path / "other")
    other.update_settings(share=str(first))
    other.remember_key(Share.open(first, PASS))
    claims = other.lease().claims("invoices")
    assert claims and all(c.closed for c in claims)


def test_a_state_that_cannot_be_written_is_said(tmp_path: Path, folder: Path) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    ok(cli(home, "renew"))
    (state,) = (home / "state").glob("lease-*.state")
    state.unlink()
    state.mkdir()  # a folder where the state file should be
    done = cli(home, "renew")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "sioul-tray: warning:" in done.stderr and str(state) in done.stderr


@pytest.mark.parametrize("weak", ["x", "        ", "short"])
def test_a_weak_passphrase_is_refused_when_creating(
    tmp_path: Path, folder: Path, weak: str
) -> None:
    done = cli(tmp_path / "home", "setup", "--share", str(folder), passphrase=weak)
    one_line_error(done, "too short")
    assert not (folder / SEAL_NAME).exists()


def test_one_passphrase_in_two_spellings_opens(folder: Path) -> None:
    folder.mkdir()
    composed, decomposed = "caf\u00e9 au lait", "cafe\u0301 au lait"
    Share.create(folder, decomposed, "aa", cost=10)
    Share.open(folder, composed)
    Share.open(folder, decomposed)


def test_a_seal_made_before_spellings_were_unified_still_opens(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sioul_tray.share import seal

    folder.mkdir()
    decomposed = "cafe\u0301 au lait"
    monkeypatch.setattr(seal, "_nfc", lambda text: text)  # as the version before made it
    Share.create(folder, decomposed, "aa", cost=10)
    monkeypatch.undo()
    Share.open(folder, decomposed)


# -- 10. unclear messages -----------------------------------------------------------------


def test_a_share_under_a_file_names_the_file(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    done = cli(tmp_path / "home", "setup", "--share", str(afile / "sub"), passphrase=PASS)
    one_line_error(done, f"{afile} is not a folder")


@pytest.mark.parametrize("content", [b"", b"c2hvcnQ=\n"], ids=["empty", "short"])
def test_a_damaged_key_file_is_not_a_new_seal(tmp_path: Path, folder: Path, content: bytes) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    (key,) = (home / "config" / "keys").iterdir()
    key.write_bytes(content)
    done = cli(home, "look")
    one_line_error(done, "is damaged (its key is cut short")
    assert "sealed again" not in done.stderr


def test_an_empty_salt_is_a_damaged_seal(folder: Path) -> None:
    folder.mkdir()
    Share.create(folder, PASS, "aa", cost=10)
    doc = json.loads((folder / SEAL_NAME).read_text())
    doc["kdf"]["salt"] = ""
    (folder / SEAL_NAME).write_text(json.dumps(doc))
    with pytest.raises(SealDamaged, match="cut short"):
        Share.open(folder, PASS)


def test_a_seal_of_version_minus_one_is_damaged(folder: Path) -> None:
    folder.mkdir()
    Share.create(folder, PASS, "aa", cost=10)
    doc = json.loads((folder / SEAL_NAME).read_text())
    doc["version"] = -1
    (folder / SEAL_NAME).write_text(json.dumps(doc))
    with pytest.raises(SealDamaged, match="no version"):
        Share.open(folder, PASS)


def test_close_tries_every_part_and_says_each_failure(
    tmp_path: Path,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sioul_tray import cli as cli_module
    from sioul_tray.files import write_atomic
    from sioul_tray.lease import lease as lease_module

    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    ok(cli(home, "renew"))
    real = write_atomic  # lease.py's, imported from files.py

    def read_only_medicines(path: Path, data: bytes, **kw: bool) -> None:
        if path.parent.name == "medicines":  # as if that folder were read-only
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        real(path, data, **kw)

    monkeypatch.setattr(lease_module, "write_atomic", read_only_medicines)
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(home))
    assert cli_module.main(["close"]) == 1
    out, err = capsys.readouterr()
    assert "Closed: invoices" in out
    (line,) = err.strip().splitlines()
    assert line.startswith("sioul-tray:") and "medicines" in line and "Permission denied" in line


def test_a_key_cache_with_a_wrong_claim_key_is_mended(tmp_path: Path, folder: Path) -> None:
    """The second line of the key file (the keys derived from the folder key) edited with a
    valid CRC: the command line derives them again instead of sealing claims nobody reads."""
    import base64
    import zlib

    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    (key,) = (home / "config" / "keys").iterdir()
    first, second = key.read_bytes().splitlines()
    derived = base64.b64decode(second)[:-4]
    wrong = derived[:8] + bytes(32)  # the right key id, a wrong claim key
    key.write_bytes(first + b"\n" + base64.b64encode(wrong + zlib.crc32(wrong).to_bytes(4, "big")))
    ok(cli(home, "renew"))
    other = Installation(tmp_path / "other")
    other.update_settings(share=str(folder))
    other.remember_key(Share.open(folder, PASS))
    lease = other.lease()
    assert [c.computer for c in lease.claims("invoices")] and lease.problems("invoices") == []
    assert base64.b64decode(key.read_bytes().splitlines()[1])[:-4] == derived  # mended


# -- 11. files of this installation: never written through a planted link -------------------


def test_a_link_planted_at_the_status_temporary_is_not_followed(tmp_path: Path) -> None:
    from sioul_tray.tray.driver import write_status

    state = tmp_path / "state"
    state.mkdir()
    trap = tmp_path / "precious"
    trap.write_text("keep me\n")
    # The name an older version used: guessable from the tray's pid.
    (state / f".~status.json.{os.getpid()}.tmp").symlink_to(trap)
    write_status(state / "status.json", {"running": True})
    assert trap.read_text() == "keep me\n"
    assert json.loads((state / "status.json").read_text()) == {"running": True}
    assert not (state / "status.json").is_symlink()


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_link_planted_at_the_writer_lock_truncates_nothing(
    tmp_path: Path, folder: Path, link: str
) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    trap = tmp_path / "precious"
    trap.write_text("keep me\n")
    lock = home / "state" / "writer.lock"
    lock.unlink(missing_ok=True)
    if link == "symbolic":
        lock.symlink_to(trap)  # as root, any file of the system
    else:
        os.link(trap, lock)
    one_line_error(cli(home, "renew"), str(lock))
    assert trap.read_text() == "keep me\n"


def test_under_umask_000_nothing_made_is_open_to_others(tmp_path: Path, folder: Path) -> None:
    """The platform directories and their parents (~/.config, ~/.local/state), the sharing folder
    and its leases, and every file in them: made with explicit modes, whatever the umask."""
    home = tmp_path / "home"
    home.mkdir()
    env = python_env(HOME=str(home), SIOUL_PASSPHRASE=PASS)
    for name in ("SIOUL_TRAY_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env.pop(name, None)
    old = os.umask(0)
    try:
        for args in (["setup", "--share", str(folder)], ["renew"]):
            done = subprocess.run(
                [sys.executable, "-m", "sioul_tray.cli", *args], capture_output=True, text=True,
                timeout=120, env=env, stdin=subprocess.DEVNULL,
            )  # fmt: skip
            ok(done)
    finally:
        os.umask(old)
    for made in (".config", ".local", ".local/state", ".config/sioul-tray"):
        assert stat.S_IMODE((home / made).stat().st_mode) == 0o700, made
    written = [*home.rglob("*"), folder, *folder.rglob("*")]
    assert any(p.name.endswith(".lease") for p in written)  # not vacuous: claims were written
    open_to_others = [
        f"{p}: {stat.S_IMODE(p.lstat().st_mode):o}" for p in written if p.lstat().st_mode & 0o022
    ]
    assert open_to_others == []


# -- 12. the seal: every field checked --------------------------------------------------------


def member_seal(folder: Path, folder_id: str, key_id: str | None = None) -> None:
    """A seal a member of the folder could write: it opens with the passphrase, whatever it
    holds (the wrapping binds the folder id and the creator it names)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # seal.py's (test_seal.py)

    from sioul_tray.share import seal

    salt, nonce, key = os.urandom(16), os.urandom(12), os.urandom(32)
    kek = seal._passphrase_key(PASS, salt, 10, 8, 1)
    wrapped = AESGCM(kek).encrypt(nonce, key, seal._wrap_aad(folder_id, "mallory"))
    doc = {
        "format": "sioul-seal", "version": 1, "folder": folder_id, "creator": "mallory",
        "kdf": {"name": "scrypt", "log2n": 10, "r": 8, "p": 1, "salt": seal._b64(salt)},
        "check": seal._b64(seal._hkdf(kek, b"sioul passphrase check", 16)),
        "wrapped": {"aead": "aes-256-gcm", "nonce": seal._b64(nonce), "key": seal._b64(wrapped)},
        "key_id": key_id or seal.derive(key)[:8].hex(),
    }  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SEAL_NAME).write_text(json.dumps(doc))


def test_a_seal_whose_folder_id_climbs_out_of_the_key_cache_is_refused(
    tmp_path: Path, folder: Path
) -> None:
    home = tmp_path / "home"
    public = tmp_path / "public"  # where home/config/keys/../../../public/pwn.key would land
    public.mkdir(mode=0o755)
    public.chmod(0o755)
    member_seal(folder, "../../../public/pwn")
    done = cli(home, "setup", "--share", str(folder), passphrase=PASS)
    one_line_error(done, "the folder id is not valid")
    assert list(public.iterdir()) == []
    assert stat.S_IMODE(public.stat().st_mode) == 0o755
    assert not (home / "config" / "settings.json").exists()


def test_a_damaged_key_id_on_join_is_a_damaged_seal(tmp_path: Path, folder: Path) -> None:
    member_seal(folder, "0123456789abcdef", key_id="00" * 8)
    done = cli(tmp_path / "home", "setup", "--share", str(folder), passphrase=PASS)
    one_line_error(done, "is damaged")
    assert "kept on this computer" not in done.stderr


@pytest.mark.parametrize("log2n", [16, 19, 22])
def test_scrypt_parameters_scrypt_refuses_are_refused_as_ours(folder: Path, log2n: int) -> None:
    """Within the bounds, but not what scrypt takes (n must stay under 2^(16 r)): the project's
    error, never a MemoryError."""
    folder.mkdir()
    Share.create(folder, PASS, "aa", cost=10)
    doc = json.loads((folder / SEAL_NAME).read_text())
    doc["kdf"].update({"log2n": log2n, "r": 1})
    (folder / SEAL_NAME).write_text(json.dumps(doc))
    with pytest.raises(SealDamaged, match=rf"n=2\^{log2n}, r=1, p=1\): refused"):
        Share.open(folder, PASS)


# -- 13. the command line ---------------------------------------------------------------------


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="X11 and Wayland are Linux's")
@pytest.mark.parametrize("command", ["computers", "about", "folder", "demo"])
def test_a_window_without_a_display_says_so_in_one_line(tmp_path: Path, command: str) -> None:
    env = python_env(SIOUL_TRAY_HOME=str(tmp_path / "home"))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", command], capture_output=True, text=True,
        timeout=60, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    one_line_error(done, "no display here")  # as the tray says it, never Qt's abort


def read_only_mount(folder: Path, *command: str) -> list[str]:
    """`command` where `folder` is a read-only mount: a bind mount in a mount namespace of its
    own (with a user namespace, so no root is needed), gone when the command ends."""
    script = 'd="$1"; shift; mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && exec "$@"'
    return [
        "unshare",
        "--mount",
        "--map-root-user",
        "sh",
        "-c",
        script,
        "sh",
        str(folder),
        *command,
    ]


def test_joining_a_folder_on_a_read_only_mount_is_refused(tmp_path: Path, folder: Path) -> None:
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        pytest.skip("needs Linux's unshare to make a read-only mount")
    probe = subprocess.run(read_only_mount(tmp_path, "sh", "-c", f"! touch {tmp_path}/probe"),
                           capture_output=True, timeout=30)  # fmt: skip
    if probe.returncode != 0:
        pytest.skip(f"no private read-only mount here: {probe.stderr.decode().strip()}")
    ok(cli(tmp_path / "one", "setup", "--share", str(folder), passphrase=PASS))
    two = tmp_path / "two"
    env = python_env(SIOUL_TRAY_HOME=str(two), SIOUL_PASSPHRASE=PASS)
    done = subprocess.run(
        read_only_mount(folder, sys.executable, "-m", "sioul_tray.cli", "setup", "--share",
                        str(folder)),
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    one_line_error(done, f"{folder} is on a read-only file system")
    assert not (two / "config" / "settings.json").exists()


def test_a_sharing_folder_deleted_or_unmounted_is_missing_not_new(
    tmp_path: Path, folder: Path
) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    shutil.rmtree(folder)
    done = cli(home, "look")
    one_line_error(done, f"the sharing folder {folder} is missing")
    assert "not a Sioul sharing folder yet" not in done.stderr
    folder.mkdir()  # a mount point without its disk: the folder is there, empty
    done = cli(home, "renew")
    one_line_error(done, f"the sharing folder {folder} holds no {SEAL_NAME} any more")
    assert "not a Sioul sharing folder yet" not in done.stderr
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "words", [["--version"], ["--help"], ["setup", "--help"], ["claims"]], ids=" ".join
)
def test_output_that_cannot_be_written_is_a_failure(
    tmp_path: Path, folder: Path, words: list[str]
) -> None:
    home = tmp_path / "home"
    ok(cli(home, "setup", "--share", str(folder), passphrase=PASS))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sioul_tray.cli", *words], stdout=full,
            stderr=subprocess.PIPE, text=True, timeout=60,
            env=python_env(SIOUL_TRAY_HOME=str(home)), stdin=subprocess.DEVNULL,
        )  # fmt: skip
    one_line_error(done, "No space left on device")
