"""What every ruleset shares, and nothing else: the dice source (``dice``), the record
decorators (``record``), usage errors (``errors``), names folding (``names``), sequences of
rolls (``sequence``), the luck test of the log (``luck``) and the exact-odds helpers over
icepool (``exact``, loaded on the odds path alone).

Nothing here imports typer or rich, touches a file or reads the clock; dice come from an
injected :class:`rpgdice.core.dice.DiceSource`.
"""
