"""A pool of workers, each owning its own evaluator and nominal-opponent processes, kept alive across moves.

A UCI process runs one search at a time, so parallelism comes from workers: `run` spreads tasks over them and
returns, at the deadline (plus a short grace for calls in flight) at the latest, what finished. A sub-engine call's
time is cut to end before the deadline (supervision.within_deadline), so calls still in flight then end by themselves a
moment later and their workers come free with their processes alive; a hung one is killed by its call's watchdog.
Only a stop (`stop_event`) kills the processes of busy workers at once (a killed process is restarted, which takes
seconds for this engine, on its next call). Workers are local (`Worker`) unless the pool is given another
`make_worker` (ray_pool: workers whose sub-engines live in Ray actors).
"""

import concurrent.futures
import queue
import threading
import time
from typing import Any, Callable, Optional

from mpcmc_engine.mpcmc.subengine import SubEngine
from mpcmc_engine.uci_process import EngineSpec

LATE_CALL_GRACE_SECONDS = 0.025  # how long run() waits for calls still in flight at the deadline or a stop


class Worker:
    """One evaluator and one nominal opponent, used by one task at a time; each call is tried `attempts` times."""

    def __init__(self, evaluator: EngineSpec, opponent: EngineSpec, attempts: int = 2):
        self.evaluator = SubEngine(evaluator, attempts)
        self.opponent = SubEngine(opponent, attempts)

    def abort(self) -> None:
        """Kill both processes; the current task's calls fail at once."""
        self.evaluator.abort()
        self.opponent.abort()

    def reset_abort(self) -> None:
        """Make the processes usable again for a new task."""
        self.evaluator.reset_abort()
        self.opponent.reset_abort()

    def close(self) -> None:
        """Quit both processes."""
        self.evaluator.close()
        self.opponent.close()


class WorkerPool:
    """`size` workers (each made by make_worker(evaluator, opponent): an object with Worker's attributes and methods)
    and a thread each; `run(tasks, deadline)` maps task(worker) over them."""

    def __init__(self, size: int, evaluator: EngineSpec, opponent: EngineSpec,
                 make_worker: Callable[[EngineSpec, EngineSpec], Any] = Worker):
        self.size = max(1, size)
        self.workers = [make_worker(evaluator, opponent) for _ in range(self.size)]
        self._idle: queue.Queue = queue.Queue()
        for worker in self.workers:
            self._idle.put(worker)
        self._executor = concurrent.futures.ThreadPoolExecutor(self.size, thread_name_prefix="mpcmc-worker")
        self._busy: set = set()
        self._busy_lock = threading.Lock()

    def start(self, with_opponents: bool) -> None:
        """Start every worker's processes in parallel (evaluators, and opponents when asked) and wait until all are
        ready or failed; raise the first failure (SubEngineError)."""
        engines = [w.evaluator for w in self.workers] + ([w.opponent for w in self.workers] if with_opponents else [])
        with concurrent.futures.ThreadPoolExecutor(len(engines)) as starter:
            outcomes = [f.exception() for f in [starter.submit(engine.start) for engine in engines]]
        failures = [failure for failure in outcomes if failure is not None]
        if failures:
            raise failures[0]

    def _run_one(self, task):
        worker = self._idle.get()
        worker.reset_abort()
        with self._busy_lock:
            self._busy.add(worker)
        try:
            return task(worker)
        finally:
            with self._busy_lock:
                self._busy.discard(worker)
            self._idle.put(worker)

    def run(self, tasks, deadline: float, stop_event: Optional[threading.Event] = None):
        """Run every task(worker) -> result; return (results, failures): [(index, result)] of the tasks done by
        `deadline` (time.monotonic()) or before `stop_event` is set (plus any that end within
        LATE_CALL_GRACE_SECONDS after) and [(index, exception)] of those that raised, each in completion order."""
        futures = {self._executor.submit(self._run_one, task): index for index, task in enumerate(tasks)}
        done, failures = [], []

        def collect(finished):
            for future in finished:
                error = future.exception()
                if error is None:
                    done.append((futures[future], future.result()))
                else:
                    failures.append((futures[future], error))

        pending = set(futures)
        while pending:
            timeout = max(0.0, deadline - time.monotonic()) if deadline else None
            if stop_event is not None:
                timeout = 0.02 if timeout is None else min(timeout, 0.02)
            finished, pending = concurrent.futures.wait(pending, timeout, concurrent.futures.FIRST_COMPLETED)
            collect(finished)
            if (deadline and time.monotonic() >= deadline) or (stop_event is not None and stop_event.is_set()):
                break
        if pending:
            # drop what has not started; a sub-engine call refuses to start past the deadline, so a running task ends
            # with its current call, whose time ends before the deadline: wait a moment for it, then return without
            # it. After a stop, kill what still runs instead (its calls may be long); its worker returns to the pool
            # when the failed call unwinds.
            stopped = stop_event is not None and stop_event.is_set() and not (deadline and time.monotonic() >= deadline)
            running = [future for future in pending if not future.cancel()]
            finished, still_running = concurrent.futures.wait(running, LATE_CALL_GRACE_SECONDS)
            collect(finished)
            if still_running and stopped:
                with self._busy_lock:
                    busy = list(self._busy)
                for worker in busy:
                    worker.abort()
        return done, failures

    def close(self) -> None:
        """Quit every sub-engine and stop the threads."""
        for worker in self.workers:
            worker.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
