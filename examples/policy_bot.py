"""A trained policy back in ``pdk selfplay``: a plug-in bot around a policy function.

    pdk selfplay --players examples/policy_bot.py:Bot,normal,normal --duplicate -n 200

Whatever trained your policy (in ``pdk.rl``'s PettingZoo environment), it maps the
environment's ``(observation, action_mask)`` to an action. ``pdk.rl.bot.PolicyBot`` makes
it a bot: it encodes its seat's view exactly as the environment does and turns the
action back into the play. Here the "policy" is a stand-in that sheds the most cards it can
(the action table is ordered by card count), so the file runs without a model; load your
weights in ``Bot`` instead and call them in ``policy``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pdk.rl.actions import PASS
from pdk.rl.bot import PolicyBot


def policy(observation: np.ndarray[Any, Any], action_mask: np.ndarray[Any, Any]) -> int:
    """Replace with your model: e.g. ``int(np.argmax(model(observation) + 1e9 * (action_mask - 1)))``."""
    legal = np.flatnonzero(action_mask)
    plays = legal[legal != PASS]
    return int(plays[-1]) if len(plays) else PASS


def Bot(seed: int) -> PolicyBot:
    """``pdk`` calls this once per seat and deal with the seat's seed (unused: the policy
    is deterministic)."""
    return PolicyBot(policy, name="policy")
