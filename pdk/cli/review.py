"""``pdk review``: every play of a record with the best play, the points it lost, ``?`` and
``??`` marks, each seat's accuracy and the deal's turning points (``pdk.analysis.review``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pdk.analysis.review import Review, annotate, review, to_dict
from pdk.bots.valuation import DEFAULT_BUDGET, same_play
from pdk.cli.advise import BudgetOpt, check_budget, play_said
from pdk.cli.common import JsonOpt, LangOpt, err_console, fail, is_terminal, lang_or_fail, out_console
from pdk.cli.replay import load_or_fail
from pdk.cli.replay_view import seat_names
from pdk.engine.record import GameRecord
from pdk.records.disk import dump
from pdk.text.catalog import Lang, tr


def review_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or a JSONL file of records.")],
    game: Annotated[int | None, typer.Option("--game", "-g", min=1, help="Line K of a JSONL file.")] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Review only this seat's plays.")] = None,
    all_seats: Annotated[
        bool, typer.Option("--all", help="Review every seat's plays (the default).")
    ] = False,
    budget: BudgetOpt = DEFAULT_BUDGET,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="The search's seed (same seed, same review).")
    ] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the record annotated with the review here.")
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Review a deal: each play against the best one, marks ? and ??, accuracy per seat."""
    language = lang_or_fail(lang)
    check_budget(budget, language)
    if seat is not None and all_seats:
        fail(tr("rv_err_both", language))
    record = load_or_fail(file, game, language)
    players = record.profile.players
    if seat is not None and not 0 <= seat < players:
        fail(tr("rv_err_seat", language, last=players - 1))
    if not record.actions:
        fail(tr("rv_err_empty", language))
    seats = None if seat is None else {seat}
    if is_terminal() and not as_json:
        with Progress(
            TextColumn(tr("rv_progress", language)),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err_console(),
            transient=True,
        ) as bar:
            task = bar.add_task("review", total=len(record.actions))
            rv = review(record, seats=seats, budget=budget, seed=seed,
                        progress=lambda done, _total: bar.update(task, completed=done))  # fmt: skip
    else:
        rv = review(record, seats=seats, budget=budget, seed=seed)
    if out is not None:
        dump(annotate(record, rv), out)
    if as_json:
        print(json.dumps(to_dict(rv), ensure_ascii=False))
        return
    source = f"{file.name}#{game}" if game is not None else file.name
    render(record, rv, source, language)
    if out is not None:
        out_console().print(tr("rv_saved", language, path=out), markup=False, highlight=False)


def render(record: GameRecord, rv: Review, source: str, lang: Lang) -> None:
    console = out_console()
    names = seat_names(record, lang)
    title = tr("rv_title", lang, source=source, variant=record.profile.name,
               seed=record.seed if record.seed is not None else "—", budget=rv.budget)  # fmt: skip
    table = Table(title=title, title_justify="left")
    table.add_column(tr("rv_col_n", lang), justify="right")
    for key in ("rv_col_seat", "rv_col_played", "rv_col_best"):
        table.add_column(tr(key, lang))
    table.add_column(tr("rv_col_loss", lang), justify="right")
    table.add_column(tr("rv_col_win", lang), justify="right")
    for p in rv.plays:
        played = play_said(p.played, lang)
        who = tr(f"rv_by_{p.by}", lang, who=names[p.seat]) if p.by else names[p.seat]
        if p.forced:
            table.add_row(str(p.number), who, played, "", tr("rv_forced", lang), "", style="dim")
            continue
        best = tr("rv_same", lang) if same_play(p.best, p.played) else play_said(p.best, lang)
        loss = f"{p.mark} {p.loss.mean:.2f} [{p.loss.low:.2f}, {p.loss.high:.2f}]".strip()
        style = "dim" if p.by else "bold red" if p.mark == "??" else "yellow" if p.mark == "?" else ""
        table.add_row(str(p.number), who, played, best, loss, f"{p.win.mean:.0%}", style=style)
    console.print(table)
    for s in rv.seats:
        if s.accuracy is None:
            if any(p.seat == s.seat for p in rv.plays):
                console.print(tr("rv_accuracy_none", lang, who=names[s.seat]), markup=False)
            continue
        line = tr("rv_accuracy", lang, who=names[s.seat], acc=s.accuracy, n=s.decisions, q=s.mistakes,
                  qq=s.blunders)  # fmt: skip
        console.print(line, markup=False, highlight=False)
    console.print(tr("rv_turning", lang), style="bold")
    if not rv.turning:
        console.print(tr("rv_turning_none", lang), markup=False)
    for n in rv.turning:
        p = rv.plays[[q.number for q in rv.plays].index(n)]
        said = tr("rv_turning_one", lang, n=n, who=names[p.seat], played=play_said(p.played, lang),
                  best=play_said(p.best, lang), loss=p.loss.mean)  # fmt: skip
        console.print(said, markup=False, highlight=False)
