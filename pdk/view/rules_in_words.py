"""A profile's rules in plain words, in English and 中文, generated from its knobs.

``pdk variants show`` prints this. Every sentence is derived from a field the engine
reads, so the explanation cannot drift from what the engine does: change a knob and the
text changes with it.
"""

from __future__ import annotations

from fractions import Fraction

from pdk.engine.cards import RANK_CHARS, Rank, format_unicode
from pdk.engine.deal import lead_order
from pdk.engine.profile import Profile, card_from_name
from pdk.text.catalog import Lang, tr

Pair = tuple[str, str]


def _rank(r: int, lang: Lang) -> str:
    if r == Rank.TEN:
        return "10"
    if r == Rank.BLACK_JOKER:
        return "small joker" if lang == "en" else "小王"
    if r == Rank.RED_JOKER:
        return "big joker" if lang == "en" else "大王"
    return RANK_CHARS[r]


def _pick(pair: Pair, lang: Lang) -> str:
    return pair[1] if lang == "zh" else pair[0]


def _add(lines: list[str], lang: Lang, en: str, zh: str) -> None:
    """Append the sentence in the reader's language."""
    lines.append(_pick((en, zh), lang))


def _gap(zh: str) -> str:
    """A space between 带 and a number (带 2 张), none before words (带一对)."""
    return " " if zh[:1].isdigit() else ""


def _card(name: str) -> str:
    return format_unicode([card_from_name(name)])


def _kickers(n: int, low: int, kind: str, bare: bool, lang: Lang) -> str:
    rng = str(n) if low == n else f"{low}-{n}"
    if kind == "pairs" and low == n == 2:
        en, zh = "a pair", "一对"
    elif kind == "pairs":
        en = f"{rng} cards made of pairs"
        zh = f"{rng} 张（须成对）"
    else:
        en = f"{rng} cards of any rank"
        zh = f"{rng} 张任意牌"
    if bare:
        en += ", or none"
        zh += "，也可不带"
    return _pick((en, zh), lang)


def sections(profile: Profile, lang: Lang) -> list[tuple[str, list[str]]]:
    """The explanation as (heading, lines) sections."""
    return [
        (_pick(("Deck and deal", "牌和发牌"), lang), _deal(profile, lang)),
        (_pick(("Combinations", "牌型"), lang), _combos(profile, lang)),
        (_pick(("Bombs", "炸弹"), lang), _bombs(profile, lang)),
        (_pick(("Play", "出牌规则"), lang), _play(profile, lang)),
        (_pick(("End and scoring", "结束和计分"), lang), _scoring(profile, lang)),
    ]


def explain(profile: Profile, lang: Lang) -> str:
    """The whole explanation as plain text."""
    title = profile.title.said.text(lang)
    out = [f"{title} ({profile.name})"]
    for heading, lines in sections(profile, lang):
        out.append("")
        out.append(heading)
        out.extend(f"  - {line}" for line in lines)
    return "\n".join(out)


