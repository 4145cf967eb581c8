"""How often the true opponent of an MPC-MC cell played the reply MPC-MC's nominal opponent predicted.

Usage: python experiments/mpcmc_prediction.py CELL [CELL ...] [--out DIR] [--option NAME=VALUE ...]

For a cell (see `python experiments/mpcmc_experiments.py --list`), every position of its PGN in which the base engine
moved right after the MPC-MC engine is given to a fresh copy of the nominal opponent (the base engine with the cell's
options, the same nodes or time per move, a clean hash: `ucinewgame` before each search, the game's history
included), as the MPC-MC engine's nominal opponent saw it; printed: the share of the true opponent's replies that
equal its prediction. In a deterministic cell with fixed nodes it should be all of them; a stochastic cell shows how
far its true opponent strays from the model, and a deterministic cell with a time limit how far two searches of the
same time disagree (run it on a quiet machine: the replay's own searches are timed too). `--option` adds UCI options
to the nominal opponent's, e.g. `EvalFile=PATH` for a cell of this engine played with other weights than the shipped
ones (docs/RESULTS.md says which).
"""

import argparse
import dataclasses
import sys
from pathlib import Path

import chess
import chess.pgn
from checkout import use_checkout

use_checkout()

from mpcmc_engine.tools import match_command
from mpcmc_engine.match.game import move_limit
from mpcmc_engine.uci_process import parse_option, play_within, start_engine
from match_cells import cell_pgn, match_arguments, open_pgn
from mpcmc_experiments import EXPERIMENT

REPLY_GRACE_S = 60.0  # a reply taking this much longer than its time limit counts as hung


def base_engine_of(cell_name: str, out_dir: Path) -> tuple:
    """(EngineSpec, chess.engine.Limit) of the cell's base engine, as its match command sets them up."""
    parser = argparse.ArgumentParser()
    match_command.configure(parser)
    plan = match_command.plan_from(parser.parse_args(match_arguments(EXPERIMENT, cell_name, 1, 1, out_dir)[1:]))
    return plan.engines[1], move_limit(plan.engine_limits[1] or plan.settings.limits, None, chess.WHITE)


def agreement(cell_name: str, out_dir: Path, options: dict) -> tuple:
    """(replies predicted, replies) over the cell's PGN in `out_dir`, the nominal opponent having the cell's base
    options and then `options`."""
    spec, limit = base_engine_of(cell_name, out_dir)
    predicted = replies = 0
    with start_engine(dataclasses.replace(spec, options={**spec.options, **options})) as opponent:
        with open_pgn(cell_pgn(out_dir, cell_name)) as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                base_color = chess.WHITE if game.headers["White"] == "base" else chess.BLACK
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    if board.turn == base_color and ply > 0:  # a reply to an MPC-MC move
                        reply = play_within(opponent, board, limit, (limit.time or 0) + REPLY_GRACE_S,
                                            game=object()).move
                        predicted += reply == move
                        replies += 1
                    board.push(move)
    return predicted, replies


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cells", nargs="+", metavar="CELL")
    parser.add_argument("--out", default="docs/results", help="where the cells' PGNs are (default %(default)s)")
    parser.add_argument("--option", action="append", default=[], type=parse_option, metavar="NAME=VALUE",
                        help="a UCI option of the nominal opponent (repeatable)")
    args = parser.parse_args(argv)
    options = dict(args.option)
    for name in args.cells:
        if name not in EXPERIMENT.cells:
            parser.error(f"unknown cell {name}; python experiments/mpcmc_experiments.py --list shows them")
        predicted, replies = agreement(name, Path(args.out), options)
        print(f"{name}: {predicted} of {replies} replies as predicted ({100 * predicted / max(replies, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
