"""Build the stand-alone executable with PyInstaller: `python packaging/build.py [--onefile] [--no-checks]`.

Output: `dist/mpcmc-engine/mpcmc-engine` (onedir, the default) or `dist/mpcmc-engine-onefile` (`--onefile`);
`.exe` on Windows. Work files go to packaging/work/. Nothing is installed: PyInstaller must already be importable
(`pip install ".[build]"`).

Steps: (1) pre-build the numba cache by running the engine from the source tree through a UCI session that
exercises every compiled path, with NUMBA_CPU_NAME=generic and a private cache directory; (2) run PyInstaller with
that cache as `numba_cache/<digest>` (mpcmc_engine.jit installs it into the user's cache on the first start), the
evaluation weights and a runtime hook that selects the generic CPU; (3) unless `--no-checks`, start the executable
from an empty user cache and another working directory and print the bundle size, `uciok`/`readyok` times and the
`bench` speed of the executable beside the Python entry point's.
"""

import argparse
import importlib.util
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HERE = REPO / "packaging"
WORK = HERE / "work"
DIST = REPO / "dist"
PACKAGES = ("mpcmc_engine",)
# Never used by the engine; setuptools and pkg_resources would also add slow runtime hooks before `uciok`.
EXCLUDED_MODULES = ("matplotlib", "scipy", "IPython", "tkinter", "PIL", "pytest", "setuptools", "pkg_resources",
                    "distutils", "numba.pycc", "numba.tests", "numpy.f2py", "cffi", "pycparser", "yaml", "jinja2",
                    "pygments", "charset_normalizer")
EXE_SUFFIX = ".exe" if os.name == "nt" else ""
ONEDIR_NAME, ONEFILE_NAME = "mpcmc-engine", "mpcmc-engine-onefile"
WARM_UP_TIMEOUT_S = 900
BENCH_DEPTH = 8
BENCH_ROUNDS = 3
BENCH_RESULT = r"\d+ nodes (\d+) nps"  # bench's last line
START_RUNS = 3

# Every command that runs numba code, so that the executable never compiles: searches (PVS, MultiPV, MTD(bi),
# Lazy SMP, clock, mate and endgame positions), perft, eval, bench, and MPC-MC with `internal` sub-engines.
WARM_UP_SESSION = (
    "position startpos moves e2e4 e7e5",
    "go depth 6",
    "go perft 3",
    "eval",
    "d",
    "setoption name MultiPV value 2",
    "go depth 5",
    "setoption name MultiPV value 1",
    "setoption name SearchAlgorithm value mtdbi",
    "go depth 6",
    "setoption name SearchAlgorithm value pvs",
    "setoption name Threads value 2",
    "go depth 6",
    "setoption name Threads value 1",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "go wtime 2000 btime 2000 winc 10 binc 10",
    "position fen 8/8/3k4/8/8/3K4/3P4/8 w - - 0 1",
    "go depth 10",
    "ucinewgame",
    "bench 3",
    "position startpos",
    "setoption name MPCMC value one",
    "setoption name MPCMC_Workers value 1",
    "setoption name MPCMC_EvalLimit value depth 2",
    "setoption name MPCMC_OpponentLimit value depth 2",
    "go movetime 5000",
)


class UciProcess:
    """An engine process spoken to line by line; the clock (`elapsed`) starts when the process is started."""

    def __init__(self, command: list, env: dict, cwd: Path):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, cwd=cwd, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, pattern: str, timeout: float) -> list:
        """The output lines up to and including the first whose start matches the regular expression `pattern`;
        raise RuntimeError if the engine ends or stays silent for `timeout` seconds first."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise RuntimeError(f"no {pattern!r} within {timeout} s; last lines: {seen[-5:]}") from None
            if line is None:
                raise RuntimeError(f"the engine ended before {pattern!r}; last lines: {seen[-5:]}")
            seen.append(line)
            if re.match(pattern, line):
                return seen

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def quit(self) -> None:
        """Send `quit` and wait for the process to end (killed after 10 s)."""
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def python_command() -> list:
    """The engine's Python entry point from the source tree."""
    return [sys.executable, "-m", "mpcmc_engine"]


