"""Compiling a search written in another module on top of the generic kernel's helpers (planning-jit's
best-first loop, the Monte Carlo playouts).

numba's on-disk cache of a compiled function checks only the stamp of the function's own source file, not
the kernel helpers it inlines, so after an edit of ``kernel.py`` it would serve stale machine code. Each
such module's cache is therefore stamped with a digest of the kernel's source and dropped when it changes,
in the folder numba really caches it in (``NUMBA_CACHE_DIR`` when set: the dispatcher's cache path).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import kernel as K

__all__ = ["cache_dir", "drop_stale_cache", "jit_on_kernel", "kernel_digest"]


def kernel_digest() -> str:
    """A digest of the kernel's source (16 hex digits)."""
    return hashlib.sha256(Path(K.__file__).read_bytes()).hexdigest()[:16]


def drop_stale_cache(module_file: str, cache_dir: str | None = None) -> None:
    """Delete the numba cache files of the module at ``module_file`` when the kernel's source changed
    since they were written (stamp: ``<cache>/<module>.kernel-digest``). ``cache_dir``: where numba caches
    that module (:func:`cache_dir`; default its ``__pycache__``)."""
    src = Path(module_file)
    cache = Path(cache_dir) if cache_dir else src.parent / "__pycache__"
    stamp = cache / f"{src.stem}.kernel-digest"
    digest = kernel_digest()
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache.glob(f"{src.stem}.*.nb[ic]"):
            f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # pragma: no cover - a read-only tree: numba then caches nothing either
        pass


def cache_dir(dispatcher: Any) -> str | None:
    """The folder numba caches ``dispatcher``'s function in (its ``__pycache__``, or under
    ``NUMBA_CACHE_DIR`` when that is set), or None if it has no cache."""
    return getattr(getattr(dispatcher, "_cache", None), "cache_path", None)


def jit_on_kernel(
    fn: Callable[..., Any],
    helpers: tuple[Callable[..., Any], ...],
    module_file: str,
    inline: frozenset[str] = frozenset(),
    **options: Any,
) -> Callable[..., Any] | None:
    """``fn`` compiled by numba (cached on disk, ``options`` passed to ``njit``) with its module's ``helpers``
    made jitable (those named in ``inline`` inlined into every caller: :func:`kernel.register`), or None
    when numba is off (:func:`kernel.compiled` is None; that call also registers the kernel's own helpers)."""
    if K.compiled() is None:
        return None
    from numba import njit

    K.register(helpers, inline)
    compiled = njit(cache=True, **options)(fn)  # nothing loaded from the cache before its first call
    drop_stale_cache(module_file, cache_dir(compiled))
    return compiled
