"""docs/python.md's tour runs as written and prints what it shows: its ```python blocks run
in order in one namespace from the repository's root, and each block's output is its `#>`
lines (compared word by word, so line wrapping does not matter)."""

import contextlib
import io
import os
import re

from conftest import ROOT


def test_the_tour_prints_what_it_shows(tmp_path):
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 8
    namespace: dict = {}
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        for k, block in enumerate(blocks):
            block = block.replace('"target/takeout.svg"', repr(str(tmp_path / "takeout.svg")))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(block, f"docs/python.md block {k}", "exec"), namespace)
            shown = [line[3:] for line in block.splitlines() if line.startswith("#>")]
            assert out.getvalue().split() == " ".join(shown).split(), f"block {k}"
    finally:
        os.chdir(old)
    assert (tmp_path / "takeout.svg").read_text().startswith("<?xml")


def test_the_readmes_snippet_runs(capsys):
    """README.md's Python block runs as written from the repository's root, after the
    README's own install line (which brings Gymnasium)."""
    text = (ROOT / "README.md").read_text()
    install = re.findall(r"pip install (\S+)", text)
    assert install and install[0] == '"./python[gym]"', install
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace: dict = {}
        exec(compile(block, "README.md python block", "exec"), namespace)
    finally:
        os.chdir(old)
    assert namespace["batch"].state.shape == (5, 1)
    assert namespace["env"].observation_space is not None
    printed = capsys.readouterr().out.split()
    assert printed[:5] == ["[0", "0", "0", "1", "1]"], printed  # two of the five go in
    assert float(printed[5]) == namespace["study"].summary["score_change"]["mean"]
