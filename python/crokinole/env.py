"""Gymnasium environments: one seat of a two-player game against a built-in strategy.

``gymnasium.make("crokinole/Crokinole-v0", **options)`` (registered when ``crokinole`` is
imported) makes a :class:`CrokinoleEnv`; ``gymnasium.make_vec("crokinole/Crokinole-v0",
num_envs=N)`` (registered through ``vector_entry_point``) or :class:`CrokinoleVectorEnv`
steps ``N`` games natively, in one rayon batch per step, in any of Gymnasium's autoreset
modes (``autoreset_mode=``: ``NEXT_STEP`` by default, ``SAME_STEP``, ``DISABLED``).

**An episode** is one game (the ``tournament`` rule set by default: four rounds of eight
discs each) with the agent in ``seat`` (0 or 2) against ``opponent``: a built-in
strategy (``random``, ``greedy:k=8``, ``montecarlo:k=8:m=8``, ``planner:budget=2000``) or
a Python policy, a callable ``turn -> flick`` as :func:`crokinole.play` takes one (an
earlier copy of the agent, for self-play; an exception it raises is raised by ``step``
or ``reset``, and an illegal flick raises :class:`crokinole.CrokinoleError` with the
reason). For every seat played by agents, see :mod:`crokinole.crokinole_v0`.
Each step the agent shoots once, then the opponent shoots until it is the agent's turn
again or the game ends. Every flick, the agent's included, is executed with the players'
error ``noise`` (``crokinole play``'s model and seeds). ``terminated`` when the game is
over; ``truncated`` when it stops after ``max_rounds`` rounds.

**Action**: ``Box(-1, 1, (4,), float32)``, values clipped to ``[-1, 1]``:

=====  ===========================================================================
a[0]   offset on the shooting line: ``a0 * 0.9 * R / sqrt(2)`` m (R the shooting
       line's radius: 90 % of the quadrant's half width), + to the player's right
a[1]   aim: ``a1 * aim_range`` rad counter-clockwise from the direction toward the
       20 hole's centre (``aim_range`` 0.25 by default)
a[2]   speed: ``lo + (a2 + 1) / 2 * (hi - lo)`` m/s, ``speed_range = (lo, hi)``
       (0.3 to 3.0 by default)
a[3]   spin: ``a3 * spin_range`` rad/s, counter-clockwise (20 by default)
=====  ===========================================================================

An action whose flick is not legal where it stands (the disc would overlap a disc on the
shooting line) is replaced by the turn's fallback flick (a legal place nearest the middle
of the line, toward the 20 hole at its stopping speed); ``info["illegal"]`` says so.

**Observation** (a ``Dict``; ``S`` = 2 x discs per player, the most discs a round puts on
the board: 16 for ``tournament``, 24 for ``traditional``):

==============  ==============================  =========================================
``discs``       ``Box(-1, 1, (S, 2), float32)``  centres on the board, m, board frame;
                                                 discs fill the first slots in id order
``own``         ``MultiBinary(S)``               1 where the disc is the agent's team's
``mask``        ``MultiBinary(S)``               1 where a slot holds a disc
``score``       ``Box(0, 10000, (2,), int32)``   game score: agent's team, opponent's
``round``       ``Box(0, 10000, (2,), int32)``   the round in progress: 20 x twenties +
                                                 board score, agent's team, opponent's
``discs_left``  ``Box(0, 12, (2,), int32)``      discs left to shoot this round: agent,
                                                 opponent
==============  ==============================  =========================================

**Reward** (``reward="score"``): the change over the step of the agent's lead, ``(own -
other)`` game score plus ``(own - other)`` of the round in progress. With
``reward="win"``: +1 / -1 / 0 when the game ends won / lost / drawn, 0 before.

**Render** (``render_mode``): ``rgb_array`` gives the position as an RGB image ``[512,
512, 3]`` (uint8: the board and its discs as the library's pictures draw them, rasterised
by resvg; what ``RecordVideo`` records), ``ansi`` a text board (each disc its team's
digit); the vector environment gives one frame per game.

**Seeds**: ``reset(seed=s)`` seeds the environment's generator, which draws the game (a
game index of ``crokinole play``'s run with seed 0: first shooter, the strategies'
decisions and every player's error all follow from it), so a reset with the same seed
and the same actions gives the same episode.
"""

