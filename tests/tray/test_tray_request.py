"""What travels to the running tray and back (tray/request.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sioul_tray.cliparser import parser as _parser
from sioul_tray.tray.request import (
    THROUGH_TRAY,
    BadRequest,
    decode_answer,
    decode_request,
    encode_answer,
    encode_request,
    server_name,
)


@given(st.lists(st.text()))
def test_a_request_reads_back_as_its_words(argv: list[str]) -> None:
    data = encode_request(argv)
    assert data.endswith(b"\n") and data.count(b"\n") == 1  # one line, whatever the words
    assert decode_request(data) == argv


@given(st.binary())
def test_any_bytes_are_words_or_a_bad_request(data: bytes) -> None:
    try:
        argv = decode_request(data)
    except BadRequest:
        return
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv)


@pytest.mark.parametrize(
    "data", [b"", b"[]", b'{"argv": "take"}', b'{"argv": [1, 2]}', b'{"words": []}', b"\xff\n"]
)
def test_what_is_not_a_request_says_so(data: bytes) -> None:
    with pytest.raises(BadRequest):
        decode_request(data)


def test_an_answer_reads_back_and_a_stranger_s_is_none() -> None:
    assert decode_answer(encode_answer(1, "Closed: invoices\n")) == (1, "Closed: invoices\n")
    assert decode_answer(b'{"rc": "x", "out": ""}\n') is None
    assert decode_answer(b"HTTP/1.1 400\r\n") is None


def test_two_installations_never_share_a_server(tmp_path: Path) -> None:
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")
    assert server_name(tmp_path / "a") == server_name(tmp_path / "a" / ".." / "a")


def test_what_goes_through_the_tray_is_a_command_of_the_command_line() -> None:
    commands = _parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert commands is not None  # the subcommands' parsers
    assert set(THROUGH_TRAY) <= set(commands)


@pytest.mark.parametrize(
    "env",
    [
        {"LOGNAME": "anna", "USER": "other"},
        {"USER": "anna"},
        {"USERNAME": "anna"},
        {},  # none set: the password database's name
    ],
)
def test_the_server_s_name_is_the_one_earlier_versions_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> None:
    # A tray still running from before an upgrade must be found by the new command line: the
    # name is made of the login name as getpass.getuser finds it, whatever finds it now.
    import getpass
    import zlib

    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in env.items():
        monkeypatch.setenv(variable, value)
    key = f"{getpass.getuser()}\0{tmp_path.resolve()}".encode()
    assert server_name(tmp_path) == f"sioul-tray-{zlib.crc32(key):08x}{zlib.adler32(key):08x}"


def test_words_nested_too_deep_are_a_bad_request_or_no_answer() -> None:
    # Within MAX_REQUEST, brackets nested deeper than Python's recursion: a RecursionError was
    # neither a bad request nor "no answer".
    deep = b"[" * 30_000 + b"]" * 30_000 + b"\n"
    with pytest.raises(BadRequest):
        decode_request(b'{"argv": ' + deep)
    assert decode_answer(b'{"rc": 0, "out": ' + deep) is None
