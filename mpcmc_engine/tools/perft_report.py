"""Perft output shared by the `perft` command and UCI `go perft N`: Stockfish's divide format."""

import time


def write_divide(position, depth: int, write=print) -> int:
    """Write `move: count` for every legal move, a blank line and `Nodes searched: N`; return N."""
    total = 0
    for move, count in position.divide(depth):
        write(f"{move}: {count}")
        total += count
    write("")
    write(f"Nodes searched: {total}")
    return total


def timed_perft(position, depth: int):
    """(node count, seconds) of perft(depth) on `position`."""
    start = time.perf_counter()
    nodes = position.perft(depth)
    return nodes, time.perf_counter() - start
