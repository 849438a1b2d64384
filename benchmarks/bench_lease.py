#!/usr/bin/env python3
"""Benchmark of the lease core: what one tick costs against the bare work it cannot avoid.

A *tick* is what the tray does every RENEW seconds: a real ``Lease.renew("medicines")`` then
``Lease.renew("invoices")`` on a real sharing folder (sealed claim files on this disk). It is timed
with N other computers' claims per part in the folder (N = 1, 10, 100, 1000), in two cases:

(a) unchanged: the others' claims are not rewritten between ticks;
(b) rewritten: every other claim is rewritten between ticks (a new seq, a new renewed, a new
    nonce, a size change), as in real life where every computer renews each minute. The rewrite
    happens outside the timed section.

Every other claim acknowledges its part's keeper (computer 0 took invoices; this computer keeps
medicines), as in a folder that has settled. (Until 2026-12 they acknowledged no tenure, so this
computer waited for all N of them at every tick: a state no settled folder stays in.)

The *baseline*, measured in the same run, interleaved with the ticks, is the least any
implementation has to do for a tick: list each part's folder (os.scandir), read every file in it
(os.open with O_NOATIME where there is one, os.read, os.close), open its seal (AES-GCM,
``Share.unseal``) and parse it (``codec.decode``); plus the two claim writes
(``files.write_atomic``: temporary, fsync, rename, folder fsync) of this computer's claim files as
they are, into the part's folder, timed alone. (Until 2026-12 they went into a folder of their own
holding one file: the same cost, measured, but not the same work.) Each tick is paired with a
baseline on the tick's own folder, after the same rewrite, in the same round, one just before the
other, in alternating order. (Until 2026-12-02 one baseline ran on a fourth copy of the files: the
baselines of four copies of one folder, in one run, came out up to 34% apart, and that difference
went into every ratio.) Figures are medians over the repeats (time.perf_counter), after a warm-up.

The tick is timed twice: with local state in memory (``state_dir=None``) and with a ``state_dir``
(what the tray passes: each renewal also rewrites the local state file, unsynced). A third timing
is the whole tray tick without Qt: the shipped loop (``tray.driver.Driver.tick``) over a Lease with
a ``state_dir``, which also builds the menu's View from the tick's snapshot, updates the notifier
and writes status.json when it changed. Each kind of tick has a folder of its own.

It also prints the bytes written per renewal, the largest claim file the writer can make against
the 512-byte limit, the cost of ``Share.open`` (default scrypt cost) and ``Share.unlock`` (with the
folder key alone, and with the cached derived keys as the tray starts), and the
number of key derivations (scrypt, HKDF, ...) and AES-GCM key set-ups that happen inside the timed
ticks (must be 0).

    python benchmarks/bench_lease.py            # full run (about 1 to 2 minutes)
    python benchmarks/bench_lease.py --quick    # a fast, rougher run
    python benchmarks/bench_lease.py --profile 1000   # cProfile of case (b) ticks at N=1000
    python benchmarks/bench_lease.py --instructions 300  # instructions per tick (valgrind)

This is a script, not a test: it asserts nothing and never fails on slow figures.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # measure this checkout, whatever the venv's editable install says

import sioul_tray  # noqa: E402
from sioul_tray.errors import SioulError  # noqa: E402
from sioul_tray.files import write_atomic  # noqa: E402
from sioul_tray.lease import (  # noqa: E402
    PARTS,
    Claim,
    Lease,
    codec,
)
from sioul_tray.share import Share  # noqa: E402
from sioul_tray.share import seal as seal_module  # noqa: E402
from sioul_tray.tray.driver import Driver  # noqa: E402

ME = "bench_here_a1b2"
PASSPHRASE = "correct horse battery staple"
SIZES = (1, 10, 100, 1000)
TARGET = 1.5
# The baseline reads as the tick does, without writing access times back (O_NOATIME, Linux): the
# least any implementation has to do (until 2026-12 it paid them, and the tick did too).
NOATIME = getattr(os, "O_NOATIME", 0)
SETTLE = 0.1  # seconds after rewriting 1000 computers' claims before a timed tick (see Others)
perf = time.perf_counter


# -- counting key derivations -------------------------------------------------------------------


class Counter:
    """Counts key derivations and AES-GCM key set-ups, wrapping the classes where they are used."""

    def __init__(self) -> None:
        self.derive = 0
        self.aead_keys = 0
        self.tick_derive = 0  # inside timed ticks
        self.tick_aead_keys = 0
        self.patched: list[str] = []

    def install(self) -> None:
        from cryptography.hazmat.primitives.ciphers import aead
        from cryptography.hazmat.primitives.kdf import (
            concatkdf,
            hkdf,
            kbkdf,
            pbkdf2,
            scrypt,
            x963kdf,
        )

        kdfs = [
            hkdf.HKDF, hkdf.HKDFExpand, scrypt.Scrypt, pbkdf2.PBKDF2HMAC,
            concatkdf.ConcatKDFHash, concatkdf.ConcatKDFHMAC, kbkdf.KBKDFHMAC, x963kdf.X963KDF,
        ]  # fmt: skip
        with contextlib.suppress(ImportError):
            from cryptography.hazmat.primitives.kdf import argon2

            kdfs.append(argon2.Argon2id)
        wrappers: dict[object, object] = {k: self._kdf(k) for k in kdfs}
        wrappers[aead.AESGCM] = self._aead(aead.AESGCM)
        modules = [hkdf, scrypt, pbkdf2, concatkdf, kbkdf, x963kdf, aead] + [
            m for name, m in list(sys.modules.items()) if name.startswith("sioul_tray") and m
        ]
        for module in modules:
            for attr, value in list(vars(module).items()):
                for original, wrapper in wrappers.items():
                    if value is original:
                        setattr(module, attr, wrapper)
                        self.patched.append(f"{module.__name__}.{attr}")

    def _kdf(self, cls: type) -> Callable[..., object]:
        counter = self

        class Counted:
            def __init__(self, *args: object, **kwargs: object) -> None:
                self._inner = cls(*args, **kwargs)

            def derive(self, key_material: bytes) -> bytes:
                counter.derive += 1
                return self._inner.derive(key_material)  # type: ignore[no-any-return]

            def derive_into(self, *args: object) -> object:
                counter.derive += 1
                return self._inner.derive_into(*args)

            def verify(self, key_material: bytes, expected: bytes) -> None:
                counter.derive += 1
                self._inner.verify(key_material, expected)

        Counted.__name__ = f"Counted{cls.__name__}"
        return Counted

    def _aead(self, cls: type) -> Callable[..., object]:
        counter = self

        def make(key: bytes) -> object:
            counter.aead_keys += 1
            return cls(key)

        return make


# -- the folder and the other computers ----------------------------------------------------------


def other_id(i: int) -> str:
    return f"computer_{i:04d}_x7k2"  # about the length of a real id ("annas_macbook_air_x7k2")


@dataclass
class Others:
    """The other computers' claims on each part, rewritten as their computers would."""

    n: int
    t0: int = field(default_factory=lambda: int(time.time()))
    seq: int = 0
    sizes: dict[str, int | None] = field(default_factory=dict)

    def write_all(self, share: Share) -> None:
        """Every other claim in `share` rewritten (temporary then rename, as a sync tool does).

        Then flushed (os.sync): the sync tool writes them over the minute between two ticks, and
        the kernel has written them out long before the next tick. Without this, the tick's own
        fsync would pay for writing out thousands of files that arrived all at once.
        """
        self.seq += 1
        now = int(time.time())
        for part in PARTS:
            folder = share.folder / "leases" / part
            folder.mkdir(parents=True, exist_ok=True)
            # Every computer acknowledges the keeper's claim (its tenure and seq), as real peers
            # do once the folder has settled: computer 0 keeps invoices (it took them), this
            # computer keeps medicines (its person is the latest active).
            if part == "invoices":
                keeper, tenure, seq = other_id(0), self.t0, self.t0 + self.seq
            else:
                mine = folder / f"{ME}.lease"
                seen = (
                    codec.decode(share.unseal(f"leases/{part}/{ME}.lease", mine.read_bytes()))
                    if mine.exists()
                    else None
                )
                keeper, tenure, seq = ME, seen.tenure if seen else None, seen.seq if seen else None
            for i in range(self.n):
                c = other_id(i)
                claim = Claim(
                    computer=c,
                    part=part,
                    name=f"Computer {i}",
                    seq=self.t0 + self.seq,
                    since=self.t0 - 86400,
                    # Heard late: a claim arrives some seconds after its computer wrote it.
                    renewed=now - 5 - i % 50,
                    active=now - 60 - i % 3600,
                    taken=self.t0 - 7200 if i == 0 and part == "invoices" else None,
                    closed=False,
                    wrote=1000 + i,
                    sees=keeper,
                    tenure=self.t0 + i,
                    sees_tenure=tenure if seq is not None else None,
                    sees_seq=seq if tenure is not None else None,
                )
                relpath = f"leases/{part}/{c}.lease"
                path = share.folder / relpath
                text = codec.padded(codec.encode(claim), self.sizes.get(str(path)))
                data = share.seal(relpath, text)
                self.sizes[str(path)] = len(data)
                write_atomic(path, data, sync=False)
        if hasattr(os, "sync"):
            os.sync()
        # ...and the disk has finished with them (a file system mounted with `discard` trims the
        # replaced files' blocks after the sync returns): what a tick meets a minute later.
        time.sleep(SETTLE * self.n / 1000)


