#!/usr/bin/env python3
"""A crokinole-match/1 player that asks the `crokinole` package's planner for each flick.

Each `turn` becomes a suggest file (docs/suggest.md): the board, physics, rule set and
this seat's noise from `hello`, the discs of the turn; `crokinole.suggest` searches it
and the best flick is played. Needs the Python package (`pip install ./python`).
    crokinole match --player 'python3 examples/players/planner.py 4000' --player builtin:greedy
The argument is the planner's sample budget (default 4000; keep it within the shot clock).
"""
import json
import sys

import crokinole


def main():
    budget = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    hello, top, tries = None, [], 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            hello = msg
            reply = {"type": "ready", "name": f"planner.py:{budget}"}
        elif kind == "turn":
            situation = {key: hello[key] for key in ("board", "physics", "players", "ruleset", "noise")}
            situation["seat"] = msg["seat"]
            situation["discs"] = msg["position"]["discs"]
            top = crokinole.suggest(situation, budget=budget, top=3, seed=msg["round"] * 100 + msg["shot"]).top
            tries = 0
            reply = dict(top[0]["flick"], type="flick")
        elif kind == "error" and not msg["fatal"] and tries + 1 < len(top):
            tries += 1
            reply = dict(top[tries]["flick"], type="flick")
        elif kind == "game_end":
            return
        else:
            continue
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
