"""Messages of ``selfplay`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "sp_unknown_bot": (
        "unknown bot {name!r} (known: {known})",
        "没有名为 {name!r} 的 AI（可选：{known}）",
    ),
    "sp_players_count": (
        "--players needs {n} names (one per seat) or one name for every seat, got {got}",
        "--players 需要 {n} 个名字（每个座位一个），或一个名字用于所有座位，实际给了 {got} 个",
    ),
    "sp_out_error": ("cannot write {path}: {reason}", "无法写入 {path}：{reason}"),
    "sp_progress": ("playing", "对局中"),
    "sp_title_seats": ("Per seat ({n} deals, arrangement as given)", "按座位（{n} 局，给定的座次）"),
    "sp_title_bots": (
        "Per bot, pooled over every seat it sat in",
        "按 AI 汇总（它坐过的所有座位）",
    ),
    "sp_col_seat": ("seat", "座位"),
    "sp_col_bot": ("bot", "AI"),
    "sp_col_deals": ("deals", "局数"),
    "sp_col_wins": ("wins", "胜局"),
    "sp_col_win_rate": ("win %", "胜率"),
    "sp_col_score": ("score", "均分"),
    "sp_col_ci": ("95% CI", "95% 区间"),
    "sp_col_bombs": ("bombs", "炸弹"),
    "sp_col_shut_out": ("全关", "被全关"),
    "sp_col_plays": ("plays", "出牌"),
    "sp_legend": (
        "score: mean points per deal; 95% CI: its confidence interval; bombs: bombs played; "
        "全关: deals shut out; plays: plays per deal",
        "均分：每局平均得分；95% 区间：其置信区间；炸弹：打出的炸弹数；"
        "被全关：被全关的局数；出牌：每局出牌次数",
    ),
    "sp_footer": (
        "{played} in {secs:.1f} s: {rate:.1f} deals/s · variant {variant} · seed {seed} · workers {workers}",
        "{played}，用时 {secs:.1f} 秒：每秒 {rate:.1f} 局 · 规则 {variant} · 种子 {seed} · 进程 {workers}",
    ),
    "sp_played": ("{games} deals", "共 {games} 局"),
    "sp_played_dup": (
        "{deals} deals × {arr} seat arrangements = {games} games",
        "{deals} 副牌 × {arr} 种座次 = 共 {games} 局（复式）",
    ),
    "sp_interrupted": (
        "interrupted: summary of the {done} of {planned} games finished",
        "已中断：以下是已完成的 {done}/{planned} 局的统计",
    ),
    "sp_records": ("{n} records written to {path}", "已将 {n} 局棋谱写入 {path}"),
    "elo_line": (
        "Elo {a} vs {b}: {elo} ± {err} (95%), LOS {los:.1f}% · deals won/drawn/lost {w}/{d}/{l}",
        "Elo {a} 对 {b}：{elo} ± {err}（95%），LOS {los:.1f}% · 胜/平/负（按副）{w}/{d}/{l}",
    ),
    "sprt_h1": (
        "SPRT: H1 accepted (elo >= {elo1}) after {n} deals: LLR {llr:.2f} >= {hi:.2f}",
        "SPRT：{n} 副后接受 H1（elo >= {elo1}）：LLR {llr:.2f} >= {hi:.2f}",
    ),
    "sprt_h0": (
        "SPRT: H0 accepted (elo <= {elo0}) after {n} deals: LLR {llr:.2f} <= {lo:.2f}",
        "SPRT：{n} 副后接受 H0（elo <= {elo0}）：LLR {llr:.2f} <= {lo:.2f}",
    ),
    "sprt_open": (
        "SPRT: undecided after {n} deals: LLR {llr:.2f} in ({lo:.2f}, {hi:.2f})",
        "SPRT：{n} 副后尚无结论：LLR {llr:.2f} 在 ({lo:.2f}, {hi:.2f}) 之间",
    ),
    "sprt_needs_two": (
        "--sprt needs exactly two different bots and --duplicate",
        "--sprt 需要恰好两个不同的 AI，并加上 --duplicate",
    ),
    "sprt_bad": (
        "--sprt {text!r}: give elo0,elo1 or elo0,elo1,alpha,beta "
        "with elo0 < elo1 and alpha, beta in (0, 0.5)",
        "--sprt {text!r}：应为 elo0,elo1 或 elo0,elo1,alpha,beta，"
        "且 elo0 < elo1，alpha、beta 在 (0, 0.5) 之间",
    ),
}
