"""Messages of the tables for friends (rooms: ``pdk.rooms.room``, the room page) in English
and 中文. Keys start ``web_room_`` so the page receives them with its other words."""

MESSAGES: dict[str, tuple[str, str]] = {
    # refusals
    "web_room_none": ("No such room (the link may be mistyped).", "没有这个房间（链接可能有误）。"),
    "web_room_bad_key": (
        "This link's key is not one of this room's: it grants no seat.",
        "这个链接的密钥不属于本房间，不能入座。",
    ),
    "web_room_not_host": ("Only the host can do that.", "只有房主可以这样做。"),
    "web_room_closed": ("The host has closed this room.", "房主已关闭本房间。"),
    "web_room_full": ("Every seat in this room is taken.", "本房间已满座。"),
    "web_room_in_use": (
        "This seat is open on another device right now; close it there (or wait a moment) and try again.",
        "这个座位正在另一台设备上使用；请先在那里关闭（或稍等片刻）再试。",
    ),
    "web_room_not_started": ("The host has not dealt yet.", "房主还没有发牌。"),
    "web_room_started": ("The room's first deal is already dealt.", "本房间已经发过牌了。"),
    "web_room_too_fast": (
        "Too many messages too fast: wait a moment; nothing was changed.",
        "消息太频繁：请稍等；未做任何更改。",
    ),
    "web_room_bad_variant": ("No shipped rules called {name}.", "没有名为 {name} 的内置规则。"),
    "web_room_bad_name": ("A name needs at least one visible character.", "名字至少要有一个可见字符。"),
    "web_room_too_many": (
        "This server has as many rooms open as it keeps; try again later.",
        "服务器上开着的房间已满；请稍后再试。",
    ),
    "web_room_no_person": (
        "No deal of this person is kept on this server (yet): a record starts with a first finished deal.",
        "本服务器还没有这个人的牌局记录：打完第一局后开始记录。",
    ),
    "web_room_record": (
        "Your record here: {games} games, {wins} won, total {total:+d}, title {zh} ({en}).",
        "你在这里的战绩：{games} 局，赢 {wins} 局，累计 {total:+d} 分，称号 {zh}（{en}）。",
    ),
    "web_room_bot_seat": (
        "A bot plays this seat until the next deal; its hand stays hidden until then.",
        "本局由机器人代打此座位；下一局开始前看不到它的手牌。",
    ),
    "web_room_seat_taken": (
        "That seat is taken: its link is no longer on offer.",
        "该座位已有人：链接不再提供。",
    ),
    "web_room_moved": ("The room moved on meanwhile; look and try again.", "房间状态已更新；请看一下再试。"),
    # the page
    "web_room_friends": ("Play with friends", "和朋友玩"),
    "web_room_title": ("Table for friends", "好友牌桌"),
    "web_room_variant": ("Rules", "规则"),
    "web_room_bots": ("Bots (empty seats)", "空座电脑"),
    "web_room_turn_time": ("Turn time", "每手限时"),
    "web_room_no_limit": ("none", "不限"),
    "web_room_seconds": ("{n} s", "{n} 秒"),
    "web_room_your_name": ("Your name", "你的名字"),
    "web_room_create": ("Make the room", "建房间"),
    "web_room_invite": ("Invite to seat {n}", "邀请入座 {n}"),
    "web_room_copy": ("Copy", "复制"),
    "web_room_copied": ("Copied", "已复制"),
    "web_room_watch": ("Watch link", "观战链接"),
    "web_room_start": ("Deal", "开始发牌"),
    "web_room_close_room": ("Close the room", "关闭房间"),
    "web_room_waiting": (
        "Waiting for the host to deal. Seats nobody takes are played by computers.",
        "等待房主发牌。没人坐的座位由电脑代打。",
    ),
    "web_room_waiting_host": (
        "Send each friend a seat's link (or let them scan its code), then deal.",
        "把座位链接发给朋友（或让他们扫码），然后开始发牌。",
    ),
    "web_room_seat": ("Seat {n}", "座位 {n}"),
    "web_room_bot": ("computer ({level})", "电脑（{level}）"),
    "web_room_free": ("free", "空位"),
    "web_room_away": ("away", "离线"),
    "web_room_spectator": (
        "Watching: no hand is shown until the deal is over.",
        "观战中：本局结束前不显示任何手牌。",
    ),
    "web_room_name_prompt": ("Your name at this table", "你在这桌的名字"),
    "web_room_time_left": ("{n} s left", "剩 {n} 秒"),
    "web_room_next_host": ("The host deals the next deal.", "由房主发下一局。"),
    "web_room_closed_note": ("The room is closed. Totals: {totals}", "房间已关闭。总分：{totals}"),
    "web_room_deals": ("{n} deals", "{n} 局"),
    "web_room_live_lost": ("Connection lost; reconnecting…", "连接中断，正在重连…"),
    "web_room_name_default": ("Host", "房主"),
    "web_room_invite_all": ("Invite", "邀请"),
    "web_room_take_seat": ("Take a free seat", "找个空位坐下"),
    "web_room_wait": ("{who} to play…", "等待{who}出牌…"),
    "web_room_won": ("{who} wins the deal.", "{who}赢了这局。"),
    # pdk play --join
    "join_bad_link": (
        "not a seat's link: {url} (copy it from the room page: http://…/room/<id>#k=<key>)",
        "不是座位链接：{url}（请从房间页面复制：http://…/room/<id>#k=<key>）",
    ),
    "join_not_a_seat": ("that link is for watching, not a seat", "这是观战链接，不是座位链接"),
    "join_unreachable": ("cannot reach the room at {url}: {detail}", "连不上 {url} 的房间：{detail}"),
    "join_lost": (
        "connection to the room lost ({detail}); retrying…",
        "与房间的连接中断（{detail}），正在重试…",
    ),
    "join_history_failed": (
        "this deal could not be added to your history: {detail}",
        "本局未能写入你的战绩：{detail}",
    ),
}
