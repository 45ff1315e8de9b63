"""Files pdk writes and reads: the one atomic write, and game records on disk.

Saves, records and the history all go through ``atomic_write``, so that a crash at any
instant leaves either the old file or the new one, never a mix. A ``kill -9`` between
creating the temporary file and renaming it leaves the temporary file behind;
``remove_stale_temps`` clears those at the next start. Records are read within bounds
(``pdk.app.limits``): a hostile file is one ``RecordError``, never a parser's traceback.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from pdk.app.limits import (
    JSONL_BYTES,
    RECORD_BYTES,
    LimitError,
    bounded_lines,
    check_length,
    loads_json,
    read_bounded,
)
from pdk.app.text_record import is_text_record, loads_text
from pdk.engine.record import GameRecord, RecordError, RecordReason, dumps, loads


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


_TEMP = re.compile(r"^\..+\.(\d+)\.tmp$")


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never a mix,
    even if the process is killed or the machine loses power mid-write. If the write
    fails (a full disk) the temporary file is removed and the error raised."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_name(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def remove_stale_temps(folder: Path) -> int:
    """Delete the temporary files of ``atomic_write`` left in ``folder`` by processes that
    no longer run (a ``kill -9``); a live process's file is its write in progress. Returns
    how many were removed; a folder that cannot be listed or written is left as it is."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m is None or _alive(int(m.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # our own leftover can only be from an earlier process with this pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or no such pid number): leave it
    return True


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
    """One record from its JSON text (or its text form, ``pdk.app.text_record``), parsed
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
