"""Per-profile engine speed on one core: legal-play generation and random deals per second.

    python benchmarks/bench_variants.py [--deals 300] [--variants classic16,jokers17,...]

For every shipped profile (or those named) it prints:

* **gen** — which generator the profile's knobs select: ``fast`` (the rank-count generator
  of ``pdk.engine.movegen``, used whenever it covers every knob) or ``general``
  (``pdk.engine.movegen_general``: pair kickers, kicker ranges, four-with, 4+ bombs, joker bombs,
  A/2-low chains, straight flushes);
* **open/s** — ``Position.legal_moves`` on every full hand of ``--deals`` fresh deals;
* **play/s** — the same on every position met in random games (leads and follows);
* **deals/s** — whole random-bot deals (uniform over legal plays, a pass counting as one
  choice), settled, no records written;
* **normal/s** and **× classic16** — normal-bot deals per second through the selfplay
  harness (``pdk.match.run.play_game``, what ``pdk selfplay -p normal --workers 1`` runs),
  and that rate over classic16's (issue 15 asks for at least a third on every profile).
  The profiles' normal runs are *interleaved* (one round over every profile, then the
  next), so a burst of load on the machine hits every profile alike; the ratio is the
  median over rounds of the per-round ratio.

Rates are per second of this process's CPU time (``time.process_time``), best of
``--repeats``; generator caches are warmed on other deals first. The classic-catalogue
profiles (classic15, draw4, two-player, four-player) run on the same fast path as classic16,
so their figures show generation did not slow down for them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from pdk.engine.combos import Move
from pdk.engine.deal import Rng, deal
from pdk.engine.generator import generator_for
from pdk.engine.movegen_general import GeneralGenerator
from pdk.engine.position import Position
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.match.run import make_tasks, play_game
from pdk.variants.registry import available_profiles, load_profile

Sample = tuple[int, Move | None, bool]  # (hand bitmask, play to beat, 下家 has 报单)


def random_deal(profile: Profile, seed: int, samples: list[Sample] | None = None) -> GameState:
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed)
    while not state.over:
        moves = state.legal_moves()
        if samples is not None:
            pos = state.position()
            samples.append((pos.hand, pos.prev, pos.next_has_one))
        n = len(moves) + state.can_pass(moves)
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
    state.settlement()
    return state


def best_rate(fn: Callable[[int], int], repeats: int) -> float:
    """Best items per CPU-second over ``repeats`` runs; run ``r`` gets its own inputs."""
    rates = []
    for r in range(repeats):
        t0 = time.process_time()
        n = fn(r)
        dt = time.process_time() - t0
        rates.append(n / dt if dt > 0 else float("inf"))
    return max(rates)


def bench(profile: Profile, deals: int, repeats: int) -> tuple[str, float, float, float]:
    """Every run uses deals no other run (nor the warm-up) used: the general generator
    memoises answers per position, and timing positions it has already seen would flatter it."""
    for s in range(1_000_000, 1_000_000 + max(20, deals // 5)):
        random_deal(profile, s)
    hands = [
        [h for s in range(r * deals, (r + 1) * deals) for h in deal(profile, s).hands] for r in range(repeats)
    ]

    def openings(r: int) -> int:
        for h in hands[r]:
            Position(profile, h).legal_moves()
        return len(hands[r])

    per_run = max(10, deals // 10)
    samples: list[list[Sample]] = []
    for r in range(repeats):
        collected: list[Sample] = []
        for s in range(2_000_000 + r * per_run, 2_000_000 + (r + 1) * per_run):
            random_deal(profile, s, collected)
        samples.append(collected)
    # Collecting the samples generated every one of them once: start the timed runs cold.
    gen = generator_for(profile)
    if isinstance(gen, GeneralGenerator):
        gen.forget_positions()

    def in_play(r: int) -> int:
        for hand, prev, nho in samples[r]:
            Position(profile, hand, prev, nho).legal_moves()
        return len(samples[r])

    games_per_run = max(10, deals // 3)

    def games(r: int) -> int:
        start = 3_000_000 + r * games_per_run
        for s in range(start, start + games_per_run):
            random_deal(profile, s)
        return games_per_run

    kind = "fast" if profile.classic_generation else "general"
    return kind, best_rate(openings, repeats), best_rate(in_play, repeats), best_rate(games, repeats)


def normal_rate(profile: Profile, deals: int, seed: int) -> float:
    """Normal-bot deals per CPU-second through the selfplay harness, on fresh deals."""
    tasks = make_tasks(["normal"] * profile.players, deals, seed)
    start = time.process_time()
    for task in tasks:
        play_game(profile, task)
    return deals / (time.process_time() - start)


def normal_rates(profiles: list[Profile], deals: int, rounds: int) -> dict[str, list[float]]:
    """Each profile's normal-bot rate per round, rounds interleaved across profiles."""
    for profile in profiles:
        normal_rate(profile, 2, 4_000_000)  # warm the planner's and generator's tables
    rates: dict[str, list[float]] = {p.name: [] for p in profiles}
    for r in range(rounds):
        for profile in profiles:
            rates[profile.name].append(normal_rate(profile, deals, 5_000_000 + r * deals))
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--variants", default="", help="comma-separated names (default: every profile)")
    ap.add_argument("--normal-deals", type=int, default=10, help="normal-bot deals per profile and round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of normal-bot deals")
    args = ap.parse_args()
    if args.variants:
        profiles = [load_profile(v) for v in args.variants.split(",")]
    else:
        profiles = sorted(available_profiles(), key=lambda p: (p.name != "classic16", p.name))
    if all(p.name != "classic16" for p in profiles):
        profiles.insert(0, load_profile("classic16"))  # the ratio's reference
    normal = normal_rates(profiles, args.normal_deals, args.rounds)
    base = normal["classic16"]
    print(
        f"{'profile':<20} {'gen':<8} {'open/s':>10} {'play/s':>10} {'deals/s':>9}"
        f" {'normal/s':>9} {'× classic16':>12}"
    )
    for profile in profiles:
        gen, opening, play, games = bench(profile, args.deals, args.repeats)
        mine = normal[profile.name]
        ratio = statistics.median(m / b for m, b in zip(mine, base, strict=True))
        print(
            f"{profile.name:<20} {gen:<8} {opening:>10,.0f} {play:>10,.0f} {games:>9,.1f}"
            f" {statistics.median(mine):>9,.1f} {ratio:>12.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
