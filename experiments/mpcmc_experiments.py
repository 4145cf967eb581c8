"""The MPC-MC experiments of docs/RESULTS.md: each cell is a match of an MPC-MC engine against its base engine
(a control cell: the base engine in another setting against itself; a head-to-head cell: two MPC-MC engines).

Usage: python experiments/mpcmc_experiments.py CELL [CELL ...] [--games N] [--concurrency K] [--out DIR]
       python experiments/mpcmc_experiments.py --list
       python experiments/mpcmc_experiments.py --table [--out DIR]

Every cell is played with `mpcmc-engine match` from the paired openings of mpcmc_engine/data/openings/4mvs_+90_+99.epd
and writes `DIR/CELL.pgn` (rerun the same command to resume or to add games) and `DIR/CELL.txt` (the summary:
W-D-L, Elo with its 95% interval, LOS, pentanomial counts). Settings (cell names: `det`, `sto`, `psto`):
- det, the paper's deterministic setting: the true opponent is an exact copy of the nominal opponent (same engine,
  same fixed nodes, or depth, per move, clean hash every move: `--fresh-hash`), so its replies are the predicted ones;
- psto, the paper's stochastic setting: the true opponent is a separate instance of the nominal opponent's engine
  with a clean hash every move (no stored data) and the same time a move as every nominal-opponent call, so that two
  timed searches disagree now and then;
- sto, this project's variant: the true opponent keeps its hash from move to move (same nodes per move).
The cells played before MPCMC_EvaluatorHash existed were played with the evaluator keeping its hash (`keep`); they
state it, so that a resumed cell goes on as it was played. The cells added since use the paper's memoryless
evaluator (`fresh`: a clean evaluator hash every call).
"""

import functools
import sys

from checkout import use_checkout
from match_cells import Cell, Experiment, main

REPOSITORY = use_checkout()

from mpcmc_engine.data import UNBALANCED_OPENINGS as OPENINGS
from mpcmc_engine.uci_process import this_engine_command

INTERNAL = "internal"   # this engine in plain mode, as sub-engine and as base engine
STOCKFISH = "/usr/games/stockfish"
ETHEREAL = "/usr/games/ethereal-chess"   # Ethereal 12, standing in for the paper's Komodo Dragon
SELF = " ".join(this_engine_command())
PLAIN = " ".join(this_engine_command("--plain"))
# This engine's cells were played when the linear weights were its default evaluation: every process of this engine
# in a cell (the MPC-MC engine, its internal sub-engines, the base engine) is pinned to them.
LINEAR = "EvalFile=<linear>"
# UCI options of each engine, the same as base engine and as sub-engine
ENGINE_OPTIONS = {INTERNAL: [LINEAR], STOCKFISH: ["Threads=1", "Hash=16"], ETHEREAL: ["Threads=1", "Hash=16"]}
ENGINE_NAMES = {INTERNAL: "this engine", STOCKFISH: "Stockfish 15.1", ETHEREAL: "Ethereal 12"}
# a timed call of an internal sub-engine searches for all of its time (mpcmc.config.INTERNAL_OPTIONS): so does the base
# engine of a timed cell, its true opponent
NO_MOVE_OVERHEAD = "Move Overhead=0"
MpcmcCell = functools.partial(Cell, first_command=SELF)   # a cell whose engine 1 is this engine (with MPC-MC on)

# `--nodes N` gives every sub-engine call of the MPC-MC engine N nodes (its `auto` limits) and the base engine N
# nodes per move: the nominal opponent has the true opponent's strength.
DETERMINISTIC = ["--fresh-hash"]
# Stockfish against itself draws long games: both engines agreeing on the score ends them early
ADJUDICATION = ["--resign-score", "800", "--resign-moves", "4", "--draw-score", "15", "--draw-moves", "10",
                "--draw-after", "40"]
# the two-step of the paper's cells added since issue 26: a quarter of the root moves expanded, ranked by the nominal
# opponent
PAPER_TWO_STEP = ["MPCMC_TwoStepKeep=25", "MPCMC_TwoStepRank=opponent"]


