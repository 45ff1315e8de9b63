"""Messages of ``session`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "save_err_cannot_read": ("cannot read: {detail}", "无法读取：{detail}"),
    "save_err_json": (
        "invalid JSON at line {line} column {col}",
        "JSON 格式错误（第 {line} 行第 {col} 列）",
    ),
    "save_err_not_save": ("not a pdk save", "不是 pdk 存档"),
    "save_err_version": ("unsupported save version {v}", "不支持的存档版本 {v}"),
    "save_err_session_missing": ("the session is missing", "缺少对局信息"),
    "save_err_field": (
        "session.{field} is missing or not a {kind}",
        "session.{field} 缺失或不是 {kind} 类型",
    ),
    "save_err_deal": ("saved deal: {detail}", "存档中的牌局：{detail}"),
    "save_err_totals": (
        "the running totals do not match the number of players",
        "累计得分与玩家人数不符",
    ),
    "save_err_slots_busy": (
        "{n} games are already running in {path}",
        "{path} 中已有 {n} 局对局在进行",
    ),
}
