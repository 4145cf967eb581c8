"""Generating the neural trainers' data: self-play games of our search whose positions are kept with the search's
score and best move, the game's result and whether the value trainer takes them (is_quiet; format in
mpcmc_engine.training.network.position_data).

Chunk `index` holds games [index * games_per_chunk, (index + 1) * games_per_chunk), each played from an opening and
a seed drawn from a generator seeded by (run seed, chunk index): a chunk's content depends only on the settings and
its index, not on which worker played it nor on interruptions. Missing chunks are generated, existing ones kept, so
an interrupted run resumes where it stopped. Worker processes ignore SIGINT (the main process stops the pool).
"""

import functools
import random
from dataclasses import dataclass

import numpy as np

from mpcmc_engine.bitboard.constants import ST_BOARD
from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.match.openings import load_openings
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.predicates import is_tactical
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.network.chunk_workers import run_chunks
from mpcmc_engine.training.network.position_data import Positions, chunk_path, clipped_score, concatenated, write_chunk
from mpcmc_engine.training.play import selfplay_record

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


def is_quiet(position, found) -> bool:
    """Whether `position`, searched with the result `found` (a SearchResult), is kept as the trainer's data: not in
    check, a best move that is neither capture nor promotion, no mate score."""
    return not (found.is_mate or position.is_check() or is_tactical(position.st, found.best_move))


class PositionsBuilder:
    """The selfplay_record builder that keeps every position with its search's score and best move, flagged quiet
    (is_quiet) or not."""

    def __init__(self) -> None:
        self.boards: list = []
        self.sides: list = []
        self.scores: list = []
        self.moves: list = []
        self.quiet: list = []

    def add(self, position, found) -> None:
        """Keep `position` with the score and best move of `found` (its SearchResult) and its quiet flag."""
        self.boards.append(position.st[ST_BOARD:ST_BOARD + 64].astype(np.uint8))
        self.sides.append(0 if position.white_to_move else 1)
        self.scores.append(clipped_score(found.score))
        self.moves.append(found.best_move)
        self.quiet.append(is_quiet(position, found))

    def build(self, white_result: float, label: str) -> Positions:
        """The kept positions with the game's result (1, 0.5, 0 for white) for each one's side to move."""
        sides = np.array(self.sides, dtype=np.uint8)
        white_value = int(round(2 * white_result - 1))
        results = np.where(sides == 0, white_value, -white_value).astype(np.int8)
        boards = np.array(self.boards, dtype=np.uint8).reshape(len(self.boards), 64)
        return Positions(boards, sides, np.array(self.scores, dtype=np.int16), results,
                         np.array(self.moves, dtype=np.uint16), np.array(self.quiet, dtype=np.uint8))


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
        parts.append(selfplay_record(opening, (searcher, searcher), SearchLimits(nodes=settings.nodes),
                                     settings.epsilon, moves_rng, PositionsBuilder(), f"game {game + 1}"))
    positions = concatenated(parts)
    write_chunk(settings.out, index, positions)
    return len(positions)


def playing_searcher(settings) -> Searcher:
    """A searcher evaluating with settings.eval_file (the default evaluation when empty); ValueError when the file
    is unusable."""
    searcher = Searcher(hash_mb=SEARCH_HASH_MB, threads=1)
    if settings.eval_file:
        searcher.set_evaluation(load_evaluation(settings.eval_file))
    return searcher


def _chunk_task(settings: GenerationSettings, index: int, searcher: Searcher) -> tuple:
    """(games in the chunk, positions kept) of chunk `index`, generated with `searcher`."""
    kept = generate_chunk(settings, index, searcher)
    return settings.games_in(index), kept


def missing_chunks(settings: GenerationSettings) -> list:
    """The chunk indices whose files do not exist yet."""
    return [index for index in range(settings.chunks()) if not chunk_path(settings.out, index).exists()]


def generate_positions(settings: GenerationSettings, workers: int, progress, on_interrupt=lambda: None) -> int:
    """Generate every missing chunk with `workers` processes; `progress(games, positions)` after each chunk; return
    the positions kept by this call. On KeyboardInterrupt with several workers: on_interrupt(), then the chunks the
    workers have begun are finished and written before the interrupt propagates."""
    kept = [0]

    def chunk_done(result: tuple) -> None:
        games, positions = result
        kept[0] += positions
        progress(games, positions)

    run_chunks(playing_searcher, _chunk_task, settings, missing_chunks(settings), workers, chunk_done, on_interrupt)
    return kept[0]
