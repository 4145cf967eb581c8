"""A plain search for one `go`: its limits (from the `go` words, the clock and the options), its root moves
(searchmoves narrowed by the Syzygy tables), its `info` lines in UCI units with a legal PV, and the bestmove and
ponder move it ends with."""

import random
import time

import chess

from mpcmc_engine.bitboard.position import ended_by_rules
from mpcmc_engine.search.limits import MCTS_ALGORITHMS, SearchInfo, SearchLimits
from mpcmc_engine.uci.format import InfoReport, wdl_from_score
from mpcmc_engine.uci.job import MoveJob
from mpcmc_engine.uci.strength import MATE_CP, choose_line, strength_for
from mpcmc_engine.uci.tablebase import TablebaseError
from mpcmc_engine.search.timeman import plan

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


def time_budget(go, board: chess.Board, move_overhead_ms: int, start_ns: int):
    """The TimeBudget of `go` for the side to move on `board`, counted from `start_ns` (when the `go` was read) for a
    search that starts now (None when `go` sets no time limit)."""
    elapsed_ms = max(0.0, (time.monotonic_ns() - start_ns) / 1e6)
    return plan(go, board.turn == chess.WHITE, board.ply(), move_overhead_ms, elapsed_ms)


class SearchJob(MoveJob):
    """One `go` searched by the engine's own search. The position and board are the job's own copies."""

    name = "search"

    def __init__(self, searcher, listener, position, board, go, options, allowed: list, start_ns: int):
        legal = position.legal_moves()
        budget = None if go.ponder or go.infinite else time_budget(go, board, options["Move Overhead"], start_ns)
        soft, hard = budget.deadlines(start_ns) if budget else (0, 0)
        super().__init__(listener, wait_for_release=go.infinite or go.ponder, hard_deadline_ns=hard)
        self.searcher, self.position, self.board, self.go = searcher, position, board, go
        self.legal_moves = legal
        self.shown_lines = min(options["MultiPV"], max(1, len(allowed)))
        self.strength = None if options["SearchAlgorithm"] in MCTS_ALGORITHMS else strength_for(
            options["UCI_LimitStrength"], options["UCI_Elo"], options["Skill Level"])
        nodes, lines = go.nodes, self.shown_lines
        if self.strength is not None:
            nodes = min(go.nodes or self.strength.nodes, self.strength.nodes)
            lines = min(max(lines, self.strength.lines), max(1, len(allowed)))
        self.limits = SearchLimits(depth=go.depth, nodes=nodes, mate=go.mate, soft_deadline_ns=soft,
                                   hard_deadline_ns=hard, multipv=lines,
                                   searchmoves=allowed if len(allowed) < len(legal) else None,
                                   algorithm=options["SearchAlgorithm"])
        self.last_lines: dict = {}  # multipv number -> the SearchInfo of its last completed iteration
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
        budget = time_budget(self.go, self.board, move_overhead_ms, now_ns)
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
        """(bestmove text or None, ponder text or None): the search's move (at a limited strength, the line chosen
        among the last iteration's) if allowed, else the fallback."""
        allowed = self.limits.searchmoves or self.legal_moves
        best, ponder_move = result.best_move, result.ponder_move
        if self.strength is not None and self.last_lines:
            best, ponder_move = self._chosen_line(self.strength.temperature)
        if best not in allowed:
            return self.fallback(), None
        position, ponder = self.position, None
        if ponder_move:
            position.push(best)
            if ponder_move in position.legal_moves():
                ponder = position.uci(ponder_move)
            position.pop()
        return position.uci(best), ponder

    def _chosen_line(self, temperature: float) -> tuple:
        """(move, ponder move or 0) of the line the limited strength plays, drawn by strength.choose_line at
        `temperature` from the lines of the last completed iteration."""
        lines = [info for _, info in sorted(self.last_lines.items()) if info.pv]
        scores = [(MATE_CP - abs(info.score)) * (1 if info.score > 0 else -1) if info.is_mate else info.score
                  for info in lines]
        pv = lines[choose_line(scores, temperature, random.Random())].pv
        return pv[0], pv[1] if len(pv) > 1 else 0

    def _report(self, info) -> None:
        """on_info callback (worker thread): remember a completed line, convert to UCI units, keep the PV legal and
        send it (not the lines beyond MultiPV that a limited strength searches to choose from)."""
        if info.bound == "exact":
            if info.multipv == 1:
                self.last_lines = {}
            self.last_lines[info.multipv] = info
        if info.multipv > self.shown_lines:
            return
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
