"""Why TD-Stem's tempo weight can run away: the parity of the PV leaves and the tempo weight's feedback, per ending
and search (a node count or a fixed depth per move), from endgame self-play games of one evaluation (the shipped
linear weights by default).

For each pair of consecutive plies whose searches ended in a PV leaf (not a found mate) it counts whether both
leaves have the other side to move than their played positions (odd-odd), both the same side (even-even), or one
of each; then, on the same games, it sums the step each method gives the two tempo weights (middlegame plus
endgame, centipawns) with the tempo weights moved by -300, 0 and +300 cp from the start. A step that grows with the
offset is positive feedback (the weight runs away); one that shrinks pulls it back. docs/TRAINING.md quotes it.

    python experiments/td_stem_tempo.py [--games 100] [--eval-file <linear>] [--nodes 500 2000] [--depths 1 3]
"""

import argparse

import numpy as np

from checkout import use_checkout

use_checkout()

from mpcmc_engine.eval.eval_file import load_evaluation  # noqa: E402 (after use_checkout)
from mpcmc_engine.eval.features import F_TEMPO, N_FEATURES  # noqa: E402
from mpcmc_engine.training.td.generate import GameGenerator, SourceConfig  # noqa: E402
from mpcmc_engine.training.td.linear_model import float_weights  # noqa: E402
from mpcmc_engine.training.td.methods import LEAF_METHODS  # noqa: E402
from mpcmc_engine.training.td.updates import game_update  # noqa: E402

OFFSETS = (-300.0, 0.0, 300.0)
TEMPO = [F_TEMPO, N_FEATURES + F_TEMPO]
LAMBDA, ALPHA = 0.8, 0.01


def parity_shares(records) -> dict:
    """{"odd-odd", "even-even", "mixed": share} over consecutive plies whose leaves are both PV ends, and "pairs"."""
    counts = {"odd-odd": 0, "even-even": 0, "mixed": 0}
    for record in records:
        searched = np.isnan(record.leaf_fixed)
        odd = record.played[:, F_TEMPO] != record.leaf[:, F_TEMPO]   # the leaf has the other side to move
        for t in range(len(odd) - 1):
            if searched[t] and searched[t + 1]:
                key = "mixed" if odd[t] != odd[t + 1] else "odd-odd" if odd[t] else "even-even"
                counts[key] += 1
    pairs = sum(counts.values())
    return {**{key: count / pairs for key, count in counts.items()}, "pairs": pairs}


def tempo_steps(method: str, start: np.ndarray, records) -> list:
    """The summed step of the two tempo weights over `records` with the tempo weights at each of OFFSETS."""
    steps = []
    for offset in OFFSETS:
        vector = start.copy()
        vector[TEMPO] += offset
        steps.append(sum(float(np.sum(game_update(method, vector, record, LAMBDA, ALPHA)[0][TEMPO] - vector[TEMPO]))
                         for record in records))
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="self-play games per ending and node count")
    parser.add_argument("--eval-file", default="<linear>", help="linear weights playing and trained")
    parser.add_argument("--nodes", type=int, nargs="*", default=[500, 2000], help="nodes per move")
    parser.add_argument("--depths", type=int, nargs="*", default=[1, 3], help="fixed search depths per move")
    args = parser.parse_args()
    evaluation = load_evaluation(args.eval_file)
    start = float_weights(evaluation)
    print(f"lambda {LAMBDA}, alpha {ALPHA}, {args.games} games each; tempo step at offsets "
          f"{'/'.join(f'{offset:+.0f}' for offset in OFFSETS)} cp")
    searches = [(nodes, 0, f"{nodes:>5} nodes") for nodes in args.nodes] + \
        [(0, depth, f"depth {depth:>3}") for depth in args.depths]
    for ending in ("krk", "kqk"):
        for nodes, depth, label in searches:
            generator = GameGenerator(SourceConfig("endgame", True, nodes, 0.05, seed=7, ending=ending, depth=depth))
            records = [generator.record(index, 1000 + index, evaluation) for index in range(args.games)]
            shares = parity_shares(records)
            line = (f"{ending} {label}: odd-odd {shares['odd-odd']:.3f}, even-even {shares['even-even']:.3f}, "
                    f"mixed {shares['mixed']:.3f} ({shares['pairs']} pairs)")
            for method in LEAF_METHODS:
                line += f" | {method} " + "/".join(f"{step:+.1f}" for step in tempo_steps(method, start, records))
            print(line, flush=True)


if __name__ == "__main__":
    main()