def _deal(p: Profile, lang: Lang) -> list[str]:
    d = p.deck
    lines: list[str] = []
    packs = (
        _pick(("one 52-card pack", "一副 52 张牌"), lang)
        if d.packs == 1
        else _pick(("two 52-card packs", "两副 52 张牌"), lang)
    )
    jokers = (
        _pick((" with both jokers", "加大小王"), lang)
        if d.jokers
        else _pick((" without jokers", "不用大小王"), lang)
    )
    _add(lines, lang, f"Cards: {packs}{jokers}", f"用牌：{packs}，{jokers}")
    if d.remove:
        removed = " ".join(_card(c) for c in d.remove)
        _add(lines, lang, f"Taken out: {removed}", f"去掉：{removed}")
    total = len(p.deck_cards)
    counts = p.rank_totals
    uneven = [r for r in range(15) if counts[r] and counts[r] != 4 * d.packs and r < Rank.BLACK_JOKER]
    detail = ""
    if uneven:
        parts = ", ".join(f"{counts[r]}×{_rank(r, lang)}" for r in uneven)
        detail = _pick((f" (only {parts})", f"（其中只有 {parts}）"), lang)
    _add(lines, lang, f"{total} cards in play{detail}", f"共 {total} 张{detail}")
    _add(
        lines,
        lang,
        f"{p.players} players, {p.hand_size} cards each",
        f"{p.players} 人，每人 {p.hand_size} 张",
    )
    if p.dummy_hands:
        _add(
            lines,
            lang,
            f"{p.dummy_hands} more hand(s) of {p.hand_size} dealt face down and never played",
            f"另发 {p.dummy_hands} 手 {p.hand_size} 张牌扣着不出，谁也看不到",
        )
    if d.set_aside:
        _add(
            lines,
            lang,
            f"{d.set_aside} random cards set aside unseen",
            f"随机抽出 {d.set_aside} 张底牌不看、不用",
        )
    lead = _card(p.lead.card)
    _add(lines, lang, f"The holder of {lead} leads the first trick", f"持 {lead} 的人先出")
    fallback = p.lead.fallback and (d.set_aside or p.dummy_hands)
    if fallback:
        order = lead_order(p)
        nxt, then = format_unicode(order[1:2]), format_unicode(order[2:3])
        _add(
            lines,
            lang,
            f"If {lead} is not dealt, the holder of {nxt} leads (then {then}, and so on up the suit,"
            " then the lowest spade, heart, club, diamond)",
            f"若 {lead} 不在任何人手里，则由持 {nxt} 的人先出（再没有则 {then}，依次往上，"
            "再按黑桃、红桃、梅花、方块最小的牌）",
        )
    if p.lead.must_contain and fallback:
        _add(
            lines,
            lang,
            f"The first play must contain {lead}, or the card that chose the leader in its place",
            f"第一手必须带 {lead}；{lead} 不在时，必须带决定先出的那张牌",
        )
    elif p.lead.must_contain:
        _add(lines, lang, f"The first play must contain {lead}", f"第一手必须带 {lead}")
    else:
        _add(lines, lang, "The first play may be any combination", "第一手可以出任何牌型")
    if p.lead.winner_leads:
        _add(
            lines,
            lang,
            "From the second deal of a match on, the last deal's winner leads, with any play",
            "从第二局起，由上一局的赢家先出，可出任意牌型",
        )
    return lines


def _chain_ranks(p: Profile, lang: Lang, low: str = "A2345", wrap: str = "K-A-2-3") -> str:
    """The ranks a chain may use; where A and 2 may sit below 3, an example of that chain
    kind (``low``: A2345 for a straight, AA2233 for pairs) and one that may not (``wrap``)."""
    c = p.combinations
    ranks = c.chain_rank_indexes
    text = f"{_rank(ranks[0], lang)}..{_rank(ranks[-1], lang)}"
    if c.low_ace_two:
        text += _pick(
            (
                f" (A and 2 may also sit below 3, as in {low}, but never {wrap})",
                f"（A、2 可接在 3 下面当小牌，如 {low}，但不能 {wrap}）",
            ),
            lang,
        )
    return text


