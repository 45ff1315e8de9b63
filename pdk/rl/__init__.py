"""Reinforcement learning on pdk: a PettingZoo AEC environment (``pip install 'pdk[rl]'``).

``env(variant=...)`` is the wrapped environment, ``raw_env`` the bare one; ``pdk.rl.env``
documents the observation, ``pdk.rl.actions`` the action space.
"""

from pdk.rl.env import PdkEnv, env, raw_env

__all__ = ["PdkEnv", "env", "raw_env"]
