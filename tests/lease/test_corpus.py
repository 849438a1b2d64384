"""A corpus of hostile files beside two good claims: none of them may break or hide the good ones.

Each kind puts one bad file (or one bad event) into ``leases/medicines/`` next to the claims of
``alpha`` and ``bravo`` written by real Leases. For every kind, ``look`` and ``claims`` raise
nothing, the keeper is still ``bravo``, both good claims read with their latest ``seq``, and
``problems`` names the bad file with a reason that says what is wrong.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import random
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.lease import Claim, Lease, codec
from sioul_tray.share import Share
from sioul_tray.share.seal import HEADER_SIZE, NONCE_SIZE, TAG_SIZE
from tests.lease.leasekit import (
    T0,
    FakeClock,
    make_share,
    part_folder,
    relpath,
    row_of,
    seal_row,
    seal_text,
)

PART = "medicines"
BAD = "zed.lease"  # the usual name of the hostile file: a valid claim name nobody writes
ACTING = len(codec.FIELDS + codec.TENURE_FIELDS + codec.CLOSES_FIELDS)  # where `acting` is


@dataclass
class Scene:
    """Two good claims on each part, and a reader that has read them once."""

    tmp: Path
    share: Share
    clock: FakeClock
    alpha: Lease
    bravo: Lease
    reader: Lease
    old_alpha: bytes  # alpha's medicines claim before its latest renew: a stale copy
    seqs: dict[str, int]  # the seq of each good medicines claim as its writer last wrote it
    monkeypatch: pytest.MonkeyPatch

    @property
    def folder(self) -> Path:
        return part_folder(self.share, PART)

    def bytes_of(self, computer: str, part: str = PART) -> bytes:
        return (part_folder(self.share, part) / f"{computer}.lease").read_bytes()

    def put(self, name: str, data: bytes) -> str:
        (self.folder / name).write_bytes(data)
        return name

    def claim_of(self, computer: str) -> Claim:
        return next(c for c in self.alpha.claims(PART) if c.computer == computer)

    def restart_reader(self) -> None:
        # A new process of the same installation: same id, same state directory.
        self.reader = Lease(
            self.share, "reader", name="Reader", clock=self.clock, state_dir=self.tmp / "state"
        )


@pytest.fixture
def scene(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Scene:
    clock = FakeClock()
    share = make_share(tmp_path / "sync", "alpha")
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    bravo = Lease(share, "bravo", name="Bravo", clock=clock)
    # alpha was last used long ago, bravo now: bravo keeps medicines; bravo takes invoices.
    alpha.renew(PART, active=T0 - 1000)
    alpha.renew("invoices")
    old_alpha = (part_folder(share, PART) / "alpha.lease").read_bytes()
    clock.advance(10)
    alpha.renew(PART, active=T0 - 1000)
    bravo.renew(PART)
    bravo.renew("invoices", take=True)
    seqs = {c.computer: c.seq for c in bravo.claims(PART)}
    assert seqs["alpha"] > codec.decode(share.unseal(relpath(PART, "alpha.lease"), old_alpha)).seq
    reader = Lease(share, "reader", name="Reader", clock=clock, state_dir=tmp_path / "state")
    assert reader.look(PART).computer == "bravo"
    assert reader.problems(PART) == []
    return Scene(tmp_path, share, clock, alpha, bravo, reader, old_alpha, seqs, monkeypatch)


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """Turn a read that blocks (a FIFO opened without O_NONBLOCK) into a failure, not a hang."""

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError("reading the part's folder blocked")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- building hostile files ------------------------------------------------------------------


def flipped(data: bytes, index: int, bit: int = 0x01) -> bytes:
    out = bytearray(data)
    out[index] ^= bit
    return bytes(out)


def zed_row(s: Scene) -> list[Any]:
    """A claim that would be valid in zed.lease: alpha's claim under zed's id."""
    return row_of(dataclasses.replace(s.claim_of("alpha"), computer="zed"))


def bad_field(index: int, value: Any) -> Callable[[Scene], str]:
    """zed.lease sealed with the real key, valid except for one field of its plaintext."""

    def place(s: Scene) -> str:
        row = zed_row(s)
        row[index] = value
        return s.put(BAD, seal_row(s.share, PART, BAD, row))

    return place


def on_open(s: Scene, name: str, before: Callable[[Path], None]) -> None:
    """Run `before` on `name` when the folder reader opens it: a change after listing."""
    real_open = os.open

    def patched(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(os.sep + name):
            before(Path(path))
        return real_open(path, flags, *args, **kwargs)

    # The folder reader calls os.open (folder.os is the os module itself): only opens of `name`
    # are changed.
    s.monkeypatch.setattr(os, "open", patched)


def place_vanishing(s: Scene) -> str:
    s.put(BAD, s.bytes_of("alpha"))
    real_open = os.open

    def patched(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(os.sep + BAD):
            p = Path(path)
            data = p.read_bytes()
            p.unlink()
            try:  # back after the failed open, so every read lists it (a sync tool rewriting)
                return real_open(path, flags, *args, **kwargs)
            finally:
                p.write_bytes(data)
        return real_open(path, flags, *args, **kwargs)

    s.monkeypatch.setattr(os, "open", patched)
    return BAD


def place_unreadable(s: Scene) -> str:
    s.put(BAD, s.bytes_of("alpha"))
    if os.geteuid() != 0:
        (s.folder / BAD).chmod(0)
        return BAD
    # Root reads a mode-000 file anyway (CI runs as root): simulate EACCES at open instead.
    real_open = os.open

    def patched(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(os.sep + BAD):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    s.monkeypatch.setattr(os, "open", patched)
    return BAD


def place_fifo_after_listing(s: Scene) -> str:
    s.put(BAD, b"placeholder")

    def to_fifo(path: Path) -> None:
        if path.is_file():
            path.unlink()
            os.mkfifo(path)

    on_open(s, BAD, to_fifo)
    return BAD


def place_link_after_listing(s: Scene) -> str:
    s.put(BAD, s.bytes_of("alpha"))

    def to_link(path: Path) -> None:
        if not path.is_symlink():
            path.unlink()
            path.symlink_to("alpha.lease")

    on_open(s, BAD, to_link)
    return BAD


def place_stale(s: Scene) -> str:
    # A sync tool restores an older version of alpha's claim, after the reader read the newer.
    return s.put("alpha.lease", s.old_alpha)


def place_stale_after_restart(s: Scene) -> str:
    s.put("alpha.lease", s.old_alpha)
    s.restart_reader()
    assert s.reader.state_problem is None
    return "alpha.lease"


def place_other_key(s: Scene) -> str:
    other = make_share(s.tmp / "elsewhere", "alpha")
    claim = dataclasses.replace(s.claim_of("alpha"), computer="zed")
    return s.put(BAD, seal_row(other, PART, BAD, row_of(claim)))


def place_other_part(s: Scene) -> str:
    return s.put(BAD, s.bytes_of("alpha", "invoices"))


def place_hard_link(s: Scene) -> str:
    os.link(s.folder / "alpha.lease", s.folder / BAD)
    return BAD


def place_symlink(target: str) -> Callable[[Scene], str]:
    def place(s: Scene) -> str:
        (s.folder / BAD).symlink_to(target)
        return BAD

    return place


def place_dir(s: Scene) -> str:
    (s.folder / BAD).mkdir()
    return BAD


def place_fifo(s: Scene) -> str:
    os.mkfifo(s.folder / BAD)
    return BAD


def put_bytes(name: str, make: Callable[[Scene], bytes]) -> Callable[[Scene], str]:
    return lambda s: s.put(name, make(s))


def alpha_bytes(s: Scene) -> bytes:
    return s.bytes_of("alpha")


def good(s: Scene) -> bytes:
    """A sealed claim that reads at zed.lease, to damage one part of it."""
    return seal_row(s.share, PART, BAD, zed_row(s))


@dataclass(frozen=True)
class Kind:
    id: str
    place: Callable[[Scene], str]  # puts the hostile file in place; returns its file name
    words: tuple[str, ...]  # each must appear in the reason given for that file
    fresh: bool = True  # a Lease that never read the folder must also report it


def _rand(seed: int, n: int) -> bytes:
    return random.Random(seed).randbytes(n)


KINDS = [
    Kind("empty", put_bytes(BAD, lambda s: b""), ("empty",)),
    Kind("truncated_in_header", put_bytes(BAD, lambda s: good(s)[:3]), ("truncated",)),
    Kind(
        "truncated_before_tag",
        put_bytes(BAD, lambda s: good(s)[: HEADER_SIZE + NONCE_SIZE + TAG_SIZE - 1]),
        ("truncated",),
    ),
    Kind("truncated_half", put_bytes(BAD, lambda s: good(s)[: len(good(s)) // 2]), ("damaged",)),
    Kind("truncated_last_byte", put_bytes(BAD, lambda s: good(s)[:-1]), ("damaged",)),
    Kind("random_bytes", put_bytes(BAD, lambda s: _rand(1, 300)), ("not a sioul claim",)),
    Kind(
        "random_after_our_header",
        put_bytes(BAD, lambda s: good(s)[:HEADER_SIZE] + _rand(2, 200)),
        ("damaged",),
    ),
    Kind("random_4096", put_bytes(BAD, lambda s: b"x" + _rand(3, 4095)), ("not a sioul claim",)),
    Kind("flipped_magic", put_bytes(BAD, lambda s: flipped(good(s), 0)), ("not a sioul claim",)),
    Kind(
        "flipped_version_to_0",
        put_bytes(BAD, lambda s: flipped(good(s), 4, 0x01)),
        ("unknown claim format",),
    ),
    Kind(
        "flipped_key_id",
        put_bytes(BAD, lambda s: flipped(good(s), HEADER_SIZE - 1)),
        ("another key",),
    ),
    Kind(
        "flipped_nonce", put_bytes(BAD, lambda s: flipped(good(s), HEADER_SIZE + 3)), ("damaged",)
    ),
    Kind(
        "flipped_ciphertext",
        put_bytes(BAD, lambda s: flipped(good(s), HEADER_SIZE + NONCE_SIZE + 5, 0x80)),
        ("damaged",),
    ),
    Kind("flipped_tag", put_bytes(BAD, lambda s: flipped(good(s), -1)), ("damaged",)),
    Kind("wrong_key", place_other_key, ("another key",)),
    Kind("copied_from_other_name", put_bytes(BAD, alpha_bytes), ("copied from another name",)),
    Kind(
        "copied_onto_readers_name",
        put_bytes("reader.lease", lambda s: s.bytes_of("bravo")),
        ("copied from another name", "bravo.lease"),
    ),
    Kind("copied_from_other_part", place_other_part, ("copied from another part", "invoices")),
    Kind("hard_link_to_good_claim", place_hard_link, ("copied from another name",)),
    Kind("huge_4097", put_bytes(BAD, lambda s: b"\0" * 4097), ("too large",)),
    Kind("huge_1mb", put_bytes(BAD, lambda s: good(s) * 5000), ("too large",)),
    Kind("symlink_to_good_claim", place_symlink("alpha.lease"), ("link",)),
    Kind("symlink_dangling", place_symlink("nowhere.lease"), ("link",)),
    Kind("symlink_to_folder", place_symlink("."), ("link",)),
    Kind("folder_named_x_lease", place_dir, ("folder",)),
    Kind("fifo_named_x_lease", place_fifo, ("not a regular file",)),
    Kind("fifo_swapped_in_after_listing", place_fifo_after_listing, ("not a regular file",)),
    Kind("link_swapped_in_after_listing", place_link_after_listing, ("link",)),
    Kind(
        "conflict_syncthing",
        put_bytes("alpha.sync-conflict-20250615-101112-ABCDEF1.lease", alpha_bytes),
        ("conflicted", "syncthing"),
    ),
    Kind(
        "conflict_dropbox",
        put_bytes("alpha (Anna's conflicted copy 2025-06-15).lease", alpha_bytes),
        ("conflicted",),
    ),
    Kind(
        "conflict_nextcloud",
        put_bytes("alpha (conflicted copy anna 2025-06-15 101112).lease", alpha_bytes),
        ("conflicted",),
    ),
    Kind(
        "conflict_onedrive",
        put_bytes("alpha-DESKTOP-7K3QF2A.lease", alpha_bytes),
        ("conflicted", "onedrive"),
    ),
    Kind(
        "conflict_dropbox_case",
        put_bytes("alpha (Case Conflict).lease", alpha_bytes),
        ("case conflict", "dropbox"),
    ),
    Kind(
        "conflict_owncloud_old_style",
        put_bytes("alpha_conflict-20250615-101112.lease", alpha_bytes),
        ("conflicted", "owncloud"),
    ),
    Kind("conflict_icloud", put_bytes("alpha 2.lease", alpha_bytes), ("conflicted", "icloud")),
    Kind("our_temporary", put_bytes(".~alpha.1a2b3c4d.tmp", alpha_bytes), ("temporary",)),
    Kind(
        "syncthing_temporary_dot",
        put_bytes(".syncthing.alpha.lease.tmp", alpha_bytes),
        ("syncthing", "syncing"),
    ),
    Kind(
        "syncthing_temporary_tilde",
        put_bytes("~syncthing~alpha.lease.tmp", alpha_bytes),
        ("syncthing", "syncing"),
    ),
    Kind(
        "nextcloud_temporary",
        put_bytes(".alpha.lease.~5f3e2a", alpha_bytes),
        ("nextcloud", "syncing"),
    ),
    Kind(
        "icloud_placeholder", put_bytes(".alpha.lease.icloud", lambda s: b"bplist00"), ("icloud",)
    ),
    Kind("partial_download", put_bytes("alpha.lease.part", alpha_bytes), ("partial",)),
    Kind("upper_case_name", put_bytes("ALPHA.lease", alpha_bytes), ("not a claim",)),
    Kind("id_too_long", put_bytes("a" * 64 + ".lease", alpha_bytes), ("not a claim",)),
    Kind("system_file", put_bytes(".DS_Store", lambda s: b"\0\0\0\1Bud1"), ("system file",)),
    Kind(
        "newer_claim_version",
        put_bytes(BAD, lambda s: flipped(good(s), 4, 0x02)),
        ("newer version",),
    ),
    Kind(
        "unknown_format_byte",
        put_bytes(BAD, lambda s: good(s)[:4] + b"\0" + good(s)[5:]),
        ("unknown claim format",),
    ),
    Kind("wrong_magic", put_bytes(BAD, lambda s: b"SIOX" + good(s)[4:]), ("not a sioul claim",)),
    # Sealed with the real key for zed.lease; only the named field is wrong.
    Kind("seq_negative", bad_field(3, -1), ("seq", "out of range")),
    Kind("seq_a_string", bad_field(3, "12"), ("seq", "whole number")),
    Kind("seq_a_float", bad_field(3, 12.5), ("seq", "whole number")),
    Kind("seq_over_int64", bad_field(3, 2**63), ("seq", "out of range")),
    Kind("since_a_bool", bad_field(4, True), ("since", "whole number")),
    Kind("renewed_beyond_range", bad_field(5, 2**40), ("renewed", "out of range")),
    Kind("active_negative", bad_field(6, -5), ("active", "out of range")),
    Kind("taken_a_string", bad_field(7, "yesterday"), ("taken", "whole number")),
    Kind("closed_an_int", bad_field(8, 1), ("closed",)),
    Kind("wrote_null", bad_field(9, None), ("wrote", "whole number")),
    Kind("sees_not_an_id", bad_field(10, "Bravo!"), ("sees",)),
    Kind("name_too_long", bad_field(2, "N" * 300), ("name",)),
    Kind("name_not_text", bad_field(2, 42), ("name",)),
    Kind("forgets_a_list", bad_field(11, [["alpha", 3]]), ("forgets",)),
    Kind("forgets_too_many", bad_field(11, {f"c{i}": 1 for i in range(33)}), ("forgets",)),
    Kind("forgets_negative_seq", bad_field(11, {"alpha": -1}), ("forgotten seq",)),
    Kind("forgets_bad_id", bad_field(11, {"Alpha!": 1}), ("forgotten computer",)),
    Kind("unknown_part", bad_field(1, "vitamins"), ("unknown part",)),
    Kind("part_not_its_folder", bad_field(1, "invoices"), ("does not match",)),
    Kind("computer_not_file_name", bad_field(0, "alpha"), ("does not match",)),
    Kind("computer_not_an_id", bad_field(0, "ZED"), ("computer",)),
    Kind("acting_an_int", bad_field(ACTING, 1), ("acting",)),
    Kind("acting_a_string", bad_field(ACTING, "yes"), ("acting",)),
    Kind(
        "fields_missing",
        lambda s: s.put(BAD, seal_row(s.share, PART, BAD, zed_row(s)[:11])),
        ("missing",),
    ),
    Kind(
        "object_not_array",
        lambda s: s.put(BAD, seal_row(s.share, PART, BAD, {"computer": "zed"})),
        ("not valid",),
    ),
    Kind(
        "plaintext_not_json",
        lambda s: s.put(BAD, seal_text(s.share, PART, BAD, "computer=zed")),
        ("not a claim",),
    ),
    Kind(
        "plaintext_not_utf8",
        lambda s: s.put(BAD, seal_text(s.share, PART, BAD, b'["zed\xff"]')),
        ("not a claim",),
    ),
    Kind("stale_copy", place_stale, ("stale copy",), fresh=False),
    Kind("stale_copy_after_restart", place_stale_after_restart, ("stale copy",), fresh=False),
    Kind("vanished_between_listing_and_reading", place_vanishing, ("vanished",)),
    Kind("unreadable_permissions", place_unreadable, ("permission denied",)),
]


def check(s: Scene, lease: Lease, name: str, words: tuple[str, ...]) -> None:
    """The good claims and keeper are intact, and `name` alone is reported, for `words`."""
    keeper = lease.look(PART)
    assert (keeper.computer, keeper.name) == ("bravo", "Bravo")
    for problems in (lease.problems(PART), None):
        if problems is None:
            # claims() reads again (the second time through the signature cache).
            claims = lease.claims(PART)
            assert {c.computer: c.seq for c in claims} == s.seqs
            problems = lease.problems(PART)
        assert [n for n, _ in problems] == [name], problems
        reason = problems[0][1].lower()
        for word in words:
            assert word in reason, (name, reason)


@pytest.mark.parametrize("kind", KINDS, ids=[k.id for k in KINDS])
def test_hostile_file_is_reported_and_hides_nothing(scene: Scene, kind: Kind) -> None:
    name = kind.place(scene)
    check(scene, scene.reader, name, kind.words)
    # alpha wrote one of the good claims and read the folder before.
    check(scene, scene.alpha, name, kind.words)
    if kind.fresh:
        fresh = Lease(scene.share, "fresh", name="Fresh", clock=scene.clock)
        check(scene, fresh, name, kind.words)


def test_kinds_are_many_and_distinct() -> None:
    assert len(KINDS) >= 30
    assert len({k.id for k in KINDS}) == len(KINDS)


def test_field_builder_makes_a_valid_claim_when_nothing_is_changed(scene: Scene) -> None:
    # The control for the bad_field kinds: unchanged, the same row reads as zed's claim.
    scene.put(BAD, seal_row(scene.share, PART, BAD, zed_row(scene)))
    assert "zed" in {c.computer for c in scene.reader.claims(PART)}
    assert scene.reader.problems(PART) == []


def test_newer_version_may_append_fields(scene: Scene) -> None:
    row = [*zed_row(scene), "a field of a later version", {"x": 1}]
    scene.put(BAD, seal_row(scene.share, PART, BAD, row))
    assert "zed" in {c.computer for c in scene.reader.claims(PART)}
    assert scene.reader.problems(PART) == []


def test_stale_copy_is_ignored_not_adopted_by_state(scene: Scene) -> None:
    """After a stale copy was reported, a restart still remembers the newer seq."""
    newest = scene.seqs["alpha"]
    scene.put("alpha.lease", scene.old_alpha)
    scene.reader.look(PART)
    scene.restart_reader()
    claims = {c.computer: c for c in scene.reader.claims(PART)}
    assert claims["alpha"].seq == newest
    assert any("stale copy" in r for n, r in scene.reader.problems(PART) if n == "alpha.lease")


# -- found by the hostile-input review (issue: hostile input and faults) ----------------------


def test_thousands_of_damaged_files_cost_a_read_linear_work(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files holding the seal's key id and random bytes: each is reported damaged, and a read
    opens each once, plus a bounded number of tries to explain some of them (it was every
    damaged file against every name: 1000 files took 1.7 s, 10,000 took 80 s)."""
    header = good(scene)[:HEADER_SIZE]
    n = 1000
    for i in range(n):
        scene.put(f"j{i}.lease", header + _rand(i, 120))
    calls = 0
    real = Share.unseal

    def counted(self: Share, relpath: str, data: bytes) -> bytes:
        nonlocal calls
        calls += 1
        return real(self, relpath, data)

    monkeypatch.setattr(Share, "unseal", counted)
    fresh = Lease(scene.share, "fresh", name="Fresh", clock=scene.clock)
    assert fresh.look(PART).computer == "bravo"
    damaged = [name for name, why in fresh.problems(PART) if "damaged" in why]
    assert len(damaged) == n
    assert calls <= 2 * n + 16 * 256 * 2 + 10, calls
    calls = 0
    fresh.look(PART)  # the same bytes again: nothing is opened twice
    assert calls <= 10, calls


