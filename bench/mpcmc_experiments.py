"""The MPC-MC experiments of docs/RESULTS.md: each cell is a match of an MPC-MC engine against its base engine.

Usage: python bench/mpcmc_experiments.py CELL [CELL ...] [--games N] [--concurrency K] [--out DIR]
       python bench/mpcmc_experiments.py --list

Every cell is played with `mpcmc-engine match` from the paired openings of ../shared/data/openings/4mvs_+90_+99.epd
and writes `DIR/CELL.pgn` (rerun the same command to resume or to add games) and `DIR/CELL.txt` (the summary:
W-D-L, Elo with its 95% interval, LOS, pentanomial counts). Settings of the paper:
- deterministic: the true opponent is an exact copy of the nominal opponent (same engine, same fixed nodes per move,
  clean hash every move: `--fresh-hash`), so its replies are the predicted ones;
- stochastic: the true opponent is an independent instance of the same strength (same nodes per move, but its own
  hash kept from move to move, so that its replies differ from the nominal opponent's now and then).
"""

import argparse
import contextlib
import io
import sys
from pathlib import Path

from mpcmc_engine.cli import main as cli_main
from mpcmc_engine.engine_command import this_engine_command

OPENINGS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "openings" / "4mvs_+90_+99.epd"
STOCKFISH = "/usr/games/stockfish"
SELF = " ".join(this_engine_command())
PLAIN = " ".join(this_engine_command("--plain"))


def _mpcmc(mode, fortify=False, evaluator="internal", opponent="internal", workers=2):
    """Options of the MPC-MC engine of a cell."""
    options = [f"MPCMC={mode}", f"MPCMC_Workers={workers}", f"MPCMC_Evaluator={evaluator}",
               f"MPCMC_Opponent={opponent}", f"MPCMC_Fortify={'true' if fortify else 'false'}"]
    if evaluator != "internal":
        options.append("MPCMC_EvaluatorOptions=Threads=1; Hash=16")
    if opponent != "internal":
        options.append("MPCMC_OpponentOptions=Threads=1; Hash=16")
    return options


# cell name -> (MPC-MC engine options, base engine command, base engine options, per-move limit arguments).
# `--nodes N` gives every sub-engine call of the MPC-MC engine N nodes (its `auto` limits) and the base engine N
# nodes per move: the nominal opponent has the true opponent's strength.
DETERMINISTIC = ["--fresh-hash"]
# Stockfish against itself draws long games: both engines agreeing on the score ends them early
ADJUDICATION = ["--resign-score", "800", "--resign-moves", "4", "--draw-score", "15", "--draw-moves", "10",
                "--draw-after", "40"]
SF_OPTIONS = ["Threads=1", "Hash=16"]
CELLS = {
    # Tables 1 and 2: one-step, plain and fortified; this engine as evaluator, nominal and true opponent
    "one-det-2k": (_mpcmc("one"), PLAIN, [], ["--nodes", "2000"] + DETERMINISTIC),
    "one-sto-2k": (_mpcmc("one"), PLAIN, [], ["--nodes", "2000"]),
    "one-fort-det-2k": (_mpcmc("one", fortify=True), PLAIN, [], ["--nodes", "2000"] + DETERMINISTIC),
    "one-fort-sto-2k": (_mpcmc("one", fortify=True), PLAIN, [], ["--nodes", "2000"]),
    "one-det-500": (_mpcmc("one"), PLAIN, [], ["--nodes", "500"] + DETERMINISTIC),
    # Table 3: half-step; Table 4: two-step (the best 10% of the root moves expanded)
    "half-det-2k": (_mpcmc("half"), PLAIN, [], ["--nodes", "2000"] + DETERMINISTIC),
    "two-det-500": (_mpcmc("two") + ["MPCMC_TwoStepKeep=10"], PLAIN, [], ["--nodes", "500"] + DETERMINISTIC),
    # Stockfish 15.1 as evaluator, nominal opponent and true opponent
    "sf-one-det-5k": (_mpcmc("one", evaluator=STOCKFISH, opponent=STOCKFISH), STOCKFISH, SF_OPTIONS,
                      ["--nodes", "5000"] + DETERMINISTIC + ADJUDICATION),
    # the same wall time per move: MPC-MC's sub-engine calls at 500 nodes (about 0.1 s a move with 2 workers),
    # the base engine searching for the whole 0.15 s
    "walltime-150ms": (_mpcmc("one") + ["MPCMC_EvalLimit=500 nodes", "MPCMC_OpponentLimit=500 nodes"], PLAIN, [],
                       ["--movetime", "0.15"]),
}


def run_cell(name, games, concurrency, out_dir: Path) -> int:
    """Play (or resume) one cell; write its PGN and summary; return the match command's exit status."""
    mpcmc_options, base_command, base_options, limits = CELLS[name]
    arguments = ["match", "--engine", SELF, "--name", f"mpcmc-{name}"]
    for option in mpcmc_options:
        arguments += ["--option", option]
    arguments += ["--engine", base_command, "--name", "base"]
    for option in base_options:
        arguments += ["--option", option]
    arguments += limits + ["--openings", str(OPENINGS), "--games", str(games), "--concurrency", str(concurrency),
                           "--seed", "1", "--pgn", str(out_dir / f"{name}.pgn"), "--event", f"MPC-MC {name}"]
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        status = cli_main(arguments)
    summary = captured.getvalue()
    (out_dir / f"{name}.txt").write_text(f"$ mpcmc-engine {' '.join(arguments)}\n{summary}")
    print(f"== {name}\n{summary}")
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cells", nargs="*", metavar="CELL", help="cells to play (see --list)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", default="docs/results")
    parser.add_argument("--list", action="store_true", help="list the cells and exit")
    args = parser.parse_args(argv)
    if args.list or not args.cells:
        print("\n".join(CELLS))
        return 0
    unknown = [cell for cell in args.cells if cell not in CELLS]
    if unknown:
        parser.error(f"unknown cells {unknown}; --list shows them")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    return max(run_cell(cell, args.games, args.concurrency, out_dir) for cell in args.cells)


if __name__ == "__main__":
    sys.exit(main())
