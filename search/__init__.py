"""Search: transposition table, move ordering, PVS alpha-beta with quiescence, MTD(bi), iterative deepening.

`search.searcher.Searcher` is the Python face; `search.limits` holds the value types and the one conversion of
scores to UCI; the numba core is in `search.core` (nodes), `search.tt`, `search.see` and `search.control`.
"""
