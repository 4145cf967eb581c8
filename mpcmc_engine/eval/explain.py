"""`explain`: an evaluation broken down by feature block (for the UCI `eval` command)."""

from dataclasses import dataclass

import numpy as np

from mpcmc_engine.eval.evaluate import evaluate
from mpcmc_engine.eval.features import LAYOUT, N_FEATURES, block_offsets, extract_features, game_phase, taper
from mpcmc_engine.eval.weights import Weights, load_default_weights


@dataclass
class BlockScore:
    """One feature block's contribution, in centipawns from white's view."""

    name: str
    mg: int
    eg: int
    tapered: int


@dataclass
class Explanation:
    """Per-block contributions (white's view), the phase, the total (white's view) and the side-to-move score."""

    blocks: list
    phase: int
    total: int
    side_to_move_score: int


def explain(position, weights: Weights = None) -> Explanation:
    """Break the evaluation of `position` (a bitboard.Position) down by feature block."""
    weights = weights or load_default_weights()
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    extract_features(position.tab, position.bb, position.st, counts)
    phase = int(game_phase(position.bb))
    blocks = []
    for name, (start, size) in block_offsets(LAYOUT).items():
        part = slice(start, start + size)
        mg = int(counts[part] @ weights.mg[part])
        eg = int(counts[part] @ weights.eg[part])
        blocks.append(BlockScore(name, mg, eg, int(taper(mg, eg, phase))))
    total = int(taper(int(counts @ weights.mg), int(counts @ weights.eg), phase))
    score = int(evaluate(position.tab, position.bb, position.st, weights.packed()))
    return Explanation(blocks, phase, total, score)