def test_a_part_folder_that_is_a_link_is_refused(scene: Scene, tmp_path: Path) -> None:
    """Sync tools carry links: `leases/invoices -> /etc` must be neither listed nor written."""
    elsewhere = tmp_path / "etc"
    elsewhere.mkdir()
    (elsewhere / "passwd").write_text("root:x:0:0")
    invoices = part_folder(scene.share, "invoices")
    for f in invoices.iterdir():
        f.unlink()
    invoices.rmdir()
    invoices.symlink_to(elsewhere)
    for lease in (scene.reader, Lease(scene.share, "fresh", name="Fresh", clock=scene.clock)):
        assert lease.claims("invoices") == [] or all(
            c.computer in ("alpha", "bravo") for c in lease.claims("invoices")
        )
        (problem,) = lease.problems("invoices")
        assert "leases/invoices is a link" in problem[1]
        with pytest.raises(SioulError, match="is a link"):
            lease.renew("invoices")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["passwd"]  # nothing written there
    assert scene.reader.look(PART).computer == "bravo"  # the other part reads as before


def test_a_name_with_escape_sequences_reaches_no_terminal(scene: Scene) -> None:
    place = bad_field(2, "\x1b]0;owned\x07\x1b[2JZed\r\n")
    place(scene)
    zed = next(c for c in scene.reader.claims(PART) if c.computer == "zed")
    assert zed.name.isprintable() and "owned" in zed.name and "Zed" in zed.name
    assert scene.reader.problems(PART) == []


def test_another_installation_with_this_id_stops_invoices_here(scene: Scene) -> None:
    """A copied configuration: two computers write one id's claims. Each would think it keeps
    invoices; the one that sees a claim of its id it did not write says so and does not act."""
    clock = scene.clock
    me = Lease(scene.share, "twin", name="Twin", clock=clock)
    for _ in range(3):
        me.renew("invoices", take=True)
        clock.advance(60)
    copy = Lease(scene.share, "twin", name="Twin's copy", clock=clock)
    copy.renew("invoices")
    k = me.renew("invoices")
    assert not k.acting and k.blocked is not None and "copied" in k.blocked
    assert any("another computer writes this computer's claims" in r
               for _, r in me.problems("invoices"))  # fmt: skip
