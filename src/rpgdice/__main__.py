"""`python -m rpgdice`."""

from rpgdice.entry import run

run()
