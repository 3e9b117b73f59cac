#!/usr/bin/env python3
"""Writes the shot files in fixtures/ (see fixtures/README.md).

Standard library only, fixed seeds: running it again rewrites the same bytes.

    python3 tools/make_fixtures.py            # from the crate root
"""

import json
import math
import os
import random

# Tournament board and discs (docs/board.md), as in the shared benchmark files.
SURFACE_R = 0.3302
SHOOTING_R = 0.3048
TEN_R = 0.2032
FIFTEEN_R = 0.1016
HOLE_R = 0.0174625
LINE_W = 0.0015875
PEG_R = 0.0047625
DISC_R = 0.015875
PEGS = [
    [round(FIFTEEN_R * math.cos(math.radians(22.5 + 45 * k)), 9),
     round(FIFTEEN_R * math.sin(math.radians(22.5 + 45 * k)), 9)]
    for k in range(8)
]
BOARD = {
    "surface_radius": SURFACE_R,
    "shooting_line_radius": SHOOTING_R,
    "ten_line_radius": TEN_R,
    "fifteen_line_radius": FIFTEEN_R,
    "hole_radius": HOLE_R,
    "line_width": LINE_W,
    "peg_radius": PEG_R,
    "pegs": PEGS,
}
PHYSICS = {
    "disc_radius": DISC_R,
    "disc_mass": 0.0055,
    "board_friction": 0.12,
    "disc_restitution": 0.6,
    "disc_friction": 0.38,
    "peg_restitution": 0.6,
    "peg_friction": 0.5,
    "gravity": 9.81,
    "dt": 0.001,
    "max_time": 20.0,
}

SHOTS = 200  # per benchmark fixture
GAP = 0.001  # clearance kept between generated discs, pegs, the hole and the lines, m
SEAT0_ANGLES = (235.0, 305.0)  # polar angles of seat 0's shooting positions, degrees


def r9(x):
    """Rounded to the nanometre, as in the shared files."""
    return round(x, 9)


def point(radius, degrees):
    a = math.radians(degrees)
    return [radius * math.cos(a), radius * math.sin(a)]


def flick(rng, speed_range, target, pos, spread):
    """Velocity from `pos` toward `target`, turned by up to `spread` degrees."""
    heading = math.atan2(target[1] - pos[1], target[0] - pos[0])
    heading += math.radians(rng.uniform(-spread, spread))
    speed = rng.uniform(*speed_range)
    return [speed * math.cos(heading), speed * math.sin(heading)]


def toward(pos, target, speed):
    """Velocity of `speed` from `pos` straight at `target`."""
    d = math.dist(pos, target)
    return [speed * (target[0] - pos[0]) / d, speed * (target[1] - pos[1]) / d]


def shooter(team, pos, vel, spin=0.0):
    return {"team": team, "pos": [r9(c) for c in pos], "vel": [r9(c) for c in vel],
            "spin": spin}


def opening_shot(rng):
    """Empty board; seat 0 flicks from its quadrant of the shooting line toward the hole."""
    pos = point(SHOOTING_R, rng.uniform(*SEAT0_ANGLES))
    vel = flick(rng, (0.5, 1.1), (0.0, 0.0), pos, 7.5)
    return {"discs": [], "shooter": shooter(0, pos, vel)}


def clear_of(p, placed, pegs):
    return (all(math.dist(p, q) >= 2 * DISC_R + GAP for q in placed)
            and all(math.dist(p, c) >= DISC_R + PEG_R + GAP for c in pegs))


def crowded_shot(rng):
    """20 discs at rest (10 per team, alternating) wholly between the hole and the shooting
    line; seat 0 flicks at an opponent disc at 1-3 m/s."""
    r_min = HOLE_R + DISC_R + GAP
    r_max = SHOOTING_R - LINE_W / 2 - DISC_R - GAP
    placed = []
    while len(placed) < 20:
        r = math.sqrt(rng.uniform(r_min ** 2, r_max ** 2))  # uniform over the area
        p = point(r, rng.uniform(0.0, 360.0))
        if clear_of(p, placed, PEGS):
            placed.append(p)
    while True:
        pos = point(SHOOTING_R, rng.uniform(*SEAT0_ANGLES))
        if clear_of(pos, placed, []):
            break
    target = placed[rng.randrange(10) * 2 + 1]  # odd indices are team 1
    vel = flick(rng, (1.0, 3.0), target, pos, 1.0)
    discs = [{"team": k % 2, "pos": [r9(c) for c in p]} for k, p in enumerate(placed)]
    return {"discs": discs, "shooter": shooter(0, pos, vel)}


def example_shots():
    """Hand-made shots for the README's first command, one of each kind."""
    return [
        # An opening shot from the middle of seat 0's line that drops into the 20 hole.
        {"discs": [], "shooter": shooter(0, [0.0, -SHOOTING_R], [0.0, 0.85]), "seat": 0},
        # A takeout: seat 0 hits team 1's disc in the 10 zone hard and knocks it off.
        {"discs": [{"team": 1, "pos": [0.15, -0.05]}],
         "shooter": shooter(0, point(SHOOTING_R, 281.0),
                            toward(point(SHOOTING_R, 281.0), [0.15, -0.05], 1.8)),
         "seat": 0},
        # A peg ricochet: seat 0 aims straight at the peg in front of it.
        {"discs": [{"team": 1, "pos": [-0.06, 0.12]}],
         "shooter": shooter(0, point(SHOOTING_R, 290.0),
                            toward(point(SHOOTING_R, 290.0), PEGS[6], 1.2)),
         "seat": 0},
        # Four players, seat 1 (team 1) with spin, past a guard to a disc near the hole.
        {"discs": [{"team": 0, "pos": [0.05, 0.02]}, {"team": 0, "pos": [-0.16, 0.06]},
                   {"team": 1, "pos": [0.14, -0.12]}],
         "shooter": shooter(1, [-SHOOTING_R, 0.0], [1.6, -0.1], spin=25.0),
         "seat": 1, "players": 4},
    ]


def write(path, description, shots, blocks=True):
    """One shot a line, so that a regenerated file diffs by shot."""
    head = {"description": description}
    if blocks:
        head["board"] = BOARD
        head["physics"] = PHYSICS
    compact = dict(separators=(",", ":"))
    text = json.dumps(head, **compact)[:-1] + ',"shots":[\n'
    text += ",\n".join(json.dumps(s, **compact) for s in shots)
    text += "\n]}\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
    os.makedirs(root, exist_ok=True)
    write(os.path.join(root, "example.json"),
          "Four shots on the default board: an opening 20, a takeout, a peg ricochet, "
          "a four-player shot with spin.",
          example_shots(), blocks=False)
    rng = random.Random(20240601)
    write(os.path.join(root, "opening.json"),
          "Empty board; one disc flicked from seat 0's quadrant of the shooting line toward "
          "the 20 hole at 0.5-1.1 m/s.",
          [opening_shot(rng) for _ in range(SHOTS)])
    rng = random.Random(20240602)
    write(os.path.join(root, "crowded.json"),
          "20 discs at rest (10 per team) scattered over the board; seat 0 flicks at an "
          "opponent disc at 1-3 m/s.",
          [crowded_shot(rng) for _ in range(SHOTS)])


if __name__ == "__main__":
    main()