def quick_master(root: Path) -> Share:
    """The seal every test folder copies, made at a low scrypt cost: for the modes that time no
    key derivation (the main run makes its own at the default cost, and times Share.open)."""
    (root / "seal").mkdir()
    return Share.create(root / "seal", PASSPHRASE, ME, cost=10)


def make_folder(root: Path, name: str, master: Share) -> Share:
    """A sharing folder sealed with the master's key (no key derivation to make it)."""
    folder = root / name
    folder.mkdir()
    shutil.copy2(master.folder / seal_module.SEAL_NAME, folder / seal_module.SEAL_NAME)
    return Share.unlock(folder, master.folder_key)


def baseline(share: Share, writes: list[tuple[Path, bytes]]) -> tuple[float, float]:
    """The bare work of a tick: list, read, open, parse every file; write the two claims."""
    t0 = perf()
    for part in PARTS:
        with os.scandir(share.folder / "leases" / part) as listing:
            for item in listing:
                fd = os.open(item.path, os.O_RDONLY | NOATIME)
                try:
                    data = os.read(fd, 4097)
                finally:
                    os.close(fd)
                codec.decode(share.unseal(f"leases/{part}/{item.name}", data))
    t1 = perf()
    for path, data in writes:
        write_atomic(path, data)
    t2 = perf()
    return t1 - t0, t2 - t1


