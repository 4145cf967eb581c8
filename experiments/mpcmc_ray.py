"""The cost of MPC-MC's sub-engine calls through Ray against the local pool, and the wall time per MPC-MC move.

Usage: python experiments/mpcmc_ray.py [--cluster ray|HOST:PORT] [--workers 1 2] [--positions N] [--nodes N]
                                       [--rounds R] [--calls N]

Both backends in the same run, with this engine's plain-mode sub-engines:
1. one call (`play` with a fresh hash, as the nominal opponent is called) at 1 node (almost all overhead) and at
   `--nodes`, `--calls` times, in the positions of 2 in turn, on a local SubEngine and through Ray (the opponent of
   a one-worker Ray pool): mean and median milliseconds, and the CPU time the engine's process spends per call;
2. seconds per MPC-MC move (experiments/mpcmc_parallel.py's: one-step, `--nodes` per call, the same positions) with each
   of `--workers` on each backend;
3. a projection, not a measurement, of the wall time per move on N workers of a cluster: calls per move / N x the
   mean time of one call through Ray at `--nodes`, plus the rest of a move (the one-worker Ray move less its calls).
`--cluster ray` (the default) starts a Ray instance on this machine for each Ray pool; HOST:PORT joins that cluster
(whose nodes must import this checkout, e.g. with PYTHONPATH set when `ray start` ran). The load average is printed
at the start and the end: on a shared machine the figures are only as quiet as it was.
"""

import argparse
import os
import statistics
import time

import chess
import chess.engine
from checkout import use_checkout

use_checkout()

from mpcmc_parallel import INTERNAL, positions, seconds_per_move

from mpcmc_engine.mpcmc.ray_pool import RayWorkerPool
from mpcmc_engine.mpcmc.subengine import SubEngine

PROJECTED_WORKERS = (1, 2, 4, 8, 16, 32, 64)


def call_milliseconds(engine, boards: list, nodes: int, calls: int) -> tuple:
    """(wall milliseconds of each, CPU milliseconds of this process per call) of `calls` calls of `play` at `nodes`
    nodes with a fresh hash, in `boards` in turn, after one unmeasured."""
    limit = chess.engine.Limit(nodes=nodes)
    engine.play(boards[0], limit, fresh=True)
    times = []
    cpu = time.process_time()
    for call in range(calls):
        start = time.perf_counter()
        engine.play(boards[call % len(boards)], limit, fresh=True)
        times.append((time.perf_counter() - start) * 1000)
    return times, (time.process_time() - cpu) * 1000 / calls


def describe(times: list) -> str:
    return f"mean {statistics.fmean(times):6.2f} ms, median {statistics.median(times):6.2f} ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cluster", default="ray", help="ray (an instance started here) or HOST:PORT")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=2000, help="nodes per sub-engine call")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--calls", type=int, default=300, help="calls per overhead measurement")
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.2f}, cores: {os.cpu_count()}, Ray: {args.cluster}")
    boards = positions(args.positions)

    print(f"one call of this engine (--plain), {args.calls} calls:")
    local = SubEngine(INTERNAL)
    ray_pool = RayWorkerPool(args.cluster, 1, INTERNAL, INTERNAL)
    calls = {}
    try:
        local.start()
        ray_pool.workers[0].opponent.start()
        for nodes in (1, args.nodes):
            for name, engine in (("local", local), ("Ray", ray_pool.workers[0].opponent)):
                calls[name, nodes], cpu = call_milliseconds(engine, boards, nodes, args.calls)
                print(f"  {name:5} at {nodes:5} nodes: {describe(calls[name, nodes])}; this process's CPU "
                      f"{cpu:.2f} ms per call")
            extra = statistics.fmean(calls["Ray", nodes]) - statistics.fmean(calls["local", nodes])
            print(f"  Ray's overhead at {nodes} nodes: {extra:+.2f} ms per call (mean)")
    finally:
        local.close()
        ray_pool.close()

    moves = sum(b.legal_moves.count() for b in boards) / len(boards)
    print(f"MPC-MC one-step, {args.nodes} nodes per call, {len(boards)} positions ({moves:.1f} legal moves on "
          f"average, {2 * moves:.1f} calls per move) x {args.rounds} rounds:")
    per_move = {}
    for name, make_pool in (("local", None), ("Ray", lambda *a: RayWorkerPool(args.cluster, *a))):
        for workers in args.workers:
            extra = {"make_pool": make_pool} if make_pool else {}
            per_move[name, workers] = seconds_per_move(workers, boards, "one", args.nodes, args.rounds, **extra)
            base = per_move[name, args.workers[0]] * args.workers[0]
            print(f"  {name:5} {workers} worker(s): {per_move[name, workers]:.3f} s per move, "
                  f"efficiency {base / (workers * per_move[name, workers]):.0%}")

    call_seconds = statistics.fmean(calls["Ray", args.nodes]) / 1000
    if ("Ray", 1) in per_move:
        rest = per_move["Ray", 1] - 2 * moves * call_seconds
        print(f"projection (not measured): T(N) = {2 * moves:.1f} calls / N x {1000 * call_seconds:.2f} ms "
              f"+ {1000 * rest:.0f} ms")
        print("  " + ", ".join(f"N={n}: {2 * moves / n * call_seconds + rest:.3f} s" for n in PROJECTED_WORKERS))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
