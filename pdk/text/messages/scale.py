"""Messages of the match harness at scale (issue 15): plug-in time limits, backends, the
RL environment, in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "match_bot_timeout": (
        "bot {bot} took longer than {limit}s over move {move} of game {game} "
        "(deal {deal}, deal seed {seed}, seat {seat}); see --move-timeout",
        "AI {bot} 在第 {game} 局（第 {deal} 副牌，牌种子 {seed}，座位 {seat}）的第 {move} 手"
        "思考超过 {limit} 秒；见 --move-timeout",
    ),
    "sp_unknown_backend": (
        "unknown backend {name!r}: use one of {known}",
        "未知的后端 {name!r}：可用 {known}",
    ),
    "sp_address_needs_ray": (
        "--address is for --backend ray",
        "--address 只用于 --backend ray",
    ),
    "sp_ray_missing": (
        "the ray backend needs Ray: pip install 'pdk[ray]'",
        "ray 后端需要 Ray：pip install 'pdk[ray]'",
    ),
    "sp_ray_unreachable": (
        "cannot reach the Ray cluster at {address}: {error}",
        "无法连接 {address} 的 Ray 集群：{error}",
    ),
    "sp_plugin_unpicklable": (
        "the plug-in {spec} cannot be shipped to Ray workers (it does not pickle): {error}",
        "插件 {spec} 无法发送到 Ray 工作进程（不能序列化）：{error}",
    ),
    "sp_bad_timeout": (
        "--move-timeout must be a positive number of seconds, not {value}",
        "--move-timeout 必须是正的秒数，而不是 {value}",
    ),
}
