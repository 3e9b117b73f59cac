"""Legality before acting (issue #27, items 5 and 6): a flick's legality with its reason,
the legal offsets of a seat, what `play` does with an illegal flick (its reason, or the
shot forfeited), `discs_left` as a list, and batches with no discs or refused shots."""

import numpy as np
import pytest

import crokinole as ck

R = 0.3048  # the shooting line's radius (tournament board)


def on_line(offset, seat=0):
    """Centre of a disc on seat 0's shooting line at `offset`."""
    assert seat == 0
    return [offset, -np.sqrt(R * R - offset * offset)]


def straight_in(turn):
    # docs/python.md's strategy: the middle of the line, at the 20 hole.
    return {"offset": 0.0, "aim": 0.0, "speed": 0.85, "target": [0.0, 0.0]}


def test_check_flick_gives_the_reason_and_agrees_with_the_offsets():
    turn = {"seat": 0, "discs": [on_line(0.0), on_line(0.1)], "teams": [1, 0]}
    assert ck.check_flick(turn, (0.05, 0.0, 1.0, 0.0)) is None
    reason = ck.check_flick(turn, (0.01, 0.0, 1.0, 0.0))
    assert reason.startswith("field `shooter.pos`: overlaps disc 0 by "), reason
    assert ck.check_flick(turn, (0.3, 0.0, 1.0, 0.0)).startswith("field `flick.offset`: 0.3 m puts")
    assert ck.check_flick(turn, {"speed": float("nan")}).startswith("field `flick.speed`: must be a finite number")
    offsets = ck.legal_offsets(turn)
    assert len(offsets) == 3 and offsets == sorted(offsets)
    # Each interval is legal throughout; the gaps between them are not.
    for lo, hi in offsets:
        for o in np.linspace(lo, hi, 25):
            assert ck.check_flick(turn, (o, 0.0, 1.0, 0.0)) is None, o
    for (_, a), (b, _) in zip(offsets, offsets[1:]):
        for o in np.linspace(a + 1e-6, b - 1e-6, 25):
            assert ck.check_flick(turn, (o, 0.0, 1.0, 0.0)) is not None, o
    # A disc centred on the line at offset 0 blocks the centres on the circle within 2r
    # of its own: laterally 2r sqrt(1 - (r/R)^2) either side (less the 1e-9 m tolerance).
    r = 0.015875
    half = 2 * r * np.sqrt(1 - (r / R) ** 2)
    assert offsets[1][0] == pytest.approx(half, abs=2e-9)
    assert offsets[0][1] == pytest.approx(-half, abs=2e-9)
    # No discs: the quadrant alone, R / sqrt(2) either side.
    assert ck.legal_offsets({"seat": 2}) == [pytest.approx((-R / np.sqrt(2), R / np.sqrt(2)))]


def test_check_flick_refuses_a_bad_turn():
    with pytest.raises(ck.CrokinoleError, match=r"field `seat`: missing"):
        ck.check_flick({}, (0, 0, 1, 0))
    with pytest.raises(ck.CrokinoleError, match=r"field `seat`: with 2 players they sit at seats 0 and 2, got seat 1"):
        ck.legal_offsets({"seat": 1})
    with pytest.raises(ck.CrokinoleError, match=r"field `teams`: must have shape \[1\]"):
        ck.legal_offsets({"seat": 0, "discs": [[0.0, 0.1]], "teams": [0, 1]})
    with pytest.raises(ck.CrokinoleError, match=r"field `ruleset`"):
        ck.legal_offsets({"seat": 0, "ruleset": "street"})


def test_an_illegal_flick_in_play_says_why():
    # The issue's case: the docs' strategy, seed 3, overlaps a disc on the line.
    with pytest.raises(ck.CrokinoleError) as e:
        ck.play([straight_in, "greedy:k=8"], ruleset="tournament", games=50, seed=3)
    msg = str(e.value)
    assert msg.startswith("the strategy `python:straight_in` chose an illegal flick: field `shooter.pos`: overlaps disc "), msg


