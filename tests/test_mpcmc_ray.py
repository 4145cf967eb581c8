"""MPC-MC on a Ray cluster (MPCMC_Cluster), through the engine's UCI interface, against a real cluster started here:
a head and a second node (`ray start`, one CPU each, in a temporary directory of their own), torn down by killing
their process groups only (`ray stop` would stop every Ray instance of the machine). The sub-engines are Stockfish at
fixed nodes with one thread, so every call is reproducible and the choices can be compared with the local pool's."""

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from tests.conftest import RawEngine, engines_started
from tests.processes import alive, command_line, live_children, live_pids, process_stat, wait_gone
from tests.test_mpcmc_uci import STOCKFISH

pytestmark = [pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                 reason='Ray is not installed (pip install ".[cluster]" or ".[test]")'),
              pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="Stockfish not installed at /usr/games")]

NODE_START_SECONDS = 120
POSITIONS = [
    chess.Board(),
    chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    chess.Board("r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PBPN2/PP3PPP/RN1Q1RK1 b - - 3 9"),
    chess.Board("8/5pk1/6p1/3R4/5P2/6PK/r7/8 w - - 0 45"),
]
STOCKFISH_OPTIONS = {"MPCMC_Evaluator": STOCKFISH, "MPCMC_Opponent": STOCKFISH,
                     "MPCMC_EvaluatorOptions": "Threads=1; Hash=16", "MPCMC_OpponentOptions": "Threads=1; Hash=16"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A Ray cluster of this test run: nodes started with `ray start` in their own process groups."""

    def __init__(self, env):
        self.env = env
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.temp_dir = tempfile.mkdtemp(prefix="mpcmc-ray-", dir="/tmp")  # short: Ray's socket paths live in it
        self.groups = []  # process group of each node (its `ray start` process's id)

    def add_node(self) -> int:
        """Start the head (first call) or one more node of one CPU; return its process group."""
        ray = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"
        arguments = [ray, "start", "--num-cpus=1", "--node-ip-address=127.0.0.1", "--disable-usage-stats",
                     f"--object-store-memory={100 * 2**20}"]
        if self.groups:
            arguments.append(f"--address={self.address}")
        else:
            arguments += ["--head", f"--port={self.port}", f"--temp-dir={self.temp_dir}", "--include-dashboard=false",
                          f"--dashboard-agent-listen-port={_free_port()}"]
        with open(Path(self.temp_dir) / f"node{len(self.groups)}.log", "w") as log:
            starter = subprocess.Popen(arguments, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            self.groups.append(starter.pid)
            assert starter.wait(timeout=NODE_START_SECONDS) == 0, (Path(self.temp_dir) / log.name).read_text()
        return starter.pid

    def raylets(self) -> dict:
        """{raylet pid: process group} of the live nodes."""
        return {pid: stat[2] for pid in live_pids() if (stat := process_stat(pid)) and stat[2] in self.groups
                and "/raylet " in command_line(pid)}

    def actors(self) -> dict:
        """{actor pid: raylet pid} of the engine's worker actors on this cluster."""
        raylets = self.raylets()
        return {pid: stat[1] for pid in live_pids() if (stat := process_stat(pid)) and stat[1] in raylets
                and command_line(pid).startswith("ray::WorkerActor")}

    def kill_group(self, group: int) -> None:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        for group in self.groups:
            self.kill_group(group)
        shutil.rmtree(self.temp_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def engine_env_without_ray_address(engine_env):
    """The engine's environment for Ray: no RAY_ADDRESS, no usage reports, and no token authentication (a Ray
    instance started with it writes ~/.ray/auth_token, which a later head then requires of its nodes)."""
    env = {name: value for name, value in engine_env.items() if name != "RAY_ADDRESS"}
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")
    return env


@pytest.fixture(scope="module")
def cluster(engine_env_without_ray_address):
    """A head and one more node, each of one CPU; the nodes import this checkout (PYTHONPATH), as the engine does."""
    started = Cluster(engine_env_without_ray_address)
    try:
        started.add_node()
        started.add_node()
        yield started
    finally:
        started.stop()


@pytest.fixture
def uci_engine(engine_command, engine_env_without_ray_address):
    """Factory start(options, env=None): a python-chess engine on the engine under test with `options` set and its
    sub-engines started (its `isready` joins the cluster and starts the actors and their sub-engines)."""
    with engines_started(engine_command, engine_env_without_ray_address) as start:
        yield start


def _decide(engine, board, limit):
    """(bestmove, ponder, sorted `mpcmc move` lines, other info strings) of one MPC-MC decision."""
    with engine.analysis(board, limit) as analysis:
        strings = [info["string"] for info in analysis if "string" in info]
        best = analysis.wait()
    moves = sorted(line for line in strings if line.startswith("mpcmc move "))
    return best.move, best.ponder, moves, [line for line in strings if not line.startswith("mpcmc move ")]


def test_the_ray_pool_chooses_exactly_as_the_local_pool_with_its_actors_on_both_nodes(cluster, uci_engine):
    options = {"MPCMC": "one", "MPCMC_Workers": 2, "UCI_ShowMPCMC": True, **STOCKFISH_OPTIONS}
    local = uci_engine(options)
    through_ray = uci_engine({**options, "MPCMC_Cluster": cluster.address})
    actors = cluster.actors()
    assert len(actors) == 2 and len(set(actors.values())) == 2, "one actor on each node"
    assert all(live_children(actor) for actor in actors), "each actor runs its sub-engines"
    assert not live_children(through_ray.transport.get_pid()), "no sub-engine runs beside the engine"
    for board in POSITIONS:
        expected = _decide(local, board, chess.engine.Limit(nodes=3000))
        assert _decide(through_ray, board, chess.engine.Limit(nodes=3000)) == expected, board.fen()
        assert len(expected[2]) == board.legal_moves.count(), expected
        assert [line for line in expected[3] if not line.startswith("mpcmc chose ")] == [], expected


def _kill_an_actor_in_a_call(cluster, killed: list, after: float) -> threading.Thread:
    """A thread that, `after` seconds from now, kills (SIGKILL) the first actor it sees running a call."""
    def kill():
        time.sleep(after)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            busy = [pid for pid in cluster.actors() if command_line(pid).startswith("ray::WorkerActor.call")]
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])
                return
            time.sleep(0.01)
    thread = threading.Thread(target=kill)
    thread.start()
    return thread


