#!/usr/bin/env python3
"""Writes fixtures/tracks/curl-study.json: does a spinning disc curl, and by how much? (MuJoCo)

What it measures. A single disc slides and spins on the board of tools/mujoco_tracks.py's
MuJoCo scene (no pegs, no hole, an endless plane), launched along +y from the origin at
v0 = 0.3, 0.5, 1, 1.5, 2 m/s with spin w0 = 3, 10, 20, 40 rad/s (and -20, 0 at 1 m/s).
For each it records where the disc comes to rest in the launch frame (`forward` along the
launch, `left` perpendicular to it, positive to the left of the direction of travel), when
its spin and its slide stop, and compares `left` with the closed form of load transfer

    drift = w0 v0 h / (3 g)     to the right for w0 > 0 (counter-clockwise seen from above)

with h the height of the centre of mass (half the thickness, 4.7625 mm): 3.2 mm at 1 m/s
and 20 rad/s. Its reasoning: a decelerating disc whose friction acts at the board, h below
its centre of mass, presses harder on its leading edge; the leading edge of a disc
turning counter-clockwise slips to the left, so its friction, the larger, pushes right.

The model. The disc touches the board through small spheres spread over its face (91 on
five hexagonal rings here, 37 in the tracks scene), each with its own compliant normal
force (`solref` 2 ms, `solimp` 0.99): the pressure under the face is whatever the rigid
disc's small pitch makes it, so load transfer is not written in; it happens or not. Two
friction models: "mujoco", MuJoCo's own friction at each point (elliptic cone, condim 3,
as in the tracks scene), and "explicit", below. Checks and variants recorded beside the
grid, for both:

- `h = 0`: the same disc with its centre of mass lowered to the board (MJCF `inertial
  pos`): friction then has no moment arm about the centre of mass, there is no load
  transfer, and a flat puck should go straight;
- no spin (w0 = 0) and w0 = -20 rad/s: the drift must vanish, and change sign;
- the stiffness of the board contact (`solref` time constant 1, 2, 5, 10 ms) and the
  number of contact points (37, 91, 169), for 1 m/s and 20 rad/s;
- the largest height the disc's centre rises above its resting height while it slides,
  and the share of steps in which every face point touches: MuJoCo's convex contact model
  lets a sliding contact separate a little (its soft constraints give sliding contacts a
  small separating velocity), so a sliding disc chatters on the board by some 7-160 um;
  the load transfer it gets is then an average over a chattering contact, not a steady
  pressure gradient, which is why the drift is reported against the contact's stiffness.

What it found (MuJoCo 4.0.1; the numbers are in the file):

- MuJoCo's own friction does not give a steady load transfer. Its sliding face contacts
  separate and touch again (the disc's centre rises 7-160 um; every face point touches in
  under 3 % of the steps), and the drift is 0.25 to 0.71 of the formula at 0.5-2 m/s,
  0.97 and 0.64 at 0.3 m/s with 3 and 10 rad/s, and of the opposite sign at 0.3 m/s with
  20 and 40 rad/s and at 0.5 m/s with 40 rad/s; it depends on the contact's stiffness
  (0.30, 0.60, 0.90, 0.92 of the formula at 1 m/s and 20 rad/s for
  `solref` 1, 2, 5, 10 ms) and does not vanish with the centre of mass at the board (up to
  2 mm at 2 m/s, 40 rad/s). It is a property of the contact solver, not of the disc.
- So the study also runs the "explicit" model: MuJoCo keeps the rigid body and the
  compliant normal forces at the 91 points (frictionless, condim 1: no chatter, every point
  touches throughout), and each point gets Coulomb friction mu N_i against its own slip,
  added as a force and moment each step. Load transfer then happens by itself, and the
  drift is 0.96-1.05 of the formula for every case at 0.5-2 m/s, 0.85-1.04 at 0.3 m/s (the
  formula overshoots when the spin dominates: 0.85 at 0.3 m/s and 40 rad/s), the same to
  1 um for `solref` 1 to 10 ms, 1.02-1.04 for 37, 91 and 169 points, exactly mirrored for
  -20 rad/s, zero without spin, and within 3 um of zero with the centre of mass at the
  board. Spin and slide stop at the same instant, as Farkas et al. predict.

    python3 tools/mujoco_curl.py                  # writes fixtures/tracks/curl-study.json
    python3 tools/mujoco_curl.py --quick          # fewer cases, prints only

Needs `pip install mujoco numpy`; deterministic (single-threaded MuJoCo, no randomness).
"""

