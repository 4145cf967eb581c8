"""Strength measures of the learning curve. A probe's measure(evaluation) returns the fields of one curve row (the
evaluation: linear weights or a network):

- `match` (MatchProbe): a fixed-node match of the evaluation against a reference (the run's starting evaluation),
  played in this process by our own search from paired openings, each opening once with either colour; the score,
  and the Elo difference with its 95% interval from the pentanomial counts of the game pairs.
- `wac` (WacProbe): how many positions of a test suite (the first ones of WAC) our search solves at fixed nodes.
"""

import random

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.data import UNBALANCED_OPENINGS, WAC
from mpcmc_engine.epd import read_test_suite
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.weights import Weights
from mpcmc_engine.match.openings import load_openings, scheduled
from mpcmc_engine.match.stats import PENTANOMIAL_VALUES, estimate_elo
from mpcmc_engine.match.tally import Tally
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.play import selfplay_record
from mpcmc_engine.training.records import RecordBuilder

PROBE_HASH_MB = 8


class MatchProbe:
    """Plays `games` (rounded up to whole pairs) at `nodes` per move between the evaluation measured and
    `reference`."""

    def __init__(self, reference: Weights | Network, openings_path=UNBALANCED_OPENINGS, games: int = 200,
                 nodes: int = 1000, seed: int = 0):
        self.pairs = max(1, -(-games // 2))
        self.openings = load_openings(str(openings_path), self.pairs, seed)
        self.nodes = nodes
        self.measured = Searcher(hash_mb=PROBE_HASH_MB, threads=1)
        self.reference = Searcher(hash_mb=PROBE_HASH_MB, threads=1)
        self.reference.set_evaluation(reference)

    def measure(self, evaluation: Weights | Network) -> dict:
        """{"score", "elo", "elo_low", "elo_high", "match_games"} of `evaluation` against the reference."""
        self.measured.set_evaluation(evaluation)
        tally = Tally()
        for index in range(2 * self.pairs):
            opening, measured_white = scheduled(self.openings, index)
            searchers = (self.measured, self.reference) if measured_white else (self.reference, self.measured)
            white_result = selfplay_record(opening, searchers, SearchLimits(nodes=self.nodes), 0.0,
                                           random.Random(index), RecordBuilder(False), "").result
            tally.add(index, white_result if measured_white else 1.0 - white_result)
        estimate = estimate_elo(tally.pentanomial(), PENTANOMIAL_VALUES)
        return {"score": estimate.score, "elo": estimate.elo, "elo_low": estimate.low, "elo_high": estimate.high,
                "match_games": 2 * self.pairs}


class WacProbe:
    """Counts the positions of the first `count` suite positions whose best move our search finds at `nodes`."""

    def __init__(self, path=WAC, count: int = 100, nodes: int = 20000):
        positions, _ = read_test_suite(str(path))
        self.positions = positions[:count]
        self.nodes = nodes
        self.searcher = Searcher(hash_mb=16, threads=1)

    def measure(self, evaluation: Weights | Network) -> dict:
        """{"wac_solved", "wac_total"}: positions solved with `evaluation`, of those tried."""
        self.searcher.set_evaluation(evaluation)
        solved = 0
        for suite_position in self.positions:
            self.searcher.clear()
            position = Position.from_board(suite_position.record.board)
            result = self.searcher.search(position, SearchLimits(nodes=self.nodes))
            solved += suite_position.is_solved_by(position.to_board().parse_uci(position.uci(result.best_move)))
        return {"wac_solved": solved, "wac_total": len(self.positions)}

