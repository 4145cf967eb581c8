"""Shared fixtures: the engine under test is started from ONE command, overridable with `--engine-cmd`.

Default: `python -m mpcmc_engine` with the repository on PYTHONPATH.
`pytest --engine-cmd "dist/mpcmc-engine/mpcmc-engine"` runs the same suite against another build (for example the
PyInstaller executable).
"""

import contextlib
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess.engine
import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120  # readyok on a cold numba cache may take a minute on a busy 2-core machine


def pytest_addoption(parser):
    parser.addoption("--engine-cmd", default=None,
                     help="command line of the UCI engine under test (default: python -m mpcmc_engine)")


@pytest.fixture(scope="session")
def engine_command(request) -> list:
    """argv of the engine under test."""
    text = request.config.getoption("--engine-cmd")
    return shlex.split(text) if text else [sys.executable, "-m", "mpcmc_engine"]


@pytest.fixture(scope="session")
def engine_env() -> dict:
    """Environment for the engine process: the repository importable (kept after any PYTHONPATH already set)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(REPO_ROOT)]))
    return env


@contextlib.contextmanager
def engines_started(command: list, env: dict):
    """Factory start(options=None, env=None): a new python-chess SimpleEngine on `command` (in `env`, or the given
    one), `options` configured, warmed (readyok received); every engine it started is quit when the block ends."""
    opened = []
    default_env = env

    def start(options=None, env=None):
        engine = chess.engine.SimpleEngine.popen_uci(command, timeout=START_TIMEOUT_S, env=env or default_env)
        opened.append(engine)
        if options:
            engine.configure(options)
        engine.ping()
        return engine

    try:
        yield start
    finally:
        for engine in opened:
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                pass


@pytest.fixture(scope="session")
def open_engine(engine_command, engine_env):
    """Factory: a new python-chess SimpleEngine on the engine under test, warmed (readyok received)."""
    with engines_started(engine_command, engine_env) as start:
        yield start


@pytest.fixture(scope="module")
def engine(open_engine):
    """One engine process shared by a test module (options are reset by the tests that change them)."""
    return open_engine()


class RawEngine:
    """The engine under test spoken to line by line, for protocol details python-chess hides."""

    def __init__(self, command, env):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            self.lines.put(raw)
        self.lines.put(None)

    def send(self, *lines):
        for line in lines:
            self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout=START_TIMEOUT_S):
        """The next raw output line (bytes, with its ending), or None at end of output; fail on timeout."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output from the engine within {timeout} s") from None

    def read_until(self, prefix: str, timeout=START_TIMEOUT_S) -> list:
        """Decoded lines up to and including the first that starts with `prefix`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            raw = self.read_line(max(0.01, deadline - time.monotonic()))
            assert raw is not None, f"engine ended before {prefix!r}; output: {seen}"
            assert raw.endswith(b"\n") and not raw.endswith(b"\r\n"), f"bad line ending: {raw!r}"
            seen.append(raw.decode().rstrip("\n"))
            if seen[-1].startswith(prefix):
                return seen

    def lines_for(self, seconds: float) -> list:
        """Decoded lines the engine writes during the next `seconds`."""
        seen, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                raw = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if raw is None:
                break
            seen.append(raw.decode().rstrip("\n"))
        return seen

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def raw_engine(engine_command, engine_env):
    """Factory of RawEngine processes, killed after the test."""
    engines = []

    def start():
        engines.append(RawEngine(engine_command, engine_env))
        return engines[-1]

    yield start
    for raw in engines:
        raw.close()
