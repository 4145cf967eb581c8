"""The neural evaluation's integer network and its versioned JSON file format.

The network (NNUE style, inputs in mpcmc_engine.eval.network_features): for each view v (side to move s, other o)
an accumulator acc_v = b1 + sum of the rows w1[i] of v's active inputs i (HIDDEN units, shared weights), activated
by the network's *activation*: clipped ReLU h = clip(acc, 0, QA) ("crelu") or squared clipped ReLU h = clip(acc, 0,
QA) ** 2 / QA ("screlu"); the output layer is chosen by the number of pieces on the board (its *output bucket*,
network_features.output_bucket): out = b2[k] + h_s . w2[k, :HIDDEN] + h_o . w2[k, HIDDEN:], and the score in
centipawns for the side to move is out * OUTPUT_SCALE / (QA * qb), truncated toward zero (the engine computes the
squared activation's products exactly and divides once, mpcmc_engine.eval.network_eval). `qb`, the output weights'
scale, is the file's own (QB in files before version 3): the finer it is, the nearer the integer network scores to
the float one it was trained as. A float network with weights w1 / QA, b1 / QA, w2 / qb, b2 / (QA * qb) and clip to
[0, 1] (squared for screlu) computes the same score (up to rounding): the trainer's model is that float network.

A network file is {"format": FORMAT, "version": VERSION, "inputs": INPUTS, "hidden": HIDDEN, "output_buckets":
OUTPUT_BUCKETS, "qa": QA, "qb": 1 to QB_LIMIT, "output_scale": OUTPUT_SCALE, "activation": one of ACTIVATIONS,
"w1": [INPUTS * HIDDEN integers, input-major], "b1": [HIDDEN], "w2": [OUTPUT_BUCKETS * 2 * HIDDEN, bucket-major],
"b2": [OUTPUT_BUCKETS], "provenance": "..."}; a file of version 2 (before the activation and qb were chosen) is a
crelu network with qb QB.
Every w1, b1, w2 value lies within +-INT16_LIMIT (+-SCRELU_W2_LIMIT for a screlu network's w2, so that a view's
products of squares fit int32) and every b2 within +-B2_LIMIT, and no hidden unit's sum can leave int16 (its *reach*,
|b1| plus its MAX_PIECES largest |w1|, is at most INT16_LIMIT: the engine keeps the sums in 16 bits). The loader
refuses anything else with a ValueError that names the file and the reason, and `save_network` refuses to write a
network beyond those bounds. The trainer may also read an *older* network (`older=True`): one of fewer hidden units,
to widen it (mpcmc_engine.training.network_model.widened), or a file of version 1 (one output layer for every
position), read as the same output layer in every bucket.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mpcmc_engine.atomic_files import write_text_atomically
from mpcmc_engine.eval.network_features import INPUTS, MAX_PIECES, OUTPUT_BUCKETS

FORMAT = "mpcmc-engine network"
VERSION = 3           # 1: a single output layer (no output buckets); 2: no activation or qb (crelu, QB)
UNNAMED_ACTIVATION_VERSION = 2
ACTIVATIONS = ("crelu", "screlu")
ACTIVATION_CODES = {name: code for code, name in enumerate(ACTIVATIONS)}   # the compiled code's numbers
SCRELU = ACTIVATION_CODES["screlu"]
HIDDEN = 256
QA = 255              # accumulator scale: a float activation of 1.0 is QA
QB = 64               # output-weight scale of the files before version 3 and the screlu networks' default
QB_LIMIT = 16384      # the finest output-weight scale a file may have
TRAINED_QB = {"crelu": 512, "screlu": QB}   # the scale the trainer writes by default (screlu: its int16 bound)
OUTPUT_SCALE = 400    # centipawns per unit of the float network's output
INT16_LIMIT = 32767
B2_LIMIT = 2 ** 31 - 1
SCRELU_W2_LIMIT = 127  # HIDDEN * QA ** 2 * 127 < 2 ** 31: a screlu view's dot product fits int32
SHIPPED_NETWORK_PATH = Path(__file__).resolve().parent / "weights" / "network.json"  # EvalFile <network>
SHAPE_FIELDS = {"inputs": INPUTS, "qa": QA, "output_scale": OUTPUT_SCALE}  # every file's; "hidden" and "qb" its own
OLDER_VERSION = 1     # read with older=True: its single output layer stands in every bucket


@dataclass
class Network:
    """Integer weights, all int64: w1 (INPUTS, hidden), b1 (hidden,), w2 (OUTPUT_BUCKETS, 2 * hidden), b2
    (OUTPUT_BUCKETS,), the activation (one of ACTIVATIONS) and qb, the scale of w2 and (with QA) b2. The engine
    evaluates networks of hidden = HIDDEN units."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    provenance: str = ""
    activation: str = "crelu"
    qb: int = QB


