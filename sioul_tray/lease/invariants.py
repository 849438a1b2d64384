"""The protocol's safety argument as invariants, evaluated on a world's state at one moment.

docs/protocol.md, "Why it is safe", states them in words; this module is the one place that
evaluates them, for every world the tests build: the model checker at every state it reaches
(tests/model), its walks at every step, the simulation at every step (tests/simulation), the real
replica worlds of tests/lease after every call, and the end-to-end invoice test at its end. Each
world describes itself as a `Moment`: what each running computer knows (its machine's `Knowledge`,
read only through its read-only queries), every version of every claim file written (with the
true time it was written), and what Sioul's records hold. `check` returns every violation, each
naming its invariant and stating the fact. Pure: no clock, no files.

The invariants concern the part that must never be done twice (invoices). A computer's *reasons*
are `Knowledge.reasons`: for each other computer, what lets it not wait for that computer were it
the keeper (an acknowledgement, a close, a declaration, silence), judged by the verdict's own code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sioul_tray.lease.keeper import Reason
from sioul_tray.lease.machine import Knowledge
from sioul_tray.lease.rules import Claim
from sioul_tray.timing import CONTRACT, Timing

INVARIANTS: Mapping[str, str] = {
    "S1": "one at a time",
    "S2": "every act has its reasons",
    "S3": "answers are what they say",
    "S4": "reasons are never mutual",
    "S5": "the records reach the keeper",
    "S6": "a mark never goes back",
    "S7": "the own past is never younger than the others saw",
}


@dataclass(frozen=True)
class Written:
    """One version of a claim file, as written: the claim, and the true time it was written
    (where a world cannot tell, when it first saw it: later, never earlier)."""

    claim: Claim
    at: float


@dataclass(frozen=True)
class Mind:
    """A running computer: its machine's knowledge, its ticks now, and whether it acts on the
    part now; if it does, `judged` is its ticks at the call whose verdict it acts on and
    `judged_at` that call's true time (a caller acts on a verdict until its next call, for at
    most RENEW: what it acts on is what it knew then). `began`: the true time its tray started
    (None: long ago)."""

    knowledge: Knowledge
    tick: float
    acting: bool = False
    judged: float | None = None
    judged_at: float | None = None
    began: float | None = None

    def reasons(self) -> dict[str, Reason]:
        """The reasons it holds: those it acts on, or those it would act on now."""
        at = self.judged if self.acting and self.judged is not None else self.tick
        return self.knowledge.reasons(at)


@dataclass(frozen=True)
class Records:
    """What Sioul's records hold, as far as a world tracks them.

    `marked`: per computer, the seq of its last claim that may carry a mark of records made
    under it. `said_yes`: per computer, the highest mark it said yes to, and when (true time).
    `statuses`: (computer, true time, the `wrote` its status told Sioul) for each status it
    published (None: it said the mark is unknown)."""

    marked: Mapping[str, int] = field(default_factory=dict)
    said_yes: Mapping[str, tuple[int, float]] = field(default_factory=dict)
    statuses: Sequence[tuple[str, float, int | None]] = ()


@dataclass(frozen=True)
class Moment:
    """A world at one true moment (`now`), as the invariants read it.

    `minds`: the computers whose tray runs (a computer down knows nothing until it starts
    again, and acts on nothing). `history`: every version of each computer's claim on the part,
    in the order written. `arrives`: the protocol's assumption that a claim file a replica lacks
    arrives within this long (None where a world does not assume it: S2 is then not judged)."""

    now: float
    minds: Mapping[str, Mind]
    history: Mapping[str, Sequence[Written]]
    records: Records = Records()
    timing: Timing = CONTRACT
    arrives: float | None = None


@dataclass(frozen=True)
class Violation:
    """One invariant broken: its id (`INVARIANTS`) and the fact, in one sentence."""

    invariant: str
    fact: str

    @property
    def name(self) -> str:
        return INVARIANTS[self.invariant]

    def __str__(self) -> str:
        return f"{self.invariant} ({self.name}): {self.fact}"


def check(moment: Moment) -> list[Violation]:
    """Every invariant broken at `moment` (none: the argument holds here)."""
    held = {c: m.reasons() for c, m in moment.minds.items()}
    return [
        *one_at_a_time(moment),
        *every_act_has_its_reasons(moment, held),
        *answers_are_what_they_say(moment, held),
        *reasons_are_never_mutual(moment, held),
        *records_reach_the_keeper(moment),
        *a_mark_never_goes_back(moment),
        *own_past_never_younger(moment),
    ]


def one_at_a_time(moment: Moment) -> list[Violation]:
    """S1: at no moment do two computers act on invoices."""
    actors = sorted(c for c, m in moment.minds.items() if m.acting)
    if len(actors) < 2:
        return []
    return [Violation("S1", f"{', '.join(actors)} act at once")]


def every_act_has_its_reasons(
    moment: Moment, held: Mapping[str, Mapping[str, Reason]]
) -> list[Violation]:
    """S2: a computer that acts holds a reason over every other computer whose claim had been
    in the folder for the time allowed for claims to come through when it judged, or a
    declaration of it (one sealed with another key has no claim it can read)."""
    if moment.arrives is None:
        return []
    found: list[Violation] = []
    for c, mind in moment.minds.items():
        if not mind.acting:
            continue
        judged_at = moment.now if mind.judged_at is None else mind.judged_at
        for other, versions in moment.history.items():
            if other == c or not versions:
                continue
            first = min(w.at for w in versions)  # its first claim reached the folder then
            if judged_at - first < moment.arrives:
                continue
            if other in held[c] or other in mind.knowledge.forgets:
                continue
            found.append(
                Violation(
                    "S2",
                    f"{c} acts holding no reason over {other}, whose claim was written "
                    f"{judged_at - first:.0f} s before {c} judged",
                )
            )
    return found


def answers_are_what_they_say(
    moment: Moment, held: Mapping[str, Mapping[str, Reason]]
) -> list[Violation]:
    """S3: every acknowledgement a computer counts names its current tenure and answers a
    version of that tenure it wrote (one the folder's history holds) at most FRESH ago by its
    own ticks (`Knowledge.written`: ticks, not true time, so that a world's state says it)."""
    found: list[Violation] = []
    fresh = moment.timing.fresh
    for c, mind in moment.minds.items():
        k = mind.knowledge
        at = mind.judged if mind.acting and mind.judged is not None else mind.tick
        for other, reason in held[c].items():
            if reason is not Reason.ANSWERS:
                continue
            ack = k.best[other]
            if k.tenure is None or ack.sees != c or ack.sees_tenure != k.tenure:
                found.append(
                    Violation(
                        "S3",
                        f"{c} counts {other}'s claim of seq {ack.seq} as an answer to its tenure "
                        f"{k.tenure}, but it names {ack.sees}'s tenure {ack.sees_tenure}",
                    )
                )
                continue
            wrote = any(
                w.claim.seq == ack.sees_seq and w.claim.tenure == k.tenure
                for w in reversed(moment.history.get(c, ()))
            )
            written = k.written.get(ack.sees_seq) if ack.sees_seq is not None else None
            if not wrote:
                fact = f"answers seq {ack.sees_seq}, which {c} never wrote in tenure {k.tenure}"
            elif written is None or at - written > fresh:
                fact = f"answers seq {ack.sees_seq}, written over FRESH before"
            else:
                continue
            found.append(Violation("S3", f"{c} counts {other}'s claim of seq {ack.seq}: {fact}"))
    return found


def reasons_are_never_mutual(
    moment: Moment, held: Mapping[str, Mapping[str, Reason]]
) -> list[Violation]:
    """S4: no two computers each hold a reason over every other computer (so over each other):
    were both the keeper, both would act. Every takeover (by silence or by declaration) and every
    close counted must wait until each reason the other may hold has ended, closes and
    declarations included. With two computers: no two hold reasons over each other.

    A tray whose last read came less than the time allowed for claims to come through (`arrives`)
    after it started holds none yet: it cannot act before SETTLING, and its first read past
    that time finds what its replica lacked (its own claim from before a lost state, a newer
    claim of another's). Two declarations of
    each other (two people, each on one side of a cut, each declaring the other computer gone)
    are the protocol's assumption, not judged here: no rule can tell which of them is wrong."""
    others = set(moment.history) | set(moment.minds)
    complete = sorted(
        c
        for c, m in moment.minds.items()
        if _settled_in(m, moment) and all(o in held[c] for o in others if o != c)
    )
    found: list[Violation] = []
    for i, a in enumerate(complete):
        for b in complete[i + 1 :]:
            ab, ba = held[a][b], held[b][a]
            if ab is Reason.DECLARED and ba is Reason.DECLARED:
                continue  # the assumption above
            found.append(
                Violation(
                    "S4",
                    f"{a} holds a reason over every other computer, {b} among them "
                    f"({ab.value}), and {b} over every other, {a} among them ({ba.value})",
                )
            )
    return found


def _settled_in(mind: Mind, moment: Moment) -> bool:
    """Its knowledge was read at least `arrives` after its tray started (S4)."""
    if moment.arrives is None or mind.began is None:
        return True
    read = moment.now if mind.judged_at is None else mind.judged_at
    return read - mind.began >= moment.arrives


def records_reach_the_keeper(moment: Moment) -> list[Violation]:
    """S5: a computer that acts has read every other computer's latest claim that may carry a
    mark of Sioul's records, or counts that computer declared gone."""
    found: list[Violation] = []
    for c, mind in moment.minds.items():
        if not mind.acting:
            continue
        k = mind.knowledge
        for other, seq in moment.records.marked.items():
            if other == c or other in k.forgets or other in k.counted:
                continue
            known = k.best.get(other)
            if known is None or known.seq < seq:
                read = "none" if known is None else f"seq {known.seq}"
                found.append(
                    Violation(
                        "S5",
                        f"{c} acts without {other}'s records: its claim of seq {seq} may carry "
                        f"a mark, {c} read {read}",
                    )
                )
    return found


def hands_on(claim: Claim) -> bool:
    """Another computer may act on `claim`, its writer's latest: it acknowledges another
    computer (or none: its silence may be counted), or it is a close. One open that
    acknowledges its writer alone hands nothing on (`Fixes.marks_unproven`): its writer keeps
    the part."""
    return claim.closed or claim.sees != claim.computer


def a_mark_never_goes_back(moment: Moment) -> list[Violation]:
    """S6: a mark said yes to is at most the `wrote` of every later claim of that computer that
    hands the part on (`hands_on`: one written while its mark is unknown hands nothing on), of
    every status it publishes later, and of every other computer's `must_have` of it from such
    a claim."""
    found: list[Violation] = []
    for c, (mark, said) in moment.records.said_yes.items():
        history = moment.history.get(c, ())
        for w in history:
            if w.at > said and w.claim.wrote < mark and hands_on(w.claim):
                found.append(
                    Violation(
                        "S6",
                        f"{c} said yes to mark {mark}, then wrote a claim of seq {w.claim.seq} "
                        f"carrying {w.claim.wrote}",
                    )
                )
                break
        for who, at, wrote in moment.records.statuses:
            if who == c and at > said and wrote is not None and wrote < mark:
                found.append(
                    Violation("S6", f"{c} said yes to mark {mark}, then its status told {wrote}")
                )
                break
        for other, mind in moment.minds.items():
            # Another computer's `must_have` of it, from a claim of it written after the yes.
            known = mind.knowledge.best.get(c) if other != c else None
            if known is None or known.wrote >= mark:
                continue
            if any(w.at > said and w.claim.seq == known.seq and hands_on(w.claim) for w in history):
                found.append(
                    Violation(
                        "S6",
                        f"{c} said yes to mark {mark}, then {other}'s must_have of it was "
                        f"{known.wrote}",
                    )
                )
    return found


def own_past_never_younger(moment: Moment) -> list[Violation]:
    """S7: a computer that trusts its memory knows its own claim at a seq at least as high as
    any version of its own that a claim it has read answers (but a seq its clock, set back, has
    not passed yet)."""
    found: list[Violation] = []
    for c, mind in moment.minds.items():
        k = mind.knowledge
        if not k.remembers or k.distrust_until is not None:
            continue
        mine = k.best.get(c)
        own = -1 if mine is None else mine.seq
        for other, claim in k.best.items():
            if other == c or claim.sees != c:
                continue
            answered = max(claim.sees_seq or -1, claim.answers or -1)
            if k.last_wall is not None and answered > k.last_wall:
                # Its clock is behind a seq it wrote before (set back, its state lost): its seqs
                # repeat until the clock passes them, which the protocol allows ("What it
                # assumes": that delays, never doubles).
                continue
            if answered > own:
                found.append(
                    Violation(
                        "S7",
                        f"{c} trusts its memory, whose latest own claim is seq {own}, but "
                        f"{other}'s claim answers its seq {answered}",
                    )
                )
    return found
