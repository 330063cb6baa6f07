"""The work budget: the most one command may roll, known before anything is rolled.

Every rolling command states the most one repetition can roll (a :class:`Work`); the
command is refused at once (a usage error naming the budget) when that, over all its
repetitions, is over :data:`WORK_BUDGET`. Pure: no I/O, no clock.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from rpgdice.core.errors import RulesError

MAX_TIMES = 100_000
"""The most repetitions (``-n``) of a command."""

ROLL_COST = 10
"""What one roll costs beside its dice, in dice: scoring it and showing it (measured:
one Reglas roll took about as long as ten Crytures dice, in either view)."""
WORK_BUDGET = MAX_TIMES * (1 + ROLL_COST)
"""The most work one command may do, in dice: every die it can roll counts 1 and every
roll it can make (each roll of a sequence, each re-roll, each repetition) counts
:data:`ROLL_COST` more, over all its repetitions. 1,100,000: exactly what a single-die
roll (a d20, a Reglas or Cypher roll) repeated the most times ``-n`` takes (100000) costs, and
small enough that the largest command allowed finishes in about a minute on a small
machine, in the terminal view (the slower one; JSON Lines take about a third of that)."""


class Work(NamedTuple):
    """The most one repetition of a command can roll: ``dice`` dice in ``rolls`` rolls."""

    dice: int
    rolls: int = 1

    @property
    def cost(self) -> int:
        return self.dice + ROLL_COST * self.rolls


CHECKED = Work(0, 0)
"""``run(work=CHECKED)``: the command called :func:`check_work` itself, with what its
whole repetition rolls (``rpgdice roll`` hands ``run`` one expression at a time)."""


def check_work(work: Work, times: int, param: str = "--times") -> None:
    """Refuse at once (a usage error) a command whose worst case is over the budget."""
    total = work.cost * times
    if total > WORK_BUDGET:
        most = max(1, WORK_BUDGET // work.cost)
        rolls = f"{work.rolls} roll" + ("" if work.rolls == 1 else "s")
        raise RulesError(
            param,
            f"{times} repetitions of up to {work.dice} dice in {rolls} is {total:,} dice of "
            f"work, over the budget of {WORK_BUDGET:,} a command (a die counts 1, a roll "
            f"{ROLL_COST}); accepts at most {most} repetitions of this command",
        )


ODDS_BUDGET = 1_000_000
"""The most steps the exact odds of one command may take (a step: one state of a
sequence's running total times one result of its roll, or one cell of a sum): about two
seconds of exact arithmetic on a small machine. The common cases take a few thousand."""

_share = threading.local()
"""How many odds computations share :data:`ODDS_BUDGET` in the command running (in this
thread: the table's server runs several at once): 1, or 1 + the number of ``--compare``
alternatives (each is a whole computation)."""


def share_odds_budget(computations: int) -> None:
    """Let the next odds computations of this command share the budget ``computations`` ways
    (the command line sets it as it reads ``--compare``; 1 for a command without)."""
    _share.ways = max(1, computations)


def odds_share() -> int:
    """How many computations share the odds budget now (:func:`share_odds_budget`)."""
    return int(getattr(_share, "ways", 1))


def sequence_steps(target: int, rolls: int, results: int) -> int:
    """The worst case of a sequence's odds (an extended roll): each roll meets every running
    total below the target with each distinct result of one roll, and the exact fractions
    grow with the rolls made (measured: the cost of 1,000 rolls is mostly their length)."""
    return rolls * (max(0, target) * results + rolls)


def check_odds(steps: int, param: str, what: str) -> None:
    """Refuse at once (a usage error) exact odds whose worst case is over their share of
    :data:`ODDS_BUDGET`."""
    ways = odds_share()
    share = ODDS_BUDGET // ways
    if steps > share:
        shared = (f" (shared by the {ways} computations --compare asks for: "
                  f"{share:,} each)") if ways > 1 else ""
        raise RulesError(param, f"the exact odds of {what} take up to {steps:,} steps, over the "
                         f"odds budget of {ODDS_BUDGET:,}{shared}; ask for fewer rolls or a "
                         "lower target")
