"""Relabelling the neural trainer's data: every position of a directory of chunks searched again (deeper, or with
another evaluation) and written with the new search's score into another directory, chunk by chunk under the same
numbers. The game's result stays. A position the new search no longer finds quiet (position_generation.is_quiet) is
dropped, as gen-positions would not have kept it.

A chunk stores squares and the side to move only: the relabelled position has the castling rights its kings and rooks
on their starting squares allow, no en-passant square and no history. Each chunk is searched from a clear hash with
its positions in order, so a chunk's new content depends only on the settings and the source chunk, not on which
worker did it nor on interruptions; chunks already written are kept, so an interrupted run resumes.
"""

from dataclasses import dataclass

import chess
import numpy as np

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.network.chunk_workers import run_chunks
from mpcmc_engine.training.network.position_data import (
    Positions, chunk_files, chunk_index, chunk_path, clipped_score, read_chunk, write_chunk,
)
from mpcmc_engine.training.network.position_generation import is_quiet, playing_searcher


@dataclass(frozen=True)
class RelabelSettings:
    """What `relabel-positions` does: the chunks of `source` searched at `nodes` a position with `eval_file` (a file or
    a shipped name; empty: the default evaluation), written to `out`."""

    source: str
    out: str
    nodes: int
    eval_file: str = ""


def board_of(squares: np.ndarray, side: int) -> chess.Board:
    """The pieces and side to move of a chunk's row: `squares` (64 piece codes, a1 first), `side` (0 white, 1 black)
    to move; no castling rights."""
    board = chess.Board(None)
    for square in np.flatnonzero(squares):
        code = int(squares[square])
        board.set_piece_at(int(square), chess.Piece(code & 7, chess.WHITE if code < 8 else chess.BLACK))
    board.turn = bool(side == 0)
    return board


def position_of(squares: np.ndarray, side: int) -> Position:
    """The position of a chunk's row (board_of) with the castling rights its kings and rooks allow."""
    board = board_of(squares, side)
    board.castling_rights = chess.BB_CORNERS
    board.castling_rights = board.clean_castling_rights()
    return Position.from_board(board)


def relabelled(positions: Positions, nodes: int, searcher: Searcher) -> Positions:
    """`positions` searched in order at `nodes` each from a clear hash: each with the new search's score, best move
    and quiet flag (is_quiet), its game result kept."""
    searcher.clear()
    scores, moves, quiet = [], [], []
    for row in range(len(positions)):
        position = position_of(positions.board[row], int(positions.side[row]))
        found = searcher.search(position, SearchLimits(nodes=nodes))
        scores.append(clipped_score(found.score))
        moves.append(found.best_move)
        quiet.append(is_quiet(position, found))
    return Positions(positions.board, positions.side, np.array(scores, dtype=np.int16), positions.result,
                     np.array(moves, dtype=np.uint16), np.array(quiet, dtype=np.uint8))


def _relabel_chunk(settings: RelabelSettings, index: int, searcher: Searcher) -> tuple:
    """Relabel chunk `index` of settings.source into settings.out; (positions read, positions kept)."""
    source = read_chunk(chunk_path(settings.source, index))
    positions = relabelled(source, settings.nodes, searcher)
    write_chunk(settings.out, index, positions)
    return len(source), len(positions)


def missing_relabels(settings: RelabelSettings) -> list:
    """The numbers of the source's chunks not yet written to the output; ValueError when the source has none."""
    numbers = [chunk_index(path) for path in chunk_files(settings.source)]
    return [index for index in numbers if not chunk_path(settings.out, index).exists()]


def relabel_positions(settings: RelabelSettings, workers: int, progress, on_interrupt=lambda: None) -> None:
    """Relabel every chunk missing from the output with `workers` processes; progress(positions read, kept) after
    each chunk. On KeyboardInterrupt with several workers: on_interrupt(), then the chunks begun are finished and
    written before the interrupt propagates. ValueError when the source has no chunks or one is unreadable, or the
    evaluation file is unusable."""
    run_chunks(playing_searcher, _relabel_chunk, settings, missing_relabels(settings), workers,
               lambda result: progress(*result), on_interrupt)