def _mpcmc(mode, fortify=False, evaluator=INTERNAL, opponent=INTERNAL, workers=2, evaluator_hash="keep"):
    """Options of the MPC-MC engine of a cell (`evaluator_hash`: MPCMC_EvaluatorHash, fresh or keep)."""
    return [f"MPCMC={mode}", f"MPCMC_Workers={workers}", f"MPCMC_Evaluator={evaluator}",
            f"MPCMC_Opponent={opponent}", f"MPCMC_Fortify={'true' if fortify else 'false'}",
            f"MPCMC_EvaluatorHash={evaluator_hash}", LINEAR,
            f"MPCMC_EvaluatorOptions={'; '.join(ENGINE_OPTIONS[evaluator])}",
            f"MPCMC_OpponentOptions={'; '.join(ENGINE_OPTIONS[opponent])}"]


def _single_engine(mode, sub_engine, fortify=False, evaluator_hash="keep"):
    """Options of an MPC-MC engine whose evaluator and nominal opponent are both `sub_engine` (see _mpcmc)."""
    return _mpcmc(mode, fortify=fortify, evaluator=sub_engine, opponent=sub_engine, evaluator_hash=evaluator_hash)


def _base(engine: str) -> tuple:
    """(command, options, adjudication flags) of `engine` (INTERNAL or an external engine's command) as the base
    engine of a cell; games between external engines are adjudicated."""
    if engine == INTERNAL:
        return PLAIN, ENGINE_OPTIONS[INTERNAL], []
    return engine, ENGINE_OPTIONS[engine], ADJUDICATION


def _setting(deterministic: bool) -> str:
    """The name of a node-limited cell's setting."""
    return "deterministic" if deterministic else "stochastic (hash-keeping variant)"


def _described(description: str, adjudication: list) -> str:
    """A cell's description, saying when its games are adjudicated."""
    return description + (", adjudicated" if adjudication else "")


def _timed(options: list, milliseconds: int, true_opponent: str, description: str, cap_seconds: int,
           fresh_hash: bool = True) -> Cell:
    """A cell limited by time, as the paper's are: every sub-engine call of the MPC-MC engine (`options`, from
    _mpcmc) and every move of `true_opponent` get `milliseconds`; the MPC-MC engine's own `go movetime` is only a
    safety cap (`cap_seconds`). The true opponent gets a clean hash every move when `fresh_hash` (the paper's
    stochastic setting), else keeps it (this project's variant)."""
    command, base_options, adjudication = _base(true_opponent)
    if true_opponent == INTERNAL:
        base_options = base_options + [NO_MOVE_OVERHEAD]
    return MpcmcCell(options + [f"MPCMC_EvalLimit={milliseconds} ms", f"MPCMC_OpponentLimit={milliseconds} ms"],
                     command, base_options,
                     ["--movetime", str(milliseconds / 1000)] + (DETERMINISTIC if fresh_hash else []) + adjudication,
                     _described(description, adjudication), first_flags=("--limit", f"movetime={cap_seconds}"))


def _timed_cell(milliseconds: int, fresh_hash: bool, cap_seconds: int) -> Cell:
    """One-step with Stockfish 15.1 at `milliseconds` a call and a move, the evaluator keeping its hash (the cells
    played so; 50 ms calls take about 2 s a move, 200 ms calls about 8 s): with `fresh_hash` the paper's stochastic
    setting (these cells were named `det`), else this project's hash-keeping variant."""
    setting = "paper's stochastic" if fresh_hash else "hash-keeping variant"
    return _timed(_mpcmc("one", evaluator=STOCKFISH, opponent=STOCKFISH), milliseconds, STOCKFISH,
                  f"one-step, Stockfish 15.1 {milliseconds} ms a call and a move, {setting}, "
                  "evaluator keeping its hash", cap_seconds, fresh_hash)


TABLE_VARIANTS = ("one-det", "one-sto", "one-fort-det", "one-fort-sto", "half-det", "two-det")


