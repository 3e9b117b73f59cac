"""Render (issue #27, item 3): `rgb_array` frames (the library's board picture rasterised
by resvg) of the shape video recorders take, and `ansi` text boards, in the Gymnasium
environments (single and vector) and the PettingZoo one."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.wrappers import RenderCollection

import crokinole as ck
from crokinole import crokinole_v0
from crokinole.env import CrokinoleVectorEnv

FAST = {"opponent": "random", "max_rounds": 1}
SURFACE = (236, 211, 165)  # the surface's colour (#ecd3a5)


def pixel(frame, x, y):
    """The frame's pixel at board point (x, y) m: the frame spans the drawn board (rail
    included), centred, +y up."""
    size = frame.shape[0]
    return frame[int(size / 2 - y / HALF * size / 2), int(size / 2 + x / HALF * size / 2)]


# Half the frame's width in m, near enough: the board drawn out to its rail plus a margin.
# The test reads only the centre and a point well inside the surface.
HALF = 0.38


def test_rgb_array_frames_are_the_board_and_its_discs():
    env = gym.make("crokinole/Crokinole-v0", render_mode="rgb_array", **FAST)
    env.reset(seed=2)
    frame = env.render()
    assert frame.shape == (512, 512, 3) and frame.dtype == np.uint8
    assert (pixel(frame, 0.0, 0.0) < 40).all()  # the 20 hole, dark
    assert tuple(pixel(frame, 0.25, 0.05)) == SURFACE
    # The same game gives the same frame; discs change it.
    again = gym.make("crokinole/Crokinole-v0", render_mode="rgb_array", **FAST)
    again.reset(seed=2)
    assert np.array_equal(again.render(), frame)
    for _ in range(3):
        env.step(np.array([0.0, 0.0, -0.6, 0.0], dtype=np.float32))  # slow draws
    assert not np.array_equal(env.render(), frame)


def test_frames_collect_as_a_video_recorder_takes_them():
    env = RenderCollection(gym.make("crokinole/Crokinole-v0", render_mode="rgb_array", **FAST))
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.action_space.sample())
    frames = env.render()
    assert len(frames) == 4 and {f.shape for f in frames} == {(512, 512, 3)}
    vec = CrokinoleVectorEnv(3, render_mode="rgb_array", **FAST)
    vec.reset(seed=0)
    frames = vec.render()
    # What gymnasium.wrappers.vector.RecordVideo asserts and tiles: one frame per game.
    assert isinstance(frames, tuple) and len(frames) == 3
    assert all(f.shape == (512, 512, 3) and f.dtype == np.uint8 for f in frames)


def test_ansi_is_a_text_board_with_every_disc():
    env = gym.make("crokinole/Crokinole-v0", render_mode="ansi", **FAST)
    env.reset(seed=2)
    env.action_space.seed(0)
    for _ in range(8):  # until a disc is on the board
        obs, *_ = env.step(env.action_space.sample())
        if obs["mask"].any():
            break
    text = env.render()
    header, body = text.split("\n", 1)
    assert header.startswith("team 0 (agent) - team 1: score 0-0, round ")
    assert "@" in body and "." in body
    assert sum(c in "01" for c in body) == int(obs["mask"].sum()) > 0
    vec = CrokinoleVectorEnv(2, render_mode="ansi", **FAST)
    vec.reset(seed=0)
    assert all(isinstance(t, str) for t in vec.render())


def test_pettingzoo_renders_both_modes():
    env = crokinole_v0.env(players=4, max_rounds=1, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(env.action_space(env.agent_selection).sample())
    assert env.render().shape == (512, 512, 3)
    env = crokinole_v0.env(players=2, max_rounds=1, render_mode="ansi")
    env.reset(seed=0)
    assert "to shoot: seat_" in env.render()


def test_an_unknown_render_mode_is_refused():
    from crokinole.env import CrokinoleEnv

    with pytest.raises(ck.CrokinoleError, match="field `render_mode`: expected one of"):
        CrokinoleEnv(render_mode="video")
    with pytest.raises(ck.CrokinoleError, match="field `render_mode`"):
        CrokinoleVectorEnv(2, render_mode="video")
    with pytest.raises(ck.CrokinoleError, match="field `render_mode`"):
        crokinole_v0.env(render_mode="video")
