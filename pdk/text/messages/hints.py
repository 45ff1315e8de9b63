"""Why a hint is offered (``pdk.bots.hints`` reasons), in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "hint_why_out": ("plays out your hand", "一手出完"),
    "hint_why_bao_dan": (
        "your highest single: the next player has one card (报单)",
        "下家报单，单张只能出最大的",
    ),
    "hint_why_premium_spent": (
        "spends your {rank}: keep it unless the cheaper hints won't do",
        "要用掉你的 {rank}，便宜的提示不行时再用",
    ),
    "hint_why_premium_only": ("only your {rank} beats it", "只有 {rank} 能压过"),
    "hint_why_breaks": (
        "breaks your {group} of {rank}s: nothing whole beats it",
        "要拆你的{group} {rank}，没有不拆牌的压法",
    ),
    "hint_why_breaks_anyway": ("breaks your {group} of {rank}s", "拆了你的{group} {rank}"),
    "hint_why_lead_whole": ("leads {cards}, keeps every group whole", "出 {cards}，不拆任何牌型"),
    "hint_now_bomb_kept": ("keeps your bomb of {rank}s", "留着 {rank} 的炸弹"),
    "hint_now_bao_dan_other": ("the next player has one card: no single to give", "下家报单，不出单张"),
    "hint_now_last_card": ("leaves you one card (报单)", "出完只剩一张（报单）"),
    "hint_now_best": ("the search's best of {n} plays here", "搜索在 {n} 种出法中评它最好"),
    "hint_now_pass_better": ("though passing rates higher still", "不过这里不出更好"),
    "hint_now_even": (
        "the search cannot tell it from hint 1 ({deals} deals)",
        "{deals} 局模拟分不出它和提示 1 的高下",
    ),
    "hint_now_worse": ("about {loss} points below hint 1", "比提示 1 少约 {loss} 分"),
    "hint_join": ("{a}; {b}", "{a}；{b}"),
    "hint_why_keeps": ("keeps your {group} of {rank}s whole", "不拆你的{group} {rank}"),
    "hint_why_lowest_beat": ("the lowest play that beats it", "能压过的最小牌"),
    "hint_why_higher": ("beats it higher, with your {rank}", "用 {rank} 压，更大一些"),
    "hint_why_lowest_lead": ("sheds your lowest cards, keeps the rest whole", "先出小牌，不拆牌型"),
    "hint_group_pair": ("pair", "一对"),
    "hint_group_trio": ("trio", "三张"),
    "hint_group_four": ("four", "四张"),
}
