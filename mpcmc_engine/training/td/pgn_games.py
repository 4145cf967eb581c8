"""Games of PGN files as training material: start position, moves and result, each labelled `file:line`.

A game that cannot be used (illegal or unparsable moves, no result, no moves, a variant) is skipped; the reason is
reported as `file:line: game skipped: reason` and reading goes on.
"""

import bisect
import io
import sys
from dataclasses import dataclass
from pathlib import Path

import chess.pgn

# a finished game's result as the trainer's value, the win probability for white its final position takes
RESULT_VALUES = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


@dataclass(frozen=True)
class PgnGame:
    """A usable game: its start FEN, its moves in UCI, its result for white and where it was read."""

    fen: str
    moves: tuple
    result: float
    label: str


class _QuietGameBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder, keeping errors on the game without logging them (they are reported here)."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _problem(game) -> str:
    """Why `game` cannot be trained on, or '' when it can."""
    if game.errors:
        return str(game.errors[0])
    if game.headers.get("Variant", "Standard").lower() not in ("standard", "chess", "from position"):
        return f"variant {game.headers['Variant']!r}"
    if game.headers.get("Result") not in RESULT_VALUES:
        return f"no game result ({game.headers.get('Result')!r})"
    if game.next() is None:
        return "no moves"
    return ""


def _line_at(text: str, newlines: list, offset: int) -> int:
    """1-based line number of the first non-blank character at or after `offset`."""
    while offset < len(text) and text[offset].isspace():
        offset += 1
    return bisect.bisect_right(newlines, offset - 1) + 1


def read_pgn_games(paths, report=None) -> list:
    """The usable games of the PGN files `paths`, in file order; each skipped game is passed to report(line)
    (default: printed on stderr) as `file:line: game skipped: reason`."""
    report = report or (lambda line: print(line, file=sys.stderr))
    games = []
    for path in paths:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
        newlines = [i for i, char in enumerate(text) if char == "\n"]
        handle = io.StringIO(text)
        while True:
            offset = handle.tell()
            game = chess.pgn.read_game(handle, Visitor=_QuietGameBuilder)
            if game is None:
                break
            label = f"{path}:{_line_at(text, newlines, offset)}"
            problem = _problem(game)
            if problem:
                report(f"{label}: game skipped: {problem}")
                continue
            moves = tuple(move.uci() for move in game.mainline_moves())
            games.append(PgnGame(game.board().fen(), moves, RESULT_VALUES[game.headers["Result"]], label))
    return games
