"""`EvalFile`: one loader for both kinds of evaluation file, told apart by their "format" field, and the names of
the evaluations shipped with the engine."""

import json
from pathlib import Path

from mpcmc_engine.eval import network, weights
from mpcmc_engine.eval.network import SHIPPED_NETWORK_PATH, Network
from mpcmc_engine.eval.weights import LINEAR_WEIGHTS_PATH, Weights, material_only_weights

DEFAULT_EVALUATION = "<network>"  # not "<default>": UCI clients split option lines at the word "default"
SHIPPED_EVALUATIONS = {
    DEFAULT_EVALUATION: SHIPPED_NETWORK_PATH,   # the engine's default: the shipped network
    "<default>": SHIPPED_NETWORK_PATH,          # the same, under the name it was declared by before
    "<linear>": LINEAR_WEIGHTS_PATH,            # the shipped linear weights (for comparison and the trainer's seeds)
}
MATERIAL_EVALUATION = "<material>"  # material values only, built in memory: the trainers' blank start and baseline


def load_evaluation(path) -> Weights | Network:
    """The linear weights or the network in the file at `path`, the shipped evaluation `path` names (a key of
    SHIPPED_EVALUATIONS) or the material-only weights (MATERIAL_EVALUATION); raise ValueError naming the file and the
    reason when it is none of these or is unusable."""
    if str(path) == MATERIAL_EVALUATION:
        return material_only_weights()
    path = SHIPPED_EVALUATIONS.get(str(path), path)
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"evaluation file {path}: cannot be read as JSON: {error}") from None
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == network.FORMAT:
        return network.network_from_json(data, path)
    if kind == weights.FORMAT:
        return weights.weights_from_json(data, path)
    raise ValueError(f"evaluation file {path}: format is {kind!r}, expected {weights.FORMAT!r} (linear weights) or "
                     f"{network.FORMAT!r}")


def load_default_evaluation() -> Weights | Network:
    """The evaluation the engine plays with unless told otherwise (`EvalFile <network>`: the shipped network)."""
    return load_evaluation(DEFAULT_EVALUATION)
