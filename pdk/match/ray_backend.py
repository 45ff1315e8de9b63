"""The Ray backend: a match's games on a Ray cluster (``pip install 'pdk[ray]'``).

Tasks travel in chunks of ``chunk`` games, so that Ray's per-task cost (scheduling, the
object store, a round trip) is paid once per chunk rather than once per game; the profile
goes to the object store once. Results come back in the order the chunks were sent, with
at most ``2 × parallelism`` chunks in flight, so memory stays flat for a million deals and
the stream is the same sequence whatever the cluster size.

Plug-in bots are loaded in the driver and shipped by value (cloudpickle), so a bot in
``./mybot.py`` plays on machines that never saw the file; a plug-in that cannot be
pickled is refused before the first game. A game that fails (a plug-in's illegal move or
overtime) comes back as its ``MatchError`` after the games of its chunk that finished
before it, so their records are kept.

Starting: with ``address`` (``auto``, ``ray://host:10001``, ``host:6379``) it joins that
cluster; without it, a Ray instance already started in this process is used, else a local
one is started with ``workers`` CPUs. A cluster this module joined or started is left
(``ray.shutdown``) when the stream ends.
"""

from __future__ import annotations

import logging
import pickle
import signal
import socket
import sys
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from pdk.bots import BotSpecError, load_factory, one_line, register_plugin
from pdk.engine.profile import Profile
from pdk.match.backend_contract import BackendError, BackendFault
from pdk.match.run import GameResult, GameTask, MatchError, play_game

DEFAULT_CHUNK = 64


@dataclass(slots=True)
class RayBackend:
    """A connected Ray cluster and the plug-ins to ship to it."""

    ray: Any
    shipped: bytes
    started: bool
    workers: int
    chunk: int = DEFAULT_CHUNK

    @classmethod
    def connect(
        cls, *, workers: int = 1, address: str | None = None, plugins: tuple[str, ...] = ()
    ) -> RayBackend:
        """Pickle the plug-ins, then join ``address`` (or start a local Ray) — in that order,
        so that a plug-in that cannot travel is refused without starting anything."""
        try:
            import ray
            from ray import cloudpickle
        except ImportError:
            raise BackendError(BackendFault.RAY_MISSING) from None
        shipped = _pickled_plugins(cloudpickle, plugins)
        started = False
        if address is not None or not ray.is_initialized():
            try:
                _probe(address)
                ray.init(
                    address=address,
                    num_cpus=None if address is not None else workers,
                    include_dashboard=False,
                    ignore_reinit_error=True,
                    logging_level=logging.WARNING,
                )
            except Exception as exc:
                where = address or "local"
                raise BackendError(BackendFault.UNREACHABLE, address=where, error=one_line(exc)) from None
            started = True
        return cls(ray, shipped, started, workers)

    @property
    def parallelism(self) -> int:
        """Chunks the cluster can play at once: its CPUs."""
        return max(1, int(self.ray.cluster_resources().get("CPU", self.workers)))

    def games(self, profile: Profile, tasks: Iterable[GameTask]) -> Generator[GameResult, None, None]:
        return _stream(self, profile, tasks)


def _probe(address: str | None, seconds: float = 5.0) -> None:
    """Fail fast on a host that does not answer: ``ray.init`` would wait minutes for it.
    ``auto`` and no address are Ray's own to resolve (it says at once when none runs)."""
    if address is None or address == "auto":
        return
    hostport = address.removeprefix("ray://").rsplit("/", 1)[0]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected host:port, got {address!r}")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
        pass


def _pickled_plugins(cloudpickle: Any, specs: tuple[str, ...]) -> bytes:
    """The plug-ins' factories, pickled by value (their modules need not exist remotely)."""
    factories = {}
    for spec in dict.fromkeys(specs):
        try:
            factory = load_factory(spec)
        except BotSpecError:
            raise  # the CLI has said it already; a library caller gets the same error
        module = getattr(factory, "__module__", None)
        if module and module in sys.modules and not module.startswith("pdk."):
            cloudpickle.register_pickle_by_value(sys.modules[module])
        factories[spec] = factory
    try:
        return bytes(cloudpickle.dumps(factories))
    except Exception as exc:
        spec = next(iter(factories), "")
        raise BackendError(BackendFault.UNPICKLABLE, spec=spec, error=one_line(exc)) from None


def _play_chunk(
    profile: Profile, tasks: list[GameTask], shipped: bytes
) -> tuple[list[GameResult], MatchError | None]:
    """A worker's share: the chunk's games in order, stopping at the first that fails."""
    # Ctrl-C is the driver's: a worker must not die of it mid-chunk.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for spec, factory in pickle.loads(shipped).items():
        register_plugin(spec, factory)
    done: list[GameResult] = []
    for task in tasks:
        try:
            done.append(play_game(profile, task))
        except MatchError as exc:
            return done, exc
    return done, None


def _chunks(tasks: Iterable[GameTask], size: int) -> Iterator[list[GameTask]]:
    it = iter(tasks)
    while batch := list(islice(it, size)):
        yield batch


def _stream(
    backend: RayBackend, profile: Profile, tasks: Iterable[GameTask]
) -> Generator[GameResult, None, None]:
    ray = backend.ray
    remote = ray.remote(_play_chunk)
    ref_profile = ray.put(profile)
    ref_plugins = ray.put(backend.shipped)
    window = 2 * backend.parallelism
    pending: list[Any] = []
    try:
        for batch in _chunks(tasks, max(1, backend.chunk)):
            pending.append(remote.remote(ref_profile, batch, ref_plugins))
            if len(pending) >= window:
                yield from _collect(ray, pending.pop(0))
        while pending:
            yield from _collect(ray, pending.pop(0))
    finally:
        for ref in pending:
            ray.cancel(ref)
        if backend.started:
            ray.shutdown()


def _collect(ray: Any, ref: Any) -> Iterator[GameResult]:
    done, error = ray.get(ref)
    yield from done
    if error is not None:
        raise error


__all__ = ["DEFAULT_CHUNK", "RayBackend"]
