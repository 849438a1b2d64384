"""The command line's words (`sioul_tray.cliparser`), parsed in this process: which commands each
parser knows, what each takes, and every refusal as one line of ours (exit status 2).

The commands themselves, run as processes, are in tests/test_cli.py and tests/test_may.py; random
command lines in tests/test_cli_fuzz.py.
"""

from __future__ import annotations

import argparse
import errno

import pytest

from sioul_tray import __version__
from sioul_tray.cliparser import parser
from sioul_tray.lease.codec import MAX_INT

COMMANDS = {"setup", "look", "claims", "history", "take", "close", "renew", "forget", "may",
            "run", "copied", "wrote", "computers", "about", "folder", "demo"}  # fmt: skip


def commands(made: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in made._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def refused(words: list[str], capsys: pytest.CaptureFixture[str], fast: bool = False) -> str:
    """The one line the parser says for `words`, which it refuses with exit status 2."""
    with pytest.raises(SystemExit) as ended:
        parser(fast).parse_args(words)
    assert ended.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.endswith(" (see sioul-tray --help)\n") and err.count("\n") == 1
    return err


def test_the_fast_parser_knows_only_what_sioul_calls_before_each_record() -> None:
    assert commands(parser()) == COMMANDS
    assert commands(parser(fast=True)) == {"may", "run"}


def test_no_words_is_no_command() -> None:
    """With no command the tray starts (`cli._run`): the parser says so with None."""
    assert parser().parse_args([]).command is None
    assert parser().parse_args(["--lang", "fr"]).lang == "fr"


def test_a_part_is_optional_where_it_means_every_part() -> None:
    for command in ("look", "claims", "close", "renew"):
        assert parser().parse_args([command]).part is None
        assert parser().parse_args([command, "medicines"]).part == "medicines"


def test_only_invoices_are_taken_on_purpose(capsys: pytest.CaptureFixture[str]) -> None:
    assert parser().parse_args(["take", "invoices"]).part == "invoices"
    said = refused(["take", "medicines"], capsys)
    assert said.startswith("sioul-tray: take: argument invoices: invalid choice: 'medicines'")


def test_an_unknown_command_is_one_line_of_ours(capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(["spoons"], capsys)
    assert said.startswith("sioul-tray: argument COMMAND: invalid choice: 'spoons'")


def test_a_refusal_never_carries_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    """Words another program passed are shown, never obeyed, by the terminal."""
    said = refused(["history", "in\x1b[2Jvoices\x07"], capsys)  # argparse says it as it came
    assert "\x1b" not in said and "\x07" not in said
    assert said.startswith("sioul-tray: unrecognized arguments: in [2Jvoices  (see")


@pytest.mark.parametrize("n", ["0", "41", str(MAX_INT)])
def test_wrote_takes_a_whole_number_every_reader_accepts(n: str) -> None:
    args = parser().parse_args(["wrote", "invoices", n, "--token", "desk.7"])
    assert (args.part, args.n, args.token) == ("invoices", int(n), "desk.7")


@pytest.mark.parametrize("n", ["-1", "4.0", "x", "٣", str(MAX_INT + 1)])
def test_wrote_refuses_any_other_number(n: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(["wrote", "medicines", n], capsys)
    assert f"{n!r} is not a whole number from 0 to {MAX_INT}" in said


def test_wrote_s_token_is_run_s_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sioul-tray run` sets SIOUL_LEASE_TOKEN for its command, which marks what it wrote."""
    monkeypatch.setenv("SIOUL_LEASE_TOKEN", "desk.9")
    assert parser().parse_args(["wrote", "invoices", "3"]).token == "desk.9"
    monkeypatch.delenv("SIOUL_LEASE_TOKEN")
    assert parser().parse_args(["wrote", "invoices", "3"]).token is None


def test_the_windows_state_folder_is_the_tray_s_own_word(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The tray passes --state-dir to a window's process; the person's help does not show it."""
    assert parser().parse_args(["about", "--state-dir", "/s"]).state_dir == "/s"
    with pytest.raises(SystemExit):
        parser().parse_args(["computers", "--help"])
    assert "--state-dir" not in capsys.readouterr().out


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        parser().parse_args(["--version"])
    assert ended.value.code == 0
    assert capsys.readouterr().out == f"sioul-tray {__version__}\n"


def test_help_that_cannot_be_written_is_not_a_success(monkeypatch: pytest.MonkeyPatch) -> None:
    """argparse alone drops a failed write: --help into a full disk would exit 0."""

    class FullDisk:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("sys.stdout", FullDisk())
    with pytest.raises(OSError, match="No space left"):
        parser().parse_args(["--help"])
    with pytest.raises(OSError, match="No space left"):
        parser(fast=True).parse_args(["--version"])