import argparse
import json
import math
import os
import sys
import time

import mujoco
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mujoco_tracks as mt  # noqa: E402

SPEEDS = (0.3, 0.5, 1.0, 1.5, 2.0)
SPINS = (3.0, 10.0, 20.0, 40.0)


SLIP_EPS = 1e-4  # m/s: below this slip the explicit friction is viscous (regularised Coulomb)


def explicit_friction(run, mu):
    """Coulomb friction at every face point from its normal force (MuJoCo's, this step's
    contacts) and its slip, summed into a force and a moment on the disc (xfrc_applied)."""
    d, m = run.data, run.model
    nc = d.ncon
    b = run.body[0]
    d.xfrc_applied[b] = 0.0
    if nc == 0:
        return
    con = d.contact
    normal = d.efc_force[con.efc_address[:nc]]  # condim 1: one row, the normal force
    pos = con.pos[:nc].copy()
    pos[:, 2] = 0.0  # the point on the board
    com = d.xipos[b]
    r = pos - com
    vel = d.qvel[run.vadr[0]:run.vadr[0] + 6]
    lin = np.array([vel[0], vel[1], vel[2]])
    # angular velocity in the world frame (the free joint's is in the body frame)
    omega = d.xmat[b].reshape(3, 3) @ vel[3:6]
    # the velocity of the body's frame origin is qvel[0:3]; the point's velocity about it
    slip = lin + np.cross(omega, pos - d.xpos[b])
    slip[:, 2] = 0.0
    speed = np.linalg.norm(slip, axis=1)
    f = -(mu * normal / np.maximum(speed, SLIP_EPS))[:, None] * slip
    d.xfrc_applied[b, 0:3] = f.sum(axis=0)
    d.xfrc_applied[b, 3:6] = np.cross(r, f).sum(axis=0)


def slide(v0, w0, board_friction=0.12, rings=5, com_height=mt.DISC_H / 2, board_solref=mt.BOARD_SOLREF,
          friction="mujoco"):
    """One disc launched along +y from the origin: where and when it stops. friction
    "mujoco": MuJoCo's own friction cone at each face point; "explicit": frictionless
    MuJoCo contacts and Coulomb friction added at each point from its normal force."""
    p = mt.Params(board_friction=board_friction, rings=rings, com_height=com_height,
                  board_solref=board_solref, board_condim=3 if friction == "mujoco" else 1)
    run = mt.Run(p, [(0.0, 0.0)], [])
    z_rest = float(run.data.qpos[2])
    start = run.xy()[0].copy()
    run.launch(0, (0.0, v0), w0)
    spin_stop = slide_stop = None
    z_max = 0.0
    full = steps = 0
    npair = run.model.npair
    while run.steps * mt.DT < 20.0:
        if friction == "explicit":
            explicit_friction(run, board_friction)
        run.step()
        steps += 1
        z_max = max(z_max, float(run.data.qpos[2]) - z_rest)
        full += run.data.ncon == npair
        v, w = run.vel(0)
        t = run.steps * mt.DT
        if spin_stop is None and abs(w) < 0.01:
            spin_stop = t
        if spin_stop is not None and slide_stop is None and math.hypot(*v) < 1e-4:
            slide_stop = t
        if slide_stop is None and math.hypot(*v) < 1e-4 and abs(w) < 0.01:
            slide_stop = t
        if spin_stop is not None and slide_stop is not None:
            break
    end = run.xy()[0] - start
    h = com_height
    formula_left = -w0 * v0 * h / (3 * mt.G)
    return {
        "v0": v0, "w0": w0, "h": h, "mu": board_friction, "contact_points": len(mt.face_points(rings)),
        "board_solref": board_solref, "friction": friction,
        "forward": round(float(end[1]), 6), "left": round(float(-end[0]), 7),
        "spin_stop_time": None if spin_stop is None else round(spin_stop, 5),
        "slide_stop_time": None if slide_stop is None else round(slide_stop, 5),
        "formula_left": round(formula_left, 7),
        "ratio_to_formula": None if formula_left == 0 else round(float(-end[0]) / formula_left, 3),
        "no_spin_slide_distance": round(v0 * v0 / (2 * board_friction * mt.G), 6),
        "max_rise": round(z_max, 8), "share_steps_all_points_touching": round(full / steps, 4),
    }


