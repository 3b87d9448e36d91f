#!/usr/bin/env python3
"""A tiny salpakan bot speaking the bot protocol (docs/bot-protocol.md).

It reads one JSON object per line on stdin and answers one per line on stdout:
a random setup (null) at the start, then a move at every turn, preferring
challenges/captures (moves onto an occupied square) a little. Standard library only.
"""
import json
import random
import sys


def main():
    rng = random.Random(1)
    seat = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            seat = msg["seat"]
            rng.seed(hash(seat))
            # null asks the arbiter for a random setup; a bot may send its own instead,
            # e.g. {"setup": {"a1": "FLG", ...}}.
            answer = {"setup": None}
        elif kind == "turn":
            moves = msg["legal_moves"]
            board = msg["observation"].get("board", {})
            attacks = [m for m in moves if "-" in m and m.split("-")[1] in board]
            pool = attacks if attacks and rng.random() < 0.5 else moves
            answer = {"move": rng.choice(pool)}
        elif kind == "end":
            break
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
