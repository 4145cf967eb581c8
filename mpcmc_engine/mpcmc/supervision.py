"""The rules every sub-engine call keeps, wherever its process runs: a budget, a watchdog, one retry, a clear failure.

A call's time is cut to end STOP_MARGIN_SECONDS before the move's deadline (`within_deadline`), so that the engine
stops by itself. Past its budget (`call_budget`: its time plus CALL_GRACE_SECONDS, or UNTIMED_CALL_SECONDS without
a time) a watchdog discards the instance serving it, which makes the blocked call fail at once. A failed call is
retried once on a fresh instance while time remains, an aborted one is not; then SubEngineError is raised. The
instance is a local process (subengine.SubEngine) or a Ray actor holding one (ray_pool.RemoteSubEngine); each says
how to get a ready instance, how to discard one and which errors a fresh one may cure.
"""

import dataclasses
import sys
import threading
import time

import chess.engine

CALL_GRACE_SECONDS = 2.0  # a timed call may overrun its limit by this much before it counts as a hang
UNTIMED_CALL_SECONDS = 60.0  # watchdog for node- or depth-limited calls
STOP_MARGIN_SECONDS = 0.010  # a call's time ends this long before the deadline, for the engine to answer


class SubEngineError(RuntimeError):
    """A sub-engine call failed twice (or once with no time left to retry), or a sub-engine could not start."""


def within_deadline(limit: chess.engine.Limit, deadline: float) -> chess.engine.Limit:
    """`limit` with its time cut to end STOP_MARGIN_SECONDS before `deadline` (time.monotonic(); 0: no deadline),
    at least 1 ms."""
    if not deadline:
        return limit
    left = max(0.001, deadline - time.monotonic() - STOP_MARGIN_SECONDS)
    if limit.time is not None and limit.time <= left:
        return limit
    return dataclasses.replace(limit, time=left)


def call_budget(limit: chess.engine.Limit) -> float:
    """Seconds a call with `limit` may take before its watchdog fires."""
    return limit.time + CALL_GRACE_SECONDS if limit.time is not None else UNTIMED_CALL_SECONDS


class Supervised:
    """A sub-engine whose calls keep the rules above; thread-safe for one caller at a time.

    Subclasses provide `_ensure_started()` (a ready instance, or SubEngineError), `_discard(instance)` (drop it, from
    any thread, so that the next call gets a fresh one) and `recoverable` (the errors of a call that a fresh
    instance may cure); `_failed` and `_budget` may be refined."""

    recoverable: tuple = ()

    def __init__(self, spec, attempts: int = 2):
        self.spec = spec  # uci_process.EngineSpec
        self.attempts = attempts
        self._aborted = False

    def _ensure_started(self):
        raise NotImplementedError

    def _discard(self, instance) -> None:
        raise NotImplementedError

    def _failed(self, instance, error: BaseException) -> None:
        """A call on `instance` raised `error` (one of `recoverable`): make the next call use a fresh instance."""
        self._discard(instance)

    def _budget(self, limit: chess.engine.Limit) -> float:
        """Seconds the call with `limit` may take before the watchdog discards its instance."""
        return call_budget(limit)

    def _call(self, action, limit: chess.engine.Limit, deadline: float):
        """action(instance, limit) under a watchdog, on a fresh instance for each of up to `attempts` tries while
        the deadline (time.monotonic(), 0 for none) is ahead and no abort came; raise SubEngineError when every try
        failed (SubEngineError from `_ensure_started` is raised at once)."""
        failure = None
        for _ in range(self.attempts):
            if (deadline and time.monotonic() >= deadline) or self._aborted:
                break
            instance = self._ensure_started()
            call_limit = within_deadline(limit, deadline)
            watchdog = threading.Timer(self._budget(call_limit), self._discard, args=(instance,))
            watchdog.daemon = True
            watchdog.start()
            try:
                return action(instance, call_limit)
            except self.recoverable as error:
                failure = error
                if not self._aborted:
                    print(f"mpcmc-engine: {self.spec.display_name} failed ({error!r}); replacing it", file=sys.stderr)
                self._failed(instance, error)
            finally:
                watchdog.cancel()
        if isinstance(failure, SubEngineError):  # already names the sub-engine
            raise SubEngineError(str(failure))
        raise SubEngineError(f"{self.spec.display_name}: {failure or 'no time left'}")
