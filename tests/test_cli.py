"""The command line, run as a person or a script would: real processes, real folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sioul_tray import __version__
from sioul_tray.install import Installation
from sioul_tray.share import SEAL_NAME
from tests.helpers import python_env

PASS = "correct horse battery"


def cli(home: Path, *args: str, passphrase: str | None = None) -> subprocess.CompletedProcess[str]:
    extra = {"SIOUL_TRAY_HOME": str(home)}
    if passphrase is not None:
        extra["SIOUL_PASSPHRASE"] = passphrase
    env = python_env(**extra)
    if passphrase is None:
        env.pop("SIOUL_PASSPHRASE", None)
    return subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def failed(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert words in done.stderr, done.stderr


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A folder set up by one installation and joined by another."""
    folder = tmp_path / "Dropbox" / "Sioul"
    folder.parent.mkdir()
    one, two = tmp_path / "one", tmp_path / "two"
    assert "Created" in ok(cli(one, "setup", "--share", str(folder), passphrase=PASS))
    assert "Joined" in ok(cli(two, "setup", "--share", str(folder), passphrase=PASS))
    return folder, one, two


def test_home_before_the_command_is_the_installation_whatever_the_working_folder(
    tmp_path: Path,
) -> None:
    """`--home DIR` holds the installation, as SIOUL_TRAY_HOME does; a relative DIR is taken from
    where the command ran, once: a later command run elsewhere (a tray started at login) finds it
    by the absolute path, and nothing goes to the system's folders."""
    folder = tmp_path / "Dropbox" / "Sioul"
    folder.parent.mkdir()
    user = tmp_path / "user"
    env = python_env(SIOUL_PASSPHRASE=PASS, HOME=str(user), XDG_CONFIG_HOME=str(user / "c"),
                     XDG_STATE_HOME=str(user / "s"), XDG_CACHE_HOME=str(user / "k"))  # fmt: skip
    env.pop("SIOUL_TRAY_HOME", None)
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()

    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "sioul_tray.cli", *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)  # fmt: skip

    assert "Created" in ok(run("--home", "portable", "setup", "--share", str(folder), cwd=here))
    home = here / "portable"
    assert Installation(home).config_dir.is_dir()
    assert "Invoices" in ok(run(f"--home={home}", "--lang", "en", "look", cwd=elsewhere))
    failed(run("look", cwd=here), "sioul-tray setup")  # the system's installation: none
    assert not (elsewhere / "portable").exists()
    assert not any(p.is_file() for p in user.rglob("*") if "sioul-tray" in str(p)), sorted(
        user.rglob("*")
    )


def test_version(tmp_path: Path) -> None:
    assert ok(cli(tmp_path, "--version")).strip() == f"sioul-tray {__version__}"


def test_setup_caches_the_key_so_later_commands_need_no_passphrase(
    pair: tuple[Path, Path, Path],
) -> None:
    folder, one, _ = pair
    keys = list((one / "config" / "keys").iterdir())
    assert len(keys) == 1 and keys[0].stat().st_mode & 0o777 == 0o600
    assert json.loads(ok(cli(one, "look", "--json")))["invoices"]["computer"] is None
    assert (folder / SEAL_NAME).exists()
    # The creator's state file began as it sealed the folder (S2: it may act on an empty view).
    assert list((one / "state").glob("lease-*.state"))


def test_a_wrong_passphrase_changes_nothing(pair: tuple[Path, Path, Path], tmp_path: Path) -> None:
    folder, _, _ = pair
    seal = (folder / SEAL_NAME).read_bytes()
    three = tmp_path / "three"
    failed(cli(three, "setup", "--share", str(folder), passphrase="nope"), "wrong passphrase")
    assert (folder / SEAL_NAME).read_bytes() == seal
    assert not (three / "config" / "settings.json").exists()
    assert not (three / "config" / "keys").exists()


def test_no_passphrase_without_a_terminal_is_a_clear_error(tmp_path: Path) -> None:
    failed(cli(tmp_path / "h", "setup", "--share", str(tmp_path)), "SIOUL_PASSPHRASE")


def test_commands_before_setup_say_what_to_do(tmp_path: Path) -> None:
    failed(cli(tmp_path, "look"), "sioul-tray setup --share")