def row(c):
    f = c["formula_left"] * 1000
    return (f"{c['v0']:5.2f} {c['w0']:+6.1f} {c['h'] * 1000:6.3f} {c['contact_points']:4d} "
            f"{c['board_solref']:>9s} {c['forward']:8.4f} {c['left'] * 1000:+8.3f} {f:+8.3f} "
            f"{'' if c['ratio_to_formula'] is None else c['ratio_to_formula']:>6} "
            f"{c['spin_stop_time'] or 0:6.3f} {c['slide_stop_time'] or 0:6.3f} "
            f"{c['max_rise'] * 1e6:7.1f} {c['share_steps_all_points_touching']:6.3f}")


HEADER = ("   v0     w0   h mm  pts    solref  fwd m   left mm  form mm  ratio  t_spin t_slide "
          "rise um  touch")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "fixtures", "tracks", "curl-study.json"))
    ap.add_argument("--quick", action="store_true", help="a few cases, printed, nothing written")
    args = ap.parse_args()
    t0 = time.time()
    print(HEADER)
    grid, checks = [], {}

    def go(lst, **kw):
        c = slide(**kw)
        lst.append(c)
        print(row(c), flush=True)
        return c

    if args.quick:
        for fr in ("mujoco", "explicit"):
            for w in (20.0, -20.0, 0.0):
                go(grid, v0=1.0, w0=w, friction=fr)
            go(grid, v0=1.0, w0=20.0, com_height=0.0, friction=fr)
        return
    for fr in ("explicit", "mujoco"):
        print(f"grid, friction {fr}")
        for v in SPEEDS:
            for w in SPINS:
                go(grid, v0=v, w0=w, friction=fr)
    for fr in ("explicit", "mujoco"):
        print(f"checks, friction {fr}: mirror and no spin; centre of mass at the board (h = 0); "
              "board contact stiffness; contact points")
        checks[fr] = {
            "mirror_and_no_spin": [go([], v0=1.0, w0=-20.0, friction=fr), go([], v0=1.0, w0=0.0, friction=fr)],
            "h0": [go([], v0=v, w0=w, com_height=0.0, friction=fr)
                   for v, w in ((1.0, 20.0), (1.0, 40.0), (2.0, 40.0), (0.5, 10.0))],
            "stiffness": [go([], v0=1.0, w0=20.0, board_solref=sr, friction=fr)
                          for sr in ("0.001 1", "0.005 1", "0.01 1")],
            "points": [go([], v0=1.0, w0=20.0, rings=r, friction=fr) for r in (3, 7)],
        }
    summary = {}
    for fr in ("explicit", "mujoco"):
        g = [c for c in grid if c["friction"] == fr]
        ratio = np.array([c["left"] / c["formula_left"] for c in g])
        ref = next(c for c in g if c["v0"] == 1.0 and c["w0"] == 20.0)
        summary[fr] = {
            "ratio_to_formula_median": round(float(np.median(ratio)), 3),
            "ratio_to_formula_range": [round(float(ratio.min()), 3), round(float(ratio.max()), 3)],
            "reference_1ms_20rads_left_mm": round(ref["left"] * 1000, 3),
            "formula_mm": round(ref["formula_left"] * 1000, 3),
        }
    doc = {
        "description": "A spinning disc's sideways drift in MuJoCo (tools/mujoco_curl.py): each case's rest "
                       "position relative to the launch, in the launch frame (forward along the launch, left "
                       "perpendicular to it, positive to the left of the direction of travel), metres; spin and "
                       "slide stop times, s; the closed form of load transfer -w0 v0 h / (3 g) as formula_left; "
                       "max_rise: the highest the disc's centre rose above its resting height while sliding (m), "
                       "share_steps_all_points_touching: the share of steps in which every face point touched "
                       "the board (the chatter of MuJoCo's sliding contacts).",
        "mujoco_version": mujoco.__version__,
        "scene": mt.Params(rings=5).as_dict(),
        "friction_models": {
            "mujoco": "MuJoCo's own friction: an elliptic cone at each face point, solved with the normal force",
            "explicit": "frictionless MuJoCo face contacts (condim 1), and at each step Coulomb friction "
                        "mu N_i at each face point against its slip, N_i that point's MuJoCo normal force, "
                        f"regularised below {SLIP_EPS} m/s of slip, applied as a force and moment (xfrc_applied)"},
        "grid": grid, "checks": checks, "summary": summary,
        "seconds": round(time.time() - t0, 1),
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(json.dumps(summary))
    print(f"wrote {os.path.normpath(args.out)} in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
