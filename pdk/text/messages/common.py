"""Messages of ``common`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # Words that bring their own text in both languages (``Said.own``: a profile's title).
    "said_own": ("{en}", "{zh}"),
    # A list said as one parameter (``words``: every problem of a profile).
    "said_list": ("{first}; {rest}", "{first}；{rest}"),
    "err_lang": ("--lang must be zh or en, not {value!r}", "--lang 只能是 zh 或 en，不能是 {value!r}"),
}
