"""Translations: the French catalogue is complete and keeps every placeholder; the language comes
from --lang, SIOUL_TRAY_LANG or the locale; the command line speaks it, and stays Qt-free in
English."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from sioul_tray import i18n
from sioul_tray.errors import SioulError
from sioul_tray.i18n import Core
from sioul_tray.timefmt import ago
from sioul_tray.translations import LANGUAGES, catalogue, extract
from tests.helpers import python_env

PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%n")
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "SIOUL_TRAY_LANG")


def messages(ts: Path) -> list[tuple[str, ET.Element]]:
    root = ET.parse(ts).getroot()
    return [(c.findtext("name", ""), m) for c in root.iter("context") for m in c.iter("message")]


def forms(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    assert translation is not None
    if message.get("numerus") == "yes":
        return [f.text or "" for f in translation.iter("numerusform")]
    return [translation.text or ""]


@pytest.fixture
def french() -> Iterator[None]:
    assert i18n.install("fr"), "the French catalogue did not load"
    yield
    i18n.install("en")


# -- the catalogue --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated(language: str, tmp_path: Path) -> None:
    """lupdate over today's code, merged into a copy of the committed catalogue: a message added
    without a translation comes in unfinished, one removed from the code stays as vanished."""
    committed = catalogue(language)
    merged = tmp_path / committed.name
    shutil.copy(committed, merged)
    extract(merged, keep_obsolete=True)
    found = messages(merged)
    assert len(found) > 200
    problems = [
        f"{context}: {m.findtext('source')!r}: {m.find('translation').get('type')}"  # type: ignore[union-attr]
        for context, m in found
        if m.find("translation").get("type")  # type: ignore[union-attr]
    ]
    assert problems == [], "run `python -m sioul_tray.translations.update` and translate"
    assert all(all(forms(m)) for _, m in found), "an empty translation"
    # The committed file is what lupdate makes of it: nothing to add or drop.
    key = [(c, m.findtext("source")) for c, m in found]
    assert key == [(c, m.findtext("source")) for c, m in messages(committed)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders(language: str) -> None:
    for context, m in messages(catalogue(language)):
        source = m.findtext("source", "")
        wanted = sorted(PLACEHOLDER.findall(source))
        numerus = m.get("numerus") == "yes"
        assert numerus == ("%n" in wanted), f"{context}: {source!r}: %n without numerus"
        for form in forms(m):
            assert sorted(PLACEHOLDER.findall(form)) == wanted, f"{context}: {source!r} -> {form!r}"
        if numerus and language == "fr":
            assert len(forms(m)) == 2, f"{context}: {source!r}: French has two forms"


def test_each_context_is_named_as_lupdate_reads_it() -> None:
    # lupdate takes the word before `.tr(` as the context: the variable must carry its name.
    contexts = {k: v for k, v in vars(i18n).items() if isinstance(v, i18n.Context)}
    assert len(contexts) >= 9
    assert all(name == context.name for name, context in contexts.items())
    used = {c for c, _ in messages(catalogue("fr"))}
    assert used <= set(contexts)


# -- translating ----------------------------------------------------------------------------------


def test_english_is_the_source_with_its_own_singular() -> None:
    assert i18n.language() == "en"
    assert ago(100, 280) == "3 min ago" and ago(0, 5 * 86400) == "5 days ago"
    text = i18n.Menu.tr("%n files in the sharing folder do not read", None, 1, one="1 file x")
    assert text == "1 file x"
    assert i18n.Menu.tr("%n files in the sharing folder do not read", None, 0, one="x") == (
        "0 files in the sharing folder do not read"
    )


def test_french_numerus_and_templates(french: None) -> None:
    assert ago(100, 280) == "il y a 3 min" and ago(280, 100) == "dans 3 min"
    assert ago(0, 5 * 86400) == "il y a 5 jours" and ago(10, 20) == "à l’instant"
    one = "1 file in the sharing folder does not read"
    source = "%n files in the sharing folder do not read"
    assert i18n.Menu.tr(source, None, 1, one=one) == "1 fichier du dossier de partage est illisible"
    assert i18n.Menu.tr(source, None, 0, one=one) == "0 fichier du dossier de partage est illisible"
    assert i18n.Menu.tr(source, None, 3, one=one) == (
        "3 fichiers du dossier de partage sont illisibles"
    )
    # A message the catalogue does not have stays English.
    assert i18n.Menu.tr("not in any catalogue") == "not in any catalogue"


def test_core_errors_stay_english_and_show_translated(french: None) -> None:
    error = SioulError(Core.mark("wrong passphrase for {folder}", folder=Path("/x/Sioul")))
    assert str(error) == "wrong passphrase for /x/Sioul"  # logs, JSON
    assert i18n.message(error) == "mauvaise phrase secrète pour /x/Sioul"
    nested = Core.mark(
        "{file} is damaged: {what} is not text", file="sioul.seal", what=Core.mark("the salt")
    )
    assert nested == "sioul.seal is damaged: the salt is not text"
    assert i18n.translated(nested) == "sioul.seal est endommagé : le sel n’est pas du texte"
    # A numerus message of the core, English singular and French forms.
    gone = Core.mark(
        "this computer's claim has no room to declare {computer} gone: "
        "%n computers are declared gone already",
        None,
        1,
        one="1 computer gone",
        computer="'pc'",
    )
    assert gone == "1 computer gone"
    assert "1 ordinateur est déjà déclaré parti" in i18n.translated(gone)
    assert i18n.message(ValueError("plain")) == "plain"


# -- choosing the language ------------------------------------------------------------------------


@pytest.fixture
def no_locale(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_the_language_comes_from_the_locale_like_gettext(no_locale: pytest.MonkeyPatch) -> None:
    assert i18n.pick_language() == "en"
    no_locale.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.pick_language() == "fr"
    no_locale.setenv("LC_MESSAGES", "C.UTF-8")
    assert i18n.pick_language() == "en"
    no_locale.setenv("LANGUAGE", "de_DE:fr_CA:en")
    assert i18n.pick_language() == "fr"
    assert i18n.pick_language(system=["de-DE", "fr-BE"]) == "fr"  # as QLocale.uiLanguages() says it
    assert i18n.pick_language(system=["en-US", "fr-FR"]) == "en"


def test_an_override_wins_and_stands_alone(no_locale: pytest.MonkeyPatch) -> None:
    no_locale.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.pick_language("en") == "en"
    assert i18n.pick_language("de") == "en"  # asked for, not available: the source, not the locale
    no_locale.setenv("SIOUL_TRAY_LANG", "en")
    assert i18n.pick_language() == "en"
    assert i18n.pick_language("fr") == "fr"
    no_locale.setenv("LANG", "C")
    no_locale.setenv("SIOUL_TRAY_LANG", "fr_FR")
    assert i18n.pick_language() == "fr"


# -- the command line -----------------------------------------------------------------------------


def cli(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    child = python_env(SIOUL_TRAY_HOME=str(home))
    for var in LOCALE_VARS:
        child.pop(var, None)
    child.update(env)
    return subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=child,
        stdin=subprocess.DEVNULL,
    )


def test_the_command_line_speaks_french_when_asked(tmp_path: Path) -> None:
    english = cli(tmp_path, "look")
    assert english.returncode == 1
    assert english.stderr.startswith("sioul-tray: no sharing folder is set up here")
    for asked in ({"SIOUL_TRAY_LANG": "fr"}, {"LANG": "fr_FR.UTF-8"}, {"LC_ALL": "fr_BE.UTF-8"}):
        french = cli(tmp_path, "look", **asked)
        assert french.returncode == 1 and "Traceback" not in french.stderr
        assert french.stderr.startswith("sioul-tray : aucun dossier de partage n’est configuré ici")
    assert cli(tmp_path, "--lang", "en", "look", LANG="fr_FR.UTF-8").stderr.startswith(
        "sioul-tray: no sharing"
    )
    helped = cli(tmp_path, "--lang=fr", "--help")
    assert "créer ou rejoindre le dossier de partage, nommer cet ordinateur" in helped.stdout
    bad = cli(tmp_path, "wrote", "invoices", "x", SIOUL_TRAY_LANG="fr")
    assert "'x' n’est pas un nombre entier de 0 à 9223372036854775807" in bad.stderr


def test_every_command_takes_lang_after_it_too(tmp_path: Path) -> None:
    """Found as a person: `sioul-tray may invoices --lang fr` answered in English (argparse's
    "unrecognized arguments", the refusal of a `--lang` placed after the command)."""
    from sioul_tray.cliparser import parser

    made = parser()
    sub = next(a for a in made._actions if isinstance(a, argparse._SubParsersAction))
    needs = {"take": ["invoices"], "forget": ["aa"], "may": ["invoices"], "run": ["invoices"],
             "copied": ["new"], "wrote": ["invoices", "3"]}  # fmt: skip
    for command in sub.choices:
        args = made.parse_args([command, *needs.get(command, []), "--lang", "fr"])
        assert args.lang == "fr", command
    assert made.parse_args(["--lang", "fr", "look"]).lang == "fr"  # before it, as ever
    assert parser(fast=True).parse_args(["may", "invoices", "--lang", "fr"]).lang == "fr"
    may = cli(tmp_path, "may", "invoices", "--lang", "fr")
    assert may.returncode == 1 and may.stderr.startswith("aucune icône ne tourne ici"), may.stderr
    run = cli(tmp_path, "run", "invoices", "--lang", "fr", "--", "true")
    assert run.returncode == 123 and run.stderr.startswith("aucune icône ne tourne ici")
    look = cli(tmp_path, "look", "--lang", "fr")
    assert look.stderr.startswith("sioul-tray : aucun dossier de partage n’est configuré ici")


LOOK = """
import json, sys
from sioul_tray.install import Installation
from sioul_tray.share import Share
inst = Installation()
(folder := inst.config_dir.parent / "share").mkdir(parents=True)
share = Share.create(folder, "a passphrase", inst.computer(), cost=10)
inst.remember_key(share)
inst.update_settings(share=str(folder))
from sioul_tray import cli
rc = cli.main(["look"])
qt = sorted(m for m in sys.modules if m.startswith(("PySide6.", "shiboken6")))
print(json.dumps({"rc": rc, "qt": qt}))
"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_look_needs_no_qt_in_english(tmp_path: Path, language: str) -> None:
    env = python_env(SIOUL_TRAY_HOME=str(tmp_path / "home"), SIOUL_TRAY_LANG=language)
    done = subprocess.run(
        [sys.executable, "-c", LOOK], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    result = json.loads(lines[-1])
    assert result["rc"] == 0
    if language == "en":
        assert lines[0] == "Medicines: no computer keeps them"
        assert result["qt"] == []
    else:
        assert lines[0] == "Médicaments : aucun ordinateur ne les tient"
        # Only QtCore, for its QTranslator: nothing of the GUI.
        assert "PySide6.QtCore" in result["qt"]
        assert not any(m.startswith(("PySide6.QtGui", "PySide6.QtWidgets")) for m in result["qt"])
