"""``Said``, the one value words travel as (``pdk.text.catalog``): errors, the table model,
a combination's kind and a profile's own title all give their words as one, said in a
language only at the face, and its JSON reads back into the same value."""

from __future__ import annotations

import pickle

import pytest
from pydantic import TypeAdapter

from pdk.engine.cards import CardParseError, parse_specs
from pdk.engine.combos import ComboKind
from pdk.engine.record import RecordError, RecordReason
from pdk.text.catalog import Said, tr
from pdk.variants.registry import load_profile


def test_an_errors_words_are_a_said_with_a_nested_error_said_in_the_same_language() -> None:
    with pytest.raises(CardParseError) as info:
        parse_specs("33X")
    inner = info.value
    outer = RecordError(RecordReason.DEAL_CARDS, path="r.json", detail=inner)
    said = outer.said
    assert said.key == "rpe_in_file" and dict(said.params)["path"] == "r.json"
    detail = dict(said.params)["detail"]
    assert detail == Said.of("rpe_deal_bad", detail=inner.said)
    for lang in ("en", "zh"):
        assert outer.message(lang) == said.text(lang)
        assert inner.message(lang) in outer.message(lang)
    assert outer.message("zh") != outer.message("en")
    assert str(outer) == outer.message("en")
    assert pickle.loads(pickle.dumps(outer)).said == said


def test_a_kind_and_a_profile_title_are_said_the_same_way() -> None:
    assert ComboKind.PAIR_CHAIN.said == Said("kind_pair_chain")
    assert ComboKind.PAIR_CHAIN.said.text("zh") == tr("kind_pair_chain", "zh")
    title = load_profile("classic16").title
    assert title.said == Said.own(title.en, title.zh)
    assert title.said.text("en") == title.en and title.said.text("zh") == title.zh != title.en


def test_its_json_reads_back_into_the_same_value_through_pydantic() -> None:
    said = Said.of("tm_beat_free", who=Said("tm_next"), cards="555 34", kind=Said("kind_trio_with_two"))
    codec = TypeAdapter(Said)
    data = codec.dump_python(said, mode="json")
    assert (
        data
        == said.to_json()
        == {
            "key": "tm_beat_free",
            "params": {
                "who": {"key": "tm_next", "params": {}},
                "cards": "555 34",
                "kind": {"key": "kind_trio_with_two", "params": {}},
            },
        }
    )
    assert codec.validate_python(data) == said
    page = codec.dump_python(said, mode="json", context={"lang": "zh"})
    assert page == said.to_json() | {"text": said.text("zh")}
    assert codec.validate_python(page) == said  # the page's copy reads back too
    for bad in ({"key": 1, "params": {}}, {"key": "x"}, {"key": "x", "params": {"a": [1]}}, "tm_next"):
        with pytest.raises(ValueError):
            codec.validate_python(bad)
