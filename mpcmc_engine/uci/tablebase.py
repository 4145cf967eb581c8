"""Syzygy tablebases at the root: keep only the moves that preserve the best game-theoretic result.

python-chess's `chess.syzygy` reads the files; the search never sees them. The root filter ranks every legal move by
the WDL value of the position it leads to (a win that the fifty-move rule would spoil counts as a draw), and among
winning moves keeps those that convert fastest (smallest DTZ), among losing ones those that resist longest, so that
the search can only play moves that make progress.
"""

import os

import chess
import chess.syzygy

WIN, CURSED_WIN, DRAW, BLESSED_LOSS, LOSS = 2, 1, 0, -1, -2


class RootTablebase:
    """The tablebases named by the SyzygyPath option (none until `configure` succeeds)."""

    def __init__(self):
        self._tablebase = None
        self.max_pieces = 0

    def configure(self, path: str) -> None:
        """Open the directories of `path` (separated by os.pathsep); '' or '<empty>' disables probing.

        Raise ValueError naming the problem (a missing directory, no table found), leaving probing disabled.
        """
        self.close()
        if path in ("", "<empty>"):
            return
        tablebase = chess.syzygy.Tablebase()
        for directory in filter(None, path.split(os.pathsep)):
            if not os.path.isdir(directory):
                tablebase.close()
                raise ValueError(f"SyzygyPath: {directory!r} is not a directory")
            tablebase.add_directory(directory)
        names = list(tablebase.wdl)
        if not names:
            tablebase.close()
            raise ValueError(f"SyzygyPath: no Syzygy tables (*.rtbw) in {path!r}")
        self._tablebase = tablebase
        self.max_pieces = max(len(name) - 1 for name in names)  # "KQvK": 3 pieces

    def close(self) -> None:
        """Release the open files and disable probing."""
        if self._tablebase is not None:
            self._tablebase.close()
        self._tablebase, self.max_pieces = None, 0

    def root_moves(self, board: chess.Board):
        """UCI texts of the legal moves that keep the best result, or None when the tables do not cover `board`."""
        if (self._tablebase is None or chess.popcount(board.occupied) > self.max_pieces
                or board.castling_rights):
            return None
        try:
            return best_moves(board, self._tablebase.probe_wdl, self._tablebase.probe_dtz)
        except (KeyError, chess.syzygy.MissingTableError):
            return None


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
