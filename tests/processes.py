"""Processes seen through Linux's /proc, for the tests that check what the engine and its tools leave running (a
zombie, exited and not yet reaped, counts as gone), and the start of a child that Ctrl-C must reach."""

import os
import signal
import time


def default_sigint() -> None:
    """In a child before exec (Popen's preexec_fn): SIGINT's default disposition, as a terminal gives it (a test run as
    a background job would pass it on ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def process_stat(pid):
    """(state letter, parent pid, process group) of process `pid`, or None when it no longer exists."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[2])


def command_line(pid) -> str:
    """The command line of process `pid`, arguments joined by spaces ('' when it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def alive(pid) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    stat = process_stat(pid)
    return stat is not None and stat[0] != "Z"


def live_pids() -> list:
    """The pids of every live process."""
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit() and alive(entry)]


def live_children(pid) -> list:
    """The pids of the live processes whose parent is `pid`."""
    return [child for child in live_pids() if (stat := process_stat(child)) and stat[1] == pid]


def wait_gone(pids, seconds=10.0) -> list:
    """Wait up to `seconds` for `pids` to end; return those still alive."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]
