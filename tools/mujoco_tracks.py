#!/usr/bin/env python3
"""Writes tracks files (docs/tracks.md) made by an independent physics: MuJoCo.

What it makes. `crokinole fit` has so far been tested on tracks made by the engine itself,
which can only show that the fit inverts its own forward model. These files come from a
different physics: a 3D MuJoCo scene of a tournament board, with compliant contacts, a disc
face that touches the board at many points and a centre of mass above the board. Fitting
them asks the question a real board will ask: which coefficients does the 2D impulse model
need to reproduce tracks it did not make, and how well can it?

    python3 tools/mujoco_tracks.py --out fixtures/tracks/mujoco-60.json          # 60 shots
    python3 tools/mujoco_tracks.py --all fixtures/tracks                         # every fixture

Each dataset `NAME.json` comes with `NAME.truth.json`: each shot's true launch (velocity,
spin), its kind and first contact, and the scene's *effective* coefficients, measured by
calibration runs in the same MuJoCo scene (below), not read off the XML. Needs
`pip install mujoco numpy` (tested with MuJoCo 4.0.1); deterministic for a given `--seed`
(MuJoCo runs single-threaded, shots are drawn from one numpy Generator).

Why MuJoCo. It is a maintained, documented rigid-body simulator whose contact model
(E. Todorov, "Convex and analytically-invertible dynamics with contacts and constraints",
ICRA 2014; the MuJoCo documentation, "Computation" and "Modeling: Contact") shares nothing
with the engine: contacts are soft constraints that last a millisecond instead of
instantaneous impulses, friction is a convex cone solved together with the normal force,
and the board's friction acts at the points where the face touches it, not as a closed
form. Its disagreements with the engine are therefore the kind a real board will show.

The model (SI units, the frame of docs/board.md, z up, the playing surface z = 0).

- The surface is an infinite plane. It has no 20 hole: shots are drawn so that no disc's
  centre comes within `hole_radius + disc_radius + 1 mm` of the centre (where a real disc
  would start to overhang the hole), and a drawn shot that does is drawn again. A disc
  whose centre passes `surface_radius` has fallen into the ditch: its track ends and it is
  taken out of the scene (moved far away), as the engine does.
- A disc is a free body of mass 0.0055 kg with the inertia of a uniform cylinder of radius
  0.015875 m and thickness 0.009525 m (centre of mass h = 4.7625 mm above the board). It
  touches the board through 37 small spheres (radius 1 mm) spread over its bottom face on
  a hexagonal pattern (rings of 1, 6, 12, 18 at 0, s, 2s, 3s with s = R / 3.5; their second
  moment of area is 95 % of a uniform face's), so the pressure under the face is
  distributed and can shift towards the leading edge (load transfer), and friction acts
  at each point with its own slip: spin slows by the friction moments of the face, and a
  spinning, sliding disc feels the coupled friction of Farkas et al. without it being
  written anywhere. Board contacts: elliptic friction cone, condim 3 (each point's
  torsional friction is nothing, the face's is the sum of the points' moments),
  `solref = (2 ms, 1)`, `solimp = (0.99, 0.99, 0.001)`.
- Disc-disc and disc-peg contacts are made by a second, contact-only sphere of radius R
  at the disc's centre of mass, which at the disc's height touches another disc or a
  peg exactly where the disc's rim would, with a horizontal normal through both centres
  (a cylinder would put the contact point anywhere on its side and tip the disc). Pegs
  are fixed cylinders (radius 0.0047625 m, 12.7 mm tall) at 0.1016 m, angles 22.5 + 45 k
  degrees. These contacts are stiff springs with little damping given directly as
  `solref = (-stiffness, -damping)`: a contact lasts about a millisecond and the damping
  sets the restitution (it also depends a little on the speed, the contact spanning about
  ten steps); elliptic cone, condim 3, friction `--disc-friction`, `--peg-friction`, with
  `solreffriction = (0.4 ms, 1)` so that a slipping contact reaches its Coulomb limit (with
  the rims' light damping as its reference, friction acted as a weak viscosity and the
  measured ratio of impulses was 0.04-0.13 for a friction of 0.2).
- What MuJoCo's friction does to a spinning disc (tools/mujoco_curl.py): the sliding
  face contacts chatter (the disc's centre rises some 10-150 um above its resting height,
  a property of MuJoCo's convex contact model), and the sideways drift of a spinning
  slide is about half the load-transfer formula `w0 v0 h / (3 g)` (0.25-0.7 of it at
  0.5-2 m/s, 1.9 mm instead of 3.2 mm at 1 m/s and 20 rad/s) and depends on the board
  contact's stiffness. The curl in these tracks is therefore real but weaker than a
  steady load transfer gives; the curl study measures the latter separately.
- Time step 1/9600 s (40 steps a frame at 240 fps), implicitfast integrator, Newton
  solver, `impratio` 10 (friction about as stiff as the normal force).

The effective coefficients (the truth file's `effective` block) are measured in the
scene, each by its own runs:

- `board_friction`: a lone disc launched without spin at 0.5, 1 and 1.5 m/s; a parabola
  fitted to its distance over the first 80 % of its slide gives the deceleration a;
  mu = a / g.
- `disc_restitution`, `peg_restitution`: head-on impacts on a resting disc and on a peg
  at 0.5, 1, 1.5 and 2 m/s, without spin; e = (relative normal speed after the contact) /
  (before it), taken from the velocities at the steps just before and just after the
  contact (the 1 ms contact costs the discs about 1 mm/s to board friction).
- `disc_friction`, `peg_friction`: oblique impacts (struck at 60 degrees from the normal,
  with spin adding to the slip, at 0.5, 1 and 1.5 m/s), which slip throughout the
  contact: the ratio of the tangential to the normal impulse, each the sum of the contact
  force (MuJoCo's own `mj_contactForce`, in the contact frame) over the steps of the
  contact. The truth file gives each run and the largest fraction of the contact's
  normal impulse during which the contact was not at its friction limit.

The shots (`--shots 60`: 20 lone slides, 25 disc-disc, 15 disc-peg; `--shots 12`: 4, 5,
3). A third of the shooters spin at 3-20 rad/s of either sign; launches at 0.5-2 m/s;
in some shots (7 of 60, 3 of 12) the shooter starts so close to the disc or peg it
strikes that the contact comes 0.3 to 4.5 frames (at 240 fps) after the launch. Most
shots stay on the board: a drawn shot that sends a disc into the ditch is drawn again once
a fifth of the shots have done so. Every disc on the surface is observed at
240 frames a second from the first frame after the launch until every disc has been at
rest for 50 ms, each coordinate with Gaussian noise of `--sigma` (1 mm), each
observation dropped with probability `--drop` (5 %), positions rounded to 0.1 mm and
times to 10 us. `shooter.pos` and `discs[].pos` are the exact starting centres (the
scene starts from them).

Variants. `--board-friction` (0.12; the fixture `mujoco-60-mu09.json` uses 0.09);
`--wrong-scale 1.05` writes every position multiplied by 1.05 (a camera calibrated
with the wrong scale); `--peg-circle 0.115` puts the scene's pegs on a circle of 0.115 m.
Both still claim the tournament board, for the fit's refusal tests.
"""