def _check(condition, path, reason):
    if not condition:
        raise ValueError(f"network file {path}: {reason}")


def _integers(data, name, length, limit, path) -> np.ndarray:
    """data[name] as an int64 array, checked for length, type and bound."""
    values = data.get(name)
    _check(isinstance(values, list), path, f"'{name}' is missing or not a list")
    _check(len(values) == length, path, f"'{name}' has {len(values)} values, the network needs {length}")
    _check(all(isinstance(v, int) and not isinstance(v, bool) for v in values), path, f"'{name}' holds a non-integer")
    array = np.array(values, dtype=np.int64)
    outside = np.flatnonzero(np.abs(array) > limit)
    _check(outside.size == 0, path,
           f"'{name}'[{outside[0] if outside.size else 0}] is outside the bound of +-{limit}")
    return array


def check_accumulator_reach(w1, b1, path) -> None:
    """Raise ValueError naming `path` when a hidden unit's sum could leave int16 on some board: |b1| plus the
    MAX_PIECES largest |w1| of its column above INT16_LIMIT."""
    largest = np.sort(np.abs(np.asarray(w1, dtype=np.int64)), axis=0)[-MAX_PIECES:]
    reach = np.abs(np.asarray(b1, dtype=np.int64)) + largest.sum(axis=0)
    unit = int(np.argmax(reach))
    _check(reach[unit] <= INT16_LIMIT, path,
           f"hidden unit {unit} can reach {reach[unit]} (|b1| and its {MAX_PIECES} largest |w1|), beyond the "
           f"engine's 16-bit sums (+-{INT16_LIMIT})")


def trained_qb(activation: str, qb: int = 0) -> int:
    """`qb`, or when 0 the output-weight scale the trainer writes a network of `activation` at (TRAINED_QB)."""
    return qb or TRAINED_QB[activation]


def w2_limit(activation: str) -> int:
    """The bound on |w2| of a network with `activation`."""
    return SCRELU_W2_LIMIT if activation == "screlu" else INT16_LIMIT


def check_output_weights(w2, activation, path) -> None:
    """Raise ValueError naming `path` when a w2 value lies beyond w2_limit(activation)."""
    limit = w2_limit(activation)
    outside = np.flatnonzero(np.abs(np.asarray(w2, dtype=np.int64).reshape(-1)) > limit)
    _check(outside.size == 0, path, f"'w2'[{outside[0] if outside.size else 0}] is outside the bound of +-{limit}"
                                    + (" of a screlu network" if activation == "screlu" else ""))


