"""The move policy's trainer: examples from the searches of gen-positions' chunks (the searched best move as the
target) and a softmax trainer of the policy head on a fixed network's hidden layer (mpcmc_engine.eval.policy)."""
