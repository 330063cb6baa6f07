"""A roll as a value, and the one function that executes it.

* :mod:`rpgdice.roll.spec` — :class:`~rpgdice.roll.spec.RollSpec`, a frozen record of what
  a roll is: its ruleset, its command and typed arguments, and the run's choices (given
  dice or seed, repetitions, the character, logging, secrecy, output form). It is plain
  data: the roll log stores it, and ``again``, ``log show --replay``, ``log stats`` and
  ``seyruun reroll`` rebuild the roll from it, never from a command line.
* :mod:`rpgdice.roll.plan` — :class:`~rpgdice.roll.plan.Plan`, what a ruleset's command
  makes of its arguments: the roll (dice from an injected source), its work, its exact odds.
* :mod:`rpgdice.roll.execute` — :func:`~rpgdice.roll.execute.execute`: builds the plan,
  spends from the character's sheet, rolls, logs and renders.

The command line (:mod:`rpgdice.cli`), the session prompt and the table's server each
parse what they are given into a spec and hand it to ``execute``.
"""
