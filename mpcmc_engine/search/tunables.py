"""The tuning constants of the numba search, in one place: pruning, reduction and extension thresholds, margins and
move-ordering weights.

Each is a plain module-level int or float because numba reads a global as a compile-time constant: the search
modules import them by name (`from mpcmc_engine.search.tunables import FUTILITY_MARGIN`), and changing one means
editing it here (which recompiles the search; see mpcmc_engine.jit). `TUNABLES` lists every one as (name, value,
min, max), the range a tuner may try. Depths are in plies, margins in centipawns.
"""

# Quiescence.
DELTA_MARGIN = 200             # skip a capture that cannot lift the score to alpha by this margin (delta pruning)

# Null-move pruning: reduction BASE + depth / DEPTH_DIVISOR + min((eval - beta) / EVAL_DIVISOR, 3).
NULL_MOVE_MIN_DEPTH = 3        # null-move pruning from this depth on
NULL_MOVE_BASE = 4             # its reduction's constant part
NULL_MOVE_DEPTH_DIVISOR = 5    # one ply more reduction per this much depth
NULL_MOVE_EVAL_DIVISOR = 200   # one ply more reduction per this much evaluation above beta (3 at most)
VERIFY_MIN_DEPTH = 12          # a null-move cutoff is verified from this depth on, or in a late endgame
ENDGAME_MATERIAL = 1200        # late endgame: the side to move has at most this much non-pawn material (zugzwang)

# Extensions and internal iterative reduction.
IIR_MIN_DEPTH = 4              # internal iterative reduction (no TT move: a ply less) from this depth on
SINGULAR_MIN_DEPTH = 7         # singular extension of the TT move from this depth on,
SINGULAR_MARGIN = 2            # when the other moves fail below its TT score - MARGIN * depth

# Late move reductions: LMR_BASE + log(depth) * log(move number) / LMR_DIVISOR plies, then adjusted.
LMR_MIN_DEPTH = 3              # moves are reduced from this depth on,
LMR_MIN_MOVES = 3              # after this many moves of the node
LMR_BASE = 0.75                # the reduction table's constant part
LMR_DIVISOR = 2.25             # the reduction table's divisor of log(depth) * log(move number)
LMR_HISTORY_DIVISOR = 8192     # a quiet move's reduction shrinks by one per this much ordering score (or grows)

# Reverse futility pruning: the evaluation beats beta by RFP_MARGIN a ply (one ply less when improving).
RFP_MAX_DEPTH = 8              # reverse futility pruning up to this depth,
ENDGAME_RFP_MAX_DEPTH = 3      # and up to this one in a late endgame
RFP_MARGIN = 80                # its margin a ply

# Late-move pruning: quiet moves after (LMP_BASE + depth * depth) / (2 - improving) quiets are pruned.
LMP_MAX_DEPTH = 8              # late-move pruning up to this depth
LMP_BASE = 3                   # quiet moves searched at depth 0 before late-move pruning starts (doubled: improving)

# Futility pruning of quiet moves when eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha.
FUTILITY_MAX_DEPTH = 8         # futility pruning up to this depth
FUTILITY_BASE = 100            # its margin's constant part
FUTILITY_MARGIN = 100          # its margin a ply

# SEE pruning.
SEE_QUIET_MAX_DEPTH = 8        # quiet moves losing more than SEE_QUIET_MARGIN * depth are pruned up to this depth
SEE_QUIET_MARGIN = 60          # material a quiet move may lose a ply of depth
SEE_CAPTURE_MAX_DEPTH = 6      # captures losing more than SEE_CAPTURE_MARGIN * depth * depth are pruned up to it
SEE_CAPTURE_MARGIN = 20        # material a capture may lose a squared ply of depth

# ProbCut: a capture whose reduced search beats beta + MARGIN (less IMPROVING when improving) cuts the node off.
PROBCUT_MIN_DEPTH = 5          # ProbCut from this depth on
PROBCUT_MARGIN = 180           # margin above beta
PROBCUT_IMPROVING = 50         # the margin is this much smaller when the position is improving
PROBCUT_REDUCTION = 4          # the verification search is this many plies shallower

