"""``pdk stats``: your record from the history of ``pdk play`` — per difficulty and variant,
best and worst deals, and your title on the ladder (docs/variants.md, seed 004). On a
``pdk serve`` machine the same history holds each person of its rooms: listed after your
own record, and shown one at a time with ``--person``."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Annotated

import typer
from rich.console import Console, Group

from pdk.cli.common import JsonOpt, LangOpt, data_dir, fail, lang_or_fail, make_console
from pdk.cli.prose import Prose
from pdk.cli.table import difficulty_name, fitted_table
from pdk.table.history import DealRow, History, HistoryError, Person, Stats, title_for
from pdk.text.catalog import Lang, tr


def _deal_lines(key: str, row: DealRow, lang: Lang) -> list[str]:
    """The deal, then its record's path on a line of its own (whole, to be copied)."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.finished_at))
    said = tr(
        key,
        lang,
        score=row.score,
        variant=row.variant,
        difficulty=difficulty_name(row.difficulty, lang),
        when=when,
    )
    return [said, row.record_path] if row.record_path else [said]


def stats_json(st: Stats) -> dict[str, object]:
    zh, en, nxt = title_for(st.total)

    def deal(row: DealRow | None) -> dict[str, object] | None:
        if row is None:
            return None
        return {
            "id": row.id,
            "score": row.score,
            "variant": row.variant,
            "difficulty": row.difficulty,
            "won": row.won,
            "record": row.record_path,
        }

    return {
        "games": st.games,
        "wins": st.wins,
        "total": st.total,
        "average": st.average,
        "groups": [
            {
                "difficulty": g.difficulty,
                "variant": g.variant,
                "games": g.games,
                "wins": g.wins,
                "total": g.total,
                "average": g.average,
            }
            for g in st.groups
        ],
        "best": deal(st.best),
        "worst": deal(st.worst),
        "title": {"zh": zh, "en": en, "next_at": nxt},
    }


def stats(
    save_dir: Annotated[
        str | None,
        typer.Option("--save-dir", help="The directory pdk play uses (default: your data dir)."),
    ] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    person: Annotated[
        str | None,
        typer.Option("--person", help="One person of this server's rooms, by name or id."),
    ] = None,
) -> None:
    """Your record: games, wins, scores per difficulty and variant, best and worst deals, title."""
    language = lang_or_fail(lang)
    one: Person | None = None
    try:
        history = History(data_dir(save_dir, language) / "history.sqlite3")
        if person is not None:
            found = history.find_person(person)
            if not found:
                fail(tr("stats_err_no_person", language, who=person))
            if len(found) > 1:
                fail(
                    tr("stats_err_many_persons", language, who=person, ids=", ".join(p.person for p in found))
                )
            one = found[0]
        st = history.stats(one.person if one else "")
        persons = () if one else history.persons()
    except (sqlite3.Error, OSError, HistoryError) as exc:
        detail = exc.message(language) if isinstance(exc, HistoryError) else exc
        fail(tr("stats_err_history", language, detail=detail))
    if as_json:
        out = stats_json(st)
        if one is not None:
            out["person"] = {"id": one.person, "name": one.name}
        else:
            out["persons"] = [_person_json(p) for p in persons]
        print(json.dumps(out, ensure_ascii=False))
        return
    console = make_console()
    if not st.games and not persons:
        console.print(tr("stats_none", language))
        return
    if st.games:
        title = tr("stats_person_title", language, name=one.name, person=one.person) if one else None
        _print_stats(console, st, language, title)
    if persons:
        _print_persons(console, persons, language)


def _person_json(p: Person) -> dict[str, object]:
    zh, en, _ = title_for(p.total)
    return {
        "id": p.person,
        "name": p.name,
        "games": p.games,
        "wins": p.wins,
        "total": p.total,
        "title": {"zh": zh, "en": en},
    }


def _print_persons(console: Console, persons: tuple[Person, ...], language: Lang) -> None:
    """The people of the server's rooms, a line each (their title as ``pdk stats`` gives it)."""
    table = fitted_table(tr("stats_persons", language), console.width)
    for key in ("col_name", "col_person"):
        table.add_column(tr(key, language), overflow="fold")
    for key in ("col_games", "col_wins", "col_total"):
        table.add_column(tr(key, language), justify="right", no_wrap=True)
    table.add_column(tr("col_title", language))
    for p in persons:
        zh, en, _ = title_for(p.total)
        table.add_row(
            p.name,
            p.person,
            str(p.games),
            str(p.wins),
            f"{p.total:+d}",
            zh if language == "zh" else f"{zh} ({en})",
        )
    console.print(table)


def _print_stats(console: Console, st: Stats, language: Lang, title: str | None) -> None:
    """One person's record: per difficulty and variant, best and worst deals, title."""
    table = fitted_table(title or tr("stats_title", language), console.width)
    table.add_column(tr("col_difficulty", language), no_wrap=True)
    table.add_column(tr("col_variant", language), overflow="fold")
    for key in ("col_games", "col_wins", "col_total", "col_average"):
        table.add_column(tr(key, language), justify="right", no_wrap=True)
    for g in st.groups:
        table.add_row(
            difficulty_name(g.difficulty, language),
            g.variant,
            str(g.games),
            str(g.wins),
            f"{g.total:+d}",
            f"{g.average:+.1f}",
        )
    if len(st.groups) > 1:
        table.add_row(
            tr("stats_all", language),
            "",
            str(st.games),
            str(st.wins),
            f"{st.total:+d}",
            f"{st.average:+.1f}",
            style="bold",
        )
    console.print(table)
    if st.best is not None and st.worst is not None:
        for key, row in (("stats_best", st.best), ("stats_worst", st.worst)):
            said, *path = _deal_lines(key, row, language)
            console.print(Group(Prose(said)))
            for p in path:
                console.print(p, markup=False, highlight=False, soft_wrap=True)
    zh, en, nxt = title_for(st.total)
    console.print(tr("stats_title_line", language, zh=zh, en=en, total=st.total), markup=False, style="bold")
    if nxt is None:
        console.print(tr("stats_top_title", language))
    else:
        nzh, nen, _ = title_for(nxt)
        console.print(tr("stats_next_title", language, need=nxt - st.total, zh=nzh, en=nen), markup=False)
