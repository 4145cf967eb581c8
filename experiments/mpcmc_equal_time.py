"""MPC-MC against its own base engine at equal wall time (issue 25, docs/RESULTS.md): both engines on the same clock,
MPC-MC's sub-engine calls and its plain search paid out of its own time.

Usage: python experiments/mpcmc_equal_time.py CELL [CELL ...] [--games N] [--concurrency K] [--out DIR]
       python experiments/mpcmc_equal_time.py --list
       python experiments/mpcmc_equal_time.py --table [--out DIR]

Every cell is a match of this engine with MPC-MC one-step on (two local workers, this engine in plain mode as
evaluator and nominal opponent, `auto` per-call limits) against the plain engine (`base`), both with the shipped
evaluation, from the paired openings of mpcmc_engine/data/openings/8moves_v3.pgn.gz under a clock, adjudicated
when both engines' scores agree; see experiments/match_cells.py for the files it writes. Play cells with
`--concurrency 1`: the MPC-MC engine's workers take both cores of a 2-core machine while it thinks.
The `workersN` cells emulate a cluster of N workers on this machine's two: the base engine gets
BASE_MOVETIME a move and MPC-MC N/2 times as long, the time its calls would take on N workers (the calls are
independent, and two workers scale at 96-98 % with calls of tens of milliseconds, docs/RESULTS.md).
"""

import sys

from checkout import use_checkout
from match_cells import Cell, Experiment, main

REPOSITORY = use_checkout()

from mpcmc_engine.data import BALANCED_OPENINGS
from mpcmc_engine.uci_process import this_engine_command

SELF = " ".join(this_engine_command())
PLAIN = " ".join(this_engine_command("--plain"))
WORKERS = 2
BASE_MOVETIME = 0.1
ADJUDICATION = ["--resign-score", "800", "--resign-moves", "4", "--draw-score", "10", "--draw-moves", "10",
                "--draw-after", "40"]


def _mpcmc_cell(clock: str, candidates: int, description: str, extra_options=()) -> Cell:
    """One-step MPC-MC on WORKERS workers against the plain engine at `clock`; `candidates` is MPCMC_Candidates (0:
    every legal move; k: a plain search's best k, the plain search taking half the move's time); `extra_options`
    more MPC-MC options."""
    options = ["MPCMC=one", f"MPCMC_Workers={WORKERS}", f"MPCMC_Candidates={candidates}", "MPCMC_PlainShare=50",
               *extra_options]
    return Cell(options, PLAIN, [], ["--tc", clock] + ADJUDICATION, description, first_command=SELF,
                first_name=f"mpcmc-k{candidates}" if candidates else "mpcmc-all")


def _emulated_cell(workers: int) -> Cell:
    """One-step MPC-MC over every legal move on WORKERS workers with workers / WORKERS times the base engine's
    BASE_MOVETIME a move: the wall time of `workers` workers."""
    movetime = BASE_MOVETIME * workers / WORKERS
    return Cell(["MPCMC=one", f"MPCMC_Workers={WORKERS}"], PLAIN, [], ["--movetime", str(BASE_MOVETIME)] + ADJUDICATION,
                f"one-step over every legal move, {workers} workers emulated ({movetime:g} s a move on {WORKERS}), "
                f"against plain, {BASE_MOVETIME:g} s a move", first_command=SELF, first_name=f"mpcmc-{workers}w",
                first_flags=("--limit", f"movetime={movetime:g}"))


CELLS = {
    "all-10+0.1": _mpcmc_cell("10+0.1", 0, "one-step over every legal move, 2 workers, against plain, 10+0.1"),
    "k3-10+0.1": _mpcmc_cell("10+0.1", 3, "one-step over the plain search's best 3, 2 workers, against plain, "
                                          "10+0.1"),
    "k3-keep-10+0.1": _mpcmc_cell("10+0.1", 3, "the plain search's best 3, the evaluator keeping its hash, calls of "
                                               "40 ms or the plain move, 2 workers, against plain, 10+0.1",
                                  ("MPCMC_EvaluatorHash=keep", "MPCMC_MinCallMs=40")),
    "k3-60+0.6": _mpcmc_cell("60+0.6", 3, "one-step over the plain search's best 3, 2 workers, against plain, "
                                          "60+0.6"),
    "workers8-0.1s": _emulated_cell(8),
    "workers32-0.1s": _emulated_cell(32),
}

EXPERIMENT = Experiment(CELLS, __doc__.splitlines()[0], BALANCED_OPENINGS, REPOSITORY, "docs/results/equal-time",
                        "first", "base", "MPC-MC equal time ")


if __name__ == "__main__":
    sys.exit(main(EXPERIMENT))
