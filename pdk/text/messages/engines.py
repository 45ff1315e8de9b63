"""Messages of outside engines (``pdk.bots.protocol``, ``pdk.bots.external``, ``pdk engine``)
in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "eng_no_start": ("cannot start {command}: {reason}", "无法启动 {command}：{reason}"),
    "eng_no_hello": (
        "sent no hello within {limit}s of starting",
        "启动后 {limit} 秒内没有发来 hello",
    ),
    "eng_bad_hello": ("answered with {line}, not a hello", "回复的是 {line}，不是 hello"),
    "eng_version": (
        "speaks protocol version {got}; pdk speaks {want}",
        "使用协议版本 {got}，pdk 使用的是 {want}",
    ),
    "eng_crashed": ("exited (code {code})", "已退出（退出码 {code}）"),
    "eng_timeout": ("gave no answer within {limit}s", "{limit} 秒内没有回答"),
    "eng_garbage": ("answered {line}, not a move", "回答了 {line}，不是一步出牌"),
    "eng_too_long": (
        "wrote a line longer than {limit} bytes",
        "写了一行超过 {limit} 字节的内容",
    ),
    "eng_illegal": (
        "played {move}, which is not one of its {n} legal plays",
        "出了 {move}，不在它的 {n} 种合法出法之中",
    ),
    "eng_illegal_pass": (
        "passed, but must play (it has {n} legal plays)",
        "选择不出，但必须出牌（它有 {n} 种合法出法）",
    ),
    "eng_option": (
        "has no option {name} (it declares: {known})",
        "没有选项 {name}（它声明的选项：{known}）",
    ),
    "eng_named": ("engine {engine}: {error}", "引擎 {engine}：{error}"),
    "eng_empty_command": ("names no command to run (cmd:COMMAND)", "没有给出要运行的命令（cmd:命令）"),
    "eng_unknown": (
        "no engine named {name} in {path} (known: {known})",
        "{path} 中没有名为 {name} 的引擎（已有：{known}）",
    ),
    "eng_file": ("engines file {path}: {detail}", "引擎配置文件 {path}：{detail}"),
    "match_engine": (
        "engine {bot} failed over move {move} of game {game} (deal {deal}, deal seed {seed}, "
        "seat {seat}): {error}",
        "引擎 {bot} 在第 {game} 局第 {move} 步出错（第 {deal} 副牌，牌种子 {seed}，座位 {seat}）：{error}",
    ),
    "ec_hello": ("hello (version, name, options)", "hello（版本、名称、选项）"),
    "ec_options": ("setoption taken quietly", "setoption 不回话"),
    "ec_unknown": ("unknown message ignored", "忽略未知消息"),
    "ec_lead": ("lead", "首出"),
    "ec_follow": ("follow", "跟牌"),
    "ec_forced_pass": ("pass, nothing beats", "要不起，必须不出"),
    "ec_must_beat": ("must beat (may not pass)", "有牌必压（不能不出）"),
    "ec_bao_dan": ("next player 报单", "下家报单"),
    "ec_after_trick": ("lead after a trick won", "赢墩后首出"),
    "ec_profiles": ("whole deals, several profiles", "多种规则的整副牌"),
    "ec_short_time": ("answer within 200 ms", "200 毫秒内回答"),
    "ec_quit": ("quit: exits", "quit：退出"),
    "ec_col_check": ("check", "检查项"),
    "ec_col_asked": ("asked", "次数"),
    "ec_col_result": ("result", "结果"),
    "ec_ok": ("ok", "通过"),
    "ec_not_asked": ("not reached", "未覆盖"),
    "ec_mistakes": ("{n} mistakes", "{n} 处错误"),
    "ec_head": ("engine {engine} by {author}", "引擎 {engine}（作者 {author}）"),
    "ec_pass": (
        "conforms: {deals} deals, {decisions} decisions, slowest answer {ms:.1f} ms",
        "符合协议：{deals} 副牌，{decisions} 次决策，最慢回答 {ms:.1f} 毫秒",
    ),
    "ec_fail": (
        "does not conform ({deals} deals, {decisions} decisions, slowest answer {ms:.1f} ms)",
        "不符合协议（{deals} 副牌，{decisions} 次决策，最慢回答 {ms:.1f} 毫秒）",
    ),
}
