"""Is numba usable, and does its on-disk cache already hold a compiled kernel: a load (about a second) or a
compile (tens of seconds, work no deadline can cut) at its first call in a process?

numba caches each ``njit(cache=True)`` function in an index file (``<module>.<function>-<line>.pyXY.nbi``,
beside the source in ``__pycache__`` or under ``NUMBA_CACHE_DIR``) that starts with numba's version and a
stamp of the source file (in numba 0.68 a SHA-256 of its bytes), then maps (signature, machine, bytecode
hash) to a data file. numba serves an entry only when all of those match (``numba.core.caching``:
``IndexDataCacheFile._load_index`` and ``Cache._index_key``); :func:`cached` asks the same questions, through
the same functions, without loading or compiling anything. This module imports neither numba nor numpy
(:func:`cached` is handed dispatchers, so numba is already imported then).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from typing import Any

__all__ = ["HAVE_NUMBA", "all_cached", "cached"]


def _numba_installed() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["numba"] is None (import blocked)
        return False


# numba can be used: installed and not switched off by PATIENCE_NO_JIT (checked without importing it).
HAVE_NUMBA = _numba_installed() and not os.environ.get("PATIENCE_NO_JIT")


def cached(dispatcher: Any) -> bool:
    """Does numba's cache hold machine code for ``dispatcher`` (an ``njit(cache=True)`` function) that this
    numba on this machine would load for its current source and bytecode, for some signature? An entry for
    another numba version, another edit of the source, another CPU or a missing data file does not count.
    A dispatcher without a cache, or a numba whose cache internals differ from these, counts as cached: the
    check then cannot tell, and the caller loads as it did before there was a check."""
    try:
        cache = dispatcher._cache
        index = cache._cache_file._load_index()  # {} when absent, another numba's, or stale for the source
        codegen = dispatcher.targetctx.codegen()
        path = cache.cache_path
        return any(
            cache._index_key(key[0], codegen) == key and os.path.isfile(os.path.join(path, name))
            for key, name in index.items()
        )
    except (AttributeError, TypeError, IndexError):  # pragma: no cover - numba's internals changed
        return True


def all_cached(dispatchers: Iterable[Any]) -> bool:
    """:func:`cached` for every one of ``dispatchers`` (True for none)."""
    return all(cached(d) for d in dispatchers)
