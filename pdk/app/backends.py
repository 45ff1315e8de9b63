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
from enum import Enum
from typing import Protocol

from pdk.app.match import GameResult, GameTask, iter_games
from pdk.engine.profile import Profile
from pdk.text.catalog import LocalizedError

BACKENDS = ("local", "ray")


class BackendFault(Enum):
    """Why a backend cannot run the match; values are message keys."""

    UNKNOWN = "sp_unknown_backend"
    ADDRESS_WITHOUT_RAY = "sp_address_needs_ray"
    RAY_MISSING = "sp_ray_missing"
    UNREACHABLE = "sp_ray_unreachable"
    UNPICKLABLE = "sp_plugin_unpicklable"


class BackendError(LocalizedError, ValueError):
    """A backend that cannot run the match, said before any game is played."""

    reason: BackendFault


class Backend(Protocol):
    """Somewhere to play a match's games."""

    def games(self, profile: Profile, tasks: Iterable[GameTask]) -> Generator[GameResult, None, None]:
        """Results as games finish; closing the generator stops the work."""
        ...


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
    from pdk.app.ray_backend import RayBackend  # only here: Ray is an optional extra

    return RayBackend.connect(workers=workers, address=address, plugins=tuple(plugins))


__all__ = ["BACKENDS", "Backend", "BackendError", "BackendFault", "LocalBackend", "open_backend"]
