"""One exception family for sioul-tray; each message states the fact, naming the file."""

from __future__ import annotations


class SioulError(Exception):
    """Something the person can act on: the message says what and where."""


class WrongPassphrase(SioulError):
    """The passphrase (or the key kept on this computer) does not open the sharing folder."""


class SealDamaged(SioulError):
    """``sioul.seal`` is there but cannot be used: damaged, or made by a newer version."""


class SealExists(SioulError, FileExistsError):
    """Creating a seal where one exists already: nothing is ever overwritten."""


class Unreadable(SioulError):
    """A claim file that does not read; the message is the reason kept for the tray."""


class ForeignSeal(Unreadable):
    """A claim file sealed with another key: another seal for this folder, or another folder's."""


class NotSetUp(SioulError):
    """This installation has no sharing folder yet."""


class Busy(SioulError):
    """Another process of this installation writes its claims (the tray, usually)."""


class Copied(SioulError):
    """This installation's computer id was made on another machine: a copied installation, which
    must not write claims under that id until the person says which computer this is."""

    def __init__(self, message: object, computer: str) -> None:
        super().__init__(message)
        self.computer = computer
