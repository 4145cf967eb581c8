"""This process's connection to a Ray cluster, as MPCMC_Cluster names it: `ray` or `HOST:PORT`.

`ray` joins the cluster named by the RAY_ADDRESS environment variable when it is set, else starts a Ray instance on
this machine; `HOST:PORT` joins the cluster whose head (its GCS) listens there. Joining gets JOIN_TIMEOUT_SECONDS: a
TCP probe of the address, then `ray.init` in a thread of its own (Ray itself retries an address that does not answer
for minutes); a cluster that cannot be reached in time raises ClusterUnavailableError. `close` shuts down a Ray instance
started here and only disconnects from a joined cluster (`ray.shutdown` does either). Output of the actors is not
forwarded to this process (stdout speaks UCI), and Ray logs only errors, to stderr. Importing this module imports Ray
(about half a second): only ray_pool imports it, and only player imports that, when MPCMC_Cluster selects Ray.
"""

import logging
import os
import socket
import threading
import time

import ray

from mpcmc_engine.mpcmc.player import RAY, split_address

JOIN_TIMEOUT_SECONDS = 5.0
START_TIMEOUT_SECONDS = 60.0  # a Ray instance started here (its processes start on a possibly busy machine)
OBJECT_STORE_BYTES = 100 * 2**20  # of an instance started here: the calls' arguments and results are small


class ClusterUnavailableError(RuntimeError):
    """The Ray cluster could not be joined or started."""


def _probe(address: str, seconds: float) -> None:
    """Raise ClusterUnavailableError unless a TCP connection to `address` (HOST:PORT) opens within `seconds`."""
    host_port = split_address(address)
    if host_port is None:
        return  # not HOST:PORT (RAY_ADDRESS may be `auto`): left to ray.init
    try:
        socket.create_connection(host_port, timeout=seconds).close()
    except OSError as error:
        raise ClusterUnavailableError(f"cannot reach the Ray cluster at {address}: {error}") from None


def _init_within(seconds: float, what: str, **arguments) -> None:
    """ray.init(**arguments) within `seconds`, else ClusterUnavailableError naming `what`. An init still running then is
    left to its thread, which disconnects again should it ever connect."""
    state = {"abandoned": False}
    lock = threading.Lock()

    def connect():
        try:
            ray.init(**arguments)
        except Exception as error:  # reported by the caller: whatever Ray raised, the cluster is unavailable
            with lock:
                state["error"] = error
            return
        with lock:
            state["connected"] = True
            if state["abandoned"]:
                ray.shutdown()

    thread = threading.Thread(target=connect, name="ray-init", daemon=True)
    thread.start()
    thread.join(seconds)
    with lock:
        if state.get("connected"):
            return
        state["abandoned"] = True
        error = state.get("error")
    raise ClusterUnavailableError(f"cannot {what}: {error or f'no answer within {seconds:.0f} s'}")


class RayConnection:
    """This process connected to a Ray cluster: joined (`ray` with RAY_ADDRESS set, or HOST:PORT) or started here
    (`ray` alone, with `num_cpus` CPUs); only one at a time (Ray's connection is per process)."""

    def __init__(self, setting: str, num_cpus: int):
        """Connect as `setting` (an MPCMC_Cluster value other than `local`) says; raise ClusterUnavailableError."""
        if ray.is_initialized():
            raise ClusterUnavailableError("this process is already connected to a Ray cluster")
        address = os.environ.get("RAY_ADDRESS") if setting.lower() == RAY else setting
        self.started_here = not address
        common = {"log_to_driver": False, "logging_level": logging.ERROR}
        started = time.monotonic()
        if address:
            self.description = f"the Ray cluster at {address}"
            _probe(address, JOIN_TIMEOUT_SECONDS)
            left = max(0.5, JOIN_TIMEOUT_SECONDS - (time.monotonic() - started))
            _init_within(left, f"join {self.description}", address=address, **common)
        else:
            self.description = "a Ray instance started here"
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # an engine does not report usage
            _init_within(START_TIMEOUT_SECONDS, "start a Ray instance here", address="local", num_cpus=num_cpus,
                         include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES, **common)

    def close(self) -> None:
        """Disconnect; a Ray instance started here is shut down with its processes."""
        ray.shutdown()