def _table_cells(limit: int, label: str, sub_engine: str = INTERNAL, prefix: str = "",
                 evaluator_hash: str = "keep", variants: tuple = TABLE_VARIANTS, kind: str = "nodes") -> dict:
    """Tables 1 to 4 at `limit` a sub-engine call and a move (`kind` nodes, or depth for an engine that does not keep
    to `go nodes`), the `variants` of: one-step plain and fortified, deterministic and stochastic (the hash-keeping
    variant); half-step; two-step (the best 10% of the root moves by their one-step values expanded). `sub_engine` is
    the evaluator, nominal opponent and true opponent (INTERNAL or an external engine's command); `evaluator_hash` is
    MPCMC_EvaluatorHash. Cell names are `prefix` + variant + `-` + `label`."""
    base_command, base_options, adjudication = _base(sub_engine)
    engine = f"{ENGINE_NAMES[sub_engine]} " + (f"{limit} nodes" if kind == "nodes" else f"{kind} {limit}")

    def cell(options, deterministic, setting):
        limits = [f"--{kind}", str(limit)] + (DETERMINISTIC if deterministic else []) + adjudication
        return MpcmcCell(options, base_command, base_options, limits,
                         _described(f"{setting}, {engine}, {_setting(deterministic)}", adjudication))

    def mpcmc(mode, fortify=False):
        return _single_engine(mode, sub_engine, fortify, evaluator_hash)

    cells = {
        "one-det": cell(mpcmc("one"), True, "one-step"),
        "one-sto": cell(mpcmc("one"), False, "one-step"),
        "one-fort-det": cell(mpcmc("one", fortify=True), True, "one-step fortified"),
        "one-fort-sto": cell(mpcmc("one", fortify=True), False, "one-step fortified"),
        "half-det": cell(mpcmc("half"), True, "half-step"),
        "two-det": cell(mpcmc("two") + ["MPCMC_TwoStepKeep=10"], True, "two-step (best 10% expanded)"),
    }
    return {f"{prefix}{variant}-{label}": cells[variant] for variant in variants}


def _paper_stochastic_cells(milliseconds: int, label: str, sub_engine: str, cap_seconds: int, prefix: str = "",
                            variants=("one", "one-fort", "half", "two")) -> dict:
    """The paper's stochastic setting (see the module docstring) at `milliseconds` a call and a move, `sub_engine`
    (INTERNAL or an external engine's command) as evaluator, nominal opponent and true opponent, the evaluator
    memoryless: the `variants` of one-step, one-step fortified, half-step and two-step (PAPER_TWO_STEP). Cell names
    are `prefix` + variant + `-psto-` + `label`; `cap_seconds` caps one-step's move (two-step gets 20 times as
    much)."""
    modes = {"one": ("one", False, [], "one-step", 1), "one-fort": ("one", True, [], "one-step fortified", 1),
             "half": ("half", False, [], "half-step", 1),
             "two": ("two", False, PAPER_TWO_STEP, "two-step (25% expanded, opponent-ranked)", 20)}
    cells = {}
    for variant in variants:
        mode, fortify, extra, name, cap_factor = modes[variant]
        options = _single_engine(mode, sub_engine, fortify, "fresh") + extra
        description = f"{name}, {ENGINE_NAMES[sub_engine]} {milliseconds} ms a call and a move, paper's stochastic"
        cells[f"{prefix}{variant}-psto-{label}"] = _timed(options, milliseconds, sub_engine, description,
                                                          cap_seconds * cap_factor)
    return cells


def _cross_cell(evaluator: str, opponent: str, true_opponent: str, milliseconds: int = 50) -> Cell:
    """One-step with different engines (the paper's pairings): `evaluator`, nominal `opponent` and `true_opponent`,
    every call and move at `milliseconds`, the paper's stochastic setting, the evaluator memoryless."""
    opponents = (f"nominal and true opponent {ENGINE_NAMES[opponent]}" if opponent == true_opponent else
                 f"nominal opponent {ENGINE_NAMES[opponent]}, true opponent {ENGINE_NAMES[true_opponent]}")
    return _timed(_mpcmc("one", evaluator=evaluator, opponent=opponent, evaluator_hash="fresh"), milliseconds,
                  true_opponent, f"one-step, evaluator {ENGINE_NAMES[evaluator]}, {opponents}, {milliseconds} ms, "
                  "paper's stochastic", cap_seconds=10)


