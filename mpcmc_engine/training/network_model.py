"""The float network the trainer learns, as one flat float32 parameter vector, with its forward and backward passes.

Vector layout: w1 (INPUTS x HIDDEN, input-major) at [V_W1, V_B1), b1 at [V_B1, V_W2), w2 (for each output bucket
k, OUTPUT_WIDTH weights: the side to move's HIDDEN, then the other side's) at [V_W2, V_B2), b2 (one a bucket) from
V_B2 on. The network is the float twin of mpcmc_engine.eval.network: for each view acc = b1 + sum of w1's rows of
its active inputs, h = clip(acc, 0, 1) (squared for a screlu network: every pass takes the activation's code,
ACTIVATION_CODES), y = b2[k] + h_own . w2[k, :HIDDEN] + h_other . w2[k, HIDDEN:] with k the
output bucket of the position's piece count (the number of active inputs of a view), the score in centipawns
OUTPUT_SCALE * y for the side to move.
`quantize` gives the engine's integer Network (w1, b1 times QA, w2 times its qb, b2 times QA * qb).

A position is given by its *inputs*: an int16 row of 2 x MAX_PIECES active input indices (the side to move's view,
then the other view's), padded with -1, from `active_inputs`, which uses the engine's own feature functions.
"""

import numpy as np

from mpcmc_engine.bitboard.constants import KING, ST_BOARD
from mpcmc_engine.eval.network import (
    ACTIVATION_CODES, B2_LIMIT, HIDDEN, INT16_LIMIT, OUTPUT_SCALE, QA, SCRELU, Network, trained_qb, w2_limit,
)
from mpcmc_engine.eval.network_features import (
    INPUTS, MAX_PIECES, OUTPUT_BUCKETS, bucket_flip, input_index, output_bucket,
)
from mpcmc_engine.jit import jit
from mpcmc_engine.score_scale import LICHESS_SCALE, win_probabilities, win_probability

V_W1 = 0
V_B1 = V_W1 + INPUTS * HIDDEN
V_W2 = V_B1 + HIDDEN
OUTPUT_WIDTH = 2 * HIDDEN          # a bucket's output weights
V_B2 = V_W2 + OUTPUT_BUCKETS * OUTPUT_WIDTH
VECTOR_SIZE = V_B2 + OUTPUT_BUCKETS
LOGISTIC = LICHESS_SCALE * OUTPUT_SCALE   # win probability = sigmoid(LOGISTIC * y)
# score_scale.win_probability compiled, for the loss: the win probability of an output y at LOGISTIC per unit
_win_probability = jit("float64(float64, float64)", inline="always")(win_probability)


def initial_vector(seed: int) -> np.ndarray:
    """A fresh network: w1 ~ N(0, 0.1) (a view's sums start within the clipped range's scale), b1 0.25, w2 ~
    N(0, 0.05) (the same in every bucket), b2 0."""
    rng = np.random.default_rng(seed)
    vector = np.zeros(VECTOR_SIZE, dtype=np.float32)
    vector[V_W1:V_B1] = rng.normal(0.0, 0.1, INPUTS * HIDDEN)
    vector[V_B1:V_W2] = 0.25
    vector[V_W2:V_B2] = np.tile(rng.normal(0.0, 0.05, OUTPUT_WIDTH), OUTPUT_BUCKETS)
    return vector


