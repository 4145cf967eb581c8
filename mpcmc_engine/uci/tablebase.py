"""Syzygy tablebases at the root: keep only the moves that preserve the best game-theoretic result.

python-chess's `chess.syzygy` reads the files; the search never sees them. The root filter ranks every legal move by
the WDL value of the position it leads to (a win that the fifty-move rule would spoil counts as a draw), and among
winning moves keeps those that convert fastest (smallest DTZ), among losing ones those that resist longest, so that
the search can only play moves that make progress.
"""

import os

import chess
import chess.syzygy

from mpcmc_engine.uci.options import EMPTY

WIN, CURSED_WIN, DRAW, BLESSED_LOSS, LOSS = 2, 1, 0, -1, -2


class TablebaseError(Exception):
    """A table could not be read (a corrupt or truncated file): the position is to be searched without tables."""


class RootTablebase:
    """The tablebases named by the SyzygyPath option (none when no path is set); `open` validates a path."""

    def __init__(self, tablebase=None):
        self._tablebase = tablebase
        self.max_pieces = max((len(name) - 1 for name in tablebase.wdl), default=0) if tablebase else 0  # KQvK: 3

    @classmethod
    def open(cls, path: str) -> "RootTablebase":
        """The tables in the directories of `path` (separated by os.pathsep); '' or EMPTY gives none.

        Raise ValueError naming the problem (a missing directory, no table found); nothing stays open then.
        """
        if path in ("", EMPTY):
            return cls()
        tablebase = chess.syzygy.Tablebase()
        try:
            for directory in filter(None, path.split(os.pathsep)):
                if not os.path.isdir(directory):
                    raise ValueError(f"SyzygyPath: {directory!r} is not a directory")
                tablebase.add_directory(directory)
            if not tablebase.wdl:
                raise ValueError(f"SyzygyPath: no Syzygy tables (*.rtbw) in {path!r}")
        except BaseException:
            tablebase.close()
            raise
        return cls(tablebase)

    def close(self) -> None:
        """Release the open files and disable probing."""
        if self._tablebase is not None:
            self._tablebase.close()
        self._tablebase, self.max_pieces = None, 0

    def root_moves(self, board: chess.Board):
        """UCI texts of the legal moves that keep the best result, or None when the tables do not cover `board`;
        raise TablebaseError when a table covering it cannot be read."""
        if (self._tablebase is None or chess.popcount(board.occupied) > self.max_pieces
                or board.castling_rights):
            return None
        try:
            return best_moves(board, self._tablebase.probe_wdl, self._tablebase.probe_dtz)
        except (KeyError, chess.syzygy.MissingTableError):
            return None
        except Exception as error:  # whatever a damaged file makes the reader raise
            raise TablebaseError(f"Syzygy tables unreadable ({error!r})") from error


def best_moves(board: chess.Board, probe_wdl, probe_dtz) -> list:
    """UCI texts of `board`'s legal moves with the best (result, speed) rank; probes take the position after a move.

    probe_wdl/probe_dtz follow chess.syzygy: values from the point of view of the side to move in the probed position.
    """
    ranked = []
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_checkmate():
                rank = (WIN + 1, 0)
            else:
                wdl, dtz = -probe_wdl(board), -probe_dtz(board)
                if wdl == WIN and abs(dtz) + board.halfmove_clock > 100:
                    wdl = CURSED_WIN
                rank = (wdl, -abs(dtz) if wdl > DRAW else abs(dtz) if wdl < DRAW else 0)
        finally:
            board.pop()
        ranked.append((rank, board.uci(move)))
    if not ranked:
        return []
    best = max(rank for rank, _ in ranked)
    return [text for rank, text in ranked if rank == best]
