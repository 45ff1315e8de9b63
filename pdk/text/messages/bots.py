"""Why a bot name or plug-in spec gives no bot, in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    "bot_unknown": (
        "unknown bot {name!r} (known: {known}; or your own: module:factory or file.py:factory)",
        "没有名为 {name!r} 的 AI（可选：{known}；或你自己的：module:factory 或 file.py:factory）",
    ),
    "bot_bad_spec": (
        "bot {spec!r}: a plug-in is module.path:factory or path/to/file.py:factory",
        "AI {spec!r}：插件的写法是 module.path:factory 或 path/to/file.py:factory",
    ),
    "bot_no_module": (
        "bot {spec!r}: no module named {module!r} (is it on PYTHONPATH? a file works as file.py:factory)",
        "AI {spec!r}：找不到模块 {module!r}（它在 PYTHONPATH 上吗？文件可写成 file.py:factory）",
    ),
    "bot_no_file": ("bot {spec!r}: no such file {path}", "AI {spec!r}：文件 {path} 不存在"),
    "bot_no_attr": (
        "bot {spec!r}: {module} has no attribute {attr!r}",
        "AI {spec!r}：{module} 里没有 {attr!r}",
    ),
    "bot_import_failed": (
        "bot {spec!r}: importing {module} raised {error}",
        "AI {spec!r}：导入 {module} 时出错：{error}",
    ),
    "bot_not_callable": (
        "bot {spec!r}: {attr!r} is not callable (it must take a seed and return a bot)",
        "AI {spec!r}：{attr!r} 不可调用（它应接受一个种子并返回一个 AI）",
    ),
    "bot_factory_failed": (
        "bot {spec!r}: {attr}({seed}) raised {error}",
        "AI {spec!r}：{attr}({seed}) 出错：{error}",
    ),
    "bot_no_choose": (
        "bot {spec!r}: {attr}(seed) returned a {type!r} object, which has no choose(view) method",
        "AI {spec!r}：{attr}(seed) 返回的 {type!r} 对象没有 choose(view) 方法",
    ),
    "bot_unknown_engine": (
        "no engine named {name} in the engines file (known: {known})",
        "引擎配置文件中没有名为 {name} 的引擎（已有：{known}）",
    ),
    "bot_engine": ("{error}", "{error}"),
    "weights_unreadable": (
        "weights {path}: not a pdk weights file ({error})",
        "权重文件 {path}：不是 pdk 的权重文件（{error}）",
    ),
    "weights_wrong_profile": (
        "weights {path} were trained for {trained}, not {wanted}: "
        "train one with pdk train --variant {wanted}",
        "权重文件 {path} 是为 {trained} 训练的，不是 {wanted}：可用 pdk train --variant {wanted} 训练",
    ),
    "weights_wrong_version": (
        "weights {path} read features version {trained}; this pdk reads version {wanted}: train them again",
        "权重文件 {path} 用的是第 {trained} 版特征，本 pdk 用第 {wanted} 版：请重新训练",
    ),
    "weights_none": (
        "no learned weights ship for {profile} (train them: pdk train --variant {profile} --out FILE, "
        "then set PDK_WEIGHTS=FILE)",
        "没有为 {profile} 附带学习到的权重（可训练：pdk train --variant {profile} --out 文件，"
        "再设 PDK_WEIGHTS=文件）",
    ),
}
