"""Messages of ``match`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "match_game_failed": (
        "game {game} (deal seed {seed}, {bots}) failed: {error}",
        "第 {game} 局（牌种子 {seed}，{bots}）出错：{error}",
    ),
    "match_bot_raised": (
        "bot {bot} raised {error} in game {game} (deal seed {seed}, seat {seat})",
        "AI {bot} 在第 {game} 局（牌种子 {seed}，座位 {seat}）出错：{error}",
    ),
    "match_bot_illegal": (
        "bot {bot} made an illegal move in game {game} (deal seed {seed}, seat {seat}): "
        "{move} is not one of its {n} legal plays",
        "AI {bot} 在第 {game} 局（牌种子 {seed}，座位 {seat}）出了不合法的牌：{move} "
        "不在它的 {n} 种合法出法之中",
    ),
    "match_bot_illegal_pass": (
        "bot {bot} made an illegal move in game {game} (deal seed {seed}, seat {seat}): "
        "it passed, but must play (it has {n} legal plays)",
        "AI {bot} 在第 {game} 局（牌种子 {seed}，座位 {seat}）出了不合法的牌：它选择不出，"
        "但必须出牌（它有 {n} 种合法出法）",
    ),
    "match_bot_broken": (
        "game {game} (deal seed {seed}, seat {seat}): {cause}",
        "第 {game} 局（牌种子 {seed}，座位 {seat}）：{cause}",
    ),
}