import argparse
import json
import math
import os
import sys
import time

import mujoco
import numpy as np

# Tournament board and discs (docs/board.md).
SURFACE_R = 0.3302
SHOOTING_R = 0.3048
FIFTEEN_R = 0.1016
HOLE_R = 0.0174625
PEG_R = 0.0047625
PEG_HEIGHT = 0.0127
DISC_R = 0.015875
DISC_H = 0.009525  # thickness
DISC_M = 0.0055
G = 9.81
HOLE_KEEP_OUT = HOLE_R + DISC_R + 0.001  # no disc centre comes nearer the centre than this

FPS = 240
STEPS_PER_FRAME = 40
DT = 1.0 / (FPS * STEPS_PER_FRAME)

# Contact settings (see the docstring). Rim contacts: stiffness k and damping b of the
# constraint-space spring, per unit effective mass.
BOARD_SOLREF = "0.002 1"
SOLIMP = "0.99 0.99 0.001"
RIM_OMEGA = 3000.0  # rad/s: a contact lasts about pi / omega = 1 ms
DISC_DAMPING = 330.0  # b for disc-disc (gives e about 0.85)
PEG_DAMPING = 1100.0  # b for disc-peg (gives e about 0.6)
RIM_SOLREF_FRICTION = "0.0004 1"  # friction's own reference: slip damped in 0.2 ms, so it
# reaches the Coulomb limit (with the rims' soft damping alone it would act as a weak viscosity)
FACE_RINGS = 3  # 1 + 6 + 12 + 18 = 37 contact points under each disc
FACE_SPHERE_R = 0.001


def peg_positions(radius=FIFTEEN_R):
    return [(radius * math.cos(math.radians(22.5 + 45 * k)),
             radius * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)]


def face_points(rings=FACE_RINGS):
    """Contact points under a disc's face: a hexagonal pattern of 1 + 6 + ... + 6 rings."""
    s = DISC_R / (rings + 0.5)
    pts = [(0.0, 0.0)]
    for i in range(1, rings + 1):
        n = 6 * i
        for j in range(n):
            a = 2 * math.pi * j / n
            pts.append((i * s * math.cos(a), i * s * math.sin(a)))
    return pts