def test_an_actor_killed_mid_call_is_replaced_its_call_retried_and_the_move_comes_in_time(cluster, uci_engine, caplog):
    engine = uci_engine({"MPCMC": "one", "MPCMC_Workers": 2, "UCI_ShowMPCMC": True,
                         "MPCMC_Cluster": cluster.address, **STOCKFISH_OPTIONS})
    board = chess.Board()
    # fixed nodes, no deadline: every root move is scored, the killed actor's call on its replacement
    killed: list = []
    killer = _kill_an_actor_in_a_call(cluster, killed, 0.5)
    move, _, scored, others = _decide(engine, board, chess.engine.Limit(nodes=100_000))
    killer.join()
    assert killed and killed[0] not in cluster.actors() and len(cluster.actors()) == 2
    assert move in board.legal_moves and len(scored) == 20
    assert not [line for line in others if "failed" in line or "scored in time" in line], others
    # a clock: the move still comes in time
    killed.clear()
    killer = _kill_an_actor_in_a_call(cluster, killed, 0.5)
    start = time.monotonic()
    result = engine.play(board, chess.engine.Limit(white_clock=20, black_clock=20, white_inc=1, black_inc=1))
    elapsed = time.monotonic() - start
    killer.join()
    print(f"20+1 clock, an actor killed mid-call -> bestmove after {elapsed:.3f} s")
    assert killed and result.move in board.legal_moves
    assert elapsed < 3.0  # the time manager plans about 1.5 s for this clock; generous for a busy machine
    # what Ray reports about the dead worker went to stderr, not into the UCI stream
    assert not [record for record in caplog.records if "nexpected engine output" in record.getMessage()
                and "stderr" not in record.getMessage()]


def test_an_unreachable_cluster_leaves_the_local_pool_playing(raw_engine):
    engine = raw_engine()
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    engine.send("uci", "setoption name MPCMC value one", "setoption name MPCMC_Workers value 1",
                f"setoption name MPCMC_Cluster value {address}", "isready")
    start = time.monotonic()
    lines = engine.read_until("readyok")
    assert time.monotonic() - start < 10
    assert any(line.startswith(f"info string mpcmc: cannot reach the Ray cluster at {address}") and
               "local pool" in line for line in lines), lines
    assert len(live_children(engine.process.pid)) == 2, "the local pool's evaluator and opponent"
    engine.send("position startpos", "go movetime 1000")
    assert chess.Move.from_uci(engine.read_until("bestmove", timeout=30)[-1].split()[1]) in chess.Board().legal_moves


def test_option_changes_and_quit_leave_no_actor_or_sub_engine_and_the_joined_cluster_running(cluster, uci_engine):
    engine = uci_engine({"MPCMC": "one", "MPCMC_Workers": 2, "MPCMC_Cluster": cluster.address, **STOCKFISH_OPTIONS})
    engine.play(chess.Board(), chess.engine.Limit(nodes=1000))
    first = {actor: live_children(actor) for actor in cluster.actors()}
    assert len(first) == 2 and all(first.values())
    engine.configure({"MPCMC_Workers": 1})  # rebuilds the pool
    engine.ping()
    assert wait_gone(list(first) + [pid for pids in first.values() for pid in pids]) == []
    second = {actor: live_children(actor) for actor in cluster.actors()}
    assert len(second) == 1 and all(second.values())
    raylets = cluster.raylets()
    engine.quit()
    assert wait_gone(list(second) + [pid for pids in second.values() for pid in pids]) == []
    assert all(alive(raylet) for raylet in raylets), "a joined cluster is only disconnected from"


