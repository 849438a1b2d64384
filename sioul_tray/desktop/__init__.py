"""Platform parts of the tray that know about the desktop: idle time, sleep, notifications.

Each module is small and chosen at run time; platform-only imports (ctypes user32, pyobjc) happen
inside the functions that run on that platform, so importing this package is safe everywhere.
"""
