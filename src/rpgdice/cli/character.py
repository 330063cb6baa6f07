"""Rolling for a saved character: ``--as NAME`` (or ``RPGDICE_AS``).

:mod:`rpgdice.cli` adds the option to every command of a ruleset's group (one place,
no command's signature changes) and loads this module only when a character is
named, so a roll without ``--as`` loads nothing of it (nor tomllib, nor the sheets).

* :func:`take` (the option's callback, eager: it runs before any argument is
  parsed) reads the sheet into ``ctx.meta`` and sets the defaults the sheet gives
  (the Seyruun wound; the Edge of the Cypher Pool named by ``--pool``).
* :func:`traits` turns trait names in a pool, attribute, skill or index argument into
  their numbers (``dexterity+stealth`` -> ``3+3``) before the argument's own parser
  sees it, and keeps the names for the view ("Dexterity 3 + Stealth 3").
* :func:`described` is what the roll value keeps of it (rpgdice.roll.spec.Character);
  paying from the sheet is the executor's (rpgdice.roll.character).
"""

from __future__ import annotations

from typing import Any

from rpgdice.cli.typer_private import Context, ParameterSource
from rpgdice.core.errors import RulesError, shown
from rpgdice.table import sheets

SHEET = "rpgdice.sheet"
"""``ctx.meta`` key of the character's :class:`~rpgdice.table.sheets.Sheet`."""
LABELS = "rpgdice.labels"
"""``ctx.meta`` key of what each argument named: ``[(PARAM, "Dexterity 3 + Stealth 3")]``."""
TERMS = "rpgdice.terms"
"""``ctx.meta`` key of each argument's terms as it named them: ``{PARAM: [Term, ...]}``."""
POOL = "rpgdice.pool"
"""``ctx.meta`` key of the Cypher Pool ``--pool`` named."""
AS_ENV = "RPGDICE_AS"


def looks_like_names(value: object) -> bool:
    """Whether an argument's value holds a word, as a trait name is: a term (of a sum)
    that starts with a letter."""
    if not isinstance(value, str):
        return False
    import re

    return any(term.strip()[:1].isalpha() for term in re.split(r"[+\-\u2212\u2013]", value))


def without_as(value: str, reason: str, skill: bool = False) -> str:
    """The error of an argument given trait names (``seyruun roll dexterity stealth``,
    ``cypher task --skill stealth``) when no character rolls: that they look like trait
    names, and what to do (``--as NAME`` reads them from a saved character's sheet)."""
    text = value.strip()
    if skill:
        return (f"{reason}; {shown(text)} looks like a skill's name, which only a character's "
                "roll reads from its sheet: add --as NAME (a saved character: rpgdice char list)")
    what = "trait names" if any(c in text for c in "+-\u2212\u2013") else "a trait name"
    return (f"{shown(text)} is no number but looks like {what}, which only a character's roll "
            "reads from its sheet: add --as NAME (a saved character: rpgdice char list), "
            "or give numbers such as 3+2")


def take(ctx: Context, param: Any, value: str, ruleset: str) -> None:
    """``--as NAME``: read the sheet; a character of another ruleset is a usage error
    on the command line and ignored from ``RPGDICE_AS``."""
    from_env = ctx.get_parameter_source(param.name) == ParameterSource.ENVIRONMENT
    where = AS_ENV if from_env else "--as"
    try:
        sheet = sheets.load(value, where)
    except RulesError as e:
        if not from_env or not _nobody(value):
            raise
        from rpgdice.cli.output import warning

        # An RPGDICE_AS that names nobody stops no command: it rolls without a character.
        warning(f"{AS_ENV}: {e.message}; rolling without a character")
        return
    if sheet.ruleset != ruleset:
        if from_env:
            return
        raise RulesError("--as", f"{sheet.name} is a {sheet.ruleset} character, and "
                         f"'{ctx.command_path}' rolls {ruleset}")
    ctx.meta[SHEET] = sheet
    _defaults(ctx)


def _nobody(name: str) -> bool:
    """Whether ``name`` names no saved character (no such sheet, or no name at all): a
    sheet that exists but is broken is still an error."""
    try:
        sheets.check_name(name, AS_ENV)
    except RulesError:
        return True
    return not sheets.path_of(name).exists()


