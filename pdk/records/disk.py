"""Game records on disk: one record or a JSONL file of many, read within bounds.

Records are written through the one ``atomic_write`` (``pdk.files.atomic``) and read
within bounds (``pdk.files.limits``): a hostile file is one ``RecordError``, never a
parser's traceback. A record may be JSON or its text form (``pdk.records.text_record``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from pdk.engine.record import GameRecord, RecordError, RecordReason, dumps, loads
from pdk.files.atomic import atomic_write
from pdk.files.limits import (
    JSONL_BYTES,
    RECORD_BYTES,
    LimitError,
    bounded_lines,
    check_length,
    loads_json,
    read_bounded,
)
from pdk.records.text_record import is_text_record, loads_text


def dump(record: GameRecord, path: Path) -> None:
    """Write one game record, atomically and durably."""
    atomic_write(path, dumps(record) + "\n")


def read_text(path: Path, limit: int = JSONL_BYTES) -> str:
    """A record or JSONL file's text, bounded; ``RecordError`` names the file if not."""
    with _reading(path):
        text = read_bounded(path, limit)
    return text


def jsonl_games(path: Path) -> Iterator[str]:
    """The non-blank lines of a JSONL file, one game each, read one at a time: a file of
    any size (``selfplay --out`` of a million deals) is never held whole, but each line is
    bounded as a record is (``RECORD_BYTES``); ``RecordError`` names the file if not."""
    with _reading(path):
        for line in bounded_lines(path, RECORD_BYTES):
            if line.strip():
                yield line


@contextlib.contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Reading a record file: the system's and the bounds' reasons become ``RecordError``."""
    try:
        yield
    except FileNotFoundError:
        raise RecordError(RecordReason.NO_FILE, path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(RecordReason.CANNOT_READ, path=str(path), detail=_os_text(exc)) from None
    except LimitError as exc:
        raise RecordError(RecordReason.CANNOT_READ, path=str(path), detail=exc) from None


def _os_text(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def parse(text: str) -> GameRecord:
    """One record from its JSON text (or its text form, ``pdk.records.text_record``), parsed
    within bounds and replayed (``RecordError``; a bound passed is said as why the record
    cannot be read)."""
    try:
        check_length(text, RECORD_BYTES)
        if is_text_record(text):
            return loads_text(text)
        return loads(text, decode=loads_json)
    except LimitError as exc:
        raise RecordError(RecordReason.CANNOT_READ, detail=exc) from None


def load(path: Path, game: int | None = None) -> GameRecord:
    """Read a record file; ``game`` picks line K (1-based) of a JSONL file, which is read
    line by line (of any size)."""
    if game is None:
        text = read_text(path)
    else:
        n = 0
        found = None
        for n, line in enumerate(jsonl_games(path), 1):
            if n == game:
                found = line
                break
        if found is None:
            raise RecordError(RecordReason.NO_GAME, path=str(path), k=game, n=n)
        text = found
    try:
        return parse(text)
    except RecordError as exc:
        raise exc.in_file(path) from None
