"""Moving the web saves of earlier versions (one ``web/<token>.json`` per table) into a store.

Before the database, ``pdk serve`` kept each browser's table as a file. At start the store
takes in every such file once, as version 1, and the file is deleted only after the store
has it durably; a crash halfway simply repeats the rest at the next start (a key already in
the store is not overwritten). Files that are not a table's save are left alone.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from pdk.app.limits import RECORD_BYTES, LimitError, read_bounded
from pdk.app.store import Store, VersionConflict
from pdk.app.tables import valid_token

_log = logging.getLogger(__name__)


def import_json_saves(store: Store, folder: Path) -> int:
    """Move ``folder/<token>.json`` into ``store``; how many were moved."""
    try:
        entries = sorted(folder.glob("*.json"))
    except OSError:
        return 0
    moved = 0
    for path in entries:
        if not valid_token(path.stem):
            continue
        try:
            text = read_bounded(path, RECORD_BYTES)
        except (OSError, UnicodeDecodeError, LimitError) as exc:
            _log.warning("%s: not moved into the store (%s)", path, exc)
            continue
        with contextlib.suppress(VersionConflict):  # moved before a crash: the store's copy wins
            store.save(path.stem, text, 1, None)
        os.unlink(path)
        moved += 1
    return moved


__all__ = ["import_json_saves"]
