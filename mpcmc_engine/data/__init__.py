"""The data shipped inside the package (installed by `pip install .`; provenance and licences in README.md beside
this file): perft suites, tactical and positional suites and opening books. This module is the one place that names
their paths; it only names them, whoever opens a file reports a problem with it."""

from pathlib import Path

DATA = Path(__file__).resolve().parent

# perft suites: `FEN ;D1 n ;D2 n ...` lines (EPD), or python-chess's `id`/`epd`/`perft N count` format (.perft)
PERFT_STANDARD = DATA / "perft" / "standard.epd"
PERFT_CPW = DATA / "perft" / "cpw.epd"
PERFT_CHESS960 = DATA / "perft" / "chess960.epd"
PERFT_TRICKY = DATA / "perft" / "tricky.perft"

# tactical suites: Win At Chess (EPD with `bm`), forced mates in 2 and 3 (one FEN a line, the side to move mates)
WAC = DATA / "tactical" / "wac.epd"
MATE_IN_2 = DATA / "tactical" / "mate2.fen"
MATE_IN_3 = DATA / "tactical" / "mate3.fen"

# positional suite: the Strategic Test Suite, 15 themes of 100 positions, `bm` and STS point scores (`c0`)
STS = DATA / "positional" / "sts.epd"

# openings: 635 slightly unbalanced 4-move positions (the MPC-MC experiments, the learning curve's matches),
# 34,700 balanced 8-move games (gzip-compressed PGN, for long matches), the 960 Chess960 start positions
UNBALANCED_OPENINGS = DATA / "openings" / "4mvs_+90_+99.epd"
BALANCED_OPENINGS = DATA / "openings" / "8moves_v3.pgn.gz"
CHESS960_STARTS = DATA / "openings" / "chess960.epd"
