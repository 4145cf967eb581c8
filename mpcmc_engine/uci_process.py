"""UCI engine processes this program starts and talks to (another program, or this engine again): how to name one
(EngineSpec, command lines), the one way every tool starts one (`start_engine`, or `spawn_engine` then `make_ready`
for a caller that must hold the process while it loads), and a move under a watchdog (`play_within`). Every step has
a timeout, so a hung engine can never hang the caller: the handshake and every later call without its own limit
(options, isready, quit) HANDSHAKE_TIMEOUT_S unless the caller says otherwise, loading (isready) READY_TIMEOUT_S, and a
move its limit plus the caller's watchdog.

The engine processes are python-chess SimpleEngine objects; a failure raises one of START_ERRORS (TimeoutError when
the engine did not answer in time)."""

import asyncio
import ctypes
import multiprocessing
import os
import shlex
import signal
import sys
from dataclasses import dataclass, field

import chess
import chess.engine

HANDSHAKE_TIMEOUT_S = 10.0  # `uci` -> `uciok`, and option setting (python-chess's default)
READY_TIMEOUT_S = 120.0  # `isready` -> `readyok`: loading, e.g. compiling numba code on a cold cache
START_ERRORS = (chess.engine.EngineError, OSError, TimeoutError)  # EngineTerminatedError is an EngineError


def parse_engine_command(text: str) -> list:
    """Split a user-given engine command line with shlex (no shell is ever used); raise ValueError if empty."""
    parts = shlex.split(text)
    if not parts:
        raise ValueError("empty engine command")
    return parts


def this_engine_command(*arguments: str) -> list:
    """Return the argv that starts this engine (frozen executable or `python -m mpcmc_engine`) plus `arguments`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *arguments]
    return [sys.executable, "-m", "mpcmc_engine", *arguments]


def describe_command(command) -> str:
    """Return a short human-readable name for an engine command (its executable's base name)."""
    return os.path.basename(command[0]) if command else "?"


def parse_option(text: str) -> tuple:
    """Split a `NAME=VALUE` option argument into (name, value); raise ValueError without `=` or a name."""
    name, separator, value = text.partition("=")
    if not separator or not name.strip():
        raise ValueError(f"option {text!r} is not NAME=VALUE")
    return name.strip(), value.strip()


@dataclass(frozen=True)
class EngineSpec:
    """How to start one engine: argv (no shell), display name, and UCI options set after the handshake."""

    command: tuple
    name: str = ""
    options: dict = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        """The given name, or the executable's base name."""
        return self.name or describe_command(self.command)


def end_with_parent() -> None:
    """In a child process (before exec, or first thing in a worker): ask Linux to SIGKILL it when the parent dies, so
    that none outlives a parent that was killed; nothing elsewhere."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass


def end_worker_with_parent() -> None:
    """First thing in a multiprocessing worker's initialiser: end_with_parent, and end at once when the parent died
    before that call (no signal is sent for a death that came first: a worker still starting when its parent was
    killed would otherwise wait forever on its task queue)."""
    end_with_parent()
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)


def _within(engine: chess.engine.SimpleEngine, coroutine, timeout_s: float, what: str):
    """Run `coroutine` on the engine's event loop; raise TimeoutError naming `what` after `timeout_s` seconds."""
    future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, timeout_s), engine.protocol.loop)
    try:
        return future.result()
    except asyncio.TimeoutError as error:  # an alias of TimeoutError from Python 3.11 on
        raise TimeoutError(f"{what} within {timeout_s:.3f} s") from error


def spawn_engine(spec: EngineSpec, *, handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
                 own_process_group: bool = False, die_with_parent: bool = False) -> chess.engine.SimpleEngine:
    """Start the process of `spec` and complete `uci` -> `uciok` within handshake_timeout_s (also the timeout of its
    later calls that have no limit of their own). own_process_group: a Ctrl-C meant for the caller does not reach it;
    die_with_parent: Linux kills it when this process dies. Raise one of START_ERRORS."""
    try:
        return chess.engine.SimpleEngine.popen_uci(list(spec.command), timeout=handshake_timeout_s,
                                                   setpgrp=own_process_group,
                                                   preexec_fn=end_with_parent if die_with_parent else None)
    except asyncio.TimeoutError as error:
        raise TimeoutError(f"no uciok within {handshake_timeout_s:.3f} s") from error


def make_ready(engine: chess.engine.SimpleEngine, options: dict, ready_timeout_s: float = READY_TIMEOUT_S) -> None:
    """Set `options`, then wait for `readyok` (as GUIs do: an engine may load there, not in its first move) within
    ready_timeout_s. Raise one of START_ERRORS."""
    if options:
        engine.configure(options)
    _within(engine, engine.protocol.ping(), ready_timeout_s, "no readyok")


def start_engine(spec: EngineSpec, *, handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
                 ready_timeout_s: float = READY_TIMEOUT_S, own_process_group: bool = False,
                 die_with_parent: bool = False) -> chess.engine.SimpleEngine:
    """spawn_engine, then make_ready with the options of `spec`: a started, configured and loaded engine. Raise one
    of START_ERRORS, the process closed again."""
    engine = spawn_engine(spec, handshake_timeout_s=handshake_timeout_s, own_process_group=own_process_group,
                          die_with_parent=die_with_parent)
    try:
        make_ready(engine, spec.options, ready_timeout_s)
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
    return _within(engine, engine.protocol.play(board, limit, game=game, info=info), timeout_s, "no move")
