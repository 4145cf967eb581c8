"""`mpcmc-engine epd FILE`: run an EPD test suite (bm / am / c0) through a UCI engine and print the score.

Every position gets one `go` with the chosen limit (default 1 second). With --concurrency K, K engine processes
search different positions at once. Bad EPD lines are reported as `file:line: reason` on stderr and skipped; the
exit status is 1 only when nothing could be run (no valid position, or the engine cannot start).
"""

import argparse
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Optional

import chess
import chess.engine
from tqdm import tqdm

from mpcmc_engine.epd import SuitePosition, read_test_suite
from mpcmc_engine.uci_process import (
    START_ERRORS, EngineSpec, parse_engine_command, parse_option, play_within, start_engine, this_engine_command,
)

DEFAULT_TIME_S = 1.0
WATCHDOG_GRACE_S = 30.0  # extra wall time an engine may take beyond the limit before it counts as hung


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the `epd` command's arguments to `parser`."""
    parser.add_argument("file", help="EPD file with bm, am and/or c0 \"SAN=points, ...\" operations")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help="nodes per position")
    limit.add_argument("--time", type=float, help=f"seconds per position (default {DEFAULT_TIME_S:g})")
    limit.add_argument("--depth", type=int, help="depth per position")
    parser.add_argument("--engine", type=parse_engine_command, default=None, metavar="CMD",
                        help="engine command line (default: this engine)")
    parser.add_argument("--option", action="append", type=parse_option, default=[], metavar="NAME=VALUE",
                        help="UCI option for the engine (repeatable)")
    parser.add_argument("--concurrency", type=int, default=1, metavar="K", help="engine processes in parallel")
    parser.add_argument("--verbose", action="store_true", help="one line per position instead of a progress bar")


def search_limit(args) -> chess.engine.Limit:
    """The per-position limit the arguments ask for (DEFAULT_TIME_S when none)."""
    if args.nodes is not None:
        return chess.engine.Limit(nodes=args.nodes)
    if args.depth is not None:
        return chess.engine.Limit(depth=args.depth)
    return chess.engine.Limit(time=args.time if args.time is not None else DEFAULT_TIME_S)


@dataclass(frozen=True)
class Attempt:
    """The engine's answer to one position: its move (None on an engine failure), nodes searched, the error text."""

    position: SuitePosition
    move: Optional[chess.Move] = None
    nodes: int = 0
    error: str = ""

    @property
    def solved(self) -> bool:
        """True when the engine's move solves the position."""
        return self.move is not None and self.position.is_solved_by(self.move)

    @property
    def points(self) -> int:
        """The c0 points the engine's move earned."""
        return self.position.points_for(self.move) if self.move is not None else 0

    def line(self) -> str:
        """One verbose line: id, expected, engine move, ok/fail."""
        board = self.position.record.board
        played = board.san(self.move) if self.move is not None else f"error: {self.error}"
        points = f" {self.points}/{self.position.max_points}" if self.position.points else ""
        return f"{self.position.name}: {self.position.expected()} | engine {played}{points} | " \
               f"{'ok' if self.solved else 'fail'}"


class EnginePool:
    """One engine process per worker thread, started on first use and restarted after a failure."""

    def __init__(self, spec: EngineSpec, limit: chess.engine.Limit):
        self.spec, self.limit = spec, limit
        self.local = threading.local()
        self.lock = threading.Lock()
        self.engines: list = []

    def engine(self) -> chess.engine.SimpleEngine:
        """This thread's engine, started when it has none."""
        if getattr(self.local, "engine", None) is None:
            self.local.engine = start_engine(self.spec, own_process_group=True)
            with self.lock:
                self.engines.append(self.local.engine)
        return self.local.engine

    def discard(self) -> None:
        """Close this thread's engine (after a failure); the next position starts a new one."""
        self.local.engine.close()
        self.local.engine = None

    def solve(self, position: SuitePosition) -> Attempt:
        """Search `position` once with this thread's engine and return the attempt (failures become errors)."""
        timeout = (self.limit.time or 0.0) + WATCHDOG_GRACE_S
        try:
            result = play_within(self.engine(), position.record.board, self.limit, timeout, game=position,
                                 info=chess.engine.INFO_BASIC)
        except START_ERRORS as error:
            if getattr(self.local, "engine", None) is not None:
                self.discard()
            return Attempt(position, error=str(error) or type(error).__name__)
        if result.move is None or result.move not in position.record.board.legal_moves:
            return Attempt(position, error=f"engine played no legal move ({result.move})")
        return Attempt(position, result.move, result.info.get("nodes", 0))

    def close(self) -> None:
        """Close every engine the pool started."""
        with self.lock:
            for engine in self.engines:
                engine.close()


def summary(attempts, seconds: float) -> str:
    """The last line: solved/total, points/maximum when the suite has point scores, time, nodes."""
    solved = sum(attempt.solved for attempt in attempts)
    text = f"solved {solved}/{len(attempts)}"
    maximum = sum(attempt.position.max_points for attempt in attempts)
    if maximum:
        text += f", points {sum(attempt.points for attempt in attempts)}/{maximum}"
    errors = sum(bool(attempt.error) for attempt in attempts)
    if errors:
        text += f", engine errors {errors}"
    return text + f", time {seconds:.1f} s, nodes {sum(attempt.nodes for attempt in attempts)}"


def run(args) -> int:
    """Run the suite; print verbose lines or a progress bar, then the summary line; return the exit status."""
    try:
        positions, errors = read_test_suite(args.file)
    except OSError as error:
        print(f"mpcmc-engine epd: error: {error}", file=sys.stderr)
        return 1
    for problem in errors:
        print(problem, file=sys.stderr)
    if not positions:
        print(f"mpcmc-engine epd: error: no valid position in {args.file}", file=sys.stderr)
        return 1
    command = tuple(args.engine or this_engine_command())
    pool = EnginePool(EngineSpec(command, options=dict(args.option)), search_limit(args))
    started = time.monotonic()
    try:
        try:
            pool.engine()  # fail early, in the main thread, when the engine cannot start
        except START_ERRORS as error:
            print(f"mpcmc-engine epd: error: cannot start engine {' '.join(command)}: {error}", file=sys.stderr)
            return 1
        attempts = []
        with ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as executor:
            results = executor.map(pool.solve, positions)
            if not args.verbose:
                results = tqdm(results, total=len(positions), unit="pos", file=sys.stderr)
            for attempt in results:
                attempts.append(attempt)
                if args.verbose:
                    print(attempt.line(), flush=True)
    finally:
        pool.close()
    print(summary(attempts, time.monotonic() - started))
    return 0 if any(not attempt.error for attempt in attempts) else 1
