"""The training loop: games generated in batches (in parallel), TD updates applied in game order, progress bar,
checkpoints, learning curve, final (optionally averaged) weights: of the linear evaluation or of the network
(training/td/trainable.py, settings.model).

Game i's seed is drawn from the run's numpy Generator in game order and batches end at fixed game counts (multiples of
BATCH_GAMES, of --checkpoint-every and of --curve-every), so the weights after N games depend only on the seed and
settings: not on the number of workers, nor on whether the run was interrupted and resumed from a checkpoint. The
state advances one whole batch at a time, so whatever stops a run (Ctrl-C, a game that cannot be generated) finds
the state of the last complete batch, which is written as the checkpoint before the exception goes on.
"""

import dataclasses
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.weights import Weights
from mpcmc_engine.training.curve_csv import write_curve_csv
from mpcmc_engine.training.td.checkpoint import TrainerState, checkpoint_path, load_checkpoint, save_checkpoint
from mpcmc_engine.training.td.generate import GamePool, SourceConfig
from mpcmc_engine.training.td.learning_curve import plot_curves
from mpcmc_engine.training.td.trainable import TRAINABLES, Trainable
from mpcmc_engine.training.td.updates import game_update

BATCH_GAMES = 8   # games generated with the same weights before their updates are applied
CHECKPOINT_EVERY = 500  # default games between checkpoints
SHOWN_TD_ERRORS = 2000  # the progress bar shows the mean |TD error| of this many recent positions


@dataclass
class TrainSettings:
    """A run's settings: method, source, hyper-parameters, and where results go."""

    method: str
    source: SourceConfig
    games: int
    lam: float
    alpha: float
    seed: int
    out: str
    workers: int = 1
    checkpoint_every: int = CHECKPOINT_EVERY
    curve_every: int = 0
    curve: str = ""
    curve_measure: str = ""
    average_after: int = 0
    command: str = ""
    model: str = "linear"   # a key of trainable.TRAINABLES: what is trained
    frozen: tuple = ()      # feature blocks whose weights keep their start values (linear model only)

    def fixed(self) -> dict:
        """The settings a resumed run must share with the run that wrote the checkpoint."""
        source = self.source
        return {"method": self.method, "source": source.source, "nodes": source.nodes, "depth": source.depth,
                "epsilon": source.epsilon, "leaf_depth": source.leaf_depth, "mentor": source.mentor,
                "openings": source.openings, "pgn_games": len(source.pgn_games), "ending": source.ending,
                "lambda": self.lam, "alpha": self.alpha,
                "seed": self.seed, "checkpoint_every": self.checkpoint_every, "curve_every": self.curve_every,
                "curve_measure": self.curve_measure, "average_after": self.average_after, "model": self.model,
                "frozen": list(self.frozen)}