from __future__ import annotations

import json
from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import DEFAULT_NOISE, CrokinoleError, _noise
from ._crokinole import GameBatch
from .text_board import text_board

#: Bound of the game seeds drawn by ``reset`` (game indices of the run).
_SEED_BOUND = 2**63

#: Keys of the observation, in the order ``GameBatch.observe`` returns them.
_KEYS = ("discs", "own", "mask", "score", "round", "discs_left")


def _spaces(slots: int) -> spaces.Dict:
    """The observation space for ``slots`` disc slots."""
    return spaces.Dict(
        {
            "discs": spaces.Box(-1.0, 1.0, (slots, 2), np.float32),
            "own": spaces.MultiBinary(slots),
            "mask": spaces.MultiBinary(slots),
            "score": spaces.Box(0, 10_000, (2,), np.int32),
            "round": spaces.Box(0, 10_000, (2,), np.int32),
            "discs_left": spaces.Box(0, 12, (2,), np.int32),
        }
    )


def _batch(**options: Any) -> GameBatch:
    """The native games for the environments' options."""
    n = options.pop("num_envs", 1)
    return GameBatch(
        n,
        seat=options.get("seat", 0),
        opponent=options.get("opponent", "greedy:k=8"),
        noise_spec=_noise(options.get("noise", DEFAULT_NOISE)),
        ruleset_name=options.get("ruleset", "tournament"),
        max_rounds=options.get("max_rounds", 100),
        reward=options.get("reward", "score"),
        aim_range=options.get("aim_range", 0.25),
        speed_range=tuple(options.get("speed_range", (0.3, 3.0))),
        spin_range=options.get("spin_range", 20.0),
    )


#: Side of the ``rgb_array`` frames, px.
FRAME_SIZE = 512


def _check_render_mode(mode: Optional[str], metadata: dict) -> None:
    if mode is not None and mode not in metadata["render_modes"]:
        raise CrokinoleError(
            f"field `render_mode`: expected one of {metadata['render_modes']} or None, got `{mode}`"
        )


def _render(native: Any, i: int, mode: Optional[str], team: int) -> Any:
    """Game ``i`` of ``native`` (a ``GameBatch``) drawn for ``mode``."""
    if mode == "rgb_array":
        return native.render_rgb(i, FRAME_SIZE)
    if mode == "ansi":
        obs = {k: v[i] for k, v in _observation(native).items()}
        mask = obs["mask"].astype(bool)
        teams = [team if own else 1 - team for own in obs["own"][mask]]
        header = (
            f"team {team} (agent) - team {1 - team}: score {obs['score'][0]}-{obs['score'][1]}, "
            f"round {obs['round'][0]}-{obs['round'][1]}, "
            f"discs left {obs['discs_left'][0]}-{obs['discs_left'][1]}"
        )
        return text_board(obs["discs"][mask], teams, header)
    return None


def _observation(native: GameBatch) -> dict:
    """Every game's observation, batched (arrays with a leading game axis)."""
    arrays = native.observe()
    out = dict(zip(_KEYS, arrays))
    return out