class Params:
    """The scene's settings: what the XML is built from."""

    def __init__(self, board_friction=0.12, disc_friction=0.2, peg_friction=0.15,
                 disc_damping=DISC_DAMPING, peg_damping=PEG_DAMPING, peg_circle=FIFTEEN_R,
                 rings=FACE_RINGS, com_height=DISC_H / 2, impratio=10.0,
                 board_solref=BOARD_SOLREF, board_condim=3):
        self.board_friction = board_friction
        self.disc_friction = disc_friction
        self.peg_friction = peg_friction
        self.disc_damping = disc_damping
        self.peg_damping = peg_damping
        self.peg_circle = peg_circle
        self.rings = rings
        self.com_height = com_height  # centre of mass above the board (the curl study lowers it)
        self.impratio = impratio
        self.board_solref = board_solref
        self.board_condim = board_condim  # 1: frictionless (the curl study adds friction itself)

    def as_dict(self):
        return {
            "timestep": DT,
            "integrator": "implicitfast",
            "cone": "elliptic",
            "impratio": self.impratio,
            "board_contact": {"points": len(face_points(self.rings)),
                              "point_radius": FACE_SPHERE_R, "friction": self.board_friction,
                              "condim": self.board_condim, "solref": self.board_solref,
                              "solimp": SOLIMP},
            "disc_disc_contact": {"friction": self.disc_friction, "condim": 3,
                                  "solref": [-RIM_OMEGA ** 2, -self.disc_damping],
                                  "solimp": SOLIMP},
            "disc_peg_contact": {"friction": self.peg_friction, "condim": 3,
                                 "solref": [-RIM_OMEGA ** 2, -self.peg_damping],
                                 "solimp": SOLIMP},
            "disc": {"radius": DISC_R, "thickness": DISC_H, "mass": DISC_M,
                     "com_height": self.com_height},
            "pegs": {"radius": PEG_R, "height": PEG_HEIGHT, "circle": self.peg_circle},
            "surface": "infinite plane, no hole (shots keep out of it)",
        }


def scene_xml(p, starts, pegs):
    """MJCF of the board, the pegs and one disc per start (x, y)."""
    h = DISC_H / 2
    ixx = DISC_M * (3 * DISC_R ** 2 + DISC_H ** 2) / 12
    izz = DISC_M * DISC_R ** 2 / 2
    pts = face_points(p.rings)
    com = p.com_height - h  # centre of mass relative to the disc's geometric centre
    bodies, pairs = [], []
    for i, (x, y) in enumerate(starts):
        geoms = [f'<geom name="d{i}rim" type="sphere" size="{DISC_R}" pos="0 0 {com:.9f}" '
                 f'contype="0" conaffinity="0" mass="0"/>']
        for k, (px, py) in enumerate(pts):
            geoms.append(f'<geom name="d{i}f{k}" type="sphere" size="{FACE_SPHERE_R}" '
                         f'pos="{px:.9f} {py:.9f} {-h + FACE_SPHERE_R:.9f}" '
                         f'contype="0" conaffinity="0" mass="0"/>')
            pairs.append(f'<pair geom1="board" geom2="d{i}f{k}" condim="{p.board_condim}" '
                         f'friction="{p.board_friction} {p.board_friction} 0 0 0" '
                         f'solref="{p.board_solref}" solimp="{SOLIMP}"/>')
        bodies.append(f'<body name="d{i}" pos="{x:.9f} {y:.9f} {h:.9f}"><freejoint/>'
                      f'<inertial pos="0 0 {com:.9f}" mass="{DISC_M}" '
                      f'diaginertia="{ixx:.6e} {ixx:.6e} {izz:.6e}"/>' + "".join(geoms) + "</body>")
    for i in range(len(starts)):
        for j in range(i + 1, len(starts)):
            pairs.append(f'<pair geom1="d{i}rim" geom2="d{j}rim" condim="3" '
                         f'friction="{p.disc_friction} {p.disc_friction} 0 0 0" '
                         f'solref="{-RIM_OMEGA ** 2} {-p.disc_damping}" solreffriction="{RIM_SOLREF_FRICTION}" '
                         f'solimp="{SOLIMP}"/>')
        for k in range(len(pegs)):
            pairs.append(f'<pair geom1="d{i}rim" geom2="peg{k}" condim="3" '
                         f'friction="{p.peg_friction} {p.peg_friction} 0 0 0" '
                         f'solref="{-RIM_OMEGA ** 2} {-p.peg_damping}" solreffriction="{RIM_SOLREF_FRICTION}" '
                         f'solimp="{SOLIMP}"/>')
    peg_geoms = "".join(
        f'<geom name="peg{k}" type="cylinder" size="{PEG_R} {PEG_HEIGHT / 2}" '
        f'pos="{x:.9f} {y:.9f} {PEG_HEIGHT / 2}" contype="0" conaffinity="0"/>'
        for k, (x, y) in enumerate(pegs))
    return (f'<mujoco model="crokinole"><option timestep="{DT!r}" integrator="implicitfast" '
            f'cone="elliptic" impratio="{p.impratio}" solver="Newton" tolerance="1e-10" '
            f'iterations="100"/>'
            f'<worldbody><geom name="board" type="plane" size="0.4 0.4 0.01" '
            f'contype="0" conaffinity="0"/>{peg_geoms}{"".join(bodies)}</worldbody>'
            f'<contact>{"".join(pairs)}</contact></mujoco>')


