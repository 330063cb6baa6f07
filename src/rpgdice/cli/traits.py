"""Trait names on the command line: the type of a trait-taking parameter (its record's
kind ``traits``, Cypher's ``--skill``, a target's pools), which keeps names as typed when
the line names a character (``--as``) or a target (``--vs``) — the executor reads them
from the sheet — and otherwise answers them with what to do."""


from difflib import get_close_matches
from typing import Any

from rpgdice.cli.typer_private import ParamType, click

AS_ENV = "RPGDICE_AS"


class _TraitType(ParamType):
    """A trait-taking parameter's type (its record's kind ``traits``, or Cypher's
    ``--skill``): with ``--as`` trait names are kept as typed, for the executor to read from
    the sheet (rpgdice.roll.character); without it, they are answered with ``--as``."""

    def __init__(self, inner: Any, hook: str) -> None:
        self.inner = inner
        self.hook = hook
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # parser attributes: func, choices, accepts
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.hook == "target":  # a target's pool: its names read with the target (--vs)
            from rpgdice.cli import character

            vs = ctx.params.get("vs") if ctx is not None else None
            if isinstance(vs, str) and vs.strip() and character.looks_like_names(value):
                return value
            return self.inner.convert(value, param, ctx)
        if ctx is not None and ctx.params.get("as_name") and isinstance(value, str):
            return self._named(value, param, ctx)  # the executor reads the sheet
        try:
            return self.inner.convert(value, param, ctx)
        except click.BadParameter as e:  # no character rolls: trait names say to add --as
            from rpgdice.cli import character

            levels = getattr(getattr(self.inner, "func", None), "choices", None) or ()
            if not character.looks_like_names(value) or get_close_matches(value, levels, n=1):
                raise  # no word, or a misspelled level (its message names the closest)
            e.message = character.without_as(value, e.message, skill=self.hook == "skill")
            raise


    def _named(self, value: str, param: Any, ctx: Any) -> Any:
        """A value of a line that rolls for a character: trait names kept as typed (the
        executor reads them from the sheet); numbers read now."""
        from rpgdice.cli import character

        if self.hook == "traits":
            return value if character.looks_like_names(value) else self.inner.convert(
                value, param, ctx)
        try:  # Cypher's --skill: a level now, a skill's name from the sheet
            return self.inner.convert(value, param, ctx)
        except click.BadParameter:
            return value


def trait_type(inner: Any, hook: str) -> Any:
    """An argument's type that, with ``--as``, reads trait names first (``hook``:
    ``traits``, or ``skill`` for Cypher's ``--skill``)."""
    return _TraitType(inner, hook)
