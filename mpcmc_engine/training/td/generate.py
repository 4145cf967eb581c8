"""Game generation, in this process or in parallel worker processes, returning records in game order.

`SourceConfig` says where games come from (an `endgame` game is self-play from a random position of the ending,
won for the strong side, drawn with the game's seed and played to its end by the rules); game `index` with its own
`seed` and the evaluation of the current batch (linear weights or a network, whose kind also decides the record's
rows) always yields the same TrainingRecord, whichever process plays it, so a run is repeatable for a given seed. A
game that cannot be generated (a mentor that does not start, hangs past its timeout, dies or answers nonsense; any
error in a worker) raises GameError naming the game and the reason. Worker processes ignore SIGINT: a Ctrl-C is the
main process's to act on (it writes the checkpoint), and the workers end after the game they are playing.
"""

import functools
import multiprocessing
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import numpy as np

from mpcmc_engine.match.openings import Opening, load_openings
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.endgame_table import PIECES, random_won_start
from mpcmc_engine.training.play import mentor_record, pgn_record, selfplay_record
from mpcmc_engine.training.records import RecordBuilder
from mpcmc_engine.training.td.trainable import trainable_of
from mpcmc_engine.uci_process import EngineSpec, end_worker_with_parent, parse_engine_command, start_engine

SOURCES = ("selfplay", "mentor", "pgn", "endgame")
SEARCH_HASH_MB = 8
OPENINGS_FROM_PGN = 1000    # games read from a PGN opening book
MENTOR_TIMEOUT_S = 60.0     # default: a mentor that takes longer to start or to answer one move has failed


class GameError(RuntimeError):
    """A game could not be generated; the message names the game and the reason."""


@dataclass(frozen=True)
class SourceConfig:
    """Where games come from and how they are played (see the `train` command's options)."""

    source: str
    with_leaves: bool
    nodes: int = 1000
    epsilon: float = 0.05
    leaf_depth: int = 2
    mentor: str = ""
    openings: str = ""
    seed: int = 0
    pgn_games: tuple = field(default=(), repr=False)
    mentor_timeout_s: float = MENTOR_TIMEOUT_S
    ending: str = ""    # source endgame: a key of endgame_table.PIECES
    depth: int = 0      # self-play and endgame games: a fixed-depth search per move instead of `nodes` (0: nodes)

    def move_limits(self) -> SearchLimits:
        """What bounds each self-play move's search: `depth` plies when set, else `nodes`."""
        return SearchLimits(depth=self.depth) if self.depth else SearchLimits(nodes=self.nodes)


class GameGenerator:
    """Plays or replays game `index` of a source with a given evaluation; owns its searcher. Mentor engines are started
    for each game and closed after it (a process that ends leaves none behind)."""

    def __init__(self, config: SourceConfig):
        self.config = config
        self.searcher = Searcher(hash_mb=SEARCH_HASH_MB, threads=1)
        self.openings = ([Opening()] if not config.openings
                         else load_openings(config.openings, OPENINGS_FROM_PGN, config.seed))
        self.pgn_order = np.random.default_rng(config.seed).permutation(len(config.pgn_games))

    def record(self, index: int, seed: int, evaluation):
        """The TrainingRecord of game `index`, played with `seed` and `evaluation` (Weights or Network; the rows are
        of its kind's model); raise GameError when it cannot be generated."""
        try:
            return self._record(index, seed, evaluation)
        except Exception as error:
            raise GameError(f"{self.config.source} game {index + 1}: {type(error).__name__}: {error}") from error

    def _record(self, index: int, seed: int, evaluation):
        """record() without the error translation."""
        config = self.config
        self.searcher.set_evaluation(evaluation)
        builder = RecordBuilder(config.with_leaves, trainable_of(evaluation).row_of)
        rng = random.Random(seed)
        if config.source == "pgn":
            game = config.pgn_games[self.pgn_order[index % len(config.pgn_games)]]
            return pgn_record(game, self.searcher, builder, config.leaf_depth)
        label = f"{config.source} game {index + 1}"
        if config.source == "endgame":
            opening = Opening(random_won_start(PIECES[config.ending], rng).fen())
            return selfplay_record(opening, (self.searcher, self.searcher), config.move_limits(), config.epsilon,
                                   rng, builder, label, adjudication_cp=None)
        opening = self.openings[(index // 2) % len(self.openings)]
        if config.source == "selfplay":
            return selfplay_record(opening, (self.searcher, self.searcher), config.move_limits(), config.epsilon,
                                   rng, builder, label)
        mentor = EngineSpec(tuple(parse_engine_command(config.mentor)), "mentor")
        start = functools.partial(start_engine, mentor, handshake_timeout_s=config.mentor_timeout_s,
                                  ready_timeout_s=config.mentor_timeout_s, own_process_group=True)
        with start() as strong, start() as weak:
            return mentor_record(opening, (strong, weak), config.nodes, index % 2 == 0, config.epsilon, rng,
                                 self.searcher, builder, config.leaf_depth, label, config.mentor_timeout_s)


_WORKER_GENERATOR = None


def _start_worker(config: SourceConfig) -> None:
    """Worker process initialiser: ignore SIGINT (the main process handles Ctrl-C), end with the main process, build
    the generator."""
    global _WORKER_GENERATOR
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_worker_with_parent()   # a parent killed (SIGTERM, SIGKILL) leaves no worker playing on
    _WORKER_GENERATOR = GameGenerator(config)


def _worker_record(task):
    """Worker process: the TrainingRecord of one task (index, seed, evaluation)."""
    return _WORKER_GENERATOR.record(*task)


class GamePool:
    """Generates batches of games with `workers` processes (in this process when workers is 1)."""

    def __init__(self, config: SourceConfig, workers: int):
        self.local = GameGenerator(config) if workers <= 1 else None
        self.executor = None if workers <= 1 else ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker, initargs=(config,))

    def records(self, tasks: list) -> list:
        """TrainingRecords of the tasks (index, seed, evaluation), in task order; raise GameError for the first game
        that cannot be generated (or when a worker process died)."""
        if self.local is not None:
            return [self.local.record(*task) for task in tasks]
        assert self.executor is not None  # more than one worker
        try:
            return list(self.executor.map(_worker_record, tasks))
        except BrokenProcessPool as error:
            raise GameError(f"a game worker process died: {error}") from error

    def close(self) -> None:
        """Stop the worker processes: games not yet started are dropped, those being played are finished."""
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)
