"""A scripted misbehaving UCI engine for the failure tests of the match and EPD runners, uci_process and MPC-MC, that
can also log the commands it receives.

Usage: python fake_uci_engine.py MODE [GOOD_MOVES]

In MODE mute it never answers `uci`, in MODE unready never `isready`. Otherwise it answers the handshake, plays the
first legal move (in UCI order) for GOOD_MOVES moves of each game (default 2) and then, by MODE:
  good     keeps playing legal moves
  crash    dies in the middle of its answer: an `info` line, then exit status 3
  hang     hangs in the middle of its answer: an `info` line, then nothing (stays alive, ignores `stop` and `quit`)
  illegal  answers a syntactically valid but illegal move (an opponent's piece to an empty square)
  garbage  prints garbage lines, then an unparsable bestmove
With the environment variable FAKE_UCI_PID_FILE set, it appends its process id to that file when it starts (so a test
can check that no such process outlives its caller); with FAKE_UCI_COMMAND_LOG set, it appends every line it receives
to that file (so a test can check what its client sent).
"""

import os
import sys
import time

import chess

MODES = ("good", "crash", "hang", "illegal", "garbage", "mute", "unready")


def send(line: str) -> None:
    """Write one protocol line and flush."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log_command(line: str) -> None:
    """Append a received line to the file named by FAKE_UCI_COMMAND_LOG, if set."""
    if os.environ.get("FAKE_UCI_COMMAND_LOG"):
        with open(os.environ["FAKE_UCI_COMMAND_LOG"], "a") as log:
            log.write(line)


def position_from(arguments: list) -> chess.Board:
    """The board of a `position startpos|fen FEN [moves ...]` command's arguments."""
    if arguments[0] == "startpos":
        board, rest = chess.Board(), arguments[1:]
    else:
        board, rest = chess.Board(" ".join(arguments[1:7])), arguments[7:]
    for move in rest[1:] if rest[:1] == ["moves"] else []:
        board.push_uci(move)
    return board


def illegal_move(board: chess.Board) -> str:
    """A move in UCI notation that moves an opponent's piece to an empty square (never legal)."""
    source = next(iter(chess.SquareSet(board.occupied_co[not board.turn] & ~board.kings)))
    target = next(square for square in chess.SQUARES if board.piece_at(square) is None)
    return chess.Move(source, target).uci()


def misbehave(mode: str, board: chess.Board) -> None:
    """Act out `mode` instead of answering `go`."""
    if mode in ("crash", "hang"):
        send("info depth 1 score cp 0")
    if mode == "crash":
        sys.exit(3)
    if mode == "hang":
        while True:
            time.sleep(60)
    if mode == "illegal":
        send(f"bestmove {illegal_move(board)}")
    if mode == "garbage":
        send("info depth x score cp banana")
        send("hello world \x01\x02")
        send("bestmove zz99")


def main() -> None:
    """Speak just enough UCI on stdin/stdout."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    good_moves = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    if mode not in MODES:
        sys.exit(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if os.environ.get("FAKE_UCI_PID_FILE"):
        with open(os.environ["FAKE_UCI_PID_FILE"], "a") as pids:
            pids.write(f"{os.getpid()}\n")
    board, moves_played = chess.Board(), 0
    for line in sys.stdin:
        log_command(line)
        command, *arguments = line.split()
        if mode == "mute" or (mode == "unready" and command == "isready"):
            continue
        if command == "uci":
            send(f"id name fake-{mode}")
            send("id author mpcmc-engine tests")
            send("uciok")
        elif command == "isready":
            send("readyok")
        elif command == "ucinewgame":
            moves_played = 0
        elif command == "position":
            board = position_from(arguments)
        elif command == "go":
            if mode != "good" and moves_played >= good_moves:
                misbehave(mode, board)
            else:
                moves_played += 1
                send("info depth 1 score cp 0")
                send(f"bestmove {min(board.legal_moves, key=chess.Move.uci).uci()}")
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
