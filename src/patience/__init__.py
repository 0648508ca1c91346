"""patience: solve patience (solitaire) card games with constraint programming and search."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``__version__`` from the installed metadata, read when asked: importlib.metadata costs start-up time
    of every command, and only ``--version`` needs it."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("patience")
        except PackageNotFoundError:  # running from a source tree without installation
            return "0.0.0"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
