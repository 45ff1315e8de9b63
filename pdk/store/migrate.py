"""Moving the web saves of earlier versions (one ``web/<token>.json`` per table) into a store.

Before the database, ``pdk serve`` kept each browser's table as a file (``FileStore`` in
``web/``). When ``pdk serve`` starts (``pdk.cli.serve``, once, before its workers) the
store takes in every such file at the version the file had (1 for a file written before
versions), and the file is deleted only after the store has it durably; a crash halfway
simply repeats the rest at the next start (a key already in the store is not
overwritten). Files that are not a table's save are left alone. Opening a store never
does this: the tests, benchmarks and tools that open one get it as it is.
"""

from __future__ import annotations

import contextlib
import logging

from pdk.store.contract import Store, StoreUnavailable, VersionConflict
from pdk.store.files import FileStore
from pdk.store.tokens import valid_token

_log = logging.getLogger(__name__)


def import_json_saves(store: Store, files: FileStore) -> int:
    """Move the tables of ``files`` into ``store``; how many were moved."""
    moved = 0
    saved = files.keys()  # a store's keys, not a dict's
    for key in saved:
        if not valid_token(key):
            continue
        try:
            stored = files.load(key)
            if stored is None:
                continue
            if not stored.data:  # not text, or too big: not a save, left where it is
                _log.warning("%s: not moved into the store (not a save)", files.path(key))
                continue
            with contextlib.suppress(VersionConflict):  # moved before a crash: the store's copy wins
                store.save(key, stored.data, max(stored.version, 1), None)
            files.delete(key)
        except (StoreUnavailable, OSError) as exc:  # this file stays; the next start tries again
            _log.warning("%s: not moved into the store (%s)", files.path(key), exc)
            continue
        moved += 1
    return moved


__all__ = ["import_json_saves"]
