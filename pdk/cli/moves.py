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
from pdk.engine.cards import CardParseError, CardPlace, format_cards, mask_of, parse_specs
from pdk.engine.combos import Move, classify, move_of, preferred_lead
from pdk.engine.profile import Profile
from pdk.engine.rules import IllegalPlay, Position, Reason, check, is_one_suit, resolve_cards
from pdk.text.catalog import Lang, excerpt, tr


def parse_beat(profile: Profile, text: str, available: int, lang: Lang) -> Move:
    """The play to beat, read as a lead would be (D2); one-line error if it is no play."""
    try:
        cards = resolve_cards(text, available, CardPlace.OUTSIDE_HAND)
    except CardParseError as exc:
        fail(f"--beat: {exc.message(lang)}")
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
    hand: Annotated[str, typer.Option("--hand", help="Your cards, e.g. '334455TJQKA2'.")],
    beat: Annotated[
        str | None, typer.Option("--beat", help="The play you must beat (omit when leading).")
    ] = None,
    next_holds: Annotated[
        int, typer.Option("--next-holds", min=1, max=108, help="Cards your 下家 holds (1 = 报单).")
    ] = 16,
    play: Annotated[str | None, typer.Option("--play", help="Judge this one play ('pass' to pass).")] = None,
    variant: VariantOpt = "classic16",
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """List every legal play for a hand, or judge one play (exit 1 if illegal)."""
    language = lang_or_fail(lang)
    for option, value in (("--hand", hand), ("--beat", beat), ("--play", play)):
        if value is not None and not value.strip(" ,\t"):
            fail(tr("err_no_cards", language, option=option))
    profile = profile_or_fail(variant, language)
    deck = mask_of(profile.deck_cards)
    try:
        hand_cards = resolve_cards(hand, deck, CardPlace.DECK)
    except CardParseError as exc:
        fail(f"--hand: {exc.message(language)}")
    hand_mask = mask_of(hand_cards)
    prev = parse_beat(profile, beat, deck & ~hand_mask, language) if beat is not None else None
    pos = Position(profile, hand_mask, prev, next_holds == 1)
    console = out_console()
    if play is not None:
        _judge(pos, play, as_json, language)
        return
    legal = sorted(pos.legal_moves(), key=sort_key)
    can_pass = pos.can_pass(legal)
    if as_json:
        plays = [{"cards": m.notation(), "kind": m.kind.label} for m in legal]
        print(json.dumps({"can_pass": can_pass, "plays": plays}, ensure_ascii=False))
        return
    table = Table(title=tr("moves_title", language, n=len(legal)), title_justify="left")
    table.add_column(tr("col_kind", language))
    table.add_column(tr("col_cards", language))
    for m in legal:
        table.add_row(m.kind.said(language), m.notation())
    console.print(table)
    if prev is None:
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
        name = result.kind.said(lang)
        out_console().print(tr("moves_legal", lang, cards=result.notation, kind=name), markup=False)
