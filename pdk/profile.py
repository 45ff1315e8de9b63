"""Rule profiles: every rule the engine follows is a knob here, validated by pydantic.

The engine reads these fields and never a profile's name, so a regional variant is a YAML
file. Models are frozen and forbid unknown keys so that a typo in a profile is an error
that names the field rather than a silently ignored default. Every default is the
classic16 behaviour (RULES.md), so a profile only spells out what differs.
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

BombKind = Literal["same_rank", "three_aces", "joker_pair", "four_jokers", "straight_flush"]
# The order bomb kinds rank in when a profile does not say (weakest first).
_BOMB_KIND_ORDER: tuple[BombKind, ...] = (
    "same_rank",
    "straight_flush",
    "three_aces",
    "joker_pair",
    "four_jokers",
)


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
KickerKind = Literal["any", "pairs"]


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
    fallback: bool = Field(
        True,
        description="if nobody holds the card (set aside), the holder of the next card of its suit"
        " upward leads, then of spades, hearts, clubs, diamonds (seed 001)",
    )
    winner_leads: bool = Field(
        False, description="match rule: from the second deal on, the last deal's winner leads (seed 003)"
    )

    @field_validator("card")
    @classmethod
    def _card(cls, value: str) -> str:
        return _single_card(value)


class ChainRules(_Model):
    """A combination of consecutive ranks (pair chain, straight)."""

    enabled: bool = True
    min_length: int = Field(ge=2, le=13)


class TrioRules(_Model):
    """A trio with kickers (三带二 in classic16).

    Allowed kicker counts are ``min_kickers..kickers``, plus none when ``bare``. Kickers
    are any cards of other ranks, or with ``kicker_kind: pairs`` whole pairs. With
    ``follow_same_kickers`` a follower must match the leader's 3+N exactly.
    """

    kickers: int = Field(2, ge=0, le=2, description="the most kickers a trio carries")
    min_kickers: int | None = Field(None, ge=0, le=2, description="the fewest (default: kickers)")
    bare: bool = Field(False, description="a trio may be played alone at any time")
    kicker_kind: KickerKind = Field("any", description="kickers are any cards, or pairs")
    follow_same_kickers: bool = Field(False, description="a follower must carry as many kickers")

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """Every allowed kicker count, fewest first."""
        low = self.kickers if self.min_kickers is None else self.min_kickers
        allowed = set(range(low, self.kickers + 1))
        if self.bare:
            allowed.add(0)
        if self.kicker_kind == "pairs":
            allowed = {k for k in allowed if k % 2 == 0}
        return tuple(sorted(allowed))


class PlaneRules(_Model):
    """飞机带翅膀: consecutive trios, each carrying ``min..kickers_per_trio`` cards."""

    enabled: bool = True
    min_length: int = Field(2, ge=2, le=13)
    kickers_per_trio: int = Field(2, ge=0, le=4)
    min_kickers_per_trio: int | None = Field(None, ge=0, le=4, description="default: kickers_per_trio")
    bare: bool = Field(False, description="consecutive trios may go alone (三顺)")
    kicker_kind: KickerKind = "any"
    follow_same_kickers: bool = Field(False, description="a follower must carry as many kickers")

    @property
    def low(self) -> int:
        return self.kickers_per_trio if self.min_kickers_per_trio is None else self.min_kickers_per_trio


class FourWithRules(_Model):
    """四带N: four of a rank with kickers, played as an ordinary (non-bomb) combination."""

    enabled: bool = False
    min_kickers: int = Field(1, ge=1, le=4)
    max_kickers: int = Field(3, ge=1, le=4)
    kicker_kind: KickerKind = "any"
    follow_same_kickers: bool = True


class Combinations(_Model):
    chain_ranks: str = Field(
        "3456789TJQKA", description="ranks that may appear in chains, low to high, consecutive"
    )
    low_ace_two: bool = Field(
        False, description="A and 2 may sit below 3 in a chain that reaches 3 (A2345, AA2233)"
    )
    pair_chain: ChainRules = ChainRules(min_length=2)
    straight: ChainRules = ChainRules(min_length=5)
    straight_flush: Literal["none", "beats_straights", "bomb"] = Field(
        "none", description="a one-suit straight: nothing special, beats plain straights, or a bomb"
    )
    trio: TrioRules = TrioRules()
    plane: PlaneRules = PlaneRules()
    four_with: FourWithRules = FourWithRules()

    @field_validator("chain_ranks")
    @classmethod
    def _chain(cls, value: str) -> str:
        value = value.upper()
        idx = [RANK_CHARS.find(c) for c in value]
        if any(i < 0 for i in idx) or any(i >= Rank.BLACK_JOKER for i in idx):
            raise ValueError(f"{value!r} holds a character that is not a chainable rank (3..A, 2)")
        if not idx or idx != list(range(idx[0], idx[0] + len(idx))):
            raise ValueError(f"{value!r} must be consecutive ranks in order, like '3456789TJQKA'")
        return value

    @cached_property
    def chain_rank_indexes(self) -> tuple[int, ...]:
        return tuple(RANK_CHARS.index(c) for c in self.chain_ranks)

    @cached_property
    def chain_windows(self) -> dict[int, int]:
        """Every run of ranks a chain may use, as rank bitmask -> top rank.

        High runs follow ``chain_ranks``; with ``low_ace_two`` the sequence may also start
        A, 2 below 3, but only in a run that reaches 3 (seed 003/004: A2345, not K-A-2-3).
        A set that reads both ways keeps its higher top.
        """
        seqs = [list(self.chain_rank_indexes)]
        if self.low_ace_two:
            seqs.append([Rank.ACE, Rank.TWO, *self.chain_rank_indexes])
        out: dict[int, int] = {}
        for seq in seqs:
            for i in range(len(seq)):
                mask = 0
                for j in range(i, len(seq)):
                    if mask >> seq[j] & 1:
                        break
                    mask |= 1 << seq[j]
                    if j == i:
                        continue
                    low_part = seq is not seqs[0] and i < 2
                    if low_part and Rank.THREE not in seq[i : j + 1]:
                        continue
                    top = seq[j]
                    if top > out.get(mask, -1):
                        out[mask] = top
        return out


class BombRules(_Model):
    """Which sets of cards are bombs, and how bombs rank among themselves."""

    four: bool = Field(True, description="same-rank bombs: min_size..max_size cards of one rank")
    min_size: int = Field(4, ge=4, le=8, description="the fewest cards of one rank that make a bomb")
    max_size: int = Field(4, ge=4, le=8, description="the most (two packs hold 8 of a rank)")
    more_cards_beat_fewer: bool = Field(False, description="same-rank bombs compare by size, then rank")
    three_aces: bool = Field(False, description="三个A: three aces are a bomb (a common table option)")
    joker_pair: bool = Field(False, description="王炸: the small and the big joker together")
    four_jokers: bool = Field(False, description="天王炸: all four jokers of two packs")
    order: tuple[BombKind, ...] | None = Field(
        None,
        description="bomb kinds weakest first (default: same_rank, straight_flush, joker_pair, four_jokers)",
    )
    unbreakable: bool = Field(True, description="a held same-rank bomb's cards can only go out together")

    def enabled(self, straight_flush_bomb: bool) -> tuple[BombKind, ...]:
        """The enabled bomb kinds in the default order."""
        on = {
            "same_rank": self.four,
            "joker_pair": self.joker_pair,
            "four_jokers": self.four_jokers,
            "straight_flush": straight_flush_bomb,
            "three_aces": self.three_aces,
        }
        return tuple(k for k in _BOMB_KIND_ORDER if on[k])

    def kinds(self, straight_flush_bomb: bool) -> tuple[BombKind, ...]:
        """The enabled bomb kinds, weakest first."""
        return self.order if self.order is not None else self.enabled(straight_flush_bomb)


class Restrictions(_Model):
    must_beat: bool = Field(True, description="有牌必压: a player who can beat may not pass")
    bao_dan_highest_single: bool = Field(
        True, description="报单: a single played before a one-card 下家 must be the highest"
    )
    bao_pei: bool = Field(
        False,
        description="包赔: a single below one's highest before a one-card 下家 is allowed, but if"
        " that 下家 then goes out the offender pays every loser's card payment",
    )
    short_last_hand: bool = Field(True, description="a last hand may be a trio or plane with fewer kickers")


class Grade(_Model):
    """A graded multiplier: a loser who played fewer than ``played_under`` of their hand."""

    played_under: float = Field(gt=0, le=1, description="fraction of the dealt hand, e.g. 0.25")
    multiplier: int = Field(ge=1)


class Settlement(_Model):
    scheme: Literal["cards_left", "placement"] = Field(
        "cards_left", description="losers pay per card left, or fixed points by finishing place"
    )
    per_card: int = Field(1, ge=0, description="points a loser pays per card left")
    shut_out_multiplier: int = Field(2, ge=1, description="全关: factor for a loser who never played")
    reverse_spring_multiplier: int = Field(
        1, ge=1, description="反春: factor for a losing first leader who played only in the opening trick"
    )
    graded: tuple[Grade, ...] = Field((), description="factors for losers who played little")
    one_card_exempt: bool = Field(False, description="a loser left with one card (报单) pays nothing")
    placement_points: tuple[int, ...] = Field((), description="points by place, first out first")
    first_out_bonus: int = Field(0, ge=0, description="extra points for the first out (placement)")
    first_out_bonus_if: Literal["always", "others_shut_out"] = "always"
    bomb_bonus: int = Field(10, ge=0, description="points a scoring bomb earns from each payer")
    bomb_bonus_when: Literal["trick_won", "played"] = Field(
        "trick_won", description="收轮炸弹 (the bomb ends its trick) or every bomb played"
    )
    bomb_bonus_paid_by: Literal["each_other", "nobody"] = Field(
        "each_other", description="each other player pays the bonus, or it is a plain credit"
    )
    bomb_doubling: bool = Field(False, description="every bomb played doubles the deal's payments")

    def multiplier(self, played: int, hand_size: int) -> int:
        """The factor on a loser's card payment, from how many cards they played."""
        if played == 0:
            return self.shut_out_multiplier
        if not self.graded:
            return 1
        for grade in sorted(self.graded, key=lambda g: g.played_under):
            if played < grade.played_under * hand_size:
                return grade.multiplier
        return 1

    @property
    def zero_sum(self) -> bool:
        return self.bomb_bonus_paid_by == "each_other" and (
            self.scheme == "cards_left" or (sum(self.placement_points) == 0 and self.first_out_bonus == 0)
        )


