"""Views built by hand for the menu model's tests (English and French)."""

from __future__ import annotations

from sioul_tray.tray.model import PartView

T0 = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC


def part(which: str, **kw: object) -> PartView:
    """A part kept here, settled and acting; `kw` changes any field."""
    base = dict(
        part=which, keeper="pc", name="This PC", here=True, since=T0 - 600, settled=True,
        others_heard=True, agreed=True, acting=True, waiting=(),
    )  # fmt: skip
    base.update(kw)
    return PartView(**base)  # type: ignore[arg-type]
