"""MPC-MC as the engine sees it: a configuration (mpcmc.config) in, a decision out; the worker pool kept warm across
moves. When MPCMC_Cluster names a Ray cluster the pool's workers are Ray actors (ray_pool), and a cluster that cannot
be reached leaves the local pool playing (said through `notify`).
"""

from dataclasses import replace
from typing import Callable, Optional

from mpcmc_engine.mpcmc.config import LOCAL, MpcmcConfig
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.rollout import Rollout


class MpcmcPlayer:
    """Owns the worker pool for the current configuration and makes decisions with it; `notify(text)` is told, as
    one line, when a Ray cluster cannot be reached and the local pool plays instead."""

    def __init__(self, notify: Callable[[str], None] = lambda text: None):
        self.config = MpcmcConfig()
        self.notify = notify
        self._pool: Optional[WorkerPool] = None

    def configure(self, config: MpcmcConfig) -> None:
        """Adopt a configuration; the pool is rebuilt only when its engines, size or cluster change."""
        if self._pool is not None and (config.evaluator, config.opponent, config.workers, config.cluster) != (
                self.config.evaluator, self.config.opponent, self.config.workers, self.config.cluster):
            self.close()
        self.config = config

    def _ensure_pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = self._new_pool()
        return self._pool

    def _new_pool(self) -> WorkerPool:
        """The configured pool: Ray actors when MPCMC_Cluster names a cluster that can be reached, else local."""
        config = self.config
        assert config.evaluator is not None and config.opponent is not None  # config_from_options names both
        if config.cluster != LOCAL:
            from mpcmc_engine.mpcmc import ray_pool  # imports Ray: only when a cluster is named
            from mpcmc_engine.mpcmc.ray_cluster import ClusterUnavailableError

            try:
                return ray_pool.RayWorkerPool(config.cluster, config.workers, config.evaluator, config.opponent)
            except ClusterUnavailableError as error:
                self.notify(f"mpcmc: {error}; the sub-engines run here (local pool)")
        return WorkerPool(config.workers, config.evaluator, config.opponent)

    def root_moves(self, legal_moves: int) -> int:
        """How many root moves the first step scores in a position with `legal_moves` (all, or the candidates)."""
        candidates = self.config.candidates
        return min(candidates, legal_moves) if candidates else legal_moves

    def narrows(self, legal_moves: int) -> bool:
        """Whether a plain search picks the candidates first (MPCMC_Candidates is fewer than the legal moves)."""
        return self.root_moves(legal_moves) < legal_moves

    def fits(self, root_moves: int, seconds: float) -> bool:
        """Whether the first level over `root_moves` root moves can be scored in `seconds` on the configured
        workers, every `auto` call getting at least MPCMC_MinCallMs."""
        return self.config.rollout.first_step_seconds(root_moves, self.config.workers) <= seconds

    def warm_up(self) -> None:
        """Start the sub-engine processes now (so that the first move does not pay for it)."""
        self._ensure_pool().start(with_opponents=self.config.mode != "half")

    def decide(self, board, budget_seconds, deadline, stop_event=None, fallback=None, call_limit=None,
               candidates=None):
        """Decision for `board` under the current configuration (see Rollout.decide; `candidates` restricts the
        first step); `call_limit` replaces the `auto` per-call limits (e.g. `go nodes N` gives every sub-engine call
        N nodes)."""
        settings = self.config.rollout
        if call_limit is not None:
            settings = replace(
                settings, eval_limit=call_limit if settings.eval_limit.is_auto else settings.eval_limit,
                opponent_limit=call_limit if settings.opponent_limit.is_auto else settings.opponent_limit)
        return Rollout(self._ensure_pool(), settings).decide(board, budget_seconds, deadline, stop_event, fallback,
                                                             candidates)

    def close(self) -> None:
        """Quit every sub-engine process (and Ray actor, disconnecting from the cluster)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
