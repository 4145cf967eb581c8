"""The match PGN file: each finished game appended whole, and the file read back for resuming without changing it.

A game is appended with one `write` of its complete text (ending in a blank line) on a file opened for appending,
then flushed and fsync'ed, so an interrupt (Ctrl-C, a killed runner) never leaves half a game. Resuming first reads
the file as it is (`read_match_file`): its complete games (a movetext that ends with a result) and, should it end
in an incomplete game (e.g. after a power loss), where that tail starts. Nothing is written until the runner has
checked that every game belongs to its match; only then may `cut_tail` cut the tail, which keeps every complete
game. Line ends are the file's own (LF or CRLF), and a file whose last game lacks its closing blank line gets it
before the next game.
"""

import datetime
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import chess
import chess.pgn

from mpcmc_engine.match.game import FinishedGame

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # PGN game termination markers


def game_pgn(record: FinishedGame, headers: dict) -> str:
    """The PGN text of `record` with `headers` (Event, White, Black, Round, ...) plus Date, Result, Termination
    and, for a non-standard start, FEN and SetUp; the reason is the comment after the last move."""
    game = chess.pgn.Game()
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    for name, value in headers.items():
        game.headers[name] = value
    game.setup(chess.Board(record.opening.fen))
    node: chess.pgn.GameNode = game
    engine_moves_from = len(record.opening.moves)
    for ply, move in enumerate(record.board.move_stack):
        node = node.add_variation(move)
        if ply >= engine_moves_from:
            node.comment = record.comments[ply - engine_moves_from]
    node.comment = ", ".join(text for text in (node.comment, record.reason) if text)
    game.headers["Result"] = record.result
    game.headers["Termination"] = record.termination
    return str(game)


def event_line(event: str) -> str:
    """The first line of every game the runner writes for Event `event` (as python-chess escapes it)."""
    return str(chess.pgn.Game(headers={"Event": event})).split("\n", 1)[0]


@dataclass(frozen=True)
class StoredGame:
    """A complete game in the PGN file: its line number (1-based) and the headers that resuming checks."""

    line: int
    event: str
    round_label: str
    white: str
    black: str
    result: str
    fen: str


@dataclass(frozen=True)
class Tail:
    """An incomplete last game: its first line number, its byte offset and its text."""

    line: int
    offset: int
    text: str


@dataclass
class MatchFile:
    """What a match PGN file holds (nothing when it does not exist) and how the next game is appended to it."""

    path: str
    games: list = field(default_factory=list)
    tail: Optional[Tail] = None
    newline: str = "\n"
    missing_newlines: int = 0  # line ends to write before the next game so that a blank line precedes it

    def append(self, text: str) -> None:
        """Append one game's PGN `text` in a single write, in the file's line ends, and make it durable."""
        data = self.newline * self.missing_newlines + text.rstrip("\n").replace("\n", self.newline) + 2 * self.newline
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, data.encode("utf-8"))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        self.missing_newlines = 0


@dataclass
class _Chunk:
    """The lines of one game while the file is split: first line number, byte offset, header and movetext lines."""

    line: int
    offset: int
    headers: list = field(default_factory=list)
    moves: list = field(default_factory=list)

    def complete(self) -> bool:
        """Whether the movetext ends with a game termination marker."""
        return bool(self.moves) and self.moves[-1].split()[-1] in RESULTS


def _newlines_missing(data: bytes) -> int:
    """How many line ends `data` lacks at its end for a blank line to follow its last text (0 for no text)."""
    stripped = data.rstrip(b" \t\r\n")
    return max(0, 2 - data[len(stripped):].count(b"\n")) if stripped else 0


def _stored(chunk: _Chunk) -> StoredGame:
    """The headers of a complete game."""
    headers = chess.pgn.read_headers(io.StringIO("".join(chunk.headers))) or chess.pgn.Headers()
    return StoredGame(chunk.line, headers.get("Event", "?"), headers.get("Round", "?"), headers.get("White", "?"),
                      headers.get("Black", "?"), headers.get("Result", "*"), headers.get("FEN", chess.STARTING_FEN))


def read_match_file(path: str) -> MatchFile:
    """Read the games of `path` without changing it (an empty MatchFile when it does not exist); raise ValueError
    naming the file, the line and the reason when it is not a file of whole PGN games (not UTF-8, moves before
    any header, an incomplete game before the last)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return MatchFile(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error})") from None
    chunks: list = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        is_header = chess.pgn.TAG_REGEX.match(line.strip()) is not None
        if line.strip():
            if not chunks and not is_header:
                raise ValueError(f"{path}:{number}: moves before any header: not a file of PGN games")
            if not chunks or (is_header and chunks[-1].moves) or chunks[-1].complete():
                chunks.append(_Chunk(number, offset))
            (chunks[-1].headers if is_header and not chunks[-1].moves else chunks[-1].moves).append(line)
        offset += len(line.encode("utf-8"))
    for chunk in chunks[:-1]:
        if not chunk.complete():
            raise ValueError(f"{path}:{chunk.line}: this game does not end with a result, yet another game follows")
    tail = None
    if chunks and not chunks[-1].complete():
        last = chunks.pop()
        tail = Tail(last.line, last.offset, data[last.offset:].decode("utf-8"))
    kept = data[:tail.offset] if tail else data
    return MatchFile(path, [_stored(chunk) for chunk in chunks], tail, "\r\n" if "\r\n" in text else "\n",
                     _newlines_missing(kept))


def cut_tail(match_file: MatchFile) -> None:
    """Cut the incomplete last game off the file; every complete game before it is kept."""
    if match_file.tail is None:
        return
    with open(match_file.path, "rb+") as handle:
        handle.truncate(match_file.tail.offset)
        os.fsync(handle.fileno())
    match_file.tail = None
