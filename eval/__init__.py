"""Evaluation: a linear function of feature counts, tapered between middlegame and endgame by game phase.

`eval.features` defines the feature layout and the one numba feature extraction; `eval.evaluate` computes the same
dot product directly for the search; `eval.weights` loads, validates and writes versioned weight files;
`eval.explain` breaks an evaluation down by feature block for the UCI `eval` command.
"""
