"""Where a match's games run: the local process pool (the default) or a Ray cluster.

Every backend yields the same ``GameResult`` values for the same tasks: a game depends on
its task only (the deal's seed, the seats' bot names and seeds), never on the worker that
played it, so the summary and the ``--out`` records are the same whatever the backend or
the cluster size. ``open_backend`` checks what it can before any game starts (the backend's
name, Ray installed and reachable, plug-ins that pickle) and raises ``BackendError`` with
a one-line message; after that, results stream as ``iter_games``'s do, and closing the
stream stops the work.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass

from pdk.engine.profile import Profile
from pdk.match.backend_contract import Backend, BackendError, BackendFault
from pdk.match.run import GameResult, GameTask, iter_games

BACKENDS = ("local", "ray")


@dataclass(frozen=True, slots=True)
class LocalBackend:
    """This machine: in-process for one worker, else a pool of ``workers`` processes."""

    workers: int = 1

    def games(self, profile: Profile, tasks: Iterable[GameTask]) -> Generator[GameResult, None, None]:
        return iter_games(profile, tasks, self.workers)


def open_backend(
    name: str = "local", *, workers: int = 1, address: str | None = None, plugins: Iterable[str] = ()
) -> Backend:
    """The backend called ``name``, checked and connected before any game is played (the
    caller has written nothing yet). ``plugins`` are the plug-in specs the match names: a
    remote backend ships them to its workers."""
    if name not in BACKENDS:
        raise BackendError(BackendFault.UNKNOWN, name=name, known=", ".join(BACKENDS))
    if name == "local":
        if address is not None:
            raise BackendError(BackendFault.ADDRESS_WITHOUT_RAY)
        return LocalBackend(workers)
    from pdk.match.ray_backend import RayBackend  # only here: Ray is an optional extra

    return RayBackend.connect(workers=workers, address=address, plugins=tuple(plugins))


__all__ = ["BACKENDS", "LocalBackend", "open_backend"]
