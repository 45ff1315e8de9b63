"""Rendering for ``pdk replay``: pure functions from a record and a step to rich renderables
or plain text, so the screens and the transcript are testable without a terminal.

Step ``i`` is the position after the first ``i`` plays (step 0 is the deal). The *viewer*
is ``None`` (every hand face up) or one seat, which then sees only what that player saw:
its own hand, card counts and the public plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pdk.analysis.review import marks
from pdk.bots import bot_label, is_plugin, make_bot
from pdk.bots.checked import AnswerFault, BadAnswer, checked_choice, named
from pdk.bots.knowledge import unseen_counts
from pdk.cli.prose import Prose
from pdk.cli.table import Fitted, group_text, play_text, render_settlement
from pdk.engine import counts as C
from pdk.engine.cards import cards_of, rank_label, rank_of, suit_of
from pdk.engine.combos import ComboKind, Move
from pdk.engine.deal import bot_seed
from pdk.engine.events import BaoDan, BombStands, PlayerOut, TrickWon
from pdk.engine.record import GameRecord
from pdk.engine.settlement import Settlement
from pdk.engine.state import Action, GameState
from pdk.table.session import HUMAN_NAME
from pdk.text.catalog import Lang, LocalizedError, tr
from pdk.view.table_model import card_name, play_model, seat_name, settlement_model


def seat_names(record: GameRecord, lang: Lang) -> list[str]:
    """A deal of ``pdk play`` or the page (one seat is "you") names seats as the table did
    (You, Next player (normal), Previous player (normal)); any other record 'seat 0 (easy)'
    when it says who sat there, else 'seat 0'."""
    players = record.profile.players
    who = None
    for key in ("bots", "players", "names"):
        value = record.meta.get(key)
        if isinstance(value, list) and len(value) == players and all(isinstance(v, str) for v in value):
            who = value
            break
    if who is not None and who.count(HUMAN_NAME) == 1:
        you = who.index(HUMAN_NAME)
        names = [seat_name([1] * players, you, seat).text(lang) for seat in range(players)]
        return [
            n if seat == you else f"{n} ({w})" for seat, (n, w) in enumerate(zip(names, who, strict=True))
        ]
    names = [tr("rp_seat", lang, seat=i) for i in range(players)]
    if who is not None:
        names = [f"{n} ({w})" for n, w in zip(names, who, strict=True)]
    return names


def cards_text(cards: Sequence[int], width: int = 80) -> Text:
    """A hand in display form, by the table's one card renderer (grouped by rank)."""
    ordered = sorted(cards, key=lambda c: (rank_of(c), suit_of(c)))
    return group_text([card_name(c) for c in ordered], width)


def action_text(action: Action, names: Sequence[str], lang: Lang, width: int = 80) -> Text:
    text = Text(f"{names[action.seat]}: ")
    if action.play is None:
        text.append(tr("rp_pass", lang), style="dim")
    else:
        text.append_text(play_text(play_model(action.play), width))
        text.append(f"  {action.play.kind.said.text(lang)}", style="dim")
    return text


def action_plain(action: Action, lang: Lang) -> str:
    """A play as the transcript writes it: grouped as it reads (body + kickers), with suits."""
    if action.play is None:
        return tr("rp_pass", lang)
    return f"{play_text(play_model(action.play), 80).plain}  {action.play.kind.said.text(lang)}"


def move_plain(move: Move | None, lang: Lang) -> str:
    if move is None:
        return tr("rp_pass", lang)
    return f"{move.shown()}  {move.kind.said.text(lang)}"  # ranks as the table writes them (10, not T)


def counter(state: GameState, viewer: int | None) -> list[tuple[int, int]]:
    """(rank, count) for every rank of the deck: cards still in hands, or, for a viewer, what
    that player's card counter shows (the one counter, ``unseen_counts``: set-aside cards
    count as unseen, as they do at the table)."""
    if viewer is None:
        seen = sum(C.from_mask(hand) for hand in state.hands)
    else:
        seen = unseen_counts(state.view(viewer))
    totals = state.profile.rank_totals
    return [(r, C.count(seen, r)) for r in range(len(totals)) if totals[r]]


def counter_text(state: GameState, viewer: int | None, names: Sequence[str], lang: Lang) -> Text:
    label = tr("rp_counter_all", lang) if viewer is None else tr("rp_counter_seat", lang, who=names[viewer])
    text = Text(f"{tr('rp_counter', lang)} ({label}): ", style="bold")
    for i, (rank, n) in enumerate(counter(state, viewer)):
        if i:
            text.append("  ")
        text.append(f"{rank_label(rank)}", style="bold" if n else "dim")
        text.append(f"×{n}", style="" if n else "dim")
    return text


