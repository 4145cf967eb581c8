"""Tables of matches played with `mpcmc-engine match`: a cell is one match of engine 1 against a base engine under
per-move limits; this module plays cells (resumably) and tabulates them. The experiment scripts
(mpcmc_experiments.py, mcts_experiments.py) define their cells and run `main`.

Every cell writes `DIR/CELL.pgn` (rerun the same command to resume or to add games; the archived cells under docs/ are
compressed, `CELL.pgn.gz`: gunzip one to resume it; tables read either) and `DIR/CELL.txt` (the command,
the commit and shipped evaluation it was played with, and the summary: W-D-L, Elo with its 95% interval, LOS,
pentanomial counts).
"""

import argparse
import contextlib
import gzip
import hashlib
import io
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import chess.pgn


@dataclass(frozen=True)
class Cell:
    """A match of engine 1 (`first_command` with `first_options`, named `first_name` or `mpcmc-CELL`) against a base
    engine (command, options, named `base_name`) under per-move `limits`. `first_flags` and `base_flags` are each
    engine's own match flags (`--limit`: its own limits, replacing the match-wide ones; `--keep-hash`)."""
    first_options: list
    base_command: str
    base_options: list
    limits: list
    description: str
    first_flags: tuple = ()
    first_command: str = ""
    first_name: str = ""
    base_name: str = "base"
    base_flags: tuple = ()

    def name_of_first(self, cell_name: str) -> str:
        """Engine 1's name in the PGN."""
        return self.first_name or f"mpcmc-{cell_name}"


@dataclass(frozen=True)
class Experiment:
    """A table of cells: played from `openings` (paths inside `repository` are shown relative to it), PGN Event
    headers `event_prefix` + cell name, results in `default_out`, the engines called `first_label` and `second_label`
    in the table."""
    cells: dict
    description: str
    openings: Path
    repository: Path
    default_out: str
    first_label: str
    second_label: str
    event_prefix: str


def match_arguments(experiment: Experiment, name, games, concurrency, out_dir: Path) -> list:
    """The `mpcmc-engine match` arguments (the command's name first) that play cell `name` of `experiment` into
    `out_dir`."""
    cell = experiment.cells[name]
    arguments = ["match", "--engine", cell.first_command, "--name", cell.name_of_first(name)]
    for option in cell.first_options:
        arguments += ["--option", option]
    arguments += cell.first_flags
    arguments += ["--engine", cell.base_command, "--name", cell.base_name]
    for option in cell.base_options:
        arguments += ["--option", option]
    arguments += cell.base_flags
    arguments += cell.limits + ["--openings", str(experiment.openings), "--games", str(games),
                                "--concurrency", str(concurrency), "--seed", "1", "--pgn", str(out_dir / f"{name}.pgn"),
                                "--event", f"{experiment.event_prefix}{name}"]
    return arguments


def provenance(repository: Path, out_dir: Path) -> str:
    """One line naming what a cell is played with: the checkout's commit (`+ uncommitted changes` when its tracked
    files other than the results in `out_dir` differ from it) and the sha256 of both shipped evaluations: the
    network (the default EvalFile) and the linear weights (`<linear>`, which the cells of mpcmc_experiments.py pin)."""
    def git(*arguments):
        return subprocess.run(["git", "-C", str(repository), *arguments], capture_output=True, text=True).stdout.strip()

    def digest(name):
        return hashlib.sha256((repository / "mpcmc_engine" / "eval" / "weights" / name).read_bytes()).hexdigest()[:16]

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    results = Path(os.path.relpath(out_dir.resolve(), repository.resolve()))
    inside = results != Path(".") and results.parts[0] != ".."
    outside_results = ["--", ".", f":(exclude){results.as_posix()}"] if inside else []
    changed = " + uncommitted changes" if git("status", "--porcelain", "--untracked-files=no", *outside_results) else ""
    return (f"# played at commit {commit}{changed}; shipped network (EvalFile default) sha256 "
            f"{digest('network.json')}, linear weights (<linear>) sha256 {digest('linear.json')}")


