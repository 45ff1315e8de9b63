"""The learned value's inference, in numpy: a small fully connected network scoring
(view, choice) rows (``features``) in points of the profile's own settlement.

Why numpy: the bots must play without the training library (PyTorch is an optional extra
for ``pdk train``); a forward pass of a few hundred thousand weights over a few dozen
choices is a few matrix products, which numpy does in well under a millisecond.

A weights file (``.npz``) holds the layers (``w0``, ``b0``, ``w1``, ...; ReLU between
them) and ``meta``: a JSON text naming its training run (profile, seed, games, commit,
hours) and the features' ``version``. A file for another profile or another feature
layout is refused with one line (``WeightsError``): a network read with the wrong inputs
would play nonsense without saying so. The shipped weights live in
``pdk/bots/weights/<profile>.npz`` and are loaded once per process (``shipped``);
``PDK_WEIGHTS`` names a file of one's own (``pdk train --out``) instead.
"""

from __future__ import annotations

import hashlib
import json
import os
from enum import Enum
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from pdk.bots import features
from pdk.text.catalog import LocalizedError

WEIGHTS_DIR = Path(__file__).parent / "weights"
FORMAT = "pdk-value"


class WeightsFault(Enum):
    """Why a weights file cannot be used; values are message keys."""

    UNREADABLE = "weights_unreadable"
    WRONG_PROFILE = "weights_wrong_profile"
    WRONG_VERSION = "weights_wrong_version"
    NONE = "weights_none"


class WeightsError(LocalizedError, ValueError):
    """Weights that cannot score this profile's positions."""

    reason: WeightsFault


class ValueNet:
    """The network: ``layers`` of (weights, bias), ReLU between them; ``meta`` its run."""

    def __init__(self, layers: list[tuple[NDArray[np.float32], NDArray[np.float32]]], meta: dict[str, Any]):
        self.layers = layers
        self.meta = meta
        self.scale = float(meta.get("scale", 1.0))

    def __call__(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """The value of each row, in points."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0] * np.float32(self.scale)

    def save(self, path: Path) -> None:
        arrays: dict[str, NDArray[Any]] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        with path.open("wb") as f:
            cast(Any, np.savez_compressed)(f, **arrays)  # numpy's stub binds ** to allow_pickle

    @classmethod
    def load(cls, path: Path, profile: str | None) -> ValueNet:
        """The network in ``path``, refused unless it was trained for ``profile`` (None:
        any, to say what a file is) on this feature layout."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                layers: list[tuple[NDArray[np.float32], NDArray[np.float32]]] = []
                while f"w{len(layers)}" in data:
                    i = len(layers)
                    layers.append((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)))
        except (OSError, ValueError, KeyError) as exc:
            said = " ".join(str(exc).split())
            raise WeightsError(WeightsFault.UNREADABLE, path=str(path), error=said) from None
        if meta.get("format") != FORMAT or not layers:
            raise WeightsError(WeightsFault.UNREADABLE, path=str(path), error=f"no {FORMAT} layers")
        if profile is not None and meta.get("profile") != profile:
            raise WeightsError(
                WeightsFault.WRONG_PROFILE, path=str(path), trained=str(meta.get("profile")), wanted=profile
            )
        if meta.get("version") != features.VERSION:
            raise WeightsError(
                WeightsFault.WRONG_VERSION,
                path=str(path),
                trained=str(meta.get("version")),
                wanted=str(features.VERSION),
            )
        return cls(layers, meta)


def file_hash(path: Path) -> str:
    """A weights file's SHA-256 (hex): how a round of training names its parent, whatever
    the file is called or wherever it was copied."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


_LOADED: dict[tuple[str, str], ValueNet | WeightsError] = {}


def shipped(profile: str) -> ValueNet:
    """The network for ``profile``: ``PDK_WEIGHTS`` if set, else the shipped file; loaded
    once per process. A refusal is remembered too: the hard search asks at every decision,
    and a profile without weights must not cost a file lookup (or a failed load) each time."""
    own = os.environ.get("PDK_WEIGHTS")
    path = Path(own) if own else WEIGHTS_DIR / f"{profile}.npz"
    key = (str(path), profile)
    net = _LOADED.get(key)
    if net is None:
        try:
            if not own and not path.is_file():
                raise WeightsError(WeightsFault.NONE, profile=profile)
            net = ValueNet.load(path, profile)
        except WeightsError as exc:
            net = exc
        _LOADED[key] = net
    if isinstance(net, WeightsError):
        raise net.with_traceback(None)  # the same refusal each time, not a growing traceback
    return net
