"""Named constants shared by the numba core: colours, pieces, array slots, move encoding, table offsets.

Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63. Bitboards are np.uint64; every bitboard constant is a global
np.uint64 so that numba never mixes it with int64 (see shared/notes/numba.md, integer typing traps).
"""

import numpy as np

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)
FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_1 = np.uint64(0xFF)
RANK_8 = np.uint64(0xFF00000000000000)
NOT_FILE_A = ~FILE_A
NOT_FILE_H = ~FILE_H

WHITE = 0
BLACK = 1

# Piece types (as python-chess numbers them); a piece code is colour * 8 + type, 0 is an empty square.
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_SYMBOLS = ".PNBRQK..pnbrqk"
NO_SQUARE = 64

# Slots of the uint64 array `bb`: bb[colour * 8] is that colour's occupancy, bb[colour * 8 + type] its pieces,
# bb[BB_ALL] all occupied squares, bb[BB_KEYS + ply] the Zobrist key of the position at that ply.
BB_ALL = 7
BB_KEYS = 16
MAX_GAME_PLY = 4096
BB_SIZE = BB_KEYS + MAX_GAME_PLY + 1

# Slots of the int64 array `st`.
ST_SIDE = 0          # colour to move
ST_EP = 1            # en passant target square when a pawn of the side to move stands beside it, else NO_SQUARE
ST_HALFMOVE = 2      # halfmove clock of the fifty-move rule
ST_PLY = 3           # plies played since the position was set up (index into key history and undo stack)
ST_FULLMOVE0 = 4     # fullmove number of the set-up position
ST_CASTLE = 5        # castling rights: bit i set when right CASTLE_SLOT i holds
ST_ROOK_SQ = 6       # 4 slots: the castling rook's starting square for each right, NO_SQUARE when none
ST_CHESS960 = 10     # 1 when castling moves are written king-takes-rook (Chess960), else 0
ST_CASTLE_MASK = 16  # 64 slots: castling-rights bits kept when a piece moves from or to that square
ST_BOARD = 80        # 64 slots: piece code on each square
ST_UNDO = 144        # undo records, UNDO_SIZE slots per ply
U_MOVE, U_CAPTURED, U_CASTLE, U_EP, U_HALFMOVE = 0, 1, 2, 3, 4
UNDO_SIZE = 5
ST_SIZE = ST_UNDO + UNDO_SIZE * (MAX_GAME_PLY + 1)

# Castling-right slots, in Polyglot's order (Zobrist keys 768 + slot).
CASTLE_WHITE_KING, CASTLE_WHITE_QUEEN, CASTLE_BLACK_KING, CASTLE_BLACK_QUEEN = 0, 1, 2, 3

# Moves: from | to << 6 | kind << 12 | (promotion type - KNIGHT) << 14. Castling is encoded king-takes-rook.
KIND_NORMAL, KIND_PROMOTION, KIND_EN_PASSANT, KIND_CASTLE = 0, 1, 2, 3
MAX_MOVES = 256

# Offsets into the uint64 table array `tab` built by mpcmc_engine.bitboard.tables.
T_KNIGHT = 0
T_KING = 64
T_PAWN_ATTACKS = 128             # [colour][square]
T_BETWEEN = 256                  # [a][b]: squares strictly between a and b on a line, else 0
T_LINE = T_BETWEEN + 4096        # [a][b]: the whole line through a and b (edge to edge), else 0
T_ROOK_MASK = T_LINE + 4096
T_ROOK_MAGIC = T_ROOK_MASK + 64
T_ROOK_SHIFT = T_ROOK_MAGIC + 64
T_ROOK_OFFSET = T_ROOK_SHIFT + 64
T_BISHOP_MASK = T_ROOK_OFFSET + 64
T_BISHOP_MAGIC = T_BISHOP_MASK + 64
T_BISHOP_SHIFT = T_BISHOP_MAGIC + 64
T_BISHOP_OFFSET = T_BISHOP_SHIFT + 64
T_ZOBRIST = T_BISHOP_OFFSET + 64  # Polyglot's 781 keys
Z_CASTLE = 768
Z_EP_FILE = 772
Z_WHITE_TO_MOVE = 780
T_SLIDER_ATTACKS = T_ZOBRIST + 781
ROOK_ATTACK_ENTRIES = 102400     # sum over squares of 2 ** (relevant occupancy bits)
BISHOP_ATTACK_ENTRIES = 5248
T_SIZE = T_SLIDER_ATTACKS + ROOK_ATTACK_ENTRIES + BISHOP_ATTACK_ENTRIES
