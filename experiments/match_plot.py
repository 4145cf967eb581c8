"""A picture of match results: for each match PGN (as `mpcmc-engine match` writes them, plain or .pgn.gz), the named
engine's Elo difference with its 95 % interval (the runner's trinomial estimate), one labelled bar each. Needs
matplotlib (`pip install ".[plots]"`).

    python experiments/match_plot.py docs/strength.png --engine mpcmc-engine --title "..." \
        "UCI_Elo 1500, 10+0.1=docs/benchmarks/strength-levels/1500-10+0.1.pgn.gz" ...
"""

import argparse
import re
import sys

from checkout import use_checkout
from clock_use import HEADER, read_games

use_checkout()

from mpcmc_engine.match.stats import TRINOMIAL_VALUES, estimate_elo
from mpcmc_engine.match.tally import engine1_points

ROW = re.compile(r"^(?P<label>.+)=(?P<path>[^=]+)$")


def outcome_counts(path: str, engine: str) -> tuple:
    """(losses, draws, wins) of `engine` over the finished games of the PGN at `path`."""
    counts = [0, 0, 0]
    for game in read_games(path):
        headers = dict(HEADER.findall(game))
        if engine not in (headers.get("White"), headers.get("Black")):
            continue
        points = engine1_points(headers.get("Result", "*"), headers["White"] == engine)
        if points is not None:
            counts[round(points * 2)] += 1
    return tuple(counts)


def main(argv=None) -> int:
    """Write the plot of the rows named on the command line; print each row's figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("rows", nargs="+", metavar="LABEL=PGN")
    parser.add_argument("--engine", default="mpcmc-engine", help="the engine whose results are plotted")
    parser.add_argument("--title", default="")
    args = parser.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels, estimates = [], []
    for row in args.rows:
        found = ROW.match(row)
        if not found:
            parser.error(f"a row is LABEL=PGN, got {row!r}")
        counts = outcome_counts(found["path"], args.engine)
        estimate = estimate_elo(counts, TRINOMIAL_VALUES)
        labels.append(f"{found['label']} ({sum(counts)} games)")
        estimates.append(estimate)
        print(f"{found['label']}: {counts[2]}-{counts[1]}-{counts[0]}, {estimate.score:.1%}, "
              f"{estimate.elo:+.1f} ({estimate.low:+.1f}, {estimate.high:+.1f})")
    figure, axes = plt.subplots(figsize=(8, 0.55 * len(labels) + 1.4))
    positions = range(len(labels))[::-1]
    for position, estimate in zip(positions, estimates):
        axes.errorbar(estimate.elo, position, xerr=[[estimate.elo - estimate.low], [estimate.high - estimate.elo]],
                      fmt="o", color="tab:blue", capsize=4)
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_yticks(list(positions), labels)
    axes.set_xlabel("Elo difference, 95 % interval")
    axes.set_title(args.title)
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
