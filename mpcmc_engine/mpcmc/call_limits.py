"""Per-call limits of sub-engine calls: fixed (`MPCMC_EvalLimit`, `MPCMC_OpponentLimit`) or split from the clock.

A limit option is `auto` (split the move's time budget over the calls and the workers), `N ms`, `N nodes` or
`depth N` (spaces optional, case-insensitive): e.g. `50ms`, `20000 nodes`, `depth 8`.
"""

import re
from dataclasses import dataclass
from typing import Optional

import chess.engine

_PATTERN = re.compile(r"^\s*(?:(\d+)\s*(ms|nodes)|depth\s*(\d+)|(auto))\s*$", re.IGNORECASE)
MIN_CALL_SECONDS = 0.005


@dataclass(frozen=True)
class CallLimit:
    """A fixed limit for one sub-engine call, or `auto` (None fields) to be split from the move's budget."""
    milliseconds: Optional[int] = None
    nodes: Optional[int] = None
    depth: Optional[int] = None

    @property
    def is_auto(self) -> bool:
        return self.milliseconds is None and self.nodes is None and self.depth is None

    def to_engine_limit(self, auto_seconds: float) -> chess.engine.Limit:
        """python-chess Limit for this call; `auto_seconds` is used when the limit is `auto`."""
        if self.nodes is not None:
            return chess.engine.Limit(nodes=self.nodes)
        if self.depth is not None:
            return chess.engine.Limit(depth=self.depth)
        seconds = self.milliseconds / 1000 if self.milliseconds is not None else auto_seconds
        return chess.engine.Limit(time=max(MIN_CALL_SECONDS, seconds))

    def __str__(self) -> str:
        if self.nodes is not None:
            return f"{self.nodes} nodes"
        if self.depth is not None:
            return f"depth {self.depth}"
        if self.milliseconds is not None:
            return f"{self.milliseconds} ms"
        return "auto"


def parse_call_limit(text: str) -> CallLimit:
    """Parse a limit option value; raise ValueError with the accepted forms when it is malformed."""
    match = _PATTERN.match(text or "")
    if not match:
        raise ValueError(f"bad sub-engine limit {text!r}: expected auto, N ms, N nodes or depth N")
    amount, unit, depth, _ = match.groups()
    if depth is not None:
        return CallLimit(depth=max(1, int(depth)))
    if amount is None:
        return CallLimit()
    if unit.lower() == "ms":
        return CallLimit(milliseconds=max(1, int(amount)))
    return CallLimit(nodes=max(1, int(amount)))


def _rounds(calls: int, workers: int) -> int:
    """Calls each of `workers` makes when `calls` are spread over them, rounded up."""
    return max(1, -(-calls // max(1, workers)))


def auto_call_seconds(budget_seconds: float, calls: int, workers: int, overhead_seconds: float) -> float:
    """Seconds for each of `calls` equal sub-engine calls run on `workers` in parallel within the budget."""
    return max(MIN_CALL_SECONDS, budget_seconds / _rounds(calls, workers) - overhead_seconds)


def least_seconds(calls: int, workers: int, call_seconds: float, overhead_seconds: float) -> float:
    """The wall time `calls` sub-engine calls of `call_seconds` each (at least MIN_CALL_SECONDS) take on `workers`."""
    return _rounds(calls, workers) * (max(MIN_CALL_SECONDS, call_seconds) + overhead_seconds)