class Run:
    """One shot in MuJoCo: discs at `starts` (the shooter last), the shooter launched."""

    def __init__(self, p, starts, pegs):
        self.p = p
        self.pegs = np.array(pegs, dtype=float).reshape(-1, 2)
        self.n = len(starts)
        self.model = mujoco.MjModel.from_xml_string(scene_xml(p, starts, pegs))
        self.data = mujoco.MjData(self.model)
        self.body = [mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, f"d{i}")
                     for i in range(self.n)]
        self.qadr = [self.model.jnt_qposadr[self.model.body_jntadr[b]] for b in self.body]
        self.vadr = [self.model.jnt_dofadr[self.model.body_jntadr[b]] for b in self.body]
        self.rim = [mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, f"d{i}rim")
                    for i in range(self.n)]
        self.peg_geom = [mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, f"peg{k}")
                         for k in range(len(pegs))]
        self.gone = [False] * self.n
        # Settle onto the board (20 ms), then start the clock at rest.
        for _ in range(200):
            mujoco.mj_step(self.model, self.data)
        self.data.qvel[:] = 0.0
        self.data.time = 0.0
        self.steps = 0

    def xy(self):
        return np.array([self.data.qpos[a:a + 2] for a in self.qadr])

    def vel(self, i):
        a = self.vadr[i]
        return self.data.qvel[a:a + 2].copy(), float(self.data.qvel[a + 5])

    def launch(self, i, vel, spin):
        a = self.vadr[i]
        self.data.qvel[a:a + 2] = vel
        self.data.qvel[a + 5] = spin  # the free joint's angular velocity is in the body frame: z is up

    def remove(self, i):
        """The disc fell into the ditch: move it far off the board, at rest."""
        a, v = self.qadr[i], self.vadr[i]
        self.data.qpos[a:a + 3] = (5.0 + i, 5.0, DISC_H / 2)
        self.data.qpos[a + 3:a + 7] = (1, 0, 0, 0)
        self.data.qvel[v:v + 6] = 0.0
        self.gone[i] = True

    def touching(self):
        """Rim contacts now: [(i, j)] disc pairs and [(i, k)] disc-peg pairs, from the scene's
        own contact list."""
        dd, dp = [], []
        nc = self.data.ncon
        if nc == 0:
            return dd, dp
        geoms = self.data.contact.geom[:nc]
        rim = {g: i for i, g in enumerate(self.rim)}
        peg = {g: k for k, g in enumerate(self.peg_geom)}
        for g1, g2 in geoms:
            if g1 in rim and g2 in rim:
                dd.append((rim[g1], rim[g2]))
            elif g1 in rim and g2 in peg:
                dp.append((rim[g1], peg[g2]))
            elif g2 in rim and g1 in peg:
                dp.append((rim[g2], peg[g1]))
        return dd, dp

    def step(self):
        mujoco.mj_step(self.model, self.data)
        self.steps += 1


def simulate_shot(p, rest, shooter, vel, spin, pegs, max_time=8.0):
    """Runs a shot; returns the frames (every disc's centre or None when gone), the
    contact log and the closest approach of any disc to the board's centre."""
    starts = list(rest) + [shooter]
    run = Run(p, starts, pegs)
    n = run.n
    run.launch(n - 1, vel, spin)
    frames = []  # per frame k = 1, 2, ...: list of (x, y) or None
    contacts = []  # (time, "disc", i, j) or (time, "peg", i, k): first step of each contact
    active = set()
    closest = 1.0
    rest_frames = 0
    exact_start = run.xy()
    max_steps = int(max_time / DT)
    while run.steps < max_steps:
        run.step()
        xy = run.xy()
        r = np.hypot(xy[:, 0], xy[:, 1])
        for i in range(n):
            if not run.gone[i]:
                closest = min(closest, r[i])
                if r[i] > SURFACE_R:
                    run.remove(i)
        dd, dp = run.touching()
        now = set(("disc",) + c for c in dd) | set(("peg",) + c for c in dp)
        for c in sorted(now - active):
            contacts.append((run.steps * DT,) + c)
        active = now
        if run.steps % STEPS_PER_FRAME == 0:
            frames.append([None if run.gone[i] else (float(xy[i, 0]), float(xy[i, 1]))
                           for i in range(n)])
            moving = False
            for i in range(n):
                if run.gone[i]:
                    continue
                v, w = run.vel(i)
                if np.hypot(*v) > 2e-4 or abs(w) > 0.05:
                    moving = True
            rest_frames = 0 if moving else rest_frames + 1
            if rest_frames * STEPS_PER_FRAME * DT >= 0.05:
                break
    return {"frames": frames, "contacts": contacts, "closest": closest,
            "start": exact_start, "gone": list(run.gone), "time": run.steps * DT}


# ---------------------------------------------------------------- calibration

def _contact_run(p, rest, shooter, vel, spin, pegs, pair):
    """Runs until the given rim contact ends; returns velocities just before and just after
    it, and the normal and tangential impulses summed from MuJoCo's contact forces."""
    starts = list(rest) + [shooter]
    run = Run(p, starts, pegs)
    n = run.n
    run.launch(n - 1, vel, spin)
    g1 = run.rim[pair[1]] if pair[0] == "disc" else run.rim[pair[1]]
    g2 = run.rim[pair[2]] if pair[0] == "disc" else run.peg_geom[pair[2]]
    before = after = None
    jn = 0.0
    jt = np.zeros(2)
    frame = None
    not_sliding = 0.0
    f6 = np.zeros(6)
    prev = [run.vel(i) for i in range(n)]
    started = False
    while run.steps < int(2.0 / DT):
        run.step()
        found = None
        for c in range(run.data.ncon):
            con = run.data.contact[c]
            if {con.geom[0], con.geom[1]} == {g1, g2}:
                found = c
                break
        if found is not None:
            if not started:
                started = True
                before = prev
            con = run.data.contact[found]
            mujoco.mj_contactForce(run.model, run.data, found, f6)
            sign = 1.0 if con.geom[0] == g1 else -1.0  # force on geom2 from geom1's side
            fr = np.array(con.frame).reshape(3, 3)
            if frame is None:
                frame = fr
            # This step's force in its own frame: along the normal, along the horizontal
            # tangent, and vertical (the normal turns as the discs move on).
            world = sign * (fr.T @ f6[:3])
            nrm = fr[0] * sign
            tan = np.array([-nrm[1], nrm[0], 0.0])
            tan /= np.linalg.norm(tan)
            jn += float(world @ nrm) * DT
            jt += np.array([float(world @ tan), world[2]]) * DT
            mu = p.disc_friction if pair[0] == "disc" else p.peg_friction
            if f6[0] > 0 and math.hypot(f6[1], f6[2]) < 0.98 * mu * f6[0]:
                not_sliding += f6[0] * DT
        elif started:
            after = [run.vel(i) for i in range(n)]
            break
        prev = [run.vel(i) for i in range(n)]
    return before, after, jn, abs(float(jt[0])), not_sliding / jn if jn else None


