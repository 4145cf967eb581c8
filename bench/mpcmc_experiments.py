"""The MPC-MC experiments of docs/RESULTS.md: each cell is a match of an MPC-MC engine against its base engine
(a control cell: the base engine in another setting against itself).

Usage: python bench/mpcmc_experiments.py CELL [CELL ...] [--games N] [--concurrency K] [--out DIR]
       python bench/mpcmc_experiments.py --list
       python bench/mpcmc_experiments.py --table [--out DIR]

Every cell is played with `mpcmc-engine match` from the paired openings of mpcmc_engine/data/openings/4mvs_+90_+99.epd
and writes `DIR/CELL.pgn` (rerun the same command to resume or to add games) and `DIR/CELL.txt` (the summary:
W-D-L, Elo with its 95% interval, LOS, pentanomial counts). Settings of the paper:
- deterministic: the true opponent is an exact copy of the nominal opponent (same engine, same fixed nodes per move,
  clean hash every move: `--fresh-hash`), so its replies are the predicted ones;
- stochastic: the true opponent is an independent instance of the same strength (same nodes per move, but its own
  hash kept from move to move, so that its replies differ from the nominal opponent's now and then).
Every cell measured so far was played with the MPC-MC engine's evaluator keeping its hash (MPCMC_EvaluatorHash=keep,
the engine's behaviour before that option existed); its cells state it, so that a resumed cell goes on as it was
played. A cell may choose `fresh` instead (a clean evaluator hash every call: the paper's memoryless evaluator).
"""

import functools
import sys

from checkout import use_checkout
from match_cells import Cell, Experiment, main

REPOSITORY = use_checkout()

from mpcmc_engine.data import UNBALANCED_OPENINGS as OPENINGS
from mpcmc_engine.uci_process import this_engine_command

STOCKFISH = "/usr/games/stockfish"
SELF = " ".join(this_engine_command())
PLAIN = " ".join(this_engine_command("--plain"))
# This engine's cells were played when the linear weights were its default evaluation: every process of this engine
# in a cell (the MPC-MC engine, its internal sub-engines, the base engine) is pinned to them.
LINEAR = "EvalFile=<linear>"
MpcmcCell = functools.partial(Cell, first_command=SELF)   # a cell whose engine 1 is this engine (with MPC-MC on)


def _mpcmc(mode, fortify=False, evaluator="internal", opponent="internal", workers=2, evaluator_hash="keep"):
    """Options of the MPC-MC engine of a cell (`evaluator_hash`: MPCMC_EvaluatorHash, fresh or keep)."""
    return [f"MPCMC={mode}", f"MPCMC_Workers={workers}", f"MPCMC_Evaluator={evaluator}",
            f"MPCMC_Opponent={opponent}", f"MPCMC_Fortify={'true' if fortify else 'false'}",
            f"MPCMC_EvaluatorHash={evaluator_hash}", LINEAR,
            f"MPCMC_EvaluatorOptions={_sub_engine_options(evaluator)}",
            f"MPCMC_OpponentOptions={_sub_engine_options(opponent)}"]


def _sub_engine_options(sub_engine: str) -> str:
    """The MPCMC_*Options value of a sub-engine: this engine (`internal`) pinned to the linear weights, an external
    engine given SF_OPTIONS."""
    return LINEAR if sub_engine == "internal" else "; ".join(SF_OPTIONS)


# `--nodes N` gives every sub-engine call of the MPC-MC engine N nodes (its `auto` limits) and the base engine N
# nodes per move: the nominal opponent has the true opponent's strength.
DETERMINISTIC = ["--fresh-hash"]
# Stockfish against itself draws long games: both engines agreeing on the score ends them early
ADJUDICATION = ["--resign-score", "800", "--resign-moves", "4", "--draw-score", "15", "--draw-moves", "10",
                "--draw-after", "40"]
SF_OPTIONS = ["Threads=1", "Hash=16"]


def _setting(deterministic: bool) -> str:
    """The paper's name of a cell's setting."""
    return "deterministic" if deterministic else "stochastic"


def _timed_cell(milliseconds: int, deterministic: bool, cap_seconds: int, evaluator_hash: str = "keep") -> Cell:
    """One-step with Stockfish 15.1 in the paper's own setting: every sub-engine call of the MPC-MC engine and every
    move of the true opponent get `milliseconds`; the MPC-MC engine's own `go movetime` is only a safety cap
    (`cap_seconds`; its 50 ms calls take about 2 s a move, its 200 ms calls about 8 s)."""
    return MpcmcCell(_mpcmc("one", evaluator=STOCKFISH, opponent=STOCKFISH, evaluator_hash=evaluator_hash)
                + [f"MPCMC_EvalLimit={milliseconds} ms", f"MPCMC_OpponentLimit={milliseconds} ms"],
                STOCKFISH, SF_OPTIONS,
                ["--movetime", str(milliseconds / 1000)] + (DETERMINISTIC if deterministic else []) + ADJUDICATION,
                f"one-step, Stockfish 15.1 {milliseconds} ms a call and a move, {_setting(deterministic)}, adjudicated",
                first_flags=("--limit", f"movetime={cap_seconds}"))


