"""The network and policy trainers' learning curve: training and validation loss per epoch, plotted (matplotlib,
Agg)."""

from mpcmc_engine.atomic_files import write_atomically


def plot_network_curve(rows: list, path, ylabel: str = "mean squared error of the win probability",
                       title: str = "train-network: loss per epoch") -> None:
    """Plot the rows ({"epoch", "train_loss", "validation_loss", ...}) to the PNG `path`, atomically."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    epochs = [row["epoch"] for row in rows]
    axes.plot(epochs, [row["train_loss"] for row in rows], marker="o", label="training")
    axes.plot(epochs, [row["validation_loss"] for row in rows], marker="o", label="validation")
    axes.set_xlabel("epoch")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format="png", dpi=100, bbox_inches="tight"))
    plt.close(figure)
