"""Messages of ``record`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "rpe_in_file": ("{path}: {detail}", "{path}: {detail}"),
    "rpe_no_file": ("no such file", "文件不存在"),
    "rpe_cannot_read": ("cannot read: {detail}", "无法读取：{detail}"),
    "rpe_no_game": ("no game {k} (the file holds {n})", "没有第 {k} 局（文件共 {n} 局）"),
    "rpe_json": ("invalid JSON at line {line} column {col}", "JSON 格式错误（第 {line} 行第 {col} 列）"),
    "rpe_not_record": ("not a pdk game record", "不是 pdk 牌谱"),
    "rpe_version": (
        "unsupported record version {v} (this pdk reads {r})",
        "不支持的牌谱版本 {v}（本程序读取版本 {r}）",
    ),
    # The profile's own message names the bad field (English field paths).
    "rpe_profile": ("{detail}", "牌谱：{detail}"),  # detail: the ProfileError, in the same language
    "rpe_deal_missing": ("the deal is missing", "缺少发牌信息"),
    "rpe_deal_hand": ("deal: {detail} (hand {hand})", "发牌信息有误：座位 {hand} 的手牌：{detail}"),
    "rpe_deal_bad": ("deal: {detail}", "发牌信息有误：{detail}"),
    "rpe_deal_sizes": (
        "deal: the hands do not match the profile's players and hand size",
        "发牌信息有误：手牌与规则配置的人数或每人张数不符",
    ),
    "rpe_deal_leader": (
        "deal: seat {seat} cannot lead, seat {leader} holds the lead card",
        "发牌信息有误：座位 {seat} 不能首家出牌，首出的牌在座位 {leader} 手里",
    ),
    "rpe_plays_missing": ("the plays are missing", "缺少出牌记录"),
    "rpe_malformed": ("move {n}: malformed entry", "第 {n} 手：记录格式错误"),
    "rpe_move_bad": ("move {n}: {detail}", "第 {n} 手：{detail}"),
    "rpe_over": ("move {n}: the deal was already over", "第 {n} 手：本局已经结束"),
    "rpe_turn": (
        "move {n}: seat {seat} played out of turn (seat {turn} to move)",
        "第 {n} 手：座位 {seat} 不该出牌（应由座位 {turn} 出牌）",
    ),
    "rpe_illegal": ("move {n}: illegal: {reason}", "第 {n} 手不合法：{reason}"),
    "rpe_kind": (
        "move {n}: recorded as {kind} but the cards read as {actual}",
        "第 {n} 手：记录的牌型是 {kind}，但这些牌是 {actual}",
    ),
    "rpe_unfinished": (
        "record ends after move {n} but the deal is not over",
        "牌谱在第 {n} 手后结束，但本局尚未结束",
    ),
    "rpe_settlement": (
        "the settlement {got} does not match the plays (it is {want})",
        "结算 {got} 与出牌记录不符（应为 {want}）",
    ),
}