def executable_path(onefile: bool) -> Path:
    """Where the build puts the executable."""
    if onefile:
        return DIST / f"{ONEFILE_NAME}{EXE_SUFFIX}"
    return DIST / ONEDIR_NAME / f"{ONEDIR_NAME}{EXE_SUFFIX}"


def source_env(**variables) -> dict:
    """The environment for the engine run from the source tree, plus `variables`."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(variables)
    return env


def last_line_of(command: str) -> str:
    """The pattern of the line that ends `command`'s output: `go perft`, `go` and `bench` run on the engine's search
    thread (`isready` is answered while they run, and the next command would stop them), anything else is followed
    by `isready`, answered once it is done."""
    if command.startswith("go perft"):
        return "Nodes searched"
    if command.startswith("go"):
        return "bestmove"
    if command.startswith("bench"):
        return BENCH_RESULT
    return "readyok"


def run_session(engine: UciProcess, commands, timeout: float) -> list:
    """Drive `engine` through `commands` after the handshake, each to the end of its output before the next is
    sent; return the last command's output lines."""
    engine.send("uci")
    engine.wait_for("uciok", timeout)
    lines: list = []
    for command in commands:
        engine.send(command)
        end = last_line_of(command)
        if end == "readyok":
            engine.send("isready")
        lines = engine.wait_for(end, timeout)
    return lines


def prebuild_cache(digest: str) -> Path:
    """Compile every numba function for the generic CPU into a fresh cache under packaging/work; return the folder of
    this source digest (bitboard/, search/, eval/ and tables.npy)."""
    cache_home = WORK / "numba-cache"
    shutil.rmtree(cache_home, ignore_errors=True)
    env = source_env(XDG_CACHE_HOME=str(cache_home), NUMBA_CPU_NAME="generic")
    env.pop("NUMBA_CPU_FEATURES", None)
    started = time.perf_counter()
    engine = UciProcess(python_command(), env, REPO)
    try:
        run_session(engine, WARM_UP_SESSION, WARM_UP_TIMEOUT_S)
    finally:
        engine.quit()
    folder = cache_home / "mpcmc-engine" / "numba" / digest
    found = sorted(p.name for p in folder.parent.iterdir())
    if found != [digest]:
        raise SystemExit(f"build: expected the cache folder {digest}, found {found} (sources changed?)")
    print(f"build: numba cache pre-built in {time.perf_counter() - started:.0f} s "
          f"({sum(1 for _ in folder.rglob('*.nbc'))} compiled entries)")
    return folder


def run_pyinstaller(onefile: bool, cache: Path, digest: str) -> None:
    """Bundle the engine with PyInstaller (the spec file and work files in packaging/work)."""
    command = [sys.executable, "-m", "PyInstaller", str(HERE / "entry.py"),
               "--name", ONEFILE_NAME if onefile else ONEDIR_NAME, "--onefile" if onefile else "--onedir",
               "--noconfirm", "--log-level", "WARN",
               "--distpath", str(DIST), "--workpath", str(WORK / "pyinstaller"), "--specpath", str(WORK),
               "--paths", str(REPO), "--runtime-hook", str(HERE / "runtime_hook.py"),
               "--add-data",
               f"{REPO / 'mpcmc_engine' / 'eval' / 'weights'}{os.pathsep}mpcmc_engine/eval/weights",
               "--add-data", f"{cache}{os.pathsep}numba_cache/{digest}"]
    for package in PACKAGES:
        command += ["--collect-submodules", package]
    for module in EXCLUDED_MODULES:
        command += ["--exclude-module", module]
    subprocess.run(command, cwd=WORK, check=True)


def bundle_size(onefile: bool) -> int:
    """Bytes of the executable (onefile) or of its whole folder (onedir)."""
    path = executable_path(onefile)
    if onefile:
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.parent.rglob("*") if p.is_file())