def calibrate(p, log=print):
    """Measures the scene's effective coefficients (see the module docstring)."""
    pegs = peg_positions(p.peg_circle)
    out = {}
    # Board friction: lone slides without spin, far from the pegs.
    runs = []
    for v0 in (0.5, 1.0, 1.5):
        run = Run(p, [(0.0, -0.28)], [])
        run.launch(0, (0.0, v0), 0.0)
        ts, ys = [], []
        t_stop = v0 / (p.board_friction * G)
        while run.steps * DT < 0.8 * t_stop:
            run.step()
            ts.append(run.steps * DT)
            ys.append(run.xy()[0, 1] + 0.28)
        c = np.polyfit(ts, ys, 2)
        runs.append({"v0": v0, "deceleration": -2 * c[0], "mu": -2 * c[0] / G,
                     "fitted_v0": c[1]})
    out["board_friction"] = {
        "value": float(np.mean([r["mu"] for r in runs])), "runs": runs,
        "how": "lone slides without spin at 0.5, 1, 1.5 m/s: a parabola fitted to the "
               "distance over the first 80 % of the slide gives the deceleration a; mu = a / g"}
    # Restitutions: head-on.
    for kind in ("disc", "peg"):
        runs = []
        for v0 in (0.5, 1.0, 1.5, 2.0):
            if kind == "disc":
                rest, shooter, pg, pair = [(0.0, -0.15)], (0.0, -0.15 - 2 * DISC_R - 0.003), [], ("disc", 0, 1)
                b, a, jn, jt, _ = _contact_run(p, rest, shooter, (0.0, v0), 0.0, pg, pair)
                vn_before = b[1][0][1] - b[0][0][1]
                vn_after = a[1][0][1] - a[0][0][1]
            else:
                px, py = pegs[6]  # 292.5 degrees: approach it radially from outside
                u = np.array([px, py]) / math.hypot(px, py)
                shooter = tuple(np.array([px, py]) + u * (PEG_R + DISC_R + 0.003))
                b, a, jn, jt, _ = _contact_run(p, [], shooter, tuple(-u * v0), 0.0, pegs, ("peg", 0, 6))
                vn_before = float(np.dot(b[0][0], u))
                vn_after = float(np.dot(a[0][0], u))
            e = -vn_after / vn_before
            runs.append({"v0": v0, "e": e, "normal_speed_before": abs(vn_before),
                         "normal_speed_after": abs(vn_after)})
        out[f"{kind}_restitution"] = {
            "value": float(np.mean([r["e"] for r in runs])), "runs": runs,
            "how": f"head-on impacts on a {'resting disc' if kind == 'disc' else 'peg'} "
                   "without spin: relative normal speed just after the contact over just before"}
    # Contact frictions: oblique impacts, slipping throughout.
    for kind in ("disc", "peg"):
        runs = []
        for v0 in (0.5, 1.0, 1.5):
            ang = math.radians(60)  # angle between the approach and the normal at contact
            if kind == "disc":
                target = np.array([0.0, -0.15])
                n = np.array([math.sin(ang), math.cos(ang)])  # from shooter to target at contact
                contact_pos = target - 2 * DISC_R * n
                shooter = contact_pos - np.array([0.0, 0.003])
                b, a, jn, jt, ns = _contact_run(p, [tuple(target)], tuple(shooter), (0.0, v0),
                                                15.0, [], ("disc", 0, 1))
            else:
                px, py = pegs[6]
                peg = np.array([px, py])
                u_out = peg / np.linalg.norm(peg)
                # approach along -u_out, hitting the peg 60 degrees off its normal
                perp = np.array([-u_out[1], u_out[0]])
                n = -u_out * math.cos(ang) + perp * math.sin(ang)  # from disc to peg at contact
                contact_pos = peg - (PEG_R + DISC_R) * n
                shooter = contact_pos + u_out * 0.003
                b, a, jn, jt, ns = _contact_run(p, [], tuple(shooter), tuple(-u_out * v0),
                                                15.0, pegs, ("peg", 0, 6))
            runs.append({"v0": v0, "impact_angle_deg": 60, "normal_impulse": jn,
                         "tangential_impulse": jt, "ratio": jt / jn,
                         "share_not_at_friction_limit": ns})
        out[f"{kind}_friction"] = {
            "value": float(np.mean([r["ratio"] for r in runs])), "runs": runs,
            "how": "oblique impacts (60 degrees off the normal, spin adding to the slip) that "
                   "slip throughout: tangential over normal impulse, each the sum of "
                   "mj_contactForce over the contact's steps"}
    for k, v in out.items():
        log(f"  effective {k:17s} {v['value']:.4f}  ({', '.join(f'{x:.4f}' for x in _vals(v))})")
    return out