def widened(network: Network, seed: int) -> Network:
    """`network` (1 to HIDDEN hidden units) with HIDDEN units: its own units unchanged, the added ones with input
    weights ~ N(0, 0.1), b1 0.25 (as initial_vector's) and output weights 0, so that it scores every position as
    `network` does."""
    hidden = len(network.b1)
    added = HIDDEN - hidden
    rng = np.random.default_rng(seed)
    w1 = np.concatenate([np.asarray(network.w1, dtype=np.int64).reshape(INPUTS, hidden),
                         np.rint(rng.normal(0.0, 0.1, (INPUTS, added)) * QA).astype(np.int64)], axis=1)
    b1 = np.concatenate([np.asarray(network.b1, dtype=np.int64), np.full(added, round(0.25 * QA), dtype=np.int64)])
    w2 = np.asarray(network.w2, dtype=np.int64)
    zeros = np.zeros((OUTPUT_BUCKETS, added), dtype=np.int64)
    return Network(w1, b1, np.concatenate([w2[:, :hidden], zeros, w2[:, hidden:], zeros], axis=1), network.b2,
                   network.provenance, network.activation, network.qb)


def quantize(vector: np.ndarray, provenance: str, activation: str = "crelu", qb: int = 0) -> Network:
    """The engine's integer Network with `activation` and output-weight scale trained_qb(activation, qb) nearest to
    the float `vector` (values clipped to the file's bounds, w2 to the activation's)."""
    qb = trained_qb(activation, qb)

    def scaled(part, scale, limit):
        return np.clip(np.rint(np.asarray(part, dtype=np.float64) * scale), -limit, limit).astype(np.int64)
    return Network(scaled(vector[V_W1:V_B1], QA, INT16_LIMIT).reshape(INPUTS, HIDDEN),
                   scaled(vector[V_B1:V_W2], QA, INT16_LIMIT),
                   scaled(vector[V_W2:V_B2], qb, w2_limit(activation)).reshape(OUTPUT_BUCKETS, OUTPUT_WIDTH),
                   scaled(vector[V_B2:], QA * qb, B2_LIMIT), provenance, activation, qb)


def clamp_output_weights(vector: np.ndarray, activation: str, qb: int) -> None:
    """Hold the float w2 of `vector` within what quantize keeps for `activation` at scale `qb` (in place)."""
    limit = w2_limit(activation) / qb
    np.clip(vector[V_W2:V_B2], -limit, limit, out=vector[V_W2:V_B2])


def dequantize(network: Network) -> np.ndarray:
    """The float vector of an integer Network (the inverse of quantize up to rounding)."""
    vector = np.zeros(VECTOR_SIZE, dtype=np.float32)
    vector[V_W1:V_B1] = np.asarray(network.w1, dtype=np.float64).reshape(-1) / QA
    vector[V_B1:V_W2] = np.asarray(network.b1, dtype=np.float64) / QA
    vector[V_W2:V_B2] = np.asarray(network.w2, dtype=np.float64).reshape(-1) / network.qb
    vector[V_B2:] = np.asarray(network.b2, dtype=np.float64) / (QA * network.qb)
    return vector


def crelu_vector(network: Network) -> np.ndarray:
    """dequantize(network) for the TD methods, whose passes are the clipped ReLU's; ValueError for another
    activation."""
    if network.activation != "crelu":
        raise ValueError(f"the TD trainers take clipped-ReLU networks; this one's activation is {network.activation}")
    return dequantize(network)


@jit("int16[:, ::1](uint8[:, ::1], uint8[::1])", allocates=True)
def active_inputs(boards, sides):
    """The inputs of each position (mailbox `boards[i]`, side to move `sides[i]`): its side to move's view's active
    input indices, then the other view's, MAX_PIECES each, padded with -1."""
    rows = np.full((boards.shape[0], 2 * MAX_PIECES), -1, dtype=np.int16)
    for i in range(boards.shape[0]):
        for slot in range(2):
            view = sides[i] if slot == 0 else 1 - sides[i]
            king = 0
            for square in range(64):
                if boards[i, square] == view * 8 + KING:
                    king = square
            flip = bucket_flip(view, king)
            count = 0
            for square in range(64):
                piece = np.int64(boards[i, square])
                if piece != 0 and count < MAX_PIECES:
                    rows[i, slot * MAX_PIECES + count] = input_index(view, flip, piece, square)
                    count += 1
    return rows


