"""Work on the search thread: every `go` (a search, an MPC-MC decision or `go perft`) and `bench` runs as one Job in its
own worker thread, so that the command thread stays free to act on `stop`, `ponderhit`, `isready` and `quit`.

A Job's events: `done` (its work has returned) and `finished` (its last line has been written). `halt()` makes the
work return soon: it sets `stop_requested` and calls the job's `interrupt` until the work is done (so a stop sent just
before the work began is not lost). A MoveJob is a job that ends with exactly one `bestmove` whatever fails.
"""

import sys
import threading
import time
import traceback
from typing import Optional

STOP_POLL_S = 0.002
GUARD_GRACE_NS = 1_000_000


class Job:
    """One piece of work run once in a worker thread: `work()` does it, `interrupt()` asks it to return soon."""

    name = "job"

    def __init__(self, listener):
        self.listener = listener
        self.done, self.finished, self.stop_requested = threading.Event(), threading.Event(), threading.Event()

    def work(self) -> None:
        """The job itself (worker thread); returns early once `stop_requested` is set or `interrupt` was called."""
        raise NotImplementedError

    def interrupt(self) -> None:
        """Make the running work return soon (any thread; may be called many times)."""

    def start(self) -> None:
        """Run the job in a new worker thread; if the thread cannot start, the job counts as finished."""
        try:
            threading.Thread(target=self._run, name=self.name, daemon=True).start()
        except BaseException:
            self.done.set()
            self.finished.set()
            raise

    def _run(self) -> None:
        """Worker thread: the work, with any failure reported, then `done` and `finished`."""
        try:
            self.work()
        except Exception as error:  # reported; the engine goes on
            traceback.print_exc(file=sys.stderr)
            self.listener.error(f"{self.name} failed: {error!r}")
        finally:
            self.done.set()
            self.finished.set()

    def halt(self) -> None:
        """Ask the work to return and wait until it has."""
        self.stop_requested.set()
        while not self.done.is_set():
            self.interrupt()
            self.done.wait(STOP_POLL_S)

    def stop(self) -> None:
        """`stop`: end the job early."""
        self.halt()

    def wait(self) -> None:
        """Block until the job has written its last line."""
        self.finished.wait()


class MoveJob(Job):
    """A `go` that ends with exactly one `bestmove`: `decide()` gives the move; when it fails or gives none, a legal
    move from `fallback()` is played. In `go infinite` and `go ponder` the bestmove waits for `stop` (or ponderhit:
    `release()`); a guard timer halts the job shortly after its hard deadline whatever the work does with the clock."""

    def __init__(self, listener, wait_for_release: bool, hard_deadline_ns: int = 0):
        super().__init__(listener)
        self.released = threading.Event()
        if not wait_for_release:
            self.released.set()
        self._hard_deadline_ns = hard_deadline_ns
        self._guard: Optional[threading.Timer] = None

    def decide(self) -> tuple:
        """(bestmove text or None, ponder text or None) (worker thread)."""
        raise NotImplementedError

    def fallback(self):
        """UCI text of a legal move to play when `decide` failed, None when there is none."""
        raise NotImplementedError

    def start(self) -> None:
        """Arm the guard of the hard deadline (if any), then run the job in a new worker thread."""
        if self._hard_deadline_ns:
            self.arm_guard(self._hard_deadline_ns)
        super().start()

    def _run(self) -> None:
        """Worker thread: decide (a failure is reported and a fallback move played), wait for release, bestmove."""
        best = ponder = None
        try:
            try:
                best, ponder = self.decide()
            except Exception as error:  # any fault still ends in a legal move
                traceback.print_exc(file=sys.stderr)
                self.listener.error(f"{self.name} failed: {error!r}")
            finally:
                self.done.set()
                if self._guard is not None:
                    self._guard.cancel()
            if best is None:
                best, ponder = self.fallback(), None
            self.released.wait()
            self.listener.bestmove(best, ponder)
        finally:
            self.finished.set()

    def release(self) -> None:
        """Let the bestmove be sent as soon as the move is decided."""
        self.released.set()

    def stop(self) -> None:
        """`stop`: end the search and send bestmove (also in infinite and ponder mode)."""
        self.release()
        self.halt()

    def arm_guard(self, hard_ns: int) -> None:
        """Halt the job shortly after `hard_ns` (time.monotonic_ns()), replacing any earlier guard."""
        if self._guard is not None:
            self._guard.cancel()
        delay = max(0.0, (hard_ns + GUARD_GRACE_NS - time.monotonic_ns()) / 1e9)
        guard = threading.Timer(delay, self.halt)
        guard.daemon = True
        guard.start()
        self._guard = guard