@dataclass(frozen=True, slots=True)
class Explanation:
    """What a bot would play at a step, the legal choices, and what the record did."""

    bot: str
    seat: int
    choice: Move | None
    legal: tuple[Move, ...]
    can_pass: bool
    actual: Action | None


class ExplainFault(Enum):
    """How a plug-in bot failed while explaining a play; values are message keys."""

    RAISED = "rp_bot_raised"
    ILLEGAL = "rp_bot_illegal"


class ExplainError(LocalizedError, RuntimeError):
    """A plug-in bot that raised, or chose a play that is not legal there, while
    explaining a record."""

    reason: ExplainFault


def explain(state: GameState, bot: str, seed: int, actual: Action | None) -> Explanation:
    """Ask ``bot`` for the seat to move, built from the deal's ``seed`` and the seat as play
    and selfplay build it (``bot_seed``), so on a record of that bot every play agrees; it
    sees only that seat's view, as in a real game. A plug-in bot's answer goes through the
    match's checked path (the built-in ones are trusted, as in a match) and it is named by
    its ``name``, as the match summary names it."""
    seat = state.turn
    view = state.view(seat)
    pos = view.position()
    legal = pos.legal_moves()
    can_pass = pos.can_pass(legal)
    player = make_bot(bot, bot_seed(seed, seat))
    if not is_plugin(bot):
        return Explanation(bot, seat, player.choose(view), tuple(legal), can_pass, actual)
    step = str(len(state.history) + 1)
    try:
        choice = checked_choice(player, view)
    except BadAnswer as bad:
        who = named(player, bot)
        if bad.fault is AnswerFault.RAISED:
            raise ExplainError(ExplainFault.RAISED, bot=who, step=step, error=bad.detail) from None
        play = bad.detail if bad.fault is AnswerFault.ILLEGAL else move_plain(None, "en")
        raise ExplainError(ExplainFault.ILLEGAL, bot=who, step=step, play=play) from None
    return Explanation(bot_label(player, bot), seat, choice, tuple(legal), can_pass, actual)


def explanation_panel(ex: Explanation, names: Sequence[str], lang: Lang, limit: int = 12) -> RenderableType:
    lines: list[RenderableType] = [
        Prose(tr("rp_explain_title", lang, bot=ex.bot, who=names[ex.seat]), style="bold magenta"),
        Prose(tr("rp_explain_bot", lang, bot=ex.bot, play=move_plain(ex.choice, lang)), style="magenta"),
    ]
    if ex.actual is not None:
        lines.append(Prose(tr("rp_explain_actual", lang, play=action_plain(ex.actual, lang))))
    lines.append(Prose(tr("rp_explain_legal", lang, n=len(ex.legal))))
    ordered = sorted(ex.legal, key=lambda m: (m.kind == int(ComboKind.BOMB), m.top, m.kind, m.units))
    for m in ordered[:limit]:
        mark = "▶ " if ex.choice is not None and m == ex.choice else "  "
        lines.append(Text(f"  {mark}{move_plain(m, lang)}"))
    if len(ordered) > limit:
        lines.append(Text("    " + tr("rp_explain_more", lang, n=len(ordered) - limit), style="dim"))
    if ex.can_pass:
        lines.append(Text("  " + tr("rp_explain_pass_ok", lang), style="dim"))
    return Group(*lines)


def settlement_table(
    record: GameRecord, st: Settlement, names: Sequence[str], lang: Lang, width: int = 80
) -> RenderableType:
    """The settlement, explained by the table model and drawn by the table's one
    settlement renderer, with the replay's seat names."""
    sm = settlement_model(record.profile, st, 0, None)
    return render_settlement(sm, tr("rp_settlement", lang, who=names[st.winner]), lang, width, names=names)


@dataclass(frozen=True, slots=True)
class Frame:
    """Everything one replay screen shows."""

    source: str
    step: int
    viewer: int | None
    explanation: Explanation | None = None
    explain_note: str | None = None
    legal_limit: int = 12  # how many legal plays the explain panel lists (screen height)


def _variant(record: GameRecord, lang: Lang) -> str:
    """The variant as the replay headers name it: profile name and title."""
    title = record.profile.title.said.text(lang)
    return f"{record.profile.name} {title}"


