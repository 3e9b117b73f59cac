"""crokinole: the deterministic Crokinole engine in Python.

The Rust library behind the ``crokinole`` command, called directly: shot batches as
numpy arrays, shot files, flicks in player terms, Monte Carlo studies, the rules'
verdicts, the shot planner, games between strategies (built-in or written in Python),
SVG pictures that show inline in Jupyter, a Gymnasium environment
(``gymnasium.make("crokinole/Crokinole-v0")`` once this package is imported; ``make_vec``
gives the native vector one), a PettingZoo environment (:mod:`crokinole.crokinole_v0`),
legality checks before acting (:func:`check_flick`, :func:`legal_offsets`) and runs on a
Dask cluster (:mod:`crokinole.distributed`).

Every input is checked as the command checks it; bad input raises :class:`CrokinoleError`
(a ``ValueError``) with the message the command prints after ``error:``. Results are
bit-identical to the command's for the same input, whatever the thread count. Work runs
with the GIL released on a rayon pool (``threads=None``: all cores).

Units are SI (m, m/s, rad, rad/s); the board frame has its origin at the centre of the 20
hole, seat 0 sitting at -y (docs/board.md, docs/shot-file.md).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import numpy as np

from . import _crokinole
from ._crokinole import CrokinoleError, GameBatch

__all__ = [
    "CrokinoleError",
    "DEFAULT_NOISE",
    "STATES",
    "Batch",
    "Engine",
    "FitResult",
    "GameBatch",
    "Plan",
    "StudyResult",
    "Svg",
    "check_flick",
    "fit",
    "judge",
    "legal_offsets",
    "params",
    "play",
    "render_shot",
    "skills",
    "simulate_file",
    "study",
    "study_flicks",
    "suggest",
    "team_of_seat",
]

__version__ = _crokinole.__version__

#: The players' error of ``crokinole play`` by default (a steady player).
DEFAULT_NOISE: str = _crokinole.DEFAULT_NOISE

#: Names of the codes of :attr:`Batch.state`: 0 on the board, 1 in the 20 hole, 2 in the
#: ditch (-1 marks an unused slot).
STATES = ("board", "hole", "ditch")

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def _plain(x: Any) -> Any:
    """A numpy value as the plain Python value JSON writes (``numpy.int64(3)`` is ``3``,
    an array a list); anything else is refused as ``json`` refuses it."""
    if isinstance(x, (np.generic, np.ndarray)):
        return x.tolist()
    raise TypeError(f"Object of type {type(x).__name__} is not JSON serializable")


def _dumps(value: Any) -> str:
    """``value`` (dicts, lists, numbers, strings; numpy scalars and arrays too) as JSON, or
    :class:`CrokinoleError` naming what is not a JSON value."""
    try:
        return json.dumps(value, default=_plain, allow_nan=True)
    except (TypeError, ValueError) as e:
        raise CrokinoleError(f"field `file`: not a JSON value: {e}") from None


def _text(source: Source) -> tuple[str, Optional[str]]:
    """The JSON text of a file given as a path or as a dict, and its name (for paths)."""
    if isinstance(source, Mapping):
        return _dumps(source), None
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        return _crokinole.read_text(path), path
    raise TypeError(f"expected a path or a dict, got {type(source).__name__}")


def _noise(noise: Union[str, Mapping[str, float], None]) -> str:
    """A noise model in the command line's form: ``none``, a skill level's name
    (``"competitive"``, see :func:`skills`), ``offset=..,aim=..``, or a dict with the keys
    ``offset`` (m), ``aim`` (rad), ``speed`` (fraction), ``spin`` (rad/s)."""
    if noise is None:
        return "none"
    if isinstance(noise, str):
        return noise
    if not noise:
        return "none"
    return ",".join(f"{k}={float(v)!r}" for k, v in noise.items())


def _array(x: Any, dtype: Any, ndim: int, name: str, shape: str) -> np.ndarray:
    """``x`` as a C-contiguous array of ``dtype`` with ``ndim`` dimensions, or
    :class:`CrokinoleError` naming the field."""
    try:
        raw = np.asarray(x)
    except (TypeError, ValueError) as e:
        raise CrokinoleError(f"field `{name}`: not an array of numbers: {e}") from None
    if np.issubdtype(np.dtype(dtype), np.integer) and raw.dtype.kind == "f":
        # Whole numbers only: a cast would truncate 0.99 to 0 and -0.5 to 0 silently.
        f = np.asarray(raw, dtype=np.float64)
        bad = ~np.isfinite(f) | (f != np.round(f)) | (np.abs(f) >= 2.0**63)
        if bad.any():
            at = [int(i) for i in np.argwhere(bad)[0]]
            where = f" (at {at})" if at else ""
            got = float(f[tuple(at)])
            raise CrokinoleError(f"field `{name}`: must hold whole numbers, got {got!r}{where}")
    try:
        a = np.ascontiguousarray(raw, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise CrokinoleError(f"field `{name}`: not an array of numbers: {e}") from None
    if a.ndim != ndim:
        raise CrokinoleError(f"field `{name}`: must have shape {shape}, got {list(a.shape)}")
    return a


def _empty(x: Any) -> bool:
    """Whether ``x`` says "nothing here": ``None`` or an empty sequence or array."""
    return x is None or np.size(np.asarray(x, dtype=object)) == 0


def _per_shot(x: Any, n: int, dtype: Any, name: str) -> np.ndarray:
    """``x`` (a scalar or ``[N]``) as an array of ``n`` values, or :class:`CrokinoleError`."""
    a = _array(np.atleast_1d(np.asarray(x)), dtype, 1, name, "[N]")
    if a.shape[0] == 1 and n != 1:
        a = np.full(n, a[0], dtype=dtype)
    if a.shape[0] != n:
        raise CrokinoleError(f"field `{name}`: must have shape [{n}] (one per shot) or be a number, got {list(a.shape)}")
    return a


def team_of_seat(seat: int, players: int = 2) -> int:
    """The team of ``seat``: with two players seat 0 is team 0 and seat 2 team 1; with four,
    seats 0 and 2 are team 0 and seats 1 and 3 team 1. A seat not in play (1 or 3 with two
    players) or a player count other than 2 or 4 raises :class:`CrokinoleError`. The
    library's rule (``rules::checked_team_of_seat``), not a copy of it."""
    return _crokinole.team_of_seat(int(seat), int(players))


