"""Messages of ``variants`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "variants_title": ("Rule profiles (use with --variant NAME)", "规则配置（用 --variant 名称 选择）"),
    "variants_col_name": ("name", "名称"),
    "variants_col_aliases": ("aliases", "别名"),
    "variants_col_desc": ("rules", "规则"),
    "variants_more": (
        "`pdk variants show NAME` explains one; `pdk variants check FILE.yaml` validates your own.",
        "`pdk variants show 名称` 查看详细规则；`pdk variants check 文件.yaml` 检查自己写的配置。",
    ),
    "variants_ok": (
        "{path}: valid profile {name!r} — {title}",
        "{path}：配置有效，名称 {name!r} — {title}",
    ),
    "variants_bad_set": ("{what} {item!r}: write KEY=VALUE", "{what} {item!r}：应写成 键=值"),
    "variants_bad_name": ("{name!r} is not a profile name", "{name!r} 不能作为规则名"),
    "variants_cannot_write": ("{path}: cannot write: {detail}", "{path}：无法写入：{detail}"),
    "variants_written": (
        "{path}: profile {name} written; play it with --variant {path}",
        "{path}：已写好规则 {name}，用 --variant {path} 来玩",
    ),
    "variants_options_title": (
        "House rules on {base} (* = as {base} plays)",
        "{base} 可改的家规（* 为原规则）",
    ),
    "variants_col_rule": ("rule", "规则"),
    "variants_col_choices": ("choices", "选项"),
    "variants_col_fields": ("profile fields", "配置字段"),
    "variants_not_yaml": ("{path}: not a .yaml file", "{path}：不是 .yaml 文件"),
    "variants_cannot_read": ("{path}: cannot read: {detail}", "{path}：无法读取：{detail}"),
}
