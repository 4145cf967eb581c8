"""The staged endgame run's learning curve (training/endgame/stages.py rows): WCR with its 95 % Wilson band, WE and
LHS against the stage, plotted (matplotlib, Agg) for one or several runs.

Run `python -m mpcmc_engine.training.endgame.stage_curve RUN.csv ... --out PNG` to plot runs together (labels: the CSV
stems).
"""

import argparse
from pathlib import Path

from mpcmc_engine.atomic_files import write_atomically
from mpcmc_engine.training.curve_csv import read_curve_csv

# panels: (row field, y label)
PANELS = (("wcr", "WCR: won / attacking games (95% band)"), ("we", "WE: distance to mate / plies (won games)"),
          ("lhs", "LHS: plies / distance to mate (lost games)"))


def plot_endgame_curves(runs: dict, path, title: str = "") -> None:
    """Plot {label: rows} to the PNG `path`, atomically: WCR (with its band), WE and LHS against the stage."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    figure, axes_row = plt.subplots(1, len(PANELS), figsize=(5.0 * len(PANELS), 4.0), squeeze=False)
    for (field, ylabel), axes in zip(PANELS, axes_row[0]):
        for label, rows in runs.items():
            stages = [row["stage"] for row in rows]
            line, = axes.plot(stages, [row[field] for row in rows], marker="o", label=label)
            if field == "wcr":
                axes.fill_between(stages, [row["wcr_low"] for row in rows], [row["wcr_high"] for row in rows],
                                  color=line.get_color(), alpha=0.15)
        axes.set(xlabel="stage (0: before training)", ylabel=ylabel, ylim=(0.0, 1.05))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(alpha=0.3)
        axes.legend()
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format="png", dpi=110))
    plt.close(figure)


def main(argv=None) -> int:
    """Plot several staged runs' curve CSVs into one PNG."""
    parser = argparse.ArgumentParser(description="plot staged endgame runs' curves (CSV written by endgame-train)")
    parser.add_argument("csv", nargs="+", help="curve CSV files; a file's stem is its label")
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--title", default="", help="the figure's title")
    args = parser.parse_args(argv)
    plot_endgame_curves({Path(path).stem: read_curve_csv(path) for path in args.csv}, args.out, args.title)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