@jit("int64(int16[::1])", inline="always")
def _bucket(inputs):
    """The output bucket of a position given by its inputs row (its side to move's view has an active input for
    every piece on the board)."""
    pieces = 0
    for slot in range(MAX_PIECES):
        if inputs[slot] >= 0:
            pieces += 1
    return output_bucket(pieces)


@jit("float64(float64, int64)", inline="always")
def _activated(x, activation):
    """A hidden unit's output for its sum x: clip(x, 0, 1), squared for SCRELU."""
    clipped = min(max(x, 0.0), 1.0)
    return clipped * clipped if activation == SCRELU else clipped


@jit("float64(float64, int64)", inline="always")
def _slope(x, activation):
    """The derivative of _activated at x (0 outside (0, 1))."""
    if not 0.0 < x < 1.0:
        return 0.0
    return 2.0 * x if activation == SCRELU else 1.0


@jit("float64(float32[::1], int16[::1], float32[::1], float32[::1], int64)", inline="always")
def _forward(vector, inputs, own, other, activation):
    """y of one position; its views' sums (before the activation) are left in `own` and `other`."""
    for j in range(HIDDEN):
        own[j] = vector[V_B1 + j]
        other[j] = vector[V_B1 + j]
    for slot in range(MAX_PIECES):
        index = inputs[slot]
        if index >= 0:
            row = vector[V_W1 + index * HIDDEN:V_W1 + (index + 1) * HIDDEN]
            for j in range(HIDDEN):
                own[j] += row[j]
        index = inputs[MAX_PIECES + slot]
        if index >= 0:
            row = vector[V_W1 + index * HIDDEN:V_W1 + (index + 1) * HIDDEN]
            for j in range(HIDDEN):
                other[j] += row[j]
    bucket = _bucket(inputs)
    weights = V_W2 + bucket * OUTPUT_WIDTH
    own_weights = vector[weights:weights + HIDDEN]
    other_weights = vector[weights + HIDDEN:weights + OUTPUT_WIDTH]
    y = float(vector[V_B2 + bucket])
    for j in range(HIDDEN):
        y += _activated(own[j], activation) * own_weights[j] + _activated(other[j], activation) * other_weights[j]
    return y


@jit("void(float32[::1], int16[::1], float32[::1], float32[::1], float64, float32[::1], int64)", inline="always")
def _backward(vector, inputs, own, other, dy, gradient, activation):
    """Add dy * (the gradient of y with respect to the vector) of one position (sums from _forward) to `gradient`."""
    bucket = _bucket(inputs)
    weights = V_W2 + bucket * OUTPUT_WIDTH
    gradient[V_B2 + bucket] += dy
    own_gradient = gradient[weights:weights + HIDDEN]
    other_gradient = gradient[weights + HIDDEN:weights + OUTPUT_WIDTH]
    own_weights = vector[weights:weights + HIDDEN]
    other_weights = vector[weights + HIDDEN:weights + OUTPUT_WIDTH]
    bias_gradient = gradient[V_B1:V_W2]
    for j in range(HIDDEN):
        own_gradient[j] += dy * _activated(own[j], activation)
        other_gradient[j] += dy * _activated(other[j], activation)
        own[j] = dy * own_weights[j] * _slope(own[j], activation)          # own and other now hold d y / d sum
        other[j] = dy * other_weights[j] * _slope(other[j], activation)
        bias_gradient[j] += own[j] + other[j]
    for slot in range(MAX_PIECES):
        index = inputs[slot]
        if index >= 0:
            row = gradient[V_W1 + index * HIDDEN:V_W1 + (index + 1) * HIDDEN]
            for j in range(HIDDEN):
                row[j] += own[j]
        index = inputs[MAX_PIECES + slot]
        if index >= 0:
            row = gradient[V_W1 + index * HIDDEN:V_W1 + (index + 1) * HIDDEN]
            for j in range(HIDDEN):
                row[j] += other[j]


