"""Fuzzing every file pdk reads (issue 13), through the library entry points the CLI uses:
profiles mutated from every shipped profile (``load_profile``), records mutated and
truncated from real ones (``pdk.records.disk.load``), saves mutated and truncated from a real
one (``load_save``). Each must load or raise the library's own error type, never anything
else, and the file on disk is never changed by reading it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdk.engine.profile import ProfileError
from pdk.engine.record import RecordError
from pdk.files.limits import RECORD_BYTES
from pdk.records.disk import jsonl_games, load, read_text
from pdk.store.files import FileStore
from pdk.table.session import SaveError, claim_slot, load_save, new_session
from pdk.variants.registry import load_profile, variants_dir
from tests.support import ROOT

SHIPPED = sorted(variants_dir().glob("*.yaml"))
RECORDS = sorted((ROOT / "replays").glob("*.json"))
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Values a hostile or unlucky file may hold anywhere.
HOSTILE_TOKENS = [
    "[", "]", "{", "}", "9" * 5000, "-" + "9" * 30, "Infinity", "NaN", "-Infinity", "1e999",
    ".inf", ".nan", "\x00", '"', "'", "&a", "*a", "!!python/object:os.system", "\ufeff", "\n- ", ": ",
    "0x" + "f" * 40, "~", "null", "-1", "0",
]  # fmt: skip
HOSTILE_VALUES: list[object] = [
    None, True, False, 0, -1, 2**63, 2**64 - 1, -(2**63), 1.5, -0.0, "", "x" * 10_000, "../../x",
    "/tmp/pdk-hostile", [], {}, [[[]]], {"a": {"b": {}}}, "3s3s3s", "♠", "10" * 300,
]  # fmt: skip


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """One to three edits: truncation, insertion of a hostile token, deletion, duplication."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["truncate", "insert", "delete", "duplicate"]))
        i = draw(st.integers(0, len(text)))
        if kind == "truncate":
            text = text[:i]
        elif kind == "insert":
            text = text[:i] + draw(st.sampled_from(HOSTILE_TOKENS)) + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 40)) :]
        else:
            j = min(len(text), i + draw(st.integers(1, 200)))
            text = text[:j] + text[i:j] * draw(st.integers(1, 50)) + text[j:]
    return text


@st.composite
def mutated_tree(draw: st.DrawFn, data: object) -> object:
    """The document with one to three nodes replaced by hostile values."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(data)
        if not slots:
            break
        parent, key = draw(st.sampled_from(slots))
        # A copy: the shared hostile containers must never be edited by a later draw.
        parent[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE_VALUES)))  # type: ignore[index]
    return data


def _slots(node: object) -> list[tuple[object, object]]:
    """Every (container, key) of a JSON tree."""
    out: list[tuple[object, object]] = []
    stack = [node]
    while stack:
        top = stack.pop()
        pairs = top.items() if isinstance(top, dict) else enumerate(top) if isinstance(top, list) else ()
        for k, v in list(pairs):
            out.append((top, k))
            stack.append(v)
    return out


def _write(path: Path, text: str) -> bytes:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path.read_bytes()


# -- profiles --------------------------------------------------------------------------------


@FUZZ
@given(data=st.data(), source=st.sampled_from(SHIPPED))
def test_fuzz_profiles_mutated_from_every_shipped_one(
    tmp_path: Path, data: st.DataObject, source: Path
) -> None:
    path = tmp_path / "mine.yaml"
    before = _write(path, data.draw(mutated_text(source.read_text(encoding="utf-8"))))
    try:
        load_profile(path)
    except ProfileError as exc:
        assert "\n" not in exc.message("en").strip()
        exc.message("zh")
    assert path.read_bytes() == before


@pytest.mark.parametrize("source", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_profile_with_hostile_numbers(tmp_path: Path, source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    for bad in ("9" * 5000, ".inf", ".nan", "-.inf", "1.0e+999", "[" * 3000):
        path = tmp_path / "p.yaml"
        _write(path, text.rstrip("\n") + f"\nhand_size: {bad}\n")  # the last key wins
        with pytest.raises(ProfileError) as info:
            load_profile(path)
        assert str(path) in info.value.message("en")


# -- records ---------------------------------------------------------------------------------


@FUZZ
@given(data=st.data(), source=st.sampled_from(RECORDS))
def test_fuzz_records_mutated_text(tmp_path: Path, data: st.DataObject, source: Path) -> None:
    path = tmp_path / "r.json"
    before = _write(path, data.draw(mutated_text(source.read_text(encoding="utf-8"))))
    try:
        load(path)
    except RecordError as exc:
        assert str(path) in exc.message("en")
        exc.message("zh")
    assert path.read_bytes() == before


@FUZZ
@given(data=st.data(), source=st.sampled_from(RECORDS))
def test_fuzz_records_mutated_tree(tmp_path: Path, data: st.DataObject, source: Path) -> None:
    tree = data.draw(mutated_tree(json.loads(source.read_text(encoding="utf-8"))))
    path = tmp_path / "r.json"
    before = _write(path, json.dumps(tree))
    try:
        load(path)
    except RecordError as exc:
        exc.message("zh")
    assert path.read_bytes() == before


@pytest.mark.parametrize("source", RECORDS, ids=lambda p: p.stem)
def test_records_truncated_at_every_tenth_offset(tmp_path: Path, source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    path = tmp_path / "t.json"
    for cut in range(0, len(text) - 1, max(1, len(text) // 97)):
        _write(path, text[:cut])
        with pytest.raises(RecordError):
            load(path)


def test_jsonl_game_lines_are_bounded(tmp_path: Path) -> None:
    good = RECORDS[0].read_text(encoding="utf-8").strip()
    path = tmp_path / "g.jsonl"
    _write(
        path, good + "\n" + "[" * 100_000 + "\n" + good.replace('"seed":', '"seed":' + "9" * 5000, 1) + "\n"
    )
    assert load(path, 1).replay().over
    for k in (2, 3):
        with pytest.raises(RecordError) as info:
            load(path, k)
        assert str(path) in info.value.message("en")


def test_a_jsonl_file_past_the_whole_file_bound_is_read_game_by_game(tmp_path: Path) -> None:
    # selfplay --out of a million deals is gigabytes: a game is read line by line, never the
    # whole file (here: 40 games, then a line past the record bound that is never reached).
    good = RECORDS[0].read_text(encoding="utf-8").strip()
    path = tmp_path / "big.jsonl"
    _write(path, (good + "\n") * 40 + "x" * (RECORD_BYTES + 10) + "\n")
    with pytest.raises(RecordError):
        read_text(path, limit=path.stat().st_size - 1)  # the whole-file reader refuses it
    assert load(path, 40).replay().over
    seen = 0
    with pytest.raises(RecordError):
        for _ in jsonl_games(path):
            seen += 1
    assert seen == 40  # every game before the bad line was read
    with pytest.raises(RecordError) as info:
        load(path, 41)  # the over-long line: one error naming the file
    assert str(path) in info.value.message("en")


# -- saves -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def save_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real save, a few plays into a deal."""
    session = new_session(load_profile("classic16"), "classic16", "normal", seed=5)
    for _ in range(5):
        session.state.step(session.bot_move())
    slot = claim_slot(tmp_path_factory.mktemp("save"))
    text = json.dumps(session.to_dict(), ensure_ascii=False)
    FileStore(slot.path.parent).save(slot.path.stem, text, 1, None)  # as pdk play writes it
    slot.release()
    return slot.path.read_text(encoding="utf-8")


