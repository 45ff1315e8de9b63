"""The table model: one frozen snapshot of what ONE seat may see, for every face to render.

The terminal table, the replay viewer and the browser table all draw the same thing, so
the decisions behind it are made here once: who sits where relative to the viewer (the
engine's 下家/上家 rule, ``next_holding``), what the current trick holds, how each play
reads (trio/plane body, then kickers), whose turn it is and what they must do, the card
counter (``pdk.bots.knowledge.unseen_counts``), the hints (``pdk.bots.hints``) and the
settlement, explained number by number from the engine's ``Settlement`` (never re-scored).

It is built from a ``PlayerView`` only — the viewer's hand and public facts — so it cannot
hold another seat's unplayed cards. Messages are ``Said(key, params)`` values (``pdk.text``),
rendered per language with ``said.text(lang)``; the model itself holds no prose.

API (all frozen dataclasses; ``to_json()`` gives a JSON-ready dict with cards as pdk
notation strings with suit: ``"3s"``, ``"Th"``, jokers ``"B"``/``"R"``, and
``model_from_json`` reads it back: one pydantic codec both ways)::

    table_model(view, turn, *, settlement=None, totals=None, auto=(), hints_for_viewer=True,
                deal_no=1, difficulty="", variant="") -> TableModel

    TableModel
      viewer: int                 seat of the viewer
      players, deal_no, variant, difficulty
      seats: tuple[SeatModel]     turn order starting from the viewer (viewer first)
      hand: tuple[str]            viewer's cards, sorted by rank then suit
      hand_groups: tuple[tuple[str]]  the same, one tuple per rank
      trick: TrickModel           leader + actions in play order (this trick only)
      task: TaskModel             whose turn, what they must do, the status message
      counter: tuple[CounterRank] 记牌器 per rank of the profile's deck
      hints: tuple[PlayModel]     viewer's hints, best first, at most five (their turn only)
      hint_reasons: tuple[Said]   why each hint is offered ("keeps your pair of 9s whole")
      hints_pending: bool         the search is still to be asked for (``lazy_hints``)
      settlement: SettlementModel | None   after the deal, every number explained
    SeatModel: seat, offset (places after the viewer: a face seats offset 1 as 下家 and
      offset n-1 as 上家), relation ("you"/"next"/"prev"/"across"/"out": the engine's
      rule during the deal, where the seat sits once it is over), name (Said), cards,
      bao_dan, auto (托管), out, place (finishing place once out, 1-based), to_move,
      last (ActionModel in the current trick or None)
    ActionModel: seat, relation, name, play (PlayModel, or None for a pass 要不起/不出)
    PlayModel: cards (display order), body, kickers, kind (label), kind_name (Said),
      text (rank groups such as "555 34", for messages)
    TaskModel: kind ("lead"/"beat"/"none"/"wait"/"over"), seat, beat (ActionModel to
      beat or None), can_pass, pass_refused (Said: why 不出 is refused, or None),
      bao_dan_high (rank label of the single you must play under 报单, or None),
      must_contain (card the first play must hold, or None), message (Said), winner
    CounterRank: rank (notation char), label (Said-free label, "10"), unseen, total
    SettlementModel: winner, scheme, doubling, rows (SettleRow per seat, viewer first),
      lines (Said: deal-wide notes such as bomb doubling)
    SettleRow: seat, relation, name, cards_left, shut_out, multiplier, exempt, liable,
      place, place_name, card_payment, bombs, bomb_income, total, session (running total
      or None), winner, lines (Said per number: why it pays/collects what it does)
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from pdk.bots.hints import Hint, advice, known
from pdk.bots.knowledge import unseen_counts
from pdk.engine import counts as C
from pdk.engine.cards import RANK_CHARS, format_cards, format_unicode, rank_label, rank_of, suit_of
from pdk.engine.combos import ComboKind, Move, rank_groups, reading_rank
from pdk.engine.position import IllegalPlay, Play, check
from pdk.engine.profile import Profile, card_from_name
from pdk.engine.settlement import Settlement
from pdk.engine.state import Action, PlayerView, next_holding
from pdk.text.catalog import Lang, Param, Said

Relation = Literal["you", "next", "prev", "across", "out"]
TaskKind = Literal["lead", "beat", "none", "wait", "over"]


def card_name(card: int) -> str:
    """One card in notation with its suit (``3s``, ``Th``; jokers ``B``/``R``)."""
    return format_cards([card], suits=True)


def _sorted(cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=lambda c: (rank_of(c), suit_of(c), c))


@dataclass(frozen=True, slots=True)
class PlayModel:
    cards: tuple[str, ...]
    body: tuple[str, ...]
    kickers: tuple[str, ...]
    kind: str
    kind_name: Said
    text: str


def play_model(play: Play) -> PlayModel:
    """A play's cards in reading order, split as ``Move.groups`` reads it: the body (a trio
    or plane's trios, a four-with's four) and then the kickers."""
    body_ranks, _ = play.move.groups()
    pool = _sorted(play.cards)
    body: list[int] = []
    for ch in body_ranks:
        rank = RANK_CHARS.index(ch)
        card = next(c for c in pool if rank_of(c) == rank)
        pool.remove(card)
        body.append(card)
    body.sort(key=lambda c: reading_rank(play.kind, play.top, rank_of(c)))  # A2345 reads A first
    names = [card_name(c) for c in body], [card_name(c) for c in pool]
    return PlayModel(
        cards=tuple(names[0] + names[1]),
        body=tuple(names[0]),
        kickers=tuple(names[1]),
        kind=play.kind.label,
        kind_name=play.move.said,  # a short last hand by what it holds (333 + 4 out: 三带一)
        text=" + ".join(" ".join(part) for part in (_rank_text(body), _rank_text(pool)) if part),
    )


def move_play(view: PlayerView, move: Move) -> Play:
    """A generated move as the cards the viewer would play (suits chosen by the engine)."""
    return view.position().play_for(move)


def _rank_text(cards: Sequence[int]) -> list[str]:
    """Rank groups as players read them (``555``, ``10 10 10``)."""
    return rank_groups(rank_of(c) for c in cards)


@dataclass(frozen=True, slots=True)
class ActionModel:
    seat: int
    relation: Relation
    name: Said
    play: PlayModel | None


@dataclass(frozen=True, slots=True)
class SeatModel:
    seat: int
    offset: int
    relation: Relation
    name: Said
    cards: int
    bao_dan: bool
    auto: bool
    out: bool
    place: int | None
    to_move: bool
    last: ActionModel | None


@dataclass(frozen=True, slots=True)
class TrickModel:
    leader: int
    actions: tuple[ActionModel, ...]
    # While a new trick has no play yet: the play that took the last one (who won it, and
    # with what), so a player who saw only passes go by knows why the lead moved.
    won: ActionModel | None = None


@dataclass(frozen=True, slots=True)
class TaskModel:
    kind: TaskKind
    seat: int | None
    beat: ActionModel | None
    can_pass: bool
    pass_refused: Said | None
    bao_dan_high: str | None
    must_contain: str | None
    message: Said
    winner: int | None


@dataclass(frozen=True, slots=True)
class CounterRank:
    rank: str
    label: str
    unseen: int
    total: int


@dataclass(frozen=True, slots=True)
class SettleRow:
    seat: int
    relation: Relation
    name: Said
    cards_left: int
    shut_out: bool
    multiplier: int
    exempt: bool
    liable: bool
    place: int | None
    place_name: Said | None
    card_payment: int
    bombs: int
    bomb_income: int
    total: int
    session: int | None
    winner: bool
    lines: tuple[Said, ...]
    left: tuple[str, ...] = ()  # the cards the seat still held, face up once the deal is over


@dataclass(frozen=True, slots=True)
class SettlementModel:
    winner: int
    scheme: str
    doubling: int
    rows: tuple[SettleRow, ...]
    lines: tuple[Said, ...]


@dataclass(frozen=True, slots=True)
class TableModel:
    viewer: int
    players: int
    deal_no: int
    variant: str
    difficulty: str
    seats: tuple[SeatModel, ...]
    hand: tuple[str, ...]
    hand_groups: tuple[tuple[str, ...], ...]
    trick: TrickModel
    task: TaskModel
    counter: tuple[CounterRank, ...]
    hints: tuple[PlayModel, ...]
    settlement: SettlementModel | None
    hint_reasons: tuple[Said, ...] = ()  # why each hint is offered, one per hint
    # The viewer's turn, and its hints need a search not made yet: ``hints`` is then the
    # planner's order, not to be shown as hints; the face asks for the search (the page's
    # 提示 request, ``/hints``) rather than the snapshot waiting on it.
    hints_pending: bool = False

    def seat(self, seat: int) -> SeatModel:
        return next(s for s in self.seats if s.seat == seat)

    def to_json(self, lang: Lang | None = None) -> dict[str, Any]:
        """The model as JSON; given ``lang``, every ``Said`` carries its words in that
        language as ``text`` too (what the page receives)."""
        out = _codec().dump_python(self, mode="json", context=None if lang is None else {"lang": lang})
        assert isinstance(out, dict)
        return out


@cache
def _codec() -> TypeAdapter[TableModel]:
    """The one JSON codec of the view types: pydantic over the dataclasses above (words by
    ``Said``'s own schema), both ways. It reads strictly, as JSON is typed: a string where
    a number belongs, or a seat's relation the model does not know, is refused rather
    than coerced."""
    return TypeAdapter(TableModel)


def model_from_json(data: Any) -> TableModel:
    """A ``TableModel`` read back from its JSON (``to_json``, rendered or not): what a
    terminal joined to a room over HTTP draws with the same code as ``pdk play``.
    ``ValueError`` for anything that is not such a model."""
    try:
        return _codec().validate_json(json.dumps(data), strict=True)
    except (ValidationError, TypeError) as exc:
        raise ValueError(f"not a table model: {exc}") from None


# -- seats ----------------------------------------------------------------------------------


def relation(sizes: Sequence[int], viewer: int, seat: int) -> Relation:
    """Where ``seat`` sits for ``viewer`` by the engine's rule: 下家 is the next seat still
    holding cards, 上家 the seat whose 下家 the viewer is; a seat already out is "out"."""
    if seat == viewer:
        return "you"
    if sizes[seat] == 0:
        return "out"
    if seat == next_holding(sizes, viewer):
        return "next"
    if next_holding(sizes, seat) == viewer or _prev_holding(sizes, viewer) == seat:
        return "prev"
    return "across"


def _prev_holding(sizes: Sequence[int], seat: int) -> int:
    """The last seat before ``seat`` that still holds cards: the one whose turn comes just
    before ``seat``'s (``next_holding`` read backwards)."""
    n = len(sizes)
    s = (seat - 1) % n
    while sizes[s] == 0 and s != seat:
        s = (s - 1) % n
    return s


_NAME_KEYS = {"you": "tm_you", "next": "tm_next", "prev": "tm_prev", "across": "tm_across"}


def seat_name(sizes: Sequence[int], viewer: int, seat: int) -> Said:
    """The seat's name for the viewer (你 / 下家 / 上家 / 对家). A seat already out is
    named by where it sits (the seat right after the viewer is 下家)."""
    rel = relation(sizes, viewer, seat)
    if rel == "out":
        rel = relation([1] * len(sizes), viewer, seat)
    return Said(_NAME_KEYS[rel])


def seat_names(sizes: Sequence[int], viewer: int, lang: Lang) -> list[str]:
    """Every seat's name as the viewer's table says it (你 / 下家 / 上家 / 对家), in seat order."""
    return [seat_name(sizes, viewer, s).text(lang) for s in range(len(sizes))]


def _action(view: PlayerView, action: Action, sizes: Sequence[int], names: Sequence[Said]) -> ActionModel:
    return ActionModel(
        seat=action.seat,
        relation=relation(sizes, view.seat, action.seat),
        name=names[action.seat],
        play=None if action.play is None else play_model(action.play),
    )


def _last_play(view: PlayerView, sizes: Sequence[int], names: Sequence[Said]) -> ActionModel | None:
    """The latest play of the deal (between tricks: the one that took the last trick)."""
    last = next((a for a in reversed(view.history) if a.play is not None), None)
    return None if last is None else _action(view, last, sizes, names)


# -- the task ---------------------------------------------------------------------------------


def _task(
    view: PlayerView,
    turn: int | None,
    settlement: Settlement | None,
    names: Sequence[Said],
    watching: bool = False,
) -> TaskModel:
    sizes = view.hand_sizes
    you = view.seat
    if settlement is not None or turn is None:
        winner = settlement.winner if settlement is not None else None
        who = _named(you, winner, len(sizes)) if winner is not None else Said("tm_nobody")
        key = "tm_over_won" if winner == you else "tm_over"
        return TaskModel("over", None, None, False, None, None, None, Said.of(key, who=who), winner)
    beat_action = next((a for a in reversed(view.trick) if a.play is not None), None)
    beat = None if beat_action is None else _action(view, beat_action, sizes, names)
    if turn != you or watching:
        msg = Said.of("tm_wait", who=names[turn] if watching else seat_name(sizes, you, turn))
        return TaskModel("wait", turn, beat, False, None, None, None, msg, None)
    pos = view.position()
    moves = pos.legal_moves()
    refused: Said | None = None
    try:
        check(pos, None)
    except IllegalPlay as exc:
        refused = exc.said
    must = None if view.must_contain is None else card_name(view.must_contain)
    high = _bao_dan_high(view)
    if beat is None or beat.play is None:
        msg = Said("tm_lead")
        if view.must_contain is not None:
            msg = Said.of("tm_lead_with", card=format_unicode([view.must_contain]))
        return TaskModel("lead", turn, None, False, refused, high, must, msg, None)
    params: dict[str, Param] = {"who": beat.name, "cards": beat.play.text, "kind": beat.play.kind_name}
    if not moves:
        kind: TaskKind = "none"
        msg = Said.of("tm_beat_none", **params)
    else:
        kind = "beat"
        msg = Said.of("tm_beat_free" if refused is None else "tm_beat_must", **params)
    return TaskModel(kind, turn, beat, refused is None, refused, high, must, msg, None)


def _bao_dan_high(view: PlayerView) -> str | None:
    """Under 报单 a single must be the highest one: which rank that is, while it applies."""
    if not view.profile.rules.bao_dan_highest_single or view.hand_sizes[view.next_seat] != 1:
        return None
    leads = view.position().gen.leads(C.from_mask(view.hand), True)
    singles = [C.items(m.counts)[0][0] for m in leads if m.kind == ComboKind.SINGLE]
    return rank_label(singles[0]) if singles else None


# -- counter and settlement -------------------------------------------------------------------


def counter(view: PlayerView) -> tuple[CounterRank, ...]:
    """记牌器: per rank of the profile's deck, the cards the viewer has not seen."""
    unseen = unseen_counts(view)
    return tuple(
        CounterRank(RANK_CHARS[r], rank_label(r), C.count(unseen, r), n)
        for r, n in enumerate(view.profile.rank_totals)
        if n > 0
    )


_PLACE_KEYS = {1: "tm_place_1", 2: "tm_place_2"}


def place_name(place: int, players: int) -> Said:
    """头游 / 二游 / 末游 (and "3rd" in a four-player deal)."""
    if place == players:
        return Said("tm_place_last")
    return Said(_PLACE_KEYS[place]) if place in _PLACE_KEYS else Said.of("tm_place_n", n=place)


def settlement_model(
    profile: Profile,
    st: Settlement,
    viewer: int,
    totals: Sequence[int] | None,
    hands: Sequence[int] | None = None,
) -> SettlementModel:
    """Every number of the engine's settlement, with the reason it is what it is, and
    (given ``hands``, each seat's cards at the end) what each loser was left holding: the
    table shows them face up, so a player sees what the count was made of."""
    rules = profile.settlement
    n = len(st.seats)
    liable = next((r.seat for r in st.seats if r.liable), None)
    bird = rules.zha_niao
    bird_card = "" if bird is None else format_unicode([card_from_name(bird.card)])
    rows = []
    for seat in [(viewer + k) % n for k in range(n)]:
        r = st.seats[seat]
        name = _named(viewer, seat, n)
        lines: list[Said] = []
        pname = None if r.place is None else place_name(r.place, n)
        if rules.scheme == "placement":
            assert r.place is not None and pname is not None
            points = rules.placement_points[r.place - 1] * st.doubling
            lines.append(Said.of("tm_st_place", place=pname, points=points))
            bonus = sum(sh.amount for sh in st.shares if sh.kind == "first_out" and sh.payee == seat)
            if bonus:
                lines.append(Said.of("tm_st_first_bonus", points=bonus))
        elif seat == st.winner:
            lines.append(Said.of("tm_st_collect", amount=r.card_payment))
            if r.bird and bird is not None:
                lines.append(Said.of("tm_st_bird_won", card=bird_card, x=bird.factor))
        elif r.exempt:
            lines.append(Said("tm_st_exempt"))
        else:
            if r.shut_out:
                lines.append(Said.of("tm_st_shut_out", x=r.multiplier))
            elif r.multiplier > 1:
                lines.append(Said.of("tm_st_multiplier", x=r.multiplier))
            # 扎鸟 multiplies a payment the bird's holder makes or collects, once.
            bird_x = 1
            if bird is not None and (r.bird or st.seats[st.winner].bird):
                bird_x = bird.factor
                key = "tm_st_bird_lost" if r.bird else "tm_st_bird_winner"
                lines.append(Said.of(key, card=bird_card, x=bird.factor))
            # Each loser's own share; under 包赔 the liable seat paid it, so the engine's
            # payment for this seat is 0 and the share is said for the explanation only.
            share = st.share_of(seat)
            x = r.multiplier * st.doubling * bird_x
            key = "tm_st_cards" if x > 1 else "tm_st_card_1x" if r.cards_left == 1 else "tm_st_cards_1x"
            lines.append(
                Said.of(
                    key,
                    left=r.cards_left,
                    per=rules.per_card,
                    x=x,
                    amount=share,
                )
            )
            if liable is not None and seat != liable:
                lines.append(Said.of("tm_st_paid_by", who=_named(viewer, liable, n)))
        if r.liable:
            lines.append(Said.of("tm_st_liable", amount=-r.card_payment))
        if r.bombs:
            lines.append(Said.of("tm_st_bombs", n=r.bombs, amount=r.bomb_income))
        elif r.bomb_income:
            lines.append(Said.of("tm_st_bomb_paid", amount=r.bomb_income))
        lines.append(Said.of("tm_st_total", amount=r.total))
        rows.append(
            SettleRow(
                seat=seat,
                relation=relation([1] * n, viewer, seat),
                name=name,
                cards_left=r.cards_left,
                shut_out=r.shut_out,
                multiplier=r.multiplier,
                exempt=r.exempt,
                liable=r.liable,
                place=r.place,
                place_name=pname,
                card_payment=r.card_payment,
                bombs=r.bombs,
                bomb_income=r.bomb_income,
                total=r.total,
                session=None if totals is None else totals[seat],
                winner=seat == st.winner,
                lines=tuple(lines),
                left=() if hands is None else tuple(card_name(c) for c in _cards(hands[seat])),
            )
        )
    deal_lines = [Said.of("tm_st_doubling", x=st.doubling)] if st.doubling > 1 else []
    return SettlementModel(st.winner, rules.scheme, st.doubling, tuple(rows), tuple(deal_lines))


def _named(viewer: int, seat: int, players: int) -> Said:
    """A seat's name at the settlement, where every seat is named by where it sits."""
    return seat_name([1] * players, viewer, seat)


# -- the snapshot -----------------------------------------------------------------------------


def table_model(
    view: PlayerView,
    turn: int | None,
    *,
    settlement: Settlement | None = None,
    totals: Sequence[int] | None = None,
    auto: Collection[int] = (),
    hints_for_viewer: bool = True,
    hint_budget: int = 0,
    lazy_hints: bool = False,
    deal_no: int = 1,
    difficulty: str = "",
    variant: str = "",
    hands: Sequence[int] | None = None,
    watching: bool = False,
) -> TableModel:
    """The snapshot for ``view.seat``, or for a spectator (``watching``: no hand, no seat's
    own task, the counter of the cards not played, seats named from ``view.seat``).
    ``turn`` is the seat to move (None once the deal is
    over); ``settlement`` the engine's result once it is; ``totals`` the running session
    totals; ``auto`` the seats in 托管; ``hints_for_viewer`` computes the hints on the
    viewer's turn (``pdk.bots.hints``: searched within ``hint_budget`` rollout-cards, the
    planner's order when it is 0); ``lazy_hints``: only hints that cost nothing now
    (``pdk.bots.hints.known``), else the planner's order marked ``hints_pending``;
    ``hands`` every seat's
    cards, shown at the settlement once the deal is over (never before)."""
    if watching:
        view = view._replace(hand=0, legal=None)
        hints_for_viewer = False
    you, n, sizes = view.seat, view.players, view.hand_sizes
    # Once the deal is over every seat is named by where it sits: the engine's 下家 would
    # skip the winner, and two seats would both be called 下家.
    over = settlement is not None or turn is None
    named = (1,) * n if over else sizes
    last = {a.seat: a for a in view.trick}
    places = {s: k + 1 for k, s in enumerate(view.out)}
    # A seat already out while the others play on is named by its place (头游), since
    # the engine's 下家 is now the next seat still holding cards.
    names = [
        place_name(places[s], n) if not over and s in places else seat_name(named, you, s) for s in range(n)
    ]
    seats = tuple(
        SeatModel(
            seat=s,
            offset=k,
            relation=relation(named, you, s),
            name=names[s],
            cards=sizes[s],
            bao_dan=sizes[s] == 1,
            auto=s in auto,
            out=sizes[s] == 0,
            place=places.get(s),
            to_move=s == turn and settlement is None,
            last=_action(view, last[s], named, names) if s in last else None,
        )
        for k, s in ((k, (you + k) % n) for k in range(n))
    )
    hand = _cards(view.hand)
    groups: list[list[str]] = []
    for i, c in enumerate(hand):
        if i and rank_of(c) == rank_of(hand[i - 1]):
            groups[-1].append(card_name(c))
        else:
            groups.append([card_name(c)])
    task = _task(view, turn, settlement, names, watching)
    hints: tuple[PlayModel, ...] = ()
    reasons: tuple[Said, ...] = ()
    pending = False
    if hints_for_viewer and task.kind in ("lead", "beat"):
        got = known(view, hint_budget) if lazy_hints else advice(view, hint_budget)
        pending = got is None
        # Until searched, the planner's order (legal plays, microseconds): a face never shows
        # them as hints while ``hints_pending`` says the search is still to be asked for.
        offered = list((got or advice(view, 0)).hints)
        hints = tuple(play_model(move_play(view, h.move)) for h in offered)
        reasons = tuple(hint_reason(h) for h in offered)
    return TableModel(
        viewer=you,
        players=n,
        deal_no=deal_no,
        variant=variant or view.profile.name,
        difficulty=difficulty,
        seats=seats,
        hand=tuple(card_name(c) for c in hand),
        hand_groups=tuple(tuple(g) for g in groups),
        trick=TrickModel(
            view.leader,
            tuple(_action(view, a, named, names) for a in view.trick),
            None if view.trick else _last_play(view, named, names),
        ),
        task=task,
        counter=counter(view),
        hints=hints,
        settlement=None
        if settlement is None
        else settlement_model(view.profile, settlement, you, totals, hands),
        hint_reasons=reasons,
        hints_pending=pending,
    )


def _cards(mask: int) -> list[int]:
    """A hand's cards in the order the table shows them."""
    return _sorted([c for c in range(mask.bit_length()) if mask >> c & 1])


def hint_reason(hint: Hint) -> Said:
    """Why a hint is offered, as one message: what the play does, then each clause of why
    now (``Hint.also``) joined on."""
    said = _clause(hint.reason, hint.params)
    for key, params in hint.also:
        said = Said.of("hint_join", a=said, b=_clause(key, params))
    return said


def _clause(key: str, raw: dict[str, int | str]) -> Said:
    """One reason's message: ranks by their labels, groups by name."""
    params: dict[str, Param] = {}
    for k, v in raw.items():
        if k in ("rank", "high") and isinstance(v, int):
            params[k] = rank_label(v)
        elif k == "group":
            params[k] = Said(f"hint_group_{v}")
        else:
            params[k] = v
    return Said.of(key, **params)


__all__ = [
    "ActionModel",
    "CounterRank",
    "PlayModel",
    "SeatModel",
    "SettleRow",
    "SettlementModel",
    "TableModel",
    "TaskModel",
    "TrickModel",
    "card_name",
    "counter",
    "model_from_json",
    "place_name",
    "play_model",
    "relation",
    "seat_name",
    "settlement_model",
    "table_model",
]
