"""``pdk advise``: a position in, ranked plays with their numbers out (``pdk.bots.valuation``).

The position is a position text (``pdk.engine.position_text``, docs/position.md) or a
record and a move number (the position before that play, seen by the seat to move). For
study only: it reads the text it is given, never another program's screen.
"""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pdk.bots.valuation import ADVISE_BUDGET, Analysis, Interval, PlayValue, Proof, Spot, analyse
from pdk.cli.common import JsonOpt, LangOpt, fail, lang_or_fail, out_console, profile_or_fail
from pdk.cli.record_file import load_or_fail
from pdk.engine import position_text as P
from pdk.engine.combos import Move
from pdk.text.catalog import Lang, tr

BudgetOpt = Annotated[
    int,
    typer.Option(
        "--budget", "-b", help="Search work per decision, in rollout-cards (more: narrower intervals)."
    ),
]
MIN_BUDGET, MAX_BUDGET = 100, 1_000_000


def check_budget(budget: int, lang: Lang) -> None:
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        fail(tr("adv_err_budget", lang, value=budget))


def play_said(move: Move | None, lang: Lang) -> str:
    """A candidate as the tables write it: the play and its kind, or pass."""
    if move is None:
        return tr("adv_pass", lang)
    return f"{move.shown()}  {move.said.text(lang)}"


def interval_said(iv: Interval, percent: bool = False) -> str:
    if percent:
        return f"{iv.mean:.0%} [{iv.low:.0%}, {iv.high:.0%}]"
    return f"{iv.mean:+.2f} [{iv.low:+.2f}, {iv.high:+.2f}]"


def proof_said(proof: Proof | None, lang: Lang) -> str:
    if proof is None:
        return ""
    return tr("adv_proof_win" if proof is Proof.WIN else "adv_proof_no_win", lang)


def value_json(p: PlayValue) -> dict[str, Any]:
    return {
        "play": None if p.move is None else p.move.notation(),
        "kind": "pass" if p.move is None else p.move.kind.label,
        "points": [p.points.mean, p.points.low, p.points.high],
        "win": [p.win.mean, p.win.low, p.win.high],
        "proof": None if p.proof is None else p.proof.value,
    }


def analysis_json(a: Analysis, position: str) -> dict[str, Any]:
    return {
        "position": position,
        "seat": a.seat,
        "deals": a.deals,
        "exact": a.exact,
        "legal": a.legal,
        "plays": [value_json(p) for p in a.plays],
    }


def advise(
    source: Annotated[str, typer.Argument(help="A position text (docs/position.md), or a game record file.")],
    move: Annotated[
        int | None, typer.Option("--move", "-m", min=1, help="With a record: advise on play N (1 = first).")
    ] = None,
    game: Annotated[
        int | None, typer.Option("--game", "-g", min=1, help="Line K of a JSONL record file.")
    ] = None,
    top: Annotated[
        int | None,
        typer.Option("--top", "-n", min=1, max=200, help="Only the best N choices (default: all)."),
    ] = None,
    budget: BudgetOpt = ADVISE_BUDGET,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="The search's seed (same seed, same numbers).")
    ] = 0,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Rank every play of a position by expected points and chance to win, with 95% intervals."""
    language = lang_or_fail(lang)
    check_budget(budget, language)
    path = Path(source)
    if move is not None or (path.suffix in (".json", ".jsonl") and path.exists()):
        if move is None:
            fail(tr("adv_err_need", language))
        record = load_or_fail(path, game, language)
        if move > len(record.actions) + 1:
            fail(tr("adv_err_move", language, last=len(record.actions)))
        state = next(islice(record.states(), move - 1, None))
        if state.over:
            fail(tr("adv_err_forced", language, n=move))
        view = state.view(state.turn)
        text = P.of_view(view, tuple(state.bomb_bonuses)).format()
        spot = Spot.of_view(view)
    else:
        try:
            profile = profile_or_fail(P.variant_of(source), language)
            position = P.parse(source, profile)
        except P.PositionError as exc:
            fail(exc.message(language))
        text = position.format()
        spot = Spot.of_position(position)
    result = analyse(spot, budget=budget, seed=seed, top=top)
    if as_json:
        print(json.dumps(analysis_json(result, text), ensure_ascii=False))
        return
    console = out_console()
    console.print(tr("adv_position", language, text=text), markup=False, highlight=False)
    console.print(analysis_table(result, language))


def analysis_table(a: Analysis, lang: Lang) -> Table:
    who = tr("rp_seat", lang, seat=a.seat)
    exact = tr("adv_exact", lang) if a.exact else ""
    table = Table(
        title=tr("adv_title", lang, who=who, n=a.legal, deals=a.deals, exact=exact), title_justify="left"
    )
    table.add_column("#", justify="right")
    table.add_column(tr("adv_col_play", lang))
    table.add_column(tr("adv_col_points", lang), justify="right")
    table.add_column(tr("adv_col_win", lang), justify="right")
    table.add_column(tr("adv_col_proof", lang))
    for i, p in enumerate(a.plays, 1):
        style = "bold green" if i == 1 else ""
        table.add_row(
            str(i),
            play_said(p.move, lang),
            interval_said(p.points),
            interval_said(p.win, percent=True),
            proof_said(p.proof, lang),
            style=style,
        )
    return table
