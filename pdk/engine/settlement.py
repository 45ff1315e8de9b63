"""Settlement of a finished deal, by the profile's scheme (docs/rules.md for classic16).

``cards_left`` (classic16 and most variants): each loser pays the winner per card left,
times 全关 / graded multipliers and 扎鸟 (the bird card's holder pays or collects a factor),
with optional 报单 exemption and 包赔; ``placement``
(seed 001): fixed points by finishing place plus a first-out bonus. Either way scoring
bombs add their bonus, and with ``bomb_doubling`` every bomb played doubles the deal's
payments. Only the numbers the deal produced come in; the rules come from the profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pdk.engine.profile import Profile


class SeatResult(NamedTuple):
    """One player's line on the settlement panel. (A named tuple rather than a frozen
    dataclass: every simulated deal makes one per seat, and it builds five times faster.)"""

    seat: int
    cards_left: int
    shut_out: bool
    card_payment: int
    bombs: int
    bomb_income: int
    total: int
    place: int | None = None
    multiplier: int = 1
    exempt: bool = False
    liable: bool = False
    bird: bool = False


class Share(NamedTuple):
    """One payment the settlement makes, so that no face works one out again: ``amount``
    from ``payer`` to ``payee`` (``None``: the points come from no one, as placement points
    or a bomb bonus paid by nobody). ``kind`` is ``cards`` (a loser's cards left),
    ``bao_pei`` (包赔: ``payer`` pays the share of ``for_seat``), ``place``, ``first_out``
    or ``bomb``."""

    kind: str
    payer: int | None
    payee: int | None
    amount: int
    for_seat: int | None = None


class Settlement(NamedTuple):
    """A deal's result: the winner, one line per seat, the bomb doubling applied, and every
    payment it makes (``shares``)."""

    winner: int
    seats: tuple[SeatResult, ...]
    doubling: int = 1
    shares: tuple[Share, ...] = ()

    def share_of(self, seat: int) -> int:
        """What ``seat``'s cards cost, whoever paid it (under 包赔 the liable seat did)."""
        return sum(
            s.amount
            for s in self.shares
            if (s.kind == "cards" and s.payer == seat) or (s.kind == "bao_pei" and s.for_seat == seat)
        )

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.seats)


def settle(
    profile: Profile,
    winner: int,
    cards_left: Sequence[int],
    played_any: Sequence[bool],
    bomb_bonuses: Sequence[int],
    *,
    order: Sequence[int] = (),
    bombs_played: int = 0,
    liable: int | None = None,
    first_out_sweep: bool = False,
    spring_seat: int | None = None,
    bird: Sequence[int] = (),
) -> Settlement:
    """Score a finished deal.

    ``bomb_bonuses`` counts each seat's scoring bombs (the state machine applies the
    profile's timing: trick won or every bomb played). ``order`` is the finishing order
    for placement scoring, ``bombs_played`` the number of bombs for doubling, ``liable``
    the seat that owes 包赔, ``first_out_sweep`` whether nobody else had played when the
    first player went out, ``spring_seat`` the first leader if they played only in the
    opening trick (反春), ``bird`` the seats dealt the 扎鸟 card (``settlement.zha_niao``):
    a card payment from or to one of them is multiplied by its factor.
    """
    rules = profile.settlement
    n = len(cards_left)
    factor = 2**bombs_played if rules.bomb_doubling else 1
    payments = [0] * n
    mults = [1] * n
    exempt = [False] * n
    places: list[int | None] = [None] * n
    shares: list[Share] = []
    if rules.scheme == "placement":
        for place, seat in enumerate(order):
            places[seat] = place + 1
            points = rules.placement_points[place] * factor
            payments[seat] += points
            shares.append(Share("place", None, seat, points))
        bonus = rules.first_out_bonus * factor
        if bonus and (rules.first_out_bonus_if == "always" or first_out_sweep):
            payments[winner] += bonus
            shares.append(Share("first_out", None, winner, bonus))
    else:
        for seat in range(n):
            if seat == winner:
                continue
            left = cards_left[seat]
            mults[seat] = rules.multiplier(profile.hand_size - left, profile.hand_size)
            if not played_any[seat]:
                mults[seat] = rules.shut_out_multiplier
            if seat == spring_seat:
                mults[seat] = max(mults[seat], rules.reverse_spring_multiplier)
            if rules.one_card_exempt and left == 1:
                exempt[seat] = True
                continue
            pay = left * rules.per_card * mults[seat] * factor
            if rules.zha_niao is not None and (seat in bird or winner in bird):
                pay *= rules.zha_niao.factor
            payments[seat] -= pay
            payments[winner] += pay
            shares.append(Share("cards", seat, winner, pay))
        if liable is not None and liable != winner:
            # 包赔: the player who let the 报单 player go pays every loser's share.
            owed = sum(-payments[s] for s in range(n) if s != winner)
            for s in range(n):
                if s != winner:
                    payments[s] = 0
            payments[liable] = -owed
            shares = [Share("bao_pei", liable, winner, sh.amount, sh.payer) for sh in shares]
    incomes = [0] * n
    for seat, count in enumerate(bomb_bonuses):
        if not count:
            continue
        if rules.bomb_bonus_paid_by == "nobody":
            incomes[seat] += count * rules.bomb_bonus
            shares.append(Share("bomb", None, seat, count * rules.bomb_bonus))
            continue
        for other in range(n):
            if other != seat:
                incomes[seat] += count * rules.bomb_bonus
                incomes[other] -= count * rules.bomb_bonus
                shares.append(Share("bomb", other, seat, count * rules.bomb_bonus))
    # Positional, in SeatResult's field order (seat, cards_left, shut_out, card_payment,
    # bombs, bomb_income, total, place, multiplier, exempt, liable, bird): keywords cost twice as
    # much, and every simulated deal settles.
    seats = tuple(
        [
            SeatResult(
                seat,
                cards_left[seat],
                seat != winner and not played_any[seat],
                payments[seat],
                bomb_bonuses[seat],
                incomes[seat],
                payments[seat] + incomes[seat],
                places[seat],
                mults[seat],
                exempt[seat],
                seat == liable and liable != winner,
                rules.zha_niao is not None and seat in bird,
            )
            for seat in range(n)
        ]
    )
    return Settlement(winner, seats, factor, tuple(shares))
