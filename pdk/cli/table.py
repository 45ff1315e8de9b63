"""Drawing the ``pdk play`` table: pure functions from data to rich renderables.

``table_view`` turns what the human seat may know (a ``PlayerView``) plus session facts
into a ``TableView`` of plain values; ``render_table`` and ``render_settlement`` draw
them for a given width. Nothing here reads input or prints, so every layout is testable
by rendering to a string. Colour is the console's business: a console without colour
(``NO_COLOR``, not a terminal) prints the same renderables as plain text.

The layout fits 80×24 and stays readable at 40 columns: below ``NARROW`` columns the
hand is written by rank only (``33 5 666``) instead of with suits (``♠3♥3 ♣5``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from pdk.bots import knowledge
from pdk.engine import counts as C
from pdk.engine.cards import SUIT_SYMBOLS, cards_of, rank_label, rank_of, suit_of
from pdk.engine.combos import ComboKind
from pdk.engine.rules import Play
from pdk.engine.settlement import Settlement
from pdk.engine.state import Action, PlayerView
from pdk.text.catalog import Lang, tr
from pdk.text.messages import play as play_text  # noqa: F401  (registers the messages)

NARROW = 60
LOG_MAX = 5


def seat_name(seat: int, you: int, players: int, lang: Lang) -> str:
    """Seats are named relative to the human: 下家 moves right after you, 上家 right before."""
    if seat == you:
        return tr("seat_you", lang)
    if seat == (you + 1) % players:
        return tr("seat_next", lang)
    if seat == (you - 1) % players:
        return tr("seat_prev", lang)
    return tr("seat_across", lang)


def short_name(seat: int, you: int, players: int, lang: Lang) -> str:
    """The name inside sentences: 下家 rather than ``Next 下家``."""
    name = seat_name(seat, you, players, lang)
    return name if lang == "zh" else name.split(" ")[0]


def ordered_cards(play: Play) -> list[int]:
    """A play's cards in reading order: the trios of a trio-with-two or plane first, then
    the kickers (``555 3 4``); otherwise lowest first."""
    cards = sorted(play.cards, key=lambda c: (rank_of(c), suit_of(c)))
    if play.kind in (ComboKind.TRIO_WITH_TWO, ComboKind.PLANE):
        core = set(range(play.top - play.units + 1, play.top + 1))
        cards.sort(key=lambda c: rank_of(c) not in core)
    return cards


def play_text_of(play: Play) -> str:
    """A play as players read it, by rank groups: ``99``, ``555 3 4``, ``10 J Q K A``."""
    return " ".join(_rank_groups(ordered_cards(play)))


def difficulty_name(name: str, lang: Lang) -> str:
    """A built-in difficulty in ``lang``; any other bot name as it is."""
    return tr(f"diff_{name}", lang) if name in ("easy", "normal", "hard") else name


def _by_rank(cards: Sequence[int]) -> list[list[int]]:
    """Runs of equal rank, in the order given."""
    groups: list[list[int]] = []
    for c in cards:
        if groups and rank_of(groups[-1][0]) == rank_of(c):
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


def _rank_groups(cards: Sequence[int]) -> list[str]:
    return [rank_label(rank_of(g[0])) * len(g) for g in _by_rank(cards)]


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    cards: int
    bao_dan: bool
    action: tuple[int, ...] | None
    passed: bool
    turn: bool
    you: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything one frame of the table shows, as plain values."""

    lang: Lang
    title: str
    seats: tuple[SeatRow, ...]
    status: str
    hand: tuple[int, ...]
    counter: tuple[tuple[str, int], ...] | None
    log: tuple[tuple[str, tuple[int, ...] | None], ...]
    messages: tuple[str, ...]
    auto: bool


def unseen_counts(view: PlayerView) -> list[int]:
    """记牌器: per rank, the cards of the deck you have not yet seen.

    A card counts as seen once it has been played, or if it is in your own hand; what
    remains is in the opponents' hands (or set aside, in variants that set cards aside).
    """
    unseen = knowledge.unseen_counts(view)
    return [C.count(unseen, r) for r in range(len(view.profile.rank_totals))]


def _hand_cards(mask: int) -> tuple[int, ...]:
    return tuple(sorted(cards_of(mask), key=lambda c: (rank_of(c), suit_of(c))))


def _log_entry(action: Action, you: int, players: int, lang: Lang) -> tuple[str, tuple[int, ...] | None]:
    who = short_name(action.seat, you, players, lang)
    return who, None if action.play is None else tuple(ordered_cards(action.play))


