"""Training the network from positions labelled by search (bootstrapping from search): each position's value, the
network's sigmoid(LOGISTIC * y), is pulled toward its search's value mixed with its game's outcome,
target = (1 - result_weight) * win_probability(search score) + result_weight * outcome (1, 0.5, 0 for the side to move).

Adam over minibatches, a cosine learning-rate schedule over the epochs, a held-out validation share of whole chunks
(games; `split`); each epoch's minibatch order is drawn from (seed, epoch), so a run is repeatable and a resumed run
(from the checkpoint written after every epoch) ends with the same network as an uninterrupted one. Progress bar,
learning curve (CSV and PNG).
"""

import json
import math
import zipfile
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path

import numpy as np
from tqdm import tqdm

from mpcmc_engine.atomic_files import write_atomically
from mpcmc_engine.eval.network import ACTIVATION_CODES, save_network, trained_qb
from mpcmc_engine.jit import jit
from mpcmc_engine.score_scale import win_probabilities
from mpcmc_engine.training.network_model import (
    LOGISTIC, VECTOR_SIZE, active_inputs, clamp_output_weights, loss_and_gradient, network_outputs, quantize,
)
from mpcmc_engine.training.network.position_data import Positions

ADAM_BETA1, ADAM_BETA2, ADAM_EPSILON = 0.9, 0.999, 1e-8


@dataclass(frozen=True)
class NetworkTrainSettings:
    """A run's settings (all of them must match for --resume)."""

    epochs: int
    batch_size: int
    lr: float
    result_weight: float
    validation: float
    seed: int
    activation: str = "crelu"   # the network's (eval.network.ACTIVATIONS)
    qb: int = 0                 # the written network's output-weight scale; 0: eval.network.trained_qb's default


def targets_of(positions: Positions, result_weight: float) -> np.ndarray:
    """The training target of each position: its search value mixed with its game's outcome."""
    searched = win_probabilities(positions.score.astype(np.float64))
    outcome = (positions.result.astype(np.float64) + 1.0) / 2.0
    return ((1.0 - result_weight) * searched + result_weight * outcome).astype(np.float32)


def split(positions: Positions, validation: float, seed: int):
    """(training rows, validation rows) of `positions` by split_groups over their chunks, so that no game has
    positions on both sides, which would let a network that remembers games look better than it plays; without chunk
    numbers, the share of positions."""
    groups = positions.chunk if positions.chunk is not None else np.arange(len(positions))
    return split_groups(groups, validation, seed)


def split_groups(groups: np.ndarray, validation: float, seed: int):
    """(training rows, validation rows) as int64 indices: the rows of the validation share of the distinct `groups`
    numbers (at least one group when the share is above 0 and there are two or more), drawn by a seeded shuffle."""
    numbers = np.unique(groups)
    held = int(round(len(numbers) * validation))
    if validation > 0 and len(numbers) > 1:
        held = max(1, held)
    order = np.random.default_rng(seed).permutation(numbers)
    is_held = np.isin(groups, order[:held])
    return np.flatnonzero(~is_held).astype(np.int64), np.flatnonzero(is_held).astype(np.int64)


@jit("void(float32[::1], float32[::1], float32[::1], float32[::1], float64, int64)")
def adam_step(vector, gradient, first, second, lr, step):
    """One Adam update of `vector` by `gradient` (moment estimates `first`, `second`; `step` counts from 1)."""
    correction1 = 1.0 - ADAM_BETA1 ** step
    correction2 = 1.0 - ADAM_BETA2 ** step
    for i in range(vector.shape[0]):
        g = gradient[i]
        first[i] = ADAM_BETA1 * first[i] + (1.0 - ADAM_BETA1) * g
        second[i] = ADAM_BETA2 * second[i] + (1.0 - ADAM_BETA2) * g * g
        vector[i] -= lr * (first[i] / correction1) / (math.sqrt(second[i] / correction2) + ADAM_EPSILON)


def epoch_lr(settings, epoch: int) -> float:
    """The learning rate of `epoch` (0-based) of a run of settings.epochs: cosine from settings.lr down to lr / 20."""
    fraction = epoch / max(1, settings.epochs - 1)
    return settings.lr * (0.05 + 0.95 * 0.5 * (1.0 + math.cos(math.pi * fraction)))


@dataclass
class TrainerCheckpoint:
    """What a resumed run needs: vector, Adam's moments and step, the epochs done and the curve so far."""

    vector: np.ndarray
    first: np.ndarray
    second: np.ndarray
    step: int
    epochs_done: int
    curve: list


def checkpoint_file(out) -> Path:
    """Where the run writing `out` keeps its checkpoint."""
    return Path(str(out) + ".checkpoint.npz")


def save_trainer_checkpoint(state: TrainerCheckpoint, settings, out) -> None:
    """Write the checkpoint of a run with `settings` (a dataclass) atomically (temporary file, then rename; its
    directory is made when missing)."""
    def write(temporary):
        with open(temporary, "wb") as handle:
            np.savez(handle, vector=state.vector, first=state.first, second=state.second, step=state.step,
                     epochs_done=state.epochs_done, curve=json.dumps(state.curve),
                     settings=json.dumps(asdict(settings)))
    write_atomically(checkpoint_file(out), write)


