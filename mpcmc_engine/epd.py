"""EPD test suites: reading records with file:line errors, and scoring an engine's move by `bm`, `am` and `c0`.

`bm` and `am` hold SAN moves (python-chess parses them against the position); several moves may be given.
`c0` follows the STS convention when it is a list of `SAN=points` pairs such as `c0 "Nf3=10, e4=5"` (the best
points are the position's maximum); any other `c0` text is an ordinary EPD comment and is ignored.
"""

import re
from dataclasses import dataclass, field

import chess

COMMENT_PREFIXES = ("#", ";", "%")
POINT_SCORES = re.compile(r"^\s*[^=,\s]+\s*=\s*-?\d+\s*(,\s*[^=,\s]+\s*=\s*-?\d+\s*)*$")


@dataclass(frozen=True)
class EpdRecord:
    """One valid EPD line: the position, its operations as python-chess parsed them, and where it came from."""

    board: chess.Board
    operations: dict
    path: str
    line_number: int

    @property
    def location(self) -> str:
        """`file:line` of the record."""
        return f"{self.path}:{self.line_number}"


def parse_epd_or_fen(text: str):
    """Parse an EPD line, or a plain FEN line (with move counters), into (board, operations); raise ValueError
    with the EPD parser's reason when it is neither."""
    try:
        return chess.Board.from_epd(text)
    except ValueError as epd_error:
        try:
            return chess.Board(text), {}
        except ValueError:
            raise epd_error from None


def read_epd_records(path: str):
    """Read the EPD (or FEN-per-line) file at `path`; return (records, errors) where each error is a
    `file:line: reason` string.

    Blank lines and lines starting with #, ; or % are skipped silently; positions that are not valid chess
    positions are errors."""
    records, errors = [], []
    with open(path, encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, start=1):
            text = line.strip()
            if not text or text.startswith(COMMENT_PREFIXES):
                continue
            try:
                board, operations = parse_epd_or_fen(text)
                if not board.is_valid():
                    raise ValueError(f"invalid position ({board.status()!r})")
            except ValueError as error:
                errors.append(f"{path}:{line_number}: {error}")
                continue
            records.append(EpdRecord(board, operations, path, line_number))
    return records, errors


@dataclass(frozen=True)
class SuitePosition:
    """A scorable test position: best moves, moves to avoid and point scores (any may be empty, not all)."""

    record: EpdRecord
    best_moves: tuple
    avoid_moves: tuple
    points: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The `id` operation, or `file:line` when there is none."""
        return str(self.record.operations.get("id", self.record.location))

    @property
    def max_points(self) -> int:
        """The most points any move earns here (0 without `c0`)."""
        return max(self.points.values(), default=0)

    def expected(self) -> str:
        """Describe what is expected, e.g. `bm Qg6 am Rxb2 c0 Nf3=10,e4=5`."""
        board = self.record.board
        parts = []
        if self.best_moves:
            parts.append("bm " + " ".join(board.san(move) for move in self.best_moves))
        if self.avoid_moves:
            parts.append("am " + " ".join(board.san(move) for move in self.avoid_moves))
        if self.points:
            parts.append("c0 " + ",".join(f"{board.san(move)}={value}" for move, value in self.points.items()))
        return " ".join(parts)

    def is_solved_by(self, move: chess.Move) -> bool:
        """True when `move` is one of the best moves (or earns the maximum points when there is no `bm`) and is not
        a move to avoid."""
        if move in self.avoid_moves:
            return False
        if self.best_moves:
            return move in self.best_moves
        if self.points:
            return self.points.get(move, 0) == self.max_points
        return True

    def points_for(self, move: chess.Move) -> int:
        """The `c0` points `move` earns (0 when unlisted)."""
        return self.points.get(move, 0)


def parse_point_scores(board: chess.Board, comment) -> dict:
    """Return {move: points} of an STS `c0` comment such as `Nf3=10, e4=5`, {} for any other comment (or None);
    raise ValueError when a listed move is not a legal SAN move of `board`."""
    if not isinstance(comment, str) or not POINT_SCORES.match(comment):
        return {}
    points = {}
    for item in comment.split(","):
        san, _, value = item.partition("=")
        points[board.parse_san(san.strip())] = int(value)
    return points


def suite_position_from(record: EpdRecord) -> SuitePosition:
    """Build the test position of `record`; raise ValueError when it has nothing to score or no legal move."""
    operations = record.operations
    if not any(record.board.legal_moves):
        raise ValueError("no legal move in the position")
    points = parse_point_scores(record.board, operations.get("c0"))
    position = SuitePosition(record, tuple(operations.get("bm", ())), tuple(operations.get("am", ())), points)
    if not (position.best_moves or position.avoid_moves or position.points):
        raise ValueError("no bm, am or c0 operation to score")
    return position


def read_test_suite(path: str):
    """Read a test suite; return (positions, errors) with errors as `file:line: reason` strings."""
    records, errors = read_epd_records(path)
    positions = []
    for record in records:
        try:
            positions.append(suite_position_from(record))
        except ValueError as error:
            errors.append(f"{record.location}: {error}")
    return positions, errors
