"""Time controls and the game clock the match runner keeps (it measures each move's time itself).

A time control is `BASE+INC` (seconds, e.g. `10+0.1`), `BASE`, or `MOVES/BASE+INC` (e.g. `40/60+0`: BASE seconds
are added again after every MOVES moves of a player). As in fastchess, the increment is added before each move, so
the first `go` already includes it.
"""

import re
from dataclasses import dataclass

import chess

TIME_CONTROL = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?$")


@dataclass(frozen=True)
class TimeControl:
    """Base seconds, increment seconds per move, and moves per period (0: the base is for the whole game)."""

    base_s: float
    increment_s: float = 0.0
    moves: int = 0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """Read `BASE`, `BASE+INC` or `MOVES/BASE+INC`; raise ValueError otherwise."""
        match = TIME_CONTROL.match(text.strip())
        if not match or float(match.group(2)) <= 0 or match.group(1) == "0":
            raise ValueError(f"time control {text!r} is not BASE+INC or MOVES/BASE+INC with BASE > 0")
        moves, base, increment = match.groups()
        return cls(float(base), float(increment or 0), int(moves or 0))

    def pgn(self) -> str:
        """The PGN TimeControl text (`40/60`, `10+0.1`, ...)."""
        text = f"{self.moves}/{self.base_s:g}" if self.moves else f"{self.base_s:g}"
        return text + (f"+{self.increment_s:g}" if self.increment_s else "")


class Clock:
    """Both players' remaining seconds under a time control, updated with the time the runner measured."""

    def __init__(self, time_control: TimeControl):
        self.time_control = time_control
        self.remaining = {chess.WHITE: time_control.base_s, chess.BLACK: time_control.base_s}
        self.moves_made = {chess.WHITE: 0, chess.BLACK: 0}

    def start_move(self, color: chess.Color) -> None:
        """Add the increment to `color`'s clock before it is asked to move."""
        self.remaining[color] += self.time_control.increment_s

    def moves_to_go(self, color: chess.Color):
        """Moves `color` must make before its next period (None without periods)."""
        if not self.time_control.moves:
            return None
        return self.time_control.moves - self.moves_made[color] % self.time_control.moves

    def finish_move(self, color: chess.Color, elapsed_s: float) -> None:
        """Charge `elapsed_s` to `color` (the clock stops at 0: the caller decides about forfeits) and start a new
        period's base when one is complete."""
        self.remaining[color] = max(0.0, self.remaining[color] - elapsed_s)
        self.moves_made[color] += 1
        if self.time_control.moves and self.moves_made[color] % self.time_control.moves == 0:
            self.remaining[color] += self.time_control.base_s
