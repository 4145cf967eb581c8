"""TD self-play training of the evaluation (`mpcmc-engine train`): TD(lambda), TD-Leaf(lambda) and TD-Stem(lambda)
over games from self-play, a mentor engine, PGN files or an endgame's random starts (see docs/TRAINING.md).

trainer: the loop; generate: games in batches (in parallel); updates: the update rules; methods: their names;
trainable: the linear evaluation or the network as the loop needs it; linear_model: the float linear weights (the
network's float twin is training/network_model.py); checkpoint: the trainer's state on disk; learning_curve: the
curve's CSV and plot; probes: the curve's strength measures; pgn_games: PGN files as training material.
"""
