"""One seed derivation (``pdk.engine.deal.derive_seed``) for play, selfplay, replay and the
bots: the same ``--seed`` deals the same deals everywhere. That a recorded bot explained by
the same bot agrees with itself on every play (its seeds derived as selfplay derived them)
is shown once, in ``tests/bots/test_hard_reproducible.py``."""

from __future__ import annotations

from pdk.engine.deal import bot_seed, deal, deal_seed, derive_seed
from pdk.match.run import make_tasks
from pdk.table.session import new_session
from pdk.variants.registry import load_profile

PROFILE = load_profile()


def test_play_and_selfplay_deal_the_same_deals_for_one_seed() -> None:
    for seed in (0, 5, 123456789):
        session = new_session(PROFILE, "classic16", "normal", seed)
        tasks = make_tasks(["normal"] * 3, 3, seed=seed)
        assert session.seed == tasks[0].seed == deal_seed(seed, 0)
        assert session.state.deal == deal(PROFILE, tasks[0].seed)
        session.deal_no = 2  # the seed schedule only: deal 2 of the session is deal 2 of the match
        assert session.seed == tasks[1].seed


def test_seeds_depend_on_every_part_and_its_place() -> None:
    assert derive_seed(1, 2) != derive_seed(2, 1)
    assert bot_seed(7, 0) != bot_seed(7, 1) != deal_seed(7, 1)
    assert len({deal_seed(1, k) for k in range(1000)}) == 1000