def measure_start(command: list, cache_home: Path, cwd: Path) -> tuple:
    """(seconds to `uciok`, seconds to `readyok`) from process start, `isready` sent at `uciok`."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    env.pop("PYTHONPATH", None)
    engine = UciProcess(command, env, cwd)
    try:
        engine.send("uci")
        engine.wait_for("uciok", 60)
        uciok = engine.elapsed()
        engine.send("isready")
        engine.wait_for("readyok", 120)
        return uciok, engine.elapsed()
    finally:
        engine.quit()


def bench_nps(command: list, env: dict, depth: int) -> int:
    """The `bench <depth>` nodes per second (after a short bench that loads everything the bench uses)."""
    engine = UciProcess(command, env, REPO)
    try:
        lines = run_session(engine, ("bench 2", f"bench {depth}"), WARM_UP_TIMEOUT_S)
        return int(re.match(BENCH_RESULT, lines[-1]).group(1))
    finally:
        engine.quit()


def check(onefile: bool, bench_depth: int) -> None:
    """Print the bundle size; `uciok`/`readyok` times of first starts (each from a new empty user cache, in another
    working directory) and of a start with the cache filled; and the best `bench` speed of alternating runs of the
    executable and the Python entry point (the machine may be shared: the best run is the least disturbed)."""
    exe = [str(executable_path(onefile))]
    print(f"check: bundle size {bundle_size(onefile) / 2**20:.0f} MiB ({executable_path(onefile)})")
    with tempfile.TemporaryDirectory(prefix="mpcmc-check-") as temporary:
        starts = [measure_start(exe, Path(temporary) / f"cache{run}", Path(temporary)) for run in range(START_RUNS)]
        print("check: first start, empty cache: " + ", ".join(f"uciok {u:.3f} s readyok {r:.3f} s" for u, r in starts))
        uciok, readyok = measure_start(exe, Path(temporary) / "cache0", Path(temporary))
        print(f"check: start with the cache filled: uciok {uciok:.3f} s readyok {readyok:.3f} s")
        exe_env = dict(os.environ, XDG_CACHE_HOME=str(Path(temporary) / "cache0"))
        nps = {"executable": [], "python -m mpcmc_engine": []}
        for _ in range(BENCH_ROUNDS):
            nps["executable"].append(bench_nps(exe, exe_env, bench_depth))
            nps["python -m mpcmc_engine"].append(bench_nps(python_command(), source_env(), bench_depth))
    best = {name: max(values) for name, values in nps.items()}
    print(f"check: bench {bench_depth}, best of {BENCH_ROUNDS}: " + ", ".join(f"{n} {v} nps" for n, v in best.items())
          + f" (executable {100 * (best['executable'] / best['python -m mpcmc_engine'] - 1):+.1f} %)")


def main(argv=None) -> int:
    """Build (and check) the executable; return the exit status."""
    parser = argparse.ArgumentParser(prog="build.py", description="build the stand-alone mpcmc-engine executable")
    parser.add_argument("--onefile", action="store_true", help="one self-extracting file instead of a folder")
    parser.add_argument("--no-checks", action="store_true", help="skip the start-up and speed measurements")
    parser.add_argument("--bench-depth", type=int, default=BENCH_DEPTH, help="depth of the speed comparison")
    arguments = parser.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        print('build: PyInstaller is not importable; install it with  pip install ".[build]"', file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO))
    from mpcmc_engine.jit import source_digest

    WORK.mkdir(parents=True, exist_ok=True)
    digest = source_digest()
    cache = prebuild_cache(digest)
    run_pyinstaller(arguments.onefile, cache, digest)
    if source_digest() != digest:
        print("build: the numba sources changed during the build; build again", file=sys.stderr)
        return 1
    print(f"build: {executable_path(arguments.onefile)}")
    if not arguments.no_checks:
        check(arguments.onefile, arguments.bench_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
