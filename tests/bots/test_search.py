"""The hard bot's search parts: the sampled deal settles as the engine does in every
profile, the opponent model reads plays the way a player would, the solver proves exactly
the forced wins, and the work per decision is bounded by the budget (a counter, not time).
"""

from __future__ import annotations

import pytest

from pdk.bots import bot_names, make_bot
from pdk.bots.hard import HardBot, Solver
from pdk.bots.model import OpponentModel, play_facts
from pdk.bots.sim import Sim
from pdk.engine import counts as C
from pdk.engine.cards import mask_of
from pdk.engine.deal import Deal, Rng, deal
from pdk.engine.position import resolve_cards
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile
from tests.bots.test_bots import PROFILES, random_position
from tests.bots.test_hard import endgame, forced_win


def truth(state: GameState, me: int) -> dict[int, int]:
    return {s: state.counts[s] for s in range(state.players) if s != me}


def rank_counts(text: str, profile: Profile) -> int:
    return C.from_mask(mask_of(resolve_cards(text, mask_of(profile.deck_cards))))


# -- one settlement ----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_sampled_deal_with_the_true_hands_settles_as_the_engine(profile: Profile, seed: int) -> None:
    state = random_position(profile, seed, 10 + 9 * seed)
    me = state.turn
    sim = Sim.from_view(state.view(me), truth(state, me))
    for name in ("counts", "sizes", "turn", "prev", "prev_seat", "passes", "order", "bombs_played",
                 "bomb_bonuses", "pending_bomb", "offence", "winner", "active", "played_any"):  # fmt: skip
        assert getattr(sim, name) == getattr(state, name), name
    rng = Rng(seed)
    while not state.over:
        moves = sim.moves()
        options = [*moves, None] if sim.can_pass(moves) else moves
        move = options[rng.below(len(options))]
        state.step(move)
        sim.advance(move)
        assert sim.sizes == state.sizes and sim.turn == state.turn
    assert sim.done
    totals = state.settlement().totals
    assert [sim.score(s) for s in range(state.players)] == [float(t) for t in totals]


def test_on_jokers17_the_search_plays_on_after_the_first_player_is_out() -> None:
    profile = next(p for p in PROFILES if p.name == "jokers17")
    state = endgame(profile, ("5", "9 9 K", "7 8"), leader=0)
    state.step(state.legal_moves()[0])  # seat 0 goes out: first place
    sim = Sim.from_view(state.view(1), truth(state, 1))
    assert sim.winner == 0 and not sim.done and sim.order == [0]
    while not sim.done:
        moves = sim.moves()
        sim.advance(moves[0] if moves else None)
    rules = profile.settlement
    assert sorted(sim.order) == [0, 1, 2] and sim.order[0] == 0
    assert sim.score(0) == rules.placement_points[0] + rules.first_out_bonus  # 头游
    assert [sim.score(s) for s in sim.order[1:]] == [float(p) for p in rules.placement_points[1:]]


@pytest.mark.parametrize("seed", range(6))
def test_the_replayed_first_table_keeps_the_lead_card_rule(seed: int) -> None:
    # jokers17-hunan: the first play must contain the lead card (docs/variants.md). The opponent
    # model reads the first play from a replayed table, after the view no longer carries
    # the lead card: the table must still offer the leader exactly the plays it had.
    profile = load_profile("jokers17-hunan")
    assert profile.lead.must_contain
    state = GameState(profile, deal(profile, seed))
    leader, first_moves = state.turn, state.legal_moves()
    hand_then = state.counts[leader]
    state.step(first_moves[-1])
    me = next(s for s in range(state.players) if s != leader)
    first = next(Sim.replay(state.view(me), truth(state, me)))
    first.counts[leader] = hand_then
    assert sorted(first.moves()) == sorted(first_moves)


# -- the opponent model ------------------------------------------------------------------------


def test_a_free_lead_of_a_low_single_says_it_was_not_out_of_a_straight(classic: Profile) -> None:
    # Seat 1 leads a single 3 on a free lead. Holding 4 5 6 7 as well, it would have broken
    # the straight 3-7; holding pairs instead, the 3 is the natural lead.
    state = endgame(classic, ("J J Q", "3 4 5 6 7 T", "8 8 9 9 K K"), leader=1)
    state.step(next(m for m in state.legal_moves() if m.notation() == "3"))
    view = state.view(2)
    assert [f.seat for f in play_facts(view)] == [1]
    model = OpponentModel(view)
    straight = {0: rank_counts("J J Q", classic), 1: rank_counts("4 5 6 7 T", classic)}
    kept = {1: rank_counts("4 4 5 5 T", classic), 0: rank_counts("6 7 J J Q", classic)}
    assert model.log_weight(kept) > model.log_weight(straight)


