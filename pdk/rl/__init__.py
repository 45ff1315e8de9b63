"""Reinforcement learning on pdk: a PettingZoo AEC environment (``pip install 'pdk[rl]'``).

``env(variant=...)`` is the wrapped environment, ``raw_env`` the bare one; ``pdk.rl.env``
documents the observation, ``pdk.rl.actions`` the action space, ``pdk.rl.text_view`` a
seat's view as text and JSON for language-model players (which needs none of the rl
extra: without PettingZoo the package imports, and only the environment's names fail).
"""

from __future__ import annotations

try:
    from pdk.rl.env import PdkEnv, env, raw_env
except ModuleNotFoundError as exc:  # the rl extra is not installed
    if exc.name not in {"pettingzoo", "gymnasium", "numpy"}:
        raise
    _MISSING = exc.name

    def __getattr__(name: str) -> object:
        if name in __all__:
            raise ImportError(f"pdk.rl.{name} needs {_MISSING}: pip install 'pdk[rl]'")
        raise AttributeError(f"module 'pdk.rl' has no attribute {name!r}")


__all__ = ["PdkEnv", "env", "raw_env"]
