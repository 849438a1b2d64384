"""The protocol's times: the contract's, and the one value that carries them (`Timing`).

The ground floor of the core: the folder's seal (`share.seal`) records a test's scale, the rules
(`lease.rules`) and everything above read the times from the value they are given.
"""

from __future__ import annotations

from dataclasses import dataclass

# The contract's times, in seconds (docs/protocol.md, "Constants"): the defaults of `Timing`.
RENEW = 60  # a running computer renews each of its claims this often
ALIVE = 300  # a claim lives this long after it was last heard renewing
SETTLING = 120  # a computer acts on a part only after keeping it this long, as seen here
UNCLOSED = 86400  # a part that stays put is still held this long after its claim lapsed
NEAR = 120  # for a part that follows you, claims used within this much of the latest are tied


@dataclass(frozen=True, slots=True)
class Timing:
    """The protocol's times, in seconds: one value that the core, the tray and the command line
    receive, never module constants read where they are used.

    Computers on one folder must share it (a computer that renews every 3 s beside one that
    counts a claim alive for 300 s would break every rule): so it belongs to the folder, whose
    seal says it (`Share.timing`), and no computer's environment or setting can change it. A
    real folder's seal says nothing: the contract's times (`CONTRACT`). Only a test's setup seals
    a folder on a scale (`scaled`), so that a handover takes seconds instead of minutes.
    """

    renew: float = RENEW
    alive: float = ALIVE
    settling: float = SETTLING
    unclosed: float = UNCLOSED
    near: float = NEAR
    scale: int = 1  # the contract's times divided by this (what the seal records)

    @classmethod
    def scaled(cls, scale: int) -> Timing:
        """The contract's times divided by `scale` (a whole number from 1 to MAX_SCALE)."""
        if isinstance(scale, bool) or not isinstance(scale, int) or not 1 <= scale <= MAX_SCALE:
            raise ValueError(f"a timing scale is a whole number from 1 to {MAX_SCALE}: {scale!r}")
        return cls(
            RENEW / scale, ALIVE / scale, SETTLING / scale, UNCLOSED / scale, NEAR / scale, scale
        )

    @property
    def fresh(self) -> float:
        """An acknowledgement counts while the version it answers is at most this old, by its
        keeper's ticks; a keeper cut off from everyone stops this long after its last write that
        reached anyone, ALIVE before the others may count it gone (docs/protocol.md, "Gone")."""
        return self.unclosed - self.alive

    @property
    def jump(self) -> float:
        """A step of the ticks, or of the wall clock against them, longer than this between two
        calls means the computer slept or its clock was set: it settles again."""
        return 2 * self.renew


MAX_SCALE = 100  # a test's folder renews every 0.6 s at the most: the sync tools keep up
CONTRACT = Timing()  # every real folder's
