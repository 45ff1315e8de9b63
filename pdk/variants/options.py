"""House rules: the options a table may switch on a shipped profile, and a profile built from them.

Every family plays its own rules, and a rule set is data: a house rule is one choice among
a few, each naming the profile fields it sets. Applying a mix sets those fields on the base
profile's own dict and validates the result with the same pydantic model as a YAML file, so
an impossible mix is refused with the field and the reason (``ProfileError``), never played.
The page's rules panel, the server's rules API and ``pdk variants new`` all read this one list.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

import yaml

from pdk.engine.cards import format_unicode
from pdk.engine.profile import Profile, ProfileError, card_from_name, validate_profile
from pdk.text.catalog import LocalizedError, Said

Fields = tuple[tuple[str, object], ...]
# 扎鸟's card: ♥10 is what the tables that play it use.
BIRD_CARD = "Th"


class OptionReason(Enum):
    """Why a chosen house rule cannot be read; values are message keys."""

    UNKNOWN_OPTION = "hr_unknown_option"
    NOT_OFFERED = "hr_not_offered"
    BAD_FIELD = "hr_bad_field"


class OptionError(LocalizedError, ValueError):
    """A house rule or field that does not exist, or a choice this base does not offer."""


@dataclass(frozen=True)
class Choice:
    """One value of a house rule: its words and the profile fields it sets."""

    value: str
    label: Said
    sets: Fields

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label.to_json(), "sets": dict(self.sets)}


@dataclass(frozen=True)
class HouseRule:
    """A rule a table may switch: its choices on this base, and the one the base plays
    (``current``; ``None`` when the base plays something none of the choices is)."""

    key: str
    label: Said
    fields: tuple[str, ...]
    choices: tuple[Choice, ...]
    current: str | None

    def choice(self, value: str) -> Choice:
        for c in self.choices:
            if c.value == value:
                return c
        raise OptionError(OptionReason.NOT_OFFERED, option=self.key, value=value)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label.to_json(),
            "fields": list(self.fields),
            "choices": [c.to_json() for c in self.choices],
            "current": self.current,
        }


def _get(data: Mapping[str, Any], path: str) -> object:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _set(data: dict[str, Any], path: str, value: object) -> None:
    """Set one dotted field on a profile's dict; a path through a value is refused."""
    *parents, last = path.split(".")
    node = data
    for part in parents:
        child = node.setdefault(part, {})
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            raise OptionError(OptionReason.BAD_FIELD, field=path)
        node = child
    node[last] = value


def _switch(key: str, field: str) -> tuple[str, tuple[str, ...], tuple[Choice, ...]]:
    """A house rule that is one boolean field, on or off."""
    on, off = Choice("on", Said("hr_on"), ((field, True),)), Choice("off", Said("hr_off"), ((field, False),))
    return key, (field,), (on, off)


def _candidates(base: Profile) -> Iterator[tuple[str, tuple[str, ...], tuple[Choice, ...]]]:
    """Every house rule with every choice it might take; those the base's deck or scheme
    cannot play are dropped by ``house_rules``."""
    yield _switch("must_beat", "rules.must_beat")
    trio = (
        "combinations.trio.kickers",
        "combinations.trio.min_kickers",
        "combinations.plane.kickers_per_trio",
        "combinations.plane.min_kickers_per_trio",
    )
    yield (
        "trio",
        trio,
        tuple(
            Choice(value, Said(f"hr_trio_{value}"), tuple(zip(trio, sets, strict=True)))
            for value, sets in (
                ("3+2", (2, None, 2, None)),
                ("3+1", (1, None, 1, None)),
                ("3+1-2", (2, 1, 2, 1)),
            )
        ),
    )
    yield _switch("short_last_hand", "rules.short_last_hand")
    yield _switch("unbreakable", "bombs.unbreakable")
    yield _switch("three_aces", "bombs.three_aces")
    bonus = "settlement.bomb_bonus"
    yield (
        "bomb_bonus",
        (bonus,),
        tuple(Choice(str(n), Said.of("hr_points", n=n), ((bonus, n),)) for n in (0, 5, 10, 20)),
    )
    shut = "settlement.shut_out_multiplier"
    yield (
        "shut_out",
        (shut,),
        tuple(Choice(str(n), Said.of("hr_times", x=n), ((shut, n),)) for n in (1, 2, 3, 4)),
    )
    yield _switch("bao_dan", "rules.bao_dan_highest_single")
    yield _switch("bao_pei", "rules.bao_pei")
    lead = format_unicode([card_from_name(base.lead.card)])
    winner = "lead.winner_leads"
    yield (
        "later_leads",
        (winner,),
        (
            Choice("card", Said.of("hr_leads_card", card=lead), ((winner, False),)),
            Choice("winner", Said("hr_leads_winner"), ((winner, True),)),
        ),
    )
    yield ("players", ("players", "hand_size", "dummy_hands", "lead.fallback"), tuple(_players(base)))
    bird = "settlement.zha_niao"
    yield (
        "zha_niao",
        (bird,),
        (
            Choice("off", Said("hr_off"), ((bird, None),)),
            *(
                Choice(str(x), Said.of("hr_times", x=x), ((bird, {"card": BIRD_CARD, "factor": x}),))
                for x in (2, 3)
            ),
        ),
    )


