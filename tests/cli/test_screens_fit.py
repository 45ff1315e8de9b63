"""Point 5 of the terminal issue: pdk replay's screens and pdk selfplay's summary fit 40 and
80 columns in English and 中文, with built-in bots named in the reader's language."""

from __future__ import annotations

import os
import re

import pexpect
import pytest
from rich.cells import cell_len

from tests.support import ROOT
from tests.support.cli import pdk_env, run_pdk

SAMPLES = ROOT / "replays"
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SIZES = [(80, "en"), (80, "zh"), (40, "en"), (40, "zh")]


@pytest.mark.e2e
@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_replay_last_screen_fits(cols: int, lang: str) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    child = pexpect.spawn(
        "pdk",
        ["replay", str(SAMPLES / "bomb_war.json"), "--lang", lang],
        env=env,
        dimensions=(24, cols),
        encoding="utf-8",
        timeout=30,
    )
    keys = r"n/→ next" if lang == "en" else r"n/→ 下一手"
    child.expect(keys)
    child.send("l")  # the last step: the settlement
    child.expect("Settlement" if lang == "en" else "结算")
    child.expect(keys)
    child.expect([r"q (quit|退出)", pexpect.TIMEOUT], timeout=2)
    screen = ESC.sub("", child.before.split("\x1b[2J")[-1] if "\x1b[2J" in child.before else child.before)
    lines = [ln for ln in screen.replace("\r", "").split("\n")]
    assert all(cell_len(ln) <= cols for ln in lines), [ln for ln in lines if cell_len(ln) > cols]
    if cols == 80:
        assert len(lines) <= 24
    child.send("q")
    child.expect(pexpect.EOF)


@pytest.mark.slow
@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_selfplay_summary_cells_are_whole(cols: int, lang: str) -> None:
    proc = run_pdk(
        "selfplay",
        "-n",
        "3",
        "-p",
        "normal,easy,hard",
        "--seed",
        "1",
        "-w",
        "1",
        "--lang",
        lang,
        env=pdk_env(columns=cols),
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(cell_len(ln) <= cols for ln in lines), [ln for ln in lines if cell_len(ln) > cols]
    assert not re.search(r"[A-Za-z%\u4e00-\u9fff]…", proc.stdout), proc.stdout  # nothing cut
    if lang == "zh":
        assert "普通" in proc.stdout and "困难" in proc.stdout and "normal" not in proc.stdout


@pytest.mark.parametrize(("cols", "lang"), SIZES)
def test_variants_list_fits_with_every_description_whole(cols: int, lang: str) -> None:
    from pdk.variants.registry import available_profiles

    proc = run_pdk("variants", "--lang", lang, env=pdk_env(columns=cols))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(cell_len(ln) <= cols for ln in lines), [ln for ln in lines if cell_len(ln) > cols]
    assert "…" not in proc.stdout  # no description cut short
    flat = re.sub(r"[\s│┃]+", "", proc.stdout)
    for p in available_profiles():
        assert re.sub(r"\s+", "", p.description.said.text(lang)) in flat, p.name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_variants_show_wraps_each_rule_under_its_own_text_at_40_columns(lang: str) -> None:
    proc = run_pdk("variants", "show", "hearts3", "--lang", lang, env=pdk_env(columns=40))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(cell_len(ln) <= 40 for ln in lines), [ln for ln in lines if cell_len(ln) > 40]
    # A rule's continuation lines hang under its text, never back at the margin.
    rules = [ln for ln in lines if ln.strip() and not ln.startswith(" ")][1:]
    from pdk.variants.registry import load_profile
    from pdk.view.rules_in_words import sections

    titles = {t for t, _ in sections(load_profile("hearts3"), lang)}
    assert set(rules) <= titles, set(rules) - titles
