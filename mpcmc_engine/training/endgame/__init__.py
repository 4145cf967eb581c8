"""The K+R v K and K+Q v K study (`endgame-study`, `endgame-train`; see docs/TRAINING.md): our search against the
perfect player of the distance-to-mate tables (training/endgame_table.py, shared with the TD trainer's `endgame`
source).

study: the games against the perfect player and the three figures (WCR, WE, LHS; endgame-study); stages: the TD
trainer run on one ending in stages, each measured by the study (endgame-train); stage_curve: the figures against
the stage, plotted.
"""