def _vals(v):
    return [r.get("mu", r.get("e", r.get("ratio"))) for r in v["runs"]]


# ---------------------------------------------------------------- shots

def _unit(a):
    return np.array([math.cos(a), math.sin(a)])


def _clear(pt, pegs, gap=0.002):
    """A disc at pt is on the shooting area, clear of the pegs and of the hole's keep-out."""
    r = math.hypot(*pt)
    if r > SHOOTING_R - DISC_R or r < HOLE_KEEP_OUT + 0.004:
        return False
    return all(math.hypot(pt[0] - x, pt[1] - y) > DISC_R + PEG_R + gap for x, y in pegs)


def _path_clear(a, b, pegs, others=(), gap=0.003):
    """The straight path from a to b keeps clear of the pegs, the hole and other discs."""
    a, b = np.asarray(a), np.asarray(b)
    d = b - a
    L2 = float(d @ d) or 1e-12

    def dist(c):
        c = np.asarray(c)
        t = min(1.0, max(0.0, float((c - a) @ d) / L2))
        return float(np.linalg.norm(a + t * d - c))
    if dist((0.0, 0.0)) < HOLE_KEEP_OUT + gap:
        return False
    if any(dist(pg) < DISC_R + PEG_R + gap for pg in pegs):
        return False
    return all(dist(o) >= 2 * DISC_R + gap for o in others)


def _edge_distance(p0, u):
    """Distance from p0 along u to the surface's edge."""
    b = float(p0 @ u)
    c = float(p0 @ p0) - SURFACE_R ** 2
    return -b + math.sqrt(b * b - c)


def draw_shot(rng, kind, spin, early, p, pegs):
    """A candidate shot: (rest discs, shooter start, launch velocity, spin, target)."""
    mu = p.board_friction
    for _ in range(10000):
        speed_hi = 2.0 if rng.random() < 0.2 else 1.4
        if kind == "slide":
            r = rng.uniform(0.12, SHOOTING_R - DISC_R)
            start = r * _unit(rng.uniform(0, 2 * math.pi))
            u = _unit(rng.uniform(0, 2 * math.pi))
            room = _edge_distance(start, u)
            if rng.random() < 0.8:  # stops on the board
                dist = rng.uniform(0.1, max(0.11, room - 0.03))
                v = math.sqrt(2 * mu * G * dist)
            else:
                v = rng.uniform(0.5, speed_hi)
            if not (0.45 <= v <= 2.0):
                continue
            end = start + u * min(room, v * v / (2 * mu * G) * 1.15)
            if not _clear(start, pegs) or not _path_clear(start, end, pegs):
                continue
            return [], start, v * u, spin, None
        # Something is struck: a resting disc or a peg.
        if kind == "disc":
            target = rng.uniform(0.05, SHOOTING_R - DISC_R - 0.01) * _unit(rng.uniform(0, 2 * math.pi))
            if not _clear(target, pegs, 0.003):
                continue
            reach = 2 * DISC_R
            cut = math.asin(rng.uniform(-0.85, 0.85))
        else:
            k = int(rng.integers(len(pegs)))
            target = np.array(pegs[k])
            reach = DISC_R + PEG_R
            cut = math.asin(rng.uniform(-0.8, 0.8))
        u = _unit(rng.uniform(0, 2 * math.pi))  # direction of travel
        n = math.cos(cut) * u + math.sin(cut) * np.array([-u[1], u[0]])  # shooter to target at contact
        at_contact = target - reach * n
        v = rng.uniform(0.5, speed_hi)
        # An early contact comes 0.3 to 4.5 frames after the launch.
        gap = v * rng.uniform(0.3, 4.5) / FPS if early else rng.uniform(0.03, 0.22)
        start = at_contact - gap * u
        if not _clear(start, pegs if kind == "disc" else [q for q in pegs if q is not pegs[k]]):
            continue
        if kind == "peg" and math.hypot(*(start - target)) < reach + 0.0005:
            continue
        if kind == "disc" and math.hypot(*(start - target)) < 2 * DISC_R + 0.0005:
            continue
        if v * v < 2 * mu * G * gap * 1.5 + 0.1:
            continue
        others = [q for q in pegs if kind == "disc" or q is not pegs[k]]
        if not _path_clear(start, at_contact, others):
            continue
        rest = [target] if kind == "disc" else []
        return rest, start, v * u, spin, target
    raise RuntimeError("no shot found")


