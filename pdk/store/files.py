"""``pdk play``'s saves as files: one versioned JSON file per key, under an advisory lock.

``FileStore`` keeps each key in ``<root>/<key>.json`` through the one ``atomic_write``; the
version is the first field of the file (``{"rev": 12, ...``), so the save stays a plain
``pdk play`` save that ``load_save`` reads. Its read-check-write runs under an advisory
``flock`` on ``<root>/.<key>.lock``, which holds across threads and processes alike.

A file store has no presence board (one process serves its rooms, so there is nobody to
tell) and hears changes by polling the files' versions (``pdk.store.changes``).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path

from pdk.files.atomic import atomic_write, move_aside
from pdk.files.limits import RECORD_BYTES, LimitError, read_bounded
from pdk.store.changes import Changes
from pdk.store.contract import ChangeFeed, Stored, StoreUnavailable, VersionConflict, Write

_REV = re.compile(r'\{"rev": (\d{1,18})(?:, |(?=\}))')  # a lone {"rev": 1} is the save {}
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _oserror(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


class FileStore:
    """One file per key in ``root``; see the module docstring."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):  # keys are checked before; never join a stranger's text
            raise ValueError("bad store key")
        return self.root / f"{key}.json"

    def load(self, key: str) -> Stored | None:
        # Files are replaced whole (``atomic_write``): a read without the lock sees the old
        # copy or the new one, never a mix.
        path = self.path(key)
        try:
            text = read_bounded(path, RECORD_BYTES)
        except FileNotFoundError:
            return None
        except (UnicodeDecodeError, LimitError):
            return Stored(0, "")  # not a save: the caller judges it (and moves it aside)
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        return _split(text)

    def save(self, key: str, data: str, version: int, expected: int | None) -> None:
        if not data.startswith("{"):
            raise ValueError("a save is a JSON object")
        path = self.path(key)
        with self._locked(key):
            current = self._current(path)
            if expected is None and current is not None:
                raise VersionConflict(f"{key} exists at version {current}")
            if expected is not None and current != expected:
                raise VersionConflict(f"{key} is at version {current}, not {expected}")
            text = f'{{"rev": {version}, ' + data[1:] if data != "{}" else f'{{"rev": {version}}}'
            try:
                atomic_write(path, text)
            except OSError as exc:
                raise StoreUnavailable(_oserror(exc)) from None

    def save_all(self, writes: list[Write]) -> None:
        """Every version checked first, then written in order: one process's files (``pdk
        play``) are never a room's store, so nothing here waits on two files at once; a
        crash between two writes can leave the first alone."""
        for w in writes:
            current = self._current(self.path(w.key))
            if current != w.expected:
                raise VersionConflict(f"{w.key} is at version {current}, not {w.expected}")
        for w in writes:
            self.save(w.key, w.data, w.version, w.expected)

    def delete(self, key: str) -> None:
        with self._locked(key), contextlib.suppress(FileNotFoundError):
            self.path(key).unlink()

    def keys(self) -> list[str]:
        try:
            return sorted(p.stem for p in self.root.glob("*.json") if _KEY.fullmatch(p.stem))
        except OSError:
            return []

    def versions(self, keys: list[str]) -> dict[str, int]:
        found = {key: self._current(self.path(key)) for key in keys}
        return {key: v for key, v in found.items() if v is not None}

    def saved_at(self, keys: list[str]) -> dict[str, float]:
        """Each file's modification time (``atomic_write`` replaces it whole on every save)."""
        found = {}
        for key in keys:
            try:
                found[key] = self.path(key).stat().st_mtime
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StoreUnavailable(_oserror(exc)) from None
        return found

    def expire(self, idle_seconds: float) -> list[str]:
        """The files not written for ``idle_seconds`` (their modification time) deleted."""
        cutoff = time.time() - idle_seconds
        gone = []
        for key in self.keys():
            partner = {"rm-": "rt-", "rt-": "rm-"}.get(key[:3])
            if partner is not None:  # a room's facts and its table age together
                with contextlib.suppress(OSError):
                    if self.path(partner + key[3:]).stat().st_mtime >= cutoff:
                        continue
            with self._locked(key):  # looked at again under the lock: a save may just have landed
                path = self.path(key)
                try:
                    if path.stat().st_mtime >= cutoff:
                        continue
                    path.unlink()
                except FileNotFoundError:
                    continue
                except OSError as exc:
                    raise StoreUnavailable(_oserror(exc)) from None
            gone.append(key)
        return gone

    def set_aside(self, key: str) -> str | None:
        return str(move_aside(self.path(key)))

    def presence(self) -> None:
        return None

    def changes(self, interval: float = 1.0) -> ChangeFeed:
        return Changes(self, interval)

    def close(self) -> None:
        return None

    def _current(self, path: Path) -> int | None:
        """The stored version (0 for a file written before versions), None if absent."""
        try:
            with open(path, "rb") as f:
                head = f.read(40).decode("utf-8", "replace")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        m = _REV.match(head)
        return int(m.group(1)) if m else 0

    @contextlib.contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            f = open(self.root / f".{key}.lock", "ab")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise StoreUnavailable(_oserror(exc)) from None
        try:
            try:
                import fcntl
            except ImportError:  # not POSIX: one process per data directory
                yield
                return
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        finally:
            f.close()


def _split(text: str) -> Stored:
    m = _REV.match(text)
    if m is None:
        return Stored(0, text)
    return Stored(int(m.group(1)), "{" + text[m.end() :])
