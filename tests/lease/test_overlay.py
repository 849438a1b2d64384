"""FolderOverlay: claim files published to and fetched from a folder's own leases/<part>/ tree."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

import pytest

from sioul_tray.lease.folder import MAX_READ, Entry
from sioul_tray.lease.overlay import FolderOverlay, Overlay

PART = "invoices"
SEALED = b"sealed claim bytes " * 10  # what the overlay stores is opaque to it
CONFLICT = "aa.sync-conflict-20250101-101010-ABCDEFG.lease"


def by_name(entries: Iterable[Entry]) -> dict[str, Entry]:
    return {entry.name: entry for entry in entries}


def test_a_published_claim_is_fetched_back_whole(tmp_path: Path) -> None:
    overlay: Overlay = FolderOverlay(tmp_path / "server", name="server")
    assert list(overlay.fetch(PART)) == []  # nothing published yet: no tree, no problem
    overlay.publish(PART, "aa.lease", SEALED)
    assert (tmp_path / "server" / "leases" / PART / "aa.lease").read_bytes() == SEALED
    assert list(overlay.fetch(PART)) == [Entry("aa.lease", SEALED)]
    assert list(overlay.fetch("medicines")) == []  # each part has its own folder


def test_it_is_named_after_its_folder_unless_named(tmp_path: Path) -> None:
    assert FolderOverlay(tmp_path).name == str(tmp_path)
    assert FolderOverlay(tmp_path, name="second folder").name == "second folder"


def test_publishing_again_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    overlay = FolderOverlay(tmp_path)
    overlay.publish(PART, "aa.lease", b"first")
    overlay.publish(PART, "aa.lease", SEALED)
    folder = tmp_path / "leases" / PART
    assert os.listdir(folder) == ["aa.lease"]
    assert (folder / "aa.lease").read_bytes() == SEALED


def test_its_folders_are_made_readable_by_all_whatever_the_umask(tmp_path: Path) -> None:
    server = tmp_path / "server"
    old = os.umask(0o077)  # a person's strict umask: other computers' readers must still read
    try:
        FolderOverlay(server).publish(PART, "aa.lease", SEALED)
    finally:
        os.umask(old)
    for folder in (server, server / "leases", server / "leases" / PART):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert stat.S_IMODE((server / "leases" / PART / "aa.lease").stat().st_mode) == 0o644


def test_files_that_are_not_claims_come_with_their_reason(tmp_path: Path) -> None:
    overlay = FolderOverlay(tmp_path)
    overlay.publish(PART, "aa.lease", SEALED)
    folder = tmp_path / "leases" / PART
    (folder / CONFLICT).write_bytes(SEALED)
    (folder / "huge.lease").write_bytes(b"x" * (MAX_READ + 1))
    (folder / "empty.lease").write_bytes(b"")
    entries = by_name(overlay.fetch(PART))
    assert entries["aa.lease"] == Entry("aa.lease", SEALED)
    for name in (CONFLICT, "huge.lease", "empty.lease"):
        assert entries[name].data is None and entries[name].problem, name
    assert "conflicted copy" in str(entries[CONFLICT].problem)
    assert "too large" in str(entries["huge.lease"].problem)


def test_a_file_system_giving_short_reads_still_gives_each_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An overlay's files are read to their end (`careful`): Lease reads them no second time."""
    overlay = FolderOverlay(tmp_path)
    overlay.publish(PART, "aa.lease", SEALED)
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real_read(fd, min(n, 16)))
    assert list(overlay.fetch(PART)) == [Entry("aa.lease", SEALED)]


def test_an_overlay_that_cannot_be_written_raises_oserror(tmp_path: Path) -> None:
    """Lease turns an OSError into a problem of the overlay; anything else would stop a tick."""
    (tmp_path / "server").write_bytes(b"a file where the folder should be")
    with pytest.raises(OSError):
        FolderOverlay(tmp_path / "server").publish(PART, "aa.lease", SEALED)


def test_a_link_planted_as_the_part_s_folder_is_refused_not_followed(tmp_path: Path) -> None:
    """As in the sharing folder (`folder.linked_folder`): nothing is written or listed where
    the link points, and the refusal says why."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "bb.lease").write_bytes(SEALED)
    (tmp_path / "server" / "leases").mkdir(parents=True)
    (tmp_path / "server" / "leases" / PART).symlink_to(elsewhere, target_is_directory=True)
    overlay = FolderOverlay(tmp_path / "server")
    with pytest.raises(OSError, match="is a link, not a folder"):
        overlay.publish(PART, "aa.lease", SEALED)
    assert os.listdir(elsewhere) == ["bb.lease"]
    [refused] = overlay.fetch(PART)
    assert refused.data is None and refused.problem is not None
    assert "is a link, not a folder" in refused.problem
