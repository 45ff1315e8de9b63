"""Drawing the ``pdk play`` table: pure functions from the table model to rich renderables.

Every decision about what the table says (who sits where, the current trick, whose turn
and what they must do, the settlement's reasons) is the table model's
(``pdk.view.table_model``); this module only lays it out for a width and a language, so
the terminal and the replay viewer cannot drift from the browser table. Nothing here reads
input or prints: every layout is testable by rendering to a string. Colour is the
console's business: without colour (``NO_COLOR``, not a terminal) the same renderables
print as plain text.

The layout fits 80×24 and 40 columns: below ``NARROW`` columns cards are written by rank
only (``33 5 666``) instead of with suits (``♠3♥3 ♣5``). There is one card renderer
(``group_text``) for the hand row, the trick and the plays in messages: a rank of two
characters (``10``, ``小王``) is spaced within its group, so ranks never run together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from pdk.bots import DIFFICULTIES
from pdk.cli.prose import GLUE, Prose
from pdk.engine.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, Rank, rank_label
from pdk.text.catalog import Lang, tr
from pdk.view.table_model import PlayModel, SeatModel, SettlementModel, SettleRow, TableModel, place_name

NARROW = 60
_RED = {1, 3}  # hearts, diamonds


class Fitted:
    """A renderable laid out for the width it is printed at: rich passes the width at
    print time, so a caller that only prints (the replay loop) needs no width of its own."""

    def __init__(self, build: Callable[[int], RenderableType]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        yield self.build(options.max_width)


def difficulty_name(name: str, lang: Lang) -> str:
    """A built-in difficulty in ``lang`` (简单/普通/困难); any other bot name as it is."""
    return tr(f"diff_{name}", lang) if name in DIFFICULTIES else name


def _rank_suit(card: str) -> tuple[int, int | None]:
    """A model card name (``3s``, ``Th``, ``B``) as (rank index, suit or None for a joker)."""
    rank = RANK_CHARS.index(card[0])
    suit = SUIT_CHARS.index(card[1]) if len(card) > 1 and rank < Rank.BLACK_JOKER else None
    return rank, suit


def group_text(cards: Sequence[str], width: int, gap: str = "  ") -> Text:
    """Cards (model names) grouped by rank in the order given: ``♠3♥3  ♣5`` on a wide
    terminal, ``33  5`` below ``NARROW``; jokers never carry a suit."""
    groups: list[list[tuple[int, int | None]]] = []
    for card in cards:
        rank, suit = _rank_suit(card)
        if groups and groups[-1][0][0] == rank:
            groups[-1].append((rank, suit))
        else:
            groups.append([(rank, suit)])
    out = Text()
    for i, g in enumerate(groups):
        if i:
            out.append(gap)
        label = rank_label(g[0][0])
        spaced = len(label) > 1
        for j, (_, suit) in enumerate(g):
            suited = width >= NARROW and suit is not None
            if j and spaced and not suited:
                out.append(" ")
            if suited:
                assert suit is not None
                out.append(SUIT_SYMBOLS[suit] + label, style="bold red" if suit in _RED else "bold")
            else:
                out.append(label, style="bold")
    return out


def play_text(play: PlayModel, width: int) -> Text:
    """A play as it reads: the body, then ``+`` and the kickers (``888 999 + 3 4 5``)."""
    out = group_text(play.body, width, " ")
    if play.kickers:
        out.append(" + ", style="dim")
        out.append_text(group_text(play.kickers, width, " "))
    return out


def hand_plain(cards: Sequence[str], width: int) -> str:
    return group_text(cards, width).plain


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of the terminal table: the model plus what only this face knows (the
    running session total, whether 托管 and the counter are on, the messages to show)."""

    model: TableModel
    lang: Lang
    session_total: int = 0
    auto: bool = False
    counter: bool = False
    messages: tuple[str, ...] = ()


def title_of(frame: Frame) -> str:
    m, lang = frame.model, frame.lang
    return (
        tr("play_title", lang, variant=m.variant, difficulty=difficulty_name(m.difficulty, lang), n=m.deal_no)
        + " · "
        + tr("play_session", lang, total=frame.session_total).replace(" ", GLUE)
    )


