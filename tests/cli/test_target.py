"""A command's TARGET: an instance file, or GAME:SEED dealt with the generator and --set overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience.cli.errors import UsageError
from patience.cli.target import instance_arg
from patience.deals import deal


def test_game_seed_deals_with_generator_and_overrides() -> None:
    assert instance_arg("black-hole:1", "pysol", {}) == deal("black-hole", 1, "pysol")
    got = instance_arg("freecell:7", "portable", {"cells": 2})
    assert got == deal("freecell", 7, "portable", {"cells": 2}) and got.rules.cells.count == 2


def test_a_file_is_loaded_and_takes_no_overrides(tmp_path: Path) -> None:
    inst = deal("black-hole", 3)
    path = tmp_path / "bh3.json"
    inst.save(path)
    assert instance_arg(str(path), "portable", {}).sha256 == inst.sha256
    with pytest.raises(UsageError, match="--set applies to GAME:SEED"):
        instance_arg(str(path), "portable", {"cells": 2})


@pytest.mark.parametrize("text", ["black-hole", "black-hole:x", "no/such/file.json", "a b:1"])
def test_neither_file_nor_game_seed(text: str) -> None:
    with pytest.raises(UsageError, match="not GAME:SEED"):
        instance_arg(text, "portable", {})
