"""`python -m sioul_tray.translations.update`: extract the messages from the code into every
catalogue (new ones come in unfinished, vanished ones are dropped), then compile them.

Translate the unfinished messages in the ``.ts`` (by hand or with `pyside6-linguist`) and run it
again: tests/test_i18n.py fails while a message is missing or unfinished.
"""

from __future__ import annotations

import sys

from sioul_tray.translations import LANGUAGES, catalogue, compile_all, extract


def main() -> int:
    for language in LANGUAGES:
        print(extract(catalogue(language)).strip())
    for qm in compile_all():
        print(f"compiled {qm}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
