"""Type stubs of the native module ``crokinole._crokinole`` (Rust, pyo3). The friendly API
is ``crokinole`` itself; these are the functions it calls. JSON arguments and results are
the texts the ``crokinole`` command reads and prints."""

from os import PathLike
from typing import Any, Callable, Optional, Sequence, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "CrokinoleError",
    "DEFAULT_NOISE",
    "Engine",
    "GameBatch",
    "Table",
    "__version__",
    "check_flick",
    "fit",
    "flicks",
    "games_summary",
    "legal_offsets",
    "merge_study",
    "play",
    "play_shard",
    "read_text",
    "render_plan",
    "render_shot",
    "render_summary",
    "simulate_file",
    "skills_json",
    "study",
    "study_flicks",
    "study_shard",
    "suggest",
    "team_of_seat",
]

__version__: str
DEFAULT_NOISE: str

def team_of_seat(seat: int, players: int = 2) -> int:
    """The library's team of a seat in play; ``CrokinoleError`` for a seat not in play."""

class CrokinoleError(ValueError):
    """Bad input, refused before anything runs, with the command's message."""

def read_text(path: Union[str, PathLike[str]]) -> str:
    """A file's text; ``OSError`` if unreadable, ``CrokinoleError`` if not UTF-8."""

def skills_json() -> str:
    """The named skill levels (what ``crokinole params --skills`` prints)."""

@final
class Engine:
    """A board and its physics, from a shot file's text (its shots ignored)."""

    def __new__(cls, text: str) -> "Engine": ...
    def params_json(self) -> str:
        """The ``board`` and ``physics`` blocks as JSON."""
    def simulate_arrays(
        self,
        discs: npt.NDArray[np.float64],
        teams: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64],
        pos: npt.NDArray[np.float64],
        vel: npt.NDArray[np.float64],
        spin: npt.NDArray[np.float64],
        team: npt.NDArray[np.int64],
        threads: Optional[int] = None,
        outcomes: bool = False,
        skip_invalid: bool = False,
    ) -> tuple[
        npt.NDArray[np.float64],
        npt.NDArray[np.int8],
        npt.NDArray[np.uint64],
        npt.NDArray[np.uint64],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        Optional[str],
        list[Optional[str]],
    ]:
        """``(pos, state, events, steps, time, cut_off, outcomes_json, refused)`` of a batch."""

def simulate_file(
    text: str, rules: Optional[str] = None, trace: Optional[int] = None, threads: Optional[int] = None
) -> str:
    """The outcome file ``crokinole simulate`` prints for a shot file's text."""

def flicks(
    engine: Engine,
    seat: int,
    team: int,
    offset: npt.NDArray[np.float64],
    aim: npt.NDArray[np.float64],
    speed: npt.NDArray[np.float64],
    spin: npt.NDArray[np.float64],
    target: Optional[tuple[float, float]] = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Flicks in player terms to ``(pos[N, 2], vel[N, 2], spin[N])``."""

def study(
    text: str,
    samples: int = 10000,
    seed: int = 0,
    threads: Optional[int] = None,
    per_sample: bool = False,
) -> tuple[str, Optional[dict[str, Any]]]:
    """``(summary_json, per-sample arrays or None)`` of a study file's text."""

def study_flicks(
    text: str, n: int, seed: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]
]:
    """The executed flicks ``(offset, aim, speed, spin)`` of samples ``0..n``."""

def suggest(
    text: str,
    budget: str = "20000",
    objective: str = "score",
    top: int = 5,
    seed: int = 0,
    threads: Optional[int] = None,
) -> str:
    """The plan ``crokinole suggest`` prints for a suggest file's text."""

def fit(
    text: str,
    coefficients: Optional[list[str]] = None,
    holdout: float = 0.0,
    seed: int = 0,
    max_iterations: Optional[int] = None,
    threads: Optional[int] = None,
    title: str = "fit",
) -> tuple[str, str, str]:
    """``crokinole fit``'s JSON report (compact), the fitted ``board`` and ``physics``
    blocks and the picture, for a tracks file's text."""

def play(
    strategies: Sequence[Union[str, Callable[[dict[str, Any]], Any]]],
    players: int = 2,
    ruleset_name: str = "traditional",
    noise_spec: str = ...,
    seed: int = 0,
    games: int = 1,
    max_rounds: int = 100,
    threads: Optional[int] = None,
    illegal: str = "raise",
) -> str:
    """The game log (one game) or the summary ``crokinole play`` prints."""

def check_flick(
    flick: Any,
    seat: int,
    players: int,
    ruleset_name: str,
    discs: npt.NDArray[np.float64],
    teams: npt.NDArray[np.int64],
) -> Optional[str]:
    """``None`` if the flick is legal for the seat in the position, else the reason."""

