"""This process's connection to a Ray cluster, as MPCMC_Cluster names it: `ray` or `HOST:PORT`.

`ray` joins the cluster named by the RAY_ADDRESS environment variable when it is set, else starts a Ray instance on
this machine; `HOST:PORT` joins the cluster whose head (its GCS) listens there. Joining gets JOIN_TIMEOUT_SECONDS: a
TCP probe of the address, then `ray.init`, waited for that long (Ray itself retries an address that does not answer
for minutes); a cluster that cannot be reached in time raises ClusterUnavailableError. `close` shuts down a Ray instance
started here and only disconnects from a joined cluster (`ray.shutdown` does either). Output of the actors is not
forwarded to this process and Ray logs only errors, to stderr (stdout speaks UCI; the errors Ray reports from the
cluster, such as a worker that died, it prints to sys.stdout, which a UCI session points at stderr). Importing this
module imports Ray (about half a second): only ray_pool imports it, and only player imports that, when MPCMC_Cluster
selects Ray.
"""

import logging
import os
import socket
import threading
import time

import ray

from mpcmc_engine.mpcmc.config import RAY, split_address

JOIN_TIMEOUT_SECONDS = 5.0
START_TIMEOUT_SECONDS = 60.0  # a Ray instance started here (its processes start on a possibly busy machine)
GCS_RECONNECT_SECONDS = 10**8
CLOSE_SECONDS = 30.0
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


class RayConnection:
    """This process connected to a Ray cluster: joined (`ray` with RAY_ADDRESS set, or HOST:PORT) or started here
    (`ray` alone, with `num_cpus` CPUs); only one at a time (Ray's connection is per process).

    One thread of its own connects, stays while connected and disconnects: Ray's processes started here are killed
    by Linux when the thread that started them ends (their parent-death signal), so it must not be a passing one."""

    def __init__(self, setting: str, num_cpus: int):
        """Connect as `setting` (an MPCMC_Cluster value other than `local`) says; raise ClusterUnavailableError."""
        if ray.is_initialized():
            raise ClusterUnavailableError("this process is already connected to a Ray cluster")
        address = os.environ.get("RAY_ADDRESS") if setting == RAY else setting
        arguments: dict = {"log_to_driver": False, "logging_level": logging.ERROR}
        started = time.monotonic()
        if address:
            self.description, seconds = f"the Ray cluster at {address}", JOIN_TIMEOUT_SECONDS
            _probe(address, seconds)
            seconds = max(0.5, seconds - (time.monotonic() - started))
            arguments["address"] = address
            # Ray ends a driver that has lost the cluster's head (its GCS) for a minute; the engine plays on instead
            # (the calls fail, the plain search moves), so it waits for the head as long as the game lasts
            os.environ.setdefault("RAY_gcs_rpc_server_reconnect_timeout_s", str(GCS_RECONNECT_SECONDS))
        else:
            self.description, seconds = "a Ray instance started here", START_TIMEOUT_SECONDS
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # an engine does not report usage
            arguments.update(address="local", num_cpus=num_cpus, include_dashboard=False,
                             object_store_memory=OBJECT_STORE_BYTES)
        self._lock = threading.Lock()  # guards _state
        self._state: dict = {}
        self._connected, self._closing = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._own, args=(arguments,), name="ray-connection", daemon=True)
        self._thread.start()
        self._connected.wait(seconds)
        with self._lock:
            if self._state.get("connected"):
                return
            self._closing.set()  # should it still connect, it disconnects at once
            error = self._state.get("error")
        what = f"join {self.description}" if address else "start a Ray instance here"
        raise ClusterUnavailableError(f"cannot {what}: {error or f'no answer within {seconds:.1f} s'}")

    def _own(self, arguments: dict) -> None:
        """The connection's thread: ray.init(**arguments), then wait for close() and ray.shutdown()."""
        try:
            ray.init(**arguments)
        except Exception as error:  # reported by __init__: whatever Ray raised, the cluster is unavailable
            with self._lock:
                self._state["error"] = error
            self._connected.set()
            return
        with self._lock:
            self._state["connected"] = True
        self._connected.set()
        self._closing.wait()
        ray.shutdown()

    def close(self) -> None:
        """Disconnect; a Ray instance started here is shut down with its processes."""
        self._closing.set()
        self._thread.join(CLOSE_SECONDS)
