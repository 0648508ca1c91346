"""The ``patience`` command line.

Exit codes (:mod:`.errors`): 0 ok; 1 not solved when ``--require-win`` is given; 2 bad input or usage,
reported as one line naming the problem and where it is, with nothing written to disk (an unsupported
game/backend pair, hidden-information games included, is bad input: refused before any work); 3 a backend
error; 130 interrupted.

:mod:`.group` holds the group; one module per group of commands (:mod:`.games`, :mod:`.deal`, :mod:`.show`,
:mod:`.solve`, :mod:`.pddl`, :mod:`.experiments`); the helpers they share have one module each
(:mod:`.errors`, :mod:`.limits`, :mod:`.sets`, :mod:`.generator`, :mod:`.target`, :mod:`.backends`,
:mod:`.output`, and :mod:`.batch` for the batch commands).
"""

from .group import main

__all__ = ["main"]
