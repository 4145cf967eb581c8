"""Training the move policy by distillation from search: the softmax of the policy's logits over each position's
legal moves is pulled toward the move the search chose (cross-entropy), on the hidden layer of a fixed network.

Adam over minibatches (numba over the sparse rows a position's moves touch), the cosine learning rate and the
checkpoint after every epoch of the network trainer (mpcmc_engine.training.network.trainer: a resumed run ends with
the same policy as an uninterrupted one), a held-out validation share of whole chunks; each epoch records the
training and validation loss and the validation share's top-1 agreement with the search.
"""

import math
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from mpcmc_engine.bitboard.constants import MAX_MOVES
from mpcmc_engine.eval.policy import (
    CAPTURE_B, FEATURES, FROM_B, FROM_W, PARAMETERS, TO_B, TO_W, Policy, save_policy,
)
from mpcmc_engine.eval.policy_eval import INDEX_BITS, INDEX_MASK, move_logit
from mpcmc_engine.jit import jit
from mpcmc_engine.training.network.trainer import (
    TrainerCheckpoint, adam_epoch, load_trainer_checkpoint, save_trainer_checkpoint, split_groups,
)
from mpcmc_engine.training.policy.example_set import H_LEVELS, PolicyExamples

INITIAL_SCALE = 0.01  # the input weights start as normal(0, INITIAL_SCALE); biases at 0


@dataclass(frozen=True)
class PolicyTrainSettings:
    """A run's settings (all of them must match for --resume)."""

    epochs: int
    batch_size: int
    lr: float
    validation: float
    seed: int


@jit("void(uint8[::1], float32[::1])", inline="always")
def _dequantized(stored, h):
    for j in range(FEATURES):
        h[j] = stored[j] / H_LEVELS


@jit("float64(float32[::1], uint8[:, ::1], int64[::1], int64[::1], int64[::1], int64[::1], float32[::1])",
     allocates=True)
def loss_and_gradient(policy, hidden, moves_start, packed, target, rows, gradient):
    """The mean cross-entropy over `rows` and its gradient (written into `gradient`)."""
    gradient[:] = 0.0
    h = np.zeros(FEATURES, dtype=np.float32)
    probabilities = np.zeros(MAX_MOVES, dtype=np.float64)
    total = 0.0
    scale = 1.0 / len(rows)
    for row in rows:
        _dequantized(hidden[row], h)
        first, last = moves_start[row], moves_start[row + 1]
        top = -math.inf
        for i in range(first, last):
            probabilities[i - first] = move_logit(policy, h, packed[i])
            top = max(top, probabilities[i - first])
        norm = 0.0
        for i in range(last - first):
            probabilities[i] = math.exp(probabilities[i] - top)
            norm += probabilities[i]
        for i in range(last - first):
            probabilities[i] /= norm
        total -= math.log(max(probabilities[target[row]], 1e-30))
        for i in range(first, last):
            g = probabilities[i - first] * scale
            if i - first == target[row]:
                g -= scale
            to_index = packed[i] & INDEX_MASK
            from_index = (packed[i] >> INDEX_BITS) & INDEX_MASK
            capture = packed[i] >> (2 * INDEX_BITS)
            to_row = gradient[TO_W + to_index * FEATURES:TO_W + (to_index + 1) * FEATURES]
            from_row = gradient[FROM_W + from_index * FEATURES:FROM_W + (from_index + 1) * FEATURES]
            for j in range(FEATURES):
                to_row[j] += g * h[j]
                from_row[j] += g * h[j]
            gradient[TO_B + to_index] += g
            gradient[FROM_B + from_index] += g
            gradient[CAPTURE_B + capture] += g
    return total * scale


@jit("UniTuple(float64, 2)(float32[::1], uint8[:, ::1], int64[::1], int64[::1], int64[::1], int64[::1])",
     allocates=True)
def loss_and_agreement(policy, hidden, moves_start, packed, target, rows):
    """(mean cross-entropy, share of positions whose highest logit is the target's) over `rows`."""
    h = np.zeros(FEATURES, dtype=np.float32)
    logits = np.zeros(MAX_MOVES, dtype=np.float64)
    loss = 0.0
    agreed = 0
    for row in rows:
        _dequantized(hidden[row], h)
        first, last = moves_start[row], moves_start[row + 1]
        top = -math.inf
        best = -1
        for i in range(last - first):
            logits[i] = move_logit(policy, h, packed[first + i])
            if logits[i] > top:
                top, best = logits[i], i
        norm = 0.0
        for i in range(last - first):
            norm += math.exp(logits[i] - top)
        loss += top + math.log(norm) - logits[target[row]]
        agreed += best == target[row]
    count = max(1, len(rows))
    return loss / count, agreed / count


def initial_policy(seed: int) -> np.ndarray:
    """A fresh policy's weights: small random input weights, zero biases."""
    weights = np.zeros(PARAMETERS, dtype=np.float32)
    weights[TO_W:TO_B] = np.random.default_rng(seed).normal(0.0, INITIAL_SCALE, TO_B - TO_W)
    return weights


def train_policy(examples: PolicyExamples, settings: PolicyTrainSettings, network_digest: str, out, provenance: str,
                 resume: bool = False, on_epoch=None) -> TrainerCheckpoint:
    """Train a policy for settings.epochs epochs in all (from the checkpoint when `resume`); after every epoch write
    the checkpoint and call on_epoch(curve); at the end write the policy file `out`. An exception (Ctrl-C)
    propagates with the last complete epoch's checkpoint on disk."""
    training, validation = split_groups(examples.chunk, settings.validation, settings.seed)
    if resume:
        state = load_trainer_checkpoint(settings, out, PARAMETERS)
    else:
        vector = initial_policy(settings.seed)
        state = TrainerCheckpoint(vector, np.zeros_like(vector), np.zeros_like(vector), 0, 0, [])
    gradient = np.zeros_like(state.vector)
    arrays = (examples.hidden, examples.moves_start, examples.packed, examples.target)
    batches = -(-len(training) // settings.batch_size)
    with tqdm(total=settings.epochs * batches, initial=state.epochs_done * batches, unit="batch",
              desc="train-policy") as bar:
        while state.epochs_done < settings.epochs:
            epoch = state.epochs_done
            lr, train_loss = adam_epoch(state, settings, training, gradient, bar,
                                        lambda rows: loss_and_gradient(state.vector, *arrays, rows, gradient))
            loss, agreement = loss_and_agreement(state.vector, *arrays, validation) if len(validation) \
                else (float("nan"), float("nan"))
            row = {"epoch": epoch + 1, "lr": lr, "train_loss": train_loss,
                   "validation_loss": loss, "validation_top1": agreement}
            state.curve.append(row)
            state.epochs_done += 1
            bar.set_postfix(train=f"{row['train_loss']:.4f}", validation=f"{loss:.4f}", top1=f"{agreement:.3f}")
            save_trainer_checkpoint(state, settings, out)
            if on_epoch is not None:
                on_epoch(state.curve)
    save_policy(Policy(state.vector.copy(), network_digest, provenance), out)
    return state
