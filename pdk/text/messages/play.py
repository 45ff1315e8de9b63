"""Every message of ``pdk play`` and ``pdk stats``, in English and 中文."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # seats and the table
    "play_title": (
        "跑得快 · {variant} · {difficulty} · deal {n}",
        "跑得快 · {variant} · {difficulty} · 第 {n} 局",
    ),
    "play_session": ("session {total:+d}", "累计 {total:+d}"),
    "cards_n": ("{n} cards", "{n} 张"),
    "cards_1": ("1 card", "1 张"),
    "seat_out": ("out · {place}", "已出完 · {place}"),
    "trick_label": ("This trick: ", "本轮："),
    "trick_none": ("new trick", "新一轮"),
    "trick_won": ("new trick ({who} took the last one with {cards})", "新一轮（{who}出 {cards} 收了上一轮）"),
    "act_pass": ("pass", "不出"),
    # seat badges: as wide as the Chinese, so a 40-column table keeps its columns
    "badge_bao_dan": ("LAST", "报单"),
    "badge_auto": ("AUTO", "托管"),
    "diff_easy": ("easy", "简单"),
    "diff_normal": ("normal", "普通"),
    "diff_hard": ("hard", "困难"),
    "status_bao_dan": (
        "The next player has one card (报单): a single must be your highest ({high}).",
        "下家报单：出单张必须出你最大的 {high}。",
    ),
    "status_auto": (
        "Auto-play on: the computer plays for you. Type a (or 托管), or press Ctrl-C, to take back.",
        "托管中：电脑按本桌难度替你出牌。输入 a 或 托管，或按 Ctrl-C 取消。",
    ),
    "hand_label": ("Your hand ({n})", "你的手牌（{n} 张）"),
    "counter_label": ("Card counter (unseen): ", "记牌器（未出现）："),
    "log_play": ("{who}: {cards}", "{who}：{cards}"),
    "log_pass": ("{who}: pass", "{who}：不出"),
    "prompt": ("play (? help)> ", "出牌（? 帮助）> "),
    "help": (
        "Type a play: 334455, 3-7 (straight), 33-55 (pair chain), T or 10; suits are chosen"
        " for you (3s = ♠3 if you want one).\n"
        "  p, pass, 不出   pass (Enter too, when nothing beats)\n"
        "  h, 提示         hint; again for the next; Enter plays it\n"
        "  c, 记牌         card counter on/off\n"
        "  a, 托管         auto-play on/off (a or Ctrl-C takes back)\n"
        "  x, 自动不出     auto-pass on/off (pass when nothing beats)\n"
        "  l, 托管难度     托管's level: the table's, easy, normal, hard (in turn)\n"
        "  q, 退出         save and quit\n"
        "  ?               this help\n"
        "Lowercase a and q are commands: type A or Q for an ace or a queen.",
        "输入要出的牌：334455、3-7（顺子）、33-55（连对）、T 或 10；花色自动选择"
        "（要指定可写 3s = ♠3）。\n"
        "  p、pass、不出   不出（压不过时也可直接回车）\n"
        "  h、提示         提示；再按换下一个；回车出提示的牌\n"
        "  c、记牌         记牌器开关\n"
        "  a、托管         托管开关（a 或 Ctrl-C 取消）\n"
        "  x、自动不出     自动要不起开关\n"
        "  l、托管难度     切换托管水平\n"
        "  q、退出         保存并退出\n"
        "  ?               本帮助\n"
        "小写 a 和 q 是命令：出单张 A 或 Q 请输入大写 A、Q。",
    ),
    "hint_show": (
        "hint {i}/{n}: {cards} ({kind}), {why}. Enter plays it, h the next",
        "提示 {i}/{n}：{cards}（{kind}），{why}。回车出这手，h 换下一个",
    ),
    "enter_lead": (
        "Enter alone does nothing on a lead: type a play, or h for a hint",
        "先出时直接回车无效：请输入要出的牌，或按 h 看提示",
    ),
    "enter_must": (
        "Enter alone does nothing: you can beat {cards}, so you must play (h for a hint)",
        "直接回车无效：你压得过 {cards}，必须出牌（h 看提示）",
    ),
    "enter_free": (
        "Enter alone does nothing: type a play to beat {cards}, p to pass, h for a hint",
        "直接回车无效：输入能压过 {cards} 的牌，p 不出，h 看提示",
    ),
    "auto_pass_now": ("Nothing beats it: passing for you…", "要不起：没有能压过的牌，自动不出…"),
    "auto_passed": (
        "Nothing could beat {cards}, so you passed (x turns this off)",
        "要不起：压不过 {cards}，已自动不出（x 关闭）",
    ),
    "auto_pass_on": ("auto-pass on: you pass when nothing beats", "自动要不起已开启"),
    "auto_pass_off": (
        "auto-pass off: pass yourself with p or Enter",
        "自动要不起已关闭：自己按 p 或回车不出",
    ),
    "bomb_scores_each": (
        "{who}'s bomb stands: {bonus} from each other player ({amount:+d}) at the settlement",
        "{who}的炸弹收轮：结算时向其他每家各收 {bonus} 分（{amount:+d}）",
    ),
    "bomb_scores": (
        "{who}'s bomb scores: {amount:+d} at the settlement",
        "{who}的炸弹得分：结算时 {amount:+d}",
    ),
    "hint_none": ("no play beats it: pass (p or Enter)", "没有能压过的牌：不出（p 或回车）"),
    "counter_on": ("card counter on", "记牌器已打开"),
    "counter_off": ("card counter off", "记牌器已关闭"),
    "auto_level_now": ("托管 plays at: {level}", "托管水平：{level}"),
    "auto_level_room": ("a room's 托管 plays at the room's level", "房间的托管按房间难度出牌"),
    "auto_on": ("auto-play on", "托管已开启"),
    "auto_off": ("auto-play off: your turn", "托管已取消：轮到你"),
    "refused": ("refused: {reason}", "不能这样出：{reason}"),
    "input_unreadable": (
        "cannot read {text!r}: type cards like 334455 or 3-7, or ? for help",
        "看不懂 {text!r}：请输入像 334455 或 3-7 这样的牌，或 ? 查看帮助",
    ),
    "input_bad_range": (
        "{text!r} is not a range: write the low and the high end, like 3-7 or 33-55",
        "{text!r} 不是有效的连牌写法：请写起止点数，如 3-7 或 33-55",
    ),
    # saving and resuming
    "saved_quit": (
        "game saved in {path}; run {command} to continue.",
        "对局已保存到 {path}；运行 {command} 继续。",
    ),
    "resumed": ("resumed your saved game (deal {n}) from {path}", "已从 {path} 恢复上次的对局（第 {n} 局）"),
    "resume_differs": (
        "the saved game is {variant} at {difficulty}; it continues (pdk play --new starts a new game)",
        "存档的对局是 {variant}、{difficulty}，继续该对局（pdk play --new 开新局）",
    ),
    "save_corrupt": (
        "the save {path} is unreadable ({detail}); moved it to {moved} and started a new game",
        "存档 {path} 已损坏（{detail}）；已移到 {moved}，开始新对局",
    ),
    "slot_other": (
        "another pdk play is using {busy}; this terminal plays its own game in {mine}",
        "另一个 pdk play 正在使用 {busy}；本终端在 {mine} 进行自己的对局",
    ),
    "save_failed": ("could not save the game: {detail}", "无法保存对局：{detail}"),
    "err_save_dir": ("cannot keep the game in {path}: {detail}", "无法在 {path} 保存对局：{detail}"),
    # end of a deal
    "settle_title": ("Settlement, deal {n}", "第 {n} 局结算"),
    "col_player": ("player", "玩家"),
    "col_left": ("left", "剩牌"),
    "st_left_cards": ("held {cards}", "手里 {cards}"),
    "st_yes": ("yes", "是"),
    "col_shut": ("全关", "全关"),
    "col_bombs": ("bombs", "炸弹"),
    "col_total": ("total", "合计"),
    "col_place": ("place", "名次"),
    "col_points": ("points", "得分"),
    "col_x": ("×", "倍数"),
    "col_session": ("session", "累计"),
    "yes": ("yes", "是"),
    "record_saved": (
        "record of this deal (open it with pdk replay):",
        "本局记录（用 pdk replay 打开）：",
    ),
    "next_prompt": ("Enter: next deal · q: quit> ", "回车：下一局 · q：退出> "),
    "bye": (
        "Session: {deals}, total {total:+d}. See you!",
        "本次共 {deals}，累计 {total:+d}。再见！",
    ),
    "deals_n": ("{n} deals", "{n} 局"),
    "deals_1": ("1 deal", "1 局"),
    "new_confirm": (
        "A game is in progress (deal {n}, {variant}) in {path}. Discard it and start a new one? [y/N] ",
        "{path} 里有进行中的对局（第 {n} 局，{variant}）。放弃它并开新局吗？[y/N] ",
    ),
    "practice_needs_at": (
        "--from needs --at N: the play of yours to play again (pdk review marks them)",
        "--from 需要 --at N：要重打的是你的第几手（pdk review 会标出来）",
    ),
    "practice_needs_from": (
        "--at and --game go with --from FILE: the record to practise from",
        "--at 和 --game 要和 --from 文件 一起用：指定从哪个牌谱练习",
    ),
    "practice_not_joined": (
        "--from starts a practice here; it cannot be played at a room (--join)",
        "--from 在本机开始练习，不能和 --join（进房间）一起用",
    ),
    "practice_not_yours": (
        "play {n} of {last} is not yours: a practice starts at a play of yours (plays {plays})",
        "第 {n} 手（共 {last} 手）不是你出的：练习要从你自己的出牌开始（你的是第 {plays} 手）",
    ),
    "practice_from": (
        "Practice from play {n} of {path}: the same hands, your move. Later deals are new ones.",
        "从 {path} 的第 {n} 手开始练习：同样的牌，轮到你出。之后的局是新发的牌。",
    ),
    "new_kept": ("kept your saved game; run pdk play to continue it", "已保留存档；运行 pdk play 继续"),
    "new_needs_yes": (
        "a game is in progress in {path}: pdk play --new --yes discards it without asking",
        "{path} 里有进行中的对局：用 pdk play --new --yes 不询问直接放弃",
    ),
    # option errors
    "err_difficulty": (
        "unknown difficulty {name!r} (choose easy, normal or hard)",
        "未知难度 {name!r}（可选 easy、normal、hard）",
    ),
    "err_difficulty_missing": (
        "difficulty {name!r} is not available in this build yet (available: {known})",
        "此版本还没有难度 {name!r}（可用：{known}）",
    ),
    # pdk stats
    "stats_err_history": ("cannot read the history: {detail}", "无法读取历史战绩：{detail}"),
    "stats_title": ("Your record", "你的战绩"),
    "stats_none": (
        "No finished deals yet: play one with pdk play.",
        "还没有完成的牌局：用 pdk play 来一局吧。",
    ),
    "col_difficulty": ("level", "难度"),
    "col_variant": ("variant", "玩法"),
    "col_games": ("games", "局数"),
    "col_wins": ("wins", "胜局"),
    "col_average": ("avg", "平均"),
    "stats_all": ("all", "全部"),
    "stats_best": (
        "Best deal: {score:+d} ({variant}, {difficulty}, {when})",
        "最佳一局：{score:+d}（{variant}，{difficulty}，{when}）",
    ),
    "stats_worst": (
        "Worst deal: {score:+d} ({variant}, {difficulty}, {when})",
        "最差一局：{score:+d}（{variant}，{difficulty}，{when}）",
    ),
    "stats_title_line": ("Title: {zh} ({en}) — total score {total:+d}", "称号：{zh} — 总积分 {total:+d}"),
    "stats_next_title": ("{need} more points to {zh} ({en})", "再得 {need} 分升为 {zh}"),
    "stats_top_title": ("the highest title", "已是最高称号"),
    "stats_persons": (
        "People of this server's rooms (pdk stats --person NAME_OR_ID for one)",
        "本服务器房间里的玩家（pdk stats --person 名字或编号 查看一人）",
    ),
    "stats_person_title": ("Record of {name} ({person})", "{name}（{person}）的战绩"),
    "col_person": ("id", "编号"),
    "col_name": ("name", "名字"),
    "col_title": ("title", "称号"),
    "stats_err_no_person": (
        "no person called {who} in this history (pdk stats lists them)",
        "历史战绩里没有叫 {who} 的人（pdk stats 会列出所有人）",
    ),
    "stats_err_many_persons": (
        "several people played as {who}: name one by id ({ids})",
        "有几个人都叫 {who}：请用编号指定（{ids}）",
    ),
}
