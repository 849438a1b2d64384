"""Is the sharing folder inside a sync tool's folder? Compared as on disk (symlinks followed)."""

from __future__ import annotations

from pathlib import Path


def resolved(path: Path) -> Path:
    """`path` absolute with symlinks followed; as written when that fails (a symlink loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def within(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or inside it, both resolved."""
    target, top = resolved(path), resolved(root)
    return target == top or target.is_relative_to(top)
