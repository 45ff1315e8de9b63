"""Bounded reading of every file pdk reads: profiles (YAML), records, JSONL and saves (JSON).

A file is someone else's input. Before it is parsed its size is checked (and it must be a
regular file: a FIFO would block forever, a device never end); while it is parsed its
nesting depth, its integers and its floats are bounded. So a ``[[[[…]]]]`` thousands deep,
a 5,000-digit integer, ``Infinity``/``NaN``, a YAML alias bomb or a multi-gigabyte file is
a ``LimitError`` naming the problem, never a ``RecursionError``, ``ValueError: Exceeds the
limit (4300 digits)`` or ``OverflowError`` from deep inside a parser or a model.

The callers (registry, files, session) wrap a ``LimitError`` in their own "cannot read"
error, which names the file.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from pdk.text.catalog import LocalizedError

# Far above anything pdk writes (a record nests 5 deep, a profile 4), far below the
# interpreter's recursion limit that the parsers and the models would hit.
MAX_DEPTH = 32
# No field of a profile, record or save needs more than a 64-bit integer (seeds are 63-bit).
MAX_INT = 2**64
MAX_INT_DIGITS = 20
# Values, keys and containers in one document (an alias bomb counts each expansion).
MAX_NODES = 1_000_000

KIB = 1024
MIB = 1024 * KIB
PROFILE_BYTES = 1 * MIB  # the largest shipped profile is about 4 KiB
RECORD_BYTES = 16 * MIB  # one game record or save (about 5 KiB each)
JSONL_BYTES = 512 * MIB  # a file read whole (no --game); a JSONL game is read line by line


class LimitReason(Enum):
    """What is wrong with a hostile file; values are message keys (pdk.text.messages.hostile)."""

    TOO_BIG = "lim_too_big"
    NOT_REGULAR = "lim_not_regular"
    TOO_DEEP = "lim_too_deep"
    BIG_INT = "lim_big_int"
    NOT_FINITE = "lim_not_finite"
    BIG_NUMBER = "lim_big_number"
    TOO_MANY = "lim_too_many"


class LimitError(LocalizedError, ValueError):
    """A file beyond what pdk reads; the caller names the file."""

    reason: LimitReason


def _size(n: int) -> str:
    if n >= MIB:
        return f"{n / MIB:.0f} MiB"
    if n >= KIB:
        return f"{n / KIB:.0f} KiB"
    return f"{n} B"


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A descriptor of a regular file, opened without blocking (a FIFO with no writer
    would hang ``open``) and then set to block; anything else is refused (a directory as
    the system says it, callers translate it)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(st.st_mode):
            raise LimitError(LimitReason.NOT_REGULAR)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def bounded_lines(path: Path, line_limit: int) -> Iterator[str]:
    """The lines of a regular file of any size, each of at most ``line_limit`` bytes, read
    one at a time (a JSONL file of a million games is never held whole). Raises as
    ``read_bounded`` does, ``LimitError`` for a line too long."""
    fd, _ = _open_regular(path)
    try:
        with os.fdopen(fd, "rb", closefd=False) as f:
            while line := f.readline(line_limit + 2):
                if len(line.rstrip(b"\r\n")) > line_limit:
                    raise LimitError(
                        LimitReason.TOO_BIG, size=f"> {_size(line_limit)}", limit=_size(line_limit)
                    )
                yield line.decode("utf-8").rstrip("\r\n")
    finally:
        os.close(fd)


def read_bounded(path: Path, limit: int) -> str:
    """The text of a regular file of at most ``limit`` bytes, read no further than one
    byte past the limit, whatever ``stat`` said. Raises ``OSError`` (the system's
    reasons), ``UnicodeDecodeError`` or ``LimitError``."""
    fd, st = _open_regular(path)
    try:
        if st.st_size > limit:
            raise LimitError(LimitReason.TOO_BIG, size=_size(st.st_size), limit=_size(limit))
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise LimitError(LimitReason.TOO_BIG, size=f"> {_size(limit)}", limit=_size(limit))
    return data.decode("utf-8")


def check_length(text: str, limit: int) -> None:
    """One document (a line of a JSONL file, say) of at most ``limit`` characters."""
    if len(text) > limit:
        raise LimitError(LimitReason.TOO_BIG, size=_size(len(text)), limit=_size(limit))


# -- JSON ------------------------------------------------------------------------------------

# A string (escapes included) or a bracket: what the depth pre-scan looks at.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _json_depth_ok(text: str) -> None:
    """Refuse nesting beyond ``MAX_DEPTH`` before the parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for m in _JSON_TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise LimitError(LimitReason.TOO_DEEP, limit=MAX_DEPTH)
        elif ch in "]}":
            depth -= 1


