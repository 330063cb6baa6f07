"""The one domain error the engine raises for input the rules cannot take."""

from __future__ import annotations


class RulesError(ValueError):
    """Input the rules cannot evaluate.

    ``param`` names the input at fault the way a user typed it (``--dice``,
    ``POOL``); the command line turns the error into a usage error (exit 2).
    """

    def __init__(self, param: str | None, message: str) -> None:
        super().__init__(message)
        self.param = param
        self.message = message

    def __str__(self) -> str:
        return f"{self.param}: {self.message}" if self.param else self.message
