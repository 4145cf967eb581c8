"""The UCI front end: read commands from stdin, hand them to the Engine, write its reports to stdout.

Start-up: this module imports only the standard library and the project's standard-library modules, so `uci` is
answered at once; the Engine (numba, numpy, python-chess) is imported and warmed in a background thread started with
the process. Threads: the main thread reads stdin and answers `uci` and `quit` itself; every other command goes, in
order, to one command thread, which waits for the warm-up before its first command that needs the Engine (so
`isready` is answered as soon as the engine is warm, and during searches at once). Searches, `go perft` and `bench`
run on the Engine's search thread, so that `stop` and `quit` end them at once. All output goes through one writer (a
lock, `\\n` endings, a flush per line); diagnostics go to stderr, and so does whatever a library prints
(`sys.stdout` is stderr in a UCI session).
"""

import os
import queue
import sys
import threading
import time
import traceback
from typing import TYPE_CHECKING, Optional

from mpcmc_engine import ENGINE_AUTHOR, ENGINE_NAME, __version__
from mpcmc_engine.uci.format import format_bestmove, format_board, format_explanation, format_info
from mpcmc_engine.uci.options import declared_options

if TYPE_CHECKING:  # the Engine is imported after uciok, in the warm-up thread
    from mpcmc_engine.uci.engine import Engine

ENGINE_COMMANDS = ("isready", "ucinewgame", "setoption", "position", "go", "stop", "ponderhit", "d", "eval",
                   "bench")
IGNORED_COMMANDS = ("debug", "register")
QUIT = None  # queued after `quit` or end of input


class Output:
    """The single writer of stdout; also the Engine's listener (info, bestmove, error, text)."""

    def __init__(self, stream=None):
        self._stream = stream or sys.stdout.buffer
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        """Write one line and flush; a closed pipe ends the process (nobody is listening)."""
        with self._lock:
            try:
                self._stream.write(text.encode() + b"\n")
                self._stream.flush()
            except (BrokenPipeError, ValueError, OSError):
                os._exit(0)

    def info(self, report) -> None:
        self.line(format_info(report))

    def bestmove(self, move, ponder) -> None:
        self.line(format_bestmove(move, ponder))

    def error(self, text: str) -> None:
        self.line(f"info string error: {text}")

    def text(self, line: str) -> None:
        self.line(line)


class UciSession:
    """One UCI conversation: the warm-up thread, the command thread and the dispatch of every command."""

    def __init__(self, output: Output, plain: bool = False):
        self.output = output
        self.plain = plain
        self.engine: Optional[Engine] = None
        self.ready = threading.Event()
        self.commands: queue.Queue = queue.Queue()

    def start(self) -> None:
        """Start the warm-up and command threads."""
        threading.Thread(target=self._warm_up, name="warm-up", daemon=True).start()
        threading.Thread(target=self._run_commands, name="commands", daemon=True).start()

    def _warm_up(self) -> None:
        """Import, build and warm the Engine; report a failure on stderr and as an info string."""
        started = time.perf_counter()
        try:
            from mpcmc_engine.uci.engine import Engine

            engine = Engine(self.output, plain=self.plain)
            engine.warm_up()
            self.engine = engine
            print(f"mpcmc-engine: warm in {time.perf_counter() - started:.2f} s", file=sys.stderr)
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            self.output.error(f"the engine failed to load: {error!r}")
        finally:
            self.ready.set()

    def handle_line(self, line: str, received_ns: int) -> bool:
        """Main thread: answer `uci` at once, queue other commands; return False once the input is to end."""
        words = line.split()
        if not words:
            return True
        if words[0] == "uci":
            self._identify()
        elif words[0] == "quit":
            self.quit(at_once=self.commands.empty())
            return False
        else:
            self.commands.put((words, received_ns))
        return True

    def quit(self, at_once: bool) -> None:
        """End the program after the queued commands (a running search is stopped first); with `at_once` and the
        engine still loading, end it now."""
        if at_once and not self.ready.is_set():
            os._exit(0)
        self.commands.put(QUIT)

    def _identify(self) -> None:
        self.output.line(f"id name {ENGINE_NAME} {__version__}")
        self.output.line(f"id author {ENGINE_AUTHOR}")
        for option in declared_options(self.plain):
            self.output.line(option.declaration())
        self.output.line("uciok")

    def _run_commands(self) -> None:
        """Command thread: execute queued commands in order; on QUIT stop the search and end the process."""
        while True:
            item = self.commands.get()
            if item is QUIT:
                try:
                    if self.engine is not None:
                        self.engine.close()
                finally:
                    os._exit(0)
            words, received_ns = item
            try:
                self._execute(words, received_ns)
            except Exception as error:  # a bug in one command must not end the conversation
                traceback.print_exc(file=sys.stderr)
                self.output.error(f"{words[0]} failed: {error!r}")

    def _execute(self, words: list, received_ns: int) -> None:
        """Run one command (other than uci and quit)."""
        command, arguments = words[0], words[1:]
        if command in IGNORED_COMMANDS:
            return
        if command not in ENGINE_COMMANDS:
            self.output.error(f"unknown command {' '.join(words)!r}")
            return
        self.ready.wait()
        engine = self.engine
        if command == "isready":
            if engine is not None:
                engine.prepare()
            self.output.line("readyok")
        elif engine is None:
            self.output.error("the engine failed to load; see stderr")
            if command == "go":
                self.output.bestmove(None, None)
        elif command == "go":
            engine.go(arguments, received_ns)
        elif command == "stop":
            engine.stop()
        elif command == "ponderhit":
            engine.ponderhit(received_ns)
        elif command == "position":
            engine.set_position(arguments)
        elif command == "setoption":
            engine.set_option(arguments)
        elif command == "ucinewgame":
            engine.new_game()
        elif command == "d":
            for line in format_board(**engine.describe()):
                self.output.line(line)
        elif command == "eval":
            for line in format_explanation(engine.explain()):
                self.output.line(line)
        elif command == "bench":
            engine.bench(arguments)


def run_from_argv(argv: list) -> int:
    """Speak UCI on stdin/stdout until `quit` or end of input. `--plain` switches the MPC-MC layer off (its options
    are not even declared): sub-engines are started that way so that they never recurse."""
    import argparse

    parser = argparse.ArgumentParser(prog="mpcmc-engine uci", description="speak UCI on stdin/stdout")
    parser.add_argument("--plain", action="store_true", help="plain engine: no MPC-MC options (used for sub-engines)")
    arguments = parser.parse_args(argv)
    session = UciSession(Output(), plain=arguments.plain)
    # stdout carries UCI lines only, written through Output (which holds its buffer): whatever a library prints goes
    # to stderr (Ray prints the errors its cluster reports, e.g. a worker that died, to sys.stdout)
    sys.stdout = sys.stderr
    session.start()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        received_ns = time.monotonic_ns()
        if not raw:
            session.quit(at_once=False)
            break
        if not session.handle_line(raw.decode("utf-8", "replace"), received_ns):
            break
    threading.Event().wait()  # the command thread ends the process
    return 0
