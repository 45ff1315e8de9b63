"""Messages of ``profile`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "pfe_unknown": (
        "unknown variant {name!r} (known: {known}; or give a path to a .yaml file)",
        "没有名为 {name!r} 的规则配置（可选：{known}；也可以给出 .yaml 文件的路径）",
    ),
    "pfe_cannot_read": ("{path}: cannot read profile: {detail}", "无法读取规则配置 {path}：{detail}"),
    "pfe_not_text": (
        "{path}: cannot read profile: not UTF-8 text",
        "无法读取规则配置 {path}：不是 UTF-8 编码的文本",
    ),
    "pfe_yaml_at": ("{path}: line {line} not valid YAML", "规则配置 {path} 第 {line} 行不是有效的 YAML"),
    "pfe_yaml": ("{path}: not valid YAML", "规则配置 {path} 不是有效的 YAML"),
    "pfe_not_mapping": (
        "{source}: a profile must be a mapping of fields",
        "规则配置 {source} 必须是字段的映射（每行“字段: 值”）",
    ),
    "pfe_base_bad": (
        "{source}: invalid profile: base: must name one profile (and not loop)",
        "规则配置无效：{source}：base：必须是一个规则配置的名称（且不能循环引用）",
    ),
    "pfe_base_unknown": (
        "{source}: invalid profile: base: unknown profile {name!r}",
        "规则配置无效：{source}：base：没有名为 {name!r} 的规则配置",
    ),
    # Every bad field, each named by its YAML key path (the same in both languages).
    "pfe_invalid": ("{source}: invalid profile: {problems}", "规则配置无效：{source}：{problems}"),
    "pfe_field": ("{field}: {detail}", "{field}：{detail}"),
    "pfe_choices": ("{head} or {last}", "{head} 或 {last}"),
    # Pydantic's checks, by its error type; its own English is used for any other type.
    "pfv_missing": ("Field required", "缺少此字段"),
    "pfv_extra_forbidden": ("Extra inputs are not permitted", "没有这个字段（拼写错误？）"),
    "pfv_bool_parsing": (
        "Input should be a valid boolean, unable to interpret input",
        "应为 true 或 false，无法识别所给的值",
    ),
    "pfv_bool_type": ("Input should be a valid boolean", "应为 true 或 false"),
    "pfv_int_parsing": (
        "Input should be a valid integer, unable to parse string as an integer",
        "应为整数，所给的文字不是整数",
    ),
    "pfv_int_type": ("Input should be a valid integer", "应为整数"),
    "pfv_int_from_float": (
        "Input should be a valid integer, got a number with a fractional part",
        "应为整数，不能带小数",
    ),
    "pfv_float_parsing": (
        "Input should be a valid number, unable to parse string as a number",
        "应为数字，所给的文字不是数字",
    ),
    "pfv_float_type": ("Input should be a valid number", "应为数字"),
    "pfv_string_type": ("Input should be a valid string", "应为字符串"),
    "pfv_tuple_type": ("Input should be a valid tuple", "应为列表"),
    "pfv_model_type": (
        "Input should be a valid dictionary or instance of {class_name}",
        "应为映射（字段: 值）",
    ),
    "pfv_literal_error": ("Input should be {expected}", "应为 {expected} 之一"),
    "pfv_greater_than_equal": ("Input should be greater than or equal to {ge}", "应大于或等于 {ge}"),
    "pfv_less_than_equal": ("Input should be less than or equal to {le}", "应小于或等于 {le}"),
    "pfv_greater_than": ("Input should be greater than {gt}", "应大于 {gt}"),
    "pfv_other": ("{msg}", "{msg}"),
    "pfv_card": ("{error}", "{error}"),
    # The profile's own checks of single fields.
    "pfv_one_card": (
        "{value!r} must name exactly one card with its suit, like '3s'",
        "{value!r} 必须是一张带花色的牌，例如 '3s'",
    ),
    "pfv_chain_char": (
        "{value!r} holds a character that is not a chainable rank (3..A, 2)",
        "{value!r} 中有不能连成顺的点数（只能是 3..A 和 2）",
    ),
    "pfv_chain_order": (
        "{value!r} must be consecutive ranks in order, like '3456789TJQKA'",
        "{value!r} 必须是依次相连的点数，例如 '3456789TJQKA'",
    ),
    # Settings that cannot go together (``_problems``).
    "pfp_hand_size": (
        "{players} players x {hand_size} cards + {set_aside} set aside = {needed},"
        " but the deck has {size} cards",
        "{players} 名玩家 × 每人 {hand_size} 张 + {set_aside} 张不发 = {needed} 张，但这副牌有 {size} 张",
    ),
    "pfp_hand_size_dummies": (
        "{players} players + {dummies} hidden hand(s) x {hand_size} cards + {set_aside} set aside"
        " = {needed}, but the deck has {size} cards",
        "（{players} 名玩家 + {dummies} 手暗牌）× 每手 {hand_size} 张 + {set_aside} 张不发"
        " = {needed} 张，但这副牌有 {size} 张",
    ),
    "pfp_removed_joker": (
        "{card} is a joker but deck.jokers is false",
        "{card} 是王，但 deck.jokers 为 false",
    ),
    "pfp_not_in_deck": ("{card} is not in the deck", "这副牌里没有 {card}"),
    "pfp_lead_fallback": (
        "cards are set aside, so the lead card may be undealt; a fallback is needed",
        "有牌不发给玩家，首出的那张牌可能没人拿到，需要打开 fallback",
    ),
    "pfp_too_long": ("{length} is longer than any chain", "{length} 比任何可能的连牌都长"),
    "pfp_low_ace_two_start": (
        "chain_ranks must start at 3 for A and 2 to sit below it",
        "chain_ranks 必须从 3 开始，A 和 2 才能接在 3 下面",
    ),
    "pfp_low_ace_two_no_ace": ("chain_ranks holds 2 but not A", "chain_ranks 含有 2 却没有 A"),
    "pfp_more_than": ("{value} is more than {other} ({limit})", "{value} 大于 {other}（{limit}）"),
    "pfp_kickers_not_pairs": (
        "{kickers} kickers cannot be made of pairs",
        "{kickers} 张带牌无法全由对子组成",
    ),
    "pfp_no_kicker_count": ("no kicker count is allowed", "没有任何允许的带牌张数"),
    "pfp_plane_pairs": (
        "pairs need an even number of kickers per trio",
        "带对子时，每个三张的带牌张数必须是偶数",
    ),
    "pfp_four_with_min": ("more than max_kickers", "大于 max_kickers"),
    "pfp_four_with_pairs": (
        "pairs need an even number of kickers",
        "带对子时，带牌张数必须是偶数",
    ),
    "pfp_straights_off": ("straights are disabled", "顺子已被关闭"),
    "pfp_no_rank_has": ("no rank has {size} cards in this deck", "这副牌里没有哪个点数有 {size} 张"),
    "pfp_three_aces": ("the deck has fewer than three aces", "这副牌里不到三张 A"),
    "pfp_joker_pair": ("the deck has no jokers", "这副牌里没有王"),
    "pfp_four_jokers": ("needs two packs with jokers", "需要两副带王的牌"),
    "pfp_order_twice": ("a kind is listed twice", "有炸弹种类列了两次"),
    "pfp_order_kinds": (
        "must list exactly the enabled bomb kinds ({kinds})",
        "必须恰好列出启用的炸弹种类（{kinds}）",
    ),
    "pfp_order_no_kinds": (
        "must list exactly the enabled bomb kinds (none)",
        "必须恰好列出启用的炸弹种类（现在一种也没有启用）",
    ),
    "pfp_bao_pei_highest": (
        "with bao_dan_highest_single on nobody can break the 报单 rule; turn one of them off",
        "bao_dan_highest_single 打开时没有人能违反报单规则，包赔无从说起，请关掉其中一个",
    ),
    "pfp_placement_end": ("placement needs end: last_one", "placement 需要 end: last_one"),
    "pfp_placement_points": (
        "needs {players} values (one per place), got {got}",
        "需要 {players} 个数（每个名次一个），实际有 {got} 个",
    ),
    "pfp_cards_left_end": (
        "cards_left needs end: first_out (use placement with last_one)",
        "cards_left 需要 end: first_out（last_one 请配合 placement）",
    ),
    "pfp_placement_only": ("only used by scheme: placement", "只在 scheme: placement 时使用"),
    "pfp_reverse_spring": ("反春 needs scheme: cards_left", "反春需要 scheme: cards_left"),
    "pfp_bao_pei_scheme": (
        "包赔 shifts card payments, so it needs scheme: cards_left",
        "包赔转移的是按剩牌张数的赔付，所以需要 scheme: cards_left",
    ),
    "pfp_graded_twice": ("two grades share a fraction", "有两档的 played_under 相同"),
}
