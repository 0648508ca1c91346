"""Playing games with hidden cards: what a player sees, players, and the play loop (issue 16).

:mod:`.observation` (what a person at the table sees; worlds consistent with it), :mod:`.players`
(random, Donkersteeg's heuristics, flat Monte Carlo in 'reshuffle' and 'shuffled-once' modes) and
:mod:`.game` (the loop: deal, choose, apply on the true engine, validate every win).
"""
