"""``pdk train --backend ray``: a round's training deals labelled on a Ray cluster.

The rollouts are the expensive part of training (six candidates rolled out to the end of
the deal at every decision); the learning steps are cheap. So a round's deals (its
``games_per_round``) go to the cluster as one task each, with the round's ``Labeller``
(settings and both networks, a few hundred KB) put in the object store once, and come
back in the order they were sent: the trainer adds the same rows in the same order as a
local run, so the same seed gives the same weights (tests check it on a local Ray).

Joining, starting and the faults (Ray missing, a cluster that does not answer) are
``pdk selfplay --backend ray``'s (``match.ray_backend.RayBackend``). Workers need pdk and
numpy only: labelling never imports the training library. A round's deals are labelled
as one batch, so a cluster is kept busy by raising ``games_per_round`` with its size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pdk.match.backends import open_backend
from pdk.match.ray_backend import RayBackend
from pdk.train.labels import LabelAll, Labeller, Labels, local_labels


def _label(labeller: Labeller, g: int) -> Labels:
    """A worker's task: one deal's rows and targets."""
    return labeller.label(g)


class RayLabels:
    """Labels rounds on a connected cluster (``RayBackend``)."""

    def __init__(self, backend: RayBackend) -> None:
        self.ray = backend.ray
        self.remote: Any = self.ray.remote(_label)

    def __call__(self, labeller: Labeller, games: Sequence[int]) -> list[Labels]:
        ref = self.ray.put(labeller)
        return list(self.ray.get([self.remote.remote(ref, g) for g in games]))


def open_labels(name: str = "local", *, workers: int = 1, address: str | None = None) -> LabelAll:
    """Where a run's deals are labelled: checked and connected before training starts
    (``BackendError``, one line, as ``pdk selfplay`` says it)."""
    backend = open_backend(name, workers=workers, address=address)
    if isinstance(backend, RayBackend):
        return RayLabels(backend)
    return local_labels


__all__ = ["RayLabels", "open_labels"]
