"""`EvalFile`: one loader for both kinds of evaluation file, told apart by their "format" field."""

import json
from pathlib import Path

from mpcmc_engine.eval import network, weights
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.weights import Weights


def load_evaluation(path) -> Weights | Network:
    """The linear weights or the network in the file at `path`; raise ValueError naming the file and the reason
    when it is neither or is unusable."""
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
