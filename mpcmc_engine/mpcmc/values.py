"""One scale for every score: win probability from the side to move's view, mates certain and ordered by length.

A `Value` is (probability, mate): probability in [0, 1] of a centipawn score on lichess's logistic curve
(mpcmc_engine.score_scale); a forced mate is probability 1 (or 0) and `mate` is
MATE_HORIZON less the plies to it (negated for a loss), so that shorter wins and longer losses are better. Values
compare as tuples, so `max` picks the best move. Plies are counted from the position the value belongs to;
`later(plies)` moves a value that many plies down the tree (the root's view of a deeper position).
"""

from typing import NamedTuple

import chess
import chess.engine

from mpcmc_engine.score_scale import centipawns_of, win_probability

MATE_HORIZON = 1000


class Value(NamedTuple):
    """A position's worth to the side it is measured for; larger is better."""
    probability: float
    mate: int = 0  # MATE_HORIZON - plies to a forced win, -(MATE_HORIZON - plies) to a forced loss, 0 otherwise

    def for_opponent(self) -> "Value":
        """The same position's value from the other side's view."""
        return Value(1.0 - self.probability, -self.mate)

    def later(self, plies: int) -> "Value":
        """This value seen from `plies` plies higher in the tree: a mate is that much further away."""
        if self.mate > 0:
            return Value(self.probability, self.mate - plies)
        if self.mate < 0:
            return Value(self.probability, self.mate + plies)
        return self

    def uci_score(self) -> tuple:
        """('cp', centipawns) or ('mate', moves, negative when being mated) for an `info score`."""
        if self.mate:
            plies = MATE_HORIZON - abs(self.mate)
            return ("mate", (plies + 1) // 2) if self.mate > 0 else ("mate", -(plies // 2))
        return "cp", centipawns_of(self.probability)


DRAW = Value(0.5)


def won_in(plies: int) -> Value:
    """A forced win `plies` plies away."""
    return Value(1.0, MATE_HORIZON - plies)


def lost_in(plies: int) -> Value:
    """A forced loss `plies` plies away."""
    return Value(0.0, -(MATE_HORIZON - plies))


def value_of_score(score: chess.engine.Score) -> Value:
    """Value of an engine score given from the side to move's view (python-chess `Score`)."""
    mate = score.mate()
    if mate is not None:
        return won_in(2 * mate - 1) if mate > 0 else lost_in(-2 * mate)  # mate 0: already mated
    centipawns = score.score()
    assert centipawns is not None  # a score that is not a mate has centipawns
    return Value(win_probability(centipawns))


def value_of_outcome(outcome: chess.Outcome, side: chess.Color, plies: int) -> Value:
    """Exact value for `side` of a game that ended `plies` plies below the position the value belongs to."""
    if outcome.winner is None:
        return DRAW
    return won_in(plies) if outcome.winner == side else lost_in(plies)
