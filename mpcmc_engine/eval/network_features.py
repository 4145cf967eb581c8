"""The neural evaluation's input features, shared by the engine's numba evaluation and the trainer.

A network sees the board twice, once from each side (its *view*): 768 inputs a view, one per (owner, piece type,
square), owner 0 for the view's own pieces and 1 for the other side's. Squares are seen from the view's side (board
mirrored vertically for black) and mirrored horizontally when the view's own king stands on files a-d, so that the
view's king is always on files e-h: the two halves of the board are the view's two *king buckets*, and a king move
across the d/e boundary changes every input of that view (its accumulator is then computed afresh).

input(view, piece on square) = owner * 384 + (type - PAWN) * 64 + oriented square, where the oriented square is
square ^ 56 for the black view, then ^ 7 when the view's king (oriented) is on files a-d.

The network's output layer is one of OUTPUT_BUCKETS, chosen by the number of pieces on the board, kings and pawns
included: `output_bucket` (1-4 pieces: bucket 0, 5-8: 1, ..., 29-32: 7).
"""

from mpcmc_engine.bitboard.constants import BLACK, PAWN
from mpcmc_engine.jit import jit

INPUTS = 768            # inputs of one view
MAX_PIECES = 32         # pieces on a board: the most active inputs of a view
INPUTS_PER_OWNER = 384  # 6 piece types x 64 squares
OUTPUT_BUCKETS = 8      # output layers of a network
PIECES_PER_BUCKET = MAX_PIECES // OUTPUT_BUCKETS  # 4: the buckets split a full board evenly


@jit("int64(int64, int64)", inline="always")
def bucket_flip(view, king_square):
    """The XOR that orients a square for `view` whose own king stands on `king_square` (a1 = 0): 56 for black's
    vertical mirror, plus 7 when that king, so oriented, is on files a-d."""
    vertical = 56 if view == BLACK else 0
    oriented_king = king_square ^ vertical
    return vertical | (7 if (oriented_king & 7) < 4 else 0)


@jit("int64(int64, int64, int64, int64)", inline="always")
def input_index(view, flip, piece, square):
    """The input of `view` (with its bucket_flip `flip`) for `piece` (colour * 8 + type) on `square`."""
    owner = 0 if (piece >> 3) == view else 1
    return owner * INPUTS_PER_OWNER + ((piece & 7) - PAWN) * 64 + (square ^ flip)


@jit("int64(int64)", inline="always")
def output_bucket(pieces):
    """The output bucket of a position with `pieces` pieces on the board (2 to 32; kings and pawns included)."""
    return (pieces - 1) // PIECES_PER_BUCKET
