"""The UCI front end: read commands from stdin, hand them to the Engine, write its reports to stdout.

Start-up: this module imports only the standard library and the project's standard-library modules, so `uci` is
answered at once; the Engine (numba, numpy, python-chess) is imported and warmed in a background thread started with
the process. Threads: the main thread reads stdin and answers `uci` and `quit` itself; every other command goes, in
order, to one command thread, which waits for the warm-up before its first command that needs the Engine (so
`isready` is answered as soon as the engine is warm, and during searches at once). Searches run in the Engine's worker
threads. All output goes through one writer (a lock, `\\n` endings, a flush per line); diagnostics go to stderr.
"""

import os
import queue
import sys
import threading
import time
import traceback

from mpcmc_engine import ENGINE_AUTHOR, ENGINE_NAME, __version__
from mpcmc_engine.uci.options import declared_options
from mpcmc_engine.uci.timeman import GoParams
from mpcmc_engine.uci.format import format_bestmove, format_board, format_explanation, format_info

GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate", "perft")
GO_FLAGS = ("infinite", "ponder")
GO_KEYWORDS = GO_NUMBERS + GO_FLAGS + ("searchmoves",)
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


def parse_go(tokens: list) -> tuple:
    """(GoParams, [problems]) from the words after `go`: any subset and order; unreadable words are reported, skipped."""
    params, problems = GoParams(), []
    index = 0
    while index < len(tokens):
        word = tokens[index].lower()
        index += 1
        if word in GO_FLAGS:
            setattr(params, word, True)
        elif word in GO_NUMBERS:
            text = tokens[index] if index < len(tokens) else ""
            try:
                value = int(text)
                index += 1
            except ValueError:
                problems.append(f"go: {word} needs an integer, not {text!r}")
                continue
            if word in ("depth", "nodes", "mate", "perft", "movetime") and value < 1:
                problems.append(f"go: {word} {value} ignored (must be at least 1)")
            else:
                setattr(params, word, value)
        elif word == "searchmoves":
            while index < len(tokens) and tokens[index].lower() not in GO_KEYWORDS:
                params.searchmoves.append(tokens[index])
                index += 1
        else:
            problems.append(f"go: unknown word {tokens[index - 1]!r} ignored")
    return params, problems


def parse_position(tokens: list) -> tuple:
    """(fen or None for startpos, [move texts]) from the words after `position`; raise ValueError when malformed."""
    if not tokens:
        raise ValueError("position needs startpos or fen")
    moves_at = next((i for i, word in enumerate(tokens) if word == "moves"), len(tokens))
    moves = tokens[moves_at + 1:]
    if tokens[0] == "startpos" and moves_at == 1:
        return None, moves
    if tokens[0] == "fen" and moves_at > 1:
        return " ".join(tokens[1:moves_at]), moves
    raise ValueError(f"malformed position command: position {' '.join(tokens)}")


def parse_setoption(tokens: list) -> tuple:
    """(name, value text or None) from the words after `setoption`; raise ValueError when malformed."""
    if not tokens or tokens[0] != "name":
        raise ValueError("setoption needs: name <name> [value <value>]")
    value_at = next((i for i, word in enumerate(tokens) if word == "value"), None)
    name = " ".join(tokens[1:value_at])
    if not name:
        raise ValueError("setoption: missing option name")
    return name, None if value_at is None else " ".join(tokens[value_at + 1:])


class UciSession:
    """One UCI conversation: the warm-up thread, the command thread and the dispatch of every command."""

    def __init__(self, output: Output, plain: bool = False):
        self.output = output
        self.plain = plain
        self.engine = None
        self.ready = threading.Event()
        self.commands = queue.Queue()

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
                if self.engine is not None:
                    self.engine.close()
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
            params, problems = parse_go(arguments)
            for problem in problems:
                self.output.error(problem)
            engine.go(params, received_ns)
        elif command == "stop":
            engine.stop()
        elif command == "ponderhit":
            engine.ponderhit(received_ns)
        elif command == "position":
            try:
                fen, moves = parse_position(arguments)
            except ValueError as error:
                self.output.error(str(error))
                return
            engine.set_position(fen, moves)
        elif command == "setoption":
            try:
                name, value = parse_setoption(arguments)
            except ValueError as error:
                self.output.error(str(error))
                return
            engine.set_option(name, value)
        elif command == "ucinewgame":
            engine.new_game()
        elif command == "d":
            for line in format_board(**engine.describe()):
                self.output.line(line)
        elif command == "eval":
            for line in format_explanation(engine.explain()):
                self.output.line(line)
        elif command == "bench":
            self._bench(arguments)

    def _bench(self, arguments: list) -> None:
        """`bench [depth]`: the search benchmark's `N nodes N nps` line."""
        try:
            depth = int(arguments[0]) if arguments else None
        except ValueError:
            self.output.error(f"bench: depth must be an integer, not {arguments[0]!r}")
            return
        result = self.engine.bench(depth)
        self.output.line(f"{result.nodes} nodes {result.nps} nps")


def run_from_argv(argv: list) -> int:
    """Speak UCI on stdin/stdout until `quit` or end of input. `--plain` switches the MPC-MC layer off (its options
    are not even declared): sub-engines are started that way so that they never recurse."""
    import argparse

    parser = argparse.ArgumentParser(prog="mpcmc-engine uci", description="speak UCI on stdin/stdout")
    parser.add_argument("--plain", action="store_true", help="plain engine: no MPC-MC options (used for sub-engines)")
    arguments = parser.parse_args(argv)
    session = UciSession(Output(), plain=arguments.plain)
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
