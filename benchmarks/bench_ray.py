"""Scaling of ``pdk selfplay`` over workers: the local process pool against the Ray backend
(``pip install 'pdk[ray]'``), and what one Ray task costs.

    python benchmarks/bench_ray.py [--deals 3000] [--level random] [--repeats 3]

Lines:

* **pool, 1 / 2 workers** and **ray, 1 / 2 workers** — wall-clock deals per second of a
  whole match (``--deals`` deals of ``--level``), results consumed as ``pdk selfplay``
  consumes them. Ray runs on a local instance started once with 2 CPUs; "workers" is the
  number of CPUs it may use (a second instance is started with 1 CPU for the 1-worker
  line). Runs are interleaved, median of ``--repeats`` (best in brackets).
* **per-task overhead** — the same deals sent one per Ray task (``chunk=1``) minus sent in
  chunks of the default size, per task: what chunking saves, and why deals travel in chunks.

Wall-clock figures on a shared 2-core machine are noisy: compare lines of one run only.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from collections.abc import Callable

import ray

from pdk.match.backends import LocalBackend
from pdk.match.ray_backend import DEFAULT_CHUNK, RayBackend
from pdk.match.run import make_tasks
from pdk.variants.registry import load_profile


def timed(run: Callable[[], int]) -> float:
    start = time.perf_counter()
    n = run()
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--level", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--variant", default="classic16")
    args = ap.parse_args()
    profile = load_profile(args.variant)
    seeds = iter(range(1, 1_000_000))  # every run on fresh deals: bots and generators memoise

    def pool(workers: int) -> Callable[[], int]:
        tasks = make_tasks([args.level] * profile.players, args.deals, next(seeds))
        return lambda: sum(1 for _ in LocalBackend(workers).games(profile, tasks))

    def on_ray(chunk: int, deals: int | None = None) -> Callable[[], int]:
        tasks = make_tasks([args.level] * profile.players, deals or args.deals, next(seeds))

        def run() -> int:
            backend = RayBackend(ray, pickle.dumps({}), started=False, workers=2, chunk=chunk)
            return sum(1 for _ in backend.games(profile, tasks))

        return run

    rates: dict[str, list[float]] = {}
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, logging_level="warning")
        on_ray(DEFAULT_CHUNK, 200)()  # workers up and warm
        for _ in range(args.repeats):
            rates.setdefault(f"pool, {cpus} worker(s)", []).append(timed(pool(cpus)))
            rates.setdefault(f"ray, {cpus} worker(s)", []).append(timed(on_ray(DEFAULT_CHUNK)))
        if cpus == 2:
            small = min(args.deals, 600)
            one = [1 / timed(on_ray(1, small)) for _ in range(args.repeats)]
            chunked = [1 / timed(on_ray(DEFAULT_CHUNK, small)) for _ in range(args.repeats)]
            overhead = (statistics.median(one) - statistics.median(chunked)) * 1e3
        ray.shutdown()
    print(f"{args.deals} {args.level} deals of {profile.name}, wall clock, median [best] of {args.repeats}")
    for name, values in sorted(rates.items()):
        print(f"{name:<20} {statistics.median(values):>9,.0f} [{max(values):>7,.0f}] deals/s")
    print(
        f"per-task overhead (chunk 1 vs {DEFAULT_CHUNK}, 2 CPUs): {overhead:.2f} ms per task"
        f" = {overhead / DEFAULT_CHUNK:.3f} ms per deal at the default chunk"
    )


if __name__ == "__main__":
    main()
