"""patience: solve patience (solitaire) card games with constraint programming and search.

The Python API (:mod:`patience.api`) is at the top level, loaded when first used::

    import patience
    inst = patience.deal("freecell", 617, "ms")          # or patience.load("deal.txt"), any format
    res = patience.solve(inst, backend="auto", limit=10)  # res.status, res.moves, res.seconds
    patience.validate(inst, res.moves).won                # the independent replay
    patience.games()                                      # the game names
    patience.estimate("freecell", 100, limit=10).summary.estimate.text()   # a batch, as the command

``patience.validate`` is also the validator's module (:mod:`patience.validate`), made callable.
"""

from __future__ import annotations

from typing import Any

__all__ = ["__version__", "compare", "deal", "estimate", "games", "load", "solve", "validate"]

_API = ("compare", "deal", "estimate", "games", "load", "solve")


def __getattr__(name: str) -> Any:
    """The API functions and ``__version__``, imported when asked: ``import patience`` (and so every
    command's start-up) stays free of the library until it is used, and importlib.metadata is read only
    for ``--version``."""
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "validate":  # the module, callable as patience.api.validate (patience/validate.py's end)
        import importlib

        return importlib.import_module(".validate", __name__)
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("patience")
        except PackageNotFoundError:  # running from a source tree without installation
            return "0.0.0"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
