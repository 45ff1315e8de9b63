"""A test engine that breaks the protocol on purpose: ``faulty.py MODE [DEAL]`` plays
legally (its first legal play, or a pass) until deal DEAL (default 1), then does MODE at
its fourth move. Every start appends its pid to $FAULTY_STARTS, if set."""

import json
import os
import sys
import time


def main() -> None:
    mode = sys.argv[1]
    fail_deal = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    starts = os.environ.get("FAULTY_STARTS")
    if starts:
        with open(starts, "a") as fh:
            fh.write(f"{os.getpid()}\n")
    if mode == "nohello":
        time.sleep(60)  # the fault itself, not a wait: an engine that never says hello (it is killed first)
    deals = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            version = 99 if mode == "version" else 1
            hello = {"type": "hello", "protocol_version": version, "name": "faulty", "author": "tests"}
            print(json.dumps(hello), flush=True)
        elif kind == "deal":
            deals += 1
        elif kind == "act":
            if deals >= fail_deal and msg["move"] >= 4:
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    time.sleep(60)  # the fault itself: an engine that never answers (it is killed first)
                if mode == "garbage":
                    print("I resign", flush=True)
                    continue
                if mode == "illegal":
                    print(json.dumps({"play": 9999}), flush=True)
                    continue
                if mode == "long":
                    sys.stdout.write("x" * (10 << 20) + "\n")
                    sys.stdout.flush()
                    continue
            print(json.dumps({"play": 0} if msg["legal"] else {"pass": True}), flush=True)
        elif kind == "quit":
            break


if __name__ == "__main__":
    main()
