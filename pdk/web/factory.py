"""The app of ``pdk serve`` built from its settings, for each uvicorn worker.

With ``--workers N`` uvicorn starts N processes that each import the app by name
(``pdk.web.factory:app_from_env``), so the settings travel in one environment variable
(``SETTINGS_ENV``, JSON) and every worker opens its own connection to the shared store.
One worker builds the same app in the ``pdk serve`` process itself.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pdk.rooms.room import Rooms
from pdk.store.counted import CountedStore
from pdk.store.open import open_store
from pdk.table.tables import TableStore
from pdk.variants.registry import load_profile
from pdk.web.address import Links
from pdk.web.forwarded import DEFAULT_TRUSTED
from pdk.web.metrics import Metrics, MetricsAccess, Shared, log_access
from pdk.web.rooms_api import RoomLimits
from pdk.web.server import WebLimits, create_app, room_limits

SETTINGS_ENV = "PDK_SERVE_SETTINGS"


@dataclass(frozen=True)
class ServeSettings:
    data_dir: str
    profile: str  # the profile to load (a name or a .yaml path)
    variant: str  # the name saved with each table
    seed: int | None
    max_tables: int
    difficulty: str
    pace_ms: int
    store: str | None  # None: SQLite in data_dir
    shared: bool  # other processes serve the same store
    max_body: int
    hosts: list[str] | None
    opens_per_minute: float
    hard_slots: int
    idle_seconds: float
    away: int = 30  # seconds a friend's seat may be unconnected before 托管 plays it
    links: str | None = None  # the base of rooms' links (the LAN address when bound everywhere)
    local_only: bool = False  # bound to loopback: the links open on this computer only
    forwarded: str = DEFAULT_TRUSTED  # --forwarded-allow-ips
    metrics: MetricsAccess = "local"  # --metrics
    access_log: bool = False  # --access-log
    # --rooms-per-minute, --streams-per-minute, --polls-per-minute (None: RoomLimits' own)
    rooms: tuple[float, float, float] | None = None
    metrics_dir: str | None = None  # --workers: where the workers sum their metrics

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls) -> ServeSettings:
        fields = json.loads(os.environ[SETTINGS_ENV])
        if fields.get("rooms") is not None:  # JSON has no tuples
            fields["rooms"] = tuple(fields["rooms"])
        return cls(**fields)


def build_app(settings: ServeSettings) -> Any:
    base = Path(settings.data_dir)
    metrics = Metrics()
    if settings.access_log:  # here, not in pdk serve: each worker process writes its own lines
        log_access()
    tables = TableStore(
        base,
        load_profile(settings.profile),
        settings.variant,
        seed=settings.seed,
        max_live=settings.max_tables,
        difficulty=settings.difficulty,
        store=CountedStore(open_store(settings.store, base), metrics.store_failed),
        shared=settings.shared,
    )
    limits = WebLimits(
        max_body=settings.max_body,
        hosts=None if settings.hosts is None else frozenset(settings.hosts),
        opens_per_minute=settings.opens_per_minute,
        hard_slots=settings.hard_slots,
        idle_seconds=settings.idle_seconds,
        forwarded=settings.forwarded,
        metrics=settings.metrics,
        rooms=RoomLimits() if settings.rooms is None else room_limits(*settings.rooms),
    )
    rooms = Rooms(
        tables.saves, tables.archive, pace_ms=settings.pace_ms, away_after=settings.away, seed=settings.seed
    )
    links = Links(settings.links, settings.local_only)
    shared = None if settings.metrics_dir is None else Shared(Path(settings.metrics_dir))
    return create_app(tables, settings.pace_ms, limits, rooms, metrics, links=links, shared=shared)


def app_from_env() -> Any:
    """uvicorn's factory (``--workers``): the app of the settings in ``SETTINGS_ENV``."""
    return build_app(ServeSettings.from_env())


__all__ = ["SETTINGS_ENV", "ServeSettings", "app_from_env", "build_app"]
