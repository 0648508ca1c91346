import pytest

from . import fakes


@pytest.fixture
def fake_backends(monkeypatch):
    """Register the tiny fake backends (``tinydfs``, ``liar``) for one test."""
    fakes.register(monkeypatch)
    return fakes