def test_a_handover_from_the_command_line(pair: tuple[Path, Path, Path]) -> None:
    _, one, two = pair
    ok(cli(one, "renew"))
    ok(cli(two, "renew"))
    ids = {Installation(one).computer(): one, Installation(two).computer(): two}
    looked = json.loads(ok(cli(two, "look", "--json")))
    keeper = looked["invoices"]["computer"]
    assert keeper in ids and looked["invoices"]["name"]
    assert looked["invoices"]["here"] is (ids[keeper] == two)
    # The other one makes invoices there.
    (taker,) = set(ids) - {keeper}
    done = cli(ids[taker], "take", "invoices")
    taken = ok(done)
    # Nothing acts here yet, and the keeper elsewhere stops: no computer numbers (issue 42, 5).
    assert "kept here now, but no tray runs on this computer: no computer numbers them" in taken
    assert "warning: no tray runs here, so no computer numbers invoices now" in done.stderr
    # The keeper has not seen the take yet: waited for, by the name a person knows it by.
    assert (
        f"Waiting for: {looked['invoices']['name']}" in taken
        and keeper not in taken.split("Waiting for: ")[1].split(" (")[0]
    )
    looked = json.loads(ok(cli(ids[keeper], "look", "invoices", "--json")))
    assert set(looked) == {"schema", "invoices"} and looked["schema"] == 2
    assert looked["invoices"]["computer"] == taker and looked["invoices"]["here"] is False
    assert looked["invoices"]["status"]["why"] == "elsewhere"
    assert looked["invoices"]["status"]["keeper"] == taker
    claims = json.loads(ok(cli(one, "claims", "--json")))
    assert set(claims) == {"medicines", "invoices", "problems"}
    assert [c["computer"] for c in claims["invoices"] if c["taken"] is not None] == [taker]
    assert set(claims["invoices"][0]) == {
        "computer", "part", "name", "seq", "since", "renewed", "active",
        "taken", "closed", "wrote", "sees", "forgets", "tenure", "sees_tenure", "sees_seq",
        "answers", "closes", "knows", "counted", "acting", "reads", "admits", "rules",
    }  # fmt: skip
    ok(cli(ids[taker], "close", "invoices"))
    claims = json.loads(ok(cli(one, "claims", "invoices", "--json")))
    assert [c["closed"] for c in claims["invoices"] if c["taken"]] == [True]
    lines = ok(cli(one, "look")).splitlines()
    assert lines[-1].startswith("(no tray runs here")
    assert all(line.startswith(("Medicines: ", "Invoices: ")) for line in lines[:-1])


def test_damaged_files_are_listed_with_their_reason(pair: tuple[Path, Path, Path]) -> None:
    folder, one, _ = pair
    ok(cli(one, "renew"))
    (folder / "leases" / "invoices" / "zz.lease").write_bytes(b"garbage" * 10)
    (folder / "leases" / "invoices" / ".~laptop.1a2b3c4d.tmp").write_bytes(b"{")
    claims = json.loads(ok(cli(one, "claims", "--json")))
    assert sorted(claims["problems"], key=lambda p: p["file"]) == [
        {"part": "invoices", "file": ".~laptop.1a2b3c4d.tmp",
         "reason": "temporary file: still being written", "passing": True},
        {"part": "invoices", "file": "zz.lease", "reason": "not a Sioul claim", "passing": False},
    ]  # fmt: skip
    human = ok(cli(one, "claims"))
    assert "zz.lease: not a Sioul claim" in human and "(this computer)" in human


def test_a_computer_never_used_says_so(pair: tuple[Path, Path, Path]) -> None:
    """Found as a person: `claims` said a headless computer (its claim's `active` 0) was "used
    20794 days ago"."""
    _, one, _ = pair
    ok(cli(one, "renew"))  # headless: no idle source, never used
    assert [c["active"] for c in json.loads(ok(cli(one, "claims", "--json")))["invoices"]] == [0]
    human = ok(cli(one, "claims", "invoices"))
    assert "never used" in human and "days ago" not in human, human
    french = ok(cli(one, "--lang", "fr", "claims", "invoices"))
    assert "jamais utilisé" in french, french


def test_writing_commands_wait_for_no_one(pair: tuple[Path, Path, Path]) -> None:
    _, one, _ = pair
    with Installation(one).writer():
        failed(cli(one, "take", "invoices"), "another sioul-tray process")
        failed(cli(one, "close"), "another sioul-tray process")
    ok(cli(one, "close"))


def test_forget_from_the_command_line(pair: tuple[Path, Path, Path]) -> None:
    _, one, two = pair
    ok(cli(two, "renew"))
    two_id = Installation(two).computer()
    said = ok(cli(one, "forget", two_id))
    assert "gone for good" in said
    # two was heard just now: it may be numbering, only cut off, for about a day more.
    assert "For invoices it counts from " in said
    failed(cli(one, "forget", "nobody_1234"), "nothing to forget")


def copied_from_elsewhere(home: Path, to: Path) -> Path:
    """`home` as a copy made on another machine reads here: its binding names another digest."""
    shutil.copytree(home, to)
    binding = to / "config" / "machine"
    binding.write_text(binding.read_text().split()[0] + " " + "0" * 32 + "\n")
    return to


