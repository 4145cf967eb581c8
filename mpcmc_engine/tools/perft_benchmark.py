"""The perft speed benchmark: this engine against python-chess and Stockfish on the same positions, same run."""

import os
import subprocess
import threading
import time

import chess

STOCKFISH = "/usr/games/stockfish"
STOCKFISH_TIMEOUT_S = 300.0  # Stockfish is killed (and RuntimeError raised) when its perft takes longer
# (name, FEN, depth for this engine and Stockfish, depth for python-chess)
POSITIONS = [
    ("startpos", chess.STARTING_FEN, 6, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 3),
]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """Leaf count by python-chess with bulk counting at the last ply (the reference implementation)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def _line_starting(process, prefix: str) -> str:
    """The next line of `process`'s output that starts with `prefix`; RuntimeError when the output ends first."""
    while line := process.stdout.readline():
        if line.startswith(prefix):
            return line
    raise RuntimeError(f"Stockfish ended (or was killed) before printing {prefix!r}")


def stockfish_perft(fen: str, depth: int, command: str = STOCKFISH):
    """(nodes, seconds) of Stockfish's `go perft depth`, timed from the command to its `Nodes searched` line; raise
    RuntimeError when it ends, or is killed after STOCKFISH_TIMEOUT_S, before printing it."""
    process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert process.stdin is not None and process.stdout is not None  # both are pipes
    watchdog = threading.Timer(STOCKFISH_TIMEOUT_S, process.kill)
    watchdog.start()
    try:
        process.stdin.write(f"uci\nposition fen {fen}\nisready\n")
        process.stdin.flush()
        _line_starting(process, "readyok")
        start = time.perf_counter()
        process.stdin.write(f"go perft {depth}\n")
        process.stdin.flush()
        line = _line_starting(process, "Nodes searched:")
        return int(line.split(":")[1]), time.perf_counter() - start
    finally:
        watchdog.cancel()
        process.kill()
        process.wait()


def _timed(function, *arguments):
    start = time.perf_counter()
    nodes = function(*arguments)
    return nodes, time.perf_counter() - start


def run_perft_benchmark(write=print) -> None:
    """Measure and print nodes per second of this engine, python-chess and (when installed) Stockfish."""
    from mpcmc_engine.bitboard.position import Position

    Position().perft(3)  # compile or load the numba code before timing
    rows = []
    for name, fen, depth, reference_depth in POSITIONS:
        ours_nodes, ours_time = _timed(Position(fen).perft, depth)
        pc_nodes, pc_time = _timed(python_chess_perft, chess.Board(fen), reference_depth)
        row = {"name": name, "depth": depth, "nodes": ours_nodes, "nps": ours_nodes / ours_time,
               "pc_depth": reference_depth, "pc_nps": pc_nodes / pc_time, "sf_nps": None}
        if os.path.exists(STOCKFISH):
            sf_nodes, sf_time = stockfish_perft(fen, depth)
            if sf_nodes != ours_nodes:
                write(f"warning: Stockfish counts {sf_nodes} nodes, this engine {ours_nodes}")
            row["sf_nps"] = sf_nodes / sf_time
        rows.append(row)
    write(f"{'position':<10} {'depth':>5} {'nodes':>12} {'M nodes/s':>10} {'python-chess':>16} {'x':>6}"
          f" {'Stockfish':>10} {'%':>6}")
    for row in rows:
        stockfish = (f"{row['sf_nps'] / 1e6:>10.1f} {100 * row['nps'] / row['sf_nps']:>5.0f}%"
                     if row["sf_nps"] else f"{'n/a':>10} {'':>6}")
        write(f"{row['name']:<10} {row['depth']:>5} {row['nodes']:>12} {row['nps'] / 1e6:>10.1f}"
              f" {row['pc_nps'] / 1e6:>9.2f} (d{row['pc_depth']}) {row['nps'] / row['pc_nps']:>5.0f}x {stockfish}")
