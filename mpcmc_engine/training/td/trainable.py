"""The two evaluations the TD trainer (`mpcmc-engine train`) learns, each as what the training loop needs of it: the
TD model (values and gradients of record rows, the step), the record rows of a position, the conversions between the
engine's integer evaluation and the trainer's float vector, how it is written, and the layout a checkpoint must share.

- `linear`: the linear weights (eval/weights.py), float vector [mg, eg] in centipawns (training/td/linear_model.py);
- `network`: the NNUE-style network (eval/network.py), float vector of the float twin (training/network_model.py).
"""

from typing import Callable, NamedTuple

from mpcmc_engine.eval.features import LAYOUT
from mpcmc_engine.eval.network import HIDDEN, Network, save_network
from mpcmc_engine.eval.network_features import INPUTS
from mpcmc_engine.eval.weights import Weights, save_weights
from mpcmc_engine.training import network_model
from mpcmc_engine.training.records import features_of
from mpcmc_engine.training.td import linear_model, updates


class Trainable(NamedTuple):
    """One kind of trainable evaluation (see the module docstring)."""

    name: str
    kind: type                  # the engine's evaluation class
    td_model: updates.Model
    row_of: Callable            # row_of(position) -> (record row, aux)
    to_vector: Callable         # to_vector(evaluation) -> float vector
    to_evaluation: Callable     # to_evaluation(vector, provenance) -> the engine's evaluation
    save: Callable              # save(evaluation, path), atomically
    layout: list                # what a checkpoint of this kind records and must match on --resume
    frozen_mask: Callable       # frozen_mask(block names) -> boolean mask over the vector; ValueError if not named


def _no_blocks(blocks):
    """A network has no named feature blocks to hold fixed."""
    raise ValueError(f"--freeze {','.join(blocks)}: only the linear weights have feature blocks to freeze")


LINEAR = Trainable("linear", Weights, updates.LINEAR, features_of, linear_model.float_weights,
                   linear_model.integer_weights, save_weights, [list(block) for block in LAYOUT],
                   linear_model.frozen_mask)
NETWORK = Trainable("network", Network, updates.NETWORK, network_model.network_row_of, network_model.crelu_vector,
                    network_model.quantize, save_network, ["network", INPUTS, HIDDEN], _no_blocks)
TRAINABLES = {trainable.name: trainable for trainable in (LINEAR, NETWORK)}


def frozen_blocks(text: str) -> tuple:
    """The feature block names of a --freeze argument: comma-separated, blanks ignored ('' -> none)."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def trainable_of(evaluation: Weights | Network) -> Trainable:
    """The trainable kind of the engine's `evaluation` (linear weights or a network)."""
    return NETWORK if isinstance(evaluation, Network) else LINEAR
