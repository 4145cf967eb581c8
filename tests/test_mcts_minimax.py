"""The implicit minimax backups of `SearchAlgorithm mcts` on a hand-built tree: after a simulation each node on its
path holds 1 less the best of its children's minimax values (a proven child counted as won or lost), and selection
weighs that value beside the mean by P_MINIMAX_WEIGHT."""

import numpy as np

from mpcmc_engine.search.constants import MATE
from mpcmc_engine.search.mcts_tree import (
    MODE_PUCT, N_COUNT, N_FIRST, N_MINIMAX, N_STATE, N_VIRTUAL, N_VISITS, N_WSUM, NODE_SIZE, P_EXPLORATION,
    P_MINIMAX_WEIGHT, PARAMS_SIZE, STATE_EXPANDED, T_PATH, TRAIL_SIZE, VALUE_ONE, backup, fixed, init_node,
    select_child,
)

NO_ROOT_MOVES = np.zeros(0, dtype=np.int64)


def small_tree(grandchild_proof=0):
    """Root 0 with children 1 (value 0.6) and 2 (0.3); node 1 expanded into 3 (0.2) and 4 (0.7, or proven by
    `grandchild_proof`). Values are each node's initial value for the side that moved into it."""
    tree = np.zeros(5 * NODE_SIZE, dtype=np.int64)
    for node, value, proof in ((1, 0.6, 0), (2, 0.3, 0), (3, 0.2, 0), (4, 0.7, grandchild_proof)):
        init_node(tree, node, node, fixed(0.5), fixed(value), proof)
    for node, first in ((0, 1), (1, 3)):
        tree[node * NODE_SIZE + N_FIRST] = first
        tree[node * NODE_SIZE + N_COUNT] = 2
        tree[node * NODE_SIZE + N_STATE] = STATE_EXPANDED
    return tree


def simulate_path(tree, value, solve=True):
    """Back up `value` (for the side to move at node 3) along the path 0, 1, 3."""
    trail = np.zeros(TRAIL_SIZE, dtype=np.int64)
    trail[T_PATH:T_PATH + 3] = (0, 1, 3)
    for node in (1, 3):  # the path's virtual losses, as a simulation leaves them
        tree[node * NODE_SIZE + N_VIRTUAL] = 1
    backup(tree, trail, 2, value, solve, NO_ROOT_MOVES, 0)


def minimax(tree, node):
    return tree[node * NODE_SIZE + N_MINIMAX]


def test_the_path_takes_the_minimax_of_its_children():
    tree = small_tree()
    simulate_path(tree, 0.9)  # node 3 is worth 0.9 to its side to move: 0.1 to the side that moved into it
    assert minimax(tree, 3) == VALUE_ONE - fixed(0.9)
    assert minimax(tree, 1) == VALUE_ONE - fixed(0.7)  # node 1's mover's opponent picks node 4 (0.7)
    assert minimax(tree, 0) == VALUE_ONE - max(minimax(tree, 1), fixed(0.3))
    assert minimax(tree, 2) == fixed(0.3)  # off the path: untouched


def test_a_proven_child_counts_as_won():
    tree = small_tree(grandchild_proof=-MATE)  # node 4's side to move is mated: node 1's opponent mates
    simulate_path(tree, 0.5)
    assert minimax(tree, 1) == 0


def test_rollout_backups_leave_the_minimax_alone():
    tree = small_tree()
    simulate_path(tree, 0.9, solve=False)
    assert minimax(tree, 3) == fixed(0.2) and minimax(tree, 1) == fixed(0.6)


def test_selection_weighs_the_minimax_beside_the_mean():
    tree = small_tree()
    for node, mean, best_below in ((1, 0.5, 0.4), (2, 0.5, 0.6)):  # equal means; node 2's minimax is better
        tree[node * NODE_SIZE + N_VISITS] = 10
        tree[node * NODE_SIZE + N_WSUM] = 10 * fixed(mean)
        tree[node * NODE_SIZE + N_MINIMAX] = fixed(best_below)
    tree[N_VISITS] = 20
    params = np.zeros(PARAMS_SIZE)
    params[P_EXPLORATION] = 1.0
    assert select_child(tree, 0, params, MODE_PUCT, False, NO_ROOT_MOVES, 0) == 1  # the means tie: the first
    params[P_MINIMAX_WEIGHT] = 0.5
    assert select_child(tree, 0, params, MODE_PUCT, False, NO_ROOT_MOVES, 0) == 2
