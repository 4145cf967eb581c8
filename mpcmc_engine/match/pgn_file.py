"""The match PGN file: each finished game appended whole, and the games already there read back for resuming.

A game is appended with one `write` of its complete text (ending in a blank line) on a file opened for appending,
then flushed and fsync'ed, so an interrupt (Ctrl-C, a killed runner) never leaves half a game. Should the file
still end in an incomplete game (e.g. after a power loss), `drop_incomplete_tail` cuts it off before resuming.
"""

import datetime
import os
from dataclasses import dataclass

import chess
import chess.pgn

from mpcmc_engine.match.game import FinishedGame

GAME_SEPARATOR = "\n\n"


def game_pgn(record: FinishedGame, headers: dict) -> str:
    """The PGN text of `record` with `headers` (Event, White, Black, Round, ...) plus Date, Result, Termination
    and, for a non-standard start, FEN and SetUp; the reason is the comment after the last move."""
    game = chess.pgn.Game()
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    for name, value in headers.items():
        game.headers[name] = value
    game.setup(chess.Board(record.opening.fen))
    node = game
    engine_moves_from = len(record.opening.moves)
    for ply, move in enumerate(record.board.move_stack):
        node = node.add_variation(move)
        if ply >= engine_moves_from:
            node.comment = record.comments[ply - engine_moves_from]
    node.comment = ", ".join(text for text in (node.comment, record.reason) if text)
    game.headers["Result"] = record.result
    game.headers["Termination"] = record.termination
    return str(game)


def append_game(path: str, text: str) -> None:
    """Append one game's PGN `text` to `path` in a single write and make it durable."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, (text.rstrip("\n") + GAME_SEPARATOR).encode("utf-8"))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def drop_incomplete_tail(path: str) -> bool:
    """Cut an incomplete last game (text after the last game separator) off `path`; return True when it did."""
    with open(path, "rb+") as handle:
        data = handle.read()
        if not data or data.endswith(GAME_SEPARATOR.encode()):
            return False
        cut = data.rfind(b"\n\n[Event ")
        handle.truncate(cut + 2 if cut >= 0 else 0)
        return True


@dataclass(frozen=True)
class StoredGame:
    """The headers of a game already in the PGN file that resuming needs."""

    round_label: str
    white: str
    black: str
    result: str
    fen: str


def read_stored_games(path: str) -> list:
    """The games in `path` (an empty list when it does not exist), in file order."""
    if not os.path.exists(path):
        return []
    games = []
    with open(path, encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            games.append(StoredGame(headers.get("Round", "?"), headers.get("White", "?"), headers.get("Black", "?"),
                                    headers.get("Result", "*"), headers.get("FEN", chess.STARTING_FEN)))
    return games
