"""Figures the papers publish, kept only as labelled comparison values (never as results).

Every number the toolkit reports is computed; these are printed beside it, marked "published", so a
reader can compare. Sources: Wolter 2014, "Experimental Analysis of Black Hole and All-In-A-Row
Solitaire" (BH) and "Experimental Analysis of Thirty Six Solitaire" (T36).
"""

from __future__ import annotations

__all__ = ["WOLTER"]

WOLTER: dict[str, object] = {
    # BH 3.1: rank sequences of 4 x 13 with wrap starting with an Ace, the suit factor, circular share
    "rank_sequences": 212_047_876,
    "suit_factor": 876_488_338_465_357_824,
    "circular_percent": 22.56,
    "max_direction_changes": 38,
    # BH 3.1.2: sequences by end rank (A, 2, ..., K), start Ace
    "by_end": (
        6_374_376,
        23_914_844,
        9_559_134,
        21_789_078,
        12_734_820,
        18_954_720,
        15_884_154,
        15_884_154,
        18_954_720,
        12_734_820,
        21_789_078,
        9_559_134,
        23_914_844,
    ),
    # BH 5.1: Black Hole deals with no first move, per million: expected and seen in 10^6 deals
    "no_first_move_per_million": 28_513,
    "no_first_move_seen_per_million": 28_325,
    # BH 5: mean cards removed over 10^6 deals; Binary Star (BH 8) over 10^4 deals
    "mean_removed": {"black-hole": 46.27, "all-in-a-row": 47.68, "binary-star": 96.1},
    # The counting convention of each mean (analysis.removed.CONVENTIONS). Binary Star's is stated (96.1 "of
    # the 104 cards", its two starting cards included). Black Hole's is not; it is read as "home" (the
    # starting Ace counted, a win is 52) because at 1000 deals 46.27 lies inside our home interval and
    # outside our moved one (benchmarks/out/issue17_status.md, W10); All in a Row has no starting card.
    "mean_removed_convention": {"black-hole": "home", "all-in-a-row": "moved", "binary-star": "home"},
    "win_percent": {"black-hole": 87.0, "all-in-a-row": 67.1},
    # BH 8: Binary Star, first 10,000 Politaire seeds: won / proven lost / unresolved (percent)
    "binary_star_percent": (89.5, 8.0, 2.5),
    # T36: first 100,000 Politaire seeds: won, unresolved (percent); mean cards removed
    "thirty_six_percent": (94.33, 0.33),
    "thirty_six_mean_removed": 49.3,
}
