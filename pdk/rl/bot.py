"""A trained policy back at the table: ``PolicyBot`` plays in ``pdk selfplay`` (and
``pdk replay --explain``) as a plug-in bot, seeing exactly what the environment showed it.

A *policy* is any callable ``(observation, action_mask) -> action`` over the arrays of
``pdk.rl.env`` (an int8 vector and an int8 mask over the profile's action table). The bot
encodes its seat's ``PlayerView`` with the environment's own ``encode``, builds the mask
from the legal plays the harness handed it, and turns the chosen action back into that
play. An action the mask forbids is the policy's bug: ``ValueError`` (the match reports it
in one line, naming the bot).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.state import PlayerView
from pdk.rl.actions import PASS, action_table
from pdk.rl.env import encode

Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]


class PolicyBot:
    """A plug-in bot driven by ``policy``; ``name`` is what summaries call it."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def choose(self, view: PlayerView) -> Move | None:
        table = action_table(view.profile)
        moves = view.legal_moves()
        legal: dict[int, Move | None] = {table.action_of(m): m for m in moves}
        if view.can_pass(moves):
            legal[PASS] = None
        hand = C.from_mask(view.hand)
        obs = encode(view.profile, view.seat, hand, view.hand_sizes, view.history, view.prev)
        mask = np.zeros(table.size, dtype=np.int8)
        mask[list(legal)] = 1
        action = int(self.policy(obs, mask))
        if action not in legal:
            raise ValueError(f"the policy chose action {action}, which its mask forbids")
        return legal[action]


__all__ = ["Policy", "PolicyBot"]
