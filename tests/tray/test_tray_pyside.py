"""PySide6 loaded as the tray loads it (tray/pyside.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LIGHT = """
import linecache, sys
sys.path.insert(0, sys.argv[1])
import json  # imported before PySide6: not scanned
from sioul_tray.tray import pyside
replaced = pyside.load()
import uses_qt, plain  # imported after: scanned by PySide6's import hook
feature = sys.modules.get("shibokensupport.feature") or sys.modules["PySide6.support.feature"]
marks = feature.pyside_feature_dict
print(replaced, len(linecache.cache), marks["uses_qt"], marks["plain"], "json" in marks)
"""


def test_qt_imports_without_keeping_sources(tmp_path: Path) -> None:
    (tmp_path / "uses_qt.py").write_text("from PySide6.QtCore import QObject\n")
    (tmp_path / "plain.py").write_text("VALUE = 1\n")
    env = {"PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", LIGHT, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    replaced, cached, uses_qt, plain, json_mark = done.stdout.split()
    assert replaced == "True"
    assert cached == "0"  # no source text kept (PySide6's own check keeps every module's)
    # PySide6's answers are unchanged: 0 = "uses PySide6, features apply", -1 = "ignore".
    assert (uses_qt, plain, json_mark) == ("0", "-1", "False")
