"""Engine speed on one core: legal-play generation and random-bot deals per second.

    python benchmarks/bench_engine.py [--deals 2000] [--repeats 5] [--variant classic16]

Prints a small table:

* **opening hands (lead)** — ``MoveGenerator.leads`` on every full hand dealt by ``--deals``
  fresh deals (3 hands each), and the same through the public ``Position.legal_moves``
  (which also turns the card bitmask into rank counts);
* **in-play positions** — ``MoveGenerator.moves`` on every position met in random games
  (leading and following, 报单 flag as it occurred), split into leads and follows;
* **random-bot deals** — whole deals: deal a seed, then until someone is out pick uniformly
  among the legal plays (a pass counts as one choice when allowed), apply it, and settle.
  No records are written. Three lines: on ``Playout`` (the engine's rank-count core: what
  search and mass simulation run on; the target applies here), on ``GameState`` (which
  also attaches suits to every play and keeps the history of actions), and through the
  checked ``GameState.play`` path, for scale. The first two play the same games. A last
  line times ``deal`` alone on the same seeds: its share of each deal.

Rates are items per second of this process's CPU time (``time.process_time``): the speed
of one core, whatever else the machine is running. The best of ``--repeats`` runs is
reported, with the median beside it, and the best wall-clock rate for comparison (on a
busy machine wall-clock rates fall while CPU-time rates do not). The generator's caches
are warmed on other deals first, as they are in any long-running process; the timed
positions are never the warm-up ones.

Targets (issue 2): >= 25,000 opening-hand generations/s, >= 5,000 random deals/s.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from pdk.engine import counts as C
from pdk.engine.combos import Move
from pdk.engine.deal import Rng, deal
from pdk.engine.generator import generator_for
from pdk.engine.playout import Playout
from pdk.engine.position import Position
from pdk.engine.profile import Profile
from pdk.engine.state import GameState
from pdk.variants.registry import load_profile

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

Sample = tuple[int, Move | None, bool]  # (hand counts, play to beat, 下家 has 报单)


def opening_hands(profile: Profile, seeds: range) -> list[int]:
    """Card bitmasks of every hand dealt by ``seeds``."""
    return [h for s in seeds for h in deal(profile, s).hands]


def random_deal(profile: Profile, seed: int, samples: list[Sample] | None = None) -> GameState:
    """One deal of uniform random play; optionally collect every position met."""
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed)
    players = profile.players
    while not state.over:
        moves = state.legal_moves()
        if samples is not None:
            nxt = state.sizes[(state.turn + 1) % players] == 1
            samples.append((state.counts[state.turn], state.prev, nxt))
        n = len(moves) + state.can_pass(moves)
        i = rng.below(n)
        state.step(moves[i] if i < len(moves) else None)
    state.settlement()
    return state


def playout_deal(profile: Profile, seed: int) -> Playout:
    """The same random play on rank counts alone."""
    game = Playout.of_deal(profile, deal(profile, seed))
    rng = Rng(seed)
    while not game.done:
        moves = game.moves()
        n = len(moves) + game.can_pass(moves)
        i = rng.below(n)
        game.advance(moves[i] if i < len(moves) else None)
    game.settlement()
    return game


def checked_deal(profile: Profile, seed: int) -> GameState:
    """The same random play, every turn judged by ``check`` through ``GameState.play``."""
    state = GameState(profile, deal(profile, seed))
    rng = Rng(seed)
    while not state.over:
        pos = state.position()
        moves = pos.legal_moves()
        n = len(moves) + pos.can_pass(moves)
        i = rng.below(n)
        state.play(pos.play_for(moves[i]).cards if i < len(moves) else None)
    state.settlement()
    return state


def host_speed() -> float:
    """CPU-microseconds of a fixed pure-Python loop (the best of several), printed with the
    figures: on a shared virtual machine the same code runs up to half as fast when the
    host is busy, which a load average inside the machine does not show."""
    best = float("inf")
    for _ in range(20):
        t = time.process_time()
        sum(range(20_000))
        best = min(best, time.process_time() - t)
    return best * 1e6 / 20


Timing = tuple[float, float, float, int]  # best and median CPU rate, best wall rate, items


def timed(make: Callable[[int], Callable[[], int]], repeats: int) -> Timing:
    """Rates over ``repeats`` runs. ``make(i)`` prepares run ``i`` untimed (on inputs no
    other run uses) and returns the timed part, which returns how many items it did."""
    cpu_rates = []
    wall_rates = []
    items = 0
    for i in range(repeats):
        fn = make(i)
        w0, c0 = time.perf_counter(), time.process_time()
        items = fn()
        c1, w1 = time.process_time(), time.perf_counter()
        cpu_rates.append(items / max(c1 - c0, 1e-9))
        wall_rates.append(items / max(w1 - w0, 1e-9))
    return max(cpu_rates), statistics.median(cpu_rates), max(wall_rates), items


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000, help="deals per measurement")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per figure (best is reported)")
    ap.add_argument("--warmup", type=int, default=1000, help="untimed random deals played first")
    ap.add_argument("--variant", default="classic16", help="rule profile: name or .yaml path")
    args = ap.parse_args()
    profile = load_profile(args.variant)
    gen = generator_for(profile)
    n = args.deals

    # Warm-up on seeds never timed: the generator's rank-mask tables, the interpreter.
    warm = 10**9
    for h in opening_hands(profile, range(warm, warm + args.warmup)):
        gen.leads(C.from_mask(h))
    for s in range(warm, warm + args.warmup):
        random_deal(profile, s)

    def seeds(block: int, i: int, size: int) -> range:
        """Seeds for one run: a block per measurement, a slice per repeat, never reused."""
        start = block * 10**7 + i * size
        return range(start, start + size)

    def leads_raw(i: int) -> Callable[[], int]:
        counts = [C.from_mask(h) for h in opening_hands(profile, seeds(1, i, n))]

        def run() -> int:
            leads = gen.leads
            for c in counts:
                leads(c)
            return len(counts)

        return run

    def leads_public(i: int) -> Callable[[], int]:
        hands = opening_hands(profile, seeds(2, i, n))

        def run() -> int:
            for h in hands:
                Position(profile, h).legal_moves()
            return len(hands)

        return run

    def in_play(which: str) -> Callable[[int], Callable[[], int]]:
        def make(i: int) -> Callable[[], int]:
            samples: list[Sample] = []
            block = {"all": 3, "lead": 6, "follow": 7}[which]
            for s in seeds(block, i, max(1, n // 10)):
                random_deal(profile, s, samples)
            if which == "lead":
                samples = [x for x in samples if x[1] is None]
            elif which == "follow":
                samples = [x for x in samples if x[1] is not None]

            def run() -> int:
                moves = gen.moves
                for c, prev, nxt in samples:
                    moves(c, prev, nxt)
                return len(samples)

            return run

        return make

    def deals_playout(i: int) -> Callable[[], int]:
        batch = seeds(4, i, n)

        def run() -> int:
            for s in batch:
                playout_deal(profile, s)
            return len(batch)

        return run

    def deals_fast(i: int) -> Callable[[], int]:
        batch = seeds(4, i, n)

        def run() -> int:
            for s in batch:
                random_deal(profile, s)
            return len(batch)

        return run

    def deals_dealt(i: int) -> Callable[[], int]:
        batch = seeds(4, i, n)

        def run() -> int:
            for s in batch:
                deal(profile, s)
            return len(batch)

        return run

    def deals_checked(i: int) -> Callable[[], int]:
        batch = seeds(5, i, max(1, n // 4))

        def run() -> int:
            for s in batch:
                checked_deal(profile, s)
            return len(batch)

        return run

    r = args.repeats
    # A playout is this profile's game only when its transition and settlement are.
    exact = Playout.exact_for(profile)
    rows: list[tuple[str, str, Timing, int | None]] = [
        ("opening hands, leading (MoveGenerator.leads)", "positions/s", timed(leads_raw, r), 25_000),
        ("opening hands, leading (Position.legal_moves)", "positions/s", timed(leads_public, r), None),
        ("in-play positions, all (MoveGenerator.moves)", "positions/s", timed(in_play("all"), r), None),
        ("  of which leading", "positions/s", timed(in_play("lead"), r), None),
        ("  of which following", "positions/s", timed(in_play("follow"), r), None),
    ]
    if exact:
        rows.append(("random-bot deals on Playout (rank counts)", "deals/s", timed(deals_playout, r), 5_000))
    rows += [
        ("random-bot deals on GameState (cards, history)", "deals/s", timed(deals_fast, r), None),
        ("random-bot deals, every play checked (play)", "deals/s", timed(deals_checked, r), None),
        ("  the deal alone (deal: shuffle, hands, leader)", "deals/s", timed(deals_dealt, r), None),
    ]

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"pdk engine benchmark: profile {profile.name}, Python {platform.python_version()},"
        f" one core, load average {load:.2f} on {os.cpu_count()} CPUs,"
        f" host speed {host_speed():.1f} us per reference loop"
    )
    print(f"{'measurement':<48} {'best':>9} {'median':>9} {'wall':>9} {'items':>6}  unit         target")
    for label, unit, (best, median, wall, items), target in rows:
        verdict = "" if target is None else f">= {target:,} {'met' if best >= target else 'NOT met'}"
        print(f"{label:<48} {best:>9,.0f} {median:>9,.0f} {wall:>9,.0f} {items:>6}  {unit:<12} {verdict}")
    print("(best/median: per CPU-second of this process; wall: best per wall-clock second)")
    if not exact:
        print(f"(no Playout line: {profile.name} needs the full GameState transition or settlement)")
    if resource is not None:
        # Caches that grow with the deals played show here (ru_maxrss is in KiB on Linux).
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        played = args.warmup + r * ((1 + exact) * n + n // 4 + 3 * max(1, n // 10))
        print(f"peak memory {peak:,.0f} MiB after about {played:,} deals")


if __name__ == "__main__":
    main()
