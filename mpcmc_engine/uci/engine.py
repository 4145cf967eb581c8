"""The Engine: game state, options and the search thread, between the UCI text layer and the search.

The UCI layer (mpcmc_engine.uci.protocol) parses commands and calls the methods below from one command thread; the Engine
reports back through a listener with four methods: `info(InfoReport)`, `bestmove(move_text | None, ponder_text |
None)`, `error(text)` (sent as `info string error: text`) and `text(line)` (raw lines for d, eval, perft, bench).
Every `go` gets exactly one `bestmove`, sent from its worker thread; in `go infinite` and `go ponder` it waits for
`stop` (or `ponderhit`). This module imports numba code (through bitboard and search): the UCI layer imports it in
its warm-up thread, never before `uciok`.
"""

import sys
import threading
import time
import traceback

import chess

from mpcmc_engine.bitboard.position import STARTING_FEN, Position, board_from_fen
from mpcmc_engine.eval.weights import load_default_weights, load_weights
from mpcmc_engine.mpcmc.player import MpcmcPlayer, config_from_options
from mpcmc_engine.mpcmc.report import describe_decision, mpcmc_budget
from mpcmc_engine.mpcmc.subengine import SubEngineError
from mpcmc_engine.uci.options import DEFAULT_WEIGHTS, EMPTY, MPCMC_OPTIONS, Options
from mpcmc_engine.uci.tablebase import RootTablebase
from mpcmc_engine.uci.timeman import plan
from mpcmc_engine.uci.format import InfoReport, wdl_from_score
from mpcmc_engine.search.limits import SearchInfo, SearchLimits
from mpcmc_engine.search.searcher import Searcher

BOUND_WORDS = {"exact": "", "lower": "lowerbound", "upper": "upperbound"}
QUICK_DEPTH = 6  # the plain fallback move of MPC-MC
QUICK_SEARCH_NS = 30_000_000
STOP_POLL_S = 0.002
MPCMC_OPTION_NAMES = {option.name for option in MPCMC_OPTIONS}
GUARD_GRACE_NS = 1_000_000


class _SearchJob:
    """One `go`: what it searches, its worker thread and its events.

    done: the search has returned. release: bestmove may be sent (set at once unless infinite or pondering; then by
    stop or ponderhit). finished: bestmove has been sent.
    """

    def __init__(self, position, board, limits, go, legal_moves):
        self.position, self.board, self.limits, self.go = position, board, limits, go
        self.legal_moves = legal_moves
        self.pondering = go.ponder
        self.first_pv_move = 0
        self.reported = False  # an info line with a score has been sent
        self.done, self.release, self.finished = threading.Event(), threading.Event(), threading.Event()
        self.stop_requested = threading.Event()
        if not (go.infinite or go.ponder):
            self.release.set()
        self.guard = None