def status_of(frame: Frame) -> str:
    """What the seat to move must do, from the model's task; 报单 named while it applies."""
    m, lang = frame.model, frame.lang
    if frame.auto and m.task.kind != "over":
        return tr("status_auto", lang)
    text = m.task.message.text(lang)
    # Not when nothing beats ("none"): "pass" and "you must play your K" side by side
    # read as a contradiction, and with 报单 nothing beating means no single does either.
    if m.task.kind in ("beat", "lead") and m.task.bao_dan_high is not None:
        text += " " + tr("status_bao_dan", lang, high=m.task.bao_dan_high)
    return text


def _seat_row(s: SeatModel, frame: Frame, width: int) -> tuple[Text, ...]:
    lang = frame.lang
    marker = Text("▶", style="bold yellow") if s.to_move else Text(" ")
    name = Text(s.name.text(lang), style="bold green" if s.relation == "you" else "bold")
    if s.out:
        place = "" if s.place is None else place_name(s.place, frame.model.players).text(lang)
        count = Text(tr("seat_out", lang, place=place), style="dim")
    else:
        count = Text(tr("cards_n" if s.cards != 1 else "cards_1", lang, n=s.cards))
    badge = Text(f" {tr('badge_bao_dan', lang)} ", style="bold white on red") if s.bao_dan else Text("")
    if s.relation == "you" and frame.auto:
        badge.append(f" {tr('badge_auto', lang)} ", style="bold black on yellow")
    if s.last is None:
        action = Text("")
    elif s.last.play is None:
        action = Text(tr("act_pass", lang), style="dim")
    else:
        action = play_text(s.last.play, width)
        action.stylize("magenta")
    return marker, name, count, badge, action


def trick_text(model: TableModel, lang: Lang, width: int, latest: int | None = None) -> Text:
    """The current trick only, in play order, its leader marked with ▸; with ``latest``,
    only that many of its last actions after a "…" (a short terminal)."""
    out = Text(tr("trick_label", lang), style="dim")
    if not model.trick.actions:
        won = model.trick.won
        if won is None or won.play is None or model.task.kind == "over":
            out.append(tr("trick_none", lang))
        else:
            out.append(tr("trick_won", lang, who=won.name.text(lang), cards=won.play.text))
        return out
    actions = list(enumerate(model.trick.actions))
    if latest is not None and len(actions) > latest:
        actions = actions[-latest:]
        out.append("… ", style="dim")
    for k, (i, a) in enumerate(actions):
        if k:
            out.append(" · ", style="dim")
        who = a.name.text(lang)
        if i == 0:
            out.append("▸", style="bold yellow")
        if a.play is None:
            out.append(tr("log_pass", lang, who=who))
        else:
            out.append(tr("log_play", lang, who=who, cards=""))
            out.append_text(play_text(a.play, width))
    return out


# Below this many lines a frame is drawn compact, so that it never scrolls its title off.
SHORT = 24


def render_table(frame: Frame, width: int, height: int | None = None) -> RenderableType:
    """One frame: title, seats (others, then you), this trick, status, hand, counter.

    On a terminal shorter than ``SHORT`` lines (40×20) the frame is compact: no rules, the
    trick's latest round, the last two messages; else the frame ran past the screen and
    its title scrolled away."""
    m, lang = frame.model, frame.lang
    short = height is not None and height < SHORT
    rule: list[RenderableType] = [] if short else [Rule(style="dim")]
    parts: list[RenderableType] = [Prose(title_of(frame), style="bold cyan", overflow="fold"), *rule]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)  # turn marker
    grid.add_column(no_wrap=True)  # name
    grid.add_column(no_wrap=True, justify="right")  # cards
    grid.add_column(no_wrap=True)  # 报单 / 托管
    grid.add_column(overflow="fold")  # this trick
    for s in [*m.seats[1:], m.seats[0]]:
        grid.add_row(*_seat_row(s, frame, width))
    parts += [grid, *rule, trick_text(m, lang, width, latest=m.players if short else None)]
    parts.append(Prose(status_of(frame), style="bold yellow" if frame.auto else "bold"))
    parts.append(Text(tr("hand_label", lang, n=len(m.hand)), style="dim"))
    parts.append(group_text(m.hand, width))
    if frame.counter:
        line = Text(tr("counter_label", lang), style="dim")
        for i, c in enumerate(m.counter):
            if i:
                line.append(" ")
            line.append(f"{c.label}×{c.unseen}", style="dim" if c.unseen == 0 else "")  # rank, then count
        parts.append(line)
    for msg in frame.messages[-2:] if short else frame.messages:
        parts.append(Prose(msg, style="yellow"))
    return Group(*parts)


