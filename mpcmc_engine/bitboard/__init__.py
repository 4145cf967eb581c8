"""The board: numba bitboards, legal move generation, make/unmake, Zobrist keys and perft.

`Position` (mpcmc_engine.bitboard.position) is the Python face; the numba functions live in the other modules and work
on the arrays a Position owns.
"""
