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
    "hint_why_keeps": ("keeps your {group} of {rank}s whole", "不拆你的{group} {rank}"),
    "hint_why_lowest_beat": ("the lowest play that beats it", "能压过的最小牌"),
    "hint_why_higher": ("beats it higher, with your {rank}", "用 {rank} 压，更大一些"),
    "hint_why_other_kickers": ("the same {rank}s with other kickers", "同样的 {rank}，换别的带牌"),
    "hint_why_lead_other": ("another lead that keeps your groups whole", "另一种不拆牌的出法"),
    "hint_why_lowest_lead": ("sheds your lowest cards, keeps the rest whole", "先出小牌，不拆牌型"),
    "hint_group_pair": ("pair", "一对"),
    "hint_group_trio": ("trio", "三张"),
    "hint_group_four": ("four", "四张"),
}
