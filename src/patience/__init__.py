"""patience: solve patience (solitaire) card games with constraint programming and search."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("patience")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

__all__ = ["__version__"]
