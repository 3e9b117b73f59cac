"""A PettingZoo environment: a Crokinole game of 2 or 4 players, one agent per seat.

``from crokinole import crokinole_v0; env = crokinole_v0.env(players=4)`` makes an
``AECEnv`` (agents take turns, as the players do). Needs ``pettingzoo``
(``pip install "./python[pettingzoo]"``).

**Agents**: ``seat_0`` and ``seat_2`` with two players; ``seat_0`` to ``seat_3`` with four,
seats 0 and 2 partners (team 0) against seats 1 and 3 (team 1). The agent to act is the
seat to shoot (the rules decide who starts a round and that turns go round the table).

**Action** (each agent): ``Box(-1, 1, (4,), float32)``, the Gymnasium environment's
(offset, aim toward the 20 hole, speed, spin; see :mod:`crokinole.env`). An action whose
flick is not legal where it stands is replaced by the turn's fallback flick and the
agent's ``infos[agent]["illegal"]`` says so. Every flick is executed with the players'
error ``noise`` (``crokinole play``'s model and seeds).

**Observation** (each agent, a ``Dict``; ``S`` the most discs a round puts on the board):
``discs`` ``Box(-1, 1, (S, 2))`` (centres, m, board frame), ``own`` and ``mask``
``MultiBinary(S)`` (the agent's team's discs; slots in use), ``score`` and ``round``
``Box(0, 10000, (2,), int32)`` (game score and the round in progress, the agent's team
first), ``discs_left`` ``Box(0, 12, (players,), int32)`` (discs left to shoot this
round, from the agent's seat on in seat order).

**Rewards**: after each shot every agent gets the change of its team's lead (``(own -
other)`` game score plus the round in progress) over that shot, so partners share
rewards, the two teams' rewards sum to zero, and an agent's rewards add up to its team's
final lead. With ``reward="win"``: +1 / -1 / 0 to every agent when the game ends (won /
lost / drawn), 0 before.

**Render** (``render_mode``): ``rgb_array`` (the board and its discs drawn by the
library, rasterised, ``[512, 512, 3]`` uint8) or ``ansi`` (a text board).

**Episode**: one game; every agent is terminated when it is over, truncated when it
stops after ``max_rounds`` rounds. ``reset(seed=s)`` draws the game (an index of
``crokinole play``'s run with seed 0) from a generator seeded with ``s``, so the same seed
and actions give the same game. Options as the Gymnasium environment's: ``noise``,
``ruleset`` (``tournament``), ``max_rounds`` (100), ``reward``, ``aim_range``,
``speed_range``, ``spin_range``.
"""

from __future__ import annotations

import json
from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import DEFAULT_NOISE, CrokinoleError, _noise
from ._crokinole import Table
from .env import FRAME_SIZE
from .text_board import text_board

__all__ = ["env", "raw_env"]

_KEYS = ("discs", "own", "mask", "score", "round", "discs_left")
_SEED_BOUND = 2**63


