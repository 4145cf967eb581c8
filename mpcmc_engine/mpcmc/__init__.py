"""The MPC-MC meta layer (Gundawar, Li, Bertsekas 2024): one-step lookahead over sub-engines.

For every legal root move a nominal-opponent engine predicts the reply and a position-evaluator engine scores the
position after it; the move whose position scores best is played. `values` holds the one scale every score is
converted to, `supervision` the rules every sub-engine call keeps, `subengine` one supervised UCI process, `pool` the
workers that own them, `ray_pool` and `ray_cluster` workers that are Ray actors on a cluster (MPCMC_Cluster),
`call_limits` the per-call budgets, `rollout` the half-, one- and two-step choices with fortification, `config` the
MPC-MC options parsed, and `player` the engine's face that keeps the pool warm across moves.
"""