def render_over(frame: Frame, width: int, short: bool = False) -> RenderableType:
    """The head of the settlement screen: no "your turn" once the deal is over, only who
    went out and the last trick (the settlement panel follows); ``short`` (a terminal
    under ``SHORT`` lines) leaves out the rule and the trick."""
    m, lang = frame.model, frame.lang
    title = Prose(title_of(frame), style="bold cyan", overflow="fold")
    said = Prose(m.task.message.text(lang), style="bold")
    if short:
        return Group(title, said)
    return Group(title, Rule(style="dim"), trick_text(m, lang, width), said)


# -- the settlement ------------------------------------------------------------------------


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


def _signed(n: int) -> Text:
    return Text(f"{n:+d}", style="bold green" if n > 0 else ("red" if n < 0 else ""))


def render_settlement(
    sm: SettlementModel,
    title: str,
    lang: Lang,
    width: int,
    names: Sequence[str] | None = None,
    reasons: bool = True,
) -> RenderableType:
    """The settlement panel, one per scheme, every number from the model: placement shows
    头游/二游/末游 and their points; card payment shows cards left and the multiplier per
    loser (全关 and graded ×2/×3/×4) only where some row has one; bombs where any scored;
    then each seat's reasons (包赔 says who paid for whom) after the cards it still held.
    ``names`` (by seat) replaces the model's relative names where the face names seats
    itself (the replay); without ``reasons`` (a short terminal) only the cards held follow.
    Below ``NARROW`` the 全关 column shows only when some seat was shut out."""

    def name_of(r: SettleRow) -> str:
        return names[r.seat] if names is not None else r.name.text(lang)

    table = fitted_table(title, width)
    placement = sm.scheme == "placement"
    # 全关 always has its column where cards are paid for, as on the page; the multiplier
    # only where some loser has one other than 全关's.
    with_x = not placement and any(r.multiplier > 1 and not r.shut_out for r in sm.rows)  # graded
    # ... but below NARROW a graded panel says 全关 in its × column ("全关 ×4"): one
    # column more would not fit 40 cells.
    narrow = width < NARROW
    with_shut = not placement and not (with_x and narrow) and (not narrow or any(r.shut_out for r in sm.rows))
    with_bombs = any(r.bombs or r.bomb_income for r in sm.rows)
    with_session = any(r.session is not None for r in sm.rows)
    table.add_column(tr("col_player", lang), no_wrap=True)
    cols = ["col_place", "col_points"] if placement else ["col_left"]
    cols += ["col_shut"] if with_shut else []
    cols += ["col_x"] if with_x else []
    cols += ["col_bombs"] if with_bombs else []
    cols += ["col_total"] + (["col_session"] if with_session else [])
    for key in cols:
        table.add_column(tr(key, lang), justify="right", no_wrap=True)
    for r in sm.rows:
        cells: list[Text | str] = [
            Text(("★" if r.winner else "") + name_of(r), style="bold green" if r.winner else "")
        ]
        if placement:
            cells += [r.place_name.text(lang) if r.place_name is not None else "-", _signed(r.card_payment)]
        else:
            cells.append(str(r.cards_left))
        if with_shut:
            cells.append(tr("st_yes", lang) if r.shut_out else "-")
        if with_x:
            shut = "全关 " if r.shut_out and not with_shut else ""
            cells.append("-" if r.winner else f"{shut}×{r.multiplier}")
        if with_bombs:
            cells.append(f"{r.bomb_income:+d}")
        cells.append(_signed(r.total))
        if with_session:
            cells.append("" if r.session is None else f"{r.session:+d}")
        table.add_row(*cells)
    notes = Prose()
    for r in sm.rows:
        said = [s.text(lang) for s in r.lines[:-1]] if reasons else []  # the total is above
        if r.left:  # what the seat was left holding, face up
            said.insert(0, tr("st_left_cards", lang, cards=hand_plain(r.left, width)))
        if said:
            if notes:
                notes.append("\n")
            notes.append(name_of(r) + ("：" if lang == "zh" else ": "), style="bold")
            notes.append(("；" if lang == "zh" else "; ").join(said))
    for s in sm.lines if reasons else ():
        notes.append("\n" + s.text(lang))
    return Group(table, notes)


__all__ = [
    "NARROW",
    "SHORT",
    "Fitted",
    "Frame",
    "difficulty_name",
    "group_text",
    "hand_plain",
    "play_text",
    "render_over",
    "render_settlement",
    "render_table",
    "status_of",
    "trick_text",
]
