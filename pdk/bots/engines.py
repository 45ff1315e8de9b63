"""Named outside engines: the small TOML file that gives an engine command a name.

``engine:NAME`` anywhere a bot goes runs the engine this file names, with its options and
times; ``cmd:COMMAND`` needs no file. The file is ``$PDK_ENGINES``, else ``engines.toml``
in pdk's data directory::

    [greedy]
    command = "python3 greedy.py"      # or a list of arguments
    options = { bombs = false }        # sent as setoption after the hello
    move_time = 2.0                    # seconds per move (default 5)
    start_time = 10.0                  # seconds to say hello (default 10)
    cwd = "engines"                    # where it runs, relative to this file (default: its folder)

Reading it is file I/O, so it lives here; the bots layer only gets the resulting specs.
"""

from __future__ import annotations

import os
import shlex
import tomllib
from enum import Enum
from pathlib import Path
from typing import Any

from pdk.bots.external import EngineSpec, register_engines
from pdk.files.limits import LimitError, read_bounded
from pdk.text.catalog import LocalizedError

ENGINES_BYTES = 1 << 20
_KEYS = {"command", "options", "move_time", "start_time", "cwd"}


class EnginesReason(Enum):
    FILE = "eng_file"


class EnginesFileError(LocalizedError, ValueError):
    """An engines file that cannot be used, said in one line naming the file and the entry
    (the TOML library's own words for a syntax error: its line and column)."""

    reason: EnginesReason


def engines_file(data_dir: Path) -> Path:
    env = os.environ.get("PDK_ENGINES")
    return Path(env) if env else data_dir / "engines.toml"


def logs_dir(data_dir: Path) -> Path:
    return data_dir / "engine-logs"


def load_engines(path: Path, logs: Path) -> dict[str, EngineSpec]:
    """The engines ``path`` names (none if it does not exist), registered for ``engine:NAME``."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(read_bounded(path, ENGINES_BYTES))
    except (OSError, UnicodeDecodeError, LimitError) as exc:
        raise _bad(path, str(getattr(exc, "strerror", None) or exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise _bad(path, str(exc)) from None
    specs = {name: _spec(path, name, entry, logs) for name, entry in data.items()}
    register_engines(specs)
    return specs


def _spec(path: Path, name: str, entry: Any, logs: Path) -> EngineSpec:
    if not isinstance(entry, dict):
        raise _bad(path, f"[{name}] must be a table")
    unknown = set(entry) - _KEYS
    if unknown:
        raise _bad(path, f"[{name}] has unknown keys: {', '.join(sorted(unknown))}")
    command = entry.get("command")
    if isinstance(command, str):
        try:
            argv = tuple(shlex.split(command))
        except ValueError as exc:
            raise _bad(path, f"[{name}] command: {exc}") from None
    elif isinstance(command, list) and all(isinstance(a, str) for a in command):
        argv = tuple(command)
    else:
        argv = ()
    if not argv:
        raise _bad(path, f"[{name}] needs a command")
    options = entry.get("options", {})
    if not isinstance(options, dict) or not all(
        isinstance(v, str | int | float | bool) for v in options.values()
    ):
        raise _bad(path, f"[{name}] options must map names to numbers, booleans or strings")
    times = {}
    for key, default in (("move_time", 5.0), ("start_time", 10.0)):
        value = entry.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
            raise _bad(path, f"[{name}] {key} must be a number of seconds in (0, 3600]")
        times[key] = float(value)
    cwd = entry.get("cwd", ".")
    if not isinstance(cwd, str):
        raise _bad(path, f"[{name}] cwd must be a folder")
    return EngineSpec(
        label=f"engine:{name}",
        argv=argv,
        options=tuple(sorted(options.items())),
        move_time=times["move_time"],
        start_time=times["start_time"],
        cwd=str((path.parent / cwd).resolve()),
        log=str(logs / f"{name}.log"),
    )


def _bad(path: Path, detail: str) -> EnginesFileError:
    return EnginesFileError(EnginesReason.FILE, path=str(path), detail=detail)