def _json_int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise LimitError(LimitReason.BIG_INT, digits=len(s.lstrip("-")), limit=MAX_INT_DIGITS)
    return _checked_int(int(s))


def _json_float(s: str) -> float:
    return _checked_float(float(s))


def _json_constant(s: str) -> float:
    raise LimitError(LimitReason.NOT_FINITE, value=s)


def _checked_int(n: int) -> int:
    if abs(n) > MAX_INT:
        raise LimitError(LimitReason.BIG_NUMBER, limit="2**64")
    return n


def _checked_float(x: float) -> float:
    if not math.isfinite(x):
        raise LimitError(LimitReason.NOT_FINITE, value=repr(x))
    if abs(x) > MAX_INT:
        raise LimitError(LimitReason.BIG_NUMBER, limit="2**64")
    return x


def loads_json(text: str) -> Any:
    """``json.loads`` with the bounds: depth checked before parsing, numbers while parsing.

    Raises ``json.JSONDecodeError`` for bad syntax, ``LimitError`` beyond the bounds.
    """
    _json_depth_ok(text)
    return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)


# -- YAML ------------------------------------------------------------------------------------


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing what no profile holds: nesting beyond ``MAX_DEPTH``,
    integers beyond 64 bits (before ``int()`` meets 5,000 digits) and more than
    ``MAX_NODES`` nodes (an alias bomb)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        depth = getattr(self, "_depth", 0)
        if depth >= MAX_DEPTH:
            raise LimitError(LimitReason.TOO_DEEP, limit=MAX_DEPTH)
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise LimitError(LimitReason.TOO_MANY, limit=MAX_NODES)
        return super().construct_object(node, deep)

    def construct_yaml_int(self, node: Any) -> int:
        digits = sum(c.isalnum() for c in str(node.value))
        if digits > MAX_INT_DIGITS + 2:  # room for a 0x / 0b prefix
            raise LimitError(LimitReason.BIG_INT, digits=digits, limit=MAX_INT_DIGITS)
        return _checked_int(super().construct_yaml_int(node))

    def construct_yaml_float(self, node: Any) -> float:
        return _checked_float(super().construct_yaml_float(node))


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)
_BoundedLoader.add_constructor("tag:yaml.org,2002:float", _BoundedLoader.construct_yaml_float)


def loads_yaml(text: str) -> Any:
    """``yaml.safe_load`` with the bounds. Raises ``yaml.YAMLError`` or ``LimitError``.

    Aliases are expanded into a tree (and counted), so no caller ever walks a shared or
    recursive structure (``&a [*a]``)."""
    data = yaml.load(text, Loader=_BoundedLoader)
    return _untangled(data)


def _untangled(data: Any) -> Any:
    """A copy in which no container appears twice (aliases become copies); at most
    ``MAX_NODES`` values in all and ``MAX_DEPTH`` levels deep."""
    budget = [MAX_NODES]

    def copy(node: Any, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise LimitError(LimitReason.TOO_MANY, limit=MAX_NODES)
        if depth > MAX_DEPTH:
            raise LimitError(LimitReason.TOO_DEEP, limit=MAX_DEPTH)
        if isinstance(node, dict):
            return {copy(k, depth + 1): copy(v, depth + 1) for k, v in node.items()}
        if isinstance(node, list):
            return [copy(v, depth + 1) for v in node]
        return node

    return copy(data, 0)


__all__ = [
    "JSONL_BYTES",
    "MAX_DEPTH",
    "PROFILE_BYTES",
    "RECORD_BYTES",
    "LimitError",
    "LimitReason",
    "bounded_lines",
    "check_length",
    "loads_json",
    "loads_yaml",
    "read_bounded",
]
