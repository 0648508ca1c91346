"""The play loop: deal, let a player choose among the legal moves, apply them on the true engine.

A game ends when it is won, when no legal move is left (``no-move``), when the last ``repeats`` moves in a row
each led to a position already reached in this game (``repeat``: positions are compared by the engine's
canonical state key, :meth:`patience.engine.Engine.key`), when the player resigns, at ``max_moves`` moves
(``cap``) or at the wall-time limit (``time``: neither won nor lost, an unknown). ``repeats`` defaults to
:func:`repeat_window`: five passes through the stock (going back through positions already seen is how a
Klondike player reaches a waste card it passed over, and a random player needs a few passes to hit it: one
pass cut random Klondike wins from 15 to 8 of 200 deals), or one move per card without a stock.

Donkersteeg 2010 (sections 2.1 and 4.6) ends a game won, with no move, or lost by 'too many stock to waste
moves' when that is the only possible move ('normally twice the stock'): a position where only the stock
turns is dead, and ``repeat`` ends it too (after five passes instead of two, which changes no win, only the
move count of a lost game). He names no move cap; a cap changes nothing measurable for the random player
(Klondike draw 3, seeds 1-300: the same 18 wins with a 1000-move cap and with a 20,000-move cap and no
``repeat`` end). Klaver 2022 caps random FreeCell games at 5000 moves.
The player sees only an :class:`~.observation.Observation`; a peeking player (Monte Carlo
'shuffled-once') is handed the true state as well, deliberately and by name (``truth``). Every won
game is replayed by the independent validator (:func:`patience.validate.replay`); a win that does not
replay raises :class:`PlayError` (a bug).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import Engine, Move
from ..instance import Instance
from .observation import observe, world_of
from .players import Player, make_player

__all__ = [
    "ENDS", "GameRecord", "PlayError", "PlayTask", "play_game", "play_many", "play_task", "repeat_window"
]  # fmt: skip

ENDS = ("won", "no-move", "repeat", "resigned", "cap", "time")
"""How a game ends; ``time`` is an unknown, every other end but ``won`` a loss."""


class PlayError(RuntimeError):
    """A player chose a move it was not offered, or a won game failed to replay: a bug, never a result."""


@dataclass(frozen=True)
class GameRecord:
    """One game played: how it ended, cards home at the end, moves played, seconds, and its moves as JSON."""

    seed: int
    end: str
    home: int
    moves: int
    seconds: float
    solution: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    @property
    def won(self) -> bool:
        return self.end == "won"


def play_game(
    instance: Instance,
    player: Player,
    rng: random.Random,
    max_moves: int = 1000,
    seconds: float | None = None,
    seed: int = 0,
    repeats: int | None = None,
) -> GameRecord:
    """Play ``instance`` with ``player`` (choices drawn from ``rng``) until it ends (see the module doc)."""
    from ..validate import replay

    t0 = time.perf_counter()
    e = Engine(instance)
    if repeats is None:
        repeats = repeat_window(instance)
    seen = {e.key()}
    played: list[dict[str, Any]] = []
    history: tuple[Move, ...] = ()
    in_a_row = 0  # moves in a row that reached a position seen before
    end = ""
    while not end:
        legal = e.legal_moves()
        if e.is_won():
            end = "won"
        elif not legal:
            end = "no-move"
        elif in_a_row >= repeats:
            end = "repeat"
        elif len(played) >= max_moves:
            end = "cap"
        elif seconds is not None and time.perf_counter() - t0 > seconds:
            end = "time"
        else:
            truth = world_of(e) if player.peeks else None  # 'shuffled-once' only: named, deliberate
            m = player.choose(observe(e, legal, history), rng, truth)
            if m is None:
                end = "resigned"
            elif m not in legal:
                raise PlayError(f"player {player.name} chose {m}, which was not offered")
            else:
                played.append(e.move_to_json(m))
                history += (m,)
                e.apply(m)
                k = e.key()
                in_a_row = in_a_row + 1 if k in seen else 0
                seen.add(k)
    if end == "won":
        rep = replay(instance, played)
        if not (rep.ok and rep.won):
            raise PlayError(f"seed {seed}: won game does not replay: {rep.message()}")
    return GameRecord(seed, end, e.foundation_cards(), len(played), time.perf_counter() - t0, tuple(played))


def repeat_window(instance: Instance) -> int:
    """How many moves in a row onto positions already reached end a game (``repeat``): five passes through
    the stock (``5 x (ceil(stock / deal count) + 2)``, 50 for Klondike draw 3, 130 for draw 1); without a
    stock, one move per card of the deck (52 in FreeCell): a FreeCell player may shuffle cards between
    cells and piles for a while before the move that makes progress, and ten moves (the stock formula
    with no stock) is short for that. Measured, random FreeCell on MS deals 1-200 wins the same 2 games
    with a 10-move window, a 52-move window, and Klaver's setting (no window, 5000-move cap)."""
    st = instance.rules.stock
    if st.size == 0:
        return Engine(instance).n_cards
    return 5 * (-(-st.size // max(st.deal_count, 1)) + 2)


@dataclass(frozen=True)
class PlayTask:
    """One game to play in a worker: the deal (game, overrides, generator, seed) and the player."""

    game: str
    overrides: dict[str, Any]
    generator: str
    seed: int
    player: str
    options: dict[str, Any]
    max_moves: int = 1000
    seconds: float | None = None
    keep_moves: bool = False


def play_task(task: PlayTask) -> GameRecord:
    """Deal and play one task (top level, so a process pool can run it). The player's random stream is
    ``random.Random(seed)``: the same task gives the same game."""
    from ..deals import deal

    inst = deal(task.game, task.seed, task.generator, task.overrides or None)
    player = make_player(task.player, **task.options)
    rec = play_game(inst, player, random.Random(task.seed), task.max_moves, task.seconds, task.seed)
    if not task.keep_moves:
        rec = GameRecord(rec.seed, rec.end, rec.home, rec.moves, rec.seconds)
    return rec


def play_many(
    game: str,
    seeds: range | list[int],
    player: str,
    options: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
    generator: str = "portable",
    max_moves: int = 1000,
    budget: float | None = None,
) -> list[GameRecord]:
    """Play ``seeds`` in this process, in order, as ``patience play`` does (one :class:`PlayTask` each);
    with ``budget`` seconds, stop starting new games once it is spent (the games played are a prefix of
    ``seeds``). For notebooks and benchmarks."""
    t0 = time.perf_counter()
    out = []
    for s in seeds:
        if budget is not None and out and time.perf_counter() - t0 > budget:
            break
        out.append(play_task(PlayTask(game, dict(overrides or {}), generator, s, player, dict(options or {}),
                                      max_moves)))  # fmt: skip
    return out
