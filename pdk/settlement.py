"""Settlement of a finished deal: card payment, 全关, bomb bonus (RULES.md, base score 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pdk.profile import Profile


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's line on the settlement panel."""

    seat: int
    cards_left: int
    shut_out: bool
    card_payment: int
    bombs: int
    bomb_income: int
    total: int


@dataclass(frozen=True, slots=True)
class Settlement:
    winner: int
    seats: tuple[SeatResult, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.seats)


def settle(
    profile: Profile,
    winner: int,
    cards_left: Sequence[int],
    played_any: Sequence[bool],
    bomb_bonuses: Sequence[int],
) -> Settlement:
    """Each loser pays the winner per card left, doubled on 全关 (judged per loser over the
    whole deal, D4); each unbeaten bomb collects the bonus from every other player (D5)."""
    rules = profile.settlement
    n = len(cards_left)
    payments = [0] * n
    for seat in range(n):
        if seat == winner:
            continue
        pay = cards_left[seat] * rules.per_card
        if not played_any[seat]:
            pay *= rules.shut_out_multiplier
        payments[seat] = -pay
        payments[winner] += pay
    incomes = [0] * n
    for seat, count in enumerate(bomb_bonuses):
        for other in range(n):
            if other != seat:
                incomes[seat] += count * rules.bomb_bonus
                incomes[other] -= count * rules.bomb_bonus
    seats = tuple(
        SeatResult(
            seat=seat,
            cards_left=cards_left[seat],
            shut_out=seat != winner and not played_any[seat],
            card_payment=payments[seat],
            bombs=bomb_bonuses[seat],
            bomb_income=incomes[seat],
            total=payments[seat] + incomes[seat],
        )
        for seat in range(n)
    )
    return Settlement(winner, seats)