def _players(base: Profile) -> Iterator[Choice]:
    """2, 3 or 4 players on the base's deck: its hand size kept with the missing hands
    dealt face down (as ``two-player`` does), or the deck shared evenly among more."""
    dealt = base.seats_dealt * base.hand_size
    for n in (2, 3, 4):
        if n <= base.seats_dealt and base.seats_dealt - n <= 2:
            size, dummies = base.hand_size, base.seats_dealt - n
        elif dealt % n == 0:
            size, dummies = dealt // n, 0
        else:
            continue
        fallback = bool(dummies) or base.lead.fallback
        sets: Fields = (
            ("players", n),
            ("hand_size", size),
            ("dummy_hands", dummies),
            ("lead.fallback", fallback),
        )
        yield Choice(str(n), Said.of("hr_players_n", n=n, size=size), sets)


def _plays(data: dict[str, Any], *sets: Fields) -> bool:
    trial = copy.deepcopy(data)
    for group in sets:
        for field, value in group:
            _set(trial, field, value)
    try:
        validate_profile(trial)
    except ProfileError:
        return False
    return True


@lru_cache(maxsize=32)
def house_rules(base: Profile) -> tuple[HouseRule, ...]:
    """The house rules offered on ``base``: each with the choices that make a valid profile,
    alone or with one other rule switched too (包赔 needs 报单's highest single off), so a
    2-player choice shows only where the deck allows it and 扎鸟 only where the deck holds
    ♥10 and losers pay by cards; a rule with fewer than two such choices is left out."""
    data = base.model_dump(mode="json")
    candidates = list(_candidates(base))
    others = [c.sets for _, _, choices in candidates for c in choices]
    out = []
    for key, fields, choices in candidates:
        offered = tuple(
            c for c in choices if _plays(data, c.sets) or any(_plays(data, o, c.sets) for o in others)
        )
        if len(offered) < 2:
            continue
        current = next((c.value for c in offered if all(_get(data, f) == v for f, v in c.sets)), None)
        out.append(HouseRule(key, Said(f"hr_{key}"), fields, offered, current))
    return tuple(out)


def chosen_fields(base: Profile, chosen: Mapping[str, str]) -> dict[str, object]:
    """The profile fields a mix of house-rule choices sets (option key -> choice value)."""
    rules = {r.key: r for r in house_rules(base)}
    out: dict[str, object] = {}
    for key, value in chosen.items():
        rule = rules.get(key)
        if rule is None:
            raise OptionError(OptionReason.UNKNOWN_OPTION, option=key, known=", ".join(rules))
        out.update(rule.choice(str(value)).sets)
    return out


def changes(base: Profile, profile: Profile) -> tuple[Said, ...]:
    """The house rules ``profile`` plays differently from ``base``, each as "rule: choice"."""
    data = profile.model_dump(mode="json")
    out = []
    for rule in house_rules(base):
        now = next((c for c in rule.choices if all(_get(data, f) == v for f, v in c.sets)), None)
        if now is not None and now.value != rule.current:
            out.append(Said.of("hr_change", rule=rule.label, choice=now.label))
    return tuple(out)


def build(base: Profile, fields: Mapping[str, object], name: str | None = None) -> Profile:
    """``base`` with ``fields`` (dotted paths) set, validated as a YAML profile is; named
    ``name`` (default: the base's name + ``-house``), its title marked as house rules and
    its description saying what was switched. ``ProfileError`` names every bad field."""
    data = base.model_dump(mode="json")
    for field, value in fields.items():
        if field in {"name", "aliases", "title", "description"}:
            raise OptionError(OptionReason.BAD_FIELD, field=field)
        _set(data, field, value)
    profile = validate_profile(data, "house rules")
    said = changes(base, profile)
    en = "; ".join(s.text("en") for s in said)
    zh = "；".join(s.text("zh") for s in said)
    data["name"] = name or f"{base.name}-house"
    data["aliases"] = []
    data["title"] = {"en": f"{base.title.en} (house rules)", "zh": f"{base.title.zh}（家规）"}
    data["description"] = {
        "en": f"{base.name} with {en}" if en else base.description.en,
        "zh": f"{base.title.zh}，{zh}" if zh else base.description.zh,
    }
    return validate_profile(data, "house rules")


def _diff(base: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """What ``new`` sets differently from ``base``, mapping by mapping (a key ``new`` lacks
    is written as null: an optional rule switched off)."""
    out: dict[str, Any] = {}
    for key in [*new, *(k for k in base if k not in new)]:
        old, value = base.get(key), new.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            inner = _diff(old, value)
            if inner:
                out[key] = inner
        elif old != value:
            out[key] = value
    return out


def house_yaml(base_name: str, base: Profile, profile: Profile) -> str:
    """``profile`` as a profile file on ``base_name``: ``base:`` and only what differs, so a
    reader sees the house rules at a glance and ``pdk variants check`` reads it back."""
    diff = _diff(base.model_dump(mode="json"), profile.model_dump(mode="json"))
    head: dict[str, Any] = {k: diff.pop(k) for k in ("name", "aliases", "title", "description") if k in diff}
    top: dict[str, Any] = {"base": base_name, **head}
    text = yaml.safe_dump(top, allow_unicode=True, sort_keys=False)
    if diff:
        text += "\n# The house rules: what differs from " + base_name + "\n"
        text += yaml.safe_dump(diff, allow_unicode=True, sort_keys=False)
    return text


def profile_yaml(profile: Profile) -> str:
    """``profile`` whole, as a file ``pdk variants check`` reads back (a room's or a table's
    rules, whatever base they came from)."""
    return yaml.safe_dump(profile.model_dump(mode="json"), allow_unicode=True, sort_keys=False)
