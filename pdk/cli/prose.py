"""Line breaking for mixed 中文 and English prose on a narrow terminal.

rich breaks lines only at spaces, so a Chinese sentence is one long "word": on 40 columns
"压过上家的 QQ（对子）。你有能压过的牌，必须出。" broke after "的" and left the rest for
the next line, however much room the first had. Chinese may break between any two
characters, except before closing punctuation (，。）…) and after opening punctuation
(（《…); Latin words, card groups such as ``QQ`` or ``♠10`` and numbers stay whole, and so does
what a no-break space joins (``GLUE``, shown as a space). ``Prose`` is a rich ``Text`` that
breaks that way and otherwise behaves as a ``Text``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.containers import Lines
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console

_OPEN = "（《「『【〈"
_CLOSE = "，。、；：！？）》」』】〉…"
# Wide (CJK) characters: the CJK blocks, kana, full-width forms and CJK punctuation.
_WIDE = "\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
# A no-break space (U+00A0) glues what it joins into one unit: "累计\u00a0+3" never
# leaves "+3" alone at the start of a line.
GLUE = "\u00a0"
# One unbreakable unit: spaces (not the glue); or a run of non-spaces holding the glue; or
# opening punctuation, then a run of narrow characters or one wide character, then
# closing punctuation.
_UNIT = re.compile(
    rf"[^\S{GLUE}]+|[^\s{GLUE}]*(?:{GLUE}[^\s{GLUE}]*)+|[{_OPEN}]*(?:[^\s{_WIDE}]+|[{_WIDE}])[{_CLOSE}]*"
)


# What a wrapped line hangs under: an indented bullet ("  - "), or an indented key and a
# gap of two or more spaces before its description ("  p, pass   what it does").
_KEYED = re.compile(r" +(?:- |\S(?:.*?\S)? {2,})(?=\S)")


def breaks(text: str, width: int) -> list[int]:
    """Character offsets to break ``text`` at so that every line fits ``width`` cells (a
    unit wider than a line is cut where it overflows)."""
    out: list[int] = []
    used = 0
    for m in _UNIT.finditer(text):
        unit = m.group()
        if unit.isspace():
            used += cell_len(unit)  # trailing spaces may hang past the edge
            continue
        start = m.start()
        size = cell_len(unit)
        if used + size > width and used > 0:
            out.append(start)
            used = 0
        while size > width:  # longer than a line: fold it
            cut, taken = start, 0
            while cut < m.end() and taken + cell_len(text[cut]) <= width:
                taken += cell_len(text[cut])
                cut += 1
            out.append(cut)
            start, size = cut, size - taken
        used += size
    return out


class Prose(Text):
    """A ``Text`` that breaks lines between Chinese characters, not only at spaces."""

    def wrap(self, console: Console, width: int, **options: Any) -> Lines:
        lines = Lines()
        for line in self.split(allow_blank=True):
            # A bullet or a line laid out as a table row wraps under its own text, not
            # back at the margin.
            key = _KEYED.match(line.plain)
            hang, head, body = 0, Text(), line
            if key is not None and cell_len(key.group()) <= width // 2:
                hang, head, body = cell_len(key.group()), line[: key.end()], line[key.end() :]
            for i, piece in enumerate(body.divide(breaks(body.plain, width - hang))):
                piece.rstrip()
                if GLUE in piece.plain:  # shown as the space it is (same length: styles stay)
                    piece.plain = piece.plain.replace(GLUE, " ")
                if hang:
                    piece = (head if i == 0 else Text(" " * hang)) + piece
                lines.append(piece)
        return Text.wrap(Text("\n").join(lines), console, width, **options)