def pool_option(ctx: Context, value: str) -> None:
    """``--pool might|speed|intellect`` (Cypher): the Pool that pays the Effort."""
    ctx.meta[POOL] = value
    _defaults(ctx)


def _defaults(ctx: Context) -> None:
    """What the sheet gives an option the command line leaves out."""
    sheet = ctx.meta.get(SHEET)
    if sheet is None:
        return
    defaults = dict(ctx.default_map or {})
    own = sheets.schema(sheet.ruleset).defaults
    if own is not None:
        defaults.update(own(sheet, ctx.meta.get(POOL)))
    ctx.default_map = defaults


def sheet_of(ctx: Context | None) -> sheets.Sheet | None:
    return None if ctx is None else ctx.meta.get(SHEET)


def traits(ctx: Context, param: Any, value: str) -> str:
    """A pool argument with trait names as the numbers they stand for."""
    from rpgdice.cli.params import ascii_minus

    sheet = ctx.meta[SHEET]
    # Every typed minus sign (−, –) reads as "-", as in a pool without --as.
    got = sheets.resolve(sheet, ascii_minus(value), param.name.upper())
    if got is None:
        return value
    text, terms = got
    ctx.meta.setdefault(LABELS, []).append((param.name.upper(), sheets.describe(terms)))
    ctx.meta.setdefault(TERMS, {})[param.name.upper()] = terms
    return text


TYPO = 0.8
"""How close (difflib's ratio) a ``--skill`` name must be to a skill the sheet lists to
read as a misspelling of it (a usage error) rather than an unlisted skill."""
PRACTICED = "rpgdice.practiced"
"""``ctx.meta`` key of a Cypher ``--skill NAME`` the sheet does not list."""


def skill(ctx: Context, value: str) -> str | None:
    """Cypher ``--skill NAME``: the level the sheet gives that skill. A skill the sheet
    does not list is practiced (SRD): no step, None, and the output says so; a name
    close to a listed skill is a misspelling of it, a usage error."""
    from rpgdice.core.names import fold

    sheet = ctx.meta[SHEET]
    levels = sheets.schema(sheet.ruleset).skill_words
    if fold(value) in {fold(s) for s in levels}:
        return value
    spelled = sheet.spelling(value)
    if spelled is None or sheet.traits[spelled] not in levels:
        skills = [k for k, v in sheet.traits.items() if v in levels]
        from difflib import get_close_matches

        names = [*skills, *levels]  # a misspelled level is no practiced skill either
        close = get_close_matches(fold(value), [fold(s) for s in names], n=1, cutoff=TYPO)
        if close or spelled is not None or not value.strip():
            hint = ""
            if close:
                hint = f" (the closest is '{next(s for s in names if fold(s) == close[0])}')"
            raise RulesError("--skill", f"{shown(value)} is not one of "
                             f"{', '.join(levels)} nor a skill of {sheet.name}{hint}")
        name = value.strip()
        ctx.meta[PRACTICED] = name
        ctx.meta.setdefault(LABELS, []).append(
            ("--skill", f"{sheets.label(name)} (practiced, not on the sheet: no step)"))
        return None
    level = sheet.traits[spelled]
    ctx.meta.setdefault(LABELS, []).append(("--skill", f"{sheets.label(spelled)} ({level})"))
    return level


# The character's part of a roll value ---------------------------------------------


def described(ctx: Context) -> Any:
    """The character part of the roll the command line ``ctx`` parsed
    (:class:`rpgdice.roll.spec.Character`): its name, what each argument named (and the
    sheet's wound where it applied), the terms as named, a practiced skill, the Pool."""
    from rpgdice.roll.spec import Character, Term

    sheet = ctx.meta[SHEET]
    labels = list(ctx.meta.get(LABELS, []))
    given = tuple(name for name in ctx.params
                  if ctx.get_parameter_source(name) != ParameterSource.DEFAULT_MAP)
    own = sheets.schema(sheet.ruleset).labels
    if own is not None:
        labels += own(sheet, ctx.command.name or "", set(given))
    terms = tuple((param, tuple(Term(t.sign, t.trait, t.value) for t in named))
                  for param, named in ctx.meta.get(TERMS, {}).items())
    return Character(name=sheet.name, ruleset=sheet.ruleset, labels=tuple(labels), terms=terms,
                     practiced=ctx.meta.get(PRACTICED), pool=ctx.meta.get(POOL), given=given)