def run_cell(experiment: Experiment, name, games, concurrency, out_dir: Path) -> int:
    """Play (or resume) one cell; write its PGN and, when the match ended normally, its summary (the command, with
    paths inside the repository relative to it; an interrupted or failed match leaves the summary as it was); return
    the match command's exit status."""
    from mpcmc_engine.cli import main as cli_main

    arguments = match_arguments(experiment, name, games, concurrency, out_dir)
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        status = cli_main(arguments)
    if status != 0:
        return status
    summary = captured.getvalue()
    inside = str(experiment.repository) + os.sep
    shown = [argument.replace(inside, "") for argument in arguments]
    (out_dir / f"{name}.txt").write_text(f"$ mpcmc-engine {' '.join(shown)}\n"
                                         f"{provenance(experiment.repository, out_dir)}\n{summary}")
    print(f"== {name}\n{summary}")
    return status


SECONDS_IN_COMMENT = re.compile(r"(\d+\.\d+)s\b")


def cell_pgn(out_dir: Path, name: str) -> Path:
    """The PGN of cell `name` in `out_dir`: `CELL.pgn` while it is being played, else its archive `CELL.pgn.gz` (the
    plain name when neither exists)."""
    plain = out_dir / f"{name}.pgn"
    archived = out_dir / f"{name}.pgn.gz"
    return archived if archived.exists() and not plain.exists() else plain


def open_pgn(pgn_path: Path):
    """`pgn_path` opened for reading as text, decompressed when it ends in .gz."""
    opener = gzip.open if pgn_path.suffix == ".gz" else open
    return opener(pgn_path, "rt", encoding="utf-8")


def seconds_per_move(pgn_path: Path) -> dict:
    """{engine name: mean seconds per move} from the move comments of a match PGN (`{ score/depth 0.123s }`), plain
    or .gz."""
    totals = {}
    with open_pgn(pgn_path) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            for node in game.mainline():
                found = SECONDS_IN_COMMENT.search(node.comment)
                if found:
                    name = game.headers["White" if not node.turn() else "Black"]  # the side that made the move
                    count, total = totals.get(name, (0, 0.0))
                    totals[name] = (count + 1, total + float(found.group(1)))
    return {name: total / count for name, (count, total) in totals.items()}


def table(experiment: Experiment, out_dir: Path) -> str:
    """A markdown table of the cells played so far in `out_dir`: result, Elo, pentanomial counts, seconds a move."""
    rows = [f"| cell | setting | games | W-D-L | Elo (95%) | pentanomial | s/move {experiment.first_label} / "
            f"{experiment.second_label} |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, cell in experiment.cells.items():
        summary, pgn = out_dir / f"{name}.txt", cell_pgn(out_dir, name)
        if not summary.exists() or not pgn.exists():
            continue
        text = summary.read_text()
        games, wdl = re.search(r": (\d+) games, W-D-L (\S+)", text).groups()
        elo = re.search(r"Elo (\S+) \(95%: ([^)]*)\)", text).groups()
        pentanomial = re.search(r"\]: (\[[^]]*\])", text).group(1)
        times = seconds_per_move(pgn)
        rows.append(f"| {name} | {cell.description} | {games} | {wdl} | {elo[0]} ({elo[1]}) | {pentanomial} | "
                    f"{times.get(cell.name_of_first(name), 0):.3f} / {times.get(cell.base_name, 0):.3f} |")
    return "\n".join(rows)


def main(experiment: Experiment, argv=None) -> int:
    """The command line of an experiment script: play the named cells, list them, or print their table."""
    cells = experiment.cells
    parser = argparse.ArgumentParser(description=experiment.description)
    parser.add_argument("cells", nargs="*", metavar="CELL", help="cells to play (see --list)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", default=experiment.default_out)
    parser.add_argument("--list", action="store_true", help="list the cells and exit")
    parser.add_argument("--table", action="store_true", help="print the results in DIR as a markdown table")
    args = parser.parse_args(argv)
    if args.table:
        print(table(experiment, Path(args.out)))
        return 0
    if args.list or not args.cells:
        print("\n".join(f"{name}: {cell.description}" for name, cell in cells.items()))
        return 0
    unknown = [cell for cell in args.cells if cell not in cells]
    if unknown:
        parser.error(f"unknown cells {unknown}; --list shows them")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    from mpcmc_engine.tools.interruption import INTERRUPTED

    statuses = []
    for cell in args.cells:
        statuses.append(run_cell(experiment, cell, args.games, args.concurrency, out_dir))
        if statuses[-1] == INTERRUPTED:   # Ctrl-C or SIGTERM: no further cell
            break
    return max(statuses)