class Svg(str):
    """An SVG picture (a ``str``) that Jupyter shows inline; ``save(path)`` writes it."""

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the picture to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)


def params() -> dict:
    """The default ``board`` and ``physics`` blocks (what ``crokinole params`` prints)."""
    return json.loads(Engine().params_json())


def skills() -> dict:
    """The named skill levels (what ``crokinole params --skills`` prints, docs/skill.md):
    ``levels`` (name, target open-20 rate, scale, ``noise`` widths, best speed, the
    measured ``open20`` rate with its 95 % interval, source), the reference ``mix``, and the
    ``seed`` and ``samples`` of the measurements. A level's name goes wherever a noise
    does: ``"noise": "competitive"`` in a study or suggest dict, ``noise="elite"`` in
    :func:`play` and the Gymnasium environment."""
    return json.loads(_crokinole.skills_json())


@dataclass
class Batch:
    """What a batch of shots gave, as arrays (shot ``k``, disc ``j``; the shooter is disc
    ``counts[k]``)."""

    #: Final centres ``[N, M+1, 2]`` (m); NaN in unused slots. A disc in the hole or the
    #: ditch keeps the place where it left the surface.
    pos: np.ndarray
    #: Final states ``[N, M+1]``: 0 board, 1 hole, 2 ditch (:data:`STATES`); -1 unused.
    state: np.ndarray
    #: Events (contacts and departures) per shot ``[N]``.
    events: np.ndarray
    #: Fixed steps taken per shot ``[N]``.
    steps: np.ndarray
    #: Seconds until every disc was at rest ``[N]`` (exact, not rounded to the step).
    time: np.ndarray
    #: Whether ``max_time`` stopped the shot with discs moving ``[N]``.
    cut_off: np.ndarray
    #: With ``outcomes=True``: every outcome as the outcome file has it (discs, events,
    #: steps, time), a list of dicts (``None`` for a shot refused with
    #: ``invalid="skip"``).
    outcomes: Optional[list] = None
    #: Each shot's refusal (the message :class:`CrokinoleError` would carry, naming the
    #: shot and the field) or ``None``; only ``invalid="skip"`` lets a batch with a refused
    #: shot through.
    errors: list = field(default_factory=list)

    @property
    def valid(self) -> np.ndarray:
        """Which shots ran ``[N]``: False for a shot refused with ``invalid="skip"`` (its
        rows hold NaN and -1, its counters 0)."""
        return np.array([e is None for e in self.errors], dtype=bool)


