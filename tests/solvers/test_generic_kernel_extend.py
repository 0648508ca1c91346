"""Searches compiled on the generic kernel in other modules: their numba cache is dropped when the kernel's
source changes (numba's own check sees only the module's file)."""

from __future__ import annotations

from patience.solvers.generic_kernel import extend


def test_a_stale_cache_is_dropped_and_a_fresh_one_kept(tmp_path) -> None:
    module = str(tmp_path / "playout_kernel.py")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    (cache / "playout_kernel.decide-1.py311.nbi").write_text("old")
    (cache / "bestfirst.search-1.py311.nbi").write_text("another module's")
    (cache / "playout_kernel.kernel-digest").write_text("not the digest")
    extend.drop_stale_cache(module)
    assert not (cache / "playout_kernel.decide-1.py311.nbi").exists()
    assert (cache / "bestfirst.search-1.py311.nbi").exists()  # only this module's files go
    assert (cache / "playout_kernel.kernel-digest").read_text() == extend.kernel_digest()
    (cache / "playout_kernel.decide-1.py311.nbi").write_text("fresh")
    extend.drop_stale_cache(module)
    assert (cache / "playout_kernel.decide-1.py311.nbi").exists()


def test_a_missing_stamp_drops_the_cache(tmp_path) -> None:
    """A cache written before the stamp existed cannot be trusted either."""
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    (cache / "bestfirst.search-2.py311.nbc").write_text("unknown age")
    extend.drop_stale_cache(str(tmp_path / "bestfirst.py"))
    assert not (cache / "bestfirst.search-2.py311.nbc").exists()
