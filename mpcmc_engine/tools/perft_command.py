"""`mpcmc-engine perft`: count leaves of the move tree, or validate an EPD perft suite against its counts."""

import sys
import time

from mpcmc_engine.tools.perft_suite import SuiteError, read_perft_suite
from mpcmc_engine.uci.format import divide_lines


def configure(parser):
    """Add the perft arguments."""
    parser.add_argument("--depth", type=int, help="depth in plies (required without --epd; a cap with --epd)")
    parser.add_argument("--fen", default=None, help="position (default: the start position)")
    parser.add_argument("--divide", action="store_true", help="print the count below each legal move")
    parser.add_argument("--chess960", action="store_true", help="Chess960: castling written king-takes-rook")
    parser.add_argument("--epd", metavar="FILE", help="check every position of FILE against its ;Dn counts")


def run(args) -> int:
    """Run the command; exit status 0 when every count matched (or was printed), 1 on a mismatch, 2 on bad input."""
    from mpcmc_engine.bitboard.position import STARTING_FEN, Position

    if args.epd:
        return _check_suite(args.epd, args.depth, args.chess960)
    if args.depth is None or args.depth < 0:
        print("mpcmc-engine perft: error: --depth N (N >= 0) is required without --epd", file=sys.stderr)
        return 2
    try:
        position = Position(args.fen or STARTING_FEN, args.chess960)
    except ValueError as error:
        print(f"mpcmc-engine perft: error: {error}", file=sys.stderr)
        return 2
    if args.divide and args.depth >= 1:
        for line in divide_lines(position.divide(args.depth)):
            print(line)
    else:
        started = time.perf_counter()
        nodes = position.perft(args.depth)
        seconds = time.perf_counter() - started
        print(f"Nodes searched: {nodes}")
        print(f"Time: {seconds:.3f} s ({nodes / max(seconds, 1e-9) / 1e6:.1f} M nodes/s)", file=sys.stderr)
    return 0


def _check_suite(path: str, max_depth, chess960: bool) -> int:
    """Check every case of the suite up to `max_depth`; print mismatches and a summary; return the exit status."""
    from mpcmc_engine.bitboard.position import Position

    exact = total = 0
    failed = False
    try:
        cases = list(read_perft_suite(path))
    except OSError as error:
        print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
        return 2
    for case in cases:
        total += 1
        if isinstance(case, SuiteError):
            print(case)
            failed = True
            continue
        try:
            position = Position(case.fen, chess960)
        except ValueError as error:
            print(f"{case.source}: {error}")
            failed = True
            continue
        good = True
        for depth, expected in sorted(case.counts.items()):
            if max_depth is not None and depth > max_depth:
                break
            got = position.perft(depth)
            if got != expected:
                print(f"{case.source}: depth {depth}: expected {expected}, got {got} ({case.fen})")
                good = False
        exact += good
        failed |= not good
    print(f"{exact}/{total} positions exact")
    return 1 if failed or total == 0 else 0