class Profile(_Model):
    """A complete rule set. ``classic16.yaml`` holds the canonical values."""

    name: str
    aliases: tuple[str, ...] = ()
    title: Text
    description: Text
    players: int = Field(3, ge=2, le=4)
    dummy_hands: int = Field(0, ge=0, le=2, description="hands dealt face down that nobody plays")
    hand_size: int = Field(16, ge=1)
    deck: DeckRules = DeckRules()
    lead: LeadRules = LeadRules()
    combinations: Combinations = Combinations()
    bombs: BombRules = BombRules()
    rules: Restrictions = Restrictions()
    end: Literal["first_out", "last_one"] = Field(
        "first_out", description="the deal ends when the first player is out, or plays on to the last"
    )
    settlement: Settlement = Settlement()

    @cached_property
    def hash_key(self) -> int:
        """The profile's hash, worked out once: generators are cached per profile and every
        ``Position`` looks its generator up, so hashing the nested model each time costs."""
        return hash(self.model_dump_json())

    def __hash__(self) -> int:
        return self.hash_key

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        problems = _problems(self)
        if problems:
            raise ValueError("; ".join(problems))
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

    @cached_property
    def bomb_kinds(self) -> tuple[BombKind, ...]:
        """The enabled bomb kinds, weakest first."""
        return self.bombs.kinds(self.combinations.straight_flush == "bomb")

    @property
    def seats_dealt(self) -> int:
        """Hands dealt: the players' plus any hidden dummy hands."""
        return self.players + self.dummy_hands

    @cached_property
    def classic_generation(self) -> bool:
        """True when the fast rank-count generator of ``pdk.movegen`` covers every knob;
        otherwise the general generator (``pdk.movegen_general``) is used."""
        c = self.combinations
        b = self.bombs
        return (
            not c.low_ace_two
            and c.straight_flush == "none"
            and c.trio.min_kickers in (None, c.trio.kickers)
            and c.trio.kicker_kind == "any"
            and not c.trio.follow_same_kickers
            and c.plane.min_kickers_per_trio in (None, c.plane.kickers_per_trio)
            and not c.plane.bare
            and c.plane.kicker_kind == "any"
            and not c.four_with.enabled
            and b.min_size == 4
            and b.max_size == 4
            and not b.more_cards_beat_fewer
            and not b.joker_pair
            and not b.three_aces
            and not b.four_jokers
            and self.deck.packs == 1
            and not self.deck.jokers
        )


