"""Rule profiles: every rule the engine follows is a knob here, validated by pydantic.

The engine reads these fields and never a profile's name, so a regional variant is a YAML
file. Models are frozen and forbid unknown keys so that a typo in a profile is an error
that names the field rather than a silently ignored default. Every default is the
classic16 behaviour (docs/rules.md), so a profile only spells out what differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import ErrorDetails

from pdk.engine.cards import NUM_RANKS, RANK_CHARS, CardParseError, Rank, card_id, parse_specs
from pdk.text.catalog import MESSAGES, Lang, LocalizedError, Param, Said, tr, words

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


class ProfileReason(Enum):
    """Why a profile cannot be found, read or validated; values are message keys in ``pdk.text.catalog``."""

    UNKNOWN = "pfe_unknown"
    CANNOT_READ = "pfe_cannot_read"
    NOT_TEXT = "pfe_not_text"
    YAML_AT = "pfe_yaml_at"
    YAML = "pfe_yaml"
    NOT_MAPPING = "pfe_not_mapping"
    BASE_BAD = "pfe_base_bad"
    BASE_UNKNOWN = "pfe_base_unknown"
    INVALID = "pfe_invalid"


@dataclass(frozen=True)
class ProfileProblem:
    """One thing wrong in a profile: the field it is about, as its YAML key path
    (``rules.must_beat``; the same in both languages), and why, as a message key + params."""

    field: str
    key: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, field: str, key: str, /, **params: object) -> ProfileProblem:
        return cls(field, key, tuple(params.items()))

    @property
    def said(self) -> Said:
        detail = Said(self.key, tuple((k, words(v)) for k, v in self.params))
        return Said.of("pfe_field", field=self.field, detail=detail) if self.field else detail

    def message(self, lang: Lang = "en") -> str:
        return self.said.text(lang)


def _choices(text: str) -> Param:
    """Pydantic's list of allowed values ("'a', 'b' or 'c'"), with 或 for "or" in 中文."""
    if " or " not in text:
        return text
    head, last = text.rsplit(" or ", 1)
    return Said.of("pfe_choices", head=head, last=last)


class ProfileError(LocalizedError, ValueError):
    """A profile that cannot be found, read or validated, said in one line. For an invalid
    profile ``problems`` holds every bad field, each naming its YAML key path (said as
    one list in the message)."""

    reason: ProfileReason

    @property
    def problems(self) -> tuple[ProfileProblem, ...]:
        found = self.params.get("problems", ())
        return found if isinstance(found, tuple) else ()


