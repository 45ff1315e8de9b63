"""Position texts, ``pdk advise``, ``pdk review`` and 残局 puzzles, in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    # position texts (pdk.engine.position_text)
    "pos_fields": (
        "position text needs 5 fields (VARIANT TURN HANDS PLAYED BEAT), got: {text}",
        "局面文本需要 5 个字段（玩法 轮到 手牌 已出 要压），收到：{text}",
    ),
    "pos_turn": (
        "position: the seat to move must be 0-{last}, got {value}",
        "局面：轮到的座位须为 0-{last}，收到 {value}",
    ),
    "pos_seats": (
        "position: {got} hands given, the variant seats {want}",
        "局面：给了 {got} 手牌，此玩法有 {want} 个座位",
    ),
    "pos_count": (
        "position: seat {seat}'s hidden hand must be #N, got {value}",
        "局面：座位 {seat} 的暗牌须写成 #N，收到 {value}",
    ),
    "pos_cards": ("position ({where}): {detail}", "局面（{where}）：{detail}"),
    "pos_size": (
        "position: seat {seat} holds {n} cards, a hand has at most {most}",
        "局面：座位 {seat} 有 {n} 张，一手最多 {most} 张",
    ),
    "pos_total": (
        "position: {out} cards are out (played and on the table), but the hand sizes say {want}",
        "局面：已出（含桌上）{out} 张，但按手牌张数应为 {want} 张",
    ),
    "pos_hidden_turn": (
        "position: the seat to move ({seat}) must show its cards",
        "局面：轮到的座位（{seat}）须写明手牌",
    ),
    "pos_beat": (
        "position: the play to beat must be SEAT:cards or -, got {value}",
        "局面：要压的牌须写成 座位:牌 或 -，收到 {value}",
    ),
    "pos_not_combo": ("position: {cards} on the table is not a play", "局面：桌上的 {cards} 不是合法牌型"),
    "pos_beat_seat": (
        "position: seat {seat} cannot have to beat its own play",
        "局面：座位 {seat} 不能压自己的牌",
    ),
    "pos_bombs": (
        "position: bombs:B0,B1,… needs one count per seat, got {value}",
        "局面：bombs: 需要每个座位一个数，收到 {value}",
    ),
    "pos_over": ("position: the deal is already over", "局面：这一局已经结束"),
    "moves_err_hand_or_position": ("give either --hand or --position", "请给出 --hand 或 --position 之一"),
    # pdk advise
    "adv_title": (
        "{who} to move — {n} choices, {deals} deals searched{exact}",
        "{who} 出牌 —— {n} 种选择，搜索 {deals} 副牌{exact}",
    ),
    "adv_exact": (" (every hidden deal)", "（全部暗牌分布）"),
    "adv_col_play": ("play", "出牌"),
    "adv_col_points": ("expected points [95%]", "期望得分 [95%]"),
    "adv_col_win": ("win chance [95%]", "胜率 [95%]"),
    "adv_col_proof": ("proof", "证明"),
    "adv_proof_win": ("forced win", "必胜"),
    "adv_proof_no_win": ("no forced win", "无必胜"),
    "adv_pass": ("pass", "不要"),
    "adv_position": ("position: {text}", "局面：{text}"),
    "adv_err_need": (
        "give a position text, or a record with --move N",
        "请给出局面文本，或记录文件加 --move N",
    ),
    "adv_err_move": (
        "--move must be 1-{last} (the play to advise on)",
        "--move 须为 1-{last}（要分析的那一手）",
    ),
    "adv_err_forced": ("nothing to choose: the deal is over at move {n}", "无可选择：第 {n} 手时本局已结束"),
    "adv_err_budget": (
        "--budget must be 100-1000000, got {value}",
        "--budget 须在 100-1000000 之间，收到 {value}",
    ),
    # pdk review
    "rv_title": (
        "Review of {source} — {variant}, seed {seed}, budget {budget}",
        "复盘 {source} —— {variant}，种子 {seed}，预算 {budget}",
    ),
    "rv_col_n": ("#", "#"),
    "rv_col_seat": ("seat", "座位"),
    "rv_col_played": ("played", "实际出牌"),
    "rv_col_best": ("best", "最佳"),
    "rv_col_loss": ("points lost [95%]", "损失分 [95%]"),
    "rv_col_win": ("win chance", "胜率"),
    "rv_same": ("(same)", "（相同）"),
    "rv_forced": ("forced", "唯一选择"),
    "rv_accuracy": (
        "{who}: accuracy {acc:.1f}% over {n} decisions, {q} ? and {qq} ??",
        "{who}：准确率 {acc:.1f}%，共 {n} 次选择，{q} 个 ?，{qq} 个 ??",
    ),
    "rv_accuracy_none": ("{who}: no decisions to rate", "{who}：没有可评的选择"),
    "rv_turning": ("Turning points:", "转折点："),
    "rv_turning_one": (
        "  move {n}: {who} played {played}, {best} was better by {loss:.2f} points",
        "  第 {n} 手：{who} 出 {played}，{best} 好 {loss:.2f} 分",
    ),
    "rv_turning_none": ("  none: no play lost a point", "  无：没有一手损失超过一分"),
    "rv_progress": ("Reviewing", "复盘中"),
    "rv_saved": (
        "annotated record written to {path} (pdk replay shows it)",
        "带注释的记录已写入 {path}（pdk replay 可查看）",
    ),
    "rv_err_seat": ("--seat must be 0-{last}", "--seat 须为 0-{last}"),
    "rv_err_both": ("--seat and --all are exclusive", "--seat 与 --all 只能选一个"),
    "rv_err_empty": ("the record has no plays to review", "记录中没有可复盘的出牌"),
    # replay: a reviewed record's marks
    "rp_tr_review": (
        "       {mark} better: {best} (−{loss:.2f} points)",
        "       {mark} 更好：{best}（损失 {loss:.2f} 分）",
    ),
    "rp_review_note": (
        "Review: {mark} better was {best} (−{loss:.2f} points)",
        "复盘：{mark} 更好的是 {best}（损失 {loss:.2f} 分）",
    ),
    # the page's 复盘 and hint numbers (pdk.web.review_api, static/review.js)
    "web_rv_button": ("Review 复盘", "复盘"),
    "web_rv_title": ("Review of deal {n}: your plays", "第 {n} 局复盘：你的出牌"),
    "web_rv_wait": ("Reviewing your plays…", "正在复盘你的出牌……"),
    "web_rv_accuracy": ("Accuracy {acc}% · {q} ? · {qq} ??", "准确率 {acc}% · {q} 个 ? · {qq} 个 ??"),
    "web_rv_better": ("better:", "更好："),
    "web_rv_lost": ("−{loss} points", "损失 {loss} 分"),
    "web_rv_forced": ("forced", "唯一选择"),
    "web_rv_graph": (
        "Your expected points after each play (dots: ? and ??)",
        "每手之后你的期望得分（圆点：? 与 ??）",
    ),
    "web_rv_none": ("No choices to review in this deal.", "本局没有可复盘的选择。"),
    "web_rv_close": ("Close", "关闭"),
    "web_rv_numbers": ("Numbers", "数字"),
    "web_rv_numbers_title": ("Expected points · win chance", "期望得分 · 胜率"),
    "web_rv_not_your_turn": ("Numbers are for your turn only.", "只在轮到你时显示数字。"),
    "web_pz_link": ("残局 puzzles", "残局"),
    "web_pz_heading": ("残局 puzzles: one play forces the win", "残局：只有一手必胜"),
    "web_pz_level": ("Level", "难度"),
    "web_pz_any": ("any", "全部"),
    "web_pz_play": ("Play", "出牌"),
    "web_pz_pass": ("Pass", "不出"),
    "web_pz_next": ("Next puzzle", "下一题"),
    "web_pz_right": ("Right — the line that proves it:", "正确 —— 证明的线路："),
    "web_pz_wrong": ("Not this one — the others stop you:", "不对 —— 对手可以这样阻止你："),
    "web_pz_answer": ("The answer and its winning line:", "答案及必胜线路："),
    "web_pz_table": ("On the table", "桌上"),
    "web_pz_lead": ("leads a new trick", "领出新一轮"),
    "web_pz_back": ("Back to the table", "返回牌桌"),
    # puzzles
    "pz_title": ("残局 puzzle {id} — {level}: {goal}", "残局 第 {id} 题 —— {level}：{goal}"),
    "pz_goal_win": (
        "{who} to play and go out first, whatever the others do",
        "{who} 先走，无论对手怎么出都能先出完",
    ),
    "pz_goal_sweep": (
        "{who} to play and go out before the seats yet to play play a card (全关)",
        "{who} 先走，在还没出过牌的对手出牌之前出完（全关）",
    ),
    "pz_level_1": ("easy", "简单"),
    "pz_level_2": ("medium", "中等"),
    "pz_level_3": ("hard", "困难"),
    "pz_level_4": ("expert", "专家"),
    "pz_prompt": ("Your play (cards, or 'pass'; q to give up): ", "你的出牌（牌面，或 不要；q 放弃）："),
    "pz_right": ("Right: {play} does it, whatever the others do.", "正确：{play}，无论对手怎么出都能做到。"),
    "pz_wrong": ("Not this: after {play}, the others can stop you:", "不对：出 {play} 后，对手可以阻止你："),
    "pz_answer": ("The answer: {play}. A winning line:", "答案：{play}。一条必胜线路："),
    "pz_line": ("  {who}: {play}", "  {who}：{play}"),
    "pz_illegal": ("not a legal play here: {reason}", "此处不能这样出：{reason}"),
    "pz_none": ("no puzzle matches (level {level})", "没有符合条件的题目（难度 {level}）"),
    "pz_made": (
        "{n} puzzles written to {path} ({deals} deals searched in {secs:.1f} s)",
        "已写入 {n} 道题到 {path}（{secs:.1f} 秒内搜索 {deals} 局）",
    ),
    "pz_bad_file": ("{path}: not a puzzle file ({detail})", "{path}：不是题目文件（{detail}）"),
    "pz_unproved": ("puzzle {id} does not re-prove", "第 {id} 题未能重新证明"),
    "pz_checked": ("{n} puzzles re-proved by the solver", "{n} 道题已由求解器重新证明"),
    "pz_first_out": (
        "puzzles need a first-out variant ({name} plays to the last)",
        "残局题需要先出完即结束的玩法（{name} 打到最后）",
    ),
}