def load_trainer_checkpoint(settings, out, size: int = VECTOR_SIZE) -> TrainerCheckpoint:
    """The checkpoint of the run writing `out` with `settings` (a dataclass) over `size` parameters (the network's by
    default); ValueError when it is missing, unreadable, of another size or from other settings. A setting the
    checkpoint was written before (one with a default, such as the activation) counts as its default."""
    path = checkpoint_file(out)
    try:
        with np.load(path) as data:
            saved = json.loads(str(data["settings"]))
            state = TrainerCheckpoint(data["vector"].astype(np.float32), data["first"].astype(np.float32),
                                      data["second"].astype(np.float32), int(data["step"]), int(data["epochs_done"]),
                                      json.loads(str(data["curve"])))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"checkpoint {path}: cannot be read: {error}") from None
    if any(array.shape != (size,) for array in (state.vector, state.first, state.second)):
        raise ValueError(f"checkpoint {path}: its arrays do not hold the {size} parameters of this run")
    saved = {**{field.name: field.default for field in fields(settings) if field.default is not MISSING}, **saved}
    if saved != asdict(settings):
        raise ValueError(f"checkpoint {path}: written with settings {saved}, this run has {asdict(settings)}")
    return state


def adam_epoch(state: TrainerCheckpoint, settings, training: np.ndarray, gradient: np.ndarray, bar, batch_loss,
               after_step=lambda vector: None):
    """Run epoch state.epochs_done over the rows `training` in the order the seed and epoch give, in batches of
    settings.batch_size: batch_loss(rows) returns the batch's mean loss and writes its gradient into `gradient`, then
    one Adam step updates state, after_step(state.vector) may constrain it, and `bar` advances a batch. Returns (the
    epoch's learning rate, the mean training loss)."""
    order = np.random.default_rng([settings.seed, state.epochs_done]).permutation(training).astype(np.int64)
    lr = epoch_lr(settings, state.epochs_done)
    total = 0.0
    for start in range(0, len(order), settings.batch_size):
        rows = order[start:start + settings.batch_size]
        total += batch_loss(rows) * len(rows)
        state.step += 1
        adam_step(state.vector, gradient, state.first, state.second, lr, state.step)
        after_step(state.vector)
        bar.update(1)
    return lr, total / max(1, len(order))


def mean_loss(vector: np.ndarray, inputs: np.ndarray, targets: np.ndarray, rows: np.ndarray, activation: str) -> float:
    """The mean squared error of the win probabilities over `rows` (forward passes only) of the network `vector` with
    `activation`."""
    if len(rows) == 0:
        return float("nan")
    predicted = win_probabilities(network_outputs(vector, inputs[rows], ACTIVATION_CODES[activation]), LOGISTIC)
    return float(np.mean((predicted - targets[rows]) ** 2))


def train_network(positions: Positions, settings: NetworkTrainSettings, initial: np.ndarray, out, provenance: str,
                  resume: bool = False, on_epoch=None) -> TrainerCheckpoint:
    """Train a network with settings.activation from `initial` (or the checkpoint when `resume`) for settings.epochs
    epochs in all, its output weights held within what the activation's file keeps; after every epoch write the
    checkpoint and call on_epoch(curve); at the end write the quantized network to `out`. An exception (Ctrl-C)
    propagates with the last complete epoch's checkpoint on disk."""
    inputs = active_inputs(positions.board, positions.side)
    targets = targets_of(positions, settings.result_weight)
    training, validation = split(positions, settings.validation, settings.seed)
    if resume:
        state = load_trainer_checkpoint(settings, out)
    else:
        vector = initial.astype(np.float32).copy()
        state = TrainerCheckpoint(vector, np.zeros_like(vector), np.zeros_like(vector), 0, 0, [])
    gradient = np.zeros_like(state.vector)
    code = ACTIVATION_CODES[settings.activation]
    qb = trained_qb(settings.activation, settings.qb)
    clamp_output_weights(state.vector, settings.activation, qb)
    batches = -(-len(training) // settings.batch_size)
    with tqdm(total=settings.epochs * batches, initial=state.epochs_done * batches, unit="batch",
              desc="train-network") as bar:
        while state.epochs_done < settings.epochs:
            epoch = state.epochs_done
            lr, train_loss = adam_epoch(
                state, settings, training, gradient, bar,
                lambda rows: loss_and_gradient(state.vector, inputs, targets, rows, gradient, code),
                lambda vector: clamp_output_weights(vector, settings.activation, qb))
            row = {"epoch": epoch + 1, "lr": lr, "train_loss": train_loss,
                   "validation_loss": mean_loss(state.vector, inputs, targets, validation, settings.activation)}
            state.curve.append(row)
            state.epochs_done += 1
            bar.set_postfix(train=f"{row['train_loss']:.5f}", validation=f"{row['validation_loss']:.5f}")
            save_trainer_checkpoint(state, settings, out)
            if on_epoch is not None:
                on_epoch(state.curve)
    save_network(quantize(state.vector, provenance, settings.activation, qb), out)
    return state
