"""The MPC-MC choice at the root: half-, one- and two-step lookahead over sub-engines, optionally fortified.

- half: value(u) = the evaluator's value of the position after u, seen from our side (1 - the opponent's value).
- one:  w = nominal opponent's reply to u (from `play`); value(u) = the evaluator's value after u and w.
- two:  one-step values first; the best `keep` fraction of root moves is expanded one level deeper,
        value(u) = max over u2 of the one-step value of u2 in the position after u and w; the moves not kept are
        pruned (they keep their one-step value but may not be chosen over an expanded move). The root moves are
        ranked for the pruning by their one-step values (`two_step_rank` evaluator) or by the nominal opponent's
        own value of the position after u, as its search for the reply w reported it (opponent: no extra call).
Positions that are terminal after u or w (mate, stalemate, claimable repetition or fifty moves, insufficient
material) are scored exactly without asking an engine. Fortification also asks the evaluator for its own move and
value at the root and plays it when that value is better than the MPC-MC choice's.
Every call of the nominal opponent starts a new game (`ucinewgame`: a clean hash), and so does every call of the
evaluator unless `fresh_evaluator` is off: the memoryless evaluation the paper assumes (off, the evaluator's hash
carries over from call to call, move to move and game to game).
A sub-engine failure (SubEngineError: a call failed twice) leaves its move unscored and is listed in the decision's
`failures`; any other exception in a task is a fault of this code and propagates to the caller.
"""

import math
import threading
from dataclasses import dataclass, field
from typing import Optional

import chess

from mpcmc_engine.mpcmc.call_limits import CallLimit, auto_call_seconds, least_seconds
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.subengine import SubEngineError
from mpcmc_engine.mpcmc.values import Value, value_of_outcome

MODES = ("half", "one", "two")
TWO_STEP_RANKS = ("evaluator", "opponent")


@dataclass
class MoveResult:
    """What the lookahead found for one root move: the predicted reply (None if none) and the value for us."""
    move: chess.Move
    value: Value
    reply: Optional[chess.Move] = None
    exact: bool = False
    expanded: bool = False  # two-step: evaluated one level deeper
    opponent_value: Optional[Value] = None  # the nominal opponent's value of the position after `move`, for us


@dataclass
class Decision:
    """The move to play, its value and predicted reply, every root move's result, and how it was chosen."""
    move: chess.Move
    value: Value
    reply: Optional[chess.Move] = None
    results: list = field(default_factory=list)
    fortified: bool = False
    complete: bool = True  # False when the budget ran out before every root move considered was scored
    considered: int = 0  # root moves the first step set out to score (every legal move, or the candidates given)
    failures: list = field(default_factory=list)  # `move: reason` of each sub-engine task that failed


@dataclass(frozen=True)
class RolloutSettings:
    """How the choice is made: mode, fortification, two-step keep fraction and ranking, the evaluator's memory,
    per-call limits and overhead."""
    mode: str = "one"
    fortify: bool = False
    two_step_keep: float = 0.25
    two_step_rank: str = "evaluator"  # one of TWO_STEP_RANKS: what ranks the root moves for the pruning
    fresh_evaluator: bool = True  # a new game (clean hash) before every evaluator call
    eval_limit: CallLimit = CallLimit()
    opponent_limit: CallLimit = CallLimit()
    call_overhead_seconds: float = 0.003  # a call's round trip at 1 node, docs/results/parallel.txt
    min_call_seconds: float = 0.0  # the shortest useful `auto` call (a first step that cannot give it does not fit)

    def first_step_calls(self, legal_moves: int) -> int:
        """Sub-engine calls of the first level: one (half-step) or two per legal move, plus the fortification's
        analysis of the root."""
        return legal_moves * (1 if self.mode == "half" else 2) + self.fortify

    def first_step_seconds(self, root_moves: int, workers: int) -> float:
        """The least wall time in which the first level over `root_moves` can be scored on `workers` (fixed-time
        calls at their length, `auto` calls at min_call_seconds, any other call at the shortest a call may be)."""
        shortest = [limit.milliseconds / 1000 if limit.milliseconds is not None
                    else self.min_call_seconds if limit.is_auto else 0.0
                    for limit in (self.eval_limit, self.opponent_limit)]
        return least_seconds(self.first_step_calls(root_moves), workers, max(shortest), self.call_overhead_seconds)


def _exact_value(board: chess.Board, us: chess.Color, plies: int):
    """Exact value for `us` when the game has ended in `board`, `plies` below the root (claimable draws included),
    else None."""
    outcome = board.outcome(claim_draw=True)
    return None if outcome is None else value_of_outcome(outcome, us, plies)