@jit("float64[::1](float32[::1], int16[:, ::1], int64)", allocates=True)
def network_outputs(vector, inputs, activation):
    """y of each position (its score is OUTPUT_SCALE * y centipawns for its side to move)."""
    own = np.empty(HIDDEN, dtype=np.float32)
    other = np.empty(HIDDEN, dtype=np.float32)
    outputs = np.empty(inputs.shape[0])
    for i in range(inputs.shape[0]):
        outputs[i] = _forward(vector, inputs[i], own, other, activation)
    return outputs


@jit("float64(float32[::1], int16[:, ::1], float32[::1], int64[::1], float32[::1], int64)", allocates=True)
def loss_and_gradient(vector, inputs, targets, rows, gradient, activation):
    """The mean squared error between sigmoid(LOGISTIC * y) and `targets` over the positions `rows` (indices into
    inputs / targets); its gradient with respect to the vector is written to `gradient` (zeroed first)."""
    gradient[:] = 0.0
    own = np.empty(HIDDEN, dtype=np.float32)
    other = np.empty(HIDDEN, dtype=np.float32)
    total = 0.0
    for i in rows:
        y = _forward(vector, inputs[i], own, other, activation)
        p = _win_probability(y, LOGISTIC)
        error = p - targets[i]
        total += error * error
        _backward(vector, inputs[i], own, other, 2.0 * error * p * (1.0 - p) * LOGISTIC / rows.shape[0], gradient,
                  activation)
    return total / rows.shape[0]


@jit("void(float32[:, ::1], float32[::1], int16[:, ::1], int64)", allocates=True)
def output_gradients(gradients, vector, inputs, activation):
    """gradients[i] = the gradient of y with respect to the vector at position i."""
    own = np.empty(HIDDEN, dtype=np.float32)
    other = np.empty(HIDDEN, dtype=np.float32)
    for i in range(inputs.shape[0]):
        gradients[i, :] = 0.0
        _forward(vector, inputs[i], own, other, activation)
        _backward(vector, inputs[i], own, other, 1.0, gradients[i], activation)


def network_row_of(position):
    """(inputs row, side to move) of a bitboard Position: a record row of the network model."""
    boards = position.st[ST_BOARD:ST_BOARD + 64].astype(np.uint8).reshape(1, 64)
    side = 0 if position.white_to_move else 1
    return active_inputs(boards, np.array([side], dtype=np.uint8))[0], side


def network_values_and_gradients(vector: np.ndarray, inputs: np.ndarray, sides: np.ndarray):
    """(values, gradients): white's win probabilities of the positions (inputs rows, sides to move), shape (rows,),
    and their gradients with respect to the vector, shape (rows, VECTOR_SIZE): the network model's counterpart of
    training/td/linear_model.py's values_and_gradients, for the TD methods (training/td/updates.py), whose networks
    are clipped ReLU's (crelu_vector)."""
    inputs = np.ascontiguousarray(inputs, dtype=np.int16)
    vector = np.ascontiguousarray(vector, dtype=np.float32)
    crelu = ACTIVATION_CODES["crelu"]
    mover = win_probabilities(network_outputs(vector, inputs, crelu), LOGISTIC)
    white = np.asarray(sides) == 0
    values = np.where(white, mover, 1.0 - mover)
    gradients = np.zeros((len(inputs), VECTOR_SIZE), dtype=np.float32)
    output_gradients(gradients, vector, inputs, crelu)
    slope = mover * (1.0 - mover) * LOGISTIC * np.where(white, 1.0, -1.0)
    return values, gradients.astype(np.float64) * slope[:, None]


def network_apply_step(vector: np.ndarray, step: np.ndarray) -> np.ndarray:
    """The network's vector after a TD step (given in the vector's own units: its gradients are taken in them)."""
    return (vector + step).astype(np.float32)
