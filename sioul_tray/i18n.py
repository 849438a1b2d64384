"""Translations: every text a person reads goes through Qt's translator; English (the source
language) when no catalogue fits.

Texts are marked where they are written, in forms that Qt's lupdate extracts (see
`sioul_tray.translations.update`):

    Menu.tr("Quit")                                   # translated now, in context "Menu"
    Menu.tr("{label}: here").format(label=label)      # a template, translated, then formatted
    Menu.tr("%n files do not read", None, n, one="1 file does not read")   # Qt numerus
    Core.mark("{path} is damaged", path=path)         # the core: English now, translated on screen

lupdate names a call's context after the word before ``.tr``/``.mark``: each context below is a
module-level name spelled exactly like its context (a test checks it), imported by that name.
``one`` is the English singular: Qt picks plural forms from a catalogue, and English has none.

No Qt is imported until a catalogue other than English is installed: the core (which marks its
messages and keeps them English for logs) never imports Qt, and the command line in English stays
quick. The catalogue is read with a `QTranslator` directly, so the command line needs no
QCoreApplication; the tray also installs Qt's own catalogue for its standard buttons.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SOURCE = "en"
CATALOGUES = Path(__file__).resolve().parent / "translations"
ENV = "SIOUL_TRAY_LANG"

_translator: Any = None  # the QTranslator of the installed catalogue, or None for English
_qt_translators: list[Any] = []  # Qt's own catalogues, kept alive while installed
_language = SOURCE


class Text(str):
    """An English text made from a marked template and its values: it reads as English (logs,
    `str(exc)`, JSON), and `translated` translates the template before formatting it again."""

    context: str
    template: str
    values: Mapping[str, object]
    n: int
    one: str | None

    def __new__(
        cls,
        context: str,
        template: str,
        values: Mapping[str, object],
        n: int = -1,
        one: str | None = None,
    ) -> Text:
        english = _numerus(template, n, one)
        made = super().__new__(cls, english.format_map(values) if values else english)
        made.context, made.template, made.values, made.n, made.one = (
            context,
            template,
            values,
            n,
            one,
        )
        return made


class Context:
    """The messages of one context (one part of the program)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def tr(
        self, text: str, disambiguation: str | None = None, n: int = -1, *, one: str | None = None
    ) -> str:
        """`text` translated now; with `n`, the numerus form for `n` (%n replaced)."""
        return translate(self.name, text, disambiguation, n, one=one)

    def mark(
        self,
        template: str,
        disambiguation: None = None,
        n: int = -1,
        /,
        *,
        one: str | None = None,
        **values: object,
    ) -> Text:
        """`template` formatted in English, marked for translation later (no Qt needed); with
        `n`, a numerus message as for `tr` (`disambiguation` is there for lupdate's parser)."""
        return Text(self.name, template, values, n, one)


# The contexts. lupdate takes the name before `.tr(` as the context: keep each name its context.
Core = Context("Core")  # the core's errors and the reasons a file does not read
CommandLine = Context("CommandLine")
Time = Context("Time")
Menu = Context("Menu")
Phrase = Context("Phrase")  # the words for a part's status: menu, command line, notifications
Notification = Context("Notification")
App = Context("App")  # the tray application: its dialogs and its answers to requests
Setup = Context("Setup")
Computers = Context("Computers")
Tour = Context("Tour")  # `sioul-tray demo`: the captions of its script


def translate(
    context: str,
    text: str,
    disambiguation: str | None = None,
    n: int = -1,
    *,
    one: str | None = None,
) -> str:
    found = _translator.translate(context, text, disambiguation, n) if _translator else ""
    return _numerus(found, n, None) if found else _numerus(text, n, one)


def _numerus(text: str, n: int, one: str | None) -> str:
    """Qt's %n, and the English singular where one is given."""
    if n < 0:
        return text
    return (one if one is not None and n == 1 else text).replace("%n", str(n))


def translated(text: str) -> str:
    """A text for the person: a marked `Text` translated (its values too), any other as it is."""
    if not isinstance(text, Text):
        return text
    values = {k: translated(v) if isinstance(v, str) else v for k, v in text.values.items()}
    template = translate(text.context, text.template, None, text.n, one=text.one)
    return template.format_map(values) if values else template


def message(exc: BaseException) -> str:
    """An exception's message for the person: translated when the core marked it."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return translated(first) if isinstance(first, Text) else str(exc)


def error_text(exc: BaseException) -> str:
    """An error as the person reads it: the core's message translated; an OSError's file and
    the system's words."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return message(exc)


# -- choosing and installing a language -----------------------------------------------------------


def catalogue(language: str) -> Path:
    return CATALOGUES / f"sioul_tray_{language}.qm"


def _candidates(name: str) -> list[str]:
    """ "fr_FR.UTF-8@euro" or "fr-FR" -> ["fr_FR", "fr"]; "C" and "POSIX" mean English."""
    base = name.split(".")[0].split("@")[0].replace("-", "_").strip()
    if base in ("", "C", "POSIX"):
        return [SOURCE] if base else []
    out = [base]
    if "_" in base:
        out.append(base.split("_")[0])
    return out


_LANGUAGE = re.compile(r"[A-Za-z]{2,8}(_[A-Za-z0-9]{2,8})?")


def _available(name: str) -> str | None:
    for language in _candidates(name):
        if language.lower() == SOURCE or language.lower().startswith(SOURCE + "_"):
            return SOURCE
        # Only a name shaped like a language is looked up: a long or odd value (from the
        # environment or --lang) must not become a file name, nor an error.
        if _LANGUAGE.fullmatch(language) and catalogue(language).is_file():
            return language
    return None


def system_languages() -> list[str]:
    """The person's languages as gettext reads them (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); Qt's
    view of the system where those are not set (Windows, macOS)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return value.split(":") if var == "LANGUAGE" else [value]
    if sys.platform in ("win32", "darwin"):
        from PySide6.QtCore import QLocale

        return list(QLocale.system().uiLanguages())
    return []


def pick_language(override: str | None = None, system: Iterable[str] | None = None) -> str:
    """The language to show: `override` (--lang), else SIOUL_TRAY_LANG, else the first of the
    system's languages that has a catalogue; English when none fits. An override stands alone:
    one without a catalogue means English, not the system's language."""
    asked = override or os.environ.get(ENV)
    if asked:
        return _available(asked) or SOURCE
    for name in system_languages() if system is None else system:
        found = _available(name)
        if found is not None:
            return found
    return SOURCE


def install(language: str) -> bool:
    """Show `language` from now on; False (and English) when its catalogue does not load."""
    global _translator, _language
    _translator, _language = None, SOURCE
    if language == SOURCE:
        return True
    path = catalogue(language)
    if not path.is_file():
        return False
    from PySide6.QtCore import QTranslator

    translator = QTranslator()
    if not translator.load(str(path)):
        return False
    _translator, _language = translator, language
    return True


def language() -> str:
    """The language installed now."""
    return _language


def install_qt(app: Any) -> None:
    """Qt's own catalogue (standard buttons: OK, Cancel, Yes, No) in the installed language."""
    from PySide6.QtCore import QLibraryInfo, QTranslator

    for old in _qt_translators:
        app.removeTranslator(old)
    _qt_translators.clear()
    if _language == SOURCE:
        return
    where = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator(app)
    if translator.load(f"qtbase_{_language}", where):
        app.installTranslator(translator)
        _qt_translators.append(translator)
