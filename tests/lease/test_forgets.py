""" "Gone for good" declarations must do what the person asked, whatever the clocks and the ids.

Found while checking what forgets fit in a 512-byte claim (test_fuzz.py).
"""

from __future__ import annotations

from sioul_tray.errors import SioulError
from sioul_tray.lease import UNCLOSED, Lease
from sioul_tray.share import Share
from tests.lease.leasekit import T0, FakeClock


def test_forgetting_a_computer_whose_clock_is_days_behind_still_forgets_it(share: Share) -> None:
    # Liveness is judged by this computer's clock; so must be the age of a declaration.
    clock = FakeClock()
    behind = FakeClock(T0 - 3 * 86400)  # its clock is three days late
    slow = Lease(share, "slow", name="Slow", clock=behind)
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    for _ in range(3):
        slow.renew("invoices")
        alpha.renew("invoices")
        clock.advance(60)
        behind.advance(60)
    # slow's claim is the oldest (by its own times) and was heard a minute ago: it keeps invoices.
    assert alpha.renew("invoices").computer == "slow"
    alpha.forget("slow")
    mine = next(c for c in alpha.claims("invoices") if c.computer == "alpha")
    assert "slow" in mine.forgets
    assert alpha.renew("invoices").computer == "alpha"
    # And every other reader honours it.
    assert Lease(share, "bravo", clock=clock).look("invoices").computer == "alpha"


def test_every_declaration_holds_or_forget_says_it_cannot(share: Share) -> None:
    """Five computers with 63-character ids gone at once: the fifth declaration does not fit.

    Either forget() refuses it (the person can be told), or all five stay forgotten; a declaration
    must not be dropped silently while the claim it silences still holds the part.
    """
    clock = FakeClock()
    base = "annas_macbook_pro_16_inch_from_the_office_upstairs_by_the_window"[:60]
    gone = [f"{base}{i:03d}" for i in range(5)]
    assert all(len(g) == 63 for g in gone)
    for g in gone:
        Lease(share, g, name="Anna's MacBook Pro", clock=clock).renew("invoices")
    clock.advance(10)
    alpha = Lease(share, "alpha", name="Alpha", clock=clock)
    alpha.renew("invoices")
    refused = False
    for g in gone:
        try:
            alpha.forget(g)
        except SioulError:
            refused = True
    clock.advance(600)  # the gone claims still hold invoices for UNCLOSED after they were heard
    assert UNCLOSED > 600
    keeper = alpha.renew("invoices").computer
    if not refused:
        assert keeper == "alpha", f"{keeper} came back though the person declared it gone"
