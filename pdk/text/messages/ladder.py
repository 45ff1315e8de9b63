"""Messages of ``pdk ladder`` in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "ladder_cannot_read": ("ladder {path}: cannot read it: {detail}", "排行榜 {path}：无法读取：{detail}"),
    "ladder_not_ladder": ("ladder {path}: not a pdk ladder file", "排行榜 {path}：不是 pdk 排行榜文件"),
    "ladder_cannot_write": ("ladder {path}: cannot write it: {reason}", "排行榜 {path}：无法写入：{reason}"),
    "ladder_duplicate": ("{name} is already on the ladder", "{name} 已在排行榜上"),
    "ladder_too_few": (
        "the ladder needs at least {n} bots to seat a table (it has {have}); add some with pdk ladder add",
        "排行榜至少需要 {n} 个 AI 才能开一桌（现有 {have} 个）；用 pdk ladder add 添加",
    ),
    "ladder_unknown": ("no bot named {name} on the ladder", "排行榜上没有名为 {name} 的 AI"),
    "ladder_added": ("{name} is on the ladder (bots on it: {n})", "{name} 已加入排行榜（共 {n} 个 AI）"),
    "ladder_ran": ("{n} deals rated ({total} in all)", "本次评了 {n} 副牌（累计 {total} 副）"),
    "ladder_empty": ("the ladder is empty: pdk ladder add BOT", "排行榜是空的：pdk ladder add BOT"),
    "ladder_title": ("Ladder · {variant} · {n} deals", "排行榜 · {variant} · {n} 副牌"),
    "ladder_col_rank": ("#", "#"),
    "ladder_col_bot": ("bot", "AI"),
    "ladder_col_rating": ("rating", "评分"),
    "ladder_col_range": ("95%", "95%"),
    "ladder_col_ordinal": ("μ−3σ", "μ−3σ"),
    "ladder_col_deals": ("deals", "副数"),
    "ladder_col_version": ("pdk", "pdk"),
    "ladder_legend": (
        "rating: openskill Plackett-Luce μ; 95%: ±1.96σ; ranked by μ−3σ (a rating held with confidence)",
        "评分：openskill Plackett-Luce μ；95%：±1.96σ；按 μ−3σ 排名（有把握的评分）",
    ),
}
