"""Game results as the trainer's values: 1 (white won), 0.5 (draw), 0 (black won), the win probability for white
that final positions take (scores take theirs from mpcmc_engine.score_scale)."""

RESULT_VALUES = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