class Rollout:
    """Chooses root moves with a WorkerPool; one instance serves a whole game (its pool stays warm)."""

    def __init__(self, pool: WorkerPool, settings: RolloutSettings):
        self.pool = pool
        self.settings = settings

    # --- one root move ---------------------------------------------------------------------------------------
    def _score_move(self, worker, board, move, limits, deadline, half) -> MoveResult:
        """Result of `move` in `board` for the side to move there (one task, one worker)."""
        us = board.turn
        after = board.copy()
        after.push(move)
        exact = _exact_value(after, us, 1)
        if exact is not None:
            return MoveResult(move, exact, exact=True)
        eval_limit, opponent_limit = limits
        fresh = self.settings.fresh_evaluator
        if half:
            value = worker.evaluator.evaluate(after, eval_limit, deadline, fresh)
            return MoveResult(move, value.for_opponent().later(1))
        reply, opponent_view = worker.opponent.reply(after, opponent_limit, deadline, fresh=True)
        opponent_value = None if opponent_view is None else opponent_view.for_opponent().later(1)
        after.push(reply)
        exact = _exact_value(after, us, 2)
        if exact is not None:
            return MoveResult(move, exact, reply, exact=True, opponent_value=opponent_value)
        return MoveResult(move, worker.evaluator.evaluate(after, eval_limit, deadline, fresh).later(2), reply,
                          opponent_value=opponent_value)

    def _limits(self, calls: int, budget_seconds: float):
        """(eval Limit, opponent Limit) for `calls` calls within the budget (fixed limits are kept as given)."""
        seconds = auto_call_seconds(budget_seconds, calls, self.pool.size, self.settings.call_overhead_seconds)
        return self.settings.eval_limit.to_engine_limit(seconds), self.settings.opponent_limit.to_engine_limit(seconds)

    def _score_all(self, pairs, budget_seconds, deadline, stop_event, failures, half=False, root=None):
        """Score every (board, move) pair in parallel; return ({index: MoveResult} of those finished in time,
        the evaluator's (best move, value) of `root` or None). `root` is only analysed when given (fortification).
        Sub-engine failures are appended to `failures` as `move: reason`; any other task exception is raised."""
        calls = len(pairs) * (1 if half else 2) + (root is not None)
        limits = self._limits(calls, budget_seconds)
        tasks = [lambda worker, b=b, m=m: self._score_move(worker, b, m, limits, deadline, half) for b, m in pairs]
        if root is not None:
            tasks.insert(0, lambda worker: worker.evaluator.analyse(root, limits[0], deadline,
                                                                    self.settings.fresh_evaluator))
        results, errors = self.pool.run(tasks, deadline, stop_event)
        for index, error in errors:
            if not isinstance(error, SubEngineError):
                raise error
            task = "root analysis" if root is not None and index == 0 else pairs[index - (root is not None)][1].uci()
            failures.append(f"{task}: {error}")
        scored, root_analysis = {}, None
        for index, result in results:
            if root is not None and index == 0:
                root_analysis = result
            else:
                scored[index - (root is not None)] = result
        return scored, root_analysis

    # --- the decision ------------------------------------------------------------------------------------------
    def decide(self, board: chess.Board, budget_seconds: float, deadline: float,
               stop_event: Optional[threading.Event] = None, fallback=None, candidates=None) -> Decision:
        """Choose a move in `board` (which must have one) within `deadline` (time.monotonic()).

        `budget_seconds` is the time to plan for; `fallback()` gives a move when nothing finished in time (else the
        first legal move is played). `candidates` (legal moves of `board`) restricts the first step to them; by
        default it considers every legal move, the paper's exact first step.
        """
        settings = self.settings
        moves = list(candidates) if candidates else list(board.legal_moves)
        first_budget = budget_seconds
        if settings.mode == "two":
            first_budget = budget_seconds / (1 + max(1, math.ceil(settings.two_step_keep * len(moves))))
        failures: list = []
        first, root_analysis = self._score_all([(board, m) for m in moves], first_budget, deadline, stop_event,
                                               failures, half=settings.mode == "half",
                                               root=board if settings.fortify else None)
        results = [first[i] for i in sorted(first)]
        if settings.mode == "two" and results:
            results = self._second_level(board, results, budget_seconds - first_budget, deadline, stop_event,
                                         failures)
        decision = self._best(results, board, fallback, root_analysis)
        decision.complete, decision.considered = len(first) == len(moves), len(moves)
        decision.failures = failures
        if root_analysis is not None and root_analysis[0] is not None and root_analysis[1] > decision.value:
            decision.move, decision.value = root_analysis
            decision.reply, decision.fortified = None, True
        return decision

    def _second_level(self, board, results, budget_seconds, deadline, stop_event, failures):
        """Expand the best `two_step_keep` fraction of one-step results one level deeper (see module docstring);
        return the results that may be chosen (sub-engine failures are appended to `failures`)."""
        ranked = sorted(results, key=self._rank_value, reverse=True)
        kept = [r for r in ranked[:max(1, math.ceil(self.settings.two_step_keep * len(ranked)))] if not r.exact]
        pairs, owners = [], []
        for result in kept:
            position = board.copy()
            position.push(result.move)
            position.push(result.reply)
            for move in position.legal_moves:
                pairs.append((position, move))
                owners.append(result)
        deeper, _ = self._score_all(pairs, budget_seconds, deadline, stop_event, failures)
        best_below = {}
        for index, result in deeper.items():
            owner = owners[index]
            value = result.value.later(2)  # the deeper root is two plies below ours
            if id(owner) not in best_below or value > best_below[id(owner)]:
                best_below[id(owner)] = value
        for result in kept:
            if id(result) in best_below:
                result.value = best_below[id(result)]
                result.expanded = True
        if best_below:
            # pruned moves may not be chosen over expanded ones
            return [r for r in results if r.expanded or r.exact]
        return results

    def _rank_value(self, result: MoveResult) -> Value:
        """What ranks a root move for the two-step pruning: its one-step value, or under `two_step_rank` opponent
        the nominal opponent's value of the position after it (its one-step value when the opponent reported none or
        was not asked, the move having ended the game)."""
        if self.settings.two_step_rank == "opponent" and result.opponent_value is not None:
            return result.opponent_value
        return result.value

    def _best(self, results, board, fallback, root_analysis) -> Decision:
        """The best result; when nothing was scored, the evaluator's own move, else fallback(), else any legal move."""
        if results:
            best = max(results, key=lambda r: r.value)
            return Decision(best.move, best.value, best.reply, results)
        move = root_analysis[0] if root_analysis is not None else None
        if move is None and fallback is not None:
            move = fallback()
        if move is None or move not in board.legal_moves:
            move = next(iter(board.legal_moves))
        return Decision(move, Value(0.5), None, [], complete=False)
