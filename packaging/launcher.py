"""The bundle's entry point: `sioul_tray.cli:main`, the tray (no arguments) and its command line."""

import sys

from sioul_tray.cli import main

if __name__ == "__main__":
    sys.exit(main())
