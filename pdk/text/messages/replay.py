"""Messages of ``replay`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "rp_err_jsonl": (
        "{path}: holds {n} games, one per line: pick one with --game K (1-{n})",
        "{path}：包含 {n} 局（每行一局），请用 --game K 选择（1-{n}）",
    ),
    "rp_err_bot": ("unknown bot {name!r} (known: {known})", "没有名为 {name!r} 的 AI（可选：{known}）"),
    "rp_err_seat": ("--as must be a seat from 0 to {last}", "--as 必须是 0 到 {last} 之间的座位"),
    "rp_err_invalid": (
        "{path}: not a valid pdk record: a field has the wrong type or shape",
        "{path}：不是有效的 pdk 牌谱：某个字段的类型或结构不对",
    ),
    "rp_check_ok": ("ok: {path}: {n} plays, {who} wins", "通过：{path}：共 {n} 手，{who} 获胜"),
    "rp_check_unfinished": (
        "ok: {path}: {n} plays, the deal is not finished",
        "通过：{path}：共 {n} 手，本局未结束",
    ),
    "rp_game_k": ("game {k}", "第 {k} 局"),
    "rp_check_games": ("ok: {path}: {n} games, every play legal", "通过：{path}：共 {n} 局，每手都合法"),
    "rp_err_export": (
        "--export {fmt!r}: choose txt or json",
        "--export {fmt!r}：可选 txt 或 json",
    ),
}
