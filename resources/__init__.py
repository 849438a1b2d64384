"""The tray's icons (SVG), installed as the package ``sioul_tray.resources``."""