class CrokinoleEnv(gym.Env):
    """One seat of a two-player Crokinole game against a built-in strategy or a Python
    policy (module documentation for the spaces, the reward and the options).

    Options: ``seat`` (0 or 2), ``opponent`` (``"greedy:k=8"``; or a callable), ``noise`` (a dict, a
    skill level's name such as ``"competitive"``, or the command line's
    ``offset=..,aim=..`` form; ``crokinole play``'s default), ``ruleset``
    (``"tournament"``), ``max_rounds`` (100), ``reward`` (``"score"`` or ``"win"``),
    ``aim_range`` (0.25 rad), ``speed_range`` ((0.3, 3.0) m/s), ``spin_range`` (20 rad/s).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 2}

    def __init__(self, render_mode: Optional[str] = None, **options: Any):
        _check_render_mode(render_mode, self.metadata)
        self.render_mode = render_mode
        self.options = dict(options)
        self._native = _batch(num_envs=1, **options)
        self.observation_space = _spaces(self._native.slots)
        self.action_space = spaces.Box(-1.0, 1.0, (4,), np.float32)

    def _obs(self) -> dict:
        return {k: v[0] for k, v in _observation(self._native).items()}

    def _info(self, illegal: bool = False) -> dict:
        return {"illegal": illegal, "game_index": self._index}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Starts a new game (drawn from the environment's generator, seeded by ``seed``)
        and plays the opponent's shots up to the agent's first turn."""
        super().reset(seed=seed)
        self._index = int(self.np_random.integers(_SEED_BOUND))
        self._native.reset([self._index])
        return self._obs(), self._info()

    def step(self, action: Any):
        """The agent shoots ``action``; the opponent replies (module documentation)."""
        a = np.asarray(action, dtype=np.float64).reshape(1, 4)
        reward, terminated, truncated, illegal = self._native.step(a)
        return (
            self._obs(),
            float(reward[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            self._info(bool(illegal[0])),
        )

    def render(self) -> Any:
        """The position after the last step: with ``render_mode="rgb_array"`` an RGB image
        ``[512, 512, 3]`` (uint8; the board drawn by the library and rasterised, as
        ``RecordVideo`` takes it), with ``"ansi"`` a text board (str); ``None`` without a
        render mode."""
        return _render(self._native, 0, self.render_mode, self._native.team)

    def flick(self, action: Any) -> dict:
        """The flick (player terms) that ``action`` means: ``{"offset", "aim", "speed",
        "spin"}``, ``aim`` relative to the direction toward the 20 hole."""
        f = self._native.action_flicks(np.asarray(action, dtype=np.float64).reshape(1, 4))[0]
        return dict(zip(("offset", "aim", "speed", "spin"), map(float, f)))

    def game_log(self) -> dict:
        """The game so far as ``crokinole play`` logs it (every shot with its intended and
        executed flick, outcome and verdict)."""
        return json.loads(self._native.log_json(0))


class CrokinoleVectorEnv(VectorEnv):
    """``num_envs`` games of :class:`CrokinoleEnv`, stepped together in one native rayon
    batch per step (the GIL released).

    ``autoreset_mode`` (a :class:`gymnasium.vector.AutoresetMode` or its value; also in
    ``metadata``) says what happens to a game that ends, as Gymnasium defines the modes:

    - ``NEXT_STEP`` (the default, Gymnasium's): the step that ends it returns its last
      observation; the next step resets it instead of stepping it (its action ignored,
      reward 0, not terminated or truncated) and returns the new game's first
      observation.
    - ``SAME_STEP``: the step that ends it resets it at once and returns the new game's
      first observation, the ended game's last one in ``info["final_obs"]``
      (``info["_final_obs"]`` marks which) and its info in ``info["final_info"]``.
    - ``DISABLED``: nothing is reset; ``reset(options={"reset_mask": mask})`` resets the
      games marked (a step of an ended game not reset raises :class:`CrokinoleError`).

    Game ``i`` after ``reset(seed=s)`` is the game a :class:`CrokinoleEnv` plays after
    ``reset(seed=s + i)``, so ``N`` single environments reset with ``s, s+1, ...`` and
    given the same actions play the same games; a game reset later draws its next game
    from its own generator, as a single environment's ``reset()`` does.

    ``info`` holds ``illegal`` (the agent's action was replaced by the fallback flick) and
    after a reset ``game_index``, each with its ``_`` mask.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array", "ansi"], "render_fps": 2}

    def __init__(
        self,
        num_envs: int = 1,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        render_mode: Optional[str] = None,
        **options: Any,
    ):
        _check_render_mode(render_mode, type(self).metadata)
        self.render_mode = render_mode
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(m.name for m in AutoresetMode)
            raise CrokinoleError(
                f"field `autoreset_mode`: expected one of {names}, got {autoreset_mode!r}"
            ) from None
        self.num_envs = num_envs
        self.options = dict(options)
        self.autoreset_mode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._native = _batch(num_envs=num_envs, **options)
        self.single_observation_space = _spaces(self._native.slots)
        self.single_action_space = spaces.Box(-1.0, 1.0, (4,), np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs: list = [None] * num_envs
        self._indices: list = [0] * num_envs
        # NEXT_STEP: the games that ended on the last step, reset on the next one.
        self._autoreset = np.zeros(num_envs, dtype=bool)

    def _draw(self, i: int) -> int:
        return int(self._rngs[i].integers(_SEED_BOUND))

    def _restart(self, which: list) -> None:
        """Starts the next game of each game in ``which`` (drawn from its generator)."""
        for i in which:
            self._indices[i] = self._draw(i)
        self._native.reset([self._indices[i] for i in which], which)

    def _index_info(self, which: np.ndarray) -> dict:
        return {
            "game_index": np.array(self._indices, dtype=np.uint64),
            "_game_index": which,
        }

    def reset(self, *, seed: Any = None, options: Optional[dict] = None):
        """Starts every game, or with ``options={"reset_mask": mask}`` the games marked:
        with ``seed`` an int ``s``, game ``i``'s generator is seeded with ``s + i`` (a list
        gives one seed per game); without, a game reset for the first time is seeded from
        fresh entropy and a game reset again draws its next game from its generator."""
        mask = None if options is None else options.get("reset_mask")
        if mask is None:
            mask = np.ones(self.num_envs, dtype=bool)
        else:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise CrokinoleError(
                    f"field `reset_mask`: must be {self.num_envs} booleans, got {mask.dtype} {list(mask.shape)}"
                )
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise CrokinoleError(f"field `seed`: one per game ({self.num_envs}), got {len(seeds)}")
        which = [int(i) for i in np.flatnonzero(mask)]
        for i in which:
            if seeds[i] is not None or self._rngs[i] is None:
                self._rngs[i] = gym.utils.seeding.np_random(seeds[i])[0]
        self._restart(which)
        self._autoreset[mask] = False
        return _observation(self._native), self._index_info(mask.copy())

    def step(self, actions: Any):
        """Steps every game with its row of ``actions[N, 4]``; what happens to games that
        end follows ``autoreset_mode`` (class documentation)."""
        a = np.asarray(actions, dtype=np.float64).reshape(self.num_envs, 4)
        info: dict = {}
        restarted = self._autoreset.copy()
        if restarted.any():
            self._restart([int(i) for i in np.flatnonzero(restarted)])
            info.update(self._index_info(restarted))
        active = ~restarted
        reward, terminated, truncated, illegal = self._native.step(a, active.tolist())
        info["illegal"] = illegal
        info["_illegal"] = active
        done = np.logical_or(terminated, truncated)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._autoreset = done
        elif self.autoreset_mode == AutoresetMode.SAME_STEP and done.any():
            final = _observation(self._native)
            final_info = {"illegal": illegal.copy(), "_illegal": done.copy()}
            self._restart([int(i) for i in np.flatnonzero(done)])
            info.update(self._index_info(done))
            info["final_obs"] = np.array(
                [{k: v[i] for k, v in final.items()} if done[i] else None for i in range(self.num_envs)],
                dtype=object,
            )
            info["_final_obs"] = done
            info["final_info"] = final_info
            info["_final_info"] = done
        return _observation(self._native), reward, terminated, truncated, info

    def render(self) -> Optional[tuple]:
        """Every game drawn as :meth:`CrokinoleEnv.render` draws one: a tuple of ``N``
        frames (what Gymnasium's vector ``RecordVideo`` tiles), or ``None`` without a
        render mode."""
        if self.render_mode is None:
            return None
        team = self._native.team
        return tuple(_render(self._native, i, self.render_mode, team) for i in range(self.num_envs))

    def game_log(self, i: int) -> dict:
        """Game ``i``'s log so far (as :meth:`CrokinoleEnv.game_log`)."""
        return json.loads(self._native.log_json(i))
