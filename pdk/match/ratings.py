"""Two bots compared as chess engines are: Elo with its 95% error, LOS, and an SPRT.

A match of two bots (in three seats one of them sits twice) is reduced to one outcome per
*deal*: the first bot's mean points over its seats in every arrangement of the deal against
the second's: a win, a draw or a loss. Deals are independent samples (a deal's
arrangements are not: they are pooled first, as the summary's intervals are), so the
formulas cutechess and fastchess print apply to them unchanged:

* score ``s = (W + D/2) / N``; Elo ``-400·log10(1/s - 1)``; the 95% error is half the Elo
  span of ``s ± 1.96·σ/√N``, σ² the variance of the per-deal scores;
* LOS, the likelihood of superiority: ``Φ((W - L) / √(W + L))``;
* the SPRT is the generalised SPRT on the per-deal scores (the normal approximation used
  by fishtest): ``LLR = N·(s1 - s0)·(2·s - s0 - s1) / (2·σ²)`` with ``s0``, ``s1`` the
  scores that ``elo0`` and ``elo1`` predict; it accepts H1 (``elo >= elo1``) once the LLR
  reaches ``log((1-β)/α)``, and H0 (``elo <= elo0``) once it falls to ``log(β/(1-α))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from pdk.text.catalog import LocalizedError

Z95 = 1.959963984540054
# Below this many deals the SPRT does not stop: σ² of a handful of deals is no estimate.
SPRT_MIN_DEALS = 10


def elo_of(score: float) -> float:
    """The Elo difference a score fraction in (0, 1) means under the logistic model."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


class SprtReason(Enum):
    BAD = "sprt_bad"


class SprtError(LocalizedError, ValueError):
    """An ``--sprt`` value that cannot be used."""

    reason: SprtReason


@dataclass(frozen=True, slots=True)
class SprtSpec:
    """``elo0,elo1[,alpha,beta]``: the hypotheses and the error rates (0.05 each)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> SprtSpec:
        parts = [p.strip() for p in text.split(",")]
        try:
            nums = [float(p) for p in parts]
        except ValueError:
            raise SprtError(SprtReason.BAD, text=text) from None
        if len(nums) not in (2, 4) or not all(math.isfinite(x) for x in nums):
            raise SprtError(SprtReason.BAD, text=text)
        spec = cls(*nums)
        if not (spec.elo0 < spec.elo1 and 0 < spec.alpha < 0.5 and 0 < spec.beta < 0.5):
            raise SprtError(SprtReason.BAD, text=text)
        return spec

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)


@dataclass(slots=True)
class Duel:
    """The per-deal outcomes of ``first`` against ``second``, as deals complete (their
    games may arrive in any order, from any worker)."""

    first: str
    second: str
    games_per_deal: int
    sprt: SprtSpec | None = None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    _pending: dict[int, list[float]] = field(default_factory=dict, repr=False)

    def add(self, deal_index: int, bots: tuple[str, ...], totals: tuple[int, ...]) -> None:
        # [first's points, first's seats, second's points, second's seats, games]
        acc = self._pending.setdefault(deal_index, [0.0, 0.0, 0.0, 0.0, 0.0])
        for bot, total in zip(bots, totals, strict=True):
            if bot == self.first:
                acc[0] += total
                acc[1] += 1
            elif bot == self.second:
                acc[2] += total
                acc[3] += 1
        acc[4] += 1
        if acc[4] >= self.games_per_deal:
            del self._pending[deal_index]
            a, b = acc[0] / max(acc[1], 1), acc[2] / max(acc[3], 1)
            if a > b:
                self.wins += 1
            elif a < b:
                self.losses += 1
            else:
                self.draws += 1

    @property
    def deals(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.deals if self.deals else 0.5

    def variance(self) -> float:
        """Variance of one deal's score (1, ½ or 0)."""
        n, s = self.deals, self.score
        if not n:
            return 0.0
        return (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n

    def elo(self) -> tuple[float | None, float | None]:
        """The Elo difference and its 95% error (None where the score is 0 or 1: no finite
        Elo, or below two deals: no error)."""
        n, s = self.deals, self.score
        if not 0 < s < 1:
            return None, None
        if n < 2:
            return elo_of(s), None
        half = Z95 * math.sqrt(self.variance() / n)
        lo, hi = max(s - half, 1e-9), min(s + half, 1 - 1e-9)
        return elo_of(s), (elo_of(hi) - elo_of(lo)) / 2

    def los(self) -> float:
        """Likelihood that ``first`` is the stronger, from wins and losses (draws say
        nothing)."""
        decisive = self.wins + self.losses
        if not decisive:
            return 0.5
        return 0.5 * (1 + math.erf((self.wins - self.losses) / math.sqrt(2 * decisive)))

    def llr(self) -> float:
        assert self.sprt is not None
        n = self.deals
        if not n:
            return 0.0
        s0, s1 = score_of(self.sprt.elo0), score_of(self.sprt.elo1)
        # A variance of zero (every deal won) would make the ratio infinite: a floor keeps
        # it finite, and SPRT_MIN_DEALS keeps a lucky start from deciding.
        var = max(self.variance(), 1e-3)
        return n * (s1 - s0) * (2 * self.score - s0 - s1) / (2 * var)

    def verdict(self) -> str | None:
        """``"H1"`` (``elo >= elo1``), ``"H0"`` (``elo <= elo0``) or None while undecided."""
        if self.sprt is None or self.deals < SPRT_MIN_DEALS:
            return None
        llr = self.llr()
        if llr >= self.sprt.upper:
            return "H1"
        if llr <= self.sprt.lower:
            return "H0"
        return None

    def to_json(self) -> dict[str, Any]:
        elo, err = self.elo()
        out: dict[str, Any] = {
            "bot": self.first,
            "opponent": self.second,
            "deals": self.deals,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "elo": None if elo is None else round(elo, 1),
            "error95": None if err is None else round(err, 1),
            "los": round(self.los(), 4),
        }
        if self.sprt is not None:
            out["sprt"] = {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
                "llr": round(self.llr(), 3),
                "lower": round(self.sprt.lower, 3),
                "upper": round(self.sprt.upper, 3),
                "verdict": self.verdict(),
            }
        return out


__all__ = ["Duel", "SprtError", "SprtSpec", "elo_of", "score_of"]
