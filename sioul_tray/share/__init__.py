"""The sharing folder: its seal, and the sealing of the claim files in it. No Qt here."""

from sioul_tray.errors import SealDamaged, SealExists, WrongPassphrase
from sioul_tray.share.seal import SEAL_NAME, Share

__all__ = ["SEAL_NAME", "SealDamaged", "SealExists", "Share", "WrongPassphrase"]
