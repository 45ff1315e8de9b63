"""AI players. A bot sees only a ``PlayerView`` and returns a generated move or a pass.

``make_bot(name, seed)`` builds any level by name; every bot is reproducible from its seed.
A name may also be a *plug-in spec* naming a user's bot: ``module.path:factory`` (an
importable module) or ``path/to/file.py:factory`` (a file loaded by path), where
``factory`` is any callable ``seed -> Bot`` (a class taking the seed works). A plug-in is
loaded once per spec and process; a bad spec raises ``BotSpecError``, whose message names
what is wrong in one line.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from enum import Enum
from pathlib import Path

from pdk.bots.base import Bot, BotFactory
from pdk.bots.external import ENGINE_PREFIX, EngineError, is_engine, named_engines, spec_of
from pdk.bots.hard import HardBot, hard_exact, hard_learned, hard_v1, hard_v2
from pdk.bots.hints import HintBot
from pdk.bots.normal import NormalBot
from pdk.bots.simple import EasyBot, RandomBot
from pdk.engine.profile import Profile
from pdk.text.catalog import LocalizedError

_PLUGINS: dict[str, BotFactory] = {}


def learned(seed: int) -> Bot:
    """The learned level, imported when it is asked for: NumPy takes 0.1-0.3 s to import,
    which every other start of ``pdk`` (a selfplay of random bots, a ``pdk moves``) is
    spared."""
    from pdk.bots.learned import LearnedBot

    return LearnedBot(seed)


# The levels a player chooses to face (pdk play, the web table); random is for tests and
# baselines only.
DIFFICULTIES = ("easy", "normal", "hard")
# The built-in levels, weakest first.
_REGISTRY: dict[str, BotFactory] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    # The hard bot before opponent-model inference and per-profile scoring: the baseline
    # docs/strength.md measures hard against (the same search, two constructor flags).
    "hard-v1": hard_v1,
    # The hard bot as issue 27 found it, pinned: the baseline later changes are measured against.
    "hard-v2": hard_v2,
    # The hard bot with exact beliefs late in the deal but no learned prior: issue 27's first stage alone.
    "hard-exact": hard_exact,
    # The hard bot with the learned policy playing every seat of its rollouts (issue 40).
    "hard-learned": hard_learned,
    # The learned value's own choice, no search (issue 27; weights per profile, pdk train).
    "learned": learned,
    # Follows the table's first hint (issue 37): how often the review marks a followed hint.
    "hint": HintBot,
}


def bot_names() -> list[str]:
    """The built-in levels."""
    return list(_REGISTRY)


class SpecReason(Enum):
    """Why a bot name or plug-in spec cannot give a bot; values are message keys."""

    UNKNOWN = "bot_unknown"
    BAD_SPEC = "bot_bad_spec"
    NO_MODULE = "bot_no_module"
    NO_FILE = "bot_no_file"
    NO_ATTR = "bot_no_attr"
    IMPORT_FAILED = "bot_import_failed"
    NOT_CALLABLE = "bot_not_callable"
    FACTORY_FAILED = "bot_factory_failed"
    NO_CHOOSE = "bot_no_choose"
    UNKNOWN_ENGINE = "bot_unknown_engine"
    ENGINE = "bot_engine"


class BotSpecError(LocalizedError, ValueError):
    """A bot that cannot be built (a level name or a plug-in spec)."""

    reason: SpecReason


def is_plugin(name: str) -> bool:
    """Whether ``name`` is a plug-in spec rather than a level (no level has a colon)."""
    return ":" in name


def one_line(exc: BaseException, limit: int = 200) -> str:
    """``Type: message`` on one line, for an exception raised by a user's code."""
    text = " ".join(str(exc).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def make_bot(name: str, seed: int = 0, time_cap: float | None = None) -> Bot:
    """A bot by level name (random, easy, normal, hard) or plug-in spec. ``time_cap``:
    seconds a built-in search may think over one move (the hard bot's; None: no cap, its
    budget is counted in work alone)."""
    if is_plugin(name):
        factory = load_factory(name)
        attr = name.rpartition(":")[2]
        try:
            bot = factory(seed)
        except Exception as exc:
            raise BotSpecError(
                SpecReason.FACTORY_FAILED, spec=name, attr=attr, seed=str(seed), error=one_line(exc)
            ) from None
        if not callable(getattr(bot, "choose", None)):
            raise BotSpecError(SpecReason.NO_CHOOSE, spec=name, attr=attr, type=type(bot).__name__)
        return bot
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise BotSpecError(SpecReason.UNKNOWN, name=name, known=", ".join(_REGISTRY)) from None
    bot = factory(seed)
    if time_cap is not None and hasattr(bot, "time_cap"):
        setattr(bot, "time_cap", time_cap)  # noqa: B010 (Bot names no time_cap: only searches have one)
    return bot


def check_bot(name: str, profile: Profile | None = None) -> str:
    """Build ``name``'s bot once (seed 0), so that a bad name or spec fails before any game
    starts, and return what to call it: a plug-in's ``name`` attribute, else its spec. An
    outside engine is started here, so one that cannot greet pdk fails before any game.
    With ``profile``, a bot that needs something for that profile says so here too, from
    its ``ready(profile)`` if it has one (the learned level: its weights), in its own one
    line (a ``LocalizedError``)."""
    try:  # an outside engine starts when first asked anything (its name, here)
        bot = make_bot(name)
        label = bot_label(bot, name)
        ready = getattr(bot, "ready", None)
    except EngineError as exc:
        raise BotSpecError(SpecReason.ENGINE, error=exc) from None
    if profile is not None and callable(ready):
        ready(profile)
    return label


def bot_label(bot: object, name: str) -> str:
    label = getattr(bot, "name", None)
    return label if isinstance(label, str) and label.strip() else name


def load_factory(spec: str) -> BotFactory:
    """The factory a plug-in spec names, imported on first use and cached per spec."""
    factory = _PLUGINS.get(spec)
    if factory is None:
        factory = _PLUGINS[spec] = _load_factory(spec)
    return factory


def _load_factory(spec: str) -> BotFactory:
    if is_engine(spec):
        return _engine_factory(spec)
    # rpartition: a Windows path (C:\bots\mine.py:Bot) keeps its drive colon.
    where, _, attr = spec.rpartition(":")
    where, attr = where.strip(), attr.strip()
    if not where or not attr.isidentifier():
        raise BotSpecError(SpecReason.BAD_SPEC, spec=spec)
    is_file = where.endswith(".py") or "/" in where or "\\" in where
    module = _import_file(spec, Path(where)) if is_file else _import_module(spec, where)
    try:
        factory = getattr(module, attr)
    except AttributeError:
        raise BotSpecError(SpecReason.NO_ATTR, spec=spec, module=where, attr=attr) from None
    if not callable(factory):
        raise BotSpecError(SpecReason.NOT_CALLABLE, spec=spec, attr=attr)
    return factory  # type: ignore[no-any-return]


def _engine_factory(spec: str) -> BotFactory:
    """An outside engine's factory: picklable (a Ray worker gets it shipped), and cheap to
    call per game, since the engine process is started once per process and seat."""
    try:
        engine = spec_of(spec)
    except EngineError as exc:
        raise BotSpecError(SpecReason.ENGINE, error=exc) from None
    if engine is None:
        raise BotSpecError(
            SpecReason.UNKNOWN_ENGINE,
            name=spec[len(ENGINE_PREFIX) :],
            known=", ".join(named_engines()) or "—",
        )
    return engine


def register_plugin(spec: str, factory: BotFactory) -> None:
    """Use ``factory`` for ``spec`` in this process, without importing anything: how a
    remote worker (the Ray backend) gets the plug-ins the driver loaded and shipped."""
    _PLUGINS[spec] = factory


def _import_module(spec: str, name: str) -> object:
    # A bot builder's module sits in the directory they run pdk from, as with ``python -m``.
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only the module asked for (or a package on its path) missing is "no such module";
        # a module that imports something missing has failed to import.
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            raise BotSpecError(SpecReason.NO_MODULE, spec=spec, module=name) from None
        raise BotSpecError(SpecReason.IMPORT_FAILED, spec=spec, module=name, error=one_line(exc)) from None
    except Exception as exc:
        raise BotSpecError(SpecReason.IMPORT_FAILED, spec=spec, module=name, error=one_line(exc)) from None


def _import_file(spec: str, path: Path) -> object:
    path = path.expanduser().resolve()
    if not path.is_file():
        raise BotSpecError(SpecReason.NO_FILE, spec=spec, path=str(path))
    # A private module name per file, registered in sys.modules so that dataclasses and
    # pickling inside the plug-in work as they do in any module.
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    mod_name = f"_pdk_plugin_{digest}_{''.join(c if c.isalnum() else '_' for c in path.stem)}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    loader_spec = importlib.util.spec_from_file_location(mod_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise BotSpecError(SpecReason.BAD_SPEC, spec=spec)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[mod_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[mod_name]
        raise BotSpecError(
            SpecReason.IMPORT_FAILED, spec=spec, module=str(path), error=one_line(exc)
        ) from None
    return module
