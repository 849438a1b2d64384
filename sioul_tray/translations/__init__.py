"""The catalogues: ``sioul_tray_<lang>.ts`` (the source, committed, edited by translators or with
Qt Linguist) and ``sioul_tray_<lang>.qm`` (compiled by Qt's lrelease when the package is built,
never committed).

`python -m sioul_tray.translations.update` extracts the messages from the code with Qt's lupdate
into every ``.ts``. The build (setup.py) and the tests (tests/conftest.py) compile them with
`compile_all`.

Only the standard library here: setup.py loads this file by its path, before anything is
installed.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
LANGUAGES = ("fr",)
# `Core.mark("…")` marks a message without translating it (the core has no Qt): lupdate reads it
# as QT_TR_NOOP, with the word before the dot as the context (see sioul_tray/i18n.py).
ALIASES = "QT_TR_NOOP+=mark"


def sources(package: Path = PACKAGE) -> list[Path]:
    """Every Python file of the package, in a stable order."""
    return sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts)


def catalogue(language: str, folder: Path = HERE) -> Path:
    return folder / f"sioul_tray_{language}.ts"


def qt_tool(name: str) -> Path:
    """Qt's `lupdate` or `lrelease`, as PySide6-Essentials ships them (found without importing
    Qt: the build runs this before the package's dependencies are installed)."""
    exe = f"{name}.exe" if sys.platform == "win32" else name
    spec = importlib.util.find_spec("PySide6")
    for folder in spec.submodule_search_locations or [] if spec else []:
        if (Path(folder) / exe).is_file():
            return Path(folder) / exe
    found = shutil.which(f"pyside6-{name}")
    if found is None:
        raise FileNotFoundError(f"Qt's {name} not found: install PySide6-Essentials")
    return Path(found)


def extract(ts: Path, package: Path = PACKAGE, keep_obsolete: bool = False) -> str:
    """Run lupdate over the package's sources into `ts` (made or merged); lupdate's report."""
    args = [str(qt_tool("lupdate")), *map(str, sources(package))]
    args += ["-tr-function-alias", ALIASES, "-locations", "absolute"]
    if not keep_obsolete:
        args.append("-no-obsolete")
    if not ts.exists():
        args += ["-target-language", ts.stem.removeprefix("sioul_tray_")]
    done = subprocess.run(
        [*args, "-ts", str(ts)], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout + done.stderr


def compile_one(ts: Path, qm: Path) -> None:
    qm.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [str(qt_tool("lrelease")), "-silent", str(ts), "-qm", str(qm)],
        capture_output=True,
        check=True,
        timeout=120,
    )


def compile_all(dest: Path = HERE, source: Path = HERE, only_stale: bool = False) -> list[Path]:
    """Compile every ``.ts`` of `source` into `dest`; with `only_stale`, only those whose ``.qm`` is
    missing or older than the ``.ts``. The ``.qm`` files written."""
    made = []
    for ts in sorted(source.glob("sioul_tray_*.ts")):
        qm = dest / ts.with_suffix(".qm").name
        if only_stale and qm.exists() and qm.stat().st_mtime >= ts.stat().st_mtime:
            continue
        compile_one(ts, qm)
        made.append(qm)
    return made
