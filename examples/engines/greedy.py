#!/usr/bin/env python3
"""A greedy pdk engine in plain Python (standard library only), speaking docs/protocol.md.

It plays the way greedy.c plays, move for move:
  * leading: the legal play with the most cards (the first listed among equals);
  * following: the first listed play that is not a bomb, else (option "bombs") the first
    bomb; otherwise it passes.
Run it under pdk:  pdk selfplay -p "cmd:python3 examples/engines/greedy.py",normal,normal
"""

import json
import sys

OPTIONS = [{"name": "bombs", "type": "bool", "default": True}]


def choose(act, use_bombs):
    legal = act["legal"]
    if not legal:
        return {"pass": True}
    if act["lead"]:
        best = legal[0]
        for play in legal:
            if play["size"] > best["size"]:
                best = play
        return {"play": best["index"]}
    plain = [p for p in legal if p["kind"] != "bomb"]
    bombs = [p for p in legal if p["kind"] == "bomb"]
    if plain:
        return {"play": plain[0]["index"]}
    if bombs and (use_bombs or not act["can_pass"]):
        return {"play": bombs[0]["index"]}
    return {"pass": True}


def main():
    use_bombs = True
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            hello = {
                "type": "hello",
                "protocol_version": 1,
                "name": "greedy-py",
                "author": "pdk examples",
                "options": OPTIONS,
            }
            out.write(json.dumps(hello) + "\n")
            out.flush()
        elif kind == "setoption" and msg.get("name") == "bombs":
            use_bombs = bool(msg.get("value"))
        elif kind == "act":
            out.write(json.dumps(choose(msg, use_bombs)) + "\n")
            out.flush()
        elif kind == "quit":
            return
        # "deal" and the events ("play", "pass", "trick", "bao_dan", "out", "deal_over")
        # are not needed by this strategy: every "act" carries the legal plays.
        # Every other message (the deal, its events, messages of later versions) is news
        # this engine does not need.


if __name__ == "__main__":
    main()
