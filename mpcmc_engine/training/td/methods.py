"""The TD methods' names (`--method` of `train` and `endgame-train`; the rules are in updates.py), in a module that
imports nothing, so that a command's parser can name them without loading the trainer."""

METHODS = ("td-lambda", "td-leaf", "td-stem", "td-stem-return")
LEAF_METHODS = ("td-leaf", "td-stem", "td-stem-return")  # the methods that read the principal variations' leaves
