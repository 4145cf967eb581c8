"""`mpcmc-engine bench`: benchmarks that print their figures, with references measured in the same run."""

import os
import re
import subprocess

STOCKFISH = "/usr/games/stockfish"
STOCKFISH_TIMEOUT_S = 600.0  # `stockfish bench` takes a few seconds


def configure(parser):
    """Add the bench arguments."""
    parser.add_argument("depth", type=int, nargs="?", default=None,
                        help="search depth of the search benchmark (default: mpcmc_engine.search.bench.BENCH_DEPTH)")
    parser.add_argument("--algorithm", choices=("pvs", "mtdbi"), default="pvs", help="root search algorithm")
    parser.add_argument("--compare-stockfish", action="store_true",
                        help=f"also run `stockfish bench` ({STOCKFISH}) and print the speed ratio")
    parser.add_argument("--eval-file", metavar="FILE",
                        help="also search the bench with this evaluation file (linear weights or a network, or "
                             "<linear> / <network>) and print its speed against the default evaluation's (the "
                             "shipped network), measured in the same run")
    parser.add_argument("--perft", action="store_true",
                        help="perft speed against python-chess and Stockfish (/usr/games/stockfish) instead")


def run(args) -> int:
    """Run the chosen benchmark; exit status 0 (2 when Stockfish is asked for and missing, or the evaluation file is
    unusable)."""
    if args.perft:
        from mpcmc_engine.tools.perft_benchmark import run_perft_benchmark
        run_perft_benchmark()
        return 0
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.search.bench import BENCH_DEPTH, bench_searcher, run_bench

    try:
        evaluation = load_evaluation(args.eval_file) if args.eval_file else None
    except ValueError as error:
        print(f"mpcmc-engine bench: error: {error}", flush=True)
        return 2
    result = run_bench(args.depth or BENCH_DEPTH, args.algorithm)
    print(f"{result.nodes} nodes {result.nps} nps")
    if evaluation is not None:
        searcher = bench_searcher()
        searcher.set_evaluation(evaluation)
        other = run_bench(args.depth or BENCH_DEPTH, args.algorithm, searcher=searcher)
        print(f"{args.eval_file}: {other.nodes} nodes {other.nps} nps; {other.nps / result.nps:.3f} x the default "
              f"evaluation's nodes/s")
    if args.compare_stockfish:
        if not os.path.exists(STOCKFISH):
            print(f"mpcmc-engine bench: error: {STOCKFISH} not found", flush=True)
            return 2
        reference = stockfish_bench_nps()
        print(f"Stockfish bench: {reference} nps; this engine: {result.nps / reference:.3f} x Stockfish")
    return 0


def stockfish_bench_nps(command: str = STOCKFISH) -> int:
    """Nodes per second reported by `stockfish bench` (its default settings: 16 MB, 1 thread, depth 13); raise
    subprocess.TimeoutExpired after STOCKFISH_TIMEOUT_S."""
    finished = subprocess.run([command, "bench"], capture_output=True, text=True, check=True,
                              timeout=STOCKFISH_TIMEOUT_S)
    match = re.search(r"Nodes/second\s*:\s*(\d+)", finished.stdout + finished.stderr)
    if match is None:
        raise RuntimeError("no 'Nodes/second' line in the output of stockfish bench")
    return int(match.group(1))
