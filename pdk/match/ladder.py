"""A rating list kept across runs: ``pdk ladder`` for three or more bots.

Elo compares two players; a deal of 跑得快 has three or four, and a ladder's bots meet in
changing tables. The ladder rates them with openskill's Plackett-Luce model (a published,
maintained multi-player Bayesian rating, the open equivalent of TrueSkill): each bot has a
mean ``mu`` and an uncertainty ``sigma``, every deal updates the bots at its table from
their finishing order, and the list is ranked by ``mu - 3·sigma`` (a rating the bot holds
with high confidence), with ``mu ± 1.96·sigma`` as its 95% range.

Each deal of a run seats one table of the ladder's bots (every combination in turn) and is
played in every seat arrangement (duplicate), so the cards' luck cancels; the bots' mean
points over the arrangements give the order. Deals are numbered across runs, so a run never
replays an earlier one's cards. The ladder lives in one JSON file in the data directory,
written atomically after every run (and after an interrupted one, with the deals finished).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from pdk import __version__
from pdk.engine.deal import deal_seed
from pdk.files.atomic import atomic_write
from pdk.files.limits import LimitError, loads_json, read_bounded
from pdk.match.run import GameResult, GameTask, arrangements
from pdk.text.catalog import LocalizedError

FORMAT = "pdk-ladder"
VERSION = 1
LADDER_BYTES = 4 << 20
Z95 = 1.959963984540054


class LadderReason(Enum):
    CANNOT_READ = "ladder_cannot_read"
    NOT_LADDER = "ladder_not_ladder"
    DUPLICATE = "ladder_duplicate"
    TOO_FEW = "ladder_too_few"
    UNKNOWN = "ladder_unknown"


class LadderError(LocalizedError, ValueError):
    """A ladder file that cannot be used, or a command it cannot obey, in one line."""

    reason: LadderReason


@dataclass(slots=True)
class Entry:
    """One bot on the ladder: what runs it, what it was when added, and its rating."""

    name: str
    spec: str
    mu: float
    sigma: float
    deals: int = 0
    pdk_version: str = __version__
    about: dict[str, Any] = field(default_factory=dict)
    added: str = ""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec": self.spec,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "range95": [round(self.mu - Z95 * self.sigma, 3), round(self.mu + Z95 * self.sigma, 3)],
            "deals": self.deals,
            "pdk_version": self.pdk_version,
            "about": self.about,
            "added": self.added,
        }


@dataclass(slots=True)
class Ladder:
    """The bots and their ratings, the profile they play and where the deal numbers stand."""

    variant: str = "classic16"
    seed: int = 0
    deals: int = 0
    entries: list[Entry] = field(default_factory=list)

    # -- persistence -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "seed": self.seed,
            "deals": self.deals,
            "bots": [e.to_json() for e in self.entries],
        }

    def save(self, path: Path) -> None:
        atomic_write(path, json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> Ladder:
        """The ladder in ``path``; an empty one if there is no file yet."""
        if not path.exists():
            return cls()
        try:
            data = loads_json(read_bounded(path, LADDER_BYTES))
        except (OSError, UnicodeDecodeError, LimitError, ValueError) as exc:
            raise LadderError(LadderReason.CANNOT_READ, path=str(path), detail=str(exc)) from None
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
                raise TypeError
            entries = [
                Entry(
                    name=str(b["name"]),
                    spec=str(b["spec"]),
                    mu=float(b["mu"]),
                    sigma=float(b["sigma"]),
                    deals=int(b["deals"]),
                    pdk_version=str(b.get("pdk_version", "")),
                    about=dict(b.get("about") or {}),
                    added=str(b.get("added", "")),
                )
                for b in data["bots"]
            ]
            return cls(str(data["variant"]), int(data["seed"]), int(data["deals"]), entries)
        except (TypeError, KeyError, ValueError):
            raise LadderError(LadderReason.NOT_LADDER, path=str(path)) from None

    # -- changes -----------------------------------------------------------------------------

    def add(self, name: str, spec: str, about: dict[str, Any]) -> Entry:
        if any(e.name == name or e.spec == spec for e in self.entries):
            raise LadderError(LadderReason.DUPLICATE, name=name)
        fresh = PlackettLuce().rating()
        entry = Entry(
            name, spec, fresh.mu, fresh.sigma, about=about, added=datetime.now(UTC).strftime("%Y-%m-%d")
        )
        self.entries.append(entry)
        return entry

    def ranked(self) -> list[Entry]:
        return sorted(self.entries, key=lambda e: (-e.ordinal, e.name))

    # -- a run -------------------------------------------------------------------------------

    def tables(self, players: int) -> list[tuple[str, ...]]:
        """Every table of ``players`` bots the ladder can seat, in a fixed order."""
        if len(self.entries) < players:
            raise LadderError(LadderReason.TOO_FEW, n=players, have=len(self.entries))
        return list(itertools.combinations([e.spec for e in self.entries], players))

    def tasks(self, players: int, games: int, move_timeout: float | None) -> Iterator[GameTask]:
        """The run's games: deal ``k`` (numbered across runs) at table ``k mod tables``, in
        every arrangement of that table."""
        tables = self.tables(players)
        index = 0
        for d in range(self.deals, self.deals + games):
            table = tables[d % len(tables)]
            seed = deal_seed(self.seed, d)
            for a, bots in enumerate(arrangements(table, True)):
                yield GameTask(index, d, a, seed, bots, False, move_timeout)
                index += 1

    def rate(self, games: Sequence[GameResult]) -> None:
        """Rate one finished deal (all its arrangements) and count it."""
        points: dict[str, list[int]] = {}
        for res in games:
            for bot, total in zip(res.bots, res.totals, strict=True):
                points.setdefault(bot, []).append(total)
        by_spec = {e.spec: e for e in self.entries}
        seated = [by_spec[spec] for spec in points]
        model = PlackettLuce()
        teams = [[model.rating(mu=e.mu, sigma=e.sigma)] for e in seated]
        scores = [sum(points[e.spec]) / len(points[e.spec]) for e in seated]
        for entry, (new,) in zip(seated, model.rate(teams, scores=scores), strict=True):
            entry.mu, entry.sigma = new.mu, new.sigma
            entry.deals += 1
        self.deals += 1


def run_ladder(
    ladder: Ladder,
    players: int,
    games: int,
    play: Callable[[Iterator[GameTask]], Iterator[GameResult]],
    should_stop: Callable[[], bool] = lambda: False,
) -> int:
    """Play ``games`` deals through ``play`` (a backend's stream) and rate each deal once
    all its arrangements are in, in deal order whatever order they finish in; returns the
    deals rated. An interruption keeps every deal finished before it."""
    per_deal = len(arrangements(ladder.tables(players)[0], True))
    first = ladder.deals
    pending: dict[int, list[GameResult]] = {}
    done: dict[int, list[GameResult]] = {}
    rated = 0
    for res in play(ladder.tasks(players, games, None)):
        group = pending.setdefault(res.deal_index, [])
        group.append(res)
        if len(group) == per_deal:
            done[res.deal_index] = pending.pop(res.deal_index)
            # Rate in deal order: openskill's updates depend on the order they are made in.
            while first + rated in done:
                ladder.rate(sorted(done.pop(first + rated), key=lambda r: r.index))
                rated += 1
        if should_stop():
            break
    if done:  # a gap left by an interruption: the later deals are rated in order too
        for d in sorted(done):
            ladder.rate(done[d])
            rated += 1
        ladder.deals = max(ladder.deals, max(done) + 1)
    return rated


__all__ = ["Entry", "Ladder", "LadderError", "LadderReason", "run_ladder"]
