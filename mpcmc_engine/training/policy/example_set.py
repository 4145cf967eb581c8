"""The policy trainer's example set, the type its producer (examples.py) and its consumer (trainer.py) share; kept
apart so that the trainer's numba code does not depend on the producer's imports (the search, the board)."""

from dataclasses import dataclass

import numpy as np

H_LEVELS = 255  # h is stored as round(h * H_LEVELS)


@dataclass
class PolicyExamples:
    """n examples: hidden (n, FEATURES) uint8, moves_start (n + 1,) int64 offsets into packed (int64, every legal
    move's packed indices, position by position), target (n,) int64 (the chosen move's place among its position's
    moves) and chunk (n,) int32 (the chunk of its position, for the validation split)."""

    hidden: np.ndarray
    moves_start: np.ndarray
    packed: np.ndarray
    target: np.ndarray
    chunk: np.ndarray

    def __len__(self) -> int:
        return len(self.target)
