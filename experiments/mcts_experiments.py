"""The minimax-against-MCTS table of docs/RESULTS.md (issue 27): this engine's PVS search, its `mcts` (PUCT) and
`mcts-rollout` (UCT with random playouts) modes and Stockfish 15.1, full and limited in strength, against each other.

Usage: python experiments/mcts_experiments.py CELL [CELL ...] [--games N] [--concurrency K] [--out DIR]
       python experiments/mcts_experiments.py --list
       python experiments/mcts_experiments.py --table [--out DIR]

Every cell is a match of engine 1 (the side the study expects to win) against engine 2 (`base` in the PGN: the
search under study) from the paired openings of mpcmc_engine/data/openings/8moves_v3.pgn.gz, adjudicated when both
engines' scores agree; see experiments/match_cells.py for the files it writes. Both engines play at MOVETIME a move
unless a cell gives the MCTS side a number of simulations instead (`go nodes N` counts simulations in the MCTS
modes), or clocks (the ladder's cell).
"""

import sys

from checkout import use_checkout
from match_cells import Cell, Experiment, main

REPOSITORY = use_checkout()

from mpcmc_engine.data import BALANCED_OPENINGS
from mpcmc_engine.uci_process import this_engine_command

STOCKFISH = "/usr/games/stockfish"
SF_OPTIONS = ["Threads=1", "Hash=16"]
SF_LIMITED = SF_OPTIONS + ["UCI_LimitStrength=true", "UCI_Elo=1350"]   # Stockfish 15.1's weakest setting
SELF = " ".join(this_engine_command())
MOVETIME = "0.05"
ADJUDICATION = ["--resign-score", "800", "--resign-moves", "4", "--draw-score", "10", "--draw-moves", "10",
                "--draw-after", "40"]
def _cell(first, second, description, second_simulations=0) -> Cell:
    """Engine 1 `first` against `second` (each `pvs`, `mcts`, `mcts-rollout`, `stockfish` or `stockfish-1350`), both
    at MOVETIME a move, or `second` at `second_simulations` simulations a move when given."""
    def engine(name):
        if name.startswith("stockfish"):
            return STOCKFISH, SF_LIMITED if name.endswith("1350") else SF_OPTIONS
        return SELF, [f"SearchAlgorithm={name}"]   # this engine with its default evaluation, the shipped network

    first_command, first_options = engine(first)
    second_command, second_options = engine(second)
    return Cell(first_options, second_command, second_options, ["--movetime", MOVETIME] + ADJUDICATION, description,
                first_command=first_command, first_name=first, base_name=second,
                base_flags=("--limit", f"nodes={second_simulations}") if second_simulations else ())


CELLS = {
    "pvs-rollout100": _cell("pvs", "mcts-rollout", f"PVS {MOVETIME} s against UCT random rollouts, 100 simulations",
                            second_simulations=100),
    "pvs-rollout": _cell("pvs", "mcts-rollout", f"PVS against UCT random rollouts, both {MOVETIME} s"),
    "pvs-mcts": _cell("pvs", "mcts", f"PVS against PUCT, both {MOVETIME} s"),
    "sf-pvs": _cell("stockfish", "pvs", f"Stockfish 15.1 against PVS, both {MOVETIME} s"),
    "sf-rollout100": _cell("stockfish", "mcts-rollout",
                           f"Stockfish 15.1 {MOVETIME} s against UCT random rollouts, 100 simulations",
                           second_simulations=100),
    "sf-mcts": _cell("stockfish", "mcts", f"Stockfish 15.1 against PUCT, both {MOVETIME} s"),
    "sf1350-pvs": _cell("stockfish-1350", "pvs", f"Stockfish 15.1 UCI_Elo 1350 against PVS, both {MOVETIME} s"),
    "sf1350-mcts": _cell("stockfish-1350", "mcts", f"Stockfish 15.1 UCI_Elo 1350 against PUCT, both {MOVETIME} s"),
    "sf1350-rollout100": _cell("stockfish-1350", "mcts-rollout",
                               f"Stockfish 15.1 UCI_Elo 1350 {MOVETIME} s against UCT random rollouts, 100 simulations",
                               second_simulations=100),
    # the ladder: the PUCT mode against Stockfish limited in strength at the ladder's clock (docs/STRENGTH.md)
    "sf1900-mcts-10s": Cell(SF_OPTIONS + ["UCI_LimitStrength=true", "UCI_Elo=1900"], SELF, ["SearchAlgorithm=mcts"],
                            ["--tc", "10+0.1"] + ADJUDICATION,
                            "Stockfish 15.1 UCI_Elo 1900 against PUCT, 10+0.1 clocks",
                            first_command=STOCKFISH, first_name="stockfish-1900", base_name="mcts"),
}
EXPERIMENT = Experiment(CELLS, __doc__.splitlines()[0], BALANCED_OPENINGS, REPOSITORY, "docs/results/mcts",
                        "engine 1", "engine 2",
                        "minimax against MCTS: ")


if __name__ == "__main__":
    sys.exit(main(EXPERIMENT))
