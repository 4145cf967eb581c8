"""`explain`: an evaluation broken down for the UCI `eval` command: a linear one by feature block, a network's as
its output beside the material balance."""

from dataclasses import dataclass, field

import numpy as np

from mpcmc_engine.bitboard.constants import KING, PAWN
from mpcmc_engine.eval.eval_file import load_default_evaluation
from mpcmc_engine.eval.evaluate import evaluate, evaluation_array
from mpcmc_engine.eval.features import LAYOUT, N_FEATURES, block_offsets, extract_features, game_phase, taper
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.weights import MATERIAL_VALUES, Weights


@dataclass
class BlockScore:
    """One feature block's contribution, in centipawns from white's view."""

    name: str
    mg: int
    eg: int
    tapered: int


@dataclass
class Explanation:
    """The evaluation's kind ("linear" or "network"), per-block contributions of a linear one (white's view), the
    phase, the total (white's view), the side-to-move score and the material balance (white's view)."""

    kind: str
    phase: int
    total: int
    side_to_move_score: int
    material: int
    blocks: list = field(default_factory=list)


def material_balance(position) -> int:
    """White's material minus black's in the classical values (P 100, N 320, B 330, R 500, Q 900)."""
    return sum(MATERIAL_VALUES[piece_type] * (int(position.bb[piece_type]).bit_count()
                                             - int(position.bb[8 + piece_type]).bit_count())
               for piece_type in range(PAWN, KING + 1))


def explain(position, evaluation: Weights | Network | None = None) -> Explanation:
    """Explain the evaluation of `position` (a bitboard.Position) by `evaluation` (the default evaluation if None)."""
    evaluation = evaluation or load_default_evaluation()
    score = int(evaluate(position.tab, position.bb, position.st, evaluation_array(evaluation)))
    white_score = score if position.white_to_move else -score
    phase = int(game_phase(position.bb))
    if isinstance(evaluation, Network):
        return Explanation("network", phase, white_score, score, material_balance(position))
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    extract_features(position.tab, position.bb, position.st, counts)
    blocks = []
    for name, (start, size) in block_offsets(LAYOUT).items():
        part = slice(start, start + size)
        mg = int(counts[part] @ evaluation.mg[part])
        eg = int(counts[part] @ evaluation.eg[part])
        blocks.append(BlockScore(name, mg, eg, int(taper(mg, eg, phase))))
    total = int(taper(int(counts @ evaluation.mg), int(counts @ evaluation.eg), phase))
    return Explanation("linear", phase, total, score, material_balance(position), blocks)