def _combos(p: Profile, lang: Lang) -> list[str]:
    c = p.combinations
    present = [r for r in range(15) if p.rank_totals[r]]
    order = " ".join(_rank(r, lang) for r in present)
    flush = c.straight_flush != "none" or "straight_flush" in p.bomb_kinds
    suits: Pair = (
        ("suits matter only to make a straight flush", "花色只在组成同花顺时有用，不比大小")
        if flush
        else ("suits never matter", "花色不比大小")
    )
    lines = [
        _pick((f"Ranks, low to high: {order}; {suits[0]}", f"点数从小到大：{order}；{suits[1]}"), lang),
        _pick(("Single: any one card", "单张：任意一张"), lang),
        _pick(("Pair: two cards of one rank", "对子：两张同点"), lang),
    ]
    if p.deck.jokers and p.deck.packs > 1:
        _add(lines, lang, "Two small or two big jokers are a pair", "两张小王或两张大王也算对子")
    chains = _chain_ranks(p, lang)
    if c.straight.enabled:
        _add(
            lines,
            lang,
            f"Straight: {c.straight.min_length} or more consecutive ranks within {chains}",
            f"顺子：{c.straight.min_length} 张或以上连续单张，范围 {chains}",
        )
    else:
        _add(lines, lang, "No straights", "不能出顺子")
    if c.straight_flush == "beats_straights":
        _add(
            lines,
            lang,
            "Straight flush: a straight all of one suit beats any plain straight of its length",
            "同花顺：同一花色的顺子，大于同样张数的任何杂色顺子",
        )
    if c.pair_chain.enabled:
        pairs = _chain_ranks(p, lang, "AA2233", "KK-AA-22-33")
        _add(
            lines,
            lang,
            f"Pair chain: {c.pair_chain.min_length} or more consecutive pairs within {pairs}",
            f"连对：{c.pair_chain.min_length} 对或以上连续对子，范围 {pairs}",
        )
    else:
        _add(lines, lang, "No pair chains", "不能出连对")
    t = c.trio
    low = t.kickers if t.min_kickers is None else t.min_kickers
    if t.kickers == 0:
        _add(lines, lang, "Trio: three cards of one rank, alone", "三张：三张同点，不带牌")
    else:
        kick = _kickers(t.kickers, low, t.kicker_kind, t.bare, lang)
        name = (
            "三带二" if t.kickers == 2 and low == 2 else ("三带一" if t.kickers == 1 and low == 1 else "三带")
        )
        _add(lines, lang, f"Trio: three of one rank with {kick}", f"{name}：三张同点带{_gap(kick)}{kick}")
    if t.follow_same_kickers and len(t.counts) > 1:
        _add(
            lines,
            lang,
            "A trio is followed only by a trio with as many kickers (3+N against 3+N)",
            "接三张时必须按上家的 3+N 接（带牌张数相同）",
        )
    pl = c.plane
    if pl.enabled:
        trios = _chain_ranks(p, lang, "AAA222", "KKK-AAA-222")
        body = _pick(
            (
                f"{pl.min_length} or more consecutive trios within {trios}",
                f"{pl.min_length} 组或以上连续三张，范围 {trios}",
            ),
            lang,
        )
        if pl.kickers_per_trio:
            wings = _kickers(pl.kickers_per_trio, pl.low, pl.kicker_kind, pl.bare, lang)
            _add(
                lines,
                lang,
                f"Plane: {body}, each trio carrying {wings}",
                f"飞机：{body}，每组带{_gap(wings)}{wings}",
            )
        else:
            _add(lines, lang, f"Trio chain: {body}", f"三顺：{body}")
        if pl.follow_same_kickers and pl.low < pl.kickers_per_trio:
            _add(
                lines, lang, "A plane is followed by a plane with as many kickers", "接飞机时带牌张数必须相同"
            )
    else:
        _add(lines, lang, "No planes", "不能出飞机")
    short_trio = p.rules.short_last_hand and any(k not in t.counts for k in range(t.counts[-1]))
    short_plane = p.rules.short_last_hand and pl.enabled and pl.kickers_per_trio > 0 and pl.low > 0
    if short_trio and short_plane:
        _add(
            lines,
            lang,
            "A last hand may be a trio or plane with fewer kickers; it compares as the full form",
            "最后一手可以少带或不带，按完整的牌型比较",
        )
    elif short_trio:
        _add(
            lines,
            lang,
            "A last hand may be a trio with fewer kickers; it compares as the full form",
            "最后一手三张可以少带或不带，按完整的牌型比较",
        )
    elif short_plane:
        _add(
            lines,
            lang,
            f"A last hand may be a plane with fewer than {pl.low} kicker(s) per trio; it compares as a"
            f" plane with {pl.kickers_per_trio} per trio. A trio's last hand reads as the 3+N it is",
            f"最后一手飞机可以每组少于 {pl.low} 张带牌，按每组带 {pl.kickers_per_trio} 张比较；"
            "三张最后一手按实际的 3+N 比较",
        )
    if not p.rules.short_last_hand and not t.bare:
        _add(
            lines,
            lang,
            "A trio always needs its kickers, even as the last hand",
            "三张必须带满，最后一手也一样",
        )
    fw = c.four_with
    if fw.enabled:
        rng = (
            f"{fw.min_kickers}-{fw.max_kickers}" if fw.min_kickers != fw.max_kickers else str(fw.min_kickers)
        )
        _add(
            lines,
            lang,
            f"Four with kickers: four of a rank with {rng} cards is an ordinary play, not a bomb",
            f"四带：四张同点带 {rng} 张，是普通牌型，不算炸弹",
        )
    _add(
        lines,
        lang,
        "To follow: the same combination, the same number of cards, and higher",
        "跟牌须同牌型、同张数且更大",
    )
    return lines