class Engine:
    """Game state (python-chess board with its history and the matching core Position), options and searches."""

    def __init__(self, listener, plain: bool = False):
        self.listener = listener
        self.options = Options(plain)
        self.mpcmc = MpcmcPlayer()
        self.searcher = Searcher(hash_mb=self.options["Hash"], threads=self.options["Threads"])
        self.tablebase = RootTablebase()
        self.weights = None  # None: the shipped weights
        self._job = None
        self._root = (STARTING_FEN, False)
        self._moves = []
        self.board = board_from_fen(STARTING_FEN)
        self.position = Position.from_board(self.board)

    def warm_up(self) -> None:
        """Load (or compile) the numba code the commands use, so that the first `go` is as fast as later ones."""
        self.searcher.search(self.position.copy(), SearchLimits(depth=2))
        self.searcher.clear()
        self.position.perft(2)

    # --- state -------------------------------------------------------------------------------------------------
    def new_game(self) -> None:
        """`ucinewgame`: finish any search and clear the hash table."""
        self.finish_search()
        self.searcher.clear()

    def set_option(self, name: str, text) -> None:
        """`setoption`: validate and apply; on a bad value report an error and keep the current value."""
        try:
            name, value = self.options.parse(name, text)
            if name in ("Hash", "Threads", "Clear Hash", "EvalFile"):
                self.finish_search()
            if name == "Hash":
                self.searcher.resize(value)
            elif name == "Threads":
                self.searcher.set_threads(value)
            elif name == "Clear Hash":
                self.searcher.clear()
            elif name == "EvalFile":
                weights = None if value == DEFAULT_WEIGHTS else load_weights(value)
                self.searcher.set_weights(weights or load_default_weights())
                self.weights = weights
            elif name == "SyzygyPath":
                self.options.store(name, EMPTY)
                self.tablebase.configure(value)
            elif name in MPCMC_OPTION_NAMES:
                self.finish_search()
                self.mpcmc.configure(config_from_options({**self.options.values, name: value}))
        except ValueError as error:
            self.listener.error(str(error))
            return
        self.options.store(name, value)

    def set_position(self, fen, moves: list) -> None:
        """`position`: fen None is the start position; on a bad FEN or move report an error and keep the position.

        When the root is unchanged and the move list extends the previous one, only the new moves are played.
        """
        root = (STARTING_FEN if fen is None else fen, self.options["UCI_Chess960"])
        try:
            if root == self._root and moves[:len(self._moves)] == self._moves:
                board, position, new_moves = self.board.copy(), self.position.copy(), moves[len(self._moves):]
            else:
                board = board_from_fen(root[0], root[1])
                position, new_moves = Position.from_board(board), moves
            for text in new_moves:
                try:
                    board.push(board.parse_uci(text))
                except ValueError:
                    raise ValueError(f"illegal move {text!r} in position {board.fen()}") from None
                position.push(position.parse_uci(text))
        except ValueError as error:
            self.listener.error(str(error))
            return
        self._root, self._moves, self.board, self.position = root, list(moves), board, position

    # --- searching ---------------------------------------------------------------------------------------------
    def prepare(self) -> None:
        """`isready`: start the MPC-MC sub-engines if they are on and not running yet (so the first move is fast)."""
        if self.mpcmc.config.enabled:
            try:
                self.mpcmc.warm_up()
            except SubEngineError as error:
                self.listener.error(str(error))

    def close(self) -> None:
        """`quit`: stop any search and quit every sub-engine process."""
        self.finish_search()
        self.mpcmc.close()

    def go(self, go, start_ns: int) -> None:
        """`go`: start a search of the current position in a worker thread (or run `go perft` here)."""
        self.finish_search()
        if go.perft is not None:
            self.perft(go.perft)
            return
        if self.mpcmc.config.enabled and not (go.infinite or go.ponder) and self.board.legal_moves.count() > 1:
            if self._start_mpcmc(go, start_ns):
                return
        position, board = self.position.copy(), self.board.copy()
        legal = position.legal_moves()
        root_moves = self._root_moves(position, board, go.searchmoves, legal)
        budget = None if go.ponder or go.infinite else plan(go, board.turn == chess.WHITE, board.ply(),
                                                            self.options["Move Overhead"])
        soft, hard = budget.deadlines(start_ns) if budget else (0, 0)
        limits = SearchLimits(depth=go.depth, nodes=go.nodes, mate=go.mate, soft_deadline_ns=soft,
                              hard_deadline_ns=hard, multipv=min(self.options["MultiPV"], max(1, len(root_moves))),
                              searchmoves=root_moves if len(root_moves) < len(legal) else None,
                              algorithm=self.options["SearchAlgorithm"])
        job = _SearchJob(position, board, limits, go, legal)
        self._job = job
        threading.Thread(target=self._search, args=(job,), name="search", daemon=True).start()
        if hard:
            self._arm_guard(job, hard)

    def stop(self) -> None:
        """`stop`: end the search; its worker then sends bestmove (also in infinite and ponder mode)."""
        job = self._job
        if job is not None:
            job.release.set()
            self._halt(job)

    def ponderhit(self, now_ns: int) -> None:
        """`ponderhit`: the pondered move was played; the search goes on under the clock of its `go`, from now."""
        job = self._job
        if job is None or not job.pondering:
            return
        job.pondering = False
        budget = plan(job.go, job.board.turn == chess.WHITE, job.board.ply(), self.options["Move Overhead"])
        if budget is not None:
            soft, hard = budget.deadlines(now_ns)
            self.searcher.set_deadlines(soft, hard)
            self._arm_guard(job, hard)
        if not job.go.infinite:
            job.release.set()

    def finish_search(self) -> None:
        """Stop the current search, if any, and wait until its bestmove has been sent."""
        job = self._job
        if job is not None:
            self.stop()
            job.finished.wait()
            self._job = None

    def _halt(self, job) -> None:
        """Ask the searcher to stop until `job`'s search has returned (a stop sent before it began is not lost)."""
        job.stop_requested.set()
        while not job.done.is_set():
            self.searcher.stop()
            job.done.wait(STOP_POLL_S)

    def _arm_guard(self, job, hard_ns: int) -> None:
        """Halt `job` shortly after its hard deadline, whatever the search does with the clock itself."""
        if job.guard is not None:
            job.guard.cancel()
        delay = max(0.0, (hard_ns + GUARD_GRACE_NS - time.monotonic_ns()) / 1e9)
        job.guard = threading.Timer(delay, self._halt, (job,))
        job.guard.daemon = True
        job.guard.start()

    def _root_moves(self, position, board, searchmoves: list, legal: list) -> list:
        """The legal moves the search may play: `searchmoves` (bad ones reported) narrowed by the tablebases."""
        allowed = []
        for text in searchmoves:
            try:
                allowed.append(position.parse_uci(text))
            except ValueError:
                self.listener.error(f"searchmoves: illegal move {text!r} ignored")
        allowed = allowed or list(legal)
        tablebase_moves = self.tablebase.root_moves(board)
        if tablebase_moves:
            best = {position.parse_uci(text) for text in tablebase_moves}
            allowed = [move for move in allowed if move in best] or allowed
        return allowed

    def _search(self, job) -> None:
        """Worker thread: search, wait for release when infinite/pondering, send exactly one bestmove."""
        result = None
        try:
            result = self.searcher.search(job.position, job.limits, on_info=lambda info: self._report(job, info))
        except Exception as error:  # a search bug must still produce a legal bestmove
            traceback.print_exc(file=sys.stderr)
            self.listener.error(f"search failed: {error!r}")
        finally:
            job.done.set()
            if job.guard is not None:
                job.guard.cancel()
        if result is not None and result.best_move and not job.reported:
            # stopped inside the first iteration: still say what the move is worth (clients expect a score)
            self._report(job, SearchInfo(max(1, result.depth), result.seldepth, 1, result.score, result.is_mate,
                                         "exact", result.nodes, result.time_ms,
                                         result.nodes * 1000 // max(1, result.time_ms), self.searcher.hashfull(),
                                         result.pv or [result.best_move]))
        job.release.wait()
        best, ponder = self._final_moves(job, result)
        self.listener.bestmove(best, ponder)
        job.finished.set()

    def _final_moves(self, job, result) -> tuple:
        """(bestmove text or None, ponder text or None): the search's move if legal, else the PV's, else the first."""
        allowed = job.limits.searchmoves or job.legal_moves
        if not allowed:
            return None, None
        best = result.best_move if result is not None else 0
        if best not in allowed:
            best = job.first_pv_move if job.first_pv_move in allowed else allowed[0]
        position = job.position
        ponder = None
        if result is not None and result.ponder_move:
            position.push(best)
            if result.ponder_move in position.legal_moves():
                ponder = position.uci(result.ponder_move)
            position.pop()
        return position.uci(best), ponder

    def _report(self, job, info) -> None:
        """on_info callback (worker thread): convert to UCI units, keep the PV legal, send it."""
        job.reported = True
        kind, value = ("mate" if info.is_mate else "cp"), info.score
        pv = self._legal_pv(job, info.pv)
        if info.multipv == 1 and info.pv:
            job.first_pv_move = info.pv[0]
        wdl = wdl_from_score(kind, value) if self.options["UCI_ShowWDL"] else None
        self.listener.info(InfoReport(info.depth, info.seldepth, info.multipv, kind, value,
                                      BOUND_WORDS.get(info.bound, ""), info.nodes, info.nps, info.hashfull,
                                      info.time_ms, pv, wdl))

    @staticmethod
    def _legal_pv(job, pv: list) -> list:
        """UCI texts of the longest legal prefix of `pv`, ending at the first mate or draw it reaches."""
        board, texts = job.board, []
        for move in pv:
            text = job.position.uci(move)
            try:
                board.push(board.parse_uci(text))
            except ValueError:
                break
            texts.append(text)
            if board.is_game_over() or board.halfmove_clock >= 100 or board.is_repetition(3):
                break
        for _ in texts:
            board.pop()
        return texts

    # --- the MPC-MC meta layer ----------------------------------------------------------------------------------
    def _start_mpcmc(self, go, start_ns: int) -> bool:
        """Start an MPC-MC decision in a worker thread, which ends with exactly one bestmove like a search; return
        False (and say why in an `info string`) when the time left cannot score every legal move, so that the plain
        search plays this move instead."""
        position, board = self.position.copy(), self.board.copy()
        budget = plan(go, board.turn == chess.WHITE, board.ply(), self.options["Move Overhead"])
        budget_seconds, deadline, call_limit = mpcmc_budget(go, budget, start_ns)
        moves = board.legal_moves.count()
        if deadline and not self.mpcmc.fits(moves, deadline - time.monotonic()):
            self.listener.text(f"info string mpcmc: {moves} legal moves cannot all be scored in "
                               f"{1000 * (deadline - time.monotonic()):.0f} ms; plain search")
            return False
        job = _SearchJob(position, board, SearchLimits(), go, position.legal_moves())
        self._job = job
        threading.Thread(target=self._mpcmc_move, args=(job, budget_seconds, deadline, call_limit, start_ns),
                         name="mpcmc", daemon=True).start()
        return True

    def _mpcmc_move(self, job, budget_seconds, deadline, call_limit, start_ns: int) -> None:
        """Worker thread: decide with MPC-MC, report the choice (and every root move when asked), send bestmove."""
        best, ponder = None, None
        try:
            decision = self.mpcmc.decide(job.board, budget_seconds, deadline, job.stop_requested,
                                         lambda: self._quick_move(job), call_limit=call_limit)
            best = decision.move.uci()
            ponder = decision.reply.uci() if decision.reply is not None else None
            elapsed_ms = int((time.monotonic_ns() - start_ns) / 1e6)
            kind, value = decision.value.uci_score()
            wdl = wdl_from_score(kind, value) if self.options["UCI_ShowWDL"] else None
            if self.options["UCI_ShowMPCMC"]:
                for line in describe_decision(decision, job.board):
                    self.listener.text(f"info string {line}")
            self.listener.info(InfoReport(1, 2, 1, kind, value, "", 0, 0, 0, elapsed_ms,
                                          [best] + ([ponder] if ponder else []), wdl))
        except Exception as error:  # any fault still ends in a legal move in time
            traceback.print_exc(file=sys.stderr)
            self.listener.error(f"MPC-MC failed: {error!r}")
            best, ponder = self._quick_move(job), None
            best = best.uci() if best is not None else job.position.uci(job.legal_moves[0])
        finally:
            job.done.set()
        self.listener.bestmove(best, ponder)
        job.finished.set()

    def _quick_move(self, job):
        """A move from a short plain search (the fallback when sub-engines gave nothing in time), or None."""
        limits = SearchLimits(depth=QUICK_DEPTH, hard_deadline_ns=time.monotonic_ns() + QUICK_SEARCH_NS)
        result = self.searcher.search(job.position.copy(), limits)
        return chess.Move.from_uci(job.position.uci(result.best_move)) if result.best_move else None

    # --- extras ------------------------------------------------------------------------------------------------
    def perft(self, depth: int) -> None:
        """`go perft N`: Stockfish's divide output for the current position."""
        from mpcmc_engine.tools.perft_report import write_divide

        write_divide(self.position.copy(), max(1, depth), self.listener.text)

    def describe(self) -> dict:
        """`d`: piece_at, fen, key and checkers of the current position."""
        board = self.board
        return {"piece_at": self.position.piece_at,
                "fen": board.shredder_fen() if board.chess960 else board.fen(),
                "key": self.position.key,
                "checkers": [chess.square_name(square) for square in board.checkers()]}

    def explain(self):
        """`eval`: the evaluation of the current position broken down by feature block (mpcmc_engine.eval.explain)."""
        from mpcmc_engine.eval.explain import explain

        self.finish_search()
        return explain(self.position.copy(), self.weights)

    def bench(self, depth):
        """`bench [depth]`: the search's fixed benchmark (mpcmc_engine.search.bench, its own tables) as a BenchResult."""
        from mpcmc_engine.search.bench import BENCH_DEPTH, run_bench

        self.finish_search()
        return run_bench(depth or BENCH_DEPTH, self.options["SearchAlgorithm"])
