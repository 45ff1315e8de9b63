"""跑得快 as a pyspiel Python game, ``python_pdk``, for any rule profile pdk ships.

    game = pyspiel.load_game("python_pdk", {"variant": "classic16"})

The engine stays the single source of the rules: a state wraps a ``pdk.engine`` ``GameState``
(its legal moves, its transition, its settlement); nothing here re-implements a rule.

**Chance** deals the cards one at a time, uniformly from those left: chance outcome ``i``
is the ``i``-th card of the profile's deck (``Profile.deck_cards``). Seat 0 gets the first
``hand_size`` cards, seat 1 the next, …; once every player's hand is dealt the rest is set
aside (undealt cards, a hidden dummy hand) and the holder of the lead card leads, as in
``pdk.engine.deal``. ``state_from_deal`` plays a pdk ``Deal`` (``pdk selfplay --seed N``'s
deals) in as chance actions.

**Actions** are ``pdk.rl.actions``' table, the PettingZoo environment's action space: ``0``
pass, ``1`` the whole hand (a short last hand no table lists), then one id per distinct
(rank counts, kind) play of the profile. A play's suits are the engine's choice, as for
every bot; ``action_to_string`` writes the play in rank notation with its kind
(``"5559 trio_with_two"``), so a string names one id.

**Observations.** The default observation tensor is the environment's observation vector
(``pdk.rl.env``: own hand, each seat's played cards, hand sizes, the play to beat, 报单),
seats taken from the observer's on. The information-state tensor (perfect recall) adds the
observer's dealt hand and every decision so far, one row each (the seat, from the
observer's; the play's cards as a thermometer per rank; the kind), so two different
histories never look alike. The strings say the same in text: cards the observer holds
with suits, public plays in rank notation (the suits of a play are the engine's choice
from the hidden hand, so they are not part of what an action tells).

**Returns** are the profile's settlement (``GameState.settlement()``): zero-sum where the
profile's scheme is (cards left, bombs paid by the others), general-sum otherwise
(jokers17's placement points).

**Resampling** (``resample_from_infostate``, which OpenSpiel's ISMCTS calls) draws the
hidden hands with the hard bot's sampler (``pdk.bots.infer.Sampler``: consistent with the
passes that prove a seat could not beat), gives them suits, and replays the same actions
from the deal so made: the sample is an ordinary state with a true history. A draw whose
replay breaks a rule (the 报单 rule and some passes are not modelled by the sampler) is
drawn again; after 16 such draws (late in a deal few survive) the sample is this state
with the hidden hands exchanged in place: the same public history and own hand, but a
``history()`` that no longer deals the hidden hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from pdk.bots.infer import Sampler
from pdk.engine import counts as C
from pdk.engine.cards import cards_of, format_cards, mask_of, rank_of
from pdk.engine.combos import ComboKind, Move, counts_notation
from pdk.engine.deal import Rng, deal_from_hands, lead_order
from pdk.engine.profile import Profile
from pdk.engine.settlement import Settlement
from pdk.engine.state import GameState
from pdk.rl.actions import PASS, WHOLE_HAND, ActionTable, action_table
from pdk.variants.registry import load_profile

DEFAULT_VARIANT = "classic16"
_KINDS = len(ComboKind)
_RESAMPLE_TRIES = 16

GAME_TYPE = pyspiel.GameType(
    short_name="python_pdk",
    long_name="Python Pao De Kuai (跑得快, pdk)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification={"variant": DEFAULT_VARIANT},
)


def _game_type(profile: Profile) -> Any:
    """The registered type, with the utility the profile's settlement has."""
    zero = profile.settlement.zero_sum
    return pyspiel.GameType(
        short_name=GAME_TYPE.short_name,
        long_name=GAME_TYPE.long_name,
        dynamics=GAME_TYPE.dynamics,
        chance_mode=GAME_TYPE.chance_mode,
        information=GAME_TYPE.information,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=GAME_TYPE.reward_model,
        max_num_players=GAME_TYPE.max_num_players,
        min_num_players=GAME_TYPE.min_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification=GAME_TYPE.parameter_specification,
    )


