"""This computer's name and id."""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.lease import host_name
from sioul_tray.lease.host import _pretty_hostname, new_computer_id
from sioul_tray.lease.rules import COMPUTER_ID


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("MacBook-Air", "macbook_air"),
        ("Anna's MacBook Air", "anna_s_macbook_air"),
        ("Café Übersee", "cafe_ubersee"),
        ("", "computer"),
        ("日本", "computer"),
        ("x" * 200, "x" * 58),
    ],
)
def test_computer_ids(name: str, base: str) -> None:
    made = new_computer_id(name)
    assert COMPUTER_ID.fullmatch(made)
    assert made.rsplit("_", 1)[0] == base and len(made.rsplit("_", 1)[1]) == 4


def test_two_same_names_get_two_ids() -> None:
    assert len({new_computer_id("MacBook-Air") for _ in range(20)}) > 1


@pytest.mark.parametrize(
    ("content", "name"),
    [
        ('PRETTY_HOSTNAME="Anna\'s Laptop"\nCHASSIS=laptop\n', "Anna's Laptop"),
        ("PRETTY_HOSTNAME=Office\n", "Office"),
        ("CHASSIS=desktop\n", ""),
    ],
)
def test_pretty_hostname(tmp_path: Path, content: str, name: str) -> None:
    info = tmp_path / "machine-info"
    info.write_text(content)
    assert _pretty_hostname(str(info)) == name


def test_host_name_is_asked_once() -> None:
    assert host_name() and host_name() is host_name()