# Move ordering.
HISTORY_BONUS_SCALE = 16       # a cutoff at depth d moves its history by min(SCALE * d * d, BONUS_MAX)
HISTORY_BONUS_MAX = 1600       # the largest history bonus (and malus)
THREAT_ESCAPE_MINOR = 8192     # ordering bonus of a knight or bishop leaving an attack by a pawn (malus: entering)
THREAT_ESCAPE_ROOK = 12288     # ... of a rook leaving an attack by a pawn or minor piece
THREAT_ESCAPE_QUEEN = 16384    # ... of a queen leaving an attack by a pawn, minor piece or rook

# (name, value, min, max) of every tuning constant above.
TUNABLES = (
    ("DELTA_MARGIN", DELTA_MARGIN, 0, 600),
    ("NULL_MOVE_MIN_DEPTH", NULL_MOVE_MIN_DEPTH, 1, 8),
    ("NULL_MOVE_BASE", NULL_MOVE_BASE, 1, 6),
    ("NULL_MOVE_DEPTH_DIVISOR", NULL_MOVE_DEPTH_DIVISOR, 2, 12),
    ("NULL_MOVE_EVAL_DIVISOR", NULL_MOVE_EVAL_DIVISOR, 50, 500),
    ("VERIFY_MIN_DEPTH", VERIFY_MIN_DEPTH, 6, 24),
    ("ENDGAME_MATERIAL", ENDGAME_MATERIAL, 0, 3000),
    ("IIR_MIN_DEPTH", IIR_MIN_DEPTH, 2, 10),
    ("SINGULAR_MIN_DEPTH", SINGULAR_MIN_DEPTH, 4, 12),
    ("SINGULAR_MARGIN", SINGULAR_MARGIN, 1, 6),
    ("LMR_MIN_DEPTH", LMR_MIN_DEPTH, 2, 6),
    ("LMR_MIN_MOVES", LMR_MIN_MOVES, 1, 8),
    ("LMR_BASE", LMR_BASE, 0.0, 1.5),
    ("LMR_DIVISOR", LMR_DIVISOR, 1.5, 4.0),
    ("LMR_HISTORY_DIVISOR", LMR_HISTORY_DIVISOR, 2048, 32768),
    ("RFP_MAX_DEPTH", RFP_MAX_DEPTH, 3, 12),
    ("ENDGAME_RFP_MAX_DEPTH", ENDGAME_RFP_MAX_DEPTH, 0, 8),
    ("RFP_MARGIN", RFP_MARGIN, 40, 200),
    ("LMP_MAX_DEPTH", LMP_MAX_DEPTH, 3, 12),
    ("LMP_BASE", LMP_BASE, 0, 10),
    ("FUTILITY_MAX_DEPTH", FUTILITY_MAX_DEPTH, 3, 12),
    ("FUTILITY_BASE", FUTILITY_BASE, 0, 300),
    ("FUTILITY_MARGIN", FUTILITY_MARGIN, 40, 250),
    ("SEE_QUIET_MAX_DEPTH", SEE_QUIET_MAX_DEPTH, 3, 12),
    ("SEE_QUIET_MARGIN", SEE_QUIET_MARGIN, 20, 150),
    ("SEE_CAPTURE_MAX_DEPTH", SEE_CAPTURE_MAX_DEPTH, 3, 12),
    ("SEE_CAPTURE_MARGIN", SEE_CAPTURE_MARGIN, 5, 60),
    ("PROBCUT_MIN_DEPTH", PROBCUT_MIN_DEPTH, 3, 10),
    ("PROBCUT_MARGIN", PROBCUT_MARGIN, 50, 400),
    ("PROBCUT_IMPROVING", PROBCUT_IMPROVING, 0, 150),
    ("PROBCUT_REDUCTION", PROBCUT_REDUCTION, 2, 6),
    ("HISTORY_BONUS_SCALE", HISTORY_BONUS_SCALE, 4, 64),
    ("HISTORY_BONUS_MAX", HISTORY_BONUS_MAX, 400, 6400),
    ("THREAT_ESCAPE_MINOR", THREAT_ESCAPE_MINOR, 0, 16384),
    ("THREAT_ESCAPE_ROOK", THREAT_ESCAPE_ROOK, 0, 24576),
    ("THREAT_ESCAPE_QUEEN", THREAT_ESCAPE_QUEEN, 0, 32768),
)
