"""Rule profiles: every rule the engine follows is a knob here, validated by pydantic.

The engine reads these fields and never a profile's name, so a regional variant is a YAML
file. Models are frozen and forbid unknown keys so that a typo in a profile is an error
that names the field rather than a silently ignored default.
"""

from __future__ import annotations

from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pdk.cards import NUM_RANKS, RANK_CHARS, CardParseError, Rank, card_id, parse_specs

DEFAULT_PROFILE = "classic16"


class ProfileError(ValueError):
    """A profile that cannot be found, read or validated; the message is one line."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(_Model):
    """A message in both languages the UI speaks."""

    en: str
    zh: str


def _single_card(value: str) -> str:
    try:
        specs = parse_specs(value)
    except CardParseError as exc:
        raise ValueError(str(exc)) from None
    if len(specs) != 1 or (specs[0].suit is None and specs[0].rank < Rank.BLACK_JOKER):
        raise ValueError(f"{value!r} must name exactly one card with its suit, like '3s'")
    return value


CardName = Annotated[str, Field(description="one card with its suit, e.g. '3s' or 'R'")]


class DeckRules(_Model):
    """Which cards are in play."""

    packs: int = Field(1, ge=1, le=2, description="how many 52-card packs")
    jokers: bool = Field(False, description="include both jokers of every pack")
    remove: tuple[CardName, ...] = Field((), description="cards taken out of every pack")
    set_aside: int = Field(0, ge=0, description="random cards left undealt and unseen")

    @field_validator("remove")
    @classmethod
    def _cards(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for v in value:
            _single_card(v)
        return value


class LeadRules(_Model):
    """Who makes the first play of a deal."""

    card: CardName = Field("3s", description="the holder of this card leads")
    must_contain: bool = Field(False, description="the first play must contain that card")

    @field_validator("card")
    @classmethod
    def _card(cls, value: str) -> str:
        return _single_card(value)


class ChainRules(_Model):
    """A combination of consecutive ranks (pair chain, straight)."""

    enabled: bool = True
    min_length: int = Field(ge=2, le=13)


class TrioRules(_Model):
    """三带二: a trio with kickers. ``kickers`` any cards of other ranks."""

    kickers: int = Field(2, ge=0, le=4)
    bare: bool = Field(False, description="a trio may be played alone at any time")


class PlaneRules(_Model):
    """飞机带翅膀: consecutive trios, each carrying ``kickers_per_trio`` cards."""

    enabled: bool = True
    min_length: int = Field(2, ge=2, le=13)
    kickers_per_trio: int = Field(2, ge=0, le=4)


class Combinations(_Model):
    chain_ranks: str = Field(
        "3456789TJQKA", description="ranks that may appear in chains, low to high, consecutive"
    )
    pair_chain: ChainRules = ChainRules(min_length=2)
    straight: ChainRules = ChainRules(min_length=5)
    trio: TrioRules = TrioRules()
    plane: PlaneRules = PlaneRules()

    @field_validator("chain_ranks")
    @classmethod
    def _chain(cls, value: str) -> str:
        value = value.upper()
        idx = [RANK_CHARS.find(c) for c in value]
        if any(i < 0 for i in idx):
            raise ValueError(f"{value!r} holds a character that is not a rank")
        if not idx or idx != list(range(idx[0], idx[0] + len(idx))):
            raise ValueError(f"{value!r} must be consecutive ranks in order, like '3456789TJQKA'")
        return value

    @cached_property
    def chain_rank_indexes(self) -> tuple[int, ...]:
        return tuple(RANK_CHARS.index(c) for c in self.chain_ranks)


class BombRules(_Model):
    four: bool = Field(True, description="four of a rank is a bomb")
    unbreakable: bool = Field(True, description="a held bomb's cards can only go out together")


class Restrictions(_Model):
    must_beat: bool = Field(True, description="有牌必压: a player who can beat may not pass")
    bao_dan_highest_single: bool = Field(
        True, description="报单: a single played before a one-card 下家 must be the highest"
    )
    short_last_hand: bool = Field(True, description="a last hand may be a trio or plane with fewer kickers")


class Settlement(_Model):
    per_card: int = Field(1, ge=0, description="points a loser pays per card left")
    shut_out_multiplier: int = Field(2, ge=1, description="全关: factor for a loser who never played")
    bomb_bonus: int = Field(10, ge=0, description="收轮炸弹: collected from each other player")


class Profile(_Model):
    """A complete rule set. ``classic16.yaml`` holds the canonical values."""

    name: str
    aliases: tuple[str, ...] = ()
    title: Text
    description: Text
    players: int = Field(3, ge=2, le=4)
    hand_size: int = Field(16, ge=1)
    deck: DeckRules = DeckRules()
    lead: LeadRules = LeadRules()
    combinations: Combinations = Combinations()
    bombs: BombRules = BombRules()
    rules: Restrictions = Restrictions()
    end: Literal["first_out"] = "first_out"
    settlement: Settlement = Settlement()

    @model_validator(mode="after")
    def _fits(self) -> Profile:
        size = len(self.deck_cards)
        needed = self.players * self.hand_size + self.deck.set_aside
        if needed != size:
            raise ValueError(
                f"hand_size: {self.players} players x {self.hand_size} cards"
                f" + {self.deck.set_aside} set aside = {needed}, but the deck has {size} cards"
            )
        if card_from_name(self.lead.card) not in self.deck_cards:
            raise ValueError(f"lead.card: {self.lead.card} is not in the deck")
        return self

    @cached_property
    def deck_cards(self) -> tuple[int, ...]:
        """Card ids of the full deck in a fixed order (the order the deal shuffles)."""
        removed = {card_from_name(c) & 63 for c in self.deck.remove}
        cards = []
        for copy in range(self.deck.packs):
            for rank in range(NUM_RANKS):
                if rank >= Rank.BLACK_JOKER:
                    if self.deck.jokers and rank * 4 not in removed:
                        cards.append(card_id(rank, 0, copy))
                    continue
                for suit in range(4):
                    if rank * 4 + suit not in removed:
                        cards.append(card_id(rank, suit, copy))
        return tuple(cards)

    @cached_property
    def rank_totals(self) -> tuple[int, ...]:
        """How many cards of each rank the deck holds (the card counter's baseline)."""
        totals = [0] * NUM_RANKS
        for c in self.deck_cards:
            totals[(c & 63) >> 2] += 1
        return tuple(totals)


def card_from_name(name: str) -> int:
    spec = parse_specs(name)[0]
    return card_id(spec.rank, spec.suit or 0)


def variants_dir() -> Path:
    """Where the shipped profiles live (inside the package, linked from ``variants/``)."""
    return Path(str(resources.files("pdk") / "variants"))


def available_profiles() -> list[Profile]:
    return [load_profile(p) for p in sorted(variants_dir().glob("*.yaml"))]


def _format_error(source: str, exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"]) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return f"{source}: invalid profile: " + "; ".join(parts)


def profile_from_dict(data: object, source: str = "profile") -> Profile:
    if not isinstance(data, dict):
        raise ProfileError(f"{source}: a profile must be a mapping of fields")
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(_format_error(source, exc)) from None


def load_profile(name_or_path: str | Path = DEFAULT_PROFILE) -> Profile:
    """Find a profile by name, alias or file path, and validate it."""
    path = Path(name_or_path)
    if not (path.suffix in {".yaml", ".yml"} or path.exists()):
        path = _find_named(str(name_or_path))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read profile: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ProfileError(f"{path}:{where} not valid YAML") from None
    return profile_from_dict(data, str(path))


def _find_named(name: str) -> Path:
    folder = variants_dir()
    direct = folder / f"{name}.yaml"
    if direct.exists():
        return direct
    for p in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and name in (data.get("aliases") or ()):
            return p
    names = ", ".join(sorted(p.stem for p in folder.glob("*.yaml")))
    raise ProfileError(f"unknown variant {name!r} (known: {names}; or give a path to a .yaml file)")
