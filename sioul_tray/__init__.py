"""sioul-tray: keeps Sioul's medicines and invoices on one computer at a time."""

__version__ = "0.1.0"
