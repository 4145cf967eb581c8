"""The temporal-difference updates of one game, in white-view win probabilities.

For values V_0..V_{T-1} of a game's positions and the result V_T, the temporal differences are
d_t = V_{t+1} - V_t and the update (applied after the game) is  alpha * sum_t d_t e_t  with the eligibility trace
e_t = lambda e_{t-1} + grad V_t  (e_{-1} = 0). The methods differ in what V_t and grad V_t are taken from:
- td-lambda: V and its gradient at the played positions (Flounder);
- td-leaf:   V and its gradient at the leaves of the principal variations searched from them (KnightCap);
- td-stem:   V at the leaves, the gradient at the played positions (Van den Heede, eq. 12 read literally: the played
             position's value moved by the leaves' temporal differences, its own value in no error);
- td-stem-return: td-stem plus, at every played position, the gradient times V(leaf_t) - V(s_t), so that its error is
             G_t - V(s_t) with G_t the leaves' lambda-return (eq. 12 read as a target for the played position: its
             value is pulled to its search's value and the differences beyond).
A leaf that ends the game (mate found by the search) has the fixed value of that outcome and no gradient.
Weights under a `frozen` mask take no step (an ablation: a feature held at its start value).
"""

from typing import Callable, NamedTuple

import numpy as np

from mpcmc_engine.training import network_model
from mpcmc_engine.training.td import linear_model
from mpcmc_engine.training.td.methods import METHODS


class Model(NamedTuple):
    """What the TD updates need of a trainable evaluation: values_and_gradients(vector, rows, aux) of record rows
    (aux: the phases of linear feature rows, the sides to move of network input rows) and apply_step(vector, step)."""

    values_and_gradients: Callable
    apply_step: Callable


LINEAR = Model(linear_model.values_and_gradients, linear_model.apply_step)
NETWORK = Model(network_model.network_values_and_gradients, network_model.network_apply_step)


def eligibility_direction(values: np.ndarray, gradients: np.ndarray, final_value: float, lam: float):
    """(sum_t d_t e_t, d): the summed trace-weighted temporal differences of a game and the differences d_t."""
    errors = np.append(values[1:], final_value) - values
    trace = np.zeros(gradients.shape[1])
    direction = np.zeros(gradients.shape[1])
    for t in range(len(values)):
        trace = lam * trace + gradients[t]
        direction += errors[t] * trace
    return direction, errors


def _leaf_values_and_gradients(trained: Model, vector, record):
    """Values and gradients at the PV leaves, with game-ending leaves fixed to their outcome (gradient 0)."""
    values, gradients = trained.values_and_gradients(vector, record.leaf, record.leaf_phase)
    fixed = ~np.isnan(record.leaf_fixed)
    values[fixed] = record.leaf_fixed[fixed]
    gradients[fixed] = 0.0
    return values, gradients


def game_update(method: str, vector: np.ndarray, record, lam: float, alpha: float, trained: Model = LINEAR,
                frozen=None):
    """(the `trained` model's vector after learning from `record` with `method`, temporal differences of the game);
    the weights where the boolean mask `frozen` is true keep their values."""
    if method == "td-lambda":
        values, gradients = trained.values_and_gradients(vector, record.played, record.played_phase)
    elif method == "td-leaf":
        values, gradients = _leaf_values_and_gradients(trained, vector, record)
    elif method in ("td-stem", "td-stem-return"):
        values, _ = _leaf_values_and_gradients(trained, vector, record)
        played_values, gradients = trained.values_and_gradients(vector, record.played, record.played_phase)
    else:
        raise ValueError(f"unknown method {method!r} (expected one of {METHODS})")
    direction, errors = eligibility_direction(values, gradients, record.result, lam)
    if method == "td-stem-return":
        direction += (values - played_values) @ gradients
    if frozen is not None:
        direction[frozen] = 0.0
    return trained.apply_step(vector, alpha * direction), errors