def _table_cells(nodes: int, label: str, sub_engine: str = "internal", prefix: str = "",
                 evaluator_hash: str = "keep") -> dict:
    """Tables 1 to 4 at `nodes` nodes a sub-engine call and a move: one-step plain and fortified, deterministic and
    stochastic; half-step; two-step (the best 10% of the root moves expanded). `sub_engine` is the evaluator,
    nominal opponent and true opponent: `internal` (this engine in plain mode) or STOCKFISH (then adjudicated);
    `evaluator_hash` is MPCMC_EvaluatorHash. Cell names are `prefix` + variant + `label`."""
    if sub_engine == "internal":
        base_command, base_options, engine, adjudication = PLAIN, [LINEAR], f"this engine {nodes} nodes", []
    else:
        base_command, base_options, engine = sub_engine, SF_OPTIONS, f"Stockfish 15.1 {nodes} nodes"
        adjudication = ADJUDICATION

    def cell(options, deterministic, setting):
        limits = ["--nodes", str(nodes)] + (DETERMINISTIC if deterministic else []) + adjudication
        return MpcmcCell(options, base_command, base_options, limits,
                    f"{setting}, {engine}, {_setting(deterministic)}" + (", adjudicated" if adjudication else ""))

    def mpcmc(mode, fortify=False):
        return _mpcmc(mode, fortify=fortify, evaluator=sub_engine, opponent=sub_engine, evaluator_hash=evaluator_hash)

    return {
        f"{prefix}one-det-{label}": cell(mpcmc("one"), True, "one-step"),
        f"{prefix}one-sto-{label}": cell(mpcmc("one"), False, "one-step"),
        f"{prefix}one-fort-det-{label}": cell(mpcmc("one", fortify=True), True, "one-step fortified"),
        f"{prefix}one-fort-sto-{label}": cell(mpcmc("one", fortify=True), False, "one-step fortified"),
        f"{prefix}half-det-{label}": cell(mpcmc("half"), True, "half-step"),
        f"{prefix}two-det-{label}": cell(mpcmc("two") + ["MPCMC_TwoStepKeep=10"], True, "two-step (best 10% expanded)"),
    }


def _kept_hash_control(command: str, options: list, nodes: int, engine: str, adjudication=()) -> Cell:
    """The control for the stochastic cells: the base engine keeping its hash from move to move (as their true
    opponent does) against itself with a clean hash every move (as their nominal opponent searches)."""
    return MpcmcCell(options, command, options, ["--nodes", str(nodes)] + DETERMINISTIC + list(adjudication),
                f"control: {engine} {nodes} nodes keeping its hash against itself with a fresh hash"
                + (", adjudicated" if adjudication else ""),
                first_flags=("--keep-hash",), first_command=command, first_name="kept-hash")


CELLS = {
    **_table_cells(2000, "2k"),
    "kept-hash-2k": _kept_hash_control(PLAIN, [LINEAR], 2000, "this engine"),
    **_table_cells(500, "500"),
    # Stockfish 15.1 as evaluator, nominal opponent and true opponent
    **_table_cells(5000, "5k", sub_engine=STOCKFISH, prefix="sf-"),
    "sf-kept-hash-5k": _kept_hash_control(STOCKFISH, SF_OPTIONS, 5000, "Stockfish 15.1", ADJUDICATION),
    # the paper's setting: the same time for every Stockfish call and every move of the true opponent
    "sf-one-det-50ms": _timed_cell(50, True, 10),
    "sf-one-sto-50ms": _timed_cell(50, False, 10),
    "sf-one-det-200ms": _timed_cell(200, True, 40),
    # the same wall time per move: MPC-MC splits it over its sub-engine calls (`auto` limits), the base engine
    # searches for all of it
    "walltime-150ms": MpcmcCell(_mpcmc("one"), PLAIN, [LINEAR], ["--movetime", "0.15"],
                           "one-step against the base engine, both 0.15 s a move"),
    "walltime-500ms": MpcmcCell(_mpcmc("one"), PLAIN, [LINEAR], ["--movetime", "0.5"],
                           "one-step against the base engine, both 0.5 s a move"),
}


EXPERIMENT = Experiment(CELLS, __doc__.splitlines()[0], OPENINGS, REPOSITORY, "docs/results", "MPC-MC", "base",
                        "MPC-MC ")


if __name__ == "__main__":
    sys.exit(main(EXPERIMENT))