def network_from_json(data, path, older=False) -> Network:
    """The Network of a parsed network file `data`; raise ValueError naming `path` and the reason when unusable.
    With `older`, a file of version OLDER_VERSION (its output layer copied to every bucket) or of 1 to HIDDEN hidden
    units is accepted too (else exactly VERSION and HIDDEN)."""
    _check(isinstance(data, dict), path, "not a JSON object")
    _check(data.get("format") == FORMAT, path, f"format is {data.get('format')!r}, expected {FORMAT!r}")
    version = data.get("version")
    convertible = older and version == OLDER_VERSION
    _check(version in (VERSION, UNNAMED_ACTIVATION_VERSION) or convertible, path,
           f"version is {version!r}, expected {VERSION}: it was written for another network layout"
           + (" (train-network --init converts a version-1 network)" if version == OLDER_VERSION else ""))
    activation = data.get("activation") if version == VERSION else "crelu"
    _check(activation in ACTIVATIONS, path,
           f"'activation' is {activation!r}; this engine's networks have one of {', '.join(ACTIVATIONS)}")
    qb = data.get("qb")
    if version == VERSION:
        _check(isinstance(qb, int) and not isinstance(qb, bool) and 1 <= qb <= QB_LIMIT, path,
               f"'qb' is {qb!r}; this engine's networks have qb 1 to {QB_LIMIT}")
    else:
        _check(qb == QB, path, f"'qb' is {qb!r}; a network file of version {version} has qb {QB}")
    shape = SHAPE_FIELDS if convertible else dict(SHAPE_FIELDS, output_buckets=OUTPUT_BUCKETS)
    for field, expected in shape.items():
        _check(data.get(field) == expected, path,
               f"'{field}' is {data.get(field)!r}; this engine's networks have {field} {expected}")
    hidden = data.get("hidden")
    if older:
        _check(isinstance(hidden, int) and not isinstance(hidden, bool) and 1 <= hidden <= HIDDEN, path,
               f"'hidden' is {hidden!r}; this engine's networks have 1 to {HIDDEN} hidden units")
    else:
        _check(hidden == HIDDEN, path, f"'hidden' is {hidden!r}; this engine's networks have hidden {HIDDEN} "
                                       "(train-network --init widens a narrower network)")
    buckets = 1 if convertible else OUTPUT_BUCKETS
    w1 = _integers(data, "w1", INPUTS * hidden, INT16_LIMIT, path).reshape(INPUTS, hidden)
    b1 = _integers(data, "b1", hidden, INT16_LIMIT, path)
    check_accumulator_reach(w1, b1, path)
    w2 = _integers(data, "w2", buckets * 2 * hidden, INT16_LIMIT, path).reshape(buckets, 2 * hidden)
    check_output_weights(w2, activation, path)
    if convertible:
        b2 = data.get("b2")
        _check(isinstance(b2, int) and not isinstance(b2, bool) and abs(b2) <= B2_LIMIT, path,
               f"'b2' must be an integer within +-{B2_LIMIT}")
        b2 = np.array([b2], dtype=np.int64)
    else:
        b2 = _integers(data, "b2", buckets, B2_LIMIT, path)
    return Network(w1, b1, np.repeat(w2, OUTPUT_BUCKETS // buckets, axis=0),
                   np.repeat(b2, OUTPUT_BUCKETS // buckets), str(data.get("provenance", "")), activation, qb)


def load_network(path, older=False) -> Network:
    """Read and validate a network file (network_from_json: this version and HIDDEN hidden units, or an older
    network with `older`); raise ValueError naming the file and the reason when it is unusable."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"network file {path}: cannot be read as JSON: {error}") from None
    return network_from_json(data, path, older)


def save_network(network: Network, path) -> None:
    """Write `network` as a network file, atomically (temporary file, then rename); raise ValueError naming `path`,
    writing nothing, when a hidden unit's sum could leave int16 (check_accumulator_reach) or w2 its activation's
    bound (check_output_weights)."""
    check_accumulator_reach(network.w1, network.b1, path)
    check_output_weights(network.w2, network.activation, path)
    data = {"format": FORMAT, "version": VERSION, "hidden": len(network.b1), "output_buckets": OUTPUT_BUCKETS,
            **SHAPE_FIELDS, "qb": network.qb, "activation": network.activation,
            "w1": [int(v) for v in np.asarray(network.w1).reshape(-1)], "b1": [int(v) for v in network.b1],
            "w2": [int(v) for v in np.asarray(network.w2).reshape(-1)], "b2": [int(v) for v in network.b2],
            "provenance": network.provenance}
    write_text_atomically(path, json.dumps(data, separators=(",", ":")) + "\n")