def test_a_split_pair_under_must_beat_says_there_was_no_pair(classic: Profile) -> None:
    # Seat 0 leads a single 7; seat 1 beats it with an 8. Holding a second 8 and a loose 9,
    # it split a pair though the 9 would have beaten; with one 8 and a J, the 8 was its
    # cheapest loose card. (Had the 8s been its only beaters, the split would say nothing:
    # a forced play is as likely from any hand.)
    state = endgame(classic, ("7 Q K", "8 9 4 4", "5 5 6 6 T"), leader=0)
    state.step(next(m for m in state.legal_moves() if m.notation() == "7"))
    state.step(next(m for m in state.legal_moves() if m.notation() == "8"))
    view = state.view(2)
    model = OpponentModel(view)
    split = {0: rank_counts("Q K", classic), 1: rank_counts("8 9 4", classic)}
    loose = {0: rank_counts("Q K", classic), 1: rank_counts("J 4 4", classic)}
    forced = {0: rank_counts("Q K", classic), 1: rank_counts("8 4 4", classic)}
    assert model.log_weight(loose) > model.log_weight(split)
    assert model.log_weight(forced) > model.log_weight(split)


def test_the_searched_deals_concentrate_on_the_hands_the_plays_suggest(classic: Profile) -> None:
    # A full deal whose leader, seat 1, leads a single 3. Had it held another 3 it would
    # have split a pair (or a trio) to lead it: the kept deals give it one less often with
    # the model than without it.
    cards = sorted(classic.deck_cards)
    state = GameState(classic, Deal(tuple(mask_of(cards[i::3]) for i in range(3)), 0, 1))
    state.step(next(m for m in state.legal_moves() if m.notation() == "3"))
    view = state.view(2)

    def share(bot: HardBot) -> float:
        deals = bot.deals(view, Rng(3), 300)
        return sum(C.count(d[1], 0) > 0 for d in deals) / len(deals)

    uniform = share(HardBot(0, inference="uniform"))
    assert uniform > 0.3
    assert share(HardBot(0, pool=4, model_cards=10**6)) < uniform - 0.05


# -- the solver --------------------------------------------------------------------------------


def small_endgames() -> list[tuple[Profile, int]]:
    found = []
    for profile in PROFILES:
        if profile.combinations.straight_flush != "none" or profile.players != 3:
            continue  # flushes need suits; four seats make the exhaustive check too slow
        for seed in range(40):
            state = random_position(profile, seed, 200)
            if 4 <= sum(state.sizes) <= 9 and all(state.sizes):
                found.append((profile, seed))
            if len([f for f in found if f[0] is profile]) == 2:
                break
    return found


@pytest.mark.parametrize(("profile", "seed"), small_endgames(), ids=lambda x: getattr(x, "name", str(x)))
def test_the_solver_proves_exactly_the_forced_wins(profile: Profile, seed: int) -> None:
    state = random_position(profile, seed, 200)
    me = state.turn
    sim = Sim.from_view(state.view(me), truth(state, me))
    got = Solver(me, [o for o in range(3) if o != me]).wins(sim, 10**6)
    assert got == forced_win(state, me)


# -- the budget --------------------------------------------------------------------------------


def test_the_work_per_decision_is_bounded_by_the_budget_and_reproducible(classic: Profile) -> None:
    bot = HardBot(4, determinizations=5, candidates=3, solve_nodes=50)
    for steps in range(30):  # the first position of this deal that the bot searches
        state = random_position(classic, 8, steps)
        view = state.view(state.turn)
        first = bot.choose(view)
        work = bot.work_done
        if work:
            break
    # Each searched deal costs one rollout (at most 3 * 16 turns here) and one proof (at most
    # solve_nodes) per candidate.
    assert 0 < work <= 5 * 3 * (3 * 16 + 50)
    again = HardBot(4, determinizations=5, candidates=3, solve_nodes=50)
    assert again.choose(view) == first and again.work_done == work
    less = HardBot(4, determinizations=2, min_determinizations=2, candidates=3, solve_nodes=50)
    less.choose(view)
    assert less.work_done < work


@pytest.mark.parametrize("name", ["classic16", "jokers17", "two-deck"])
def test_the_opponent_model_reads_no_more_than_its_budget(name: str) -> None:
    profile = load_profile(name)
    most = {}
    for budget in (1500, 12000):
        read = 0
        for steps in range(10, 40, 3):
            state = random_position(profile, 5, steps)
            bot = HardBot(2, model_cards=budget)
            bot.choose(state.view(state.turn))
            assert bot.model_work <= budget
            read = max(read, bot.model_work)
        most[budget] = read
    assert most[12000] > 1500  # a bigger budget is used, not only respected


def test_hard_v1_is_the_previous_search_by_its_two_flags() -> None:
    bot = make_bot("hard-v1", 3)
    assert isinstance(bot, HardBot) and bot.name == "hard-v1"
    assert (bot.inference, bot.scoring, bot.seed) == ("uniform", "classic", 3)
    assert "hard-v1" in bot_names()
