"""The MPC-MC meta layer (Gundawar, Li, Bertsekas 2024): one-step lookahead over sub-engines.

For every legal root move a nominal-opponent engine predicts the reply and a position-evaluator engine scores the
position after it; the move whose position scores best is played. `values` holds the one scale every score is
converted to, `subengine` one supervised UCI process, `pool` the workers that own them, `limits` the per-call
budgets, and `rollout` the half-, one- and two-step choices with fortification.
"""