def _bombs(p: Profile, lang: Lang) -> list[str]:
    b = p.bombs
    kinds = p.bomb_kinds
    if not kinds:
        return [_pick(("No bombs", "没有炸弹"), lang)]
    names: dict[str, Pair] = {
        "same_rank": (
            "four of a kind" if b.max_size == 4 else f"{b.min_size} to {b.max_size} cards of one rank",
            "四张同点" if b.max_size == 4 else f"{b.min_size} 到 {b.max_size} 张同点",
        ),
        "three_aces": ("three aces", "三个 A"),
        "joker_pair": ("the joker bomb (both jokers)", "王炸（大王 + 小王）"),
        "four_jokers": ("four jokers 天王炸", "天王炸（四张王）"),
        "straight_flush": ("a straight flush", "同花顺"),
    }
    lines: list[str] = []
    order = " < ".join(_pick(names[k], lang) for k in kinds)
    if len(kinds) == 1:
        _add(lines, lang, f"Bombs: {order}", f"炸弹：{order}")
    else:
        _add(lines, lang, f"Bombs, weakest first: {order}", f"炸弹从小到大：{order}")
    _add(lines, lang, "A bomb beats any play that is not a bomb", "炸弹可以压任何非炸弹牌型")
    if b.four:
        if b.more_cards_beat_fewer:
            _add(
                lines,
                lang,
                "Between these bombs, more cards beat fewer; with as many cards, the higher rank wins",
                "这些炸弹之间，张数多的大；张数相同时比点数",
            )
        else:
            _add(lines, lang, "Same-rank bombs compare by rank", "同点炸弹比点数")
        if b.unbreakable:
            jokers_apart: Pair = (
                ("; the jokers may still be played apart", "；大小王可以拆开单出")
                if b.joker_pair or b.four_jokers
                else ("", "")
            )
            aces: Pair = (" (and three aces)", "（以及三个 A）") if b.three_aces else ("", "")
            _add(
                lines,
                lang,
                f"Same-rank bombs{aces[0]} are unbreakable: while you hold one, its cards go out"
                f" only together{jokers_apart[0]}",
                f"同点炸弹{aces[1]}不能拆：手里有这样的炸弹时，这些牌只能一起打出{jokers_apart[1]}",
            )
    if p.deck.jokers and not b.joker_pair and not b.four_jokers:
        _add(lines, lang, "The jokers are only the two highest singles", "大小王只是最大的单张，不能当炸弹")
    return lines


def _play(p: Profile, lang: Lang) -> list[str]:
    r = p.rules
    lines: list[str] = []
    if r.must_beat:
        _add(
            lines,
            lang,
            "Must beat (有牌必压): if you can beat the play, you may not pass",
            "有牌必压：能压过上家就不能不出",
        )
    else:
        _add(lines, lang, "You may always pass, even when you could beat", "随时可以不要，即使压得过")
    _add(lines, lang, "The leader of a trick cannot pass", "起头的人不能不出")
    if r.bao_dan_highest_single:
        _add(
            lines,
            lang,
            "报单: when your next player holds one card, a single you play must be your highest",
            "报单：下家只剩一张时，你出单张必须出最大的",
        )
    if r.bao_pei:
        _add(
            lines,
            lang,
            "包赔: when your next player holds one card you may play a lower single, but if that"
            " player then goes out, you pay every loser's card payment",
            "包赔：下家报单时你可以不出最大单张，但若因此放走下家，你要包赔所有输家的分",
        )
    if p.end == "first_out":
        _add(lines, lang, "The deal ends as soon as one player is out", "有人出完牌，本局立即结束")
    else:
        _add(
            lines,
            lang,
            "Play goes on after a player is out until only one player holds cards;"
            " a trick left by a player who went out is led by the next player still in",
            "有人出完后其余玩家继续，直到只剩一人；出完者的那一轮无人接时由其下家起头",
        )
    return lines


