"""The README's Tour runs top to bottom as written: every command line of its code block, in a fresh
folder, through a shell (pipes and redirections as a reader types them), each exiting 0."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tour_commands() -> list[str]:
    """The command lines of the Tour's first code block, comments dropped."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Tour\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```\n(.*?)```", section, re.S)
    assert block is not None, "README's Tour has no code block"
    lines = []
    for line in block.group(1).splitlines():
        command = line.split("  #", 1)[0].strip()  # a comment starts after two spaces
        if command:
            lines.append(command)
    return lines


def test_the_tour_is_commands_of_patience() -> None:
    lines = tour_commands()
    assert len(lines) >= 10
    assert all(shlex.split(line)[0] == "patience" for line in lines)


def test_readme_says_how_to_get_patience_on_path() -> None:
    text = (ROOT / "README.md").read_text()
    assert "source .venv/bin/activate" in text and ".venv/bin/patience" in text


def test_the_tour_runs_top_to_bottom(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "patience"  # this interpreter's patience, whether or not its script is on PATH
    launcher.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m patience "$@"\n')
    launcher.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    outputs = {}
    for line in tour_commands():
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", line], cwd=work, env=env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        outputs[line] = done.stdout
    # What the steps made is what the next steps used.
    validated = [out for line, out in outputs.items() if "patience validate" in line]
    assert validated and all(out.startswith("valid: ") for out in validated)
    jsonl = work / "gaps-3x6.jsonl"
    if jsonl.exists():
        assert len(jsonl.read_text().splitlines()) == 20
