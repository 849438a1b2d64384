"""The collector held back while a read builds and frees thousands of objects."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from sioul_tray.lease import Claim, Lease, codec
from sioul_tray.lease import lease as lease_module
from sioul_tray.lease.pauses import collector_held
from tests.lease.leasekit import T0, FakeClock, make_share, part_folder, seal_text


@pytest.fixture
def collector() -> Iterator[None]:
    """The test leaves the collector as it found it, whatever it asserts."""
    was = gc.isenabled()
    try:
        yield
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.usefixtures("collector")
def test_no_pass_runs_inside_and_the_collector_is_back_after() -> None:
    gc.enable()
    with collector_held():
        assert not gc.isenabled()
        with collector_held():  # nested: the outer block still decides
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.mark.usefixtures("collector")
def test_the_collector_is_back_when_the_block_raises() -> None:
    gc.enable()
    with pytest.raises(ZeroDivisionError), collector_held():
        1 / 0  # noqa: B018
    assert gc.isenabled()


@pytest.mark.usefixtures("collector")
def test_a_collector_the_program_switched_off_stays_off() -> None:
    gc.disable()
    with collector_held():
        assert not gc.isenabled()
    assert not gc.isenabled()


def passes_while_reading(tmp_path: Path, claims: int) -> list[int]:
    """The collection passes (their generations) that one read of `claims` claim files starts."""
    share = make_share(tmp_path / "share", creator="alpha")
    folder = part_folder(share, "invoices")
    folder.mkdir(parents=True)
    t = int(T0)
    for i in range(claims):
        c = f"c{i:03d}"
        claim = Claim(c, "invoices", f"Computer {i}", t, t, t, t)
        (folder / f"{c}.lease").write_bytes(
            seal_text(share, "invoices", f"{c}.lease", codec.encode(claim))
        )
    lease = Lease(share, "alpha", clock=FakeClock())
    gc.enable()
    passes: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        lease.look("invoices")
    finally:
        gc.callbacks.remove(count)
    assert gc.isenabled()
    assert len(lease.last_read("invoices").claims) == claims
    return passes


@pytest.mark.usefixtures("collector")
def test_reading_many_claims_runs_at_most_the_one_pass_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 400 claim files make well over the few hundred new objects that start a pass: held back,
    # the read is followed by one pass at most (what it left); not held back, passes run inside.
    assert len(passes_while_reading(tmp_path / "held", 400)) <= 1
    monkeypatch.setattr(lease_module, "collector_held", contextlib.nullcontext)
    assert len(passes_while_reading(tmp_path / "not-held", 400)) > 1
