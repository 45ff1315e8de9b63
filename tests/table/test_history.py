"""The SQLite history behind pdk stats: no deal lost or counted twice, the title ladder."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import subprocess
from pathlib import Path

import pytest

from pdk.table.history import TITLES, DealRow, History, title_for


def row(i: str, score: int, difficulty: str = "easy", variant: str = "classic16") -> DealRow:
    return DealRow(i, difficulty, variant, 1, score > 0, score, 0 if score > 0 else 5, f"/r/{i}.json")


def test_a_deal_is_counted_once(tmp_path: Path) -> None:
    h = History(tmp_path / "h.sqlite3")
    assert h.add(row("s-1", 10))
    assert not h.add(row("s-1", 10))  # replayed after a crash
    assert h.stats().games == 1


def test_totals_per_difficulty_and_variant(tmp_path: Path) -> None:
    h = History(tmp_path / "h.sqlite3")
    for i, (score, d, v) in enumerate(
        [(10, "easy", "classic16"), (-4, "easy", "classic16"), (30, "hard", "x")]
    ):
        h.add(row(f"s-{i}", score, d, v))
    st = h.stats()
    assert (st.games, st.wins, st.total) == (3, 2, 36)
    groups = {(g.difficulty, g.variant): g for g in st.groups}
    assert groups["easy", "classic16"].games == 2 and groups["easy", "classic16"].average == 3
    assert st.best is not None and st.best.score == 30
    assert st.worst is not None and st.worst.score == -4


def _writer(args: tuple[str, int]) -> int:
    path, k = args
    h = History(Path(path))
    added = 0
    for i in range(40):
        # Every writer also re-submits the shared deals: they must count once.
        added += h.add(row(f"w{k}-{i}", i - 20))
        added += h.add(row(f"shared-{i}", 1))
    return added


def test_concurrent_writers_lose_nothing_and_double_count_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        added = sum(pool.map(_writer, [(str(path), k) for k in range(4)]))
    st = History(path).stats()
    assert st.games == 4 * 40 + 40 == added


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (-500, "蜗牛"),
        (59, "蜗牛"),
        (60, "小马驹"),
        (139, "小马驹"),
        (140, "三等马"),
        (12000, "照夜玉狮子"),
        (999_999, "白兔"),
        (1_000_000, "追风"),
        (5_000_000, "追风"),
    ],
)
def test_title_ladder(score: int, title: str) -> None:
    assert title_for(score)[0] == title


def test_ladder_is_the_one_in_variants_md() -> None:
    assert len(TITLES) == 23 and [t[0] for t in TITLES[1:]] == sorted(t[0] for t in TITLES[1:])
    assert title_for(100)[2] == 140 and title_for(2_000_000)[2] is None


def test_pdk_stats_command(tmp_path: Path) -> None:
    empty = subprocess.run(
        ["pdk", "stats", "--save-dir", str(tmp_path), "--lang", "en"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "No finished deals yet" in empty.stdout
    h = History(tmp_path / "history.sqlite3")
    h.add(row("a-1", 70, "easy"))
    h.add(row("a-2", -8, "normal"))
    out = subprocess.run(
        ["pdk", "stats", "--save-dir", str(tmp_path), "--lang", "zh"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "小马驹" in out and "简单" in out and "普通" in out and "+62" in out
    data = json.loads(
        subprocess.run(
            ["pdk", "stats", "--save-dir", str(tmp_path), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert data["games"] == 2 and data["wins"] == 1 and data["total"] == 62
    assert data["title"]["zh"] == "小马驹" and data["best"]["score"] == 70 and data["worst"]["score"] == -8


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pdk_stats_fits_40_columns_and_keeps_record_paths_whole(tmp_path: Path, lang: str) -> None:
    from rich.cells import cell_len

    from tests.support.cli import pdk_env, run_pdk

    h = History(tmp_path / "history.sqlite3")
    long = "/a/rather/long/folder/of/records/" + "x" * 30 + ".json"
    h.add(DealRow("a-1", "hard", "jokers17-big-single", 1, True, 70, 0, long))
    h.add(row("a-2", -8, "normal"))
    out = run_pdk("stats", "--save-dir", str(tmp_path), "--lang", lang, env=pdk_env(columns=40)).stdout
    lines = out.splitlines()
    assert long in lines  # the path alone on its line, to be copied
    assert all(cell_len(ln) <= 40 for ln in lines if ln != long), out


def person_row(i: str, score: int, person: str, name: str) -> DealRow:
    return DealRow(i, "easy", "classic16", 1, score > 0, score, 0, None, 0.0, person, name)


def test_each_person_has_their_own_rows_and_totals(tmp_path: Path) -> None:
    """A server's rooms keep a row per person; the machine's own player (person '') and
    each person are counted apart, a person under the name of their latest deal."""
    h = History(tmp_path / "h.sqlite3")
    h.add(row("own-1", 10))
    h.add(person_row("d-1-s0", 70, "aaaa", "Ann"))
    h.add(person_row("d-1-s1", -70, "bbbb", "Bo"))
    h.add(DealRow("d-2-s0", "easy", "classic16", 1, True, 5, 0, None, 9e9, "aaaa", "Annie"))
    assert not h.add(person_row("d-1-s1", -70, "bbbb", "Bo"))  # re-archived: counted once
    assert (h.stats().games, h.stats().total) == (1, 10)
    ann = h.stats("aaaa")
    assert (ann.games, ann.wins, ann.total) == (2, 2, 75) and ann.best is not None and ann.best.score == 70
    people = {p.person: p for p in h.persons()}
    assert set(people) == {"aaaa", "bbbb"}
    assert people["aaaa"].name == "Annie" and people["bbbb"].total == -70
    assert [p.person for p in h.find_person("Bo")] == ["bbbb"]
    assert [p.person for p in h.find_person("aaaa")] == ["aaaa"] and h.find_person("nobody") == ()


def test_a_history_from_before_persons_gains_the_columns(tmp_path: Path) -> None:
    """An older database (no person column) is read as the machine's own player's rows."""
    path = tmp_path / "h.sqlite3"
    con = sqlite3.connect(path)
    con.executescript(
        "CREATE TABLE deals (id TEXT PRIMARY KEY, finished_at REAL NOT NULL, difficulty TEXT NOT NULL,"
        " variant TEXT NOT NULL, seed INTEGER, won INTEGER NOT NULL, score INTEGER NOT NULL,"
        " cards_left INTEGER NOT NULL, record_path TEXT);"
        "INSERT INTO deals VALUES ('old-1', 1.0, 'easy', 'classic16', 1, 1, 30, 0, NULL);"
    )
    con.commit()
    con.close()
    h = History(path)
    assert h.stats().total == 30 and h.persons() == ()
    h.add(person_row("new-s1", 5, "cccc", "Cy"))
    assert h.stats("cccc").total == 5 and h.stats().games == 1


def test_pdk_stats_lists_people_and_shows_one(tmp_path: Path) -> None:
    h = History(tmp_path / "history.sqlite3")
    h.add(person_row("d-1-s0", 70, "aaaa", "Ann"))
    h.add(person_row("d-1-s1", -70, "bbbb", "Bo"))
    h.add(person_row("d-2-s2", 3, "dddd", "Bo"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["pdk", "stats", "--save-dir", str(tmp_path), *args], capture_output=True, text=True
        )

    listing = run("--lang", "en")
    assert listing.returncode == 0 and "Ann" in listing.stdout and "aaaa" in listing.stdout
    assert "小马驹" in listing.stdout and "+70" in listing.stdout
    data = json.loads(run("--json").stdout)
    assert data["games"] == 0 and {p["id"] for p in data["persons"]} == {"aaaa", "bbbb", "dddd"}
    one = json.loads(run("--json", "--person", "Ann").stdout)
    assert one["person"] == {"id": "aaaa", "name": "Ann"} and one["games"] == 1 and one["total"] == 70
    assert json.loads(run("--json", "--person", "dddd").stdout)["total"] == 3
    zh = run("--person", "Ann", "--lang", "zh")
    assert zh.returncode == 0 and "Ann（aaaa）的战绩" in zh.stdout
    many = run("--person", "Bo")
    assert many.returncode != 0 and "bbbb" in many.stderr and "dddd" in many.stderr
    none = run("--person", "Zed")
    assert none.returncode != 0 and "Zed" in none.stderr and "Traceback" not in none.stderr


def test_a_puzzle_counts_once_and_a_tampered_result_is_refused(tmp_path: Path) -> None:
    from pdk.analysis.puzzles import Standing
    from pdk.table.history import HistoryError

    history = History(tmp_path / "h.sqlite3")
    first, delta = history.add_puzzle("p1", 7, 3, True)
    assert first == Standing().after(3, True) and delta == first.shown - 1200
    again, none = history.add_puzzle("p1", 7, 3, False)
    assert again == first and none is None
    assert history.add_puzzle("p2", 7, 3, False)[0] == Standing().after(3, False)  # per person
    assert history.stats("p1").games == 0  # the deals are not touched
    con = sqlite3.connect(tmp_path / "h.sqlite3")
    con.execute("UPDATE puzzles SET level = 9 WHERE person = 'p1'")
    con.commit()
    con.close()
    with pytest.raises(HistoryError):
        history.puzzle_standing("p1")
