"""Running a job over the chunks of the neural trainer's data in worker processes, each with a searcher of its own.

A job is a pair of module-level functions (so that they reach a spawned worker by name) and a picklable settings
object: `make_searcher(settings)` builds a process's searcher once, `run_chunk(settings, index, searcher)` does chunk
`index` and returns a tuple. Worker processes ignore SIGINT (the main process stops the pool) and end with the main
process.
"""

import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor

from mpcmc_engine.uci_process import end_worker_with_parent

_WORKER_SEARCHER = None


def _start_worker(make_searcher, settings) -> None:
    """Worker process initialiser: ignore SIGINT, end with the main process, build the searcher."""
    global _WORKER_SEARCHER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_worker_with_parent()   # a parent killed (SIGTERM, SIGKILL) leaves no worker working on
    _WORKER_SEARCHER = make_searcher(settings)


def _worker_chunk(task) -> tuple:
    """Worker process: run_chunk(settings, index, this process's searcher) of one (run_chunk, settings, index)."""
    run_chunk, settings, index = task
    assert _WORKER_SEARCHER is not None  # built by _start_worker
    return run_chunk(settings, index, _WORKER_SEARCHER)


def run_chunks(make_searcher, run_chunk, settings, indices, workers: int, progress, on_interrupt=lambda: None) -> None:
    """run_chunk(settings, index, searcher) for every index of `indices`, in this process when `workers` <= 1, else
    in `workers` processes; progress(its result) after each chunk, in the order of `indices`. On KeyboardInterrupt
    with several workers: on_interrupt(), then the chunks the workers have begun are finished before the interrupt
    propagates."""
    if workers <= 1:
        searcher = make_searcher(settings)
        for index in indices:
            progress(run_chunk(settings, index, searcher))
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start_worker, initargs=(make_searcher, settings)) as pool:
        try:
            for result in pool.map(_worker_chunk, [(run_chunk, settings, index) for index in indices]):
                progress(result)
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                on_interrupt()
            pool.shutdown(cancel_futures=True)
            raise
