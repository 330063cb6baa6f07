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
* :func:`settle` rolls under the sheet's lock and pays from the sheet what the
  command spent (Seyruun Willpower, Cypher Effort from a Pool, given back on a
  natural 20); a command that cannot pay for the worst case of every repetition rolls
  nothing and exits 2, the sheet untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rpgdice.cli.typer_private import Context, ParameterSource
from rpgdice.core.errors import RulesError, shown
from rpgdice.rulesets import Cost
from rpgdice.table import sheets

SHEET = "rpgdice.sheet"
"""``ctx.meta`` key of the character's :class:`~rpgdice.table.sheets.Sheet`."""
LABELS = "rpgdice.labels"
"""``ctx.meta`` key of what each argument named: ``[(PARAM, "Dexterity 3 + Stealth 3")]``."""
TERMS = "rpgdice.terms"
"""``ctx.meta`` key of each argument's terms as it named them: ``{PARAM: [Term, ...]}``."""
PAID = "rpgdice.paid"
"""``ctx.meta`` key of what the sheet paid, ``(sheet, resource, points)``, until the output is out."""
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


# Paying ------------------------------------------------------------------------


def plan(ctx: Context, sheet: sheets.Sheet) -> Cost:
    """The costs of the command ``ctx`` runs, from its parameters: its ruleset's own
    ``plan`` (rpgdice.rulesets.Ruleset.plan)."""
    from rpgdice import rulesets

    own = rulesets.get(sheet.ruleset).plan
    if own is None:
        return Cost()
    return own(ctx.command.name or "", ctx.params, sheet, ctx.meta.get(POOL))


def check(ctx: Context) -> None:
    """The checks an ``odds`` command with ``--as`` makes (it pays nothing)."""
    sheet = sheet_of(ctx)
    if sheet is not None:
        plan(ctx, sheet)


def extra_base(ctx: Context) -> dict[str, Any]:
    """What every result of a character's command carries: its name, the traits the
    arguments named, and the sheet's wound where it applied."""
    sheet = ctx.meta[SHEET]
    labels = list(ctx.meta.get(LABELS, []))
    own = sheets.schema(sheet.ruleset).labels
    if own is not None:
        given = {name for name in ctx.params
                 if ctx.get_parameter_source(name) != ParameterSource.DEFAULT_MAP}
        labels += own(sheet, ctx.command.name or "", given)
    base = {"character": sheet.name, "labels": labels}
    if PRACTICED in ctx.meta:  # Cypher: a skill the sheet does not list
        base["practiced"] = ctx.meta[PRACTICED]
    return base


def settle(ctx: Context, roll: Callable[..., Any], source: Any, times: int
           ) -> tuple[Iterable[Any] | None, Callable[[Any], dict[str, Any]]]:
    """Roll ``times`` times for the character, paying from the sheet under its lock.
    Returns the results (None when nothing is to be paid: the caller rolls as any
    command does) and, for each, the keys the output adds: ``character``, and where
    something may be paid ``spent`` and ``left``."""
    from rpgdice.core.dice import GivenDice

    sheet = ctx.meta[SHEET]
    base = extra_base(ctx)
    costs = plan(ctx, sheet)
    if costs.resource is None or costs.worst == 0:
        return None, lambda r: base  # nothing to pay: roll as any command does
    resource = costs.resource
    extras: dict[int, dict[str, Any]] = {}

    def pay(fresh: sheets.Sheet) -> tuple[dict[str, int], list[Any]]:
        have = sheets.resource(fresh, resource)
        worst = costs.worst * times
        if worst > have and not costs.paced:
            e = sheets.cannot_pay(fresh, "--as", resource, worst, have)
            raise RulesError(e.param, e.message + costs.why)
        results, left = [], have
        for _ in range(times):
            r = roll(source, left) if costs.paced else roll(source)
            results.append(r)
            spent = costs.cost(r)
            left -= spent
            extras[id(r)] = {**base, "spent": {resource: spent}, "left": {resource: left}}
        if isinstance(source, GivenDice):
            source.check_all_used()
        return {resource: left}, results

    results = sheets.settle(sheet, sheet.ruleset, pay)  # the file --as read pays
    from rpgdice.cli.runs import current_run

    spent = current_run(ctx).spent
    paid = 0
    for extra in extras.values():
        for name, n in extra["spent"].items():
            spent[name] = spent.get(name, 0) + n
            paid += n
    ctx.meta[PAID] = (sheet, resource, paid)
    return results, lambda r: extras[id(r)]


def refund(ctx: Context | None) -> None:
    """Give back what :func:`settle` paid, when the output could not be delivered (so
    nothing was logged either): a sheet pays only for what was shown and recorded. A
    refund that cannot be made is a warning; the output's own error is the one reported."""
    paid = None if ctx is None else ctx.meta.pop(PAID, None)
    if not paid or not paid[2]:
        return
    sheet, resource, points = paid

    def give_back(fresh: sheets.Sheet) -> tuple[dict[str, int], None]:
        return {resource: sheets.resource(fresh, resource) + points}, None

    try:
        sheets.settle(sheet, sheet.ruleset, give_back)
    except (RulesError, OSError) as e:
        from rpgdice.cli.output import warning

        warning(f"the {points} {resource} paid could not be given back: {e}")
        return
    from rpgdice.cli.runs import current_run

    spent = current_run(ctx).spent
    spent[resource] = spent.get(resource, 0) - points