def legal_offsets(
    seat: int,
    players: int,
    ruleset_name: str,
    discs: npt.NDArray[np.float64],
    teams: npt.NDArray[np.int64],
) -> list[tuple[float, float]]:
    """The offsets along the shooting line where the seat may place its disc."""

def render_shot(
    text: str, shot: int = 0, title: Optional[str] = None, name: Optional[str] = None, every: int = 10
) -> str:
    """SVG of one shot of a shot file, traced."""

def render_summary(summary: str, study: Optional[str] = None, title: Optional[str] = None, zoom: bool = False) -> str:
    """SVG of a study summary's cloud and class probabilities."""

def render_plan(plan: str, title: Optional[str] = None) -> str:
    """SVG of a plan's heat map."""

def study_shard(
    text: str, samples: int, seed: int, index: int, count: int, threads: Optional[int] = None
) -> str:
    """Shard ``index`` of ``count`` of a study: its state (``montecarlo --shard``)."""

def merge_study(states: Sequence[str], verify: int = 8, verify_seed: int = 0) -> str:
    """The summary of a study from its shard states (``crokinole merge``)."""

def play_shard(
    strategies: Sequence[Union[str, Callable[[dict[str, Any]], Any]]],
    players: int,
    ruleset_name: str,
    noise_spec: str,
    seed: int,
    first: int,
    last: int,
    max_rounds: int,
    threads: Optional[int] = None,
) -> list[int]:
    """The tally (14 integers) of games ``first..last`` of a run."""

def games_summary(
    strategies: Sequence[Union[str, Callable[[dict[str, Any]], Any]]],
    players: int,
    ruleset_name: str,
    noise_spec: str,
    seed: int,
    max_rounds: int,
    tally: Sequence[int],
) -> str:
    """The summary of a run whose games' tallies add up to ``tally``."""

@final
class GameBatch:
    """``n`` two-player games of an agent against a built-in strategy, stepped natively."""

    num_envs: int
    slots: int
    seat: int
    team: int
    def __new__(
        cls,
        n: int,
        seat: int = 0,
        opponent: Union[str, Callable[[dict[str, Any]], Any], None] = None,
        noise_spec: str = ...,
        ruleset_name: str = "tournament",
        max_rounds: int = 100,
        reward: str = "score",
        aim_range: float = 0.25,
        speed_range: tuple[float, float] = ...,
        spin_range: float = 20.0,
    ) -> "GameBatch": ...
    def action_flicks(self, actions: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``[K, 4]`` flicks ``(offset, aim, speed, spin)`` of ``[K, 4]`` actions."""
    def reset(self, indices: Sequence[int], which: Optional[Sequence[int]] = None) -> None:
        """Starts games ``which`` (all) as game indices ``indices`` of the run."""
    def step(
        self, actions: npt.NDArray[np.float64], active: Optional[Sequence[bool]] = None
    ) -> tuple[
        npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]
    ]:
        """``(reward, terminated, truncated, illegal)`` of one step of every game."""
    def observe(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
    ]:
        """``(discs, own, mask, score, round, discs_left)`` of every game."""
    def render_rgb(self, i: int, size: int = 512) -> npt.NDArray[np.uint8]:
        """Game ``i``'s position as an RGB image ``[size, size, 3]``."""
    def log_json(self, i: int) -> str:
        """Game ``i``'s log so far."""

@final
class Table:
    """One game of 2 or 4 players, every seat's flick given from Python a shot at a time."""

    slots: int
    players: int
    def __new__(
        cls,
        players: int = 2,
        noise_spec: str = ...,
        ruleset_name: str = "tournament",
        max_rounds: int = 100,
        aim_range: float = 0.25,
        speed_range: tuple[float, float] = ...,
        spin_range: float = 20.0,
    ) -> "Table": ...
    def render_rgb(self, size: int = 512) -> npt.NDArray[np.uint8]:
        """The position as an RGB image ``[size, size, 3]``."""
    def reset(self, index: int) -> None:
        """Starts game ``index`` of the run."""
    def turn(self) -> Optional[int]:
        """The seat to shoot next, ``None`` once the game is over or capped."""
    def over(self) -> bool:
        """Whether the game is over."""
    def shoot(self, action: Sequence[float]) -> bool:
        """The seat to shoot plays ``action``; whether it was illegal (fallback played)."""
    def leads(self) -> tuple[int, int]:
        """Each team's lead."""
    def winner(self) -> Optional[int]:
        """The winning team once the game is over."""
    def observe(
        self, seat: int
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
    ]:
        """``(discs, own, mask, score, round, discs_left)`` of one seat."""
    def log_json(self) -> str:
        """The game so far as ``crokinole play`` logs it."""
