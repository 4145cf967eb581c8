"""`mpcmc-engine bench`: benchmarks that print their figures, with references measured in the same run."""


def configure(parser):
    """Add the bench arguments."""
    parser.add_argument("--perft", action="store_true",
                        help="perft speed against python-chess and Stockfish (/usr/games/stockfish) instead")


def run(args) -> int:
    """Run the chosen benchmark; exit status 0."""
    if args.perft:
        from mpcmc_engine.perft_benchmark import run_perft_benchmark
        run_perft_benchmark()
        return 0
    print("the search benchmark arrives with the search; use --perft")
    return 2
