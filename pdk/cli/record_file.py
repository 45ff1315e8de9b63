"""A game record named on the command line, read for the commands that take one
(``pdk replay``, ``review``, ``advise``, ``play --from``): one loader, so that a bad file,
or a JSONL file named without ``--game``, gets the same one line from every command."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from pdk.cli.common import fail
from pdk.engine.record import GameRecord, RecordError, RecordReason
from pdk.files.limits import LimitError, loads_json
from pdk.records.disk import jsonl_games, load
from pdk.text.catalog import Lang, tr


def is_jsonl(path: Path) -> bool:
    """Whether ``path`` reads as a JSONL file of games: two games or more, the first one a
    JSON value (False when it cannot be read: loading it again then says why)."""
    try:
        games = jsonl_games(path)
        first = next(games, None)
        if first is None or next(games, None) is None:
            return False
        loads_json(first)
    except (RecordError, json.JSONDecodeError, LimitError):
        return False
    return True


def count_games(path: Path) -> int:
    """The games of a JSONL file up to its first unreadable line (``--check`` names it)."""
    n = 0
    with contextlib.suppress(RecordError):
        for _ in jsonl_games(path):
            n += 1
    return n


def load_or_fail(path: Path, game: int | None, lang: Lang) -> GameRecord:
    """The record in ``path`` (line ``game`` of a JSONL file), every play re-checked, or
    one line saying why not and exit 2."""
    try:
        return load(path, game)
    except RecordError as exc:
        if game is None and exc.reason in (RecordReason.JSON, RecordReason.CANNOT_READ):
            if is_jsonl(path):
                fail(tr("rp_err_jsonl", lang, path=path, n=count_games(path)))
        fail(exc.message(lang))
    except (KeyError, TypeError, AttributeError, ValueError):
        # A record shaped so oddly the loader did not foresee it: still one line, no traceback.
        fail(tr("rp_err_invalid", lang, path=path))
