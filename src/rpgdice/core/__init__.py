"""The rules engine: pure functions and typed dataclasses, one module per ruleset.

Nothing here imports typer or rich or does I/O; dice come from an injected
:class:`rpgdice.core.dice.DiceSource`.
"""
