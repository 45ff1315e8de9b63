"""What every match backend is and how it fails: the one contract the local pool and the
Ray cluster both implement. It sits below both, so ``pdk.match.backends`` (which picks one)
and ``pdk.match.ray_backend`` (which is one) import it and never each other in a circle.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from enum import Enum
from typing import Protocol

from pdk.engine.profile import Profile
from pdk.match.run import GameResult, GameTask
from pdk.text.catalog import LocalizedError


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


__all__ = ["Backend", "BackendError", "BackendFault"]
