"""Evaluation: a linear function of feature counts, tapered between middlegame and endgame by game phase.

`mpcmc_engine.eval.features` defines the feature layout and the one numba feature extraction;
`mpcmc_engine.eval.evaluate` computes the same dot product directly for the search; `mpcmc_engine.eval.weights` loads,
validates and writes versioned weight files; `mpcmc_engine.eval.explain` breaks an evaluation down by feature block
for the UCI `eval` command.
"""