def table_view(
    view: PlayerView,
    *,
    turn: int,
    variant: str,
    difficulty: str,
    deal_no: int,
    session_total: int,
    lang: Lang,
    counter: bool = False,
    auto: bool = False,
    messages: Sequence[str] = (),
) -> TableView:
    """Compose one frame for the human sitting at ``view.seat``."""
    you, n = view.seat, view.players
    title = (
        tr("play_title", lang, variant=variant, difficulty=difficulty_name(difficulty, lang), n=deal_no)
        + " · "
        + tr("play_session", lang, total=session_total)
    )
    last: dict[int, Action] = {a.seat: a for a in view.trick}
    order = [(you + k) % n for k in range(1, n)] + [you]
    seats = []
    for s in order:
        a = last.get(s)
        seats.append(
            SeatRow(
                seat=s,
                name=seat_name(s, you, n, lang),
                cards=view.hand_sizes[s],
                bao_dan=view.hand_sizes[s] == 1,
                action=None if a is None else (() if a.play is None else tuple(ordered_cards(a.play))),
                passed=a is not None and a.play is None,
                turn=s == turn,
                you=s == you,
            )
        )
    status = _status(view, turn, lang, auto)
    warn = _bao_dan_warning(view, turn, lang)
    if warn:
        status += " " + warn
    # The log shows what happened since your last turn (at least the last two actions).
    hist = view.history
    since = 0
    for a in reversed(hist):
        if a.seat == you:
            break
        since += 1
    keep = min(max(since + 1, 2), LOG_MAX)
    log = tuple(_log_entry(a, you, n, lang) for a in hist[-keep:])
    counter_rows = None
    if counter:
        unseen = unseen_counts(view)
        totals = view.profile.rank_totals
        counter_rows = tuple((rank_label(r), unseen[r]) for r in range(len(totals)) if totals[r] > 0)
    return TableView(
        lang=lang,
        title=title,
        seats=tuple(seats),
        status=status,
        hand=_hand_cards(view.hand),
        counter=counter_rows,
        log=log,
        messages=tuple(messages),
        auto=auto,
    )


def _bao_dan_warning(view: PlayerView, turn: int, lang: Lang) -> str:
    """报单 changes what you may play as a single: say so while it applies to you."""
    if turn != view.seat or not view.profile.rules.bao_dan_highest_single:
        return ""
    if view.hand_sizes[view.next_seat] != 1:
        return ""
    # The generator itself knows which single is "highest" under the profile's rank order.
    leads = view.position().gen.leads(C.from_mask(view.hand), True)
    singles = [C.items(m.counts)[0][0] for m in leads if m.kind == ComboKind.SINGLE]
    if not singles:
        return ""
    return tr("status_bao_dan", lang, high=rank_label(singles[0]))


def _status(view: PlayerView, turn: int, lang: Lang, auto: bool) -> str:
    you, n = view.seat, view.players
    if auto:
        return tr("status_auto", lang)
    if turn != you:
        return tr("status_waiting", lang, who=short_name(turn, you, n, lang))
    if view.prev is None or view.prev_seat is None:
        return tr("status_lead", lang)
    prev_play = next(a.play for a in reversed(view.trick) if a.play is not None)
    params = {
        "who": short_name(view.prev_seat, you, n, lang),
        "cards": play_text_of(prev_play),
        "kind": prev_play.kind.said(lang),
    }
    pos = view.position()
    moves = pos.legal_moves()
    if not moves:
        return tr("status_follow_none", lang, **params)
    if pos.can_pass(moves):
        return tr("status_follow_free", lang, **params)
    return tr("status_follow_must", lang, **params)


# -- drawing ---------------------------------------------------------------------------------

_RED = {1, 3}  # hearts, diamonds


def hand_text(cards: Sequence[int], width: int, gap: str = "  ") -> Text:
    """Cards grouped by rank in the given order; with suits when the terminal is wide enough."""
    out = Text()
    for i, g in enumerate(_by_rank(cards)):
        if i:
            out.append(gap)
        if width >= NARROW:
            for c in g:
                s = suit_of(c)
                style = "bold red" if s in _RED else "bold"
                out.append(SUIT_SYMBOLS[s] + rank_label(rank_of(c)), style=style)
        else:
            label = rank_label(rank_of(g[0]))
            out.append((" " if len(label) > 1 else "").join([label] * len(g)), style="bold")
    return out


def hand_plain(cards: Sequence[int], width: int) -> str:
    return hand_text(cards, width).plain


