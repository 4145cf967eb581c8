"""One scale for every score: win probability from the side to move's view, mates certain and ordered by length.

A `Value` is (probability, mate_order): probability in [0, 1] from the lichess formula
`50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)` percent; a mate is probability 1 (or 0) and mate_order makes
shorter wins and longer losses better. Values compare as tuples, so `max` picks the best move.
"""

import math
from typing import NamedTuple

import chess
import chess.engine

LICHESS_SCALE = 0.00368208


class Value(NamedTuple):
    """A position's worth to the side it is measured for; larger is better."""
    probability: float
    mate_order: int = 0  # -plies to mate when winning by mate, +plies when being mated, 0 otherwise

    def for_opponent(self) -> "Value":
        """The same position's value from the other side's view."""
        return Value(1.0 - self.probability, -self.mate_order)

    def to_uci_score(self) -> str:
        """`cp N` or `mate N` (moves, signed) for an `info score`."""
        if self.mate_order:
            plies = abs(self.mate_order)
            moves = (plies + 1) // 2
            return f"mate {moves if self.mate_order < 0 else -moves}"
        return f"cp {centipawns_of(self.probability)}"


DRAW = Value(0.5)


def probability_of_centipawns(cp: float) -> float:
    """Win probability (0..1) of a centipawn score, by the lichess formula."""
    return 1.0 / (1.0 + math.exp(-LICHESS_SCALE * cp))


def centipawns_of(probability: float) -> int:
    """Inverse of probability_of_centipawns, clamped to +-10000 cp."""
    if probability <= 0.0:
        return -10000
    if probability >= 1.0:
        return 10000
    return max(-10000, min(10000, round(-math.log(1.0 / probability - 1.0) / LICHESS_SCALE)))


def value_of_score(score: chess.engine.Score) -> Value:
    """Value of an engine score given from the side to move's view (python-chess `Score`)."""
    mate = score.mate()
    if mate is not None:
        if mate > 0:
            return Value(1.0, -(2 * mate - 1))
        return Value(0.0, 2 * max(-mate, 0))  # mate 0 / -0: already mated
    return Value(probability_of_centipawns(score.score()))


def value_of_outcome(outcome: chess.Outcome, turn: chess.Color) -> Value:
    """Exact value of a finished game for the side `turn` (whose move it would be)."""
    if outcome.winner is None:
        return DRAW
    return Value(1.0, 0) if outcome.winner == turn else Value(0.0, 0)
