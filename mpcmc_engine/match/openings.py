"""Match openings: positions from an EPD file (one FEN per line) or the moves of the games in a PGN file (plain or
gzip-compressed, `.pgn.gz`), and the schedule that plays each opening twice with colours reversed.

Game index g (0-based) belongs to pair g // 2 and uses opening (g // 2) modulo the number of openings (they repeat
when there are fewer openings than pairs); engine 1 has White in the pair's first game and Black in its second.
With a seed the opening order is a reproducible shuffle, otherwise it is the file's order.
"""

import gzip
import io
import random
import sys
from dataclasses import dataclass

import chess
import chess.pgn

from mpcmc_engine.epd import read_epd_records


@dataclass(frozen=True)
class Opening:
    """A root position (FEN) and the moves played from it before the engines take over."""

    fen: str = chess.STARTING_FEN
    moves: tuple = ()

    def board(self) -> chess.Board:
        """A board at the root with the opening moves pushed (engines are sent root + moves)."""
        board = chess.Board(self.fen)
        for move in self.moves:
            board.push(move)
        return board


def ordered(items: list, seed) -> list:
    """Return `items` in file order (seed None) or shuffled reproducibly by `seed`."""
    items = list(items)
    if seed is not None:
        random.Random(seed).shuffle(items)
    return items


def epd_openings(path: str, seed) -> list:
    """The positions of an EPD file as openings (bad lines reported as `file:line: reason` on stderr and skipped)."""
    records, errors = read_epd_records(path)
    for error in errors:
        print(error, file=sys.stderr)
    return ordered([Opening(record.board.fen()) for record in records if not record.board.is_game_over()], seed)


def open_pgn(path: str):
    """The PGN file at `path` as a seekable text file; a `.gz` file is decompressed into memory first (a gzip stream
    seeks backwards only by decompressing again from its start)."""
    if path.lower().endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8-sig") as compressed:
            return io.StringIO(compressed.read())
    return open(path, encoding="utf-8-sig")


def pgn_openings(path: str, needed: int, seed) -> list:
    """The first `needed` usable games of a PGN file (after a seeded shuffle) as openings: each game's start
    position and main line. Only the chosen games are parsed, so large books stay quick."""
    with open_pgn(path) as handle:
        offsets = []
        while True:
            offset = handle.tell()
            if not chess.pgn.skip_game(handle):
                break
            offsets.append(offset)
        openings: list = []
        for offset in ordered(offsets, seed):
            if len(openings) == needed:
                break
            handle.seek(offset)
            game = chess.pgn.read_game(handle)
            assert game is not None  # skip_game found a game at this offset
            if game.errors or game.end().board().is_game_over():
                print(f"{path}: game at offset {offset} skipped: {game.errors or 'game over'}", file=sys.stderr)
                continue
            openings.append(Opening(game.board().fen(), tuple(game.mainline_moves())))
    return openings


def load_openings(path, pairs: int, seed) -> list:
    """Openings for `pairs` game pairs from `path` (.pgn or .pgn.gz is PGN, anything else EPD), or the start position
    when `path` is None; raise ValueError when the file holds no usable opening."""
    if path is None:
        return [Opening()]
    is_pgn = path.lower().endswith((".pgn", ".pgn.gz"))
    openings = pgn_openings(path, pairs, seed) if is_pgn else epd_openings(path, seed)
    if not openings:
        raise ValueError(f"no usable opening in {path}")
    return openings


def scheduled(openings: list, game_index: int) -> tuple:
    """Return (opening, engine1_is_white) of game `game_index`."""
    return openings[(game_index // 2) % len(openings)], game_index % 2 == 0


def round_label(game_index: int) -> str:
    """The PGN Round of game `game_index`: `pair.game`, both 1-based (game 0 is `1.1`, game 3 is `2.2`)."""
    return f"{game_index // 2 + 1}.{game_index % 2 + 1}"


def game_index_of(label: str):
    """The game index of a Round label written by round_label, or None for any other label."""
    pair, _, game = label.partition(".")
    if not (pair.isdigit() and game in ("1", "2")) or int(pair) < 1:
        return None
    return (int(pair) - 1) * 2 + int(game) - 1