@pytest.fixture
def copied(pair: tuple[Path, Path, Path], tmp_path: Path) -> tuple[Path, Path, str, Path]:
    """The pair, one renewed (its id) and then copied to another machine."""
    _, one, two = pair
    ok(cli(one, "renew"))
    return one, two, Installation(one).computer(), copied_from_elsewhere(one, tmp_path / "copy")


def test_a_copied_installation_waits_until_the_person_says_which_computer_it_is(
    copied: tuple[Path, Path, str, Path],
) -> None:
    one, two, old, copy = copied
    for words in (["renew"], ["take", "invoices"], ["look"]):
        failed(cli(copy, *words), "sioul-tray copied new")
    failed(cli(one, "copied", "new"), "made on this computer")
    said = ok(cli(copy, "copied", "new"))
    new = (copy / "config" / "computer").read_text().strip()
    assert new != old and f"now {new}'s" in said and "declared" not in said
    ok(cli(copy, "renew"))
    claims = json.loads(ok(cli(two, "claims", "invoices", "--json")))["invoices"]
    assert {c["computer"] for c in claims} == {old, new}
    failed(cli(copy, "copied", "gone"), "made on this computer")  # answered once


def test_a_copy_that_replaces_its_original_declares_it_gone(
    copied: tuple[Path, Path, str, Path],
) -> None:
    _, _, old, copy = copied
    said = ok(cli(copy, "copied", "gone"))
    assert f"{old} is declared gone for good" in said and "For invoices it counts from " in said


def test_the_person_names_this_computer(pair: tuple[Path, Path, Path]) -> None:
    _, one, two = pair
    said = ok(cli(one, "setup", "--name", "Anna's laptop\x1b[2J"))
    assert said.strip() == "The other computers show this one as Anna's laptop[2J."
    ok(cli(one, "renew"))
    claims = json.loads(ok(cli(two, "claims", "invoices", "--json")))["invoices"]
    assert [c["name"] for c in claims] == ["Anna's laptop[2J"]  # carried in the claim, cleaned
    ok(cli(one, "setup", "--name", ""))  # back to the host's name
    ok(cli(one, "renew"))
    claims = json.loads(ok(cli(two, "claims", "invoices", "--json")))["invoices"]
    assert claims[0]["name"] not in ("", "Anna's laptop[2J")
    failed(cli(one, "setup"), "--share DIR, --name NAME, or both")


def test_a_peers_name_with_control_characters_is_shown_never_obeyed(
    pair: tuple[Path, Path, Path],
) -> None:
    # A peer's claim can carry any name (its writer cleans it, a forger does not): `claims` and
    # `look` show it with each control character a space, never one a terminal obeys.
    folder, one, two = pair
    ok(cli(one, "renew"))
    ok(cli(one, "take", "invoices"))
    inst = Installation(one)
    share, computer = inst.open_share(), inst.computer()
    relpath = f"leases/invoices/{computer}.lease"
    path = folder / relpath
    row = json.loads(share.unseal(relpath, path.read_bytes()).decode("utf-8"))
    row[2] = "Zed\x1b]0;owned\x07\x1b[2J\r\nfake line\x9b\x00"
    path.write_bytes(share.seal(relpath, json.dumps(row).encode("utf-8")))
    for words in (("claims", "invoices"), ("look", "invoices")):
        said = ok(cli(two, *words))
        assert "Zed" in said, words
        assert all(ch.isprintable() or ch == "\n" for ch in said), words
        assert not any(line.startswith("fake line") for line in said.split("\n")), words
    (claim,) = json.loads(ok(cli(two, "claims", "invoices", "--json")))["invoices"]
    assert claim["name"].isprintable() and claim["name"].startswith("Zed ")


def test_two_computers_with_one_name_are_told_apart(pair: tuple[Path, Path, Path]) -> None:
    _, one, two = pair  # two installations on this host: both named after it
    ok(cli(one, "renew"))
    ok(cli(two, "renew"))
    ok(cli(one, "take", "invoices"))  # else the keeper is the smaller of two random ids
    first = Installation(one).computer()
    (line, *_) = ok(cli(two, "look", "invoices")).splitlines()
    # Taken by a command, with no tray there: nothing numbers yet, and the line says so.
    assert line.startswith("Invoices: ") and f" ({first}) (not numbering yet)" in line
    ok(cli(two, "setup", "--name", "Second"))
    ok(cli(two, "renew"))
    (line, *_) = ok(cli(two, "look", "invoices")).splitlines()
    assert line.startswith("Invoices: ") and f"({first})" not in line


