#!/usr/bin/env python3
"""A crokinole-match/1 player in the standard library only (docs/match.md).

It aims every disc at the centre from a place on its shooting line, at a speed that
stops there, with a little randomness; after an `error` it tries another place.
Run it under the referee:
    crokinole match --player 'python3 examples/players/simple.py' --player builtin:greedy
"""
import json
import random
import sys

OFFSETS = [0.0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def flick(k, rng):
    return {"type": "flick", "offset": OFFSETS[k % len(OFFSETS)],
            "aim": 0.0, "target": [0.0, 0.0],
            "speed": 0.85 + rng.uniform(-0.05, 0.05), "spin": 0.0}


def main():
    rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else 1)
    tries = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send({"type": "ready", "name": "simple.py"})
        elif kind == "turn":
            tries = rng.randrange(len(OFFSETS))
            send(flick(tries, rng))
        elif kind == "error" and not msg["fatal"]:
            tries += 1
            send(flick(tries, rng))
        elif kind == "game_end":
            return


if __name__ == "__main__":
    main()