def make_dataset(p, counts, seed, n_spin_frac=1 / 3, early_counts=(0, 0), sigma=0.001,
                 drop=0.05, leave_share=0.2, log=print):
    """Draws and simulates the shots; returns (shots for the tracks file, truth per shot)."""
    rng = np.random.default_rng(seed)
    pegs = peg_positions(p.peg_circle)
    kinds = ["slide"] * counts[0] + ["disc"] * counts[1] + ["peg"] * counts[2]
    total = len(kinds)
    spinning = set(rng.permutation(total)[:round(total * n_spin_frac)].tolist())
    early = set(range(counts[0], counts[0] + early_counts[0])) | set(
        range(counts[0] + counts[1], counts[0] + counts[1] + early_counts[1]))
    shots, truth = [], []
    redrawn = 0
    leaving = 0
    for idx, kind in enumerate(kinds):
        while True:
            spin = 0.0
            if idx in spinning:
                spin = float(rng.uniform(3, 20) * rng.choice([-1, 1]))
            rest, start, vel, spin, target = draw_shot(rng, kind, spin, idx in early, p, pegs)
            rest = [tuple(round(float(c), 9) for c in q) for q in rest]
            start = tuple(round(float(c), 9) for c in start)
            sim = simulate_shot(p, rest, start, tuple(vel), spin, pegs)
            ok = sim["closest"] >= HOLE_KEEP_OUT
            c = sim["contacts"]
            shooter_id = len(rest)
            if kind == "slide":
                ok = ok and not c
            elif kind == "disc":
                ok = ok and bool(c) and c[0][1] == "disc"
            else:
                ok = ok and bool(c) and c[0][1:] == ("peg", shooter_id, target_index(pegs, target))
            if idx in early:
                ok = ok and bool(c) and c[0][0] <= 5.0 / FPS
            # The shooter must be seen for a while after the launch.
            seen = sum(1 for f in sim["frames"] if f[shooter_id] is not None)
            ok = ok and seen >= 12
            # Most shots stay on the board: at most a fifth send a disc into the ditch.
            if any(sim["gone"]):
                ok = ok and leaving < round(total * leave_share)
            if ok:
                leaving += any(sim["gone"])
                break
            redrawn += 1
        tracks = []
        for i in range(len(rest) + 1):
            pts = []
            for k, f in enumerate(sim["frames"], start=1):
                if f[i] is None or rng.random() < drop:
                    continue
                x, y = f[i] + rng.normal(0.0, sigma, 2)
                pts.append({"t": round(k / FPS, 5), "pos": [round(float(x), 4), round(float(y), 4)]})
            if pts:
                tracks.append({"disc": i, "points": pts})
        shots.append({"discs": [{"team": 1, "pos": list(q)} for q in rest],
                      "shooter": {"team": 0, "pos": list(start)},
                      "sigma": sigma, "tracks": tracks})
        first = c[0] if c else None
        truth.append({
            "shot": idx, "kind": kind, "vel": [round(float(vel[0]), 6), round(float(vel[1]), 6)],
            "speed": round(float(np.hypot(*vel)), 6), "spin": round(spin, 6),
            "first_contact": None if first is None else {
                "t": round(first[0], 6), "frames": round(first[0] * FPS, 3), "with": first[1],
                "body": int(first[3])},
            "contacts": [{"t": round(x[0], 6), "with": x[1], "disc": int(x[2]), "other": int(x[3])}
                         for x in c],
            "left_surface": [i for i, g in enumerate(sim["gone"]) if g],
            "closest_to_centre": round(sim["closest"], 6),
            "frames": len(sim["frames"]),
            "observations": sum(len(t["points"]) for t in tracks),
        })
        log(f"  shot {idx:2d} {kind:5s} v={np.hypot(*vel):.3f} w={spin:+6.2f} "
            f"contacts={len(c)} first={'-' if not c else f'{c[0][0] * FPS:.1f}fr {c[0][1]}'} "
            f"gone={truth[-1]['left_surface']} frames={len(sim['frames'])}")
    return shots, truth, redrawn


def target_index(pegs, target):
    for k, q in enumerate(pegs):
        if abs(q[0] - target[0]) < 1e-12 and abs(q[1] - target[1]) < 1e-12:
            return k
    return -1


def scaled(shots, s):
    """Every position times s (a camera calibrated with the wrong scale)."""
    out = json.loads(json.dumps(shots))
    for shot in out:
        for d in shot["discs"]:
            d["pos"] = [round(c * s, 9) for c in d["pos"]]
        shot["shooter"]["pos"] = [round(c * s, 9) for c in shot["shooter"]["pos"]]
        for t in shot["tracks"]:
            for pt in t["points"]:
                pt["pos"] = [round(c * s, 4) for c in pt["pos"]]
    return out


def write_tracks(path, description, shots):
    """One track a line; compact numbers."""
    compact = {"separators": (",", ":")}
    head = {"description": description,
            "physics": {"disc_radius": DISC_R, "disc_mass": DISC_M, "gravity": G}}
    text = json.dumps(head, **compact)[:-1] + ',"shots":[\n'
    parts = []
    for s in shots:
        lead = {k: s[k] for k in ("discs", "shooter", "sigma")}
        t = json.dumps(lead, **compact)[:-1] + ',"tracks":[\n'
        t += ",\n".join(json.dumps(tr, **compact) for tr in s["tracks"])
        parts.append(t + "]}")
    text += ",\n".join(parts) + "\n]}\n"
    with open(path, "w") as f:
        f.write(text)