def _seed(record: GameRecord) -> int | str:
    return record.seed if record.seed is not None else "—"


def render_frame(record: GameRecord, states: Sequence[GameState], frame: Frame, lang: Lang) -> RenderableType:
    """One screen of the replay, laid out for the width it is printed at (see ``Fitted``)."""
    return Fitted(lambda width: _frame(record, states, frame, lang, width))


def _frame(
    record: GameRecord, states: Sequence[GameState], frame: Frame, lang: Lang, width: int
) -> RenderableType:
    """Header, seats with hands (or counts), the current trick, the last play, the card
    counter; once the deal is over the settlement takes the counter's place (the last
    screen fits 24 rows)."""
    state = states[frame.step]
    names = seat_names(record, lang)
    parts: list[RenderableType] = [
        Text(
            tr(
                "rp_header",
                lang,
                source=frame.source,
                variant=_variant(record, lang),
                seed=_seed(record),
                i=frame.step,
                n=len(record.actions),
            ),
            style="bold",
        )
    ]
    seats = Table.grid(padding=(0, 2))
    seats.add_column(no_wrap=True)
    seats.add_column()
    for seat in range(record.profile.players):
        label = Text(names[seat], style="bold cyan" if seat == frame.viewer else "bold")
        status = Text()
        status.append(
            tr("rp_cards_left_1" if state.sizes[seat] == 1 else "rp_cards_left", lang, n=state.sizes[seat])
        )
        if state.sizes[seat] == 1:
            status.append(" ")
            status.append(f" {tr('rp_bao_dan', lang)} ", style="bold white on red")
        if state.bomb_bonuses[seat]:
            status.append(f"  {tr('rp_bombs_stood', lang, n=state.bomb_bonuses[seat])}", style="bold magenta")
        if state.winner == seat:
            status.append(" ")
            status.append(tr("rp_out", lang), style="bold green")
        elif not state.over and state.turn == seat:
            status.append(f"  ▶ {tr('rp_to_move', lang)}", style="bold yellow")
        if frame.viewer is None or frame.viewer == seat:
            hand: RenderableType = cards_text(cards_of(state.hands[seat]), width)
        else:
            hand = Text(tr("rp_hidden", lang), style="dim")
        if state.over:  # one line a seat: the settlement needs the rows
            seats.add_row(Text.assemble(label, " ", status), hand)
        else:
            seats.add_row(Group(label, status), hand)
    parts.append(seats)
    if not state.over:
        parts.append(_trick_text(state, names, lang, width))
    if frame.step > 0:
        last = Text(f"{tr('rp_last', lang)} ({frame.step}) ", style="bold")
        last.append_text(action_text(record.actions[frame.step - 1], names, lang, width))
        parts.append(last)
        reviewed = marks(record).get(frame.step)
        if reviewed is not None:  # a record annotated by pdk review
            note = tr("rp_review_note", lang, mark=reviewed.mark, best=reviewed.best or tr("rp_pass", lang),
                      loss=reviewed.loss)  # fmt: skip
            parts.append(Text(note, style="bold red" if reviewed.mark == "??" else "yellow"))
    else:
        parts.append(Text(tr("rp_start", lang, who=names[state.turn]), style="bold"))
    if state.over:
        parts.append(settlement_table(record, state.settlement(), names, lang, width))
    else:
        parts.append(counter_text(state, frame.viewer, names, lang))
    if frame.explanation is not None:
        parts.append(explanation_panel(frame.explanation, names, lang, frame.legal_limit))
    elif frame.explain_note:
        parts.append(Prose(frame.explain_note, style="magenta"))
    parts.append(Prose(tr("rp_keys", lang), style="dim"))
    return Group(*parts)


def _trick_text(state: GameState, names: Sequence[str], lang: Lang, width: int) -> Text:
    text = Text(f"{tr('rp_trick', lang)}: ", style="bold")
    trick = state.history[state.trick_start :]
    if not trick:
        if state.over:
            text.append("—")
        else:
            text.append(tr("rp_trick_empty", lang, who=names[state.turn]), style="dim")
        return text
    for i, action in enumerate(trick):
        if i:
            text.append("  ·  ", style="dim")
        text.append_text(action_text(action, names, lang, width))
    return text


