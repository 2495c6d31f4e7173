"""Tournament games on Dask: a cluster client whose workers spend their CPU on games.

Dask is an optional extra (`pip install p2pcards[cluster]`). Its workers, by default,
sample their own stacks every 10 ms for the dashboard's profiler and wake their event
loop every 20 ms; with the GIL that slows a CPU-bound game by about a fifth (measured
with `scripts/bench_tournament.py`). Games need neither, so `QUIET_WORKERS` turns both
down. A local cluster inherits it; workers started by hand take it from the environment
variables in `WORKER_ENVIRONMENT` (see the README).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

QUIET_WORKERS: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}
WORKER_ENVIRONMENT = {
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
    "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
    "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "2s",
}


class ClusterError(RuntimeError):
    """Dask is missing, or the scheduler cannot be reached."""


NO_DASK = (
    "Dask is not installed: pip install 'p2pcards[cluster]' (in a checkout: "
    "EXTRAS=cluster scripts/p2pcards ..., or scripts/test, installs it)"
)


def check_installed() -> None:
    """ClusterError, in one line saying how to install it, unless Dask is installed: asked
    before a tournament stores anything, so that it is not left half begun."""
    try:
        import dask  # noqa: F401  (connect() needs them a moment later anyway)
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(NO_DASK) from None


def connect(
    address: str | None, local_workers: int | None
) -> tuple[Executor, int, Callable[[], None]]:
    """An executor on the scheduler at `address`, or on a new local cluster of
    `local_workers` processes (on 127.0.0.1); how many games it runs at once; and how to
    close it."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(NO_DASK) from None
    dask.config.set(QUIET_WORKERS)
    cluster = None
    try:
        if local_workers:
            cluster = LocalCluster(
                n_workers=local_workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None,
            )  # fmt: skip
            client = Client(cluster)
        else:
            client = Client(address, timeout=10)
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler {address}: {exc}") from None
    workers = max(1, sum(client.nthreads().values()))

    def close() -> None:
        client.close()
        if cluster is not None:
            cluster.close()

    return client.get_executor(pure=False), workers, close
