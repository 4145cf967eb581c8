"""The learning curve: WAC positions solved at fixed nodes by our own search with given weights, written as CSV and
plotted (matplotlib, Agg) against games trained; several runs' CSVs can share one plot.

Run `python -m mpcmc_engine.training.curve RUN.csv ... --out PNG` to plot runs together (labels: the CSV stems).
"""

import argparse
import csv
import io
from pathlib import Path

from bitboard.position import Position
from mpcmc_engine.epd_suite import read_test_suite
from mpcmc_engine.training.files import write_atomically, write_text_atomically
from search.limits import SearchLimits
from search.searcher import Searcher

WAC_PATH = Path(__file__).resolve().parents[3] / "shared" / "data" / "tactical" / "wac.epd"
CURVE_FIELDS = ("games", "wac_solved", "wac_total", "mean_abs_td")


class WacProbe:
    """Counts the positions of the first `count` WAC positions whose best move our search finds at `nodes`."""

    def __init__(self, path=WAC_PATH, count: int = 100, nodes: int = 20000):
        positions, _ = read_test_suite(str(path))
        self.positions = positions[:count]
        self.nodes = nodes
        self.searcher = Searcher(hash_mb=16, threads=1)

    def solved(self, weights) -> int:
        """Positions solved with `weights` (eval.weights.Weights)."""
        self.searcher.set_weights(weights)
        solved = 0
        for suite_position in self.positions:
            self.searcher.clear()
            position = Position.from_board(suite_position.record.board)
            result = self.searcher.search(position, SearchLimits(nodes=self.nodes))
            solved += suite_position.is_solved_by(position.to_board().parse_uci(position.uci(result.best_move)))
        return solved


def write_curve_csv(rows: list, path) -> None:
    """Write the curve rows (dicts with CURVE_FIELDS) as CSV, atomically."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=CURVE_FIELDS)
    writer.writeheader()
    writer.writerows({key: row[key] for key in CURVE_FIELDS} for row in rows)
    write_text_atomically(path, text.getvalue())


def read_curve_csv(path) -> list:
    """The rows of a curve CSV, numbers converted."""
    with open(path) as handle:
        return [{"games": int(row["games"]), "wac_solved": int(row["wac_solved"]), "wac_total": int(row["wac_total"]),
                 "mean_abs_td": float(row["mean_abs_td"])} for row in csv.DictReader(handle)]


def plot_curves(runs: dict, path) -> None:
    """Plot {label: rows} (WAC solved and mean |TD error| against games trained) to the PNG `path`, atomically."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, (solved_axes, error_axes) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, rows in runs.items():
        games = [row["games"] for row in rows]
        solved_axes.plot(games, [row["wac_solved"] for row in rows], marker="o", label=label)
        error_axes.plot(games[1:], [row["mean_abs_td"] for row in rows[1:]], marker=".", label=label)
    total = next((rows[0]["wac_total"] for rows in runs.values() if rows), 0)
    solved_axes.set(xlabel="games trained", ylabel=f"WAC solved (of {total})", title="Tactics at fixed nodes")
    error_axes.set(xlabel="games trained", ylabel="mean |TD error| since last point", title="Temporal differences")
    for axes in (solved_axes, error_axes):
        axes.grid(alpha=0.3)
        axes.legend()
    figure.tight_layout()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format="png", dpi=110))
    plt.close(figure)


def main(argv=None) -> int:
    """Plot several runs' curve CSVs into one PNG."""
    parser = argparse.ArgumentParser(description="plot learning curves of training runs (CSV written by train)")
    parser.add_argument("csv", nargs="+", help="curve CSV files; a file's stem is its label")
    parser.add_argument("--out", required=True, help="PNG file to write")
    args = parser.parse_args(argv)
    plot_curves({Path(path).stem: read_curve_csv(path) for path in args.csv}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
