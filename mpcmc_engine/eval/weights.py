"""Evaluation weights: the in-memory `Weights`, and the versioned JSON file format that stores them.

A weights file is {"format": FORMAT, "version": VERSION, "layout": [[name, size], ...], "mg": [...], "eg": [...],
"provenance": "..."}; the layout must equal mpcmc_engine.eval.features.LAYOUT and every weight must lie within
+-WEIGHT_LIMIT. The loader refuses anything else with a ValueError that names the file and the reason, so a caller can
keep its current weights.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mpcmc_engine.atomic_files import write_text_atomically
from mpcmc_engine.bitboard.constants import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from mpcmc_engine.eval.features import LAYOUT, N_FEATURES, material_index

FORMAT = "mpcmc-engine weights"
VERSION = 2  # 2: side terms (mobility, king attack, pawn structure, bishop pair, rook files) added
LINEAR_WEIGHTS_PATH = Path(__file__).resolve().parent / "weights" / "linear.json"  # EvalFile <linear>
MATERIAL_VALUES = {PAWN: 100, KNIGHT: 320, BISHOP: 330, ROOK: 500, QUEEN: 900, KING: 0}
# The largest weight magnitude a file may hold, in centipawns (1000 pawns; the shipped weights stay below 900). A
# position has fewer than 10,000 feature counts in all, so the evaluation's tapered int64 sums stay below
# 24 * 10**4 * WEIGHT_LIMIT = 2.4e10, far from int64's 9.2e18, whatever the position.
WEIGHT_LIMIT = 100_000


@dataclass
class Weights:
    """Middlegame and endgame weight vectors (int64, N_FEATURES each) in the order of
    mpcmc_engine.eval.features.LAYOUT."""

    mg: np.ndarray
    eg: np.ndarray
    provenance: str = ""

    def packed(self) -> np.ndarray:
        """The contiguous int64 vector the numba evaluation reads: mg weights, then eg weights."""
        return np.ascontiguousarray(np.concatenate([self.mg, self.eg]).astype(np.int64))


def material_only_weights() -> Weights:
    """Weights with the classical material values (the same in middlegame and endgame) and every other weight 0."""
    mg = np.zeros(N_FEATURES, dtype=np.int64)
    for piece_type, value in MATERIAL_VALUES.items():
        mg[material_index(piece_type)] = value
    return Weights(mg, mg.copy(), "material values only (mpcmc_engine.eval.weights.material_only_weights)")


def _check(condition, path, reason):
    if not condition:
        raise ValueError(f"weights file {path}: {reason}")


def _vector(data, name, path):
    """The integer weight vector data[name], checked for length and type."""
    values = data.get(name)
    _check(isinstance(values, list), path, f"'{name}' is missing or not a list")
    _check(len(values) == N_FEATURES, path, f"'{name}' has {len(values)} weights, the layout needs {N_FEATURES}")
    _check(all(isinstance(v, int) and not isinstance(v, bool) for v in values), path, f"'{name}' holds a non-integer")
    outside = next((index for index, value in enumerate(values) if abs(value) > WEIGHT_LIMIT), None)
    if outside is not None:
        digits = str(values[outside])
        shown = digits if len(digits) <= 24 else f"{digits[:12]}... ({len(digits.lstrip('-'))} digits)"
        _check(False, path, f"'{name}'[{outside}] is {shown}, outside the bound of +-{WEIGHT_LIMIT} centipawns that "
                            f"keeps the evaluation within int64")
    return np.array(values, dtype=np.int64)


def load_weights(path) -> Weights:
    """Read and validate a weights file; raise ValueError naming the file and the reason when it is unusable."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"weights file {path}: cannot be read as JSON: {error}") from None
    return weights_from_json(data, path)


def weights_from_json(data, path) -> Weights:
    """The Weights of a parsed weights file `data`; raise ValueError naming `path` and the reason when unusable."""
    _check(isinstance(data, dict), path, "not a JSON object")
    _check(data.get("format") == FORMAT, path, f"format is {data.get('format')!r}, expected {FORMAT!r}")
    _check(data.get("version") == VERSION, path,
           f"version is {data.get('version')!r}, expected {VERSION}: it was written for another feature layout "
           f"of the evaluation and cannot be used by this engine (retrain or regenerate it)")
    layout = data.get("layout")
    expected = [list(block) for block in LAYOUT]
    _check(layout == expected, path, f"feature layout {layout!r} differs from the engine's {expected!r}")
    return Weights(_vector(data, "mg", path), _vector(data, "eg", path), str(data.get("provenance", "")))


def save_weights(weights: Weights, path) -> None:
    """Write `weights` as a weights file, atomically (temporary file, then rename)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "layout": [list(block) for block in LAYOUT],
        "mg": [int(v) for v in weights.mg],
        "eg": [int(v) for v in weights.eg],
        "provenance": weights.provenance,
    }
    write_text_atomically(path, json.dumps(data) + "\n")


def load_linear_weights() -> Weights:
    """The weights shipped with the engine (eval/weights/linear.json, written by `mpcmc-engine train`; see
    docs/TRAINING.md for the command)."""
    return load_weights(LINEAR_WEIGHTS_PATH)
