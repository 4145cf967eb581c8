"""MPC-MC at the UCI boundary: the budget of one `go`, and the `info string` lines describing a decision and what it
lacked (root moves not scored in time, sub-engine failures)."""

import time

from mpcmc_engine.mpcmc.call_limits import CallLimit

DEFAULT_BUDGET_SECONDS = 1.0  # a `go` with no clock, movetime, nodes or depth
DEADLINE_MARGIN_SECONDS = 0.05  # kept back from the hard deadline for stopping sub-engines and writing bestmove


def mpcmc_budget(go, budget, start_ns: int) -> tuple:
    """(seconds to plan for, hard deadline as time.monotonic() or 0 for none, per-call limit or None) of a `go`.

    With a clock or movetime, the time manager's soft deadline is the plan and its hard deadline (less a margin) the
    limit; the plan never reaches past the limit. Without, `go nodes N` / `go depth D` become the limit of every `auto`
    sub-engine call, with no deadline;
    a bare `go` plans DEFAULT_BUDGET_SECONDS.
    """
    if budget is not None:
        soft_ns, hard_ns = budget.deadlines(start_ns)
        now_ns = time.monotonic_ns()
        plan_seconds = max(0.001, (soft_ns - now_ns) / 1e9)
        margin = min(DEADLINE_MARGIN_SECONDS, 0.2 * (hard_ns - now_ns) / 1e9)
        deadline = max(now_ns / 1e9 + 0.001, hard_ns / 1e9 - margin)
        return min(plan_seconds, deadline - now_ns / 1e9), deadline, None
    if go.nodes is not None:
        return DEFAULT_BUDGET_SECONDS, 0.0, CallLimit(nodes=go.nodes)
    if go.depth is not None:
        return DEFAULT_BUDGET_SECONDS, 0.0, CallLimit(depth=go.depth)
    return DEFAULT_BUDGET_SECONDS, time.monotonic() + 2 * DEFAULT_BUDGET_SECONDS, None


def describe_shortfall(decision) -> list:
    """Lines for `info string` (none when every root move was scored): how many root moves were scored in time,
    and how many sub-engine tasks failed, with the first distinct reasons."""
    lines = []
    if not decision.complete:
        lines.append(f"mpcmc: {len(decision.results)}/{decision.considered} root moves scored in time")
    if decision.failures:
        reasons = list(dict.fromkeys(failure.split(": ", 1)[-1] for failure in decision.failures))
        lines.append(f"mpcmc: {len(decision.failures)} sub-engine tasks failed: {'; '.join(reasons[:3])}"
                     f"{'; ...' if len(reasons) > 3 else ''}")
    return lines


def describe_decision(decision, board) -> list:
    """Lines for `info string`: every scored root move (best first) with its predicted reply and value, then the
    choice."""
    lines = []
    for result in sorted(decision.results, key=lambda r: r.value, reverse=True):
        kind, value = result.value.uci_score()
        notes = (" exact" if result.exact else "") + (" expanded" if result.expanded else "")
        reply = result.reply.uci() if result.reply is not None else "-"
        lines.append(f"mpcmc move {result.move.uci()} reply {reply} value {100 * result.value.probability:.1f}% "
                     f"({kind} {value}){notes}")
    how = "fortified: the evaluator's own move" if decision.fortified else "best value"
    scored = f"{len(decision.results)}/{decision.considered} moves scored"
    if decision.considered < board.legal_moves.count():
        scored += f", the plain search's best {decision.considered} of {board.legal_moves.count()}"
    lines.append(f"mpcmc chose {decision.move.uci()} ({how}; {scored})")
    return lines
