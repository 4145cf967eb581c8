"""Workers whose sub-engines live in Ray actors (MPCMC_Cluster `ray` or `HOST:PORT`): one actor per worker, on the
node where Ray places it, owns that worker's evaluator and nominal-opponent processes.

The pool is the local one (pool.WorkerPool: its threads, deadline, grace and stop) with RemoteWorker workers: the
rollout's tasks run in this process and send each sub-engine call to their worker's actor, which makes it with a
local SubEngine there. Every call keeps the rules of `supervision` at both ends: in the actor under the sub-engine's
own watchdog, tried once; here (RemoteSubEngine) under a watchdog RAY_CALL_GRACE_SECONDS longer, retried once. A
sub-engine that failed is restarted in its actor before the retry; an actor that died (killed, or its node died) or
did not answer in time is killed and replaced by a new one, wherever Ray places it. Deadlines cross machines as
seconds left, never as clock readings. Each actor asks Ray for one CPU (a worker runs one search at a time), and Ray
spreads the actors over the nodes; a stop kills the actors of busy workers, as the local pool kills their processes.
"""

import threading
import time

import chess
import chess.engine
import ray
import ray.exceptions

from mpcmc_engine.mpcmc.pool import Worker, WorkerPool
from mpcmc_engine.mpcmc.ray_cluster import RayConnection
from mpcmc_engine.mpcmc.subengine import START_TIMEOUT_SECONDS
from mpcmc_engine.mpcmc.supervision import SubEngineError, Supervised, call_budget
from mpcmc_engine.mpcmc.values import Value
from mpcmc_engine.uci_process import EngineSpec

RAY_CALL_GRACE_SECONDS = 1.0  # a remote call's watchdog allows this much more than the sub-engine's own
ACTOR_START_SECONDS = START_TIMEOUT_SECONDS + 30.0  # Ray places and starts the actor, then its sub-engine starts
ACTOR_RETRY_PAUSE_SECONDS = 0.5  # before a new actor replaces one that died as it started
ACTOR_CLOSE_SECONDS = 5.0  # for an actor to quit its sub-engines before it is killed
POOL_CLOSE_SECONDS = 15.0
ACTOR_OPTIONS = {"num_cpus": 1, "max_concurrency": 2, "scheduling_strategy": "SPREAD"}  # 2: both roles start at once


class WorkerActor:
    """The actor's state, in its process on a node of the cluster: a pool.Worker whose calls are tried once (the
    caller retries)."""

    def __init__(self, evaluator: EngineSpec, opponent: EngineSpec):
        self.worker = Worker(evaluator, opponent, attempts=1)

    def start(self, role: str) -> None:
        """Start the sub-engine of `role` (evaluator or opponent) unless it runs; raise SubEngineError."""
        getattr(self.worker, role).start()

    def call(self, role: str, method: str, board: chess.Board, limit: chess.engine.Limit, seconds_left: float,
             fresh: bool):
        """SubEngine.`method` (play, reply, evaluate or analyse) of `role`, with its deadline `seconds_left` from now
        (0 for none)."""
        deadline = time.monotonic() + seconds_left if seconds_left else 0.0
        return getattr(getattr(self.worker, role), method)(board, limit, deadline, fresh)

    def close(self) -> None:
        """Quit both sub-engines."""
        self.worker.close()


def _get(reference, timeout=None):
    """ray.get(reference), an exception raised in the actor re-raised as itself (SubEngineError, or a fault of this
    code) rather than wrapped in ray.exceptions.RayTaskError."""
    try:
        return ray.get(reference, timeout=timeout)
    except ray.exceptions.RayTaskError as error:
        raise error.cause from None