def test_an_engine_killed_leaves_no_actor_or_sub_engine_on_the_joined_cluster(cluster, uci_engine):
    engine = uci_engine({"MPCMC": "one", "MPCMC_Workers": 2, "MPCMC_Cluster": cluster.address, **STOCKFISH_OPTIONS})
    actors = {actor: live_children(actor) for actor in cluster.actors()}
    assert len(actors) == 2 and all(actors.values())
    os.kill(engine.transport.get_pid(), signal.SIGKILL)  # Ray ends the actors a dead driver owned
    assert wait_gone(list(actors) + [pid for pids in actors.values() for pid in pids], 30) == []


def test_ray_without_an_address_starts_an_instance_here_and_shuts_it_down_on_quit(uci_engine,
                                                                                   engine_env_without_ray_address):
    temp_dir = tempfile.mkdtemp(prefix="mpcmc-ray-", dir="/tmp")  # short: Ray's socket paths live in it
    env = {**engine_env_without_ray_address, "RAY_TMPDIR": temp_dir}
    try:
        _starts_and_shuts_down(uci_engine({"MPCMC": "one", "MPCMC_Workers": 1, "MPCMC_Cluster": "ray",
                                           **STOCKFISH_OPTIONS}, env))
    finally:
        shutil.rmtree(temp_dir, ignore_errors=True)


def _starts_and_shuts_down(engine):
    board = POSITIONS[1]
    assert engine.play(board, chess.engine.Limit(nodes=1000)).move in board.legal_moves
    pid = engine.transport.get_pid()
    started = live_children(pid)
    names = " ".join(command_line(p) for p in started)
    assert "gcs_server" in names and "raylet" in names, names
    descendants = [p for p in live_pids() if _descends_from(p, pid)]
    engine.quit()
    assert wait_gone(descendants, 30) == [], [command_line(p) for p in descendants if alive(p)]


def _descends_from(pid, ancestor) -> bool:
    while pid > 1:
        stat = process_stat(pid)
        if stat is None:
            return False
        if stat[1] == ancestor:
            return True
        pid = stat[1]
    return False


def test_without_ray_the_cluster_option_is_refused_and_the_local_pool_plays(tmp_path, engine_command, engine_env):
    (tmp_path / "sitecustomize.py").write_text('import sys\nsys.modules["ray"] = None  # as if Ray were missing\n')
    env = {**engine_env, "PYTHONPATH": os.pathsep.join([str(tmp_path), engine_env["PYTHONPATH"]])}
    engine = RawEngine(engine_command, env)
    try:
        _refused_and_played_locally(engine)
    finally:
        engine.close()


def _refused_and_played_locally(engine):
    engine.send("uci", "setoption name MPCMC value one", "setoption name MPCMC_Workers value 1",
                "setoption name MPCMC_Cluster value ray", "isready")
    lines = engine.read_until("readyok")
    assert any(line.startswith("info string error: MPCMC_Cluster ray needs Ray") for line in lines), lines
    assert len(live_children(engine.process.pid)) == 2, "the local pool's evaluator and opponent"
    engine.send("position startpos", "go movetime 1000")
    assert chess.Move.from_uci(engine.read_until("bestmove", timeout=30)[-1].split()[1]) in chess.Board().legal_moves


def test_the_engine_does_not_import_ray_unless_a_cluster_is_named(engine_env):
    check = ("import sys; from mpcmc_engine.uci.engine import Engine; "
             "engine = Engine(lambda *a: None); engine.set_option('name MPCMC value one'.split()); "
             "assert 'ray' not in sys.modules, 'ray imported'")
    subprocess.run([sys.executable, "-c", check], env=engine_env, check=True, timeout=120)


@pytest.mark.slow
def test_a_node_that_dies_mid_call_has_its_actor_replaced_on_another_node(cluster, uci_engine):
    spare = cluster.add_node()
    engine = uci_engine({"MPCMC": "one", "MPCMC_Workers": 2, "UCI_ShowMPCMC": True,
                         "MPCMC_Cluster": cluster.address, **STOCKFISH_OPTIONS})
    head = cluster.groups[0]
    nodes = {group for group in cluster.raylets().values() if group != head}

    def kill_a_worker_node():
        time.sleep(0.5)
        raylets = cluster.raylets()
        group = next(raylets[raylet] for raylet in cluster.actors().values() if raylets[raylet] != head)
        cluster.kill_group(group)
        killed.append(group)

    killed: list = []
    killer = threading.Thread(target=kill_a_worker_node)
    killer.start()
    board = chess.Board()
    start = time.monotonic()
    move, _, scored, others = _decide(engine, board, chess.engine.Limit(nodes=100_000))
    print(f"a node killed mid-call -> bestmove after {time.monotonic() - start:.3f} s; {others}")
    killer.join()
    assert killed and killed[0] in nodes and spare in nodes
    assert move in board.legal_moves and len(scored) == 20
    assert len(cluster.actors()) == 2