class _BadValue(ValueError):
    """A field validator's refusal, as a message key + params (pydantic keeps the exception)."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(tr(key, "en", **params))


class _Inconsistent(ValueError):
    """Settings that cannot go together, every one found."""

    def __init__(self, problems: list[ProfileProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(p.message("en") for p in problems))


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(_Model):
    """Words a profile brings in both languages the UI speaks (its title, its
    description): data, read as every other message is, through ``said``."""

    en: str
    zh: str

    @property
    def said(self) -> Said:
        return Said.own(self.en, self.zh)


def _single_card(value: str) -> str:
    specs = parse_specs(value)  # a CardParseError is a ValueError: pydantic keeps it
    if len(specs) != 1 or (specs[0].suit is None and specs[0].rank < Rank.BLACK_JOKER):
        raise _BadValue("pfv_one_card", value=value)
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
            raise _BadValue("pfv_chain_char", value=value)
        if not idx or idx != list(range(idx[0], idx[0] + len(idx))):
            raise _BadValue("pfv_chain_order", value=value)
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

    @cached_property
    def chain_window_order(self) -> dict[int, int]:
        """Each chain window's place in ``chain_windows``: readings found by looking windows
        up (rather than walking them all) keep the order a walk would give."""
        return {mask: i for i, mask in enumerate(self.chain_windows)}


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


class ZhaNiao(_Model):
    """扎鸟 (红桃10扎鸟 by default): whoever holds ``card`` when the deal starts pays or
    collects ``factor`` times every card payment they are part of."""

    card: CardName = Field("Th", description="the bird card (♥10)")
    factor: int = Field(2, ge=2, description="what the holder's card payments are multiplied by")

    @field_validator("card")
    @classmethod
    def _card(cls, value: str) -> str:
        return _single_card(value)


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
    zha_niao: ZhaNiao | None = Field(
        None, description="扎鸟: the holder of a card pays or collects a factor on every card payment"
    )

    @model_serializer(mode="wrap")
    def _without_unset_bird(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        """Leave ``zha_niao`` out while it is off: every record and save carries its profile
        as JSON, and one written before the knob existed must read back byte for byte."""
        data = handler(self)
        if isinstance(data, dict) and data.get("zha_niao", 0) is None:
            del data["zha_niao"]
        return data

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
    def canonical(self) -> str:
        """The profile as JSON, worked out once: what its hash and equality compare."""
        return self.model_dump_json()

    @cached_property
    def hash_key(self) -> int:
        """The profile's hash, worked out once: generators are cached per profile and every
        ``Position`` looks its generator up, so hashing the nested model each time costs."""
        return hash(self.canonical)

    def __hash__(self) -> int:
        return self.hash_key

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Profile:
        """A copy whose worked-out values (the JSON, the hash, the deck...) are worked out
        again, since ``update`` may change what they were worked out from."""
        copy = super().model_copy(update=update, deep=deep)
        for key in [k for k in copy.__dict__ if k not in type(self).model_fields]:
            del copy.__dict__[key]
        return copy

    def __eq__(self, other: object) -> bool:
        # Two equal profiles loaded apart meet in every per-profile cache: comparing their
        # JSON once made is a string compare, where the models' own compare walks every field.
        if self is other:
            return True
        if not isinstance(other, Profile):
            return NotImplemented
        return self.hash_key == other.hash_key and self.canonical == other.canonical

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        problems = _problems(self)
        if problems:
            raise _Inconsistent(problems)
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
        """True when the fast rank-count generator of ``pdk.engine.movegen`` covers every knob;
        otherwise the general generator (``pdk.engine.movegen_general``) is used."""
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


def _problems(p: Profile) -> list[ProfileProblem]:
    """Every impossible combination of settings, each naming its field."""
    out: list[ProfileProblem] = []

    def bad(field: str, key: str, /, **params: object) -> None:
        out.append(ProfileProblem.of(field, key, **params))

    deck = set(p.deck_cards)
    size = len(deck)
    needed = p.seats_dealt * p.hand_size + p.deck.set_aside
    if needed != size:
        bad(
            "hand_size",
            "pfp_hand_size_dummies" if p.dummy_hands else "pfp_hand_size",
            players=p.players,
            dummies=p.dummy_hands,
            hand_size=p.hand_size,
            set_aside=p.deck.set_aside,
            needed=needed,
            size=size,
        )
    for name in p.deck.remove:
        cid = card_from_name(name)
        if cid >> 2 >= Rank.BLACK_JOKER and not p.deck.jokers:
            bad("deck.remove", "pfp_removed_joker", card=name)
    if card_from_name(p.lead.card) not in deck:
        bad("lead.card", "pfp_not_in_deck", card=p.lead.card)
    elif (p.deck.set_aside or p.dummy_hands) and not p.lead.fallback:
        bad("lead.fallback", "pfp_lead_fallback")
    c = p.combinations
    chain = c.chain_rank_indexes
    longest = len(chain) + (2 if c.low_ace_two else 0)  # A and 2 may sit below 3
    for label, rules in (("pair_chain", c.pair_chain), ("straight", c.straight)):
        if rules.enabled and rules.min_length > longest:
            bad(f"combinations.{label}.min_length", "pfp_too_long", length=rules.min_length)
    if c.low_ace_two and chain[0] != Rank.THREE:
        bad("combinations.low_ace_two", "pfp_low_ace_two_start")
    if c.low_ace_two and Rank.TWO in chain and Rank.ACE not in chain:
        bad("combinations.low_ace_two", "pfp_low_ace_two_no_ace")
    t = c.trio
    if t.min_kickers is not None and t.min_kickers > t.kickers:
        bad(
            "combinations.trio.min_kickers",
            "pfp_more_than",
            value=t.min_kickers,
            other="kickers",
            limit=t.kickers,
        )
    if t.kicker_kind == "pairs" and t.kickers % 2:
        bad("combinations.trio.kickers", "pfp_kickers_not_pairs", kickers=t.kickers)
    if not t.counts:
        bad("combinations.trio", "pfp_no_kicker_count")
    pl = c.plane
    if pl.low > pl.kickers_per_trio:
        bad(
            "combinations.plane.min_kickers_per_trio",
            "pfp_more_than",
            value=pl.low,
            other="kickers_per_trio",
            limit=pl.kickers_per_trio,
        )
    if pl.kicker_kind == "pairs" and (pl.kickers_per_trio % 2 or pl.low % 2):
        bad("combinations.plane.kicker_kind", "pfp_plane_pairs")
    if pl.enabled and pl.min_length > longest:
        bad("combinations.plane.min_length", "pfp_too_long", length=pl.min_length)
    fw = c.four_with
    if fw.enabled and fw.min_kickers > fw.max_kickers:
        bad("combinations.four_with.min_kickers", "pfp_four_with_min")
    if fw.enabled and fw.kicker_kind == "pairs" and (fw.min_kickers % 2 or fw.max_kickers % 2):
        bad("combinations.four_with.kicker_kind", "pfp_four_with_pairs")
    if c.straight_flush != "none" and not c.straight.enabled:
        bad("combinations.straight_flush", "pfp_straights_off")
    b = p.bombs
    most = max(p.rank_totals[: Rank.BLACK_JOKER])
    if b.min_size > b.max_size:
        bad("bombs.min_size", "pfp_more_than", value=b.min_size, other="max_size", limit=b.max_size)
    if b.four and b.min_size > most:
        bad("bombs.min_size", "pfp_no_rank_has", size=b.min_size)
    if b.max_size > most and b.max_size != 4:
        bad("bombs.max_size", "pfp_no_rank_has", size=b.max_size)
    if b.three_aces and p.rank_totals[Rank.ACE] < 3:
        bad("bombs.three_aces", "pfp_three_aces")
    if b.joker_pair and not p.deck.jokers:
        bad("bombs.joker_pair", "pfp_joker_pair")
    if b.four_jokers and (not p.deck.jokers or p.deck.packs < 2):
        bad("bombs.four_jokers", "pfp_four_jokers")
    if b.order is not None:
        wanted = set(b.enabled(c.straight_flush == "bomb"))
        given = list(b.order)
        if len(set(given)) != len(given):
            bad("bombs.order", "pfp_order_twice")
        if set(given) != wanted:
            if wanted:
                bad("bombs.order", "pfp_order_kinds", kinds=", ".join(sorted(wanted)))
            else:
                bad("bombs.order", "pfp_order_no_kinds")
    r = p.rules
    if r.bao_pei and r.bao_dan_highest_single:
        bad("rules.bao_pei", "pfp_bao_pei_highest")
    s = p.settlement
    if s.scheme == "placement":
        if p.end != "last_one":
            bad("settlement.scheme", "pfp_placement_end")
        if len(s.placement_points) != p.players:
            bad(
                "settlement.placement_points",
                "pfp_placement_points",
                players=p.players,
                got=len(s.placement_points),
            )
    else:
        if p.end != "first_out":
            bad("settlement.scheme", "pfp_cards_left_end")
        if s.placement_points:
            bad("settlement.placement_points", "pfp_placement_only")
        if s.first_out_bonus:
            bad("settlement.first_out_bonus", "pfp_placement_only")
    if s.reverse_spring_multiplier > 1 and s.scheme != "cards_left":
        bad("settlement.reverse_spring_multiplier", "pfp_reverse_spring")
    if r.bao_pei and s.scheme != "cards_left":
        bad("rules.bao_pei", "pfp_bao_pei_scheme")
    if s.zha_niao is not None:
        if card_from_name(s.zha_niao.card) not in deck:
            bad("settlement.zha_niao.card", "pfp_not_in_deck", card=s.zha_niao.card)
        if s.scheme != "cards_left":
            bad("settlement.zha_niao", "pfp_zha_niao_scheme")
    if len({g.played_under for g in s.graded}) != len(s.graded):
        bad("settlement.graded", "pfp_graded_twice")
    return out


def card_from_name(name: str) -> int:
    spec = parse_specs(name)[0]
    return card_id(spec.rank, spec.suit or 0)


def _validation_problems(exc: ValidationError) -> tuple[ProfileProblem, ...]:
    """Every error pydantic found, each naming its field; the whole-profile checks
    (``_problems``) name their own fields."""
    out: list[ProfileProblem] = []
    for err in exc.errors():
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, _Inconsistent):
            out.extend(cause.problems)
        else:
            out.append(_field_problem(err, cause))
    return tuple(out)


def _field_problem(err: ErrorDetails, cause: object) -> ProfileProblem:
    field = ".".join(str(x) for x in err["loc"])
    if isinstance(cause, _BadValue):
        return ProfileProblem.of(field, cause.key, **cause.params)
    if isinstance(cause, CardParseError):
        return ProfileProblem.of(field, "pfv_card", error=cause)
    other = ProfileProblem.of(field, "pfv_other", msg=err["msg"].removeprefix("Value error, "))
    key = f"pfv_{err['type']}"
    if key not in MESSAGES:
        return other
    params: dict[str, object] = {}
    for name, value in err.get("ctx", {}).items():
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # pydantic writes 0.0 as 0
        if isinstance(value, str) and name == "expected":
            value = _choices(value)
        if isinstance(value, int | float | str | Said):
            params[name] = value
    problem = ProfileProblem(field, key, tuple(params.items()))
    # Our words only where they say what pydantic says (its English may change between
    # versions); otherwise its own English line.
    try:
        same = problem.message("en") == other.message("en")
    except (KeyError, IndexError):
        same = False
    return problem if same else other


def validate_profile(data: object, source: str = "profile") -> Profile:
    """A complete profile (every field present, no ``base:``) from parsed data, with every
    problem named by its field. Records carry profiles in this form; files that inherit
    from another profile are merged first by ``pdk.variants.registry``."""
    if not isinstance(data, dict):
        raise ProfileError(ProfileReason.NOT_MAPPING, source=source)
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(ProfileReason.INVALID, source=source, problems=_validation_problems(exc)) from None