def _batch_end(done: int, settings: TrainSettings) -> int:
    """The game count at which the batch starting after `done` games ends."""
    ends = [settings.games, (done // BATCH_GAMES + 1) * BATCH_GAMES]
    for every in (settings.checkpoint_every, settings.curve_every):
        if every:
            ends.append((done // every + 1) * every)
    return min(ends)


def train(settings: TrainSettings, initial: Weights | Network, resume: bool = False, probe=None,
          log=print) -> Weights | Network:
    """Train the settings.model evaluation from `initial` (of that kind; raise ValueError otherwise), or from the
    checkpoint when `resume`, for settings.games games in all; write it to settings.out (and checkpoints, curve
    CSV/PNG when asked); return the final evaluation. `probe` (training/td/probes.py: measure(evaluation) -> dict)
    measures the learning curve. Whatever exception stops the run (KeyboardInterrupt, GameError, ...) propagates
    after the checkpoint of the last complete batch is written."""
    trainable = TRAINABLES[settings.model]
    if not isinstance(initial, trainable.kind):
        raise ValueError(f"the start evaluation is not of the trained kind ({settings.model})")
    frozen = trainable.frozen_mask(settings.frozen) if settings.frozen else None
    rng = np.random.default_rng(settings.seed)
    where = checkpoint_path(settings.out)
    if resume:
        state = load_checkpoint(where, settings.fixed())
        rng.bit_generator.state = state.rng_state
        log(f"resuming from {where} after {state.games_done} games")
    else:
        state = TrainerState(trainable.to_vector(initial), 0, rng.bit_generator.state, settings.fixed())
    provenance = settings.command or f"mpcmc-engine train --method {settings.method} --seed {settings.seed}"
    if probe is not None and not state.curve:
        state.curve.append(_curve_row(0, probe, trainable, state.vector, provenance, state))
    pool = GamePool(settings.source, settings.workers)
    try:
        with tqdm(total=settings.games, initial=state.games_done, unit="game", desc=settings.method) as bar:
            shown_errors: deque = deque(maxlen=SHOWN_TD_ERRORS)
            while state.games_done < settings.games:
                state = _next_batch(state, pool, rng, settings, trainable, probe, provenance, bar, shown_errors,
                                    frozen)
                if settings.checkpoint_every and state.games_done % settings.checkpoint_every == 0:
                    save_checkpoint(state, where)
    except BaseException:
        save_checkpoint(state, where)
        raise
    finally:
        pool.close()
    trained = trainable.to_evaluation(_published(state), provenance)
    trainable.save(trained, settings.out)
    save_checkpoint(state, where)
    if probe is not None:
        _write_curve(state.curve, settings)
    return trained


def _next_batch(state: TrainerState, pool: GamePool, rng, settings: TrainSettings, trainable: Trainable, probe,
                provenance: str, bar, shown_errors: deque, frozen) -> TrainerState:
    """The state after the next batch of games, their updates (no step where the mask `frozen` is true) and, at a
    multiple of --curve-every, the curve point; `state` itself is left as it was (`rng` draws the batch's game
    seeds)."""
    end = _batch_end(state.games_done, settings)
    evaluation = trainable.to_evaluation(state.vector, provenance)
    tasks = [(index, int(rng.integers(2 ** 62)), evaluation) for index in range(state.games_done, end)]
    records = pool.records(tasks)
    state = dataclasses.replace(state, curve=list(state.curve))
    for record in records:
        state.vector, differences = game_update(settings.method, state.vector, record, settings.lam, settings.alpha,
                                                trainable.td_model, frozen)
        state.td_error_sum += float(np.sum(np.abs(differences)))
        state.td_error_count += len(differences)
        shown_errors.extend(np.abs(differences))
        state.games_done += 1
        _accumulate_average(state, settings.average_after)
        bar.update(1)
        bar.set_postfix(mean_abs_td=f"{np.mean(shown_errors):.4f}")
    state.rng_state = rng.bit_generator.state
    if probe is not None and settings.curve_every and state.games_done % settings.curve_every == 0:
        state.curve.append(_curve_row(state.games_done, probe, trainable, _published(state), provenance, state))
        state.td_error_sum, state.td_error_count = 0.0, 0
        _write_curve(state.curve, settings)
    return state


def _accumulate_average(state: TrainerState, average_after: int) -> None:
    """Add the current weights to the running sum of those after each game past `average_after` (0: none)."""
    if average_after and state.games_done > average_after:
        state.average_sum = (state.vector.astype(np.float64) if state.average_sum is None  # float64 also on resume
                             else state.average_sum + state.vector)
        state.average_count += 1


def _published(state: TrainerState) -> np.ndarray:
    """The float weights the run writes and measures: the mean of the averaged ones when averaging has begun
    (Polyak averaging; the updates themselves go on from the current weights), else the current weights."""
    return state.average_sum / state.average_count if state.average_sum is not None else state.vector


def _curve_row(games, probe, trainable: Trainable, vector, provenance, state: TrainerState) -> dict:
    """One learning-curve point: the probe's strength measure of the float `vector` and the mean |TD error| since
    the last point (state's running sum and count)."""
    return {"games": games, **probe.measure(trainable.to_evaluation(vector, provenance)),
            "mean_abs_td": state.td_error_sum / state.td_error_count if state.td_error_count else 0.0}


def _write_curve(rows, settings: TrainSettings) -> None:
    """Write the curve CSV (beside the PNG) and the PNG of this run."""
    if not settings.curve:
        return
    png = Path(settings.curve)
    write_curve_csv(rows, png.with_suffix(".csv"))
    plot_curves({settings.method: rows}, png)
