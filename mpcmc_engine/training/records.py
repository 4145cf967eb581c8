"""A game turned into what the TD updates read: rows of the played positions and of their PV leaves.

`TrainingRecord` rows are indexed by ply t: the position before move t and the leaf of the principal variation
searched from it (only for TD-Leaf/TD-Stem), each as a model's row and its aux value: white-view feature counts and
phase for the linear model, network inputs and side to move for the network (training/td/updates.py's Model).
`result` is the game's value for white.
"""

from dataclasses import dataclass
from typing import Optional

import numpy as np

from mpcmc_engine.eval.features import N_FEATURES, extract_features, game_phase
from mpcmc_engine.search.limits import SearchLimits

FEATURE_DTYPE = np.int16  # counts are small; keeps records cheap to send between processes


@dataclass
class TrainingRecord:
    """Feature rows of a game's played positions and (optionally) PV leaves, and its result for white."""

    played: np.ndarray             # (plies, N_FEATURES)
    played_phase: np.ndarray       # (plies,) aux: phase (linear rows) or side to move (network rows)
    result: float
    label: str = ""
    leaf: Optional[np.ndarray] = None         # (plies, N_FEATURES)
    leaf_phase: Optional[np.ndarray] = None   # (plies,) aux as played_phase
    leaf_fixed: Optional[np.ndarray] = None   # (plies,) outcome value of a game-ending leaf, NaN otherwise


def features_of(position):
    """(feature counts as a FEATURE_DTYPE row, phase) of a bitboard Position."""
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    extract_features(position.tab, position.bb, position.st, counts)
    return counts.astype(FEATURE_DTYPE), int(game_phase(position.bb))


def leaf_of(position, result):
    """(leaf Position, outcome value or NaN) of the principal variation `result` (a SearchResult) from `position`:
    a mate found by the search is an outcome (1 or 0 for white); otherwise the position at the end of the PV."""
    if result.is_mate:
        mover_wins = result.score > 0
        white_wins = mover_wins == position.white_to_move
        return position, 1.0 if white_wins else 0.0
    leaf = position.copy()
    for move in result.pv:
        leaf.push(move)
    return leaf, float("nan")


class RecordBuilder:
    """Collects the rows of one game ply by ply, then builds its TrainingRecord."""

    def __init__(self, with_leaves: bool, row_of=None):
        """`row_of(position)` -> (row, aux) makes a row: features_of (linear feature counts and phase) by default,
        training.network_model.network_row_of (network inputs and side to move) for the network."""
        self.with_leaves = with_leaves
        self.row_of = row_of or features_of
        self.played: list = []
        self.phases: list = []
        self.leaves: list = []
        self.leaf_phases: list = []
        self.fixed: list = []

    def add(self, position, search_result=None) -> None:
        """Add the position before a move and, with leaves, the PV of `search_result` searched from it."""
        counts, phase = self.row_of(position)
        self.played.append(counts)
        self.phases.append(phase)
        if self.with_leaves:
            leaf, fixed = leaf_of(position, search_result)
            counts, phase = self.row_of(leaf)
            self.leaves.append(counts)
            self.leaf_phases.append(phase)
            self.fixed.append(fixed)

    def build(self, result: float, label: str) -> TrainingRecord:
        """The TrainingRecord of the plies added so far and the game's `result` for white."""
        width = len(self.played[0]) if self.played else N_FEATURES

        def rows(items):
            return np.array(items, dtype=FEATURE_DTYPE).reshape(len(items), width)
        record = TrainingRecord(rows(self.played), np.array(self.phases, dtype=np.int64), result, label)
        if self.with_leaves:
            record.leaf = rows(self.leaves)
            record.leaf_phase = np.array(self.leaf_phases, dtype=np.int64)
            record.leaf_fixed = np.array(self.fixed, dtype=np.float64)
        return record


def leaf_search_limits(depth: int) -> SearchLimits:
    """The search that finds PV leaves of positions played by others (PGN or mentor games): fixed depth."""
    return SearchLimits(depth=depth)