def test_a_timer_s_renew_does_not_pull_medicines_from_the_person(
    pair: tuple[Path, Path, Path],
) -> None:
    """Laptop's tray renews with the person there; Kitchen PC renews from a timer, with no tray
    and no idle source: medicines stay where the person is (Kitchen PC would keep them and no
    tray would remind them there)."""
    _, kitchen, laptop_home = pair
    laptop = Installation(laptop_home).lease()
    left = time.time() - 600  # the person was last at Laptop ten minutes ago, at no other
    laptop.renew("medicines", active=left)
    ok(cli(kitchen, "renew"))
    ok(cli(kitchen, "renew"))
    keeper = laptop.renew("medicines", active=left)
    assert keeper.computer == laptop.computer
    (mine,) = (c for c in laptop.claims("medicines") if c.computer != laptop.computer)
    assert mine.active == 0  # never used here, as far as the claims say


def test_a_mark_without_a_tray_is_refused_and_written_nowhere(
    pair: tuple[Path, Path, Path],
) -> None:
    """No tray runs on Kitchen PC, so nothing acts there: a mark is not taken (a record
    made under no verdict is void), and one without a token is a usage error."""
    _, kitchen, _ = pair
    ok(cli(kitchen, "renew"))
    done = cli(kitchen, "wrote", "medicines", "3", "--token", "kitchen.1")
    assert done.returncode == 1 and "no tray runs here" in done.stderr
    assert "the mark is not taken" in done.stderr
    done = cli(kitchen, "wrote", "medicines", "3")
    assert done.returncode == 2 and "give --token" in done.stderr
    lease = Installation(kitchen).lease()
    assert all(c.wrote == 0 for c in lease.claims("medicines"))


def test_the_person_confirms_a_mark_without_a_tray(pair: tuple[Path, Path, Path]) -> None:
    """`wrote --confirm` (S6): no token, carried in the claim; never lowers a mark."""
    _, kitchen, _ = pair
    ok(cli(kitchen, "renew"))
    ok(cli(kitchen, "wrote", "invoices", "4", "--confirm"))
    ok(cli(kitchen, "wrote", "invoices", "2", "--confirm"))
    lease = Installation(kitchen).lease()
    (mine,) = (c for c in lease.claims("invoices") if c.computer == lease.computer)
    assert mine.wrote == 4


def test_history_says_what_changed_hands_with_when(tmp_path: Path) -> None:
    from sioul_tray import history
    from sioul_tray.timefmt import clock_time

    home = tmp_path / "home"
    assert ok(cli(home, "history")) == "No change of hands seen here yet.\n"
    at = 1_750_000_000
    path = history.path_in(Installation(home).state_dir)
    history.record(path, [
        history.Change(at, "invoices", "here"),
        history.Change(at + 600, "invoices", "made", "Laptop", left=True),
    ])  # fmt: skip
    lines = ok(cli(home, "history")).splitlines()
    assert lines == [
        f"{clock_time(at, always_date=True)}  Invoices are made here now",
        f"{clock_time(at + 600, always_date=True)}  Invoices are now made on Laptop "
        "(This computer no longer makes invoices.)",
    ]
    # In the reader's language, whatever the tray's was (issue 42, item 8).
    french = ok(cli(home, "--lang", "fr", "history")).splitlines()
    assert french[1].endswith("Les factures se font maintenant sur Laptop "
                              "(Cet ordinateur ne fait plus les factures.)")  # fmt: skip
    doc = json.loads(ok(cli(home, "history", "--json")))
    assert doc["schema"] == 2 and [c["at"] for c in doc["changes"]] == [at, at + 600]
    assert [c["kind"] for c in doc["changes"]] == ["here", "made"]
    path.write_text("[]")  # not ours: said, nothing else changed
    failed(cli(home, "history"), "the history cannot be read")


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a name in bytes: Linux's")
def test_a_home_not_named_in_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    """It passed setup, then the first start crashed writing the login entry."""
    home = os.fsdecode(bytes(tmp_path) + b"/caf\xe9")  # Latin-1, as an old disk names it
    done = subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", "--home", home, "setup", "--share", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=python_env(SIOUL_PASSPHRASE="x" * 12),
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        f"sioul-tray: the installation's folder {tmp_path}/caf\\xe9 is not valid UTF-8: "
        "choose a folder whose name is\n"
    )
    env = python_env(SIOUL_PASSPHRASE="x" * 12)
    env_bytes = {k.encode(): v.encode() for k, v in env.items()}
    env_bytes[b"SIOUL_TRAY_HOME"] = bytes(tmp_path) + b"/caf\xe9"
    done = subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", "setup", "--share", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=env_bytes, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 1 and "is not valid UTF-8" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "sioul.seal").exists()  # refused before anything was made
