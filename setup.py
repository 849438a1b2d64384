"""The build's one step beyond pyproject.toml: compile the translation catalogues (``.ts``) into
``.qm`` files with Qt's lrelease (from PySide6-Essentials, a build requirement), for a wheel
(``pip install .``) and for an editable install (``pip install -e .``) alike.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
CATALOGUES = ROOT / "sioul_tray" / "translations"


def _translations() -> ModuleType:
    """sioul_tray.translations, loaded by its path: the package is not installed yet."""
    spec = importlib.util.spec_from_file_location("_sioul_translations", CATALOGUES / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        # An editable install imports the checkout itself: its .qm files go beside the .ts.
        editable = getattr(self, "editable_mode", False)
        dest = CATALOGUES if editable else Path(self.build_lib) / "sioul_tray" / "translations"
        for qm in _translations().compile_all(dest, CATALOGUES):
            print(f"compiled {qm}")


setup(cmdclass={"build_py": BuildPy})
