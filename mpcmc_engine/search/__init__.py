"""Search: transposition table, move ordering, PVS alpha-beta with quiescence, MTD(bi), iterative deepening.

`mpcmc_engine.search.searcher.Searcher` is the Python face; `mpcmc_engine.search.limits` holds the value types and the
one conversion of scores to UCI; the numba search is `mpcmc_engine.search.root` (the root), `.core` (negamax),
`.quiescence`, `.pruning`, `.movepick`, `.history`, `.node` and `.predicates`, tuned by `.tunables`, over
`mpcmc_engine.search.tt`, `mpcmc_engine.search.see` and `mpcmc_engine.jit.intrinsics`;
`mpcmc_engine.search.timeman` turns a `go` clock into the search's deadlines.
"""
