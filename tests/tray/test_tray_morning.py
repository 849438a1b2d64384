"""The morning after in the menu (issue 42): the line that says which computer to start and why,
"Make invoices here…" while waiting for it, no "gone for good" pushed for a computer that closed,
and the last tray's Quit question saying where invoices are numbered tomorrow.

Every state is one real Leases produced (tests/scenes.py): "morning", this computer took invoices
and quit first, Office PC numbered last and quit, and this computer started alone the next
morning; "last", Office PC quit and this computer numbers; "handed", Office PC numbered on its
take and quit naming this computer, which settles.
"""

from __future__ import annotations

import pytest

from sioul_tray.lease.status import Why
from sioul_tray.tray import model
from sioul_tray.tray.model import Action
from tests.tray.views import Seen, make, view

pytestmark = pytest.mark.usefixtures("utc")

LINE = "Invoices: waiting for Office PC, last to number: start it with its sync"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Seen]:
    kinds = {
        "morning": (Why.WAITING, "invoices", "morning"),
        "last": (Why.ACTING, "invoices", "last"),
        "handed": (Why.SETTLING, "invoices", "handed"),
        "medicines": (Why.ACTING, "medicines", ""),
        "silent": (Why.WAITING, "invoices", "silent"),
    }
    return {
        kind: make(why, tmp_path_factory.mktemp(kind), part, variant)
        for kind, (why, part, variant) in kinds.items()
    }


def test_the_morning_is_one_line_naming_the_computer_to_start(seen: dict[str, Seen]) -> None:
    v = view(seen["medicines"], seen["morning"])
    lines = [i.text for i in model.menu(v, autostart=True) if i.action is Action.COMPUTERS]
    assert LINE in lines
    assert [line for line in lines if "Office PC" in line] == [LINE]  # one line, no other
    assert model.part_line(v, "invoices") == LINE  # the tooltip and `sioul-tray look` too


def test_make_invoices_here_is_offered_while_waiting_for_the_last_one(
    seen: dict[str, Seen],
) -> None:
    v = view(seen["medicines"], seen["morning"])
    actions = [i.action for i in model.menu(v, autostart=True)]
    assert Action.TAKE_INVOICES in actions
    question = model.take_confirmation(v)
    assert question is not None
    assert question.startswith("Office PC numbered last: started, it numbers invoices.")
    assert "once it has heard Office PC" in question


def test_gone_for_good_is_not_pushed_for_a_computer_that_closed(seen: dict[str, Seen]) -> None:
    """Office PC, closed, has not been heard for far longer than ALIVE: still switched off, not
    gone. No menu item, no notification."""
    later = view(seen["medicines"], seen["morning"])
    (waited,) = later.parts["invoices"].status.waiting
    assert waited.closed and waited.silent  # not heard for more than ALIVE
    assert model.gone_candidates(later) == []
    assert not any(i.action is Action.FORGET for i in model.menu(later, autostart=True))
    assert not any(k.startswith("unheard:") for k in model.warnings(later))
    # A computer waited for that went silent with its claim open is still offered.
    silent = view(seen["medicines"], seen["silent"])
    assert model.gone_candidates(silent) == ["laptop"]


def test_the_last_tray_says_invoices_are_numbered_here_tomorrow(seen: dict[str, Seen]) -> None:
    question = model.quit_question(view(seen["medicines"], seen["last"]))
    assert question is not None and not question.offers_take
    assert "Tomorrow, invoices are numbered on this computer" in question.text
    assert question.text.endswith("\n\nQuit anyway?")


def test_the_last_tray_offers_to_make_them_here_instead(seen: dict[str, Seen]) -> None:
    """Office PC numbered, then quit naming this computer, which has not numbered yet: tomorrow
    Office PC numbers alone, unless invoices are made here first."""
    question = model.quit_question(view(seen["medicines"], seen["handed"]))
    assert question is not None and question.offers_take
    assert question.text.endswith(
        "Tomorrow, invoices are numbered on Office PC: this computer waits for it. Make them "
        "here instead?"
    )


def test_waiting_in_the_morning_the_quit_question_names_the_last_one(
    seen: dict[str, Seen],
) -> None:
    """Office PC's close names nobody (it numbered last): a take here that never numbered would
    leave neither computer numbering alone, so the question only says where they are numbered."""
    question = model.quit_question(view(seen["medicines"], seen["morning"]))
    assert question is not None and not question.offers_take
    assert (
        "Tomorrow, invoices are numbered on Office PC, which numbered last: this computer "
        "waits for it." in question.text
    )


def test_no_question_where_another_tray_runs(seen: dict[str, Seen]) -> None:
    assert model.quit_question(view(seen["medicines"], seen["silent"])) is not None  # medicines
    assert model.quit_question(view(seen["silent"], seen["silent"])) is None
