"""``pdk train``: its progress, its result and why it cannot run, in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "train_needs_torch": (
        "pdk train needs PyTorch, which is not installed: pip install 'pdk[train]'",
        "pdk train 需要 PyTorch，但它没有安装：pip install 'pdk[train]'",
    ),
    "train_players": (
        "pdk train learns tables of three or more players; {variant} has {players}",
        "pdk train 只训练三人或以上的牌桌；{variant} 是 {players} 人",
    ),
    "train_bad_method": (
        "unknown training method {method!r}: choose one of {methods}",
        "没有训练方法 {method!r}：可选 {methods}",
    ),
    "train_bad_continuation": (
        "unknown continuation {name!r}: choose one of {known}",
        "没有这种后续策略 {name!r}：可选 {known}",
    ),
    "train_continuation_method": (
        "--continuation is the advantage method's (the rollouts after each choice); {method} has none",
        "--continuation 属于 advantage 方法（每个选择之后的推演）；{method} 没有推演",
    ),
    "train_learned_needs_start": (
        "--continuation {name} needs --start FILE: the weights whose policy plays on (the last round's)",
        "--continuation {name} 需要 --start FILE：由其策略继续对局的权重（上一轮的）",
    ),
    "train_info": (
        "{path}: {profile}, round {round} ({continuation} continuation), parent {parent}; "
        "{games} deals, {hours} h, seed {seed}, commit {commit}; sha256 {sha}",
        "{path}：{profile}，第 {round} 轮（后续策略 {continuation}），父权重 {parent}；"
        "{games} 局，{hours} 小时，种子 {seed}，提交 {commit}；sha256 {sha}",
    ),
    "train_bad_number": ("{option} must be above zero, not {value}", "{option} 必须大于零，而不是 {value}"),
    "train_bad_checkpoint": ("cannot resume: {error}", "无法继续训练：{error}"),
    "train_bad_average": (
        "--average must be at least 0 and below 1 (0: no average), not {value}",
        "--average 必须不小于 0 且小于 1（0：不取平均），而不是 {value}",
    ),
    "train_bad_start": ("cannot start from those weights: {error}", "无法从这些权重开始：{error}"),
    "train_resumed": (
        "resuming from {path}: {games} deals, {minutes:.0f} min trained",
        "从 {path} 继续：已训练 {games} 局，{minutes:.0f} 分钟",
    ),
    "train_interrupted": (
        "interrupted: weights and checkpoint saved ({path}); run the same command to resume",
        "已中断：权重和检查点已保存（{path}）；再次运行同一命令即可继续",
    ),
    "train_io": ("cannot write the training files: {error}", "无法写入训练文件：{error}"),
    "train_progress": ("training {variant}", "训练 {variant}"),
    "train_eval": (
        "after {games} deals ({minutes} min): learned vs normal {mean:+.2f} a deal, {ci}, {win:.0%} wins "
        "over {deals} duplicate deals",
        "训练 {games} 局（{minutes} 分钟）后：learned 对 normal 每局 {mean:+.2f}，{ci}，胜率 {win:.0%}"
        "（{deals} 副复式牌）",
    ),
    "train_done": (
        "weights written to {path} ({kb} KB): {games} deals, {samples} rows learned from; curve in {curve}",
        "权重已写入 {path}（{kb} KB）：{games} 局，学习了 {samples} 行样本；学习曲线在 {curve}",
    ),
}
