"""How an engine spent its clock in a match's PGN (as `mpcmc-engine match` writes it: `{ score/depth seconds }` after
each searched move, `[TimeControl "BASE+INC"]`): games, score, time losses, the mean depth of its searched moves,
the share of its clock it used (time spent over base plus the increments it received) and the searched moves below a
depth while more than a given time was left. The figures of docs/BENCHMARKS.md's time-control table.

    python experiments/clock_use.py docs/benchmarks/timecontrols/1+0.01-sf2000.pgn.gz --engine mpcmc-engine
"""

import argparse
import gzip
import re
import statistics
import sys
from dataclasses import dataclass, field

COMMENT = re.compile(r"(\d+)\.(\.\.)?\s+\S+\s+\{\s*([^}]*)\}")
SEARCHED = re.compile(r"^[+-]?(?:M?\d+(?:\.\d+)?)/(\d+)\s+([\d.]+)s")
HEADER = re.compile(r'\[(\w+) "([^"]*)"\]')


@dataclass
class ClockUse:
    """What one engine did with its clock over the games read."""

    games: int = 0
    points: float = 0.0
    time_losses: int = 0
    depths: list = field(default_factory=list)
    used_s: float = 0.0
    given_s: float = 0.0
    shallow: list = field(default_factory=list)  # (round, move number, depth, seconds left before the move)


def read_games(path: str) -> list:
    """The games of a PGN or .pgn.gz file, each as its text."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        text = handle.read()
    return ["[Event " + part for part in text.split("[Event ")[1:]]


def add_game(use: ClockUse, game: str, engine: str, min_depth: int, min_left_s: float) -> None:
    """Count `engine`'s moves of one game into `use` (games it did not play are skipped)."""
    headers = dict(HEADER.findall(game))
    if engine not in (headers.get("White"), headers.get("Black")):
        return
    color = "w" if headers["White"] == engine else "b"
    base, inc = (float(part) for part in headers["TimeControl"].split("/")[-1].split("+"))
    use.games += 1
    result = headers.get("Result", "*")
    use.points += {"1-0": 1.0 if color == "w" else 0.0, "0-1": 1.0 if color == "b" else 0.0}.get(result, 0.5)
    if f"{engine} lost on time" in game:
        use.time_losses += 1
    left, given = base, base
    for number, dots, comment in COMMENT.findall(game):
        if ("b" if dots else "w") != color:
            continue
        searched = SEARCHED.match(comment.strip())
        if not searched:
            continue
        depth, seconds = int(searched.group(1)), float(searched.group(2))
        use.depths.append(depth)
        if depth < min_depth and left > min_left_s:
            use.shallow.append((headers.get("Round"), int(number), depth, round(left, 3)))
        use.used_s += seconds
        left += inc - seconds
        given += inc
    use.given_s += given


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="mpcmc-engine", help="the engine's name in the PGN")
    parser.add_argument("--min-depth", type=int, default=6)
    parser.add_argument("--min-left", type=float, default=0.5, help="seconds on the clock (default 0.5)")
    args = parser.parse_args(argv)
    use = ClockUse()
    for path in args.pgn:
        for game in read_games(path):
            add_game(use, game, args.engine, args.min_depth, args.min_left)
    if not use.games:
        print(f"no game of {args.engine!r} in {args.pgn}", file=sys.stderr)
        return 1
    print(f"{args.engine}: {use.games} games, {100 * use.points / use.games:.1f} %, time losses {use.time_losses}, "
          f"mean depth {statistics.mean(use.depths):.1f} over {len(use.depths)} searched moves, "
          f"clock used {100 * use.used_s / use.given_s:.0f} %, "
          f"moves below depth {args.min_depth} with more than {args.min_left} s left: {len(use.shallow)}")
    for item in use.shallow[:10]:
        print(f"  round {item[0]} move {item[1]}: depth {item[2]} with {item[3]} s left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
