"""Messages of ``cards`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "card_unknown": (
        "unknown card {char!r} at position {pos} in {text!r} "
        "(ranks are 3-9 T/10 J Q K A 2 B R, suits s h c d)",
        "无法识别的牌 {char!r}（{text!r} 的第 {pos} 个字符；点数为 3-9 T/10 J Q K A 2 B R，花色为 s h c d）",
    ),
    "card_none": ("no cards in {text!r}", "{text!r} 里没有牌"),
    "card_not_available": (
        "not enough cards: {card} is not available in the {place}",
        "牌不够：{place}中没有 {card}",
    ),
    "card_place_hand": ("hand", "手牌"),
    "card_place_deck": ("deck", "这副牌"),
    "card_place_outside_hand": ("deck outside your hand", "你手牌以外的牌"),
}
