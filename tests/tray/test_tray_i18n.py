"""The tray in French: its real menu, built by the real tray code in a process started under a
French locale (offscreen Qt), and the model's texts with the French catalogue installed."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sioul_tray import i18n, phrases
from sioul_tray.lease.status import Why
from sioul_tray.tray import model
from tests.helpers import python_env
from tests.tray import views
from tests.tray.views import make

TRAY = """
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from sioul_tray import i18n
from sioul_tray.lease import Lease
from sioul_tray.share import Share
from sioul_tray.tray.app import Tray, install_language
from sioul_tray.tray.controller import Controller

class Present:
    name = "test idle"
    known = True
    def active(self, now):
        return int(now)

folder = Path(sys.argv[1])
folder.mkdir(parents=True)
lease = Lease(Share.create(folder, "a passphrase", "home_pc", cost=10), "home_pc", name="Home PC")
app = QApplication([])
install_language(app)
controller = Controller(lease, "home_pc", folder, Present(), folder.parent / "state")
tray = Tray(controller, notify=lambda *_: "test")
controller.start()
box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
print(json.dumps({
    "language": i18n.language(),
    "texts": tray.texts(),
    "tooltip": tray.icon.toolTip(),
    "cancel": box.button(QDialogButtonBox.StandardButton.Cancel).text(),
}))
controller.shutdown()
"""


def run_tray(tmp_path: Path, **env: str) -> dict[str, object]:
    child = python_env(QT_QPA_PLATFORM="offscreen")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "SIOUL_TRAY_LANG"):
        child.pop(var, None)
    child.update(env)
    done = subprocess.run(
        [sys.executable, "-c", TRAY, str(tmp_path / "share")],
        capture_output=True,
        text=True,
        timeout=120,
        env=child,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_menu_is_french_under_a_french_locale(tmp_path: Path) -> None:
    shown = run_tray(tmp_path, LANG="fr_FR.UTF-8")
    assert shown["language"] == "fr"
    texts = shown["texts"]
    assert isinstance(texts, list)
    assert texts[1] == "Médicaments : ici dans 2 min"  # settling: it counts down
    assert texts[0].startswith("Cet ordinateur : ")
    assert texts[2] == "Factures : ici dans 2 min"
    assert texts[3:] == [
        "Ordinateurs…",
        "Ouvrir le dossier de partage",
        "Changer de dossier de partage…",
        "Lancer à l’ouverture de session",
        "À propos de sioul-tray",
        "Quitter",
    ]
    assert str(shown["tooltip"]).startswith("sioul-tray\nMédicaments : ici")
    assert shown["cancel"] == "Annuler"  # Qt's own catalogue, for its standard buttons


def test_the_menu_is_english_by_default_and_on_request(tmp_path: Path) -> None:
    shown = run_tray(tmp_path, LANG="C.UTF-8")
    assert shown["language"] == "en"
    texts = shown["texts"]
    assert isinstance(texts, list)
    assert texts[1] == "Medicines: here in 2 min" and texts[-1] == "Quit"
    assert shown["cancel"] == "Cancel"
    again = run_tray(tmp_path / "again", LANG="fr_FR.UTF-8", SIOUL_TRAY_LANG="en")
    assert again["language"] == "en"


# -- the model's texts, in-process ------------------------------------------------------------


@pytest.fixture
def french() -> Iterator[None]:
    assert i18n.install("fr")
    yield
    i18n.install("en")


def test_the_model_speaks_french(french: None, tmp_path: Path) -> None:
    waiting = make(Why.WAITING, tmp_path / "waiting", variant="silent")
    away = make(Why.ELSEWHERE, tmp_path / "elsewhere")
    view = views.view(
        waiting,
        away,
        seen={"medicines": waiting.seen["invoices"], "invoices": away.seen["invoices"]},
        offsets={"laptop": 400},
        problems=views.problems_in(tmp_path / "files", {"zz.lease": b"not a claim at all" * 5}),
        idle_known=False,
    )
    texts = [item.text for item in model.menu(view, autostart=False)]
    assert texts[2].startswith("Factures : Office PC (vu ici depuis ")
    assert "L’horloge de Laptop a 6 min d’avance sur celle-ci" in texts
    assert "1 fichier du dossier de partage est illisible" in texts
    assert "Inactivité inconnue : décompte depuis le début de la session" in texts
    assert "Faire les factures ici…" in texts
    question = model.take_confirmation(view)
    assert question is not None and question.startswith("Office PC fait les factures")
    notes = model.warnings(view)
    assert notes["clock:laptop"].title == "L’horloge de Laptop est décalée"
    problem = next(n for k, n in notes.items() if k.startswith("problem:"))
    # The core's reason stays English in the view (the core's sets compare it) and shows translated.
    assert problem.key == "problem:invoices/zz.lease:not a Sioul claim"
    assert problem.title == "Une réservation du dossier de partage est illisible"
    assert problem.body == "leases/invoices/zz.lease: pas une réservation Sioul"


FRENCH = {
    "acting": "Factures : ici",
    "settling": "Factures : ici à partir de ",
    "elsewhere": "Factures : Office PC (vu ici depuis ",
    "nobody": "Factures : aucun ordinateur ne les tient",
    "waiting": "Factures : ici, en attente de ",
    "stalled": "(la synchronisation tourne-t-elle ?)",
    "alone": "Factures : ici, en attente de nouvelles d’un autre ordinateur",
    "away": "Médicaments : ici, en pause pendant votre absence",
    "sealed": "Factures : arrêtées, le sceau du dossier de partage a changé",
    "clone": "Factures : arrêtées, un autre ordinateur utilise l’identifiant de celui-ci",
}
KINDS = {
    "acting": (Why.ACTING, "invoices", ""),
    "settling": (Why.SETTLING, "invoices", ""),
    "elsewhere": (Why.ELSEWHERE, "invoices", ""),
    "nobody": (Why.NOBODY, "invoices", ""),
    "waiting": (Why.WAITING, "invoices", ""),
    "stalled": (Why.WAITING, "invoices", "stalled"),
    "alone": (Why.ALONE, "invoices", ""),
    "away": (Why.AWAY, "medicines", ""),
    "sealed": (Why.BLOCKED, "invoices", ""),
    "clone": (Why.BLOCKED, "invoices", "clone"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_status_has_a_french_line(french: None, tmp_path: Path, kind: str) -> None:
    why, part, variant = KINDS[kind]
    status = make(why, tmp_path, part, variant).parts[part].status
    assert status.why is why
    line = phrases.part_line(part, status)
    assert FRENCH[kind] in line, line
    if why is Why.SETTLING:  # and as the menu counts down
        assert status.until is not None
        counted = phrases.part_line(part, status, now=status.until - 100)
        assert counted == "Factures : ici dans 1 min 40 s", counted


def test_the_take_question_says_in_french_what_the_keeper_does(tmp_path: Path) -> None:
    """Issue 42, item 5: the French take dialog said "NAS fait les factures en ce moment" of a
    keeper that took invoices by the command line and numbered nothing."""
    acting = make(Why.ACTING, tmp_path / "acting")
    idle = views.view(acting, make(Why.ELSEWHERE, tmp_path / "idle", "invoices", "commands-idle"))
    assert idle.parts["invoices"].status.idle
    assert i18n.install("fr")
    try:
        question = model.take_confirmation(idle)
    finally:
        i18n.install("en")
    assert question is not None
    assert "fait les factures en ce moment" not in question
    assert question.startswith("Office PC tient les factures mais ne les numérote pas")
