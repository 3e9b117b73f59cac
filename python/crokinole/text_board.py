"""A position as text, for the environments' ``ansi`` render mode: the playing surface
seen from above (``+y`` up, seat 0 at the bottom) on a grid of characters, its lines
dotted, the 20 hole ``@``, each disc the digit of its team; a header line gives what
the caller passes (scores, discs left)."""

from __future__ import annotations

import math
from typing import Sequence

#: Columns and rows of the grid (a character is about twice as tall as it is wide).
COLS, ROWS = 43, 21

# The tournament board's radii (m), as ``crokinole.params()["board"]`` gives them.
_SURFACE = 0.3302
_LINES = (0.3048, 0.2032, 0.1016)  # shooting line, 10 line, 15 line
_HOLE = 0.0174625


def _cell(x: float, y: float) -> tuple[int, int]:
    """The (row, column) of the board point ``(x, y)``."""
    col = round((x / _SURFACE + 1.0) * (COLS - 1) / 2)
    row = round((1.0 - y / _SURFACE) * (ROWS - 1) / 2)
    return min(max(row, 0), ROWS - 1), min(max(col, 0), COLS - 1)


def text_board(discs: Sequence, teams: Sequence, header: str = "") -> str:
    """The position of ``discs`` (centres ``[n, 2]``, m) of ``teams`` (0 or 1 each) as
    lines of text, under ``header``."""
    dx = 2 * _SURFACE / (COLS - 1)
    dy = 2 * _SURFACE / (ROWS - 1)
    grid = []
    for row in range(ROWS):
        line = []
        for col in range(COLS):
            x = (col - (COLS - 1) / 2) * dx
            y = ((ROWS - 1) / 2 - row) * dy
            r = math.hypot(x, y)
            # Half the cell's extent along the radius: a line passing through it shows.
            half = 0.5 * math.hypot(dx * x / r, dy * y / r) if r > 0 else 0.0
            if r > _SURFACE + half:
                line.append(" ")
            elif r <= _HOLE:
                line.append("@")
            elif any(abs(r - L) <= half for L in _LINES):
                line.append(".")
            else:
                line.append(" ")
        grid.append(line)
    for (x, y), team in zip(discs, teams):
        row, col = _cell(float(x), float(y))
        grid[row][col] = str(int(team))
    body = "\n".join("".join(line).rstrip() for line in grid)
    return f"{header}\n{body}\n" if header else f"{body}\n"
