"""rpgdice: a dice roller that knows Crytures, Seyruun, Reglas Básicas and the Cypher System."""

__version__ = "0.1.0"
