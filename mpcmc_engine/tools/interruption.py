"""How a tool command is stopped on request: SIGTERM (`kill`, `timeout`, a process manager, or the only signal that
reaches a background job, whose SIGINT the shell ignores) is handled as Ctrl-C, so that every command stops the way
its Ctrl-C path does (checkpoint written, finished work kept) and exits with INTERRUPTED.

Worker processes of the commands are spawned (a fresh interpreter), so they never inherit the handler.
"""

import contextlib
import signal
import threading

INTERRUPTED = 130   # the exit status after Ctrl-C or SIGTERM, as a shell reports a process ended by SIGINT


def _raise_interrupt(signum, frame) -> None:
    """Signal handler: raise KeyboardInterrupt in the main thread, as Ctrl-C does."""
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM raises KeyboardInterrupt in the main thread; the previous handler is restored on
    leaving it. Called outside the main thread (where Python cannot set handlers) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
