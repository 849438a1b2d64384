"""The tray's icons (SVG, and PNGs rendered from them), installed as ``sioul_tray.resources``."""