def _problems(p: Profile) -> list[str]:
    """Every impossible combination of settings, each naming its field."""
    out: list[str] = []
    deck = set(p.deck_cards)
    size = len(deck)
    needed = p.seats_dealt * p.hand_size + p.deck.set_aside
    if needed != size:
        dummies = f" + {p.dummy_hands} hidden hand(s)" if p.dummy_hands else ""
        out.append(
            f"hand_size: {p.players} players{dummies} x {p.hand_size} cards"
            f" + {p.deck.set_aside} set aside = {needed}, but the deck has {size} cards"
        )
    for name in p.deck.remove:
        cid = card_from_name(name)
        if cid >> 2 >= Rank.BLACK_JOKER and not p.deck.jokers:
            out.append(f"deck.remove: {name} is a joker but deck.jokers is false")
    if card_from_name(p.lead.card) not in deck:
        out.append(f"lead.card: {p.lead.card} is not in the deck")
    elif (p.deck.set_aside or p.dummy_hands) and not p.lead.fallback:
        out.append(
            "lead.fallback: cards are set aside, so the lead card may be undealt; a fallback is needed"
        )
    c = p.combinations
    chain = c.chain_rank_indexes
    for label, rules in (("pair_chain", c.pair_chain), ("straight", c.straight)):
        if rules.enabled and rules.min_length > len(chain) + (2 if c.low_ace_two else 0):
            out.append(f"combinations.{label}.min_length: {rules.min_length} is longer than any chain")
    if c.low_ace_two and chain[0] != Rank.THREE:
        out.append("combinations.low_ace_two: chain_ranks must start at 3 for A and 2 to sit below it")
    if c.low_ace_two and any(r in chain for r in (Rank.ACE, Rank.TWO)) and Rank.ACE not in chain:
        out.append("combinations.low_ace_two: chain_ranks holds 2 but not A")
    t = c.trio
    if t.min_kickers is not None and t.min_kickers > t.kickers:
        out.append(f"combinations.trio.min_kickers: {t.min_kickers} is more than kickers ({t.kickers})")
    if t.kicker_kind == "pairs" and t.kickers % 2:
        out.append(f"combinations.trio.kickers: {t.kickers} kickers cannot be made of pairs")
    if not t.counts:
        out.append("combinations.trio: no kicker count is allowed")
    pl = c.plane
    if pl.low > pl.kickers_per_trio:
        out.append(
            f"combinations.plane.min_kickers_per_trio: {pl.low} is more than kickers_per_trio"
            f" ({pl.kickers_per_trio})"
        )
    if pl.kicker_kind == "pairs" and (pl.kickers_per_trio % 2 or pl.low % 2):
        out.append("combinations.plane.kicker_kind: pairs need an even number of kickers per trio")
    if pl.enabled and pl.min_length > len(chain) + (2 if c.low_ace_two else 0):
        out.append(f"combinations.plane.min_length: {pl.min_length} is longer than any chain")
    fw = c.four_with
    if fw.enabled and fw.min_kickers > fw.max_kickers:
        out.append("combinations.four_with.min_kickers: more than max_kickers")
    if fw.enabled and fw.kicker_kind == "pairs" and (fw.min_kickers % 2 or fw.max_kickers % 2):
        out.append("combinations.four_with.kicker_kind: pairs need an even number of kickers")
    if c.straight_flush != "none" and not c.straight.enabled:
        out.append("combinations.straight_flush: straights are disabled")
    b = p.bombs
    most = max(p.rank_totals[: Rank.BLACK_JOKER])
    if b.min_size > b.max_size:
        out.append(f"bombs.min_size: {b.min_size} is more than max_size ({b.max_size})")
    if b.four and b.min_size > most:
        out.append(f"bombs.min_size: no rank has {b.min_size} cards in this deck")
    if b.max_size > most and b.max_size != 4:
        out.append(f"bombs.max_size: no rank has {b.max_size} cards in this deck")
    if b.three_aces and p.rank_totals[Rank.ACE] < 3:
        out.append("bombs.three_aces: the deck has fewer than three aces")
    if b.joker_pair and not p.deck.jokers:
        out.append("bombs.joker_pair: the deck has no jokers")
    if b.four_jokers and (not p.deck.jokers or p.deck.packs < 2):
        out.append("bombs.four_jokers: needs two packs with jokers")
    if b.order is not None:
        wanted = set(b.enabled(c.straight_flush == "bomb"))
        given = list(b.order)
        if len(set(given)) != len(given):
            out.append("bombs.order: a kind is listed twice")
        if set(given) != wanted:
            names = ", ".join(sorted(wanted)) or "none"
            out.append(f"bombs.order: must list exactly the enabled bomb kinds ({names})")
    r = p.rules
    if r.bao_pei and r.bao_dan_highest_single:
        out.append(
            "rules.bao_pei: with bao_dan_highest_single on nobody can break the 报单 rule;"
            " turn one of them off"
        )
    s = p.settlement
    if s.scheme == "placement":
        if p.end != "last_one":
            out.append("settlement.scheme: placement needs end: last_one")
        if len(s.placement_points) != p.players:
            out.append(
                f"settlement.placement_points: needs {p.players} values (one per place),"
                f" got {len(s.placement_points)}"
            )
    else:
        if p.end != "first_out":
            out.append("settlement.scheme: cards_left needs end: first_out (use placement with last_one)")
        if s.placement_points:
            out.append("settlement.placement_points: only used by scheme: placement")
        if s.first_out_bonus:
            out.append("settlement.first_out_bonus: only used by scheme: placement")
    if s.reverse_spring_multiplier > 1 and s.scheme != "cards_left":
        out.append("settlement.reverse_spring_multiplier: 反春 needs scheme: cards_left")
    if r.bao_pei and s.scheme != "cards_left":
        out.append("rules.bao_pei: 包赔 shifts card payments, so it needs scheme: cards_left")
    if len({g.played_under for g in s.graded}) != len(s.graded):
        out.append("settlement.graded: two grades share a fraction")
    return out


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
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        # Whole-profile checks already name their fields inside the message.
        parts.append(f"{loc}: {msg}" if loc else msg)
    return f"{source}: invalid profile: " + "; ".join(parts)