def render_table(tv: TableView, width: int) -> RenderableType:
    """One frame: title, seats with counts / 报单 / this trick, log, status, hand, counter."""
    lang = tv.lang
    parts: list[RenderableType] = [Text(tv.title, style="bold cyan"), Rule(style="dim")]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)  # turn marker
    grid.add_column(no_wrap=True)  # name
    grid.add_column(no_wrap=True, justify="right")  # cards
    grid.add_column(no_wrap=True)  # 报单
    grid.add_column(overflow="fold")  # this trick
    for s in tv.seats:
        marker = Text("▶", style="bold yellow") if s.turn else Text(" ")
        name = Text(s.name, style="bold green" if s.you else "bold")
        count = Text(tr("cards_n", lang, n=s.cards))
        badge = Text(" 报单 ", style="bold white on red") if s.bao_dan else Text("")
        if s.you and tv.auto:
            badge.append(" 托管 ", style="bold black on yellow")
        if s.action is None:
            action = Text("")
        elif s.passed:
            action = Text(tr("act_pass", lang), style="dim")
        else:
            action = hand_text(s.action, width, " ")
            action.stylize("magenta")
        grid.add_row(marker, name, count, badge, action)
    parts.append(grid)
    parts.append(Rule(style="dim"))
    log = Text(tr("log_label", lang), style="dim")
    if not tv.log:
        log.append(tr("log_none", lang))
    for i, (who, cards) in enumerate(tv.log):
        if i:
            log.append(" · ", style="dim")
        if cards is None:
            log.append(tr("log_pass", lang, who=who))
        else:
            log.append(tr("log_play", lang, who=who, cards=""))
            log.append_text(hand_text(cards, width, " "))
    parts.append(log)
    parts.append(Text(tv.status, style="bold yellow" if tv.auto else "bold"))
    parts.append(Text(tr("hand_label", lang, n=len(tv.hand)), style="dim"))
    parts.append(hand_text(tv.hand, width))
    if tv.counter is not None:
        line = Text(tr("counter_label", lang), style="dim")
        for i, (label, n) in enumerate(tv.counter):
            if i:
                line.append(" ")
            line.append(f"{label}:{n}", style="dim" if n == 0 else "")
        parts.append(line)
    for m in tv.messages:
        parts.append(Text(m, style="yellow"))
    return Group(*parts)


@dataclass(frozen=True, slots=True)
class SettlementRow:
    name: str
    short: str
    cards_left: int
    shut_out: bool
    bomb_income: int
    total: int
    session: int
    winner: bool


def settlement_rows(st: Settlement, you: int, totals: Sequence[int], lang: Lang) -> tuple[SettlementRow, ...]:
    n = len(st.seats)
    order = [you] + [(you + k) % n for k in range(1, n)]
    return tuple(
        SettlementRow(
            name=seat_name(s, you, n, lang),
            short=short_name(s, you, n, lang),
            cards_left=st.seats[s].cards_left,
            shut_out=st.seats[s].shut_out,
            bomb_income=st.seats[s].bomb_income,
            total=st.seats[s].total,
            session=totals[s],
            winner=st.winner == s,
        )
        for s in order
    )


def fitted_table(title: str, width: int) -> Table:
    """A table with borders on a wide terminal, and bare, tightly padded columns below
    ``NARROW`` so that it still fits 40 columns."""
    wide = width >= NARROW
    return Table(
        title=title,
        title_style="bold",
        title_justify="left",
        box=box.HEAVY_HEAD if wide else None,
        header_style="bold" if wide else "bold underline",
        show_edge=wide,
        pad_edge=wide,
        padding=(0, 1) if wide else (0, 1, 0, 0),
    )


def render_settlement(rows: Sequence[SettlementRow], deal_no: int, lang: Lang, width: int) -> RenderableType:
    """The settlement panel: per player cards left, 全关, bomb income, total, session total."""
    wide = width >= NARROW
    table = fitted_table(tr("settle_title", lang, n=deal_no), width)
    table.add_column(tr("col_player", lang), no_wrap=True)
    for key in ("col_left", "col_shut", "col_bombs", "col_total", "col_session"):
        table.add_column(tr(key, lang), justify="right", no_wrap=True)
    for r in rows:
        style = "bold green" if r.winner else ""
        table.add_row(
            Text(("★" if r.winner else "") + (r.name if wide else r.short), style=style),
            str(r.cards_left),
            tr("yes", lang) if r.shut_out else "-",
            f"{r.bomb_income:+d}",
            Text(f"{r.total:+d}", style="bold green" if r.total > 0 else ("red" if r.total < 0 else "")),
            f"{r.session:+d}",
        )
    return table


__all__ = [
    "NARROW",
    "SeatRow",
    "SettlementRow",
    "TableView",
    "difficulty_name",
    "hand_plain",
    "hand_text",
    "render_settlement",
    "render_table",
    "seat_name",
    "settlement_rows",
    "table_view",
    "unseen_counts",
]
