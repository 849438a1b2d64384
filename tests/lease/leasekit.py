"""Helpers shared by the lease tests: a fake clock, a cheap share, and claim files built by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict

from sioul_tray.lease import Claim, codec
from sioul_tray.share import Share
from tests.helpers import T0, FakeClock

__all__ = ["T0", "FakeClock"]

PASSPHRASE = "correct horse battery staple"


class Flags(TypedDict):
    """The keyword flags of `keeper.acknowledged` and `keeper.weigh`, passed as ``**flags``."""

    read_others: bool
    created: bool


def make_share(folder: Path, creator: str = "alpha") -> Share:
    """A fresh sharing folder; cost=10 keeps scrypt cheap for tests."""
    folder.mkdir(parents=True, exist_ok=True)
    return Share.create(folder, PASSPHRASE, creator, cost=10)


def relpath(part: str, file_name: str) -> str:
    return f"leases/{part}/{file_name}"


def part_folder(share: Share, part: str) -> Path:
    return share.folder / "leases" / part


def row_of(claim: Claim) -> list[Any]:
    """The claim as the codec's JSON array, to change one field and seal it again."""
    row: list[Any] = json.loads(codec.encode(claim))
    return row


def seal_text(share: Share, part: str, file_name: str, text: str | bytes) -> bytes:
    """A claim file sealed with the share's real key for `leases/<part>/<file_name>`."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return share.seal(relpath(part, file_name), data)


def seal_row(share: Share, part: str, file_name: str, row: Any) -> bytes:
    return seal_text(share, part, file_name, json.dumps(row, separators=(",", ":")))
