"""Why a part is as it is here: the verdict's reason, as data. No words, no Qt.

The state machine (`machine.step`, on a renew or a look) builds each `Keeper` with its `Status`,
from what only it knows (hearing times, settling, the flow of the sync, the seal). The tray's
menu, the command line, the notifications and the status file turn it into words with one
phrasebook (`sioul_tray.phrases`); none of them applies a rule again. docs/protocol.md says the
rules; docs/tray.md the schema of `Status.to_json`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

SCHEMA = 2  # the version of `Status.to_json`'s shape, in status.json and `look --json`


class Why(enum.Enum):
    """The reason, one of a few; the fields of `Status` that go with each are named."""

    ACTING = "acting"  # this computer acts on the part now
    SETTLING = "settling"  # kept here; acts from `until` if nothing changes
    WAITING = "waiting"  # kept here, settled; waits for `waiting` (`stalled`: its own sync?)
    ALONE = "alone"  # kept here, settled; has heard no other computer yet (a joiner)
    AWAY = "away"  # medicines kept here, out of touch with `waiting`: paused while you are away
    ELSEWHERE = "elsewhere"  # `keeper` (`name`) keeps it since `since` (`taken`: its own take)
    NOBODY = "nobody"  # no claim holds it
    BLOCKED = "blocked"  # may not act whatever the claims say: `problem`


@dataclass(frozen=True)
class Waited:
    """A computer waited for, and when this computer last heard its claim change."""

    computer: str
    name: str
    heard: int | None  # by this computer's wall clock; None: not heard in this run
    silent: bool = False  # not heard change within ALIVE: the person may say it is gone
    # Closed, but it may count a close of this computer's: only it, started with its sync
    # running, can end the wait (or a declaration that it is gone).
    closed: bool = False
    # Known only from another computer's claim (`Claim.knows`): its own has not come through.
    unheard: bool = False
    # Declared gone: the declaration counts from then (wall clock), once it can no longer be
    # numbering on this computer's answers.
    counts_from: int | None = None
    # Closed, and its take outranks this computer's: it numbered last before all closed (the
    # heir the closes name), and numbers alone when it starts ("the morning after").
    last: bool = False
    # Declared gone, but it may be numbering on a close of this computer's, which never lapses:
    # the declaration cannot count; hearing it again ends the wait (`Fixes.admitted_closes`).
    on_close: bool = False


@dataclass(frozen=True)
class Status:
    why: Why
    keeper: str | None = None
    name: str | None = None
    # Since when `keeper` keeps it (wall clock): for ELSEWHERE with `taken`, the keeper's own take
    # (by its clock); else since when this computer has seen it keep the part.
    since: int | None = None
    until: int | None = None  # SETTLING: when it acts, if nothing changes (wall clock)
    waiting: tuple[Waited, ...] = ()
    stalled: bool = False  # WAITING: nothing heard from anyone lately: its own sync looks stopped
    problem: str | None = None  # BLOCKED: the reason (sealed again, missing, a copied config)
    # BLOCKED: "seal" (another seal, or none), "clone" (this id twice) or "mark" (this computer's
    # records mark unknown); ELSEWHERE: "mark" too, the keeper waiting for this computer's mark.
    cause: str | None = None
    live: bool = False  # ELSEWHERE: the keeper's claim was heard within ALIVE
    # ELSEWHERE: the keeper's claim says it acts (`Claim.acting`); None: its version does not say.
    acts: bool | None = None
    # ELSEWHERE: `since` is the keeper's own take, not when this computer first saw it keep it.
    taken: bool = False
    # ELSEWHERE: when this computer last heard the keeper's claim change (wall clock), if it did.
    heard: int | None = None
    # ELSEWHERE: heard within ALIVE, its claim says it does not act, and it has kept the part
    # longer than a running tray takes to act (SETTLING and two renewals): nothing acts on the
    # part there (no tray runs there, a take by the command line, or it waits for a computer).
    idle: bool = False

    def to_json(self) -> dict[str, Any]:
        """The status as plain JSON (the schema `SCHEMA`, documented in docs/tray.md)."""
        return {
            "why": self.why.value,
            "keeper": self.keeper,
            "name": self.name,
            "since": self.since,
            "until": self.until,
            "waiting": [
                {
                    "computer": w.computer,
                    "name": w.name,
                    "heard": w.heard,
                    "silent": w.silent,
                    "closed": w.closed,
                    "unheard": w.unheard,
                    "counts_from": w.counts_from,
                    "last": w.last,
                    "on_close": w.on_close,
                }
                for w in self.waiting
            ],
            "stalled": self.stalled,
            "problem": None if self.problem is None else str(self.problem),
            "cause": self.cause,
            "live": self.live,
            "acts": self.acts,
            "taken": self.taken,
            "heard": self.heard,
            "idle": self.idle,
        }

    @classmethod
    def from_json(cls, data: Any) -> Status | None:
        """A status as `to_json` wrote it (by this version or a later one), or None."""
        try:
            why = Why(data["why"])
            waiting = tuple(
                Waited(
                    str(w["computer"]),
                    str(w["name"]),
                    _int(w.get("heard")),
                    bool(w.get("silent")),
                    bool(w.get("closed")),
                    bool(w.get("unheard")),
                    _int(w.get("counts_from")),
                    bool(w.get("last")),
                    bool(w.get("on_close")),
                )
                for w in data.get("waiting") or ()
            )
            return cls(
                why,
                _str(data.get("keeper")),
                _str(data.get("name")),
                _int(data.get("since")),
                _int(data.get("until")),
                waiting,
                bool(data.get("stalled")),
                _str(data.get("problem")),
                _str(data.get("cause")),
                bool(data.get("live")),
                _bool(data.get("acts")),
                bool(data.get("taken")),
                _int(data.get("heard")),
                bool(data.get("idle")),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


NOBODY = Status(Why.NOBODY)  # no claim holds the part


def _int(value: Any) -> int | None:
    return value if type(value) is int else None


def _bool(value: Any) -> bool | None:
    return value if type(value) is bool else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