def generate(args, log=print):
    t0 = time.time()
    p = Params(board_friction=args.board_friction, disc_friction=args.disc_friction,
               peg_friction=args.peg_friction, peg_circle=args.peg_circle)
    if args.shots == 60:
        counts, early = (20, 25, 15), (4, 3)
    elif args.shots == 12:
        counts, early = (4, 5, 3), (2, 1)
    else:
        a = args.shots // 3
        counts, early = (a, args.shots - 2 * a - a // 2, a + a // 2), (min(2, a), min(1, a))
    log(f"{args.out}: calibrating the scene (board friction {p.board_friction})")
    eff = calibrate(p, log)
    t1 = time.time()
    shots, truth, redrawn = make_dataset(p, counts, args.seed, early_counts=early,
                                         sigma=args.sigma, drop=args.drop, log=log)
    if args.wrong_scale != 1.0:
        shots = scaled(shots, args.wrong_scale)
    t2 = time.time()
    what = (f"{len(shots)} shots simulated in MuJoCo {mujoco.__version__} "
            f"(tools/mujoco_tracks.py --seed {args.seed} --board-friction {args.board_friction}"
            + (f" --wrong-scale {args.wrong_scale}" if args.wrong_scale != 1.0 else "")
            + (f" --peg-circle {args.peg_circle}" if args.peg_circle != FIFTEEN_R else "")
            + f"): {counts[0]} lone slides, {counts[1]} disc-disc, {counts[2]} disc-peg; "
            f"240 fps, {args.sigma * 1000:g} mm noise, {args.drop * 100:g} % of frames dropped. "
            f"Effective coefficients of the scene: board_friction {eff['board_friction']['value']:.4f}, "
            f"disc_restitution {eff['disc_restitution']['value']:.3f}, disc_friction "
            f"{eff['disc_friction']['value']:.3f}, peg_restitution {eff['peg_restitution']['value']:.3f}, "
            f"peg_friction {eff['peg_friction']['value']:.3f} (the truth file beside it).")
    if args.wrong_scale != 1.0:
        what += f" WRONG BOARD: every position is multiplied by {args.wrong_scale}."
    if args.peg_circle != FIFTEEN_R:
        what += f" WRONG BOARD: the scene's pegs stand on a circle of {args.peg_circle} m."
    write_tracks(args.out, what, shots)
    truth_path = args.out[:-5] + ".truth.json" if args.out.endswith(".json") else args.out + ".truth.json"
    with open(truth_path, "w") as f:
        json.dump({"description": "The truth behind " + os.path.basename(args.out) + ": " + what,
                   "mujoco_version": mujoco.__version__, "seed": args.seed,
                   "wrong_scale": args.wrong_scale, "scene": p.as_dict(),
                   "effective": eff, "redrawn_shots": redrawn, "shots": truth}, f, indent=1)
        f.write("\n")
    log(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) and {truth_path}; "
        f"calibration {t1 - t0:.1f} s, shots {t2 - t1:.1f} s, {redrawn} redrawn")


FIXTURES = [  # name, arguments
    ("mujoco-60.json", ["--shots", "60", "--seed", "60"]),
    ("mujoco-60-mu09.json", ["--shots", "60", "--seed", "61", "--board-friction", "0.09"]),
    ("mujoco-12.json", ["--shots", "12", "--seed", "12"]),
    ("mujoco-wrong-scale.json", ["--shots", "10", "--seed", "105", "--wrong-scale", "1.05"]),
    ("mujoco-wrong-pegs.json", ["--shots", "10", "--seed", "115", "--peg-circle", "0.115"]),
]


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="tracks file to write (its truth file goes beside it)")
    ap.add_argument("--all", metavar="DIR", help="write every fixture into DIR instead")
    ap.add_argument("--shots", type=int, default=60, help="60 (20/25/15), 12 (4/5/3) or another count")
    ap.add_argument("--seed", type=int, default=60)
    ap.add_argument("--board-friction", type=float, default=0.12)
    ap.add_argument("--disc-friction", type=float, default=0.2, help="disc-disc contact friction in the XML")
    ap.add_argument("--peg-friction", type=float, default=0.15, help="disc-peg contact friction in the XML")
    ap.add_argument("--sigma", type=float, default=0.001, help="noise per coordinate, m")
    ap.add_argument("--drop", type=float, default=0.05, help="share of observations dropped")
    ap.add_argument("--wrong-scale", type=float, default=1.0, help="multiply every written position")
    ap.add_argument("--peg-circle", type=float, default=FIFTEEN_R, help="radius of the scene's pegs' circle")
    ap.add_argument("--calibrate-only", action="store_true", help="print the effective coefficients and stop")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if args.calibrate_only:
        calibrate(Params(board_friction=args.board_friction, disc_friction=args.disc_friction,
                         peg_friction=args.peg_friction))
        return
    if args.all:
        for name, extra in FIXTURES:
            generate(ap.parse_args(extra + ["--out", os.path.join(args.all, name)]))
        return
    if not args.out:
        ap.error("--out or --all is needed")
    generate(args)


if __name__ == "__main__":
    main()
