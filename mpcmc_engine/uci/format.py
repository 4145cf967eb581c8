"""Text of the engine's UCI output lines: `info`, `bestmove`, the `d` board. Standard library only (score_scale is
too).

The WDL model (shown with UCI_ShowWDL) maps a centipawn score to win/draw/loss per mille with two logistic curves,
as Stockfish does since 15.1 where +1.00 means a 50 % chance to win: win = 1000 / (1 + exp((100 - cp) / 50)),
loss = 1000 / (1 + exp((100 + cp) / 50)) (score_scale.win_probability at 1/50 per centipawn), draw = 1000 - win -
loss (0 cp: 119 / 762 / 119, +300 cp: 982 / 18 / 0). A mate score is 1000 0 0 for the side that mates, 0 0 1000
for the side that is mated.
"""

from dataclasses import dataclass
from typing import Optional

from mpcmc_engine.score_scale import win_probability

WDL_EVEN_CP = 100
WDL_SCALE_CP = 50


@dataclass
class InfoReport:
    """One `info` line in UCI units: score_kind 'cp' or 'mate'; bound '' (exact), 'lowerbound' or 'upperbound';
    pv as UCI move texts; wdl (w, d, l) per mille or None; visits (MCTS: simulations through the line's first move)
    or None."""

    depth: int
    seldepth: int
    multipv: int
    score_kind: str
    score: int
    bound: str
    nodes: int
    nps: int
    hashfull: int
    time_ms: int
    pv: list
    wdl: Optional[tuple] = None
    visits: Optional[int] = None


def wdl_from_score(score_kind: str, score: int) -> tuple:
    """(win, draw, loss) per mille for the side to move, from a UCI score (see the module's model)."""
    if score_kind == "mate":
        return (1000, 0, 0) if score > 0 else (0, 0, 1000)
    win = round(1000 * win_probability(score - WDL_EVEN_CP, 1 / WDL_SCALE_CP))
    loss = round(1000 * win_probability(-score - WDL_EVEN_CP, 1 / WDL_SCALE_CP))
    return win, 1000 - win - loss, loss


def format_info(report: InfoReport) -> str:
    """The `info` line: `info depth .. seldepth .. multipv .. score cp|mate N [bound] [wdl W D L] nodes .. nps ..
    hashfull .. time .. pv .. [string visits N]` (`string` takes the rest of the line, so it comes last)."""
    parts = [f"info depth {int(report.depth)} seldepth {int(report.seldepth)} multipv {int(report.multipv)}",
             f"score {report.score_kind} {int(report.score)}"]
    if report.bound:
        parts.append(report.bound)
    if report.wdl is not None:
        parts.append("wdl {} {} {}".format(*(int(value) for value in report.wdl)))
    parts.append(f"nodes {int(report.nodes)} nps {int(report.nps)} hashfull {int(report.hashfull)} "
                 f"time {int(report.time_ms)}")
    if report.pv:
        parts.append("pv " + " ".join(report.pv))
    if report.visits is not None:
        parts.append(f"string visits {int(report.visits)}")
    return " ".join(parts)


def format_bestmove(move: Optional[str], ponder: Optional[str] = None) -> str:
    """`bestmove <move> [ponder <move>]`; `bestmove 0000` when move is None (no legal move)."""
    line = f"bestmove {move or '0000'}"
    return line + f" ponder {ponder}" if move and ponder else line


def format_board(piece_at, fen: str, key: int, checkers: list) -> list:
    """Stockfish's `d` output as lines: the board (piece_at(square) gives 'P', 'n', ... or '.'), Fen, Key, Checkers."""
    rule = " +---+---+---+---+---+---+---+---+"
    lines = [rule]
    for rank in range(7, -1, -1):
        cells = " | ".join(" " if piece_at(rank * 8 + file) == "." else piece_at(rank * 8 + file) for file in range(8))
        lines += [f" | {cells} | {rank + 1}", rule]
    lines += ["   a   b   c   d   e   f   g   h", "", f"Fen: {fen}", f"Key: {key:016X}",
              "Checkers: " + " ".join(checkers)]
    return lines


def format_explanation(explanation) -> list:
    """The `eval` output as lines: for a linear evaluation one row per feature block (white's view); for a network
    its output; then the material balance, the phase and the totals."""
    if explanation.kind == "network":
        lines = [f"NNUE network output {explanation.total / 100:+.2f} (white side)"]
    else:
        lines = [f"{'block':<12} {'mg':>8} {'eg':>8} {'tapered':>8}"]
        lines += [f"{block.name:<12} {block.mg:>8} {block.eg:>8} {block.tapered:>8}" for block in explanation.blocks]
    lines += [f"material balance {explanation.material / 100:+.2f} (white side, P 1 N 3.2 B 3.3 R 5 Q 9)",
              f"phase {explanation.phase} of 24",
              f"Final evaluation {explanation.total / 100:+.2f} (white side), "
              f"{explanation.side_to_move_score / 100:+.2f} (side to move)"]
    return lines


def divide_lines(rows):
    """Stockfish's perft divide output, yielded line by line as the (move text, leaf count) rows arrive: `move: count`
    for each, then a blank line and `Nodes searched: N`."""
    total = 0
    for move, count in rows:
        total += count
        yield f"{move}: {count}"
    yield ""
    yield f"Nodes searched: {total}"
