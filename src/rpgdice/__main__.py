"""`python -m rpgdice`."""

from rpgdice.cli import run

run()