class Engine:
    """A board and its physics. ``Engine()`` is the tournament board with the default
    physics; ``board`` and ``physics`` take the keys of a shot file's blocks (missing keys
    keep their defaults, unknown keys are refused)."""

    def __init__(self, board: Optional[Mapping] = None, physics: Optional[Mapping] = None):
        blocks: dict = {"shots": []}
        if board is not None:
            blocks["board"] = dict(board)
        if physics is not None:
            blocks["physics"] = dict(physics)
        self._native = _crokinole.Engine(_dumps(blocks))

    @classmethod
    def from_file(cls, source: Source) -> "Engine":
        """The board and physics of a shot file (a path or a dict); its shots are ignored."""
        text, _ = _text(source)
        engine = cls.__new__(cls)
        engine._native = _crokinole.Engine(text)
        return engine

    def params_json(self) -> str:
        """The ``board`` and ``physics`` blocks as JSON."""
        return self._native.params_json()

    @property
    def board(self) -> dict:
        """The board block (every key, defaults filled in)."""
        return json.loads(self.params_json())["board"]

    @property
    def physics(self) -> dict:
        """The physics block (every key, defaults filled in)."""
        return json.loads(self.params_json())["physics"]

    def simulate(
        self,
        discs: Any,
        teams: Any,
        counts: Any,
        pos: Any,
        vel: Any,
        spin: Any = None,
        team: Any = 0,
        *,
        threads: Optional[int] = None,
        outcomes: bool = False,
        invalid: str = "raise",
    ) -> Batch:
        """Runs ``N`` shots given as arrays and returns a :class:`Batch`.

        ``discs[N, M, 2]`` (m) and ``teams[N, M]`` (0 or 1) hold the discs at rest, shot
        ``k`` using its first ``counts[k]``; ``[]`` or ``None`` for all three means no
        discs at rest (``M = 0``). The shooter starts at ``pos[N, 2]`` with velocity
        ``vel[N, 2]`` (m/s), spin ``spin[N]`` (rad/s, default 0) and team ``team`` (scalar
        or ``[N]``). Every shot is checked before any runs (the error names the shot and
        the field, as ``crokinole simulate`` does): with ``invalid="raise"`` the first
        refused shot refuses the batch; with ``invalid="skip"`` refused shots are not run
        and the others are (:attr:`Batch.valid`, :attr:`Batch.errors` say which and why).
        The outcomes are bit-identical to the command's. ``outcomes=True`` adds every
        outcome with its events as dicts.
        """
        if invalid not in ("raise", "skip"):
            raise CrokinoleError(f"field `invalid`: expected `raise` or `skip`, got `{invalid}`")
        pos = _array(pos, np.float64, 2, "pos", "[N, 2]")
        if all(_empty(x) for x in (discs, teams, counts)):
            discs = np.zeros((pos.shape[0], 0, 2))
            teams = np.zeros((pos.shape[0], 0), dtype=np.int64)
            counts = np.zeros(pos.shape[0], dtype=np.int64)
        discs = _array(discs, np.float64, 3, "discs", "[N, M, 2]")
        n = discs.shape[0]
        teams = _array(teams, np.int64, 2, "teams", "[N, M]")
        counts = _array(counts, np.int64, 1, "counts", "[N]")
        vel = _array(vel, np.float64, 2, "vel", "[N, 2]")
        spin = _per_shot(0.0 if spin is None else spin, n, np.float64, "spin")
        team = _per_shot(team, n, np.int64, "team")
        p, s, e, st, t, c, js, refused = self._native.simulate_arrays(
            discs, teams, counts, pos, vel, spin, team, threads, outcomes, invalid == "skip"
        )
        ran = None
        if js is not None:
            it = iter(json.loads(js)["outcomes"])
            ran = [None if r is not None else next(it) for r in refused]
        return Batch(p, s, e, st, t, c, ran, refused)

    def simulate_shots(
        self, shots: Sequence[Mapping], *, threads: Optional[int] = None, outcomes: bool = False
    ) -> Batch:
        """Runs shots written as a shot file's ``shots`` entries (``{"discs": [{"team",
        "pos"}], "shooter": {"team", "pos", "vel", "spin"}}``) through :meth:`simulate`."""
        n = len(shots)
        m = max((len(s.get("discs", [])) for s in shots), default=0)
        discs = np.zeros((n, m, 2))
        teams = np.zeros((n, m), dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        pos = np.zeros((n, 2))
        vel = np.zeros((n, 2))
        spin = np.zeros(n)
        team = np.zeros(n, dtype=np.int64)
        for k, s in enumerate(shots):
            ds = s.get("discs", [])
            counts[k] = len(ds)
            for j, d in enumerate(ds):
                discs[k, j] = d["pos"]
                teams[k, j] = d.get("team", 0)
            sh = s["shooter"]
            pos[k] = sh["pos"]
            vel[k] = sh["vel"]
            spin[k] = sh.get("spin", 0.0)
            team[k] = sh.get("team", 0)
        return self.simulate(
            discs, teams, counts, pos, vel, spin, team, threads=threads, outcomes=outcomes
        )

    def flicks(
        self,
        seat: int,
        offset: Any,
        aim: Any,
        speed: Any,
        spin: Any = 0.0,
        *,
        team: Optional[int] = None,
        target: Optional[Sequence[float]] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Flicks in player terms to initial conditions ``(pos[N, 2], vel[N, 2], spin[N])``.

        From seat ``seat`` (0-3): ``offset`` (m) along the shooting line, positive to the
        player's right, 0 the middle of the seat's quadrant; ``aim`` (rad) counter-clockwise
        from straight ahead, or from the direction toward ``target`` (a board point);
        ``speed`` (m/s); ``spin`` (rad/s). Scalars broadcast. ``team`` defaults to the
        seat's team with two players. Each flick is checked as a study's flick is.
        """
        arrays = np.broadcast_arrays(
            *(np.asarray(x, dtype=np.float64) for x in (offset, aim, speed, spin))
        )
        arrays = [np.ascontiguousarray(a.reshape(-1)) for a in arrays]
        if team is None:
            team = team_of_seat(seat, 2 if seat in (0, 2) else 4)
        return _crokinole.flicks(
            self._native,
            seat,
            team,
            *arrays,
            tuple(float(x) for x in target) if target is not None else None,
        )


def simulate_file(
    source: Source,
    *,
    rules: Optional[str] = None,
    trace: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict:
    """Runs a shot file (a path or a dict) and returns its outcome file as a dict: what
    ``crokinole simulate FILE`` prints. ``rules="traditional"`` or ``"tournament"`` judges
    every shot (``--rules``: each outcome gains its ``rules`` verdict); ``trace=EVERY``
    adds every shot's trace (``--trace``)."""
    text, _ = _text(source)
    return json.loads(_crokinole.simulate_file(text, rules, trace, threads))


def judge(
    discs: Sequence[Mapping],
    shooter: Mapping,
    *,
    seat: int,
    players: int = 2,
    ruleset: str = "traditional",
    board: Optional[Mapping] = None,
    physics: Optional[Mapping] = None,
) -> dict:
    """Runs one shot and returns the rules' verdict on it (the ``rules`` object of
    ``crokinole simulate --rules``, docs/rules.md): ``discs`` as a shot file writes them
    (``{"team", "pos"}``), ``shooter`` as ``{"team", "pos", "vel", "spin"}``, the shooter's
    seat and the players at the table. An illegal placement raises
    :class:`CrokinoleError` with its reason."""
    shot: dict = {"discs": list(discs), "shooter": dict(shooter), "seat": seat}
    if players != 2:
        shot["players"] = players
    file: dict = {"shots": [shot]}
    if board is not None:
        file["board"] = dict(board)
    if physics is not None:
        file["physics"] = dict(physics)
    out = simulate_file(file, rules=ruleset)
    return out["outcomes"][0]["rules"]


class StudyResult:
    """A Monte Carlo study's result: :attr:`summary` (the dict ``crokinole montecarlo``
    prints), :attr:`samples` (per-sample arrays, with ``per_sample=True``) and its picture
    (shown inline in Jupyter)."""

    def __init__(self, summary_json: str, samples: Optional[dict], study_text: str):
        #: The summary: outcome-class probabilities with Wilson intervals, the score-change
        #: distribution, hits, resting positions (docs/montecarlo.md).
        self.summary: dict = json.loads(summary_json)
        #: Per-sample arrays in sample order (``offset``, ``aim``, ``speed``, ``spin`` of
        #: the executed flick, ``x``, ``y`` where the shot disc ended, ``class`` as an index
        #: into ``classes``, ``score_change``, ``opponent_hits``, ``opponents_moved``,
        #: ``cut_off``), or None. ``pandas.DataFrame(result.samples_table())`` makes a table.
        self.samples: Optional[dict] = samples
        self._summary_json = summary_json
        self._study_text = study_text

    def probabilities(self) -> dict:
        """The shot disc's outcome classes: ``{class: p}``."""
        return {k: v["p"] for k, v in self.summary["shooter"].items()}

    def samples_table(self) -> dict:
        """The per-sample arrays as columns of equal length (``class`` as names), ready for
        ``pandas.DataFrame``."""
        if self.samples is None:
            raise CrokinoleError("field `per_sample`: the study was run without per_sample=True")
        cols = {k: v for k, v in self.samples.items() if k != "classes"}
        names = np.asarray(self.samples["classes"])
        cols["class"] = names[self.samples["class"]]
        return cols

    def svg(self, title: Optional[str] = None) -> Svg:
        """The cloud of resting positions and the class probabilities on the study's board
        (``crokinole render montecarlo``)."""
        return Svg(_crokinole.render_summary(self._summary_json, self._study_text, title))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        p = ", ".join(f"{k} {v:.3f}" for k, v in self.probabilities().items())
        return f"StudyResult({self.summary['samples']} samples: {p})"


def study(
    source: Source,
    *,
    samples: int = 10_000,
    seed: int = 0,
    threads: Optional[int] = None,
    per_sample: bool = False,
) -> StudyResult:
    """Runs a Monte Carlo study (a study file as a path or a dict, docs/montecarlo.md):
    the summary is byte for byte what ``crokinole montecarlo FILE --samples N --seed S``
    prints, for every thread count. Ctrl-C stops it within a fraction of a second (the
    engine checks within every sample) and raises ``KeyboardInterrupt``."""
    text, _ = _text(source)
    summary, cols = _crokinole.study(text, samples, seed, threads, per_sample)
    return StudyResult(summary, cols, text)


def study_flicks(source: Source, n: int, *, seed: int = 0) -> dict:
    """The flicks a study's player executes (samples ``0..n`` with ``seed``, as the study
    draws them): ``{"offset", "aim", "speed", "spin"}`` arrays."""
    text, _ = _text(source)
    o, a, s, w = _crokinole.study_flicks(text, n, seed)
    return {"offset": o, "aim": a, "speed": s, "spin": w}


class Plan:
    """The planner's answer: :attr:`plan` (the dict ``crokinole suggest`` prints: the top
    flicks with their expected values, class probabilities and the sweep's grid) and the
    heat map of the grid (shown inline in Jupyter)."""

    def __init__(self, plan_json: str):
        #: The plan (docs/suggest.md).
        self.plan: dict = json.loads(plan_json)
        self._json = plan_json

    @property
    def top(self) -> list:
        """The best flicks, best first."""
        return self.plan["top"]

    def svg(self, title: Optional[str] = None) -> Svg:
        """The heat map of expected value over aim and speed (``crokinole render suggest``)."""
        return Svg(_crokinole.render_plan(self._json, title))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"Plan(top {len(self.top)} flicks, best {self.top[0]['flick'] if self.top else None})"


def suggest(
    source: Source,
    *,
    budget: Union[int, str] = 20_000,
    objective: str = "score",
    top: int = 5,
    seed: int = 0,
    threads: Optional[int] = None,
) -> Plan:
    """Runs the shot planner on a suggest file (a path or a dict, docs/suggest.md):
    ``budget`` in samples (deterministic) or ``"3s"`` (seconds); ``objective`` ``score``,
    ``twenty`` or ``fifteen``. The plan is what ``crokinole suggest`` prints."""
    text, _ = _text(source)
    return Plan(_crokinole.suggest(text, str(budget), objective, top, seed, threads))


class FitResult:
    """The physics fitted to tracked shots (docs/tracks.md): :attr:`report` (the dict
    ``crokinole fit --json`` prints: each coefficient's value and uncertainty, or why the
    shots do not identify it; every shot's position errors; chi-square; the held-out
    shots), :attr:`params` (the tracks file's board and the fitted physics, the ``board``
    and ``physics`` blocks of a shot file: ``crokinole fit --physics-out``) and the picture
    of the observed positions against the fitted paths (shown inline in Jupyter)."""

    def __init__(self, report_json: str, params_json: str, svg: str):
        #: The report (docs/tracks.md, "The report").
        self.report: dict = json.loads(report_json)
        #: ``{"board": ..., "physics": ...}``: the fitted physics on the file's board.
        self.params: dict = json.loads(params_json)
        self._svg = svg

    @property
    def physics(self) -> dict:
        """The fitted ``physics`` block."""
        return self.params["physics"]

    def engine(self) -> "Engine":
        """An :class:`Engine` on the tracks file's board with the fitted physics."""
        return Engine(self.params["board"], self.params["physics"])

    def svg(self) -> Svg:
        """Observed centres against the fitted paths (``crokinole fit --svg``)."""
        return Svg(self._svg)

    def _repr_svg_(self) -> str:
        return self._svg

    def __repr__(self) -> str:
        fitted = {
            c["name"]: c.get("value") for c in self.report["coefficients"] if c["identified"]
        }
        return f"FitResult(chi2 {self.report['chi2']:.4g}, fitted {fitted})"


def fit(
    source: Source,
    *,
    coefficients: Union[str, Sequence[str], None] = None,
    holdout: float = 0.0,
    seed: int = 0,
    max_iterations: Optional[int] = None,
    threads: Optional[int] = None,
    title: Optional[str] = None,
) -> FitResult:
    """Fits physics coefficients to a tracks file (a path or a dict, docs/tracks.md) as
    ``crokinole fit`` does: ``coefficients`` by name (a list or ``"a,b"``; all five if
    not given), ``holdout`` the fraction of shots left out of the fit and reported (chosen
    by ``seed``), ``max_iterations`` the solver's bound (50 if not given, at most 500);
    ``title`` the picture's. The same fit whatever ``threads``. Ctrl-C stops it within a
    simulation and raises ``KeyboardInterrupt``."""
    text, name = _text(source)
    if isinstance(coefficients, str):
        coefficients = [c.strip() for c in coefficients.split(",")]
    elif coefficients is not None:
        coefficients = list(coefficients)
    if title is None:
        title = f"fit of {name}" if name else "fit"
    report, params, svg = _crokinole.fit(
        text, coefficients, float(holdout), seed, max_iterations, threads, title
    )
    return FitResult(report, params, svg)


Strategy = Union[str, Callable[[dict], Any]]


def play(
    strategies: Sequence[Strategy] = ("greedy", "montecarlo"),
    *,
    players: int = 2,
    ruleset: str = "traditional",
    noise: Union[str, Mapping[str, float], None] = DEFAULT_NOISE,
    seed: int = 0,
    games: int = 1,
    max_rounds: int = 100,
    threads: Optional[int] = None,
    illegal: str = "raise",
) -> dict:
    """Plays games as ``crokinole play`` does: the game log of game 0 when ``games`` is 1,
    the summary of the run otherwise (docs/play.md).

    ``strategies`` has one entry per seat in play, in seat order (or, with four players,
    one per team): a built-in strategy's name (``random``, ``greedy:k=16``,
    ``montecarlo:k=8:m=8``, ``planner:budget=2000``, each with an optional ``:spin=S``) or
    a Python callable ``turn -> flick``. The callable gets a dict (``seat``, ``team``,
    ``players``, ``ruleset``, ``round``, ``shot``, ``discs[n, 2]``, ``teams[n]``,
    ``discs_left`` per seat (a list), ``twenties`` and ``score`` per team, ``seed``,
    ``legal_offsets``: where the seat may place its disc, :func:`legal_offsets`) and returns the
    intended flick as a dict ``{"offset", "aim", "speed", "spin", "target", "value"}``
    (``speed`` required) or a tuple ``(offset, aim, speed, spin)``; the player's ``noise``
    (a dict of widths, a skill level's name such as ``"club"``, or ``"none"``) perturbs it
    like every other player's. An exception in the callable stops the game and
    is raised here. An illegal flick (:func:`check_flick` asks before playing) raises
    :class:`CrokinoleError` with the reason, or with ``illegal="forfeit"`` forfeits the
    shot as a match referee does: the disc is removed as a shot that left the board
    touching nothing, and the log's shot has ``forfeit`` (the reason). Ctrl-C stops the games
    within the shot or decision under way (a Python strategy's call runs to its end) and
    raises ``KeyboardInterrupt``; so do ``suggest``, ``simulate_file`` and
    :meth:`Engine.simulate`.
    """
    return json.loads(
        _crokinole.play(
            list(strategies),
            players,
            ruleset,
            _noise(noise),
            seed,
            games,
            max_rounds,
            threads,
            illegal,
        )
    )


def _position(turn: Mapping) -> tuple:
    """``(seat, players, ruleset, discs[n, 2], teams[n])`` of a turn dict (``seat``
    required; ``players`` 2, ``ruleset`` ``"traditional"`` and no discs by default)."""
    if "seat" not in turn:
        raise CrokinoleError("field `seat`: missing (the turn's seat)")
    discs = turn.get("discs")
    discs = np.zeros((0, 2)) if discs is None or len(discs) == 0 else discs
    discs = _array(discs, np.float64, 2, "discs", "[n, 2]")
    teams = turn.get("teams")
    teams = np.zeros(0, dtype=np.int64) if teams is None or len(teams) == 0 else teams
    teams = _array(teams, np.int64, 1, "teams", "[n]")
    return (
        int(turn["seat"]),
        int(turn.get("players", 2)),
        str(turn.get("ruleset", "traditional")),
        discs,
        teams,
    )


def check_flick(turn: Mapping, flick: Any) -> Optional[str]:
    """Whether ``flick`` is legal on ``turn`` before playing it: ``None`` if it is, else
    the reason (the field and the problem, e.g. ``field `shooter.pos`: overlaps disc 3 by
    8.012e-3 m``), the same words :func:`play` raises for an illegal flick.

    ``turn`` is a strategy's turn dict (or any dict with ``seat``, and optionally
    ``players``, ``ruleset``, ``discs[n, 2]``, ``teams[n]``; the tournament board and
    default physics, as :func:`play` has them); ``flick`` is what a strategy returns (a
    dict ``{"offset", "aim", "speed", "spin", "target"}`` or ``(offset, aim, speed,
    spin)``). A flick is legal when its numbers are (finite, a positive speed within
    ``physics.max_speed``, ``|aim| <= pi``, ``|offset| <= R / sqrt(2)``), its disc is
    placed as the rule set says (touching the shooting line, in the seat's quadrant) and
    it overlaps no disc at rest or peg."""
    return _crokinole.check_flick(flick, *_position(turn))


def legal_offsets(turn: Mapping) -> list:
    """Where ``turn``'s seat may place its disc: the offsets (m along the shooting line, +
    to the player's right, as a flick's ``offset``) as sorted disjoint intervals ``[(lo,
    hi), ...]``. A flick from inside one with legal numbers passes :func:`check_flick`;
    from outside every one it does not (the ends are pulled in by 1e-9 m). ``turn`` as in
    :func:`check_flick`; a strategy's turn dict has them already in
    ``turn["legal_offsets"]``."""
    return _crokinole.legal_offsets(*_position(turn))


def render_shot(
    source: Source, shot: int = 0, *, title: Optional[str] = None, every: int = 10
) -> Svg:
    """Shot ``shot`` of a shot file (a path or a dict), simulated with a trace and drawn:
    paths, contact points, exits (``crokinole render shot``)."""
    text, name = _text(source)
    return Svg(_crokinole.render_shot(text, shot, title, name, every))


def _register_env() -> None:
    """Registers ``crokinole/Crokinole-v0`` with Gymnasium, if Gymnasium is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    if "crokinole/Crokinole-v0" not in gymnasium.registry:
        gymnasium.register(
            id="crokinole/Crokinole-v0",
            entry_point="crokinole.env:CrokinoleEnv",
            vector_entry_point="crokinole.env:CrokinoleVectorEnv",
        )


_register_env()
