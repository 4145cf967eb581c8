"""Training, in three pipelines (see docs/TRAINING.md and docs/NETWORK.md), each a subpackage:

- td/: TD self-play training of the evaluation, the linear weights or the network (`mpcmc-engine train`);
- network/: the network trained from positions labelled by search (`gen-positions`, `relabel-positions`,
  `train-network`);
- endgame/: the K+R v K and K+Q v K study against the perfect player (`endgame-study`) and the TD trainer run on one
  ending in stages (`endgame-train`).

The modules two pipelines share stay here: play (games played into TrainingRecords: td/ and network/'s
gen-positions), records (the TrainingRecord), network_model (the float network: td/ and network/),
endgame_table (the distance-to-mate tables, the perfect player and random starts: endgame/ and td/'s `endgame`
source) and curve_csv (learning-curve rows as CSV: all three). pyproject.toml's import-linter contract keeps the
order: endgame/ above td/ and network/, which do not import each other, the shared modules below.
"""
