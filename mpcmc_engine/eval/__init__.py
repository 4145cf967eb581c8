"""Evaluation: the NNUE network the engine plays with by default, and the linear function of feature counts (tapered
between middlegame and endgame by game phase) that `EvalFile <linear>` selects and the TD trainer learns.

`mpcmc_engine.eval.features` defines the linear feature layout and the one numba feature extraction;
`mpcmc_engine.eval.weights` loads, validates and writes versioned weight files; `mpcmc_engine.eval.network_features`,
`network` and `network_eval` are the network's inputs, files and incrementally updated numba evaluation;
`mpcmc_engine.eval.evaluate` dispatches the search's evaluation by kind; `mpcmc_engine.eval.eval_file` loads either
file and names the shipped ones; `mpcmc_engine.eval.explain` breaks an evaluation down for the UCI `eval` command.
"""