@FUZZ
@given(data=st.data())
def test_fuzz_saves_mutated_and_truncated(tmp_path: Path, save_text: str, data: st.DataObject) -> None:
    if data.draw(st.booleans()):
        text = data.draw(mutated_text(save_text))
    else:
        text = json.dumps(data.draw(mutated_tree(json.loads(save_text))))
    path = tmp_path / "save.json"
    before = _write(path, text)
    try:
        load_save(path)
    except SaveError as exc:
        assert "\n" not in exc.message("en")
        exc.message("zh")
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "field, value",
    [
        ("seed_base", "9" * 5000),
        ("seed_base", "Infinity"),
        ("seed_base", "-1"),
        ("deal_no", "0"),
        ("deal_no", "1e400"),
        ("deals_done", "NaN"),
        ("totals", "[Infinity, 0, 0]"),
        ("totals", "[1.5, 0, 0]"),
    ],
)
def test_saves_with_hostile_numbers_are_save_errors(
    tmp_path: Path, save_text: str, field: str, value: str
) -> None:
    data = json.loads(save_text)
    data["session"][field] = "@@"
    path = tmp_path / "save.json"
    _write(path, json.dumps(data).replace('"@@"', value))
    with pytest.raises(SaveError):
        load_save(path)


@pytest.mark.parametrize(
    "sid", ["../escaped", "/tmp/pdk-hostile/x", "a/b", "..", ".", "", "x" * 65, "a\x00b", "a\\b", "名字", 7]
)
def test_a_session_id_that_could_name_a_path_is_refused(tmp_path: Path, save_text: str, sid: object) -> None:
    data = json.loads(save_text)
    data["session"]["id"] = sid
    path = tmp_path / "save.json"
    _write(path, json.dumps(data))
    with pytest.raises(SaveError):
        load_save(path)


def test_the_real_save_loads(tmp_path: Path, save_text: str) -> None:
    path = tmp_path / "save.json"
    _write(path, save_text)
    assert load_save(path).deal_no == 1


# -- the history database --------------------------------------------------------------------

_SQL_VALUES = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=300),
    st.binary(max_size=20),
)


@FUZZ
@given(rows=st.lists(st.tuples(*[_SQL_VALUES] * 8), min_size=1, max_size=4))
def test_fuzz_history_rows_of_any_type(tmp_path: Path, rows: list[tuple[object, ...]]) -> None:
    """A tampered history: stats are read or refused with HistoryError, never a TypeError
    or a format error later on."""
    import sqlite3

    from pdk.cli.stats import stats_json
    from pdk.table.history import SCHEMA, History, HistoryError

    path = tmp_path / "h.sqlite3"
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as con:
        con.executescript(SCHEMA.replace("NOT NULL", ""))
        for i, row in enumerate(rows):
            con.execute("INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (f"id{i}", *row))
    try:
        st_ = History(path).stats()
    except (HistoryError, sqlite3.Error) as exc:
        if isinstance(exc, HistoryError):
            exc.message("zh")
        return
    json.dumps(stats_json(st_), allow_nan=False)
    for g in st_.groups:
        assert isinstance(g.total, int) and isinstance(g.games, int)
