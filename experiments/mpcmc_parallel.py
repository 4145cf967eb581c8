"""Parallel efficiency of the MPC-MC worker pool, and the cost of one sub-engine call.

Usage: python experiments/mpcmc_parallel.py [--workers 1 2] [--positions N] [--nodes N] [--rounds R] [--mode one]

For each worker count, a warm pool of this engine's plain-mode sub-engines chooses a move (fixed nodes per call) in
the same positions, `--rounds` times; printed: seconds per MPC-MC move and the efficiency t(1) / (k * t(k)). Then
the wall time of one call (`play` at 1 node, which is almost all overhead, and at `--nodes`) for this engine and,
as the reference measured in the same run, Stockfish 15.1. The load average is printed at the start and the end:
on a shared machine the figures are only as quiet as it was.
"""

import argparse
import os
import time

import chess
import chess.engine
from checkout import use_checkout

use_checkout()

from mpcmc_engine.data import UNBALANCED_OPENINGS as OPENINGS
from mpcmc_engine.uci_process import EngineSpec, this_engine_command
from mpcmc_engine.mpcmc.call_limits import CallLimit
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.rollout import Rollout, RolloutSettings
from mpcmc_engine.mpcmc.subengine import SubEngine

STOCKFISH = "/usr/games/stockfish"
INTERNAL = EngineSpec(tuple(this_engine_command("--plain")), "internal", {})


def positions(count: int) -> list:
    """The first `count` openings of the experiments' EPD file (or the start position when it is absent)."""
    if not OPENINGS.exists():
        return [chess.Board()] * count
    lines = [line for line in OPENINGS.read_text().splitlines() if line.strip()][:count]
    return [chess.Board(" ".join(line.split()[:4]) + " 0 1") for line in lines]


def seconds_per_move(workers: int, boards: list, mode: str, nodes: int, rounds: int, make_pool=WorkerPool) -> float:
    """Mean wall seconds of one MPC-MC decision with a warm pool of `workers` (make_pool(workers, evaluator,
    opponent): a local pool unless told)."""
    pool = make_pool(workers, INTERNAL, INTERNAL)
    try:
        pool.start(with_opponents=mode != "half")
        limit = CallLimit(nodes=nodes)
        rollout = Rollout(pool, RolloutSettings(mode=mode, eval_limit=limit, opponent_limit=limit))
        rollout.decide(boards[0], 10.0, 0.0)  # warm: first searches, tables, hash
        start = time.perf_counter()
        for _ in range(rounds):
            for board in boards:
                rollout.decide(board, 10.0, 0.0)
        return (time.perf_counter() - start) / (rounds * len(boards))
    finally:
        pool.close()


def milliseconds_per_call(spec: EngineSpec, board: chess.Board, nodes: int, calls: int) -> float:
    """Mean wall milliseconds of `play` at `nodes` nodes with a fresh hash (as the nominal opponent is called)."""
    engine = SubEngine(spec)
    try:
        engine.start()
        limit = chess.engine.Limit(nodes=nodes)
        engine.play(board, limit, fresh=True)
        start = time.perf_counter()
        for _ in range(calls):
            engine.play(board, limit, fresh=True)
        return (time.perf_counter() - start) / calls * 1000
    finally:
        engine.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=2000, help="nodes per sub-engine call")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=200, help="calls per overhead measurement")
    parser.add_argument("--mode", default="one", choices=["half", "one", "two"])
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.2f}, cores: {os.cpu_count()}")
    boards = positions(args.positions)
    moves = sum(board.legal_moves.count() for board in boards) / len(boards)
    print(f"MPC-MC {args.mode}-step, {args.nodes} nodes per call, {len(boards)} positions "
          f"({moves:.1f} legal moves on average) x {args.rounds} rounds")
    base = None
    for workers in args.workers:
        seconds = seconds_per_move(workers, boards, args.mode, args.nodes, args.rounds)
        if workers == 1:
            base = seconds
        efficiency = f", efficiency {base / (workers * seconds):.0%}" if base is not None else ""
        print(f"  {workers} worker(s): {seconds:.3f} s per move{efficiency}")
    board = boards[0]
    engines = [("this engine (--plain)", INTERNAL)]
    if os.path.exists(STOCKFISH):
        engines.append(("Stockfish 15.1 (reference)", EngineSpec((STOCKFISH,), "stockfish", {"Threads": 1})))
    for name, spec in engines:
        overhead = milliseconds_per_call(spec, board, 1, args.calls)
        budget = milliseconds_per_call(spec, board, args.nodes, args.calls)
        print(f"  {name}: {overhead:.2f} ms per call at 1 node (the overhead), {budget:.2f} ms at {args.nodes} nodes")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
