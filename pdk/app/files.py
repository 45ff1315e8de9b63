"""Files pdk writes and reads: the one atomic write, and game records on disk.

Saves, records and the history all go through ``atomic_write``, so that a crash at any
instant leaves either the old file or the new one, never a mix.
"""

from __future__ import annotations

import os
from pathlib import Path

from pdk.engine.record import GameRecord, RecordError, RecordReason, dumps, loads


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never a mix,
    even if the process is killed or the machine loses power mid-write."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
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


def dump(record: GameRecord, path: Path) -> None:
    """Write one game record, atomically and durably."""
    atomic_write(path, dumps(record) + "\n")


def load(path: Path, game: int | None = None) -> GameRecord:
    """Read a record file; ``game`` picks line K (1-based) of a JSONL file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(RecordReason.NO_FILE, path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(RecordReason.CANNOT_READ, path=str(path), detail=str(exc)) from None
    if game is not None:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if not 1 <= game <= len(lines):
            raise RecordError(RecordReason.NO_GAME, path=str(path), k=game, n=len(lines))
        text = lines[game - 1]
    try:
        return loads(text)
    except RecordError as exc:
        raise exc.in_file(path) from None
