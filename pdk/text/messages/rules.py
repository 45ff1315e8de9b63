"""Why a play is refused, the combination names and ``pdk moves``, in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    # Why a play is refused (rules.Reason values).
    "not_in_hand": ("you do not hold {cards}", "你手里没有 {cards}"),
    "not_a_combination": (
        "{cards} is not a combination",
        "{cards} 不成牌型",
    ),
    "bare_trio": (
        "a trio or plane needs its full kickers unless it is your whole hand",
        "三张或飞机必须带满牌，除非这是你最后一手",
    ),
    "does_not_beat": ("{cards} does not beat {prev}{why}", "{cards} 压不过 {prev}{why}"),
    # ... and, when the play is not even of the shape that could follow, the rule.
    "follow_kind": (
        ": a {kind} is followed only by a {kind} (or a bomb)",
        "：{kind}只能用{kind}来压（或用炸弹）",
    ),
    "follow_kind_n": (
        ": a {kind} of {n} cards is followed only by a {kind} of {n} cards (or a bomb)",
        "：{n} 张的{kind}只能用 {n} 张的{kind}来压（或用炸弹）",
    ),
    "follow_kind_no_bomb": (": a {kind} is followed only by a {kind}", "：{kind}只能用{kind}来压"),
    "follow_kind_n_no_bomb": (
        ": a {kind} of {n} cards is followed only by a {kind} of {n} cards",
        "：{n} 张的{kind}只能用 {n} 张的{kind}来压",
    ),
    "must_beat": (
        "you must beat it: you hold a play that beats {prev} (e.g. {example})",
        "有牌必压：你手里有能压过 {prev} 的牌（例如 {example}）",
    ),
    "leader_cannot_pass": ("you lead this trick: you cannot pass", "你是首家出牌，不能不出"),
    "highest_single": (
        "the next player has one card (报单): a single must be your highest, {high}",
        "下家报单：出单张必须出最大的 {high}",
    ),
    "no_single_under_bao_dan": (
        "the next player has one card (报单) and your highest single {high} does not beat {prev}",
        "下家报单：你最大的单张 {high} 压不过 {prev}，不能出单张",
    ),
    "breaks_bomb": (
        "{cards} breaks your bomb {bomb}: a bomb goes out only as a whole",
        "{cards} 拆了炸弹 {bomb}：炸弹不能拆",
    ),
    "must_contain_lead": (
        "the first play must contain {card}",
        "第一手必须包含 {card}",
    ),
    "game_over": ("the deal is over", "本局已结束"),
    # Combination names (combos.ComboKind labels).
    "kind_single": ("single", "单张"),
    "kind_pair": ("pair", "对子"),
    "kind_pair_chain": ("pair chain", "连对"),
    "kind_straight": ("straight", "顺子"),
    "kind_trio_with_two": ("trio with two", "三带二"),
    "kind_plane": ("plane with wings", "飞机带翅膀"),
    "kind_bomb": ("bomb", "炸弹"),
    # pdk moves
    "moves_title": ("{n} legal plays", "共 {n} 种合法出牌"),
    "moves_title_1": ("1 legal play", "共 1 种合法出牌"),
    "moves_can_pass": ("passing is allowed", "可以不出"),
    "moves_cannot_pass_lead": ("you lead: passing is not allowed", "你是首家：不能不出"),
    "moves_cannot_pass_beat": (
        "passing is not allowed: you hold a play that beats it (有牌必压)",
        "不能不出：你有能压过的牌（有牌必压）",
    ),
    "moves_none": ("no play beats it: you must pass", "没有能压过的牌：只能不出"),
    "moves_legal": ("legal: {cards} as {kind}", "合法：{cards}，牌型 {kind}"),
    "moves_illegal": ("illegal: {reason}", "不合法：{reason}"),
    "moves_pass_legal": ("legal: pass", "合法：不出"),
    "col_kind": ("kind", "牌型"),
    "col_cards": ("cards", "出牌"),
}