def _merge(base: dict[str, object], over: dict[str, object]) -> dict[str, object]:
    """``over`` on top of ``base``, mapping by mapping; lists and values replace."""
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = _merge(old, value)
        else:
            out[key] = value
    return out


def _resolve_base(data: dict[str, object], source: str, depth: int = 0) -> dict[str, object]:
    """A profile may say ``base: NAME`` and list only what differs from that profile."""
    if "base" not in data:
        return data
    base_name = data["base"]
    rest = {k: v for k, v in data.items() if k != "base"}
    if not isinstance(base_name, str) or depth > 8:
        raise ProfileError(f"{source}: invalid profile: base: must name one profile (and not loop)")
    base_path = Path(base_name)
    if not (base_path.suffix in {".yaml", ".yml"} and base_path.exists()):
        try:
            base_path = _find_named(base_name)
        except ProfileError:
            raise ProfileError(f"{source}: invalid profile: base: unknown profile {base_name!r}") from None
    base_data = _read_yaml(base_path)
    if not isinstance(base_data, dict):
        raise ProfileError(f"{base_path}: a profile must be a mapping of fields")
    return _merge(_resolve_base(base_data, str(base_path), depth + 1), rest)


def profile_from_dict(data: object, source: str = "profile") -> Profile:
    if not isinstance(data, dict):
        raise ProfileError(f"{source}: a profile must be a mapping of fields")
    data = _resolve_base(data, source)
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(_format_error(source, exc)) from None


def _read_yaml(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read profile: {exc.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ProfileError(f"{path}:{where} not valid YAML") from None


def profile_path(name_or_path: str | Path) -> Path:
    """The file a profile name, alias or path refers to (ProfileError if none)."""
    path = Path(name_or_path)
    if not (path.suffix in {".yaml", ".yml"} or path.exists()):
        path = _find_named(str(name_or_path))
    return path


def load_profile(name_or_path: str | Path = DEFAULT_PROFILE) -> Profile:
    """Find a profile by name, alias or file path, and validate it."""
    path = Path(name_or_path)
    if not (path.suffix in {".yaml", ".yml"} or path.exists()):
        path = _find_named(str(name_or_path))
    return profile_from_dict(_read_yaml(path), str(path))


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
