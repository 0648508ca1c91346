"""The Dask executor on an in-process LocalCluster: results stream back into the same store."""

import pytest

from patience.experiments.executors import DaskExecutor
from patience.experiments.runner import Job, run_job
from patience.experiments.store import open_store

from . import fakes

distributed = pytest.importorskip("distributed")


def test_dask_local_cluster_fills_the_store(fake_backends, tmp_path):
    job = Job("black-hole", range(1, 25), "tinydfs", 5.0, "portable", fakes.TINY)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        open_store(tmp_path / "r.sqlite") as store,
    ):
        ex = DaskExecutor(client)
        assert ex.workers == 2
        # Half the deals first (as if a previous run had stopped), then the whole job resumes on Dask.
        run_job(Job(job.game, range(1, 13), job.backend, job.limit_s, job.generator, job.overrides), store)
        todo = []
        rows = run_job(job, store, ex, on_start=lambda t, d: todo.append((t, d)))
        ex.close()  # not ours: leaves the client open
        assert client.status == "running"
    assert todo == [(12, 12)]
    assert [r.seed for r in rows] == list(range(1, 25))
    with open_store(":memory:") as ref:
        expected = run_job(job, ref)
    assert [r.status for r in rows] == [r.status for r in expected]
