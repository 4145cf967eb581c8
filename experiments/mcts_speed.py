"""Speed of the MCTS modes against pvs in one run: each position of the bench set searched for the same time by
pvs (nodes/s), mcts with the shipped policy, mcts without a policy (quick-score priors) and mcts-rollout
(simulations/s; for each mcts also the quiescence nodes/s its simulations search), fresh tables. docs/MCTS.md quotes
its figures.

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

from mpcmc_engine.eval.policy import SHIPPED_POLICY_PATH, load_policy  # noqa: E402

# column label -> (SearchAlgorithm, with the shipped policy)
COLUMNS = {"pvs": ("pvs", True), "mcts": ("mcts", True), "mcts-quick": ("mcts", False),
           "mcts-rollout": ("mcts-rollout", True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position and algorithm")
    parser.add_argument("--positions", type=int, default=6, help="the first N positions of the bench set")
    parser.add_argument("--threads", type=int, default=1, help="search threads (Threads)")
    args = parser.parse_args()
    searcher = Searcher(hash_mb=16, threads=args.threads)
    policy = load_policy(SHIPPED_POLICY_PATH)
    for algorithm, _ in COLUMNS.values():
        searcher.prepare(algorithm)
    totals = {label: [0, 0, 0] for label in COLUMNS}  # results.nodes, core nodes, ms
    print(f"{'position':<48} " + " ".join(f"{label:>13}" for label in COLUMNS))
    for fen in BENCH_FENS[:args.positions]:
        row = []
        for label, (algorithm, with_policy) in COLUMNS.items():
            searcher.set_policy(policy if with_policy else None)
            searcher.clear()
            start = time.monotonic_ns()
            deadline = start + int(args.seconds * 1e9)
            result = searcher.search(Position(fen), SearchLimits(soft_deadline_ns=deadline, hard_deadline_ns=deadline,
                                                                 algorithm=algorithm))
            elapsed_ms = max(1, (time.monotonic_ns() - start) // 1_000_000)
            totals[label][0] += result.nodes
            totals[label][1] += searcher.nodes()
            totals[label][2] += elapsed_ms
            row.append(result.nodes * 1000 // elapsed_ms)
        print(f"{fen[:48]:<48} " + " ".join(f"{rate:>13,}" for rate in row))
    print(f"{'all (pvs: nodes/s; mcts modes: simulations/s)':<48} "
          + " ".join(f"{totals[label][0] * 1000 // totals[label][2]:>13,}" for label in COLUMNS))
    for label in ("mcts", "mcts-quick"):
        print(f"{label}: {totals[label][1] * 1000 // totals[label][2]:,} quiescence nodes/s, "
              f"{totals[label][1] // max(1, totals[label][0]):,} a simulation")


if __name__ == "__main__":
    main()
