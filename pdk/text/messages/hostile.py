"""Messages for hostile input (issue 13): bounded files, file-system faults, closed streams,
bad options. Each in English and 中文."""

MESSAGES: dict[str, tuple[str, str]] = {
    # pdk.files.limits: what is wrong with a file beyond what pdk reads
    "lim_too_big": ("the file is too big ({size}; at most {limit})", "文件太大（{size}；上限 {limit}）"),
    "lim_not_regular": (
        "not a regular file (a folder, a pipe or a device)",
        "不是普通文件（是文件夹、管道或设备）",
    ),
    "lim_too_deep": ("nested more than {limit} levels deep", "嵌套超过 {limit} 层"),
    "lim_big_int": (
        "an integer of {digits} digits (at most {limit})",
        "整数有 {digits} 位（最多 {limit} 位）",
    ),
    "lim_not_finite": ("{value} is not a finite number", "{value} 不是有限数值"),
    "lim_big_number": ("a number beyond {limit}", "数值超出 {limit}"),
    "lim_too_many": ("more than {limit} values (an alias bomb?)", "超过 {limit} 个值（别名炸弹？）"),
    # the history database
    "hist_err_value": (
        "deals.{column} holds a value pdk never writes",
        "deals.{column} 中有 pdk 不会写入的值",
    ),
    # saves
    "save_err_id": ("session.id is not a valid session id", "session.id 不是有效的对局编号"),
    "save_err_range": ("session.{field} is out of range", "session.{field} 超出范围"),
    "save_cannot_move": (
        "the save {path} is unreadable ({detail}) and cannot be moved aside: {reason}",
        "存档 {path} 已损坏（{detail}），且无法移开：{reason}",
    ),
    "quit_unsaved": (
        "the game could not be saved ({detail}); the last plays are lost when you quit.",
        "对局无法保存（{detail}）；退出后最近的出牌将丢失。",
    ),
    # streams
    "err_stdout_closed": ("cannot write the output: standard output is closed", "无法输出：标准输出已关闭"),
    "err_write": ("cannot write the output: {detail}", "无法输出：{detail}"),
    # options
    "err_no_cards": ("{option}: no cards given", "{option}：没有给出牌"),
    "err_no_save_dir": ("--save-dir: no folder given", "--save-dir：没有给出文件夹"),
    "sp_no_players": ("--players: no bot named", "--players：没有给出机器人"),
    "sp_out_failed": (
        "stopped writing {path} after {n} records: {reason}",
        "写入 {path} 时出错，已写 {n} 条记录：{reason}",
    ),
    "err_empty_path": ("{option}: the path is empty", "{option}：路径为空"),
    "err_too_big": ("{option}: at most {limit}", "{option}：最多 {limit}"),
    "err_not_dir": ("{path} is not a folder", "{path} 不是文件夹"),
}