class ClaimWrites:
    """Times the Lease's own claim writes (write_atomic as lease.py calls it) inside a tick."""

    total = 0.0

    @classmethod
    def install(cls) -> None:
        from sioul_tray.lease import lease as lease_module

        original = lease_module.write_atomic

        def write_atomic_timed(path: Path, data: bytes, *, sync: bool = True) -> None:
            t0 = perf()
            try:
                original(path, data, sync=sync)
            finally:
                cls.total += perf() - t0

        lease_module.write_atomic = write_atomic_timed  # type: ignore[assignment]


def tick(lease: Lease) -> float:
    t0 = perf()
    lease.renew("medicines")
    lease.renew("invoices")
    return perf() - t0


def tray_tick(driver: Driver) -> float:
    t0 = perf()
    driver.tick()
    return perf() - t0


def tick_of(lease: Lease) -> Callable[[], tuple[float, float]]:
    """A timed tick of `lease` and the time spent in its claim writes (`tick_split`)."""
    return lambda: tick_split(lambda: tick(lease))


def tick_split(run: Callable[[], float]) -> tuple[float, float]:
    """A tick's time, and the part of it spent in its two claim writes."""
    w0 = ClaimWrites.total
    total = run()
    return total, ClaimWrites.total - w0


class Present:
    """The person is at this computer (the presence source the driver asks)."""

    name = "bench"
    known = True

    def active(self, now: float) -> int:
        return int(now)


# -- measuring ----------------------------------------------------------------------------------


KINDS = ("tick", "state", "tray")  # state in memory; with a state_dir; the driver's whole tick


@dataclass
class Row:
    n: int
    case: str
    # Per kind ("tick", "state", "tray"): its times, the same minus its two claim writes, and the
    # baseline's read and write parts measured on that kind's own folder in the same round.
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    rest: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    read: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    write: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})

    def base(self, kind: str) -> list[float]:
        return [r + w for r, w in zip(self.read[kind], self.write[kind], strict=True)]

    def all(self, table: dict[str, list[float]]) -> list[float]:
        return [t for kind in KINDS for t in table[kind]]


def measure(
    leases: tuple[Lease, Lease],
    driver: Driver,
    others: Others,
    row: Row,
    repeats: int,
    counter: Counter,
) -> None:
    """Interleave the tick (state in memory), the tick (state_dir) and the tray's tick, each on
    its own folder, each paired with a baseline on that same folder in the same round.

    The three Leases have the same id and the same other claims, each in its own copy of the
    folder, so none sees another. The order of the kinds rotates at every repeat, and which of a
    pair goes first alternates (the second reads files the first has read once). The baseline
    reads the folder the tick reads, after the same rewrite: folders holding the same files read
    up to 34% apart (2026-12-02), which a baseline on a folder of its own added to the ratio.
    """
    plain, stateful = leases
    tray_lease: Lease = driver.lease  # type: ignore[assignment]
    lease_of = {"tick": plain, "state": stateful, "tray": tray_lease}
    run: dict[str, Callable[[], tuple[float, float]]] = {
        "tick": tick_of(plain),
        "state": tick_of(stateful),
        "tray": lambda: tick_split(lambda: tray_tick(driver)),
    }
    rewrite = row.case == "b"
    for _ in range(3):  # warm-up: the Lease has read the folder before, as in the running tray
        for kind in KINDS:
            if rewrite:
                others.write_all(lease_of[kind].share)
            run[kind]()
    for i in range(repeats):
        for kind in KINDS[i % 3 :] + KINDS[: i % 3]:
            share = lease_of[kind].share
            if rewrite:
                others.write_all(share)
            d, k = counter.derive, counter.aead_keys  # the baseline makes no key: Share's own
            (r, w), (total, writing) = paired_with_baseline(share, i, run[kind])
            counter.tick_derive += counter.derive - d
            counter.tick_aead_keys += counter.aead_keys - k
            row.read[kind].append(r)
            row.write[kind].append(w)
            row.times[kind].append(total)
            row.rest[kind].append(total - writing)


