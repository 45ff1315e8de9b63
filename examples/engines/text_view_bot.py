#!/usr/bin/env python3
"""An engine (docs/protocol.md) that decides from the text view a language model would read.

It rebuilds its seat's view from the protocol's messages (``pdk.rl.text_view.ProtocolSeat``),
renders it as text (``SeatView.text()``: hand, card counts, 报单, the trick, the legal plays
numbered), hands that text to ``model`` and turns the model's free-text reply back into an
answer (``answer_for``). ``model`` here is a stand-in that reads the text the way a prompt
would be read: the play with the most cards when it leads, else the first (lowest) legal
play, else a pass. Put a call to a real model there; the text it gets is in the engine's
log (stderr), one view per request.

    pdk selfplay -p "cmd:python3 examples/engines/text_view_bot.py",normal,normal
    pdk engine check "python3 examples/engines/text_view_bot.py"
"""

from __future__ import annotations

import json
import re
import sys

from pdk.rl.text_view import ProtocolSeat, answer_for

_PLAY = re.compile(r"^\s+(\d+): (\S+) \((\w+)\)$")


def model(prompt: str) -> str:
    """The stand-in for a language model: a reply in words, read off the prompt alone."""
    plays = [(int(m[1]), m[2]) for line in prompt.splitlines() if (m := _PLAY.match(line))]
    leading = "You lead" in prompt
    if not plays:
        return "pass"
    if leading:
        index = max(plays, key=lambda p: (len(p[1]), -p[0]))[0]
        return f"I lead with play {index}."
    return f"I play {plays[0][0]}."


def main() -> None:
    seat = ProtocolSeat()
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            hello = {"type": "hello", "protocol_version": 1, "name": "text-view", "author": "pdk examples"}
            out.write(json.dumps(hello) + "\n")
            out.flush()
        elif kind == "quit":
            return
        else:
            seat.feed(msg)
            if kind == "act":
                view = seat.view()
                prompt = view.text()
                reply = model(prompt)
                print(prompt, f"-> {reply}", sep="\n", file=sys.stderr)
                out.write(json.dumps(answer_for(reply, view)) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