def test_illegal_forfeit_plays_on_and_logs_the_reason():
    summary = ck.play([straight_in, "greedy:k=8"], ruleset="tournament", games=50, seed=3, illegal="forfeit")
    assert summary["games"] == 50
    # Games alone (game 0 of seeds 0, 1, ...) until one forfeits a shot: its log says why.
    for seed in range(40):
        log = ck.play([straight_in, "greedy:k=8"], ruleset="tournament", seed=seed, illegal="forfeit")
        forfeits = [s for s in log["shots"] if "forfeit" in s]
        if forfeits:
            break
    assert forfeits, "no game of seeds 0..39 forfeited a shot"
    for s in forfeits:
        assert s["seat"] == 0
        assert s["forfeit"].startswith("illegal flick: field `shooter.pos`: overlaps disc"), s["forfeit"]
        assert s["intended"]["speed"] == 0.85
        assert s["outcome"]["discs"][-1]["state"] == "ditch"
    # The same game without the option stops on that shot with the same reason.
    with pytest.raises(ck.CrokinoleError) as e:
        ck.play([straight_in, "greedy:k=8"], ruleset="tournament", seed=seed)
    assert forfeits[0]["forfeit"][len("illegal flick: "):] in str(e.value)
    with pytest.raises(ck.CrokinoleError, match=r"field `illegal`: expected `raise` or `forfeit`, got `skip`"):
        ck.play([straight_in, "random"], illegal="skip")


def test_a_strategy_that_asks_first_never_forfeits():
    def careful(turn):
        f = {"offset": 0.0, "aim": 0.0, "speed": 0.85, "target": [0.0, 0.0]}
        if ck.check_flick(turn, f) is not None:
            # The legal offset nearest the middle.
            f["offset"] = min((o for iv in turn["legal_offsets"] for o in iv), key=abs)
        assert ck.check_flick(turn, f) is None
        return f

    s = ck.play([careful, "greedy:k=8"], ruleset="tournament", games=50, seed=3)
    assert s["games"] == 50


def test_discs_left_is_a_list_of_ints():
    seen = []

    def look(turn):
        seen.append(turn)
        return straight_in(turn)

    ck.play([look, "random"], ruleset="tournament", max_rounds=1)
    left = seen[0]["discs_left"]
    assert type(left) is list and all(type(n) is int for n in left), left
    assert left[0] in (7, 8) and left[1] == 0 and left[3] == 0  # seats 1 and 3 are empty
    assert seen[0]["legal_offsets"] == ck.legal_offsets(seen[0])


def test_simulate_takes_empty_discs_and_skips_refused_shots():
    engine = ck.Engine()
    pos = np.array([on_line(0.0), on_line(0.05)])
    vel = np.array([[0.0, 1.0], [0.0, 1.0]])
    empty = engine.simulate([], [], [], pos, vel)
    zeros = engine.simulate(np.zeros((2, 0, 2)), np.zeros((2, 0)), np.zeros(2), pos, vel)
    assert np.array_equal(empty.pos, zeros.pos) and np.array_equal(empty.state, zeros.state)
    assert empty.valid.tolist() == [True, True] and empty.errors == [None, None]
    assert np.array_equal(engine.simulate(None, None, None, pos, vel).time, zeros.time)
    # Shot 1 overlaps its disc at rest: refused alone with "skip", the batch with "raise".
    discs = np.array([[[0.0, 0.0]], [on_line(0.06)]])
    args = (discs, np.zeros((2, 1)), np.array([0, 1]), pos, vel)
    with pytest.raises(ck.CrokinoleError, match=r"^shot 1: field `shots\[1\]\.shooter\.pos`: overlaps disc 0"):
        engine.simulate(*args)
    b = engine.simulate(*args, invalid="skip", outcomes=True)
    assert b.valid.tolist() == [True, False]
    assert b.errors[0] is None and "overlaps disc 0" in b.errors[1]
    assert np.isnan(b.pos[1]).all() and (b.state[1] == -1).all() and b.steps[1] == 0
    assert b.outcomes[1] is None and b.outcomes[0] is not None
    # The valid shot is the one a batch of it alone gives.
    alone = engine.simulate(discs[:1], np.zeros((1, 1)), [0], pos[:1], vel[:1], outcomes=True)
    assert b.outcomes[0] == alone.outcomes[0] and b.pos[0].tolist()[:1] == alone.pos[0].tolist()[:1]
    with pytest.raises(ck.CrokinoleError, match=r"field `invalid`: expected `raise` or `skip`"):
        engine.simulate(*args, invalid="drop")
