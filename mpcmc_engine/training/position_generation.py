"""Generating the neural trainer's data: self-play games of our search whose quiet positions are kept with the
search's score and the game's result (format in mpcmc_engine.training.position_data).

Chunk `index` holds games [index * games_per_chunk, (index + 1) * games_per_chunk), each played from an opening and
a seed drawn from a generator seeded by (run seed, chunk index): a chunk's content depends only on the settings and
its index, not on which worker played it nor on interruptions. Missing chunks are generated, existing ones kept, so
an interrupted run resumes where it stopped. Worker processes ignore SIGINT (the main process stops the pool).
"""

import functools
import multiprocessing
import random
import signal
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from mpcmc_engine.bitboard.constants import ST_BOARD
from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.match.openings import load_openings
from mpcmc_engine.search.core import is_tactical
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.play import selfplay_record
from mpcmc_engine.training.position_data import SCORE_LIMIT, Positions, chunk_path, concatenated, write_chunk
from mpcmc_engine.uci_process import end_worker_with_parent

OPENINGS_READ = 20000   # openings read from a PGN book
SEARCH_HASH_MB = 16


@dataclass(frozen=True)
class GenerationSettings:
    """What `gen-positions` plays: games in chunks of games_per_chunk, nodes per move, exploration, openings."""

    out: str
    games: int
    games_per_chunk: int
    nodes: int
    epsilon: float
    openings: str
    seed: int
    eval_file: str = ""   # the evaluation that plays (a file or a shipped name); empty: the default

    def chunks(self) -> int:
        """The number of chunks the run writes."""
        return -(-self.games // self.games_per_chunk)

    def games_in(self, index: int) -> int:
        """The number of games of chunk `index` (the last chunk may hold fewer)."""
        return min(self.games_per_chunk, self.games - index * self.games_per_chunk)


class PositionsBuilder:
    """The selfplay_record builder that keeps quiet positions: not in check, a best move that is neither capture nor
    promotion, no mate score."""

    def __init__(self) -> None:
        self.boards: list = []
        self.sides: list = []
        self.scores: list = []

    def add(self, position, found) -> None:
        """Keep `position` with the score of `found` (its SearchResult) when it is quiet."""
        if found.is_mate or position.is_check() or is_tactical(position.st, found.best_move):
            return
        self.boards.append(position.st[ST_BOARD:ST_BOARD + 64].astype(np.uint8))
        self.sides.append(0 if position.white_to_move else 1)
        self.scores.append(max(-SCORE_LIMIT, min(SCORE_LIMIT, found.score)))

    def build(self, white_result: float, label: str) -> Positions:
        """The kept positions with the game's result (1, 0.5, 0 for white) for each one's side to move."""
        sides = np.array(self.sides, dtype=np.uint8)
        white_value = int(round(2 * white_result - 1))
        results = np.where(sides == 0, white_value, -white_value).astype(np.int8)
        boards = np.array(self.boards, dtype=np.uint8).reshape(len(self.boards), 64)
        return Positions(boards, sides, np.array(self.scores, dtype=np.int16), results)


@functools.lru_cache(maxsize=2)
def _openings(path: str, seed: int) -> list:
    """The openings of `path` (the start position when empty), read once per process."""
    return load_openings(path or None, OPENINGS_READ, seed)


def generate_chunk(settings: GenerationSettings, index: int, searcher: Searcher) -> int:
    """Play chunk `index`'s games, write its file; return the number of positions kept."""
    openings = _openings(settings.openings, settings.seed)
    rng = np.random.default_rng([settings.seed, index])
    first = index * settings.games_per_chunk
    parts = []
    for game in range(first, first + settings.games_in(index)):
        opening = openings[int(rng.integers(len(openings)))]
        moves_rng = random.Random(int(rng.integers(2 ** 62)))
        parts.append(selfplay_record(opening, (searcher, searcher), settings.nodes, settings.epsilon, moves_rng,
                                     PositionsBuilder(), f"game {game + 1}"))
    positions = concatenated(parts)
    write_chunk(settings.out, index, positions)
    return len(positions)


_WORKER_SEARCHER = None


def playing_searcher(settings: GenerationSettings) -> Searcher:
    """A searcher evaluating with settings.eval_file (the default evaluation when empty); ValueError when the file
    is unusable."""
    searcher = Searcher(hash_mb=SEARCH_HASH_MB, threads=1)
    if settings.eval_file:
        searcher.set_evaluation(load_evaluation(settings.eval_file))
    return searcher


def _start_worker(settings: GenerationSettings) -> None:
    """Worker process initialiser: ignore SIGINT, end with the main process, build the searcher."""
    global _WORKER_SEARCHER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_worker_with_parent()   # a parent killed (SIGTERM, SIGKILL) leaves no worker playing on
    _WORKER_SEARCHER = playing_searcher(settings)


def _chunk_task(settings: GenerationSettings, index: int, searcher: Searcher) -> tuple:
    """(games in the chunk, positions kept) of chunk `index`, generated with `searcher`."""
    kept = generate_chunk(settings, index, searcher)
    return settings.games_in(index), kept


def _worker_chunk(task) -> tuple:
    """Worker process: _chunk_task of one (settings, index) task."""
    settings, index = task
    assert _WORKER_SEARCHER is not None  # built by _start_worker
    return _chunk_task(settings, index, _WORKER_SEARCHER)


def missing_chunks(settings: GenerationSettings) -> list:
    """The chunk indices whose files do not exist yet."""
    return [index for index in range(settings.chunks()) if not chunk_path(settings.out, index).exists()]


def generate_positions(settings: GenerationSettings, workers: int, progress, on_interrupt=lambda: None) -> int:
    """Generate every missing chunk with `workers` processes; `progress(games, positions)` after each chunk; return
    the positions kept by this call. On KeyboardInterrupt with several workers: on_interrupt(), then the chunks the
    workers have begun are finished and written before the interrupt propagates."""
    todo = missing_chunks(settings)
    total = 0
    if workers <= 1:
        searcher = playing_searcher(settings)
        for index in todo:
            games, kept = _chunk_task(settings, index, searcher)
            total += kept
            progress(games, kept)
        return total
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start_worker, initargs=(settings,)) as pool:
        try:
            for games, kept in pool.map(_worker_chunk, [(settings, index) for index in todo]):
                total += kept
                progress(games, kept)
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                on_interrupt()
            pool.shutdown(cancel_futures=True)
            raise
    return total

