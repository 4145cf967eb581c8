"""Positions labelled by search, the neural trainer's data: a directory of chunk files written one at a time.

A chunk `chunk-NNNNN.npz` holds the positions of a fixed number of self-play games, as arrays of equal length n:
- `board`  uint8 (n, 64): the piece code (colour * 8 + type, 0 empty) on each square, a1 = 0;
- `side`   uint8 (n,): the side to move (0 white, 1 black);
- `score`  int16 (n,): the search's score in centipawns for the side to move, within +-SCORE_LIMIT (mates clipped);
- `result` int8 (n,): the game's result for the side to move (1 won, 0 drawn, -1 lost);
- `move`   uint16 (n,): the search's best move (the engine's encoding, bitboard.moves), the policy's target;
- `quiet`  uint8 (n,): 1 when the position is the value trainer's (position_generation.is_quiet), else 0.
A chunk written before `move` and `quiet` existed reads as quiet positions with move 0 (none).
A chunk is written atomically (temporary file, then rename), so an interrupted run leaves only whole chunks and is
resumed by generating the chunks that are missing.
"""

import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SCORE_LIMIT = 3000
CHUNK_PATTERN = "chunk-{:05d}.npz"
PIECE_CODES = (0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14)  # empty, white and black pawn..king
ARRAYS = ("board", "side", "score", "result", "move", "quiet")  # the arrays of a chunk
OPTIONAL = {"move": (np.uint16, 0), "quiet": (np.uint8, 1)}  # a first-format chunk lacks these: (dtype, value)


def missing_array(name: str, n: int) -> np.ndarray:
    """The array `name` of OPTIONAL that n positions of a first-format chunk stand for (no best move; quiet)."""
    dtype, value = OPTIONAL[name]
    return np.full(n, value, dtype=dtype)


@dataclass
class Positions:
    """Labelled positions (the arrays of the chunk format, concatenated; without `move` and `quiet`: no best moves,
    every position quiet). `chunk`, when known, is the number of the chunk each position was read from in the order
    read (0, 1, ...): the positions of one game share a chunk."""

    board: np.ndarray
    side: np.ndarray
    score: np.ndarray
    result: np.ndarray
    move: np.ndarray = None  # type: ignore[assignment]  # None: no best moves (0), every position quiet
    quiet: np.ndarray = None  # type: ignore[assignment]
    chunk: np.ndarray | None = None

    def __post_init__(self) -> None:
        for name in OPTIONAL:
            if getattr(self, name) is None:
                setattr(self, name, missing_array(name, len(self.side)))

    def __len__(self) -> int:
        return len(self.side)

    def subset(self, rows) -> "Positions":
        """The positions of `rows` (an index array or a boolean mask), their chunk numbers kept."""
        return Positions(**{name: getattr(self, name)[rows] for name in ARRAYS},
                         chunk=None if self.chunk is None else self.chunk[rows])

    def quiet_only(self) -> "Positions":
        """The value trainer's positions: the quiet ones."""
        return self.subset(self.quiet == 1)


def concatenated(parts, chunk=None) -> Positions:
    """The positions of `parts` (Positions or alike: objects with the chunk ARRAYS) one after another, with `chunk`
    as their chunk numbers."""
    return Positions(**{name: np.concatenate([getattr(part, name) for part in parts]) for name in ARRAYS},
                     chunk=chunk)


def chunk_path(directory, index: int) -> Path:
    """The file of chunk `index` in `directory`."""
    return Path(directory) / CHUNK_PATTERN.format(index)


def write_chunk(directory, index: int, positions: Positions) -> None:
    """Write chunk `index` atomically."""
    target = chunk_path(directory, index)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp.npz")
    np.savez_compressed(temporary, board=positions.board.astype(np.uint8), side=positions.side.astype(np.uint8),
                        score=np.clip(positions.score, -SCORE_LIMIT, SCORE_LIMIT).astype(np.int16),
                        result=positions.result.astype(np.int8), move=positions.move.astype(np.uint16),
                        quiet=positions.quiet.astype(np.uint8))
    os.replace(temporary, target)


def read_chunk(path: Path) -> Positions:
    """One chunk file, checked; ValueError names the file and the reason."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in ARRAYS if name in data or name not in OPTIONAL}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise ValueError(f"position chunk {path}: cannot be read: {error}") from None
    n = len(arrays["side"])
    for name in OPTIONAL:
        arrays.setdefault(name, missing_array(name, n))
    shapes_ok = arrays["board"].shape == (n, 64) and all(arrays[k].shape == (n,) for k in ARRAYS[2:])
    if not shapes_ok:
        raise ValueError(f"position chunk {path}: arrays of different lengths or a board that is not 64 squares")
    valid = (np.isin(arrays["board"], PIECE_CODES).all() and np.isin(arrays["side"], (0, 1)).all()
             and np.isin(arrays["result"], (-1, 0, 1)).all() and (np.abs(arrays["score"]) <= SCORE_LIMIT).all()
             and np.isin(arrays["quiet"], (0, 1)).all() and (arrays["move"] <= 0xFFFF).all())
    if not valid:
        raise ValueError(f"position chunk {path}: a piece code, side, result, score or quiet flag out of range")
    return Positions(arrays["board"].astype(np.uint8), arrays["side"].astype(np.uint8),
                     arrays["score"].astype(np.int16), arrays["result"].astype(np.int8),
                     arrays["move"].astype(np.uint16), arrays["quiet"].astype(np.uint8))


def clipped_score(score: int) -> int:
    """A search score within the format's +-SCORE_LIMIT."""
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, score))


def chunk_files(directory) -> list:
    """The chunk files of `directory` by number; ValueError when it holds none."""
    found = [path for path in sorted(Path(directory).glob("chunk-*.npz")) if not path.name.endswith(".tmp.npz")]
    if not found:
        raise ValueError(f"position data {directory}: no chunk-*.npz files")
    return found


def chunk_index(path: Path) -> int:
    """The number of the chunk file `path` (chunk-NNNNN.npz)."""
    return int(path.name[len("chunk-"):-len(".npz")])


def load_positions(*directories) -> Positions:
    """Every chunk of the `directories`, concatenated in order (directories as given, chunks by number), each
    position with its chunk's number in that order; ValueError when a directory holds none or a chunk is
    unreadable."""
    paths = [path for directory in directories for path in chunk_files(directory)]
    chunks = [read_chunk(path) for path in paths]
    return concatenated(chunks, np.repeat(np.arange(len(chunks), dtype=np.int32), [len(chunk) for chunk in chunks]))
