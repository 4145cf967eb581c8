"""The trainer's state on disk: float weights (of the linear model or the network, settings["model"]), games done,
the RNG state, the learning-curve rows (and the |TD error| sum since the last one), the averaging sums and the settings
that must not change on --resume. JSON, written atomically; floats round-trip exactly."""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mpcmc_engine.atomic_files import write_text_atomically
from mpcmc_engine.training.td.trainable import TRAINABLES

CHECKPOINT_FORMAT = "mpcmc-engine training checkpoint 1"


@dataclass
class TrainerState:
    """Everything a run needs to continue exactly where it stopped."""

    vector: np.ndarray              # the trained model's float vector (training/td/trainable.py)
    games_done: int
    rng_state: Mapping              # numpy Generator.bit_generator.state
    settings: dict                  # run settings that must match on resume, "model" among them
    curve: list = field(default_factory=list)   # rows {"games", the probe's fields, "mean_abs_td"}
    average_sum: np.ndarray | None = None  # sum of the weights after each averaged game (None before any)
    average_count: int = 0
    td_error_sum: float = 0.0       # sum and count of the |TD errors| since the last curve point
    td_error_count: int = 0


def checkpoint_path(out) -> Path:
    """Where the checkpoint of a run writing weights to `out` lives."""
    return Path(str(out) + ".checkpoint.json")


def save_checkpoint(state: TrainerState, path) -> None:
    """Write `state` to `path` atomically."""
    data = {"format": CHECKPOINT_FORMAT, "layout": TRAINABLES[state.settings["model"]].layout,
            "vector": [float(v) for v in state.vector], "games_done": state.games_done,
            "rng_state": state.rng_state, "settings": state.settings, "curve": state.curve,
            "average_sum": None if state.average_sum is None else [float(v) for v in state.average_sum],
            "average_count": state.average_count, "td_error_sum": state.td_error_sum,
            "td_error_count": state.td_error_count}
    write_text_atomically(path, json.dumps(data))


def load_checkpoint(path, settings: dict) -> TrainerState:
    """Read the checkpoint at `path`; raise ValueError when it is unreadable, of another layout (that of
    settings["model"]), or was written by a run with different `settings`."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"checkpoint {path}: cannot be read: {error}") from None
    if data.get("format") != CHECKPOINT_FORMAT or data.get("layout") != TRAINABLES[settings["model"]].layout:
        raise ValueError(f"checkpoint {path}: another format, model or feature layout")
    data["settings"].setdefault("model", "linear")  # checkpoints from before the network could be trained
    data["settings"].setdefault("ending", "")       # checkpoints from before the endgame source
    data["settings"].setdefault("frozen", [])       # checkpoints from before --freeze
    data["settings"].setdefault("depth", 0)         # checkpoints from before fixed-depth self-play
    changed = sorted(key for key in set(settings) | set(data["settings"])
                     if settings.get(key) != data["settings"].get(key))
    if changed:
        raise ValueError(f"checkpoint {path}: written with other settings ({', '.join(changed)}); cannot resume")
    average_sum = data.get("average_sum")
    return TrainerState(np.array(data["vector"], dtype=np.float64), int(data["games_done"]), data["rng_state"],
                        data["settings"], data["curve"],
                        None if average_sum is None else np.array(average_sum, dtype=np.float64),
                        int(data.get("average_count", 0)), float(data.get("td_error_sum", 0.0)),
                        int(data.get("td_error_count", 0)))
