"""Messages of ``combos`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "kind_trio": ("trio", "三张"),
    "kind_last_hand": ("{kind}, the last hand", "{kind}（最后一手）"),
    "kind_plane_short": ("plane with fewer wings", "飞机少带"),
    "kind_trio_with_one": ("trio with one", "三带一"),
    "kind_trio_chain": ("trio chain", "三顺"),
    "kind_four_with": ("four with kickers", "四带"),
    "kind_straight_flush": ("straight flush", "同花顺"),
}
