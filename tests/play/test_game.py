"""The play loop: seeded games replay identically, wins validate, endings, and who sees the truth."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from patience.deals import deal
from patience.engine import Engine, Move
from patience.play.game import PlayError, PlayTask, play_game, play_task
from patience.play.observation import HIDDEN, Observation, World
from patience.validate import replay


@pytest.mark.parametrize(
    ("player", "options"),
    [
        ("random", {}),
        ("random", {"moves": "donkersteeg", "auto_safe": True}),
        ("heuristic", {}),
        ("mc", {"playouts": 2, "depth": 40}),
    ],  # fmt: skip
)
def test_seeded_games_replay_identically(player: str, options: dict) -> None:
    task = PlayTask("klondike", {}, "portable", 7, player, options, max_moves=60, keep_moves=True)
    a, b = play_task(task), play_task(task)
    assert a.solution == b.solution and a.end == b.end and a.home == b.home
    assert a.moves == len(a.solution) > 0


def test_every_won_game_replays_in_the_validator() -> None:
    wins = 0
    for seed in range(1, 41):
        task = PlayTask("klondike", {}, "portable", seed, "random", {"moves": "donkersteeg"}, keep_moves=True)
        rec = play_task(task)
        if rec.won:
            wins += 1
            rep = replay(deal("klondike", seed), list(rec.solution))
            assert rep.ok and rep.won and rep.moves == rec.moves
            assert rec.home == 52
    assert wins >= 1  # random play wins a few percent of Klondike deals


def test_freecell_random_with_safe_moves_plays_and_validates() -> None:
    rec = play_task(PlayTask("freecell", {}, "ms", 1, "random", {"auto_safe": True}, max_moves=300))
    assert rec.end in ("won", "cap", "repeat", "no-move")
    assert 0 <= rec.home <= 52


@dataclass
class _Spy:
    """Records what it is given; plays the first offered move."""

    peeks: bool
    name: str = "spy"
    seen: list[tuple[Observation, World | None]] = field(default_factory=list)

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
        self.seen.append((obs, truth))
        return obs.moves[0]


def test_only_a_peeking_player_is_handed_the_truth() -> None:
    inst = deal("klondike", 2)
    fair = _Spy(peeks=False)
    play_game(inst, fair, random.Random(0), max_moves=10)
    assert fair.seen and all(t is None for _, t in fair.seen)
    cheat = _Spy(peeks=True)
    play_game(inst, cheat, random.Random(0), max_moves=10)
    obs, truth = cheat.seen[0]
    assert truth == Engine(inst).snapshot()
    assert obs.piles[6].count(HIDDEN) == 6  # the observation itself still hides the cards


def test_endings() -> None:
    inst = deal("klondike", 2)

    class Resign:
        name, peeks = "resign", False

        def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
            return None

    assert play_game(inst, Resign(), random.Random(0)).end == "resigned"
    rec = play_game(inst, _Spy(peeks=False), random.Random(0), max_moves=5)
    assert rec.end in ("cap", "repeat") and rec.moves <= 5
    assert play_game(inst, _Spy(peeks=False), random.Random(0), max_moves=5).end == "cap"
    assert play_game(inst, _Spy(peeks=False), random.Random(0), seconds=0.0).end == "time"


def test_repeated_positions_end_the_game() -> None:
    """Turning the stock for ever: after `repeats` moves in a row onto known positions the game ends."""

    class TurnOnly:
        name, peeks = "turn", False

        def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
            return next(m for m in obs.moves if m[0] in (4, 5) and m[2] in (4, 5))  # stock or redeal

    rec = play_game(deal("klondike", 2), TurnOnly(), random.Random(0), repeats=12)
    assert rec.end == "repeat"
    # 8 turns reach new positions; the redeal returns to the deal's position (unlimited redeals are not
    # counted in the key), and it and the next 11 moves are the 12 repeats.
    assert rec.moves == 8 + 12


def test_a_move_not_offered_is_a_bug() -> None:
    class Cheat:
        name, peeks = "cheat", False

        def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
            return (0, 0, 0, 1, 5)

    with pytest.raises(PlayError, match="not offered"):
        play_game(deal("klondike", 2), Cheat(), random.Random(0))
