"""Messages of ``common`` in English and 中文 (keys are the reason codes and labels it uses)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "err_lang": ("--lang must be zh or en, not {value!r}", "--lang 只能是 zh 或 en，不能是 {value!r}"),
}
