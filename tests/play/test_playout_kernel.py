"""The compiled Monte Carlo playouts against the engine's reference playout, on the same random numbers."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.play import playout_kernel as PK
from patience.play.game import PlayTask, play_task
from patience.play.observation import observe
from patience.play.players import _choosable, _playout, _resolve, _Tables, make_player

from .test_observation import _permute_hidden

GAMES = [("klondike", "portable", {}), ("klondike", "portable", {"draw": 1}), ("freecell", "ms", {})]


def _compare(
    game: str, gen: str, ov: dict, seed: int, steps: int, playouts: int, depth: int, jit: bool
) -> int:
    """Walk ``steps`` random moves of a deal; at each position play every candidate's playouts in the kernel
    and on the engine with the same uniforms; assert equal rows; return how many playouts were compared."""
    e = Engine(deal(game, seed, gen, ov or None))
    rng = random.Random(seed)
    compared = 0
    for step in range(steps):
        legal = e.legal_moves()
        if not legal or e.is_won():
            break
        obs = observe(e, legal)
        boards, lk = _Tables.get(obs)
        ms = _resolve(lk, "auto")
        cands = _choosable(lk, obs, "auto")
        view, rk = PK.pack_view(obs, boards.rules, boards.probe, lk.suit_home, lk.dealt_base)
        nh = len(view.hid)
        assert nh == obs.hidden_places()
        stride = nh + depth
        u = np.random.default_rng(1000 * seed + step).random(len(cands) * playouts * stride)
        got = [
            tuple(int(x) for x in r) for r in PK.run(view, rk, cands, playouts, depth, lk.stall, ms, u, jit)
        ]
        want = []
        sim = boards.probe_engine()
        for i, m in enumerate(cands):
            for j in range(playouts):
                b = (i * playouts + j) * stride
                sim.load(PK.sample_world_u(obs, boards.rules, u, b))
                home, (sent, other) = _playout(sim, m, lk, PK.Uniforms(u, b + nh), depth, lk.stall, ms, False)  # type: ignore[arg-type]
                want.append((home, sent, other))
                if home >= sim.n_cards:
                    break
            if want[-1][0] >= sim.n_cards:
                break
        assert got == want, (game, ov, seed, step)
        compared += len(want)
        e.apply(rng.choice(legal))
    return compared


@pytest.mark.parametrize(("game", "gen", "ov"), GAMES)
def test_compiled_playouts_make_the_engines_moves(game: str, gen: str, ov: dict) -> None:
    """Same uniforms, same moves: the compiled playouts (numba when on) and ``players._playout`` on the
    engine return the same (most home, sent home, other moves) on every position of random walks."""
    n = sum(_compare(game, gen, ov, seed, 30, 2, 80, True) for seed in (1, 2, 3, 4))
    assert n > 200


@pytest.mark.parametrize(("game", "gen", "ov"), GAMES)
def test_python_fallback_of_the_kernel_plays_the_same(game: str, gen: str, ov: dict) -> None:
    """The kernel's functions uncompiled (what runs with numba off) give the same rows."""
    assert _compare(game, gen, ov, 5, 6, 1, 30, False) > 5


def test_the_kernel_is_given_what_the_observation_shows_only() -> None:
    """Two deals differing only in hidden cards pack to the same arrays: the kernel cannot read a hidden
    card (the unseen cards sit in the hidden places in sorted order, to be dealt anew by each playout)."""
    a = Engine(deal("klondike", 21))
    b = Engine(_permute_hidden(a.instance, 3))
    assert a.snapshot() != b.snapshot()
    oa, ob = observe(a, a.legal_moves()), observe(b, b.legal_moves())
    boards, lk = _Tables.get(oa)
    va, _ = PK.pack_view(oa, boards.rules, boards.probe, lk.suit_home, lk.dealt_base)
    vb, _ = PK.pack_view(ob, boards.rules, boards.probe, lk.suit_home, lk.dealt_base)
    for x, y in ((va.S, vb.S), (va.hid, vb.hid), (va.unseen, vb.unseen)):
        assert np.array_equal(x, y)
    assert len(va.hid) == 21 + 24 and list(va.unseen) == sorted(va.unseen)


@pytest.mark.parametrize(
    ("player", "ov", "mode"),
    [
        ("mc", {}, "reshuffle"),
        ("mc", {"draw": 1}, "shuffled-once"),
        ("mc+heuristics", {"draw": 1}, "reshuffle"),
    ],
)
def test_a_game_is_the_same_with_kernel_or_engine_playouts(player: str, ov: dict, mode: str) -> None:
    opts = {"playouts": 3, "depth": 50, "mode": mode}
    a, b = (
        play_task(PlayTask("klondike", ov, "portable", 6, player, {**opts, "runner": r}, 80, keep_moves=True))
        for r in ("kernel", "engine")
    )
    assert a.solution == b.solution and a.end == b.end and a.moves > 10


def test_freecell_klaver_scores_the_same_with_kernel_or_engine() -> None:
    opts = {"playouts": 2, "depth": 40, "score": "klaver"}
    a, b = (
        play_task(PlayTask("freecell", {}, "ms", 3, "mc", {**opts, "runner": r}, 40, keep_moves=True))
        for r in ("kernel", "engine")
    )
    assert a.solution == b.solution and a.moves == 40


def test_runner_choices() -> None:
    with pytest.raises(ValueError, match="runner 'gpu'"):
        make_player("mc", runner="gpu")
    with pytest.raises(ValueError, match="playout random only"):
        make_player("mc", runner="kernel", playout="safe")
    rules = deal("klondike", 1).rules
    assert not make_player("mc", playout="safe").uses_kernel(rules)  # type: ignore[attr-defined]
    assert not make_player("mc", runner="engine").uses_kernel(rules)  # type: ignore[attr-defined]


def test_with_numba_off_auto_plays_on_the_engine_and_the_game_is_unchanged() -> None:
    """PATIENCE_NO_JIT=1: ``auto`` falls back to the engine, and the game is move for move the one the
    kernel plays."""
    code = (
        "from patience.play.game import PlayTask, play_task\n"
        "from patience.play.players import make_player\n"
        "from patience.deals import deal\n"
        "print(make_player('mc').uses_kernel(deal('klondike', 1).rules))\n"
        "r = play_task(PlayTask('klondike', {}, 'portable', 8, 'mc', {'playouts': 2, 'depth': 40}, 50, "
        "keep_moves=True))\n"
        "print(r.solution)\n"
    )
    env = {**os.environ, "PATIENCE_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    used, moves = out.stdout.splitlines()
    assert used == "False"
    opts = {"playouts": 2, "depth": 40, "runner": "kernel"}
    here = play_task(PlayTask("klondike", {}, "portable", 8, "mc", opts, 50, keep_moves=True))
    assert moves == str(here.solution)


def test_safe_playouts_play_on_the_engine_and_replay() -> None:
    """``playout safe`` (not in the kernel) runs on the engine with the same uniforms; seeded games replay."""
    opts = {"playouts": 2, "depth": 30, "playout": "safe"}
    task = PlayTask("klondike", {}, "portable", 9, "mc", opts, 40, keep_moves=True)
    a, b = play_task(task), play_task(task)
    assert a.solution == b.solution and a.moves > 10
