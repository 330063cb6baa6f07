"""rpgdice: dice roller for Crytures, Seyruun, Reglas Básicas and the Cypher System by the letter
of each rule, ordinary dice notation with exact odds, your own systems as ruleset files, the
table's state (characters, encounters, the roll log) and a live page for the TV and the
players' phones.

(The same words as ``description`` in pyproject.toml; tests/test_packaging.py keeps them so.)
"""

__version__ = "0.1.0"