def transcript(
    record: GameRecord,
    lang: Lang,
    *,
    viewer: int | None = None,
    bot: str | None = None,
    bot_seed: int = 0,
) -> list[str]:
    """The whole game as readable lines: the deal, every play numbered and grouped by trick,
    报单 and bomb events, and the settlement. With ``bot``, every play where that bot would
    have chosen differently is annotated (only the viewer's plays when there is a viewer)."""
    names = seat_names(record, lang)
    lines = [tr("rp_tr_title", lang, variant=_variant(record, lang), seed=_seed(record))]
    lines.append(tr("rp_tr_deal", lang))
    for seat, hand in enumerate(record.deal.hands):
        lead = f"  [{tr('rp_leads', lang)}]" if seat == record.deal.leader else ""
        shown = cards_text(cards_of(hand)).plain if viewer in (None, seat) else tr("rp_hidden", lang)
        lines.append(f"  {names[seat]}{lead}: {shown}")
    state = GameState(record.profile, record.deal)
    reviewed = marks(record)
    trick_no = 0
    width = len(str(len(record.actions)))
    for number, action in enumerate(record.actions, 1):
        if state.trick_start == len(state.history):
            trick_no += 1
            lines.append(tr("rp_tr_trick", lang, n=trick_no, who=names[action.seat]))
        note = None
        if bot is not None and (viewer is None or viewer == action.seat):
            ex = explain(state, bot, bot_seed, action)
            actual_move = action.play.move if action.play else None
            if not _same(ex.choice, actual_move):
                note = tr("rp_tr_bot_differs", lang, bot=ex.bot, play=move_plain(ex.choice, lang))
        # The engine says what the turn made happen; the transcript only words it.
        _, events = state.act(action.play.cards if action.play else None)
        lines.append(f"  {number:>{width}}. {names[action.seat]}: {action_plain(action, lang)}")
        if note:
            lines.append(note)
        if number in reviewed:
            m = reviewed[number]
            best = m.best or tr("rp_pass", lang)
            lines.append(tr("rp_tr_review", lang, mark=m.mark, best=best, loss=m.loss))
        lines.extend(bomb_line(record, names[e.seat], lang) for e in events if isinstance(e, BombStands))
        for e in events:
            if isinstance(e, PlayerOut) and record.profile.end == "first_out":
                lines.append(tr("rp_tr_out", lang, who=names[e.seat]))
            elif isinstance(e, PlayerOut):
                lines.append(tr("rp_tr_out_place", lang, who=names[e.seat], place=e.place))
            elif isinstance(e, TrickWon):
                lines.append(tr("rp_tr_trick_won", lang, who=names[e.seat]))
        lines.extend(tr("rp_tr_bao_dan", lang, who=names[e.seat]) for e in events if isinstance(e, BaoDan))
    if not state.over:
        lines.append(tr("rp_tr_unfinished", lang))
        return lines
    lines.extend(settlement_lines(record, state.settlement(), names, lang))
    return lines


def bomb_line(record: GameRecord, who: str, lang: Lang) -> str:
    """What a scoring bomb earns, as the profile's settlement pays it: from each other
    player, or a credit nobody pays (jokers17)."""
    rules = record.profile.settlement
    stood = rules.bomb_bonus_when == "trick_won"
    if rules.bomb_bonus_paid_by == "each_other":
        key = "rp_tr_bomb_each" if stood else "rp_tr_bomb_each_played"
    else:
        key = "rp_tr_bomb_credit" if stood else "rp_tr_bomb_credit_played"
    return tr(key, lang, who=who, pts=rules.bomb_bonus)


def settlement_lines(record: GameRecord, st: Settlement, names: Sequence[str], lang: Lang) -> list[str]:
    """The settlement in the transcript: every seat's numbers with the model's reasons
    (placement, multipliers, 包赔, bombs), the same as the panel says."""
    sm = settlement_model(record.profile, st, 0, None)
    lines = [tr("rp_settlement", lang, who=names[st.winner])]
    sep = "；" if lang == "zh" else "; "
    for row in sm.rows:
        said = sep.join(s.text(lang) for s in row.lines)
        lines.append(f"  {names[row.seat]}{'：' if lang == 'zh' else ': '}{said}")
    lines.extend(f"  {s.text(lang)}" for s in sm.lines)
    return lines


def _same(a: Move | None, b: Move | None) -> bool:
    """Two choices are the same play when their rank counts and reading agree."""
    if a is None or b is None:
        return a is b
    return a[0] == b[0] and a[1] == b[1]


__all__ = [
    "Explanation",
    "Frame",
    "counter",
    "explain",
    "render_frame",
    "seat_names",
    "settlement_table",
    "transcript",
]
