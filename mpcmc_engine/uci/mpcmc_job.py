"""MPC-MC dispatch: whether the MPC-MC meta layer plays a `go`, and the job that decides with it.

MPC-MC plays when it is on, the `go` is neither infinite nor ponder, there is a choice (more than one legal move) and
the time planned for it can score every root move it is to consider (each `auto` call getting MPCMC_MinCallMs);
otherwise the plain search plays (said in an `info string`). With MPCMC_Candidates k fewer than the legal moves, a
plain MultiPV k search first takes MPCMC_PlainShare of the move's time and MPC-MC then scores only its k best moves
in the rest, with the plain search's move as the fallback; without, the fallback (when the sub-engines give nothing
in time or anything fails) is a short plain search.
"""

import time

import chess

from mpcmc_engine.mpcmc.report import describe_decision, describe_shortfall, mpcmc_budget
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.uci.format import InfoReport, wdl_from_score
from mpcmc_engine.uci.job import MoveJob
from mpcmc_engine.uci.search_job import time_budget

QUICK_DEPTH = 6  # the plain fallback move of MPC-MC
QUICK_SEARCH_NS = 30_000_000


def mpcmc_job(player, searcher, listener, position, board, go, options, start_ns: int):
    """The MpcmcJob that plays this `go`, or None when the plain search is to play it (see the module)."""
    if not player.config.enabled or go.infinite or go.ponder or board.legal_moves.count() <= 1:
        return None
    budget_seconds, deadline, call_limit = mpcmc_budget(go, time_budget(go, board, options["Move Overhead"], start_ns),
                                                        start_ns)
    legal = board.legal_moves.count()
    root_moves = player.root_moves(legal)
    seconds = budget_seconds * (1 - player.config.plain_share if player.narrows(legal) else 1)
    if deadline and not player.fits(root_moves, seconds):
        listener.text(f"info string mpcmc: {root_moves} root moves cannot all be scored in {1000 * seconds:.0f} ms; "
                      f"plain search")
        return None
    return MpcmcJob(player, searcher, listener, position, board, (budget_seconds, deadline, call_limit), options,
                    start_ns)


class MpcmcJob(MoveJob):
    """One `go` decided by MPC-MC: the choice reported as an `info` line, root moves not scored in time and
    sub-engine failures as `info string` lines (and every root move with UCI_ShowMPCMC)."""

    name = "MPC-MC"

    def __init__(self, player, searcher, listener, position, board, budget: tuple, options, start_ns: int):
        super().__init__(listener, wait_for_release=False)
        self.player, self.searcher, self.position, self.board = player, searcher, position, board
        self.budget_seconds, self.deadline, self.call_limit = budget
        self.planned_at = time.monotonic()  # budget_seconds counts from here
        self.show_wdl, self.show_details = options["UCI_ShowWDL"], options["UCI_ShowMPCMC"]
        self.start_ns = start_ns

    def interrupt(self) -> None:
        self.searcher.stop()  # the quick fallback search; the sub-engines watch stop_requested

    def decide(self) -> tuple:
        candidates, fallback, budget_seconds = None, self._quick_move, self.budget_seconds
        if self.player.narrows(self.board.legal_moves.count()):
            candidates = self._plain_candidates()
            fallback = lambda: candidates[0]  # noqa: E731 - the plain search's move
            budget_seconds = max(0.001, self.budget_seconds - (time.monotonic() - self.planned_at))
        decision = self.player.decide(self.board, budget_seconds, self.deadline, self.stop_requested, fallback,
                                      call_limit=self.call_limit, candidates=candidates)
        best = decision.move.uci()
        ponder = decision.reply.uci() if decision.reply is not None else None
        elapsed_ms = int((time.monotonic_ns() - self.start_ns) / 1e6)
        kind, value = decision.value.uci_score()
        for line in describe_shortfall(decision) + (
                describe_decision(decision, self.board) if self.show_details else []):
            self.listener.text(f"info string {line}")
        self.listener.info(InfoReport(1, 2, 1, kind, value, "", 0, 0, 0, elapsed_ms,
                                      [best] + ([ponder] if ponder else []),
                                      wdl_from_score(kind, value) if self.show_wdl else None))
        return best, ponder

    def fallback(self):
        """The quick plain search's move, else (it found none or failed) the first legal move."""
        try:
            move = self._quick_move()
        except Exception as error:  # reported; the first legal move is played
            self.listener.error(f"quick search failed: {error!r}")
            move = None
        return move.uci() if move is not None else self.position.uci(self.position.legal_moves()[0])

    def _plain_candidates(self) -> list:
        """The best MPCMC_Candidates root moves (chess.Move, best first) of a plain MultiPV search given
        MPCMC_PlainShare of the planned time (a quarter more at most), or the `go`'s node or depth limit."""
        limits = SearchLimits(multipv=self.player.root_moves(self.board.legal_moves.count()))
        if self.call_limit is not None:
            limits.nodes, limits.depth = self.call_limit.nodes, self.call_limit.depth
        else:
            share_ns = int(1e9 * self.budget_seconds * self.player.config.plain_share)
            limits.soft_deadline_ns = time.monotonic_ns() + share_ns
            limits.hard_deadline_ns = min(limits.soft_deadline_ns + share_ns // 4, int(1e9 * self.deadline))
        lines: dict = {}  # depth -> {line number: first move} of the completed iterations

        def keep(info):
            if info.bound == "exact" and info.pv:
                lines.setdefault(info.depth, {})[info.multipv] = info.pv[0]

        result = self.searcher.search(self.position.copy(), limits, keep)
        deepest = lines[max(lines)] if lines else {}
        moves = [result.best_move] + [deepest[number] for number in sorted(deepest)]
        return [chess.Move.from_uci(self.position.uci(move)) for move in dict.fromkeys(moves) if move]

    def _quick_move(self):
        """A move (chess.Move) from a short plain search, or None."""
        limits = SearchLimits(depth=QUICK_DEPTH, hard_deadline_ns=time.monotonic_ns() + QUICK_SEARCH_NS)
        result = self.searcher.search(self.position.copy(), limits)
        return chess.Move.from_uci(self.position.uci(result.best_move)) if result.best_move else None
