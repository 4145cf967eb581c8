"""Learning the evaluation weights by temporal differences: TD(lambda), TD-Leaf(lambda) and TD-Stem(lambda) over
games from self-play, a mentor engine or PGN files (see docs/TRAINING.md).

linear_model, network_model: the float weights and the value/gradient of positions;
td: the update rules; records: a game turned into feature arrays; pgn_games, play: where games come from;
generate: parallel game generation; checkpoint: trainer state on disk; curve: the learning curve; trainer: the loop.
"""