def utility_bounds(profile: Profile) -> tuple[float, float]:
    """Bounds no deal's settlement leaves (loose where bombs double: every bomb of at
    least two cards, all played)."""
    s = profile.settlement
    n = profile.players
    bombs = len(profile.deck_cards) // 2
    factor = 2**bombs if s.bomb_doubling else 1
    paid_by_others = s.bomb_bonus_paid_by == "each_other"
    bomb_in = bombs * s.bomb_bonus * (n - 1 if paid_by_others else 1)
    bomb_out = bombs * s.bomb_bonus if paid_by_others else 0
    if s.scheme == "placement":
        high = (max(s.placement_points) + s.first_out_bonus) * factor + bomb_in
        low = min(s.placement_points) * factor - bomb_out
        return float(low), float(high)
    mult = max([1, s.shut_out_multiplier, s.reverse_spring_multiplier, *(g.multiplier for g in s.graded)])
    cards = (n - 1) * profile.hand_size * s.per_card * mult * factor
    return float(-cards - bomb_out), float(cards + bomb_in)


class Rules:
    """What every state of one variant shares: the profile, its action table, the deck.
    Built once per variant and process; copying a state (OpenSpiel clones by deep copy)
    shares it rather than copying it."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.table: ActionTable = action_table(profile)
        self.deck: tuple[int, ...] = profile.deck_cards
        self.deck_index = {c: i for i, c in enumerate(self.deck)}
        self.dealt = profile.players * profile.hand_size
        self.ranks = len(profile.rank_totals)
        # Each rank's thermometer: one place per copy of the rank in the deck.
        self.rank_offsets = [sum(profile.rank_totals[:r]) for r in range(self.ranks)]
        self.max_moves = self.dealt * profile.players

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return rules_of, (self.profile.name,)


_RULES: dict[str, Rules] = {}


def rules_of(variant: str) -> Rules:
    """The ``Rules`` of a profile name or alias (``ValueError`` naming a bad one)."""
    found = _RULES.get(variant)
    if found is None:
        try:
            profile = load_profile(variant)
        except Exception as exc:  # a LocalizedError with one line, or the file's own error
            raise ValueError(f"python_pdk: bad variant {variant!r}: {exc}") from None
        found = _RULES[variant] = _RULES.setdefault(profile.name, Rules(profile))
    return found


class PdkGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of the profile ``variant`` (a shipped profile's name or alias)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant = str(params.get("variant", DEFAULT_VARIANT))
        self.rules = rules = rules_of(variant)
        profile = rules.profile
        low, high = utility_bounds(profile)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.table.size,
            max_chance_outcomes=len(rules.deck),
            num_players=profile.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if profile.settlement.zero_sum else None,
            max_game_length=rules.max_moves,
        )
        super().__init__(_game_type(profile), info, {"variant": variant})

    def new_initial_state(self) -> PdkState:
        return PdkState(self, self.rules)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> PdkObserver:
        return PdkObserver(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class PdkState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance) or played (a ``GameState`` inside)."""

    def __init__(self, game: PdkGame, rules: Rules) -> None:
        super().__init__(game)
        self.pdk = rules
        self.cards: list[int] = []  # the deck indices dealt so far, in order
        self.live = _Live(None)
        self.initial: tuple[int, ...] = ()  # each seat's dealt hand (a card mask)
        self.moves: list[tuple[int, int]] = []  # (seat, action) of every decision so far
        self.played = [0] * rules.profile.players  # rank counts each seat has played
        self.legal: dict[int, Move | None] = {}

    @property
    def state(self) -> GameState | None:
        """The deal in play (``None`` while the cards are dealt)."""
        return self.live.state

    # -- the OpenSpiel API -----------------------------------------------------------------

    def current_player(self) -> int:
        state = self.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.turn

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self.cards)
        left = [i for i in range(len(self.pdk.deck)) if i not in dealt]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        game = self.pdk
        state = self.state
        if state is None:
            self.cards.append(action)
            if len(self.cards) == game.dealt:
                self._start()
            return
        move = self.legal[action]
        seat = state.turn
        self.moves.append((seat, action))
        if move is not None:
            self.played[seat] += move.counts
        state.step(move)
        self._select()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_cards([self.pdk.deck[action]], suits=True)}"
        return action_name(self.pdk.table, action)

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.done

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.pdk.profile.players
        return [float(t) for t in self.settlement().totals]

    def __str__(self) -> str:
        game = self.pdk
        state = self.state
        if state is None:
            return f"dealing: {len(self.cards)} of {game.dealt} cards dealt"
        hands = enumerate(state.hands)
        lines = [f"seat {s}: {format_cards(cards_of(h), suits=True) or '-'}" for s, h in hands]
        lines.append(f"leader {state.deal.leader}, to move {self.current_player()}")
        lines.append(
            "plays: " + (" | ".join(f"{s}:{action_name(game.table, a)}" for s, a in self.moves) or "-")
        )
        if state.done:
            lines.append(f"settlement {list(state.settlement().totals)}")
        return "\n".join(lines)

    # -- pdk's own -------------------------------------------------------------------------

    def settlement(self) -> Settlement:
        """The finished deal's settlement (``ValueError`` before the end)."""
        if self.state is None:
            raise ValueError("the deal is not over")
        return self.state.settlement()

    def _start(self) -> None:
        game = self.pdk
        size = game.profile.hand_size
        hands = tuple(
            mask_of(game.deck[i] for i in self.cards[s * size : (s + 1) * size])
            for s in range(game.profile.players)
        )
        everything = mask_of(game.deck)
        aside = everything & ~sum(hands)
        deal = deal_from_hands(game.profile, hands, aside)
        self.initial = hands
        self.live = _Live(GameState(game.profile, deal))
        self._select()

    def _select(self) -> None:
        """The legal actions of the seat to move, as the environment maps them."""
        state = self.state
        assert state is not None
        if state.done:
            self.legal = {}
            return
        moves = state.legal_moves()
        ids = self.pdk.table.ids.get
        legal: dict[int, Move | None] = {ids((m.counts, m.kind), WHOLE_HAND): m for m in moves}
        if state.can_pass(moves):
            legal[PASS] = None
        self.legal = legal

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PdkState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn anew
        (see the module docstring); ``probability_sampler()`` seeds the draw."""
        rng = Rng(int(float(probability_sampler()) * 2**53))
        if self.state is None:
            return self._redeal_unseen(player_id, rng)
        for _ in range(_RESAMPLE_TRIES):
            hands = self._hidden(player_id, rng, keep_lead=True)
            out = None if hands is None else self._replayed(player_id, hands)
            if out is not None:
                return out
        # Late in a deal few draws survive the replay (the 报单 rule, passes the sampler
        # does not model): the hidden hands change in place, the history stays this one's.
        while (hands := self._hidden(player_id, rng, keep_lead=False)) is None:
            pass
        return self._swapped(player_id, hands)

    def _redeal_unseen(self, player: int, rng: Rng) -> PdkState:
        """During the deal: the player's own cards stay where they fell, the others anew."""
        size = self.pdk.profile.hand_size
        mine = {k for k in range(len(self.cards)) if k // size == player}
        own = {self.cards[k] for k in mine}
        pool = [i for i in range(len(self.pdk.deck)) if i not in own]
        rng.shuffle(pool)
        out = PdkState(self.get_game(), self.pdk)
        for k in range(len(self.cards)):
            out.apply_action(self.cards[k] if k in mine else pool.pop())
        return out

    def _hidden(self, player: int, rng: Rng, keep_lead: bool) -> list[int] | None:
        """Every seat's hand now (card masks), the others' drawn by the hard bot's sampler
        and given suits; ``keep_lead``: the lead card, while hidden, with the leader, and no
        card that would have led before it in a player's hand (``None`` if the draw cannot)."""
        game = self.pdk
        state = self.state
        assert state is not None
        drawn = Sampler(state.view(player)).sample(rng)  # seat -> rank counts held now
        played = 0
        for action in state.history:
            if action.play is not None:
                played |= mask_of(action.play.cards)
        unseen = cards_of(mask_of(game.deck) & ~(state.hands[player] | played))
        rng.shuffle(unseen)
        lead_card = state.deal.lead_card if keep_lead else None
        before: set[int] = set()
        if lead_card is not None:
            order = lead_order(game.profile)
            if lead_card & 63 in order:
                earlier = set(order[: order.index(lead_card & 63)])
                before = {c for c in unseen if c & 63 in earlier or c == lead_card & 63 != lead_card}
        by_rank: dict[int, list[int]] = {}
        for c in unseen:
            by_rank.setdefault(rank_of(c), []).append(c)
        hands = [0] * game.profile.players
        hands[player] = state.hands[player]
        leader = state.deal.leader
        for s in sorted((s for s in drawn if s != player), key=lambda s: s != leader):
            for r, k in C.items(drawn[s]):
                pile = by_rank.get(r, [])
                if s == leader and lead_card in pile:
                    pile.remove(lead_card)
                    pile.insert(0, lead_card)
                take = [c for c in pile if c not in before][:k]
                if len(take) < k:
                    return None
                for c in take:
                    pile.remove(c)
                    hands[s] |= 1 << c
        if lead_card is not None and lead_card in unseen and not hands[leader] >> lead_card & 1:
            return None
        return hands

    def _replayed(self, player: int, hands: list[int]) -> PdkState | None:
        """The deal that leads to ``hands`` (each seat's played cards given back, the
        player's own dealt hand as dealt) with this state's actions replayed, or ``None``
        where an action is not legal there."""
        game = self.pdk
        state = self.state
        assert state is not None
        initial = list(hands)
        for action in state.history:
            if action.play is not None:
                initial[action.seat] |= mask_of(action.play.cards)
        initial[player] = self.initial[player]
        out = PdkState(self.get_game(), game)
        for hand in initial:
            for c in cards_of(hand):
                out.apply_action(game.deck_index[c])
        assert out.state is not None
        if out.state.deal.leader != state.deal.leader:
            return None
        for _, act in self.moves:
            if act not in out.legal:
                return None
            out.apply_action(act)
        return out

    def _swapped(self, player: int, hands: list[int]) -> PdkState:
        """This state with the hidden hands replaced by ``hands``."""
        out: PdkState = self.clone()
        state = out.state
        assert state is not None
        for s, hand in enumerate(hands):
            if s != player:
                state.hands[s] = hand
                state.counts[s] = C.from_mask(hand)
        out._select()
        return out


class _Live:
    """The ``GameState`` of a state, copied with ``GameState.clone`` (which shares the
    profile) when OpenSpiel deep-copies the state."""

    __slots__ = ("state",)

    def __init__(self, state: GameState | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Live:
        return _Live(None if self.state is None else self.state.clone())


def action_name(table: ActionTable, action: int) -> str:
    """An action id in words: ``pass``, ``whole hand`` or the play and its kind."""
    if action == PASS:
        return "pass"
    if action == WHOLE_HAND:
        return "whole hand"
    counts, kind = table.plays[action - 2]
    return f"{counts_notation(counts)} {ComboKind(kind).label}"


def state_from_deal(game: PdkGame, hands: Sequence[int]) -> PdkState:
    """The state after dealing ``hands`` (card masks, seat by seat; a pdk ``Deal.hands``),
    the rest set aside, as chance actions: the same deal ``pdk selfplay`` would play."""
    state: PdkState = game.new_initial_state()
    index = game.rules.deck_index
    for hand in hands:
        for c in cards_of(hand):
            state.apply_action(index[c])
    return state


class PdkObserver:
    """OpenSpiel's observer for ``python_pdk``: the pieces ``iig_obs_type`` asks for.

    Private (the observer's own): ``hand`` (rank counts), and with perfect recall
    ``dealt`` (the hand dealt). Public: ``played`` (players × ranks, from the observer's
    seat on), ``sizes``, ``beat`` (the play to beat: its rank counts, then its kind one-hot),
    ``bao_dan`` (报单); with perfect recall ``history``: one row per decision (seat from the
    observer's, the play's rank thermometer, its kind), flattened."""

    def __init__(self, game: Rules, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_pdk: observation parameters not supported; passed {params}")
        self.game = game
        n, ranks = game.profile.players, game.ranks
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        self.row = n + len(game.deck) + _KINDS
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        if self.private:
            pieces.append(("hand", ranks, (ranks,)))
            if self.recall:
                pieces.append(("dealt", ranks, (ranks,)))
        if self.public:
            pieces += [
                ("played", n * ranks, (n, ranks)),
                ("sizes", n, (n,)),
                ("beat", ranks + _KINDS, (ranks + _KINDS,)),
                ("bao_dan", n, (n,)),
            ]
            if self.recall:
                size = game.max_moves * self.row
                pieces.append(("history", size, (size,)))
        self.tensor = np.zeros(sum(p[1] for p in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: PdkState, player: int) -> None:
        self.tensor.fill(0)
        game = self.game
        n = game.profile.players
        gs = state.state
        d = self.dict
        if gs is None:
            if "hand" in d:
                size = game.profile.hand_size
                own = [game.deck[c] for k, c in enumerate(state.cards) if k // size == player]
                _put_counts(d["hand"], C.from_cards(own))
                if "dealt" in d:
                    d["dealt"][:] = d["hand"]
            return
        seats = [(player + i) % n for i in range(n)]
        if "hand" in d:
            _put_counts(d["hand"], gs.counts[player])
            if "dealt" in d:
                _put_counts(d["dealt"], C.from_mask(state.initial[player]))
        if not self.public:
            return
        for i, s in enumerate(seats):
            _put_counts(d["played"][i], state.played[s])
            d["sizes"][i] = gs.sizes[s]
            d["bao_dan"][i] = gs.sizes[s] == 1
        if gs.prev is not None:
            _put_counts(d["beat"][: game.ranks], gs.prev.counts)
            d["beat"][game.ranks + gs.prev.kind] = 1
        if "history" in d:
            rows = d["history"].reshape(game.max_moves, self.row)
            table = game.table
            for k, (seat, action) in enumerate(state.moves):
                row = rows[k]
                row[(seat - player) % n] = 1
                if action == PASS:
                    continue
                if action == WHOLE_HAND:
                    play = gs.history[k].play
                    assert play is not None
                    counts, kind = C.from_cards(play.cards), int(play.kind)
                else:
                    counts, kind = table.plays[action - 2]
                for r, m in C.items(counts):
                    at = n + game.rank_offsets[r]
                    row[at : at + m] = 1
                row[n + len(game.deck) + kind] = 1

    def string_from(self, state: PdkState, player: int) -> str:
        game = self.game
        gs = state.state
        n = game.profile.players
        parts: list[str] = []
        if gs is None:
            size = game.profile.hand_size
            if self.private:
                own = [game.deck[c] for k, c in enumerate(state.cards) if k // size == player]
                parts.append(f"p{player} hand {format_cards(own, suits=True) or '-'}")
            if self.public:
                parts.append(f"dealt {len(state.cards)}/{game.dealt}")
            return " ".join(parts)
        if self.private:
            parts.append(f"p{player} hand {format_cards(cards_of(gs.hands[player]), suits=True) or '-'}")
            if self.recall:
                parts.append(f"dealt {format_cards(cards_of(state.initial[player]), suits=True)}")
        if self.public:
            parts.append("sizes " + ",".join(str(x) for x in gs.sizes))
            if self.recall:
                said = [f"{s}:{action_name(game.table, a)}" for s, a in state.moves]
                parts.append(f"leader {gs.deal.leader} plays " + ("|".join(said) or "-"))
            else:
                parts.append("played " + ",".join(counts_notation(state.played[s]) or "-" for s in range(n)))
                beat = "-" if gs.prev is None else f"{gs.prev_seat}:{counts_notation(gs.prev.counts)}"
                parts.append(f"beat {beat}")
            if gs.done:
                parts.append("over " + ",".join(str(t) for t in gs.settlement().totals))
            else:
                parts.append(f"turn {gs.turn}")
        return " ".join(parts)


def _put_counts(out: np.ndarray[Any, Any], counts: int) -> None:
    for r, k in C.items(counts):
        out[r] = k


pyspiel.register_game(GAME_TYPE, PdkGame)

__all__ = [
    "GAME_TYPE",
    "PdkGame",
    "PdkObserver",
    "PdkState",
    "action_name",
    "state_from_deal",
    "utility_bounds",
]
