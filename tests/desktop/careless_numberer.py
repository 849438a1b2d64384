"""examples/numberer.py without its records gate, to show the gate is what keeps the numbers
whole when records sync slower than claims (tests/desktop/test_desktop_invoices.py):

    python tests/desktop/careless_numberer.py ARGS...    # the numberer's own ARGS

It numbers as soon as the verdict says yes, without waiting for the other keepers' records to
reach their `must_have` marks.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "numberer", Path(__file__).resolve().parents[2] / "examples" / "numberer.py"
)
assert _spec is not None and _spec.loader is not None
numberer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(numberer)

if __name__ == "__main__":
    setattr(numberer, "records_reached", lambda held, must_have, me: True)  # noqa: B010
    setattr(numberer, "this_program", lambda: [sys.executable, __file__])  # noqa: B010 (--loop)
    sys.exit(numberer.main())
