"""pdk as a PettingZoo AEC environment, shaped like PettingZoo's classic card games.

    from pdk.rl import env
    e = env(variant="classic16")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        legal = info["legal_actions"]  # the legal action ids, ascending
        e.step(None if termination or truncation else legal[e.np_random.integers(len(legal))])

**Agents** ``player_0 … player_{n-1}`` are the profile's seats; the agent to act is the
seat whose turn it is (the game's own order: turns skip no one in first-out profiles, and
skip the players already out where a deal plays on).

**Actions** (``Discrete``): see ``pdk.rl.actions`` — 0 pass, 1 the whole hand (a short last
hand), then one action per distinct (rank counts, kind) play of the profile. The
``action_mask`` (int8, as Gymnasium's ``Discrete.sample(mask)`` and PettingZoo's
``api_test`` require) marks the legal ones; an action the mask forbids raises ``ValueError``.
The agent to act also finds them in its ``info``, in the forms agents use best:
``info["legal_actions"]``, the legal ids ascending (a list, as OpenSpiel's
``rl_environment`` gives them), and ``info["action_mask"]``, the same mask as a bool array
(the observation's mask and this one share one buffer, built once a turn: read them, do
not write them). Searching an int8 mask of classic16's 51,429 actions with ``flatnonzero``
costs about 80 µs, a bool one 3 µs, the list nothing.

**Observation** (``Box`` of int8, ``observation_space(agent)["observation"]``), seats taken
*from the observer's seat on* (index 0 is the observer, 1 the next seat in turn order …),
``R`` ranks in the profile's order (3 … 2, black joker, red joker):

====================  ======  ==================================================
part                  length  content
====================  ======  ==================================================
own hand              R       cards of each rank the observer holds
played                n × R   cards of each rank each seat has played so far
hand sizes            n       cards each seat holds
play to beat          R + K   its rank counts, then its kind one-hot (K kinds);
                              all zero when the observer leads
报单                   n       1 where a seat holds exactly one card
====================  ======  ==================================================

**Rewards** come at the end of the deal: each seat's settlement total (``GameState``'s
own settlement: zero-sum where the profile's scheme is, as cards-left payment is; placement
points such as jokers17's 3/1/-1 are not). **Reset** ``reset(seed=N)`` deals ``pdk selfplay --seed N``'s
first deal (the one seed derivation, ``pdk.engine.deal.deal_seed``); later resets without
a seed deal that run's next deals.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped]
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from pdk.engine import counts as C
from pdk.engine.combos import ComboKind, Move
from pdk.engine.deal import deal, deal_seed
from pdk.engine.profile import Profile
from pdk.engine.state import Action, GameState
from pdk.rl.actions import PASS, WHOLE_HAND, ActionTable, action_table
from pdk.variants.registry import load_profile

_KINDS = len(ComboKind)


class PdkEnv(AECEnv):  # type: ignore[misc]
    """One deal per episode of the profile ``variant`` (a name, alias or .yaml path)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "pdk_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, variant: str | Profile = "classic16", render_mode: str | None = None) -> None:
        super().__init__()
        self.profile = variant if isinstance(variant, Profile) else _profile(variant)
        self.table: ActionTable = action_table(self.profile)
        n = self.profile.players
        self.ranks = len(self.profile.rank_totals)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        size = self.ranks * (1 + n) + n + self.ranks + _KINDS + n
        obs = spaces.Box(low=0, high=127, shape=(size,), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(self.table.size,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.agents
        }
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.agents}
        self.render_mode = render_mode
        self._run_seed = int.from_bytes(os.urandom(6), "big")
        self._deal_no = 0
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._run_seed, self._deal_no = seed, 0
            self.np_random = np.random.default_rng(seed)
        elif not hasattr(self, "np_random"):
            self.np_random = np.random.default_rng(self._run_seed)
        self.state = GameState(self.profile, deal(self.profile, deal_seed(self._run_seed, self._deal_no)))
        self._deal_no += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal: dict[int, Move | None] = {}
        self._mask: np.ndarray[Any, Any] = _NO_MASK
        self._played = [0] * self.profile.players  # each seat's played cards, as rank counts
        self._select()

    def _select(self) -> None:
        state = self._state
        self.agent_selection = self.possible_agents[state.turn]
        moves = state.legal_moves()
        ids = self.table.ids.get  # ``ActionTable.action_of``, inlined: this runs every step
        legal: dict[int, Move | None] = {ids((m.counts, m.kind), WHOLE_HAND): m for m in moves}
        if state.can_pass(moves):
            legal[PASS] = None
        self._legal = legal
        order = sorted(legal)
        mask = np.zeros(self.table.size, dtype=np.bool_)
        mask[order] = True
        mask.flags.writeable = False
        self._mask = mask
        # The info dict is the agent's own and lives on: updated in place, not rebuilt.
        info = self.infos[self.agent_selection]
        info["legal_actions"] = order
        info["action_mask"] = mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            # An int or a NumPy integer (not a float, a string or None) among the legal ones.
            move = self._legal[operator.index(action)]  # type: ignore[arg-type]
        except (TypeError, KeyError):
            raise ValueError(f"action {action!r} is not legal for {agent} (see its action_mask)") from None
        state = self._state
        self._cumulative_rewards[agent] = 0.0
        if move is not None:
            self._played[state.turn] += move.counts
        info = self.infos[agent]
        info.pop("legal_actions", None)  # no longer this agent's turn
        info.pop("action_mask", None)
        state.step(move)
        if state.done:
            totals = state.settlement().totals
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(totals[i])
                self.terminations[a] = True
            self._accumulate_rewards()
            return
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._select()

    # -- what a seat sees ------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        state = self._state
        me = self.possible_agents.index(agent)
        obs = encode_played(self.profile, me, state.counts[me], state.sizes, self._played, state.prev)
        if agent == self.agent_selection and not state.done:
            mask = self._mask.view(np.int8)  # the turn's mask, built once in ``_select``
        else:
            mask = np.zeros(self.table.size, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        from pdk.engine.cards import cards_of, format_cards

        hands = zip(self.possible_agents, self.state.hands, strict=True)
        return "\n".join(f"{a}: {format_cards(cards_of(h))}" for a, h in hands)

    def close(self) -> None:
        self.state = None

    @property
    def _state(self) -> GameState:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state


def encode(
    profile: Profile,
    me: int,
    hand: int,
    sizes: Sequence[int],
    history: Iterable[Action],
    prev: Move | None,
) -> np.ndarray[Any, Any]:
    """The observation vector (see the module docstring) from what seat ``me`` may know:
    its hand's rank counts, every seat's card count, the public history and the play to
    beat. The environment and ``pdk.rl.bot.PolicyBot`` (a policy playing in ``pdk
    selfplay``) both encode through here, so a policy sees the same thing in both."""
    played = [0] * profile.players
    for seat, play in history:
        if play is not None:
            played[seat] += play.counts
    return encode_played(profile, me, hand, sizes, played, prev)


def encode_played(
    profile: Profile, me: int, hand: int, sizes: Sequence[int], played: Sequence[int], prev: Move | None
) -> np.ndarray[Any, Any]:
    """``encode`` with each seat's played cards already summed (as rank counts): the
    environment keeps those sums as the deal goes, instead of reading the history again
    at every observation. The vector is assembled as bytes (every part is a small count)
    joined once and viewed as int8: a tenth of the cost of converting a list of Python ints."""
    n = profile.players
    memo = _ranks_memo(len(profile.rank_totals))
    seats = [(me + i) % n for i in range(n)]
    held = [sizes[s] for s in seats]
    parts = [memo[hand], *[memo[played[s]] for s in seats], bytes(held)]
    if prev is None:
        parts += (memo[0], _NO_KIND)
    else:
        parts += (memo[prev.counts], _KIND_ONE_HOT[prev.kind])
    parts.append(bytes([k == 1 for k in held]))
    return np.frombuffer(b"".join(parts), dtype=np.int8)


_NO_KIND = bytes(_KINDS)
_NO_MASK = np.zeros(0, dtype=np.bool_)
_KIND_ONE_HOT = tuple(bytes(int(k == i) for k in range(_KINDS)) for i in range(_KINDS))


def _lanes(width: int, every: int) -> int:
    """``width`` low bits set in every ``every``-bit lane of 128 bits."""
    return sum(((1 << width) - 1) << at for at in range(0, 128, every))


# Rank counts (a 5-bit field per rank, ``pdk.engine.counts``) to one byte per rank, on the
# whole integer at once: the upper half of the fields moves up by 3 bits a field, then the
# upper half of each half, and so on (four steps for sixteen fields).
_SPREAD = (
    ((1 << 40) - 1, (((1 << 80) - 1) >> 40) << 40, 24),
    (_lanes(20, 64), _lanes(20, 64) << 20, 12),
    (_lanes(10, 32), _lanes(10, 32) << 10, 6),
    (_lanes(5, 16), _lanes(5, 16) << 5, 3),
)
assert C.BITS == 5


class _RankBytes(dict[int, bytes]):
    """Rank counts -> the count of each of the first ``ranks`` ranks, a byte each;
    memoised, since the same hands and plays recur across observations (bounded: cleared
    past a million entries). A miss is worked out by ``__missing__``, so a hit is one
    dictionary lookup; a miss moves every field to its byte at once (``_SPREAD``), at
    about half the cost of reading the fields one by one."""

    def __init__(self, ranks: int) -> None:
        super().__init__()
        self.ranks = ranks

    def __missing__(self, counts: int) -> bytes:
        if len(self) > 1_000_000:
            self.clear()
        x = counts
        for low, high, shift in _SPREAD:
            x = (x & low) | (x & high) << shift
        found = self[counts] = x.to_bytes(16, "little")[: self.ranks]
        return found


_RANK_BYTES: dict[int, _RankBytes] = {}


def _ranks_memo(ranks: int) -> _RankBytes:
    found = _RANK_BYTES.get(ranks)
    if found is None:
        found = _RANK_BYTES[ranks] = _RankBytes(ranks)
    return found


def _profile(variant: str) -> Profile:
    try:
        return load_profile(variant)
    except Exception as exc:  # a LocalizedError with one line, or the file's own error
        raise ValueError(f"pdk.rl.env: bad variant {variant!r}: {exc}") from None


def raw_env(variant: str | Profile = "classic16", render_mode: str | None = None) -> PdkEnv:
    """The environment without PettingZoo's checking wrappers."""
    return PdkEnv(variant, render_mode)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with ``last``, ``step`` and the ``agent_iter`` loop
    answered by the environment itself after the same checks: PettingZoo's run on the
    wrapper, where each look-up (``agent_selection``, ``agents``, ``observe``, the
    rewards, ...) passes through the wrapper's ``__getattr__``: ``last`` alone cost a tenth
    of a masked random step for the same answer, the loop's and ``step``'s another tenth."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _Iterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing loop, reading the environment's own attributes."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection  # type: ignore[no-any-return]


def env(variant: str | Profile = "classic16", render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's order checks (calls in the documented order), as
    its classic games have. Not its ``AssertOutOfBoundsWrapper``: ``step`` already refuses
    every action outside the mask with a ``ValueError`` naming the agent, out of bounds
    included, and the wrapper's second look at the action space cost a sixth of a masked
    random step."""
    return _OrderEnforcing(raw_env(variant, render_mode))


__all__ = ["PdkEnv", "encode", "env", "raw_env"]
