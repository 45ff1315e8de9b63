"""``pdk review``: every play of a record with the best play, the points it lost, ``?`` and
``??`` marks, each seat's accuracy and the deal's turning points (``pdk.analysis.review``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pdk.analysis.review import Review, annotate, retries, retry, review, to_dict
from pdk.bots.valuation import DEFAULT_BUDGET, same_play
from pdk.cli.advise import BudgetOpt, check_budget, play_said
from pdk.cli.common import JsonOpt, LangOpt, err_console, fail, is_terminal, lang_or_fail, out_console
from pdk.cli.play_input import PASS_WORDS
from pdk.cli.record_file import load_or_fail
from pdk.cli.replay_view import seat_names
from pdk.engine.cards import CardParseError, CardPlace
from pdk.engine.combos import Move
from pdk.engine.position import IllegalPlay, check, resolve_cards
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
    again: Annotated[
        int | None, typer.Option("--retry", min=1, help="Try marked play N again (with --play).")
    ] = None,
    tried: Annotated[
        str | None, typer.Option("--play", help="The play to try at --retry N: cards, or 'pass'.")
    ] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Review a deal: each play against the best one, marks ? and ??, accuracy per seat."""
    language = lang_or_fail(lang)
    check_budget(budget, language)
    if (again is None) != (tried is None):
        fail(tr("rv_err_retry", language))
    if seat is not None and all_seats:
        fail(tr("rv_err_both", language))
    record = load_or_fail(file, game, language)
    players = record.profile.players
    if seat is not None and not 0 <= seat < players:
        fail(tr("rv_err_seat", language, last=players - 1))
    if not record.actions:
        fail(tr("rv_err_empty", language))
    if again is not None and tried is not None:
        _retry(record, again, tried, budget, seed, as_json, language)
        return
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
    marked = retries(rv)
    names = seat_names(record, language)
    if marked:
        out_console().print(tr("rv_retry_offer", language), style="bold")
    for p in marked:
        where = f"{file}" + (f" --game {game}" if game is not None else "")
        command = f"pdk review {where} --retry {p.number} --play CARDS"
        said = tr("rv_retry_one", language, n=p.number, who=names[p.seat],
                  played=play_said(p.played, language), command=command)  # fmt: skip
        out_console().print(said, markup=False, highlight=False)
    if out is not None:
        out_console().print(tr("rv_saved", language, path=out), markup=False, highlight=False)


def _retry(
    record: GameRecord, number: int, text: str, budget: int, seed: int, as_json: bool, lang: Lang
) -> None:
    """One play tried again in its position, against the same hands (``analysis.review.retry``)."""
    if number > len(record.actions):
        fail(tr("rv_err_retry_n", lang, last=len(record.actions)))
    state = next(s for i, s in enumerate(record.states(), 1) if i == number)
    position = state.view(record.actions[number - 1].seat).position()
    try:
        cards = (
            None if text.strip().lower() in PASS_WORDS else resolve_cards(text, position.hand, CardPlace.HAND)
        )
        played = check(position, cards)
    except (IllegalPlay, CardParseError) as exc:
        fail(tr("pz_illegal", lang, reason=exc.message(lang)))
    got = retry(record, number, None if played is None else played.move, budget=budget, seed=seed)
    if as_json:
        print(json.dumps({"n": got.number, "seat": got.seat, "played": _notation(got.played),
                          "tried": _notation(got.tried), "best": _notation(got.best),
                          "gain": [round(got.gain.mean, 4), round(got.gain.low, 4), round(got.gain.high, 4)],
                          "real": [round(x, 4) for x in got.real], "better": got.better}))  # fmt: skip
        return
    verdict = "rv_retry_better" if got.better else "rv_retry_worse" if got.worse else "rv_retry_even"
    console = out_console()
    console.print(tr(verdict, lang, tried=play_said(got.tried, lang), played=play_said(got.played, lang),
                     gain=got.gain.mean, low=got.gain.low, high=got.gain.high), markup=False)  # fmt: skip
    console.print(tr("rv_retry_real", lang, tried=got.real[1], played=got.real[0]), markup=False)
    if not same_play(got.best, got.tried):
        console.print(tr("rv_retry_best", lang, best=play_said(got.best, lang)), markup=False)


def _notation(move: Move | None) -> str | None:
    return None if move is None else move.notation()


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
