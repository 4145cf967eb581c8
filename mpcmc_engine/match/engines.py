"""UCI engine processes as the measurement tools use them: a spec (command, name, options), starting one, and a
move request with a watchdog so that a hung engine can never hang the caller."""

import asyncio
import chess
import chess.engine

from mpcmc_engine.engine_command import EngineSpec

HANDSHAKE_TIMEOUT_S = 10.0  # `uci` -> `uciok` and option setting (python-chess's default)
READY_TIMEOUT_S = 120.0  # `isready` -> `readyok`: loading, e.g. compiling numba code on a cold cache


def open_engine(spec: EngineSpec) -> chess.engine.SimpleEngine:
    """Start the engine of `spec`, set its options and wait for `readyok` (as GUIs do: an engine may load there,
    not in its first move); raise chess.engine.EngineError or OSError on failure (the process is closed again when
    configuring fails). The process gets its own process group, so a Ctrl-C meant for the runner does not kill it in
    the middle of a game that would then be recorded as a crash."""
    engine = chess.engine.SimpleEngine.popen_uci(list(spec.command), timeout=HANDSHAKE_TIMEOUT_S, setpgrp=True)
    try:
        engine.configure(spec.options)
        ready = asyncio.wait_for(engine.protocol.ping(), READY_TIMEOUT_S)
        asyncio.run_coroutine_threadsafe(ready, engine.protocol.loop).result()
    except BaseException:
        engine.close()
        raise
    return engine


def play_within(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit,
                timeout_s: float, game: object = None,
                info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE) -> chess.engine.PlayResult:
    """Ask `engine` for a move like SimpleEngine.play, but give up after `timeout_s` seconds of wall time.

    Raises TimeoutError when the engine did not answer in time (its state is then unknown: close it),
    chess.engine.EngineTerminatedError when it died, chess.engine.EngineError on protocol errors such as an
    illegal or unparsable bestmove."""
    coroutine = asyncio.wait_for(engine.protocol.play(board, limit, game=game, info=info), timeout_s)
    future = asyncio.run_coroutine_threadsafe(coroutine, engine.protocol.loop)
    try:
        return future.result()
    except asyncio.TimeoutError as error:  # an alias of TimeoutError from Python 3.11 on
        raise TimeoutError(f"no move within {timeout_s:.3f} s") from error