def paired_with_baseline(
    share: Share, i: int, run: Callable[[], tuple[float, float]]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The baseline on `share` and a tick on it (`run`), one just after the other, each after a
    full collection: the baseline first in even rounds `i`, second in odd ones. The baseline
    writes this computer's two claims as they are: the Lease then reads its own files unchanged.
    """
    writes = [
        (path, path.read_bytes())
        for path in (share.folder / "leases" / part / f"{ME}.lease" for part in PARTS)
    ]
    base = timing = (0.0, 0.0)
    for first in (i % 2 == 0, i % 2 == 1):
        gc.collect()
        if first:
            base = baseline(share, writes)
        else:
            timing = run()
    return base, timing


def wchar() -> int | None:
    try:
        with open("/proc/self/io") as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def bytes_per_renewal(lease: Lease, part: str) -> tuple[int, int | None, int | None]:
    """(claim file size, state file size, bytes the process wrote during one renewal)."""
    w0 = wchar()
    lease.renew(part)
    w1 = wchar()
    claim = (lease.share.folder / "leases" / part / f"{lease.computer}.lease").stat().st_size
    state = lease._state.stat().st_size if lease._state is not None else None
    return claim, state, None if w0 is None or w1 is None else w1 - w0


def largest_claim(root: Path, master: Share) -> dict[str, object]:
    """The largest claim file the writer makes: 63-char ids, a 64-byte name, forgets full."""
    result: dict[str, object] = {}
    # 1. By the codec alone: every field at its longest, forgets dropped oldest first until it
    #    fits, as Lease._write does.
    big = 2**63 - 1
    ids = [f"{i:02d}" + "z" * 61 for i in range(codec.MAX_FORGETS)]
    worst_name = '"' * codec.MAX_NAME_BYTES  # a quote is escaped in JSON: 2 bytes each
    assert codec.short_name(worst_name) == worst_name
    claim = Claim(
        computer="y" * 63, part=max(PARTS, key=len), name=worst_name, seq=big,
        since=codec.MAX_TIME, renewed=codec.MAX_TIME, active=codec.MAX_TIME,
        taken=codec.MAX_TIME, closed=False, wrote=big, sees="x" * 63,
        forgets={c: big for c in ids},
    )  # fmt: skip
    result["unbounded"] = len(codec.encode(claim).encode()) + seal_module.OVERHEAD
    forgets = dict(claim.forgets)
    text = codec.encode(claim)
    while not codec.fits(text) and forgets:
        del forgets[next(iter(forgets))]
        text = codec.encode(replace(claim, forgets=dict(forgets)))
    result["codec"] = len(text.encode()) + seal_module.OVERHEAD
    result["codec_forgets"] = len(forgets)
    none = replace(claim, forgets={})
    result["no_forgets"] = len(codec.encode(none).encode()) + seal_module.OVERHEAD
    # 2. Through a real Lease: 32 computers with 63-char ids and huge seqs declared gone.
    folder = root / "share-largest"
    folder.mkdir()
    shutil.copy2(master.folder / seal_module.SEAL_NAME, folder / seal_module.SEAL_NAME)
    share = Share.unlock(folder, master.folder_key)
    now = int(time.time())
    part = max(PARTS, key=len)
    (folder / "leases" / part).mkdir(parents=True)
    for c in ids:
        other = Claim(c, part, "x", big - 1, now, now, now, sees=c)
        rel = f"leases/{part}/{c}.lease"
        write_atomic(folder / rel, share.seal(rel, codec.encode(other).encode()), sync=False)
    me = "w" * 63
    lease = Lease(share, me, name=worst_name)
    lease.renew(part, take=True, wrote=big)
    refused = 0
    for c in ids:
        try:
            lease.forget(c)
        except SioulError:  # no room left: forget() refuses rather than drop a declaration
            refused += 1
    result["lease_refused"] = refused
    lease.renew(part, take=True, wrote=big)
    sizes = []
    for _ in range(3):  # the padding alternates the size by one byte
        lease.renew(part, take=True, wrote=big)
        sizes.append((folder / "leases" / part / f"{me}.lease").stat().st_size)
    mine = next(c for c in lease.claims(part) if c.computer == me)
    result["lease"] = max(sizes)
    result["lease_forgets"] = len(mine.forgets)
    return result


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def paired(ticks: list[float], bases: list[float]) -> float:
    """The median of tick / baseline over the rounds: robust to the load of a shared machine."""
    return statistics.median(t / b for t, b in zip(ticks, bases, strict=True))


def timed(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = perf()
        fn()
        samples.append(perf() - t0)
    return statistics.median(samples)


@contextlib.contextmanager
def workdir(parent: str | None, keep: bool) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="sioul-bench-", dir=parent))
    try:
        yield path
    finally:
        if not keep:
            shutil.rmtree(path, ignore_errors=True)


def filesystem(path: Path) -> str:
    """The mount's file system type (Linux), for the record."""
    best = ("", "?")
    try:
        with open("/proc/mounts") as f:
            for line in f:
                fields = line.split()
                mount, kind = fields[1], fields[2]
                if str(path).startswith(mount) and len(mount) > len(best[0]):
                    best = (mount, kind)
    except OSError:
        pass
    return best[1]


def breakdown(lease: Lease, others: Others, repeats: int) -> tuple[float, list[tuple[str, float]]]:
    """Where a case (b) tick's time goes: inclusive time of the Lease's steps, per tick."""
    from sioul_tray.lease import lease as lease_module
    from sioul_tray.lease import machine as machine_module

    draft = machine_module._Draft  # a step's working copy of the knowledge
    acc: dict[str, float] = {}
    steps = [
        (Lease, "_read", "_read: list, read, unseal, decode, hear"),
        (lease_module, "read_folder", "  read_folder: list, open, read, close"),
        (Lease, "_open_entry", "  _open_entry: unseal + decode + checks"),
        (draft, "hear", "  step(Heard): seq, heard times, flow"),
        (draft, "renew", "step(Renew): the claim, its acknowledgement"),
        (machine_module._Reads, "view", "  view: claims as heard here"),
        (machine_module, "choose", "  choose"),
        (Lease, "_write", "Lease._write: encode, save, seal, write"),
        (Share, "seal", "  Share.seal"),
        (lease_module, "write_atomic", "  write_atomic (claim)"),
        (Lease, "_save", "  _save (state file)"),
        (draft, "judge", "step(Renew): the verdict: settled, others_heard, agreed"),
        (machine_module.Knowledge, "save_by", "each step: what to save (memory against saved)"),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in steps]

    def timed_step(fn: Callable[..., object], label: str) -> Callable[..., object]:
        def step(*args: object, **kwargs: object) -> object:
            if not ticking:  # the simulated other computers seal too: not counted
                return fn(*args, **kwargs)
            t0 = perf()
            try:
                return fn(*args, **kwargs)
            finally:
                acc[label] = acc.get(label, 0.0) + perf() - t0

        return step

    total = 0.0
    ticking = False
    try:
        for (owner, name, label), (_, _, fn) in zip(steps, originals, strict=True):
            setattr(owner, name, timed_step(fn, label))
        for _ in range(repeats):
            others.write_all(lease.share)
            gc.collect()
            ticking = True
            total += tick(lease)
            ticking = False
    finally:
        for owner, name, fn in originals:
            setattr(owner, name, fn)
    rows = [(label, acc.get(label, 0.0) / repeats) for _, _, label in steps]
    read = acc.get(steps[0][2], 0.0) - sum(acc.get(label, 0.0) for _, _, label in steps[1:4])
    rows.insert(4, ("  the rest: merging copies, bookkeeping", read / repeats))
    return total / repeats, rows


def profile(n: int, repeats: int, with_state: bool, parent: str | None) -> None:
    import cProfile
    import pstats

    with workdir(parent, keep=False) as root:
        master = quick_master(root)
        share = make_folder(root, f"share-{n}", master)
        others = Others(n)
        state = root / "state" if with_state else None
        lease = Lease(share, ME, name="Bench here", state_dir=state)
        for _ in range(3):
            others.write_all(share)
            tick(lease)
        mean, rows = breakdown(lease, others, repeats)
        print(
            f"Case (b) tick at N={n}{' with a state_dir' if with_state else ''}: "
            f"{mean * 1000:.2f} ms (mean of {repeats}, timers included)"
        )
        for label, seconds in rows:
            print(f"  {label:<62} {seconds * 1000:7.2f} ms {seconds / mean:6.1%}")
        print()
        prof = cProfile.Profile()
        for _ in range(repeats):
            others.write_all(share)
            prof.enable()
            tick(lease)
            prof.disable()
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(20)


def folders(n: int, repeats: int, parent: str | None) -> None:
    """The same tick on four copies of one folder: how far apart their baselines read.

    Why each tick is paired with a baseline on its own folder: a Lease with a state_dir on each
    copy, and the baseline on each copy, case (b), in rounds as `measure` makes them. Each tick's
    ratio is printed against its own folder's baseline and against the last folder's.
    """
    names = ("A", "B", "C", "D")
    with workdir(parent, keep=False) as root:
        master = quick_master(root)
        others = Others(n)
        leases = {
            name: Lease(
                make_folder(root, name, master), ME, name="Bench here", state_dir=root / f"{name}-s"
            )
            for name in names
        }
        for _ in range(3):
            for lease in leases.values():
                others.write_all(lease.share)
                tick(lease)
        bases: dict[str, list[float]] = {name: [] for name in names}
        ticks: dict[str, list[float]] = {name: [] for name in names}
        for i in range(repeats):
            for name in names[i % 4 :] + names[: i % 4]:
                lease = leases[name]
                others.write_all(lease.share)
                base, (total, _) = paired_with_baseline(lease.share, i, tick_of(lease))
                bases[name].append(sum(base))
                ticks[name].append(total)
    last = names[-1]
    print(f"The same tick (a state_dir) on four copies of one folder, case (b), N={n}:")
    print(f"medians over {repeats} rounds; ratios paired by round, as in the main table")
    against = f"ratio, {last}'s baseline"
    print(f"{'folder':>6} {'baseline':>9} {'tick':>8} {'ratio, own baseline':>20} {against:>20}")
    for name in names:
        print(
            f"{name:>6} {median_ms(bases[name]):>9.2f} {median_ms(ticks[name]):>8.2f} "
            f"{paired(ticks[name], bases[name]):>20.3f} {paired(ticks[name], bases[last]):>20.3f}"
        )
    medians = [median_ms(bases[name]) for name in names]
    spread = max(medians) / min(medians)
    print(f"the slowest folder's baseline is {spread:.3f} x the fastest's")


INSTRUCTION_KINDS = ("base", "tick", "state", "tray")
INSTRUCTION_ROUNDS = 4


def count_child(kind: str, n: int, parent: str | None) -> None:
    """Run case (b) rounds of one kind under callgrind, counting only inside each timed call.

    The parent starts this under ``valgrind --tool=callgrind --instr-atstart=no``; each round
    switches the counting on (``callgrind_control -i on``) after the rewrite and off after the call.
    """
    with workdir(parent, keep=False) as root:
        master = quick_master(root)
        share = make_folder(root, f"{kind}-{n}", master)
        others = Others(n)
        others.write_all(share)
        lease = Lease(
            share, ME, name="Bench here", state_dir=None if kind == "tick" else root / "state"
        )
        driver = Driver(lease, ME, Present(), root / "tray")
        driver.running = True
        tick(lease)
        writes = [
            (path, path.read_bytes())
            for path in (share.folder / "leases" / part / f"{ME}.lease" for part in PARTS)
        ]
        run: Callable[[], object] = {
            "base": lambda: baseline(share, writes),
            "tick": lambda: tick(lease),
            "state": lambda: tick(lease),
            "tray": lambda: tray_tick(driver),
        }[kind]
        counting = ["callgrind_control", "-i", "on", str(os.getpid())]
        for i in range(3 + INSTRUCTION_ROUNDS):  # three warm-up rounds first, as when timed
            others.write_all(share)
            gc.collect()
            if i >= 3:
                subprocess.run(counting, check=True, capture_output=True)
            run()
            if i >= 3:
                subprocess.run([*counting[:2], "off", counting[3]], check=True, capture_output=True)


def instructions(n: int, parent: str | None) -> None:
    """Instructions of a case (b) tick against the baseline's, counted by callgrind.

    The count does not depend on how busy the machine is or on the CPU's speed: two runs of the
    same code agree within 0.1%, so a change to the code shows even when timings spread by 30%.
    It leaves out what time also pays: the kernel's part, the disk, and the cache misses of a
    larger working set. A figure beside the timed one, not instead of it.
    """
    valgrind, control = shutil.which("valgrind"), shutil.which("callgrind_control")
    if valgrind is None or control is None:
        print("--instructions needs valgrind and callgrind_control (apt install valgrind)")
        return
    counts: dict[str, int] = {}
    for kind in INSTRUCTION_KINDS:
        with tempfile.TemporaryDirectory(prefix="sioul-callgrind-") as out_dir:
            out = Path(out_dir) / "callgrind.out"
            command = [valgrind, "--tool=callgrind", "--instr-atstart=no",
                       f"--callgrind-out-file={out}", sys.executable, __file__,
                       "--count-child", kind, "--instructions", str(n)]  # fmt: skip
            if parent:
                command += ["--dir", parent]
            subprocess.run(command, check=True, capture_output=True,
                           env={**os.environ, "PYTHONHASHSEED": "0"})  # fmt: skip
            totals = [line for line in out.read_text().splitlines() if line.startswith("totals:")]
            counts[kind] = int(totals[0].split()[1]) // INSTRUCTION_ROUNDS
    base = counts["base"]
    print(f"Instructions per case (b) tick at N={n} (callgrind, user space, {INSTRUCTION_ROUNDS} "
          "rounds each after 3 warm-up rounds):")  # fmt: skip
    for kind in INSTRUCTION_KINDS:
        print(f"  {kind:<6} {counts[kind] / 1e6:8.1f} M   ratio {counts[kind] / base:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats: a fast, rougher run")
    ap.add_argument("--dir", help="make the test folders here (default: the system temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the test folders")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="other computers per part")
    ap.add_argument("--profile", type=int, metavar="N", help="profile case (b) ticks at N instead")
    ap.add_argument("--state", action="store_true", help="with --profile: use a state_dir")
    ap.add_argument(
        "--instructions",
        type=int,
        metavar="N",
        help="count case (b) instructions at N under callgrind instead (needs valgrind)",
    )
    ap.add_argument(
        "--folders",
        type=int,
        metavar="N",
        help="time the same tick on four copies of one folder at N instead (see measure)",
    )
    ap.add_argument("--count-child", choices=INSTRUCTION_KINDS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.count_child:
        count_child(args.count_child, args.instructions, args.dir)
        return
    if args.instructions:
        instructions(args.instructions, args.dir)
        return
    if args.folders:
        folders(args.folders, 9 if args.quick else 31, args.dir)
        return
    if args.profile:
        profile(args.profile, 10 if args.quick else 30, args.state, args.dir)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.quick:
        repeats = {1: 9, 10: 9, 100: 7, 1000: 5}
        open_repeats, unlock_repeats = 1, 50
    else:
        repeats = {1: 31, 10: 31, 100: 31, 1000: 31}
        open_repeats, unlock_repeats = 3, 500
    started = perf()
    counter = Counter()
    counter.install()
    ClaimWrites.install()

    with workdir(args.dir, args.keep) as root:
        print("sioul-tray lease benchmark")
        print(
            f"  sioul_tray {sioul_tray.__version__} from {Path(sioul_tray.__file__).parent.parent}"
        )
        print(
            f"  python {platform.python_version()} ({platform.python_implementation()}), "
            f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs (nproc "
            f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'})"
        )
        try:
            import cryptography
            from cryptography.hazmat.backends.openssl import backend

            print(f"  cryptography {cryptography.__version__}, {backend.openssl_version_text()}")
        except Exception:
            pass
        print(f"  folders in {root} ({filesystem(root)}){', quick run' if args.quick else ''}")
        print()

        # Share.open / unlock, and the seal every test folder copies.
        d0 = counter.derive
        (root / "seal").mkdir()
        master = Share.create(root / "seal", PASSPHRASE, ME)  # default scrypt cost
        d1 = counter.derive
        open_s = timed(lambda: Share.open(root / "seal", PASSPHRASE), open_repeats)
        d2 = counter.derive
        unlock_s = timed(lambda: Share.unlock(root / "seal", master.folder_key), unlock_repeats)
        d3 = counter.derive
        # As the tray starts: the keys derived from the folder key are cached beside it.
        cached_s = timed(
            lambda: Share.unlock(root / "seal", master.folder_key, master.derived), unlock_repeats
        )
        d4 = counter.derive

        rows: list[Row] = []
        bytes_rows = []
        for n in sizes:
            others = Others(n)
            shares = (
                make_folder(root, f"share-{n}", master),
                make_folder(root, f"state-{n}", master),
                make_folder(root, f"tray-{n}", master),
            )
            for share in shares:
                others.write_all(share)
            plain = Lease(shares[0], ME, name="Bench here")
            stateful = Lease(shares[1], ME, name="Bench here", state_dir=root / f"state-dir-{n}")
            tray_dir = root / f"tray-dir-{n}"
            driver = Driver(
                Lease(shares[2], ME, name="Bench here", state_dir=tray_dir),
                ME,
                Present(),
                tray_dir,
            )
            driver.running = True  # started: its first tick is the warm-up's
            for case in ("a", "b"):
                row = Row(n, case)
                rows.append(row)
                measure((plain, stateful), driver, others, row, repeats.get(n, 5), counter)
            for lease in (plain, stateful):
                claim_size, state_size, written = bytes_per_renewal(lease, "invoices")
                bytes_rows.append((n, lease is stateful, claim_size, state_size, written))
            for share in shares:
                shutil.rmtree(share.folder, ignore_errors=True)
        largest = largest_claim(root, master)

    ticks = sum(len(r.times[kind]) for r in rows for kind in KINDS)
    print("One tick = renew(medicines) + renew(invoices); N = other computers' claims per part.")
    print(
        "baseline = list + read + unseal + decode every file (read) + the two claim writes (write)."
    )
    print("(a) others unchanged between ticks; (b) every other claim rewritten between ticks.")
    print("Times: medians in milliseconds. ratio: the median over the rounds of tick / baseline,")
    print("the baseline measured on the tick's own folder in the same round, just before or after")
    print("it (target <= 1.5 at N=100 and 1000). read, write, baseline: over all three folders.")
    print()
    head = (
        f"{'N':>5} {'case':>4} {'read':>8} {'write':>8} {'baseline':>9} "
        f"{'tick':>8} {'ratio':>6}   {'tick+state':>10} {'ratio':>6}   {'tray':>8} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        cells = "   ".join(
            f"{median_ms(r.times[kind]):>{width}.2f} {paired(r.times[kind], r.base(kind)):>6.2f}"
            for kind, width in zip(KINDS, (8, 10, 8), strict=True)
        )
        print(
            f"{r.n:>5} {r.case:>4} {median_ms(r.all(r.read)):>8.2f} "
            f"{median_ms(r.all(r.write)):>8.2f} "
            f"{median_ms([t for kind in KINDS for t in r.base(kind)]):>9.2f} {cells}"
        )
    print()
    print(
        "tick = state in memory (state_dir=None); tick+state = with a state_dir, as the tray runs;"
    )
    print("tray = the whole tray tick without Qt (Driver.tick: the core, the View, status.json).")
    print()
    print("The same without the two claim writes (temporary, fsync, rename, folder fsync), whose")
    print("time is the disk's and varies most on a shared machine: tick minus the time inside its")
    print("own write_atomic calls, against the baseline's read part.")
    print()
    head = (
        f"{'N':>5} {'case':>4} {'read':>8} {'tick-w':>8} {'ratio':>6}   "
        f"{'tick+state-w':>12} {'ratio':>6}   {'tray-w':>8} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        cells = "   ".join(
            f"{median_ms(r.rest[kind]):>{width}.2f} {paired(r.rest[kind], r.read[kind]):>6.2f}"
            for kind, width in zip(KINDS, (8, 12, 8), strict=True)
        )
        print(f"{r.n:>5} {r.case:>4} {median_ms(r.all(r.read)):>8.2f} {cells}")
    print()
    print("Bytes written per renewal (one part):")
    head = (
        f"{'N':>5} {'state_dir':>9} {'claim file':>10} {'state file':>10} {'written (wchar)':>16}"
    )
    print(head)
    print("-" * len(head))
    for n, state, claim_size, state_size, written in bytes_rows:
        print(
            f"{n:>5} {'yes' if state else 'no':>9} {claim_size:>10} "
            f"{'-' if state_size is None else state_size:>10} "
            f"{'?' if written is None else written:>16}"
        )
    print()
    print(f"Largest claim file (limit {codec.MAX_FILE} bytes):")
    print(f"  every field at its longest, no forgets:          {largest['no_forgets']} bytes")
    print(
        f"  with {codec.MAX_FORGETS} forgets, if nothing were dropped:        "
        f"{largest['unbounded']} bytes"
    )
    print(
        f"  as the writer makes it (oldest forgets dropped): {largest['codec']} bytes, "
        f"{largest['codec_forgets']} forgets kept (+1 byte of padding at most)"
    )
    print(
        f"  written by a real Lease (63-char ids, 64-byte name of quotes, 32 forgotten): "
        f"{largest['lease']} bytes, {largest['lease_forgets']} forgets kept, "
        f"{largest['lease_refused']} more refused by forget()"
    )
    print()
    print(
        f"Share.open (scrypt n=2^{seal_module.DEFAULT_COST}, r=8): "
        f"{open_s * 1000:.0f} ms (median of {open_repeats}), "
        f"{(d2 - d1) / open_repeats:g} key derivations each (scrypt + HKDF)"
    )
    print(
        f"Share.unlock (cached folder key): {unlock_s * 1e6:.0f} us "
        f"(median of {unlock_repeats}), {(d3 - d2) / unlock_repeats:g} key derivations each (HKDF)"
    )
    print(
        f"Share.unlock (cached folder key and derived keys, as the tray starts): "
        f"{cached_s * 1e6:.0f} us, {(d4 - d3) / unlock_repeats:g} key derivations each"
    )
    print()
    print(
        f"Key derivations inside the {ticks} timed ticks: {counter.tick_derive}; "
        f"AES-GCM key set-ups inside them: {counter.tick_aead_keys}"
    )
    print(
        f"  (the counter wraps {len(counter.patched)} names of cryptography's KDF and AESGCM "
        f"classes; it saw {d1 - d0} derivations in Share.create, {d2 - d1} in "
        f"{open_repeats} Share.open, {d3 - d2} in {unlock_repeats} Share.unlock)"
    )
    print(f"Total run time: {perf() - started:.0f} s")


if __name__ == "__main__":
    main()
