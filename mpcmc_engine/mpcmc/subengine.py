"""One supervised UCI sub-engine process: started on first use, replaced after a crash, hang or garbage output.

Every call keeps the rules of `supervision`: a watchdog kills the process past the call's budget (the blocked call
then fails at once), and the call is retried once on a fresh process while time remains. Processes are started
(uci_process) with the parent-death signal set (Linux), so none outlives this engine even when it is killed.
"""

import logging
import threading
import uuid
from typing import Optional

import chess
import chess.engine

from mpcmc_engine.mpcmc.supervision import SubEngineError, Supervised
from mpcmc_engine.mpcmc.values import Value, value_of_score
from mpcmc_engine.uci_process import START_ERRORS, EngineSpec, make_ready, spawn_engine

START_TIMEOUT_SECONDS = 30.0


class _KilledEngineNoise(logging.Filter):
    """Drops asyncio's tracebacks about a sub-engine process that died (killed on purpose at a deadline, or crashed):
    python-chess's background loop logs them at shutdown, and this module has reported the failure in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, chess.engine.EngineTerminatedError)


logging.getLogger("asyncio").addFilter(_KilledEngineNoise())


def _game(fresh: bool):
    """python-chess's `game` argument of a call: a new game id when `fresh` (python-chess then sends `ucinewgame`
    first, which clears the engine's hash), else None (one game for every call of the process: `ucinewgame` is sent
    before its first call only)."""
    return uuid.uuid4() if fresh else None


class SubEngine(Supervised):
    """A UCI process used for one role (evaluator or opponent); thread-safe for one caller at a time. A call is tried
    `attempts` times (Supervised), each on a fresh process after a failure."""

    recoverable = (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError, SubEngineError,
                   ValueError)

    def __init__(self, spec: EngineSpec, attempts: int = 2):
        super().__init__(spec, attempts)
        self._engine: Optional[chess.engine.SimpleEngine] = None
        self._lock = threading.Lock()  # guards _engine and _aborted
        self._start_lock = threading.Lock()  # one start at a time
        self._ready = False  # the current process has answered `isready`
        self.restarts = 0

    # --- process management ------------------------------------------------------------------------------------
    def _ensure_started(self) -> chess.engine.SimpleEngine:
        """The running engine, started, configured and ready if needed; raise SubEngineError when it cannot start.

        A start is never cut short by abort() (a process killed while it loads would have to load again from the
        beginning on the next call): an aborted call waits for the start to end, then fails, leaving the process
        ready. close() kills a process at any time."""
        with self._start_lock:
            with self._lock:
                if self._engine is not None:
                    return self._engine
                if self._aborted:
                    raise SubEngineError(f"{self.spec.display_name}: aborted")
            try:
                engine = spawn_engine(self.spec, handshake_timeout_s=START_TIMEOUT_SECONDS, die_with_parent=True)
            except START_ERRORS as error:
                raise SubEngineError(
                    f"{self.spec.display_name}: cannot start {' '.join(self.spec.command)}: {error}") from None
            with self._lock:
                self._engine, self._ready = engine, False
            try:
                make_ready(engine, self.spec.options, START_TIMEOUT_SECONDS)
            except START_ERRORS as error:
                self._discard(engine)
                raise SubEngineError(f"{self.spec.display_name}: not ready: {error}") from None
            with self._lock:
                self._ready = True
                if self._aborted:
                    raise SubEngineError(f"{self.spec.display_name}: aborted while starting (now ready)")
            return engine

    def _discard(self, engine) -> None:
        """Kill `engine` (if it is still the current one) so that the next call starts a fresh process."""
        with self._lock:
            if self._engine is engine:
                self._engine = None
                self.restarts += 1
        try:
            engine.close()
        except Exception:  # the process may already be gone; closing is best effort
            pass

    @property
    def pid(self):
        """Process id of the running process, or None when none runs."""
        engine = self._engine
        return engine.transport.get_pid() if engine is not None else None

    def start(self) -> None:
        """Start the process now and wait until it is ready (for warming a pool); raise SubEngineError on failure."""
        self._ensure_started()

    def abort(self) -> None:
        """Kill the process now (from any thread) unless it is still starting; a call in progress fails at once (or
        when the start ends) and is not retried."""
        with self._lock:
            engine = self._engine if self._ready else None
            self._aborted = True
        if engine is not None:
            self._discard(engine)

    def reset_abort(self) -> None:
        """Allow calls again after abort() (done when a new task takes the engine)."""
        self._aborted = False

    def close(self) -> None:
        """Ask the process to quit, then make sure it is gone."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            try:
                engine.quit()
            except Exception:  # already dead or hung: close() below kills it
                pass
            engine.close()

    # --- calls ---------------------------------------------------------------------------------------------------
    def play(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0,
             fresh: bool = False) -> chess.Move:
        """The engine's move in `board` (from `play`, as a strength-limited engine really plays); with `fresh` its
        hash is cleared first (`ucinewgame`) so that the reply is reproducible."""
        return self.reply(board, limit, deadline, fresh)[0]

    def reply(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0, fresh: bool = False):
        """(the move play() gives, the engine's value of `board` from its side to move's view as its search reported
        it, or None when it reported no score); `fresh` as in play()."""
        def action(engine, limit):
            result = engine.play(board, limit, info=chess.engine.INFO_SCORE, game=_game(fresh))
            if result.move is None or result.move not in board.legal_moves:
                raise SubEngineError(f"{self.spec.display_name}: no legal move returned")
            score = result.info.get("score")
            return result.move, None if score is None else value_of_score(score.pov(board.turn))
        return self._call(action, limit, deadline)

    def evaluate(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0,
                 fresh: bool = False) -> Value:
        """The engine's value of `board` from its side to move's view; with `fresh` its hash is cleared first
        (`ucinewgame`), so that the value depends on nothing the engine searched before."""
        return self._analyse(board, limit, deadline, chess.engine.INFO_SCORE, fresh)[1]

    def analyse(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0, fresh: bool = False):
        """(best move or None, value from the side to move's view) of the engine's analysis of `board`; `fresh` as
        in evaluate()."""
        return self._analyse(board, limit, deadline, chess.engine.INFO_SCORE | chess.engine.INFO_PV, fresh)

    def _analyse(self, board, limit, deadline, info, fresh):
        """analyse() parsing only the `info` fields asked for (a PV costs the caller a board replay per line)."""
        def action(engine, limit):
            result = engine.analyse(board, limit, info=info, game=_game(fresh))
            if "score" not in result:
                raise SubEngineError(f"{self.spec.display_name}: analysis without a score")
            pv = result.get("pv") or [None]
            return pv[0], value_of_score(result["score"].pov(board.turn))
        return self._call(action, limit, deadline)
