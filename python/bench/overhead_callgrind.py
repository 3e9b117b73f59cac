"""The Python call's overhead on a batch in instructions (valgrind's callgrind), which unlike
wall time does not move with the load of a shared machine.

    python python/bench/overhead_callgrind.py [SHOT_FILE]

Runs four processes under `valgrind --tool=callgrind` (one thread each) and reports their
instruction counts:

- `cli`: `crokinole simulate FILE --threads 1`, end to end (parse, check, simulate, write);
- `base`: Python importing the package and building the file's arrays, no call;
- `call`: the same plus `Engine.simulate(..., threads=1)` on the arrays;
- `slow`: the same call with every shooter flicked at 1 mm/s (a few steps per shot).

`call - base` is the call with the simulation, `slow - base` bounds the call's own cost
from above (it includes building each shot's world and its few steps), so the overhead
is at most `(slow - base) / ((call - base) - (slow - base))` of the simulation.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import numpy as np
import crokinole as ck
sys.path.insert(0, {bench!r})
from bench import arrays_of
path = {path!r}
args = list(arrays_of(json.loads(open(path).read())["shots"]))
engine = ck.Engine.from_file(path)
mode = {mode!r}
if mode == "slow":
    args[4] = args[4] / np.linalg.norm(args[4], axis=1, keepdims=True) * 1e-3
if mode != "base":
    engine.simulate(*args, threads=1)
"""


def instructions(cmd: list) -> int:
    """Instructions executed by `cmd` and its threads, as callgrind counts them."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        p = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if p.returncode != 0:
            sys.exit(p.stderr)
        m = re.search(r"Collected : (\d+)", p.stderr)
        if not m:
            sys.exit("no instruction count in callgrind's output")
        return int(m.group(1))


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "fixtures" / "crowded.json").resolve()
    bench = str(Path(__file__).resolve().parent)
    counts = {"cli": instructions([str(ROOT / "target/release/crokinole"), "simulate", str(path), "--threads", "1"])}
    for mode in ("base", "call", "slow"):
        code = SCRIPT.format(bench=bench, path=str(path), mode=mode)
        counts[mode] = instructions([sys.executable, "-c", code])
    for k, v in counts.items():
        print(f"{k:5} {v / 1e6:10.1f} M instructions")
    call = counts["call"] - counts["base"]
    own = counts["slow"] - counts["base"]
    print(f"the call: {call / 1e6:.1f} M; its own cost at most {own / 1e6:.1f} M "
          f"= {100 * own / (call - own):.2f} % of the simulation; the CLI end to end: {counts['cli'] / 1e6:.1f} M")


if __name__ == "__main__":
    main()
