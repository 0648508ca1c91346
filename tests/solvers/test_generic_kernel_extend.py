"""Searches compiled on the generic kernel in other modules: their numba cache is dropped when the kernel's
source changes (numba's own check sees only the module's file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience.solvers.generic_kernel import extend
from patience.solvers.jit_cache import HAVE_NUMBA


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


def test_the_stamp_goes_where_numba_caches(tmp_path) -> None:
    """With ``cache_dir`` (numba's folder for the module, e.g. under NUMBA_CACHE_DIR) the stale files and the
    stamp are there, not in the module's ``__pycache__``."""
    other = tmp_path / "numba-cache"
    other.mkdir()
    (other / "bestfirst.search-3.py311.nbi").write_text("stale")
    extend.drop_stale_cache(str(tmp_path / "bestfirst.py"), str(other))
    assert not (other / "bestfirst.search-3.py311.nbi").exists()
    assert (other / "bestfirst.kernel-digest").read_text() == extend.kernel_digest()
    assert not (tmp_path / "__pycache__").exists()


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba off: nothing is cached")
def test_a_compiled_search_is_stamped_in_its_cache_folder() -> None:
    from patience.solvers.generic_kernel import bestfirst

    folder = Path(extend.cache_dir(bestfirst.compiled()))
    assert (folder / "bestfirst.kernel-digest").read_text() == extend.kernel_digest()
