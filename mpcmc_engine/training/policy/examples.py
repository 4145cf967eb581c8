"""The policy trainer's examples: for each position of gen-positions' chunks whose searched best move is legal in
the position the chunk's row describes (relabelling.position_of: castling rights its kings and rooks allow, no en
passant square), the network's hidden vector h (quantized to uint8, h * 255 rounded), the packed weight indices of
every legal move (search.policy_moves.policy_move: the indices and the tactical class) and which of them the
search chose.
"""

from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from mpcmc_engine.eval.evaluate import KIND_NETWORK
from mpcmc_engine.eval.network_eval import network_array
from mpcmc_engine.eval.policy import FEATURES
from mpcmc_engine.eval.policy_eval import hidden_from_scratch
from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.search.policy_moves import policy_move
from mpcmc_engine.training.network.chunk_workers import run_chunks
from mpcmc_engine.training.network.position_data import Positions, read_chunk
from mpcmc_engine.training.network.relabelling import position_of
from mpcmc_engine.training.policy.example_set import H_LEVELS, PolicyExamples


def policy_examples(positions: Positions, network) -> PolicyExamples:
    """The examples of `positions` for a policy on `network`'s hidden layer; a position without a best move (move
    0: a chunk of the first format) or whose move is not legal in the row's position is left out."""
    params = network_array(network, KIND_NETWORK)
    h = np.zeros(FEATURES, dtype=np.float32)
    hidden: list = []
    packed: list = []
    targets: list = []
    chunks: list = []
    starts = [0]
    chunk = positions.chunk if positions.chunk is not None else np.zeros(len(positions), dtype=np.int32)
    for row in range(len(positions)):
        move = int(positions.move[row])
        if move == 0:
            continue
        position = position_of(positions.board[row], int(positions.side[row]))
        legal = position.legal_moves()
        if move not in legal:
            continue
        hidden_from_scratch(position.bb, position.st, params, h)
        hidden.append(np.rint(h * H_LEVELS).astype(np.uint8))
        packed.extend(policy_move(position.tab, position.bb, position.st, m) for m in legal)
        starts.append(len(packed))
        targets.append(legal.index(move))
        chunks.append(chunk[row])
    return PolicyExamples(np.array(hidden, dtype=np.uint8).reshape(-1, FEATURES), np.array(starts, dtype=np.int64),
                          np.array(packed, dtype=np.int64), np.array(targets, dtype=np.int64),
                          np.array(chunks, dtype=np.int32))


def concatenated_examples(parts: list) -> PolicyExamples:
    """The examples of `parts` one after another."""
    offsets = np.cumsum([0] + [len(part.packed) for part in parts[:-1]])
    starts = [np.zeros(1, dtype=np.int64)] + [part.moves_start[1:] + offset for part, offset in zip(parts, offsets)]
    return PolicyExamples(np.concatenate([part.hidden for part in parts]), np.concatenate(starts),
                          np.concatenate([part.packed for part in parts]),
                          np.concatenate([part.target for part in parts]),
                          np.concatenate([part.chunk for part in parts]))


@dataclass(frozen=True)
class ExampleJob:
    """What chunk_workers.run_chunks hands every worker: the network file and the chunk files, in the run's order."""

    eval_file: str
    paths: tuple


def _load_network(job: ExampleJob):
    """A worker's network (run_chunks' per-process object)."""
    return load_evaluation(job.eval_file)


def _chunk_examples(job: ExampleJob, index: int, network) -> tuple:
    """(the examples of chunk file job.paths[index], its chunk number `index`,)."""
    positions = read_chunk(job.paths[index])
    positions.chunk = np.full(len(positions), index, dtype=np.int32)
    return (policy_examples(positions, network),)


def examples_from_chunks(paths: list, eval_file: str, workers: int) -> PolicyExamples:
    """The examples of the chunk files `paths` (chunk numbers: their order) for a policy on the network `eval_file`
    names, made in `workers` processes (in this one when 1; chunk_workers.run_chunks), with a progress bar over the
    chunks; ValueError naming a chunk or the network file when one is unusable."""
    parts: list = []
    with tqdm(total=len(paths), unit="chunk", desc="policy examples") as bar:
        def progress(result: tuple) -> None:
            parts.append(result[0])
            bar.update(1)
        run_chunks(_load_network, _chunk_examples, ExampleJob(eval_file, tuple(paths)), range(len(paths)), workers,
                   progress)
    return concatenated_examples(parts)