class RemoteSubEngine(Supervised):
    """One role (evaluator or opponent) of a RemoteWorker: SubEngine's calls, made by the worker's actor."""

    # an actor's sub-engine that failed, or Ray's own failures (actor or node died, object lost, ...)
    recoverable = (SubEngineError, ray.exceptions.RayError)

    def __init__(self, worker: "RemoteWorker", role: str, spec: EngineSpec):
        super().__init__(spec)
        self.worker, self.role = worker, role
        self._start_lock = threading.Lock()
        self._started_on = None  # the actor whose sub-engine of this role is known to be ready

    def _ensure_started(self):
        """The worker's actor with this role's sub-engine ready (a new actor when there is none, and another one
        while each dies as it starts, e.g. placed on a node that died but is not known dead yet); raise
        SubEngineError when none is ready within ACTOR_START_SECONDS."""
        with self._start_lock:
            give_up = time.monotonic() + ACTOR_START_SECONDS
            while True:
                if self._aborted:
                    raise SubEngineError(f"{self.spec.display_name}: aborted")
                actor = self.worker.actor()
                if self._started_on is actor:
                    return actor
                try:
                    _get(actor.start.remote(self.role), max(0.0, give_up - time.monotonic()))
                    self._started_on = actor
                except ray.exceptions.RayError as error:
                    self.worker.discard(actor)
                    died = isinstance(error, ray.exceptions.RayActorError)
                    if not died or self._aborted or time.monotonic() + ACTOR_RETRY_PAUSE_SECONDS >= give_up:
                        hint = "" if died else " (is there a free CPU for every worker?)"
                        raise SubEngineError(f"{self.spec.display_name}: no Ray actor ready{hint}: {error}") from None
                    time.sleep(ACTOR_RETRY_PAUSE_SECONDS)

    def _discard(self, instance) -> None:
        self.worker.discard(instance)

    def _failed(self, instance, error: BaseException) -> None:
        """A sub-engine that failed in a live actor is restarted there; anything else replaces the actor."""
        if isinstance(error, SubEngineError):
            self._started_on = None
        else:
            self.worker.discard(instance)

    def _budget(self, limit: chess.engine.Limit) -> float:
        return call_budget(limit) + RAY_CALL_GRACE_SECONDS

    def _remote(self, method: str, board: chess.Board, limit: chess.engine.Limit, deadline: float, fresh: bool):
        """The actor's `call` of `method`, supervised."""
        def action(actor, limit):
            seconds_left = max(1e-6, deadline - time.monotonic()) if deadline else 0.0
            return _get(actor.call.remote(self.role, method, board, limit, seconds_left, fresh))
        return self._call(action, limit, deadline)

    def start(self) -> None:
        """Have the actor and this role's sub-engine ready now (for warming a pool); raise SubEngineError."""
        self._ensure_started()

    def play(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0,
             fresh: bool = False) -> chess.Move:
        """As SubEngine.play."""
        return self._remote("play", board, limit, deadline, fresh)

    def reply(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0, fresh: bool = False):
        """As SubEngine.reply."""
        return self._remote("reply", board, limit, deadline, fresh)

    def evaluate(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0,
                 fresh: bool = False) -> Value:
        """As SubEngine.evaluate."""
        return self._remote("evaluate", board, limit, deadline, fresh)

    def analyse(self, board: chess.Board, limit: chess.engine.Limit, deadline: float = 0.0, fresh: bool = False):
        """As SubEngine.analyse."""
        return self._remote("analyse", board, limit, deadline, fresh)


class RemoteWorker:
    """A pool worker (pool.Worker's interface) whose evaluator and opponent run in one Ray actor, made when first
    needed and replaced after it is discarded."""

    def __init__(self, actor_class, evaluator: EngineSpec, opponent: EngineSpec):
        self._actor_class, self._specs = actor_class, (evaluator, opponent)
        self._actor = None
        self._lock = threading.Lock()  # guards _actor
        self.evaluator = RemoteSubEngine(self, "evaluator", evaluator)
        self.opponent = RemoteSubEngine(self, "opponent", opponent)

    def actor(self):
        """The current actor, created (not waited for) when there is none; raise SubEngineError when Ray refuses
        to create one (e.g. the connection to the cluster is lost)."""
        with self._lock:
            if self._actor is None:
                try:
                    self._actor = self._actor_class.remote(*self._specs)
                except Exception as error:  # whatever Ray raises, this worker has no actor: a sub-engine failure
                    raise SubEngineError(f"{self.evaluator.spec.display_name} and {self.opponent.spec.display_name}"
                                         f": no Ray actor created: {error!r}") from None
            return self._actor

    def discard(self, actor) -> None:
        """Kill `actor` (its sub-engines die with it), from any thread; the next call gets a new one."""
        with self._lock:
            if self._actor is actor:
                self._actor = None
        ray.kill(actor)

    def abort(self) -> None:
        """Kill the actor now; the current task's calls fail at once and are not retried."""
        self.evaluator._aborted = self.opponent._aborted = True
        with self._lock:
            actor = self._actor
        if actor is not None:
            self.discard(actor)

    def reset_abort(self) -> None:
        """Allow calls again after abort() (done when a new task takes the worker)."""
        self.evaluator._aborted = self.opponent._aborted = False

    def close(self) -> None:
        """Have the actor quit its sub-engines, then kill it."""
        with self._lock:
            actor, self._actor = self._actor, None
        if actor is not None:
            try:
                _get(actor.close.remote(), ACTOR_CLOSE_SECONDS)
            except (ray.exceptions.RayError, SubEngineError):  # dead or hung: killed below all the same
                pass
            ray.kill(actor)


class RayWorkerPool(WorkerPool):
    """The WorkerPool of `size` RemoteWorkers on the Ray cluster `cluster` (an MPCMC_Cluster value other than
    `local`), connected here; raise ray_cluster.ClusterUnavailableError when it cannot be reached. close() also ends the
    connection."""

    def __init__(self, cluster: str, size: int, evaluator: EngineSpec, opponent: EngineSpec):
        self.connection = RayConnection(cluster, num_cpus=size)
        actor_class = ray.remote(WorkerActor).options(**ACTOR_OPTIONS)
        super().__init__(size, evaluator, opponent, lambda e, o: RemoteWorker(actor_class, e, o))

    def close(self) -> None:
        """Quit every sub-engine, kill every actor, then disconnect (shutting down a Ray instance started here),
        waiting POOL_CLOSE_SECONDS at most: with the cluster's head gone Ray's calls may block (what is left then
        goes with this process)."""
        def close_all():
            super(RayWorkerPool, self).close()
            self.connection.close()
        closing = threading.Thread(target=close_all, name="ray-close", daemon=True)
        closing.start()
        closing.join(POOL_CLOSE_SECONDS)
