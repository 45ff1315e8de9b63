"""``pdk moves``: the rules judge — every legal play for a position, or a verdict on one."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from pdk.cli.common import (
    JsonOpt,
    LangOpt,
    VariantOpt,
    fail,
    lang_or_fail,
    out_console,
    profile_or_fail,
)
from pdk.cli.play_input import PASS_WORDS
from pdk.engine import counts as C
from pdk.engine import position_text as P
from pdk.engine.cards import CardParseError, CardPlace, format_cards, mask_of, parse_specs
from pdk.engine.combos import Move, classify, move_of, preferred_lead
from pdk.engine.position import IllegalPlay, Position, Reason, check, is_one_suit, resolve_cards
from pdk.engine.profile import Profile
from pdk.text.catalog import Lang, excerpt, tr


def resolve_position(
    hand: str, beat: str | None, deck: int, lang: Lang
) -> tuple[int, tuple[int, ...] | None]:
    """The hand's cards (a mask) and the play to beat's, from notation. Ranks written
    without a suit take the suits in turn (``spread``), and when the hand's free choice of
    suits takes a card that ``--beat`` names (``--hand 3 --beat 3s``), the play to beat is
    placed first and the hand takes what is left."""
    try:
        hand_mask = mask_of(resolve_cards(hand, deck, CardPlace.DECK, spread=True))
    except CardParseError as exc:
        fail(f"--hand: {exc.message(lang)}")
    if beat is None:
        return hand_mask, None
    try:
        return hand_mask, resolve_cards(beat, deck & ~hand_mask, CardPlace.OUTSIDE_HAND, spread=True)
    except CardParseError as exc:
        try:
            beat_cards = resolve_cards(beat, deck, CardPlace.DECK, spread=True)
            rest = deck & ~mask_of(beat_cards)
            return mask_of(resolve_cards(hand, rest, CardPlace.DECK, spread=True)), beat_cards
        except CardParseError:
            fail(f"--beat: {exc.message(lang)}")


def parse_beat(profile: Profile, text: str, cards: tuple[int, ...], lang: Lang) -> Move:
    """The play to beat, read as a lead would be (D2); one-line error if it is no play."""
    # A straight flush only when the suits were written out (unsuited ranks take any suit).
    suited = all(spec.suit is not None for spec in parse_specs(text))
    flush = profile.combinations.straight_flush != "none" and suited and is_one_suit(cards)
    counts = C.from_cards(cards)
    readings = classify(profile, counts, whole_hand=False, flush=flush)
    if not readings:
        fail(f"--beat: {tr(Reason.NOT_A_COMBINATION.value, lang, cards=format_cards(cards))}")
    r = preferred_lead(readings)
    return move_of(counts, r)


def sort_key(move: Move) -> tuple[int, int, int, int]:
    return (move.kind, move.units, move.top, move.counts)


def moves(
    hand: Annotated[str | None, typer.Option("--hand", help="Your cards, e.g. '334455TJQKA2'.")] = None,
    beat: Annotated[
        str | None, typer.Option("--beat", help="The play you must beat (omit when leading).")
    ] = None,
    next_holds: Annotated[
        int, typer.Option("--next-holds", min=1, max=108, help="Cards your 下家 holds (1 = 报单).")
    ] = 16,
    play: Annotated[str | None, typer.Option("--play", help="Judge this one play ('pass' to pass).")] = None,
    position: Annotated[
        str | None,
        typer.Option("--position", help="A position text (docs/position.md) instead of --hand and --beat."),
    ] = None,
    variant: VariantOpt = "classic16",
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """List every legal play for a hand, or judge one play (exit 1 if illegal)."""
    language = lang_or_fail(lang)
    for option, value in (("--hand", hand), ("--beat", beat), ("--play", play)):
        if value is not None and not value.strip(" ,\t"):
            fail(tr("err_no_cards", language, option=option))
    if (position is None) == (hand is None):
        fail(tr("moves_err_hand_or_position", language))
    text = None
    if position is not None:
        try:
            table_pos = P.parse(position, profile_or_fail(P.variant_of(position), language))
        except P.PositionError as exc:
            fail(exc.message(language))
        pos = table_pos.view().position()
        text = table_pos.format()
    else:
        assert hand is not None
        profile = profile_or_fail(variant, language)
        deck = mask_of(profile.deck_cards)
        hand_mask, beat_cards = resolve_position(hand, beat, deck, language)
        prev = None
        if beat is not None and beat_cards is not None:
            prev = parse_beat(profile, beat, beat_cards, language)
        pos = Position(profile, hand_mask, prev, next_holds == 1)
    console = out_console()
    if play is not None:
        _judge(pos, play, as_json, language)
        return
    legal = sorted(pos.legal_moves(), key=sort_key)
    can_pass = pos.can_pass(legal)
    if as_json:
        plays = [{"cards": m.notation(), "kind": m.kind.label} for m in legal]
        data: dict[str, object] = {"can_pass": can_pass, "plays": plays}
        if text is not None:
            data["position"] = text
        print(json.dumps(data, ensure_ascii=False))
        return
    table = Table(
        title=tr("moves_title_1" if len(legal) == 1 else "moves_title", language, n=len(legal)),
        title_justify="left",
    )
    table.add_column(tr("col_kind", language))
    table.add_column(tr("col_cards", language))
    for m in legal:
        table.add_row(m.kind.said.text(language), m.notation())
    console.print(table)
    if pos.prev is None:
        console.print(tr("moves_cannot_pass_lead", language))
    elif can_pass:
        console.print(tr("moves_none" if not legal else "moves_can_pass", language))
    else:
        console.print(tr("moves_cannot_pass_beat", language))


def _judge(pos: Position, text: str, as_json: bool, lang: Lang) -> None:
    cards: tuple[int, ...] | None = None
    try:
        if text.strip().lower() not in PASS_WORDS:
            try:
                parse_specs(text)
            except CardParseError as exc:
                fail(f"--play: {exc.message(lang)}")
            try:
                cards = resolve_cards(text, pos.hand, CardPlace.HAND)
            except CardParseError:
                raise IllegalPlay(Reason.NOT_IN_HAND, cards=excerpt(text.strip())) from None
        result = check(pos, cards)
    except IllegalPlay as exc:
        if as_json:
            print(
                json.dumps(
                    {
                        "legal": False,
                        "kind": None,
                        "reason": exc.message(lang),
                        "code": exc.reason.value,
                    },
                    ensure_ascii=False,
                )
            )
        else:
            out_console().print(tr("moves_illegal", lang, reason=exc.message(lang)), markup=False)
        raise typer.Exit(1) from None
    kind = result.kind.label if result else "pass"
    if as_json:
        print(json.dumps({"legal": True, "kind": kind, "reason": None}))
    elif result is None:
        out_console().print(tr("moves_pass_legal", lang))
    else:
        name = result.kind.said.text(lang)
        out_console().print(tr("moves_legal", lang, cards=result.move.shown(), kind=name), markup=False)