def _head_to_head(first: list, second: list, sub_engine: str, nodes: int, names: tuple, description: str) -> Cell:
    """Two MPC-MC engines (options `first` and `second`, from _mpcmc, named `names` in the PGN) against each other,
    every sub-engine call at `nodes` nodes, a clean hash every move (`--fresh-hash`: only what an option keeps is
    kept)."""
    adjudication = _base(sub_engine)[2]
    return MpcmcCell(first, SELF, second, ["--nodes", str(nodes)] + DETERMINISTIC + adjudication,
                     _described(description, adjudication), first_name=names[0], base_name=names[1])


def _evaluator_memory_cell(sub_engine: str, nodes: int) -> Cell:
    """The ablation of the evaluator's memory: one-step with the evaluator keeping its hash against one-step with a
    memoryless evaluator, all else equal (head to head: both near the same strength, so the score is not saturated
    as against the base engine)."""
    return _head_to_head(_single_engine("one", sub_engine, evaluator_hash="keep"),
                         _single_engine("one", sub_engine, evaluator_hash="fresh"),
                         sub_engine, nodes, ("mpcmc-keep", "mpcmc-fresh"),
                         f"ablation: one-step, evaluator keeping its hash against a memoryless evaluator, "
                         f"{ENGINE_NAMES[sub_engine]} {nodes} nodes")


def _two_against_one_cell(sub_engine: str, nodes: int) -> Cell:
    """Two-step (PAPER_TWO_STEP) against one-step at equal per-call limits (`nodes`), both memoryless."""
    return _head_to_head(_single_engine("two", sub_engine, evaluator_hash="fresh") + PAPER_TWO_STEP,
                         _single_engine("one", sub_engine, evaluator_hash="fresh"), sub_engine, nodes,
                         ("mpcmc-two", "mpcmc-one"),
                         f"two-step (25% expanded, opponent-ranked) against one-step, "
                         f"{ENGINE_NAMES[sub_engine]} {nodes} nodes a call")


def _two_step_cell(keep: int, nodes: int) -> Cell:
    """Two-step with `keep` % of the root moves expanded (ranked by the nominal opponent; 100: unpruned) against the
    base engine, this engine at `nodes` nodes, deterministic, the evaluator memoryless."""
    options = _mpcmc("two", evaluator_hash="fresh") + [f"MPCMC_TwoStepKeep={keep}", "MPCMC_TwoStepRank=opponent"]
    command, base_options, adjudication = _base(INTERNAL)
    return MpcmcCell(options, command, base_options, ["--nodes", str(nodes)] + DETERMINISTIC + adjudication,
                     f"two-step ({'unpruned' if keep == 100 else f'{keep}% expanded, opponent-ranked'}), "
                     f"this engine {nodes} nodes, deterministic")


def _kept_hash_control(command: str, options: list, nodes: int, engine: str, adjudication=()) -> Cell:
    """The control for the stochastic cells: the base engine keeping its hash from move to move (as their true
    opponent does) against itself with a clean hash every move (as their nominal opponent searches)."""
    return MpcmcCell(options, command, options, ["--nodes", str(nodes)] + DETERMINISTIC + list(adjudication),
                     _described(f"control: {engine} {nodes} nodes keeping its hash against itself with a fresh hash",
                                adjudication),
                     first_flags=("--keep-hash",), first_command=command, first_name="kept-hash")


def _ethereal_against_stockfish(milliseconds: int = 50) -> Cell:
    """The control for the cross cells: Ethereal 12 against Stockfish 15.1, both at `milliseconds` a move with a clean
    hash every move (how much stronger the nominal opponent of `eth-eval-sf-opp-vs-eth-50ms` is than its true one)."""
    command, options, adjudication = _base(STOCKFISH)
    return Cell(ENGINE_OPTIONS[ETHEREAL], command, options,
                ["--movetime", str(milliseconds / 1000)] + DETERMINISTIC + adjudication,
                _described(f"control: Ethereal 12 against Stockfish 15.1, {milliseconds} ms a move", adjudication),
                first_command=ETHEREAL, first_name="ethereal", base_name="stockfish")


