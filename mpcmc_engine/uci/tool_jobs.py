"""The jobs of the engine's tool commands, `go perft N` and `bench`, on the search thread: `stop` and `quit` end them
at once (the partial result is not written)."""

import numpy as np

from mpcmc_engine.search.bench import bench_searcher, run_bench
from mpcmc_engine.uci.format import divide_lines
from mpcmc_engine.uci.job import Job


class PerftJob(Job):
    """`go perft N`: Stockfish's divide output for a position, line by line; `stop` ends it without the total."""

    name = "perft"

    def __init__(self, listener, position, depth: int):
        super().__init__(listener)
        self.position, self.depth = position, depth
        self._stop_flag = np.zeros(1, dtype=np.int64)

    def interrupt(self) -> None:
        self._stop_flag[0] = 1

    def work(self) -> None:
        for line in divide_lines(self.position.divide(self.depth, self._stop_flag)):
            if self.stop_requested.is_set():
                self.listener.text("info string perft stopped")
                return
            self.listener.text(line)


class BenchJob(Job):
    """`bench`: the search benchmark (search.bench, its own tables); `stop` ends it without the result line."""

    name = "bench"

    def __init__(self, listener, depth: int, algorithm: str):
        super().__init__(listener)
        self.depth, self.algorithm = depth, algorithm
        self.searcher = bench_searcher()

    def interrupt(self) -> None:
        self.searcher.stop()

    def work(self) -> None:
        result = run_bench(self.depth, self.algorithm, searcher=self.searcher,
                           stop_requested=self.stop_requested)
        if self.stop_requested.is_set():
            self.listener.text("info string bench stopped")
        else:
            self.listener.text(f"{result.nodes} nodes {result.nps} nps")
