"""The one atomic write: a file holds its old content or its new one, never a mix.

Saves, records, the history's exports and the file store all go through ``atomic_write``,
so that a crash at any instant leaves either the old file or the new one. A ``kill -9``
between creating the temporary file and renaming it leaves the temporary file behind;
``remove_stale_temps`` clears those at the next start.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


_TEMP = re.compile(r"^\..+\.(\d+)\.tmp$")


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never a mix,
    even if the process is killed or the machine loses power mid-write. If the write
    fails (a full disk) the temporary file is removed and the error raised."""
    with atomic_replace(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(text)


@contextlib.contextmanager
def atomic_replace(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for the caller to write whole (a file, or a
    database another library writes, as ``pdk serve backup`` does); once the block ends
    it is synced and renamed over ``path``, with ``atomic_write``'s guarantee. If the
    block fails the temporary file is removed and the error raised."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_name(path)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
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


def move_aside(path: Path) -> Path:
    """Keep a broken save for inspection, out of the way of the next game."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    return target
