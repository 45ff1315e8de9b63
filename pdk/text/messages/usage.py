"""Messages of ``usage`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "usage_line": ("{message} (see '{where} -h')", "{message}（见 '{where} -h'）"),
    "usage_no_option": ("No such option: {name}", "没有选项 {name}"),
    "usage_no_option_alts": (
        "No such option: {name} (Possible options: {alts})",
        "没有选项 {name}（可用的选项：{alts}）",
    ),
    "usage_missing_option": ("Missing option {hint}.", "缺少选项 {hint}"),
    "usage_missing_argument": ("Missing argument {hint}.", "缺少参数 {hint}"),
    # The detail is the parser's own (English) reason, e.g. a range it must be in.
    "usage_bad_value": ("Invalid value for {hint}: {detail}", "{hint} 的值无效：{detail}"),
    "usage_other": ("{detail}", "用法错误：{detail}"),
    "interrupted": ("interrupted", "已中断"),
}