CELLS = {
    **_table_cells(2000, "2k"),
    "kept-hash-2k": _kept_hash_control(PLAIN, [LINEAR], 2000, "this engine"),
    **_table_cells(500, "500"),
    # Stockfish 15.1 as evaluator, nominal opponent and true opponent
    **_table_cells(5000, "5k", sub_engine=STOCKFISH, prefix="sf-"),
    "sf-kept-hash-5k": _kept_hash_control(STOCKFISH, ENGINE_OPTIONS[STOCKFISH], 5000, "Stockfish 15.1", ADJUDICATION),
    # the same time for every Stockfish call and every move of the true opponent
    "sf-one-det-50ms": _timed_cell(50, True, 10),
    "sf-one-sto-50ms": _timed_cell(50, False, 10),
    "sf-one-det-200ms": _timed_cell(200, True, 40),
    # the same wall time per move: MPC-MC splits it over its sub-engine calls (`auto` limits), the base engine
    # searches for all of it
    "walltime-150ms": MpcmcCell(_mpcmc("one"), PLAIN, [LINEAR], ["--movetime", "0.15"],
                                "one-step against the base engine, both 0.15 s a move"),
    "walltime-500ms": MpcmcCell(_mpcmc("one"), PLAIN, [LINEAR], ["--movetime", "0.5"],
                                "one-step against the base engine, both 0.5 s a move"),
    # issue 26: the paper's stochastic setting, its engine pairings, its budgets, two-step in full, and the
    # evaluator's memory; every cell below with a memoryless evaluator
    **_paper_stochastic_cells(20, "20ms", INTERNAL, cap_seconds=5),
    **_paper_stochastic_cells(50, "50ms", STOCKFISH, cap_seconds=10, prefix="sf-"),
    **_paper_stochastic_cells(50, "50ms", ETHEREAL, cap_seconds=10, prefix="eth-"),
    # Ethereal 12 stops a `go nodes N` search after depth 1: its deterministic cells are limited by depth
    **_table_cells(9, "d9", ETHEREAL, "eth-", "fresh", ("one-det", "one-fort-det", "half-det"), kind="depth"),
    "sf-eval-eth-opp-50ms": _cross_cell(STOCKFISH, ETHEREAL, ETHEREAL),
    "eth-eval-sf-opp-50ms": _cross_cell(ETHEREAL, STOCKFISH, STOCKFISH),
    "eth-eval-sf-opp-vs-eth-50ms": _cross_cell(ETHEREAL, STOCKFISH, ETHEREAL),
    "eth-vs-sf-50ms": _ethereal_against_stockfish(),
    # the paper's budgets (few games played: 18 minutes to over an hour a game on 2 cores); deterministic in nodes,
    # about as many as Stockfish 15.1 searches in that time here (1.27 M nodes/s)
    **_paper_stochastic_cells(500, "500ms", STOCKFISH, cap_seconds=100, prefix="sf-", variants=("one", "one-fort")),
    **_table_cells(600_000, "600k", STOCKFISH, "sf-", "fresh", ("one-det", "one-fort-det")),
    **_paper_stochastic_cells(2000, "2s", STOCKFISH, cap_seconds=400, prefix="sf-", variants=("one", "one-fort")),
    **_table_cells(2_500_000, "2500k", STOCKFISH, "sf-", "fresh", ("one-det", "one-fort-det")),
    "two-keep25-det-500": _two_step_cell(25, 500),
    "two-keep100-det-500": _two_step_cell(100, 500),
    "two-vs-one-500": _two_against_one_cell(INTERNAL, 500),
    "sf-two-vs-one-5k": _two_against_one_cell(STOCKFISH, 5000),
    "evalhash-keep-vs-fresh-2k": _evaluator_memory_cell(INTERNAL, 2000),
    "sf-evalhash-keep-vs-fresh-5k": _evaluator_memory_cell(STOCKFISH, 5000),
}


EXPERIMENT = Experiment(CELLS, __doc__.splitlines()[0], OPENINGS, REPOSITORY, "docs/results", "MPC-MC", "base",
                        "MPC-MC ")


if __name__ == "__main__":
    sys.exit(main(EXPERIMENT))
