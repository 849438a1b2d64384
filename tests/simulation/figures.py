"""Figures per scenario, pooled over seeds, and the table that prints them."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from sioul_tray.lease import PARTS

from .world import Measures, Span

DAY = 86400.0


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (nearest rank), None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class Figures:
    """One scenario's measures pooled over its runs."""

    scenario: str
    runs: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    calls: int = 0
    double: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    spans: list[tuple[int, Span]] = field(default_factory=list)  # (seed, span)
    unattended: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    longest_unattended: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    handover: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PARTS})
    unfinished: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    flaps: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))
    notes: int = 0
    closes: int = 0
    closes_out: int = 0
    numbered: int = 0
    duplicates: int = 0
    gated: int = 0
    violations: list[str] = field(default_factory=list)  # invariants broken (first of each)

    def add(self, seed: int, m: Measures, wall: float) -> None:
        self.runs += 1
        self.seconds += m.seconds
        self.wall += wall
        self.calls += m.calls
        self.spans += [(seed, s) for s in m.spans]
        self.notes += m.notes
        self.closes += m.closes
        self.closes_out += m.closes_out
        self.numbered += m.numbered
        self.duplicates += m.duplicates
        self.gated += m.gated
        self.violations += m.violations
        for part in PARTS:
            self.double[part] += m.double[part]
            self.unattended[part] += m.unattended[part]
            self.longest_unattended[part] = max(
                self.longest_unattended[part], m.longest_unattended[part]
            )
            self.handover[part] += m.handover[part]
            self.unfinished[part] += m.unfinished[part]
            self.flaps[part] += m.flaps[part]

    @property
    def days(self) -> float:
        return self.seconds / DAY

    def per_day(self, value: float) -> float:
        return value / self.days if self.days else 0.0

    def median(self, part: str) -> float | None:
        values = self.handover[part]
        return statistics.median(values) if values else None

    def p95(self, part: str) -> float | None:
        return percentile(self.handover[part], 95)


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


HEADER = (
    ("scenario", 15),
    ("days", 5),
    ("double med s", 12),
    ("double inv s", 12),
    ("med handover p50/p95 s (n, unfinished)", 38),
    ("inv take p50/p95 s (n, unfinished)", 36),
    ("unattended med s/day", 20),
    ("unattended inv s/day (longest)", 30),
    ("flaps/day med inv", 17),
    ("notes/day", 9),
    ("closes out", 10),
    ("invoices (dup, gated)", 21),
    ("days/wall-s", 11),
)


def table(rows: list[Figures]) -> str:
    """The figures as a plain-text table, one line per scenario."""
    lines = [" | ".join(name.ljust(width) for name, width in HEADER)]
    lines.append("-+-".join("-" * width for _, width in HEADER))
    for f in rows:
        cells = (
            f.scenario,
            f"{f.days:.1f}",
            f"{f.double['medicines']:.0f}",
            f"{f.double['invoices']:.0f}",
            f"{_s(f.median('medicines'))}/{_s(f.p95('medicines'))} "
            f"({len(f.handover['medicines'])}, {f.unfinished['medicines']})",
            f"{_s(f.median('invoices'))}/{_s(f.p95('invoices'))} "
            f"({len(f.handover['invoices'])}, {f.unfinished['invoices']})",
            f"{f.per_day(f.unattended['medicines']):.0f}",
            f"{f.per_day(f.unattended['invoices']):.0f} ({f.longest_unattended['invoices']:.0f})",
            f"{f.per_day(f.flaps['medicines']):.2f} {f.per_day(f.flaps['invoices']):.2f}",
            f"{f.per_day(f.notes):.1f}",
            f"{100 * f.closes_out / f.closes:.0f}%" if f.closes else "-",
            f"{f.numbered} ({f.duplicates}, {f.gated})",
            f"{f.days / f.wall:.2f}" if f.wall else "-",
        )
        lines.append(" | ".join(c.ljust(w) for c, (_, w) in zip(cells, HEADER, strict=True)))
    return "\n".join(lines)


def spans_report(rows: list[Figures], part: str = "invoices", trace: bool = False) -> str:
    """Every double-acting span of `part`: scenario, seed, when, who; with the calls before."""
    out = []
    for f in rows:
        for seed, span in f.spans:
            if span.part != part:
                continue
            out.append(
                f"{f.scenario} seed {seed}: {part} double-acting {span.end - span.start:.0f} s "
                f"from t={span.start:.0f} s ({', '.join(span.actors)})"
            )
            if trace:
                out += [f"    {line}" for line in span.trace]
    return "\n".join(out)
