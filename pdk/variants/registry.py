"""Where profiles come from: the shipped ones by name or alias, or a user's YAML file.

The engine validates a profile it is handed (``pdk.engine.profile.validate_profile``);
finding the file, reading it, and merging a ``base:`` profile under it is file I/O, so it
lives here. The name and alias index of the shipped profiles is built once per process.
"""

from __future__ import annotations

import copy
import errno
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from pdk.engine.profile import DEFAULT_PROFILE, Profile, ProfileError, ProfileReason, validate_profile
from pdk.files.limits import PROFILE_BYTES, LimitError, loads_yaml, read_bounded
from pdk.text.catalog import Said, excerpt


@dataclass(frozen=True)
class _OsReason:
    """Why the system could not read a file: its own English words, and ours in 中文."""

    errno: int | None
    strerror: str

    @property
    def said(self) -> Said:
        zh = self.strerror if self.errno is None else _OS_ZH.get(self.errno, self.strerror)
        return Said.own(self.strerror, zh)


_OS_ZH = {
    errno.ENOENT: "文件不存在",
    errno.EACCES: "没有读取权限",
    errno.EPERM: "没有读取权限",
    errno.EISDIR: "这是一个文件夹",
    errno.ENOTDIR: "路径中有一段不是文件夹",
    errno.ENAMETOOLONG: "文件名太长",
    errno.ELOOP: "符号链接循环",
    errno.EIO: "读写错误",
}


def variants_dir() -> Path:
    """Where the shipped profiles live (inside the package, linked from ``variants/``)."""
    return Path(str(resources.files("pdk") / "variants"))


def available_profiles() -> list[Profile]:
    return [load_profile(p) for p in sorted(variants_dir().glob("*.yaml"))]


def _merge(base: dict[str, object], over: dict[str, object]) -> dict[str, object]:
    """``over`` on top of ``base``, mapping by mapping; lists and values replace."""
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = _merge(old, value)
        else:
            out[key] = value
    return out


def _resolve_base(data: dict[str, object], source: str, depth: int = 0) -> dict[str, object]:
    """A profile may say ``base: NAME`` and list only what differs from that profile."""
    if "base" not in data:
        return data
    base_name = data["base"]
    rest = {k: v for k, v in data.items() if k != "base"}
    if not isinstance(base_name, str) or depth > 8:
        raise ProfileError(ProfileReason.BASE_BAD, source=source)
    base_path = Path(base_name)
    if not (base_path.suffix in {".yaml", ".yml"} and _exists(base_path)):
        try:
            base_path = _find_named(base_name)
        except ProfileError:
            raise ProfileError(ProfileReason.BASE_UNKNOWN, source=source, name=excerpt(base_name)) from None
    base_data = _read_yaml(base_path)
    if not isinstance(base_data, dict):
        raise ProfileError(ProfileReason.NOT_MAPPING, source=str(base_path))
    return _merge(_resolve_base(base_data, str(base_path), depth + 1), rest)


def profile_from_dict(data: object, source: str = "profile") -> Profile:
    """A profile from parsed YAML: its ``base:`` chain merged under it, then validated."""
    if not isinstance(data, dict):
        raise ProfileError(ProfileReason.NOT_MAPPING, source=source)
    return validate_profile(_resolve_base(data, source), source)


def _read_yaml(path: Path) -> object:
    """A profile file parsed within bounds (size, depth, numbers: ``pdk.files.limits``)."""
    try:
        text = read_bounded(path, PROFILE_BYTES)
    except OSError as exc:
        reason = _OsReason(exc.errno, exc.strerror or str(exc))
        raise ProfileError(ProfileReason.CANNOT_READ, path=str(path), detail=reason) from None
    except UnicodeDecodeError:
        raise ProfileError(ProfileReason.NOT_TEXT, path=str(path)) from None
    except LimitError as exc:
        raise ProfileError(ProfileReason.CANNOT_READ, path=str(path), detail=exc) from None
    try:
        return copy.deepcopy(_parsed(text))
    except LimitError as exc:
        raise ProfileError(ProfileReason.CANNOT_READ, path=str(path), detail=exc) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is None:
            raise ProfileError(ProfileReason.YAML, path=str(path)) from None
        raise ProfileError(ProfileReason.YAML_AT, path=str(path), line=mark.line + 1) from None


@lru_cache(maxsize=64)
def _parsed(text: str) -> object:
    """``text`` parsed (the bounded YAML reader is pure Python: a profile costs about 40 ms,
    most of a short command's time, and a server or a match reads the same few files again
    and again). Keyed by the text itself, so an edited file is parsed afresh; callers get a
    copy, since merging a ``base:`` chain changes the mappings it is given."""
    return loads_yaml(text)


def profile_path(name_or_path: str | Path) -> Path:
    """The file a profile name, alias or path refers to (ProfileError if none)."""
    path = Path(name_or_path)
    if not (path.suffix in {".yaml", ".yml"} or _exists(path)):
        path = _find_named(str(name_or_path))
    return path


def _exists(path: Path) -> bool:
    """``path.exists()`` for any string a user or a file may give: a name too long for
    the system or holding a NUL byte simply does not exist."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def load_profile(name_or_path: str | Path = DEFAULT_PROFILE) -> Profile:
    """Find a profile by name, alias or file path, and validate it."""
    path = profile_path(name_or_path)
    return profile_from_dict(_read_yaml(path), str(path))


def _find_named(name: str) -> Path:
    found = _shipped_index().get(name)
    if found is not None:
        return found
    names = ", ".join(sorted(p.stem for p in variants_dir().glob("*.yaml")))
    raise ProfileError(ProfileReason.UNKNOWN, name=excerpt(name), known=names)


@lru_cache(maxsize=1)
def _shipped_index() -> dict[str, Path]:
    """Every shipped profile's file by its name and by each alias, read once. A file's own
    name wins over another file's alias; a file that does not parse is simply not indexed
    (``pdk variants check`` names its problem)."""
    index: dict[str, Path] = {}
    files = sorted(variants_dir().glob("*.yaml"))
    for p in files:
        try:
            data = _parsed(read_bounded(p, PROFILE_BYTES))  # read only: no copy needed
        except (OSError, UnicodeDecodeError, yaml.YAMLError, LimitError):
            continue
        if isinstance(data, dict):
            for alias in data.get("aliases") or ():
                if isinstance(alias, str):
                    index.setdefault(alias, p)
    for p in files:
        index[p.stem] = p
    return index
