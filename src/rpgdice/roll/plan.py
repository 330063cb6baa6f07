"""What a ruleset's command makes of its arguments: a :class:`Plan`.

A command's builder (``rulesets/<name>/commands.py``) takes the command's typed
arguments and returns a plan: the roll as a function of a dice source, the work it may
cost (rpgdice.core.budget), its exact odds (computed only when asked), and what the
output adds to each result. It rolls nothing, prints nothing and writes nothing: that is
:func:`rpgdice.roll.execute.execute`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from rpgdice.core.budget import Work
from rpgdice.core.record import record

ONE = Work(1)
"""A plan's work when its builder states none: one roll."""


@record
class Plan:
    """A roll ready to execute, as a value (frozen; a changed copy is ``replace(plan, ...)``).
    ``roll(source)`` makes one result (``roll(source, budget)`` where a character pays as
    it goes); ``work`` is what one repetition may cost; ``odds`` its exact odds (an
    :class:`~rpgdice.roll.odds.ExactOdds`, or any function computing them), shown with
    ``--odds``; ``stats`` the exact odds the log keeps for ``log stats`` (None: none);
    ``keys`` are added to every JSON object; ``target(result)`` what travels beside each
    result besides the character line: an attack target's side (``vs_keys``, ``vs_table``)
    and what the roll did to the table (``held``: the state it found and the change, for
    the table's page to take a secret roll's effects back); ``character`` what a command
    that paid from a sheet itself shows (``seyruun reroll``); ``compact`` repeats in the
    ruleset's short form; ``times`` a count of results other than the spec's (ordinary
    dice: one per expression and repetition); ``log_command`` the command the log files
    it under. A plan with no ``roll`` is an odds command's: its odds alone are shown.
    ``roll_type``: its odds alone may be asked for (``rpgdice RULESET odds TYPE``).
    ``effects``: what the roll changes beyond the character's sheet (an attack's target,
    the entry a re-roll marks), an :class:`Effects`: finished once the roll is shown and
    logged, undone when it could not be. ``secret``: secret whatever the command line
    said (a re-roll of a secret roll not yet revealed: its dice are the secret roll's).
    ``reusable``: the plan may roll again for the same spec, as long as nothing but the spec
    went into it (no character, target or extras): building it read nothing, said nothing
    and left nothing to count, pay or finish (a session's line typed again rolls with it
    again: :func:`rpgdice.roll.execute.execute`'s ``keep``)."""

    roll: Optional[Callable[..., Any]] = None
    work: Work = ONE
    odds: Optional[Callable[[], object]] = None
    stats: Optional[Callable[[], object]] = None
    keys: Optional[dict[str, Any]] = None
    target: Optional[Callable[[Any], dict[str, Any]]] = None
    character: Optional[dict[str, Any]] = None
    compact: bool = False
    times: Optional[int] = None
    log_command: Optional[str] = None
    roll_type: bool = False
    effects: Optional[Effects] = None
    secret: bool = False
    blind: bool = False
    """Blind whatever the command line said (a push of a blind roll not yet revealed: the
    GM alone sees its dice)."""
    reusable: bool = False


class Effects:
    """What a roll changes beyond the character's sheet, made ready by its builder (a
    target's Willpower paid, a logged roll marked re-rolled): :meth:`finish` once the roll
    was shown and logged (``entry``: its log entry, None when not logged), :meth:`undo`
    when it was not (faces that do not fit, an output that could not be delivered). A
    replay makes none."""

    def finish(self, entry: Optional[int]) -> None:
        """The roll was shown (and logged as ``entry``)."""

    def undo(self) -> None:
        """The roll was not shown: give back what was taken."""