def env(**options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's own are (actions checked against the
    space, order of calls enforced)."""
    e = raw_env(**options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """One Crokinole game, one agent per seat (module documentation)."""

    metadata = {"render_modes": ["rgb_array", "ansi"], "name": "crokinole_v0", "is_parallelizable": False, "render_fps": 2}

    def __init__(self, players: int = 2, render_mode: Optional[str] = None, **options: Any):
        super().__init__()
        reward = options.pop("reward", "score")
        if reward not in ("score", "win"):
            raise CrokinoleError(f"field `reward`: expected `score` or `win`, got `{reward}`")
        unknown = set(options) - {"noise", "ruleset", "max_rounds", "aim_range", "speed_range", "spin_range"}
        if unknown:
            raise CrokinoleError(f"field `{sorted(unknown)[0]}`: not an option of crokinole_v0")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CrokinoleError(f"field `render_mode`: expected one of {self.metadata['render_modes']}, got `{render_mode}`")
        self.render_mode = render_mode
        self._win = reward == "win"
        self._table = Table(
            players,
            noise_spec=_noise(options.get("noise", DEFAULT_NOISE)),
            ruleset_name=options.get("ruleset", "tournament"),
            max_rounds=options.get("max_rounds", 100),
            aim_range=options.get("aim_range", 0.25),
            speed_range=tuple(options.get("speed_range", (0.3, 3.0))),
            spin_range=options.get("spin_range", 20.0),
        )
        seats = (0, 2) if players == 2 else (0, 1, 2, 3)
        self.possible_agents = [f"seat_{s}" for s in seats]
        self._seat = {a: s for a, s in zip(self.possible_agents, seats)}
        self._team = {a: (s // 2 if players == 2 else s % 2) for a, s in self._seat.items()}
        slots = self._table.slots
        obs = spaces.Dict(
            {
                "discs": spaces.Box(-1.0, 1.0, (slots, 2), np.float32),
                "own": spaces.MultiBinary(slots),
                "mask": spaces.MultiBinary(slots),
                "score": spaces.Box(0, 10_000, (2,), np.int32),
                "round": spaces.Box(0, 10_000, (2,), np.int32),
                "discs_left": spaces.Box(0, 12, (players,), np.int32),
            }
        )
        act = spaces.Box(-1.0, 1.0, (4,), np.float32)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._rng = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict:
        """``agent``'s view of the game (module documentation)."""
        return dict(zip(_KEYS, self._table.observe(self._seat[agent])))

    def _agent_of(self, seat: int) -> str:
        return f"seat_{seat}"

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Starts a new game, drawn from the environment's generator (seeded by ``seed``)."""
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        self.game_index = int(self._rng.integers(_SEED_BOUND))
        self._table.reset(self.game_index)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"illegal": False, "game_index": self.game_index} for a in self.agents}
        self.agent_selection = self._agent_of(self._table.turn())

    def step(self, action: Any) -> None:
        """The agent to act shoots ``action``; rewards go to every agent (module
        documentation)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        before = self._table.leads()
        a = np.asarray(action, dtype=np.float64).reshape(4)
        illegal = self._table.shoot([float(x) for x in a])
        after = self._table.leads()
        over = self._table.over()
        stopped = self._table.turn() is None
        for x in self.agents:
            team = self._team[x]
            if self._win:
                winner = self._table.winner() if over else None
                self.rewards[x] = 0.0 if winner is None else (1.0 if winner == team else -1.0)
            else:
                self.rewards[x] = float(after[team] - before[team])
            self.infos[x] = {"illegal": illegal if x == agent else False, "game_index": self.game_index}
        if stopped:
            for x in self.agents:
                self.terminations[x] = over
                self.truncations[x] = not over
            # Every agent is now done: PettingZoo has each step once more with None.
            i = self.agents.index(agent)
            self.agent_selection = self.agents[(i + 1) % len(self.agents)]
        else:
            self.agent_selection = self._agent_of(self._table.turn())
        self._accumulate_rewards()

    def game_log(self) -> dict:
        """The game so far as ``crokinole play`` logs it."""
        return json.loads(self._table.log_json())

    def render(self) -> Any:
        """The position: with ``render_mode="rgb_array"`` an RGB image ``[512, 512, 3]``
        (uint8, the board as the library draws it), with ``"ansi"`` a text board (str);
        ``None`` without a render mode."""
        if self.render_mode == "rgb_array":
            return self._table.render_rgb(FRAME_SIZE)
        if self.render_mode == "ansi":
            obs = self.observe(self.possible_agents[0])  # seat 0: team 0 first
            mask = obs["mask"].astype(bool)
            teams = [0 if own else 1 for own in obs["own"][mask]]
            left = " ".join(f"{a}:{n}" for a, n in zip(self.possible_agents, obs["discs_left"]))
            header = (
                f"team 0 - team 1: score {obs['score'][0]}-{obs['score'][1]}, "
                f"round {obs['round'][0]}-{obs['round'][1]}; discs left {left}; "
                f"to shoot: {self.agent_selection}"
            )
            return text_board(obs["discs"][mask], teams, header)
        return None

    def close(self) -> None:
        pass
