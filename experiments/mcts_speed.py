"""Speed of the MCTS modes against pvs in one run: each position of the bench set searched for the same time by
pvs (nodes/s), mcts and mcts-rollout (simulations/s; for mcts also the quiescence nodes/s its simulations search),
fresh tables. docs/MCTS.md quotes its figures.

    python experiments/mcts_speed.py [--seconds 1.0] [--positions 6] [--threads 1]
"""

import argparse
import time

from checkout import use_checkout

use_checkout()

from mpcmc_engine.bitboard.position import Position  # noqa: E402 (after use_checkout)
from mpcmc_engine.search.bench import BENCH_FENS  # noqa: E402
from mpcmc_engine.search.limits import SearchLimits  # noqa: E402
from mpcmc_engine.search.searcher import Searcher  # noqa: E402

ALGORITHMS = ("pvs", "mcts", "mcts-rollout")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position and algorithm")
    parser.add_argument("--positions", type=int, default=6, help="the first N positions of the bench set")
    parser.add_argument("--threads", type=int, default=1, help="search threads (Threads)")
    args = parser.parse_args()
    searcher = Searcher(hash_mb=16, threads=args.threads)
    for algorithm in ALGORITHMS:
        searcher.prepare(algorithm)
    totals = {algorithm: [0, 0, 0] for algorithm in ALGORITHMS}  # results.nodes, core nodes, ms
    print(f"{'position':<64} " + " ".join(f"{name:>14}" for name in ALGORITHMS) + "   mcts qnodes/s")
    for fen in BENCH_FENS[:args.positions]:
        row = []
        for algorithm in ALGORITHMS:
            searcher.clear()
            start = time.monotonic_ns()
            deadline = start + int(args.seconds * 1e9)
            result = searcher.search(Position(fen), SearchLimits(soft_deadline_ns=deadline, hard_deadline_ns=deadline,
                                                                 algorithm=algorithm))
            elapsed_ms = max(1, (time.monotonic_ns() - start) // 1_000_000)
            totals[algorithm][0] += result.nodes
            totals[algorithm][1] += searcher.nodes()
            totals[algorithm][2] += elapsed_ms
            row.append(result.nodes * 1000 // elapsed_ms)
        qnodes = totals["mcts"][1]
        print(f"{fen:<64} " + " ".join(f"{rate:>14,}" for rate in row) + f"   {qnodes:,} total so far")
    print(f"{'all (pvs: nodes/s; mcts, mcts-rollout: simulations/s)':<64} "
          + " ".join(f"{totals[name][0] * 1000 // totals[name][2]:>14,}" for name in ALGORITHMS)
          + f"   {totals['mcts'][1] * 1000 // totals['mcts'][2]:,} quiescence nodes/s")


if __name__ == "__main__":
    main()
