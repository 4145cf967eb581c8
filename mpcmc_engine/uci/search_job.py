"""A plain search for one `go`: its limits (from the `go` words, the clock and the options), its root moves
(searchmoves narrowed by the Syzygy tables), its `info` lines in UCI units with a legal PV, and the bestmove and
ponder move it ends with."""

import chess

from mpcmc_engine.bitboard.position import ended_by_rules
from mpcmc_engine.search.limits import SearchInfo, SearchLimits
from mpcmc_engine.uci.format import InfoReport, wdl_from_score
from mpcmc_engine.uci.job import MoveJob
from mpcmc_engine.uci.tablebase import TablebaseError
from mpcmc_engine.uci.timeman import plan

BOUND_WORDS = {"exact": "", "lower": "lowerbound", "upper": "upperbound"}


def root_moves(position, board, searchmoves: list, tablebase, report_error) -> list:
    """The legal core moves the search may play: `searchmoves` (bad ones reported through report_error) or all,
    narrowed to those that keep the best tablebase result (a table that fails is reported and ignored)."""
    allowed = []
    for text in searchmoves:
        try:
            allowed.append(position.parse_uci(text))
        except ValueError:
            report_error(f"searchmoves: illegal move {text!r} ignored")
    allowed = allowed or position.legal_moves()
    try:
        tablebase_moves = tablebase.root_moves(board)
    except TablebaseError as error:
        report_error(f"{error}; searching without tablebases")
        tablebase_moves = None
    if tablebase_moves:
        best = {position.parse_uci(text) for text in tablebase_moves}
        allowed = [move for move in allowed if move in best] or allowed
    return allowed


def time_budget(go, board: chess.Board, move_overhead_ms: int):
    """The TimeBudget of `go` for the side to move on `board` (None when `go` sets no time limit)."""
    return plan(go, board.turn == chess.WHITE, board.ply(), move_overhead_ms)


class SearchJob(MoveJob):
    """One `go` searched by the engine's own search. The position and board are the job's own copies."""

    name = "search"

    def __init__(self, searcher, listener, position, board, go, options, allowed: list, start_ns: int):
        legal = position.legal_moves()
        budget = None if go.ponder or go.infinite else time_budget(go, board, options["Move Overhead"])
        soft, hard = budget.deadlines(start_ns) if budget else (0, 0)
        super().__init__(listener, wait_for_release=go.infinite or go.ponder, hard_deadline_ns=hard)
        self.searcher, self.position, self.board, self.go = searcher, position, board, go
        self.legal_moves = legal
        self.limits = SearchLimits(depth=go.depth, nodes=go.nodes, mate=go.mate, soft_deadline_ns=soft,
                                   hard_deadline_ns=hard, multipv=min(options["MultiPV"], max(1, len(allowed))),
                                   searchmoves=allowed if len(allowed) < len(legal) else None,
                                   algorithm=options["SearchAlgorithm"])
        self.show_wdl = options["UCI_ShowWDL"]
        self.pondering = go.ponder
        self.first_pv_move = 0
        self.reported = False  # an info line with a score has been sent

    def interrupt(self) -> None:
        self.searcher.stop()

    def ponderhit(self, now_ns: int, move_overhead_ms: int) -> None:
        """The pondered move was played: the search goes on under the clock of its `go`, counted from `now_ns`."""
        if not self.pondering:
            return
        self.pondering = False
        budget = time_budget(self.go, self.board, move_overhead_ms)
        if budget is not None:
            soft, hard = budget.deadlines(now_ns)
            self.searcher.set_deadlines(soft, hard)
            self.arm_guard(hard)
        if not self.go.infinite:
            self.release()

    def decide(self) -> tuple:
        """Search; when stopped before its first report, still report what the move is worth (clients expect a
        score)."""
        result = self.searcher.search(self.position, self.limits, on_info=self._report)
        if result.best_move and not self.reported:
            self._report(SearchInfo(max(1, result.depth), result.seldepth, 1, result.score, result.is_mate, "exact",
                                    result.nodes, result.time_ms, result.nodes * 1000 // max(1, result.time_ms),
                                    self.searcher.hashfull(), result.pv or [result.best_move]))
        return self._final_moves(result)

    def fallback(self):
        """The first move of the last PV reported when it is allowed, else the first allowed move (None if none)."""
        allowed = self.limits.searchmoves or self.legal_moves
        if not allowed:
            return None
        return self.position.uci(self.first_pv_move if self.first_pv_move in allowed else allowed[0])

    def _final_moves(self, result) -> tuple:
        """(bestmove text or None, ponder text or None): the search's move if allowed, else the fallback."""
        allowed = self.limits.searchmoves or self.legal_moves
        if result.best_move not in allowed:
            return self.fallback(), None
        position, ponder = self.position, None
        if result.ponder_move:
            position.push(result.best_move)
            if result.ponder_move in position.legal_moves():
                ponder = position.uci(result.ponder_move)
            position.pop()
        return position.uci(result.best_move), ponder

    def _report(self, info) -> None:
        """on_info callback (worker thread): convert to UCI units, keep the PV legal, send it."""
        self.reported = True
        kind, value = ("mate" if info.is_mate else "cp"), info.score
        pv = self._legal_pv(info.pv)
        if info.multipv == 1 and info.pv:
            self.first_pv_move = info.pv[0]
        wdl = wdl_from_score(kind, value) if self.show_wdl else None
        self.listener.info(InfoReport(info.depth, info.seldepth, info.multipv, kind, value,
                                      BOUND_WORDS.get(info.bound, ""), info.nodes, info.nps, info.hashfull,
                                      info.time_ms, pv, wdl, info.visits))

    def _legal_pv(self, pv: list) -> list:
        """UCI texts of the longest legal prefix of `pv`, ending at the first mate or draw it reaches."""
        board, texts = self.board, []
        for move in pv:
            text = self.position.uci(move)
            try:
                board.push(board.parse_uci(text))
            except ValueError:
                break
            texts.append(text)
            if ended_by_rules(board) is not None:
                break
        for _ in texts:
            board.pop()
        return texts
