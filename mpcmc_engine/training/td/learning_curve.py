"""The TD trainer's learning curve: rows of (games trained, a probe's strength measure, mean |TD error| since the
last row), written as CSV (training/curve_csv.py) and plotted (matplotlib, Agg) against games trained; several runs'
CSVs can share one plot.
The measures (training/td/probes.py): `match`, the Elo of the weights against the run's starting weights in a
fixed-node match, and `wac`, WAC positions solved at fixed nodes.

Run `python -m mpcmc_engine.training.td.learning_curve RUN.csv ... --out PNG` to plot runs together (labels: the
CSV stems).
"""

import argparse
import math
from pathlib import Path

from mpcmc_engine.atomic_files import write_atomically
from mpcmc_engine.training.curve_csv import read_curve_csv


def _plot_elo(axes, label, rows) -> None:
    """Elo against the starting weights with its 95% band (infinite interval ends drawn at the plot's edge)."""
    games = [row["games"] for row in rows]
    line, = axes.plot(games, [row["elo"] for row in rows], marker="o", label=label)
    finite = [value for row in rows for value in (row["elo_low"], row["elo_high"]) if math.isfinite(value)]
    edge = max((abs(value) for value in finite), default=100.0) * 1.2
    axes.fill_between(games, [max(row["elo_low"], -edge) for row in rows],
                      [min(row["elo_high"], edge) for row in rows], color=line.get_color(), alpha=0.15)


def _plot_wac(axes, label, rows) -> None:
    """WAC positions solved."""
    axes.plot([row["games"] for row in rows], [row["wac_solved"] for row in rows], marker="o", label=label)


# strength panels: (field that marks the measure, plotter, y label, title)
PANELS = (("elo", _plot_elo, "Elo against the starting weights (95% band)", "Strength: fixed-node match"),
          ("wac_solved", _plot_wac, "WAC solved", "Tactics at fixed nodes"))


def plot_curves(runs: dict, path) -> None:
    """Plot {label: rows} to the PNG `path`, atomically: one strength panel for each measure the runs have, and the
    mean |TD error| against games trained."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = [panel for panel in PANELS if any(rows and panel[0] in rows[0] for rows in runs.values())]
    figure, axes_row = plt.subplots(1, len(panels) + 1, figsize=(5.5 * (len(panels) + 1), 4.2), squeeze=False)
    *strength_axes, error_axes = axes_row[0]
    for (field, plot, ylabel, title), axes in zip(panels, strength_axes):
        for label, rows in runs.items():
            if rows and field in rows[0]:
                plot(axes, label, rows)
        total = next((rows[0]["wac_total"] for rows in runs.values() if rows and "wac_total" in rows[0]), None)
        axes.set(xlabel="games trained", ylabel=f"{ylabel} (of {total})" if field == "wac_solved" else ylabel,
                 title=title)
    for label, rows in runs.items():
        error_axes.plot([row["games"] for row in rows[1:]], [row["mean_abs_td"] for row in rows[1:]], marker=".",
                        label=label)
    error_axes.set(xlabel="games trained", ylabel="mean |TD error| since last point", title="Temporal differences")
    for axes in axes_row[0]:
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
