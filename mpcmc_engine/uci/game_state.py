"""The game the GUI set up with `position`: its root (FEN and Chess960 flag) and the moves played from it, held twice
and kept in step: a python-chess board (legality, notation, tablebases, MPC-MC) and the core Position (search, perft,
evaluation)."""

import chess

from mpcmc_engine.bitboard.position import STARTING_FEN, Position, board_from_fen


class GameState:
    """The current position as a python-chess board with its history and the equal core Position."""

    def __init__(self) -> None:
        self._root = (STARTING_FEN, False)
        self._moves: list = []
        self.board = board_from_fen(STARTING_FEN)
        self.position = Position.from_board(self.board)

    def set_position(self, fen, moves: list, chess960: bool) -> None:
        """`position`: fen None is the start position; raise ValueError naming a bad FEN or move, keeping the game.

        When the root is unchanged and the move list extends the previous one, only the new moves are played, on the
        boards in place (taken back if one is illegal), so that a long game's `position` costs no copy of its history.
        """
        root = (STARTING_FEN if fen is None else fen, chess960)
        if root == self._root and moves[:len(self._moves)] == self._moves:
            board, position, new_moves = self.board, self.position, moves[len(self._moves):]
        else:
            board = board_from_fen(root[0], root[1])
            position, new_moves = Position.from_board(board), moves
        played = 0
        for text in new_moves:
            try:
                board.push(board.parse_uci(text))
            except ValueError:
                for _ in range(played):
                    board.pop()
                    position.pop()
                raise ValueError(f"illegal move {text!r} in position {board.fen()}") from None
            position.push(position.parse_uci(text))
            played += 1
        self._root, self._moves, self.board, self.position = root, list(moves), board, position

    def snapshot(self) -> tuple:
        """(Position, python-chess board): independent copies of the current position for a search to own."""
        return self.position.copy(), self.board.copy()

    def any_legal_move(self):
        """UCI text of a legal move of the current position (the first python-chess generates), None when none."""
        move = next(iter(self.board.legal_moves), None)
        return self.board.uci(move) if move is not None else None

    def describe(self) -> dict:
        """`d`: piece_at, fen, key and checkers of the current position (format.format_board's arguments)."""
        board = self.board
        return {"piece_at": self.position.piece_at,
                "fen": board.shredder_fen() if board.chess960 else board.fen(),
                "key": self.position.key,
                "checkers": [chess.square_name(square) for square in board.checkers()]}
