"""Messages of ``replay_view`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "rp_seat": ("seat {seat}", "座位 {seat}"),
    "rp_header": (
        "{source} · {variant} · seed {seed} · play {i}/{n}",
        "{source} · {variant} · 种子 {seed} · 第 {i}/{n} 手",
    ),
    "rp_to_move": ("to move", "出牌"),
    "rp_leads": ("leads", "首出"),
    "rp_cards_left": ("{n} cards", "{n} 张"),
    "rp_cards_left_1": ("1 card", "1 张"),
    "rp_bao_dan": ("报单", "报单"),
    "rp_hidden": ("(hidden)", "（暗牌）"),
    "rp_out": ("out!", "出完！"),
    "rp_bombs_stood": ("bomb ×{n}", "收轮炸弹 ×{n}"),
    "rp_trick": ("Trick", "本轮"),
    "rp_trick_empty": ("— {who} leads a new trick", "— {who} 领出新一轮"),
    "rp_pass": ("pass", "不出"),
    "rp_last": ("Last play", "上一手"),
    "rp_start": ("the deal: {who} holds the lead card and leads", "开局：{who} 持首出牌，先出"),
    "rp_counter": ("Card counter", "记牌器"),
    "rp_counter_all": ("cards still in hands", "手中剩余"),
    "rp_counter_seat": ("cards {who} cannot see", "{who} 看不到的牌"),
    "rp_settlement": ("Settlement — {who} wins", "结算 — {who} 获胜"),
    "rp_explain_title": (
        "What {bot} would play here ({who} to move)",
        "{bot} 在此处的选择（{who} 出牌）",
    ),
    "rp_explain_bot": ("{bot} plays: {play}", "{bot} 出：{play}"),
    "rp_bot_raised": (
        "the bot {bot} raised {error} when asked about play {step}",
        "AI {bot} 在第 {step} 手出错：{error}",
    ),
    "rp_bot_illegal": (
        "the bot {bot} chose {play} at play {step}, which is not a legal play there",
        "AI {bot} 在第 {step} 手选了 {play}，这不是合法出法",
    ),
    "rp_explain_actual": ("the record plays: {play}", "实际出牌：{play}"),
    "rp_explain_legal": ("legal plays ({n}):", "合法出牌（{n} 种）："),
    "rp_explain_more": ("… and {n} more", "… 另有 {n} 种"),
    "rp_explain_pass_ok": ("passing is allowed", "可以不出"),
    "rp_explain_hidden": (
        "explain shows only {who}'s turns in this view",
        "此视角只分析 {who} 的出牌",
    ),
    "rp_explain_over": ("the deal is over", "本局已结束"),
    "rp_keys": (
        "n/→ next · p/← previous · g jump to play · f first · l last · e explain · v view ·"
        " t play on from here · q quit",
        "n/→ 下一手 · p/← 上一手 · g 跳到第几手 · f 开头 · l 结尾 · e 分析 · v 视角 ·"
        " t 从这里接着打 · q 退出",
    ),
    "rp_practice_not_here": (
        "t plays on from a play of seat 0's (you, in pdk play): step to one, then press t.",
        "t 从 0 号座位（pdk play 里的你）的出牌接着打：先走到那一手，再按 t。",
    ),
    "rp_jump_prompt": ("jump to play (0-{n}): ", "跳到第几手（0-{n}）："),
    "rp_bad_jump": ("not a play number: {text}", "不是有效的手数：{text}"),
    "rp_tr_title": ("Game record · {variant} · seed {seed}", "牌谱 · {variant} · 种子 {seed}"),
    "rp_tr_deal": ("The deal:", "发牌："),
    "rp_tr_trick": ("Trick {n}, led by {who}", "第 {n} 轮，{who} 领出"),
    "rp_tr_trick_won": ("  → {who} wins the trick", "  → {who} 收下这一轮"),
    "rp_tr_bomb_each": (
        "  → {who}'s bomb stands: {pts} from each other player",
        "  → {who}的炸弹收轮：其他每家各付 {pts} 分",
    ),
    "rp_tr_bomb_each_played": (
        "  → {who}'s bomb scores: {pts} from each other player",
        "  → {who}的炸弹得分：其他每家各付 {pts} 分",
    ),
    "rp_tr_bomb_credit": (
        "  → {who}'s bomb stands: +{pts} to {who}, nobody pays",
        "  → {who}的炸弹收轮：{who}另得 {pts} 分，无人付分",
    ),
    "rp_tr_bomb_credit_played": (
        "  → {who}'s bomb counts: +{pts} to {who}, nobody pays",
        "  → {who}的炸弹计分：{who}另得 {pts} 分，无人付分",
    ),
    "rp_tr_bao_dan": ("  ! {who} 报单 (one card left)", "  ! {who} 报单（只剩一张）"),
    "rp_tr_out": ("  ★ {who} is out and wins", "  ★ {who} 出完获胜"),
    "rp_tr_out_place": ("  ★ {who} is out: place {place}", "  ★ {who} 出完：第 {place} 名"),
    "rp_tr_unfinished": ("The record ends before the deal is over.", "牌谱在本局结束前中止。"),
    "rp_tr_bot_differs": ("      ({bot} would play {play})", "      （{bot} 会出 {play}）"),
}
