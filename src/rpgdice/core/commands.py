"""The names of the root group's own commands (no ruleset's), in the order ``rpgdice
--help`` lists them: the command line (rpgdice.cli) lists and loads them, and the
registry layer refuses them as names of a user's ruleset file. Kept here, below both, so
neither imports the other. Pure data."""

from __future__ import annotations

ROOT_COMMANDS = ("roll", "odds", "char", "alias", "paths", "encounter", "log", "again", "play",
                 "serve", "seat", "table", "completion", "rulesets")
"""Every command and group of ``rpgdice`` that is no ruleset's (the README's order):
exactly the command line's ``TOP_COMMANDS``, ``COMMAND_MODULES`` and ``GROUP_MODULES`` (a test holds them
to it)."""

NOT_COMMANDS = ("help", "dice")
"""Names the root also answers to, beside its commands: ``help`` (the help's word) and
``dice`` (ordinary dice's ruleset)."""
