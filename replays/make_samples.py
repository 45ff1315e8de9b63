"""Regenerate the sample games in this folder: ``python replays/make_samples.py``.

It plays seeded deals with the ``normal`` bots (exactly what ``pdk selfplay --players
normal --seed 2026 --out FILE`` plays) and keeps the first deal that shows each feature:

* ``shut_out.json`` — a 全关: a loser who never played a card pays double.
* ``bomb_war.json`` — a trick where a bomb is beaten by a higher bomb.
* ``bao_dan_endgame.json`` — a player on 报单 (one card) forces the 上家 to lead or follow
  with the highest single, and the deal ends within a few plays.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pdk.engine.cards import cards_of, rank_of
from pdk.engine.combos import ComboKind
from pdk.engine.profile import load_profile
from pdk.engine.record import GameRecord, dump, loads
from pdk.engine.state import GameState
from pdk.match.run import run_match

HERE = Path(__file__).resolve().parent
SEED = 2026
PLAYERS = ["normal", "normal", "normal"]


def is_shut_out(rec: GameRecord) -> bool:
    st = rec.replay().settlement()
    return any(s.shut_out for s in st.seats)


def is_bomb_war(rec: GameRecord) -> bool:
    state = GameState(rec.profile, rec.deal)
    for action in rec.actions:
        beaten_bomb = state.prev is not None and state.prev[1] == int(ComboKind.BOMB)
        if beaten_bomb and action.play is not None and action.play.kind is ComboKind.BOMB:
            return True
        state.step(action.play.move if action.play else None)
    return False


def is_bao_dan_endgame(rec: GameRecord) -> bool:
    """The 上家 of a 报单 player plays a single while holding lower singles (so the rule
    bites), and the deal ends within six plays of it."""
    state = GameState(rec.profile, rec.deal)
    n = len(rec.actions)
    for i, action in enumerate(rec.actions):
        nxt = state.next_seat(state.turn)
        play = action.play
        if state.sizes[nxt] == 1 and play is not None and play.kind is ComboKind.SINGLE and n - i <= 6:
            if len({rank_of(c) for c in cards_of(state.hands[state.turn])}) >= 2:
                return True
        state.step(play.move if play else None)
    return False


SAMPLES: dict[str, tuple[str, Callable[[GameRecord], bool]]] = {
    "shut_out.json": ("全关 (shut out): a loser who never played pays double", is_shut_out),
    "bomb_war.json": ("bomb war: a bomb beaten by a higher bomb", is_bomb_war),
    "bao_dan_endgame.json": ("报单 endgame: the highest-single rule decides the finish", is_bao_dan_endgame),
}


def main() -> None:
    profile = load_profile()
    results = run_match(profile, PLAYERS, 400, SEED, keep_records=True)
    todo = dict(SAMPLES)
    for res in results:
        assert res.record is not None
        rec = loads(res.record)
        for name, (title, test) in list(todo.items()):
            if test(rec):
                rec.meta["sample"] = title
                dump(rec, HERE / name)
                print(f"{name}: selfplay --seed {SEED} game {res.index + 1}")
                del todo[name]
        if not todo:
            break
    for name in todo:
        print(f"{name}: not found")


if __name__ == "__main__":
    main()