def _scoring(p: Profile, lang: Lang) -> list[str]:
    s = p.settlement
    lines: list[str] = []
    if s.scheme == "placement":
        zh_names = [*["头游", "二游", "三游"][: p.players - 1], "末游"]
        en_names = [*["1st", "2nd", "3rd"][: p.players - 1], "last"]
        names = zh_names if lang == "zh" else en_names
        pts = ", ".join(f"{names[i]} {v:+d}" for i, v in enumerate(s.placement_points))
        _add(lines, lang, f"Points by finishing place: {pts}", f"按名次计分：{pts}")
        if s.first_out_bonus:
            cond: Pair = (
                ("", "")
                if s.first_out_bonus_if == "always"
                else (" when nobody else had played a card", "（其他人一张都没出时）")
            )
            _add(
                lines,
                lang,
                f"The first out gets {s.first_out_bonus} extra{cond[0]}",
                f"头游额外得 {s.first_out_bonus} 分{cond[1]}",
            )
    else:
        _add(
            lines,
            lang,
            f"Each loser pays the winner {s.per_card} per card left",
            f"每个输家按剩牌张数付给赢家，每张 {s.per_card} 分",
        )
        _add(
            lines,
            lang,
            f"全关: a loser who never played a card pays x{s.shut_out_multiplier}",
            f"全关：一张没出的输家付 {s.shut_out_multiplier} 倍",
        )
        if s.reverse_spring_multiplier > 1:
            _add(
                lines,
                lang,
                f"反春: a losing first leader who played only in the opening trick pays"
                f" x{s.reverse_spring_multiplier}",
                f"反春：先出的人若只在第一轮出过牌就输了，付 {s.reverse_spring_multiplier} 倍",
            )
        for g in sorted(s.graded, key=lambda g: g.played_under):
            frac = str(Fraction(g.played_under).limit_denominator(100))
            _add(
                lines,
                lang,
                f"A loser who played fewer than {frac} of their hand pays x{g.multiplier}",
                f"出牌不到手牌的 {frac}，付 {g.multiplier} 倍",
            )
        if s.one_card_exempt:
            _add(
                lines,
                lang,
                "A loser left with one card (报单) pays nothing",
                "报单（只剩一张）的输家不计输赢分",
            )
    if s.bomb_bonus:
        when: Pair = (
            ("a bomb that ends its trick unbeaten (or goes out)", "收轮炸弹（打出后无人压过，或用炸弹出完）")
            if s.bomb_bonus_when == "trick_won"
            else ("every bomb played", "每打出一个炸弹")
        )
        who: Pair = (
            (f"collects {s.bomb_bonus} from each other player", f"向其他每家各收 {s.bomb_bonus} 分")
            if s.bomb_bonus_paid_by == "each_other"
            else (f"scores {s.bomb_bonus} extra for its player", f"出炸弹的人额外得 {s.bomb_bonus} 分")
        )
        _add(lines, lang, f"Bombs: {when[0]} {who[0]}", f"炸弹：{when[1]}，{who[1]}")
    if s.bomb_doubling:
        _add(lines, lang, "Every bomb played doubles the deal's score", "每出一个炸弹，本局分数翻倍")
    lines.append(
        _pick(("The scores sum to zero", "各家分数总和为零"), lang)
        if s.zero_sum
        else _pick(
            ("Bonuses are credits: the scores need not sum to zero", "奖励分另加，总分不一定为零"), lang
        )
    )
    return lines


def reason_text(key: str, params: dict[str, int | str], lang: Lang) -> str:
    """A reason given as a message key and parameters (a hint's, a table message's) in
    ``lang``: ``rank``/``high`` parameters are rank indexes, ``group`` a group name."""
    said: dict[str, object] = dict(params)
    for name in ("rank", "high"):
        value = params.get(name)
        if isinstance(value, int):
            said[name] = _rank(value, lang)
    group = params.get("group")
    if isinstance(group, str):
        said["group"] = tr(f"hint_group_{group}", lang)
    return tr(key, lang, **said)
