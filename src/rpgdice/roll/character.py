"""A character's roll (``--as``) as it executes: what it shows of the character, and
paying from the sheet.

* :func:`base` — what every result of a character's roll carries: its name, what the
  arguments named, and the sheet's wound where it applied.
* :func:`settle` rolls under the sheet's lock and pays from the sheet what the roll
  spent (Seyruun Willpower, Cypher Effort from a Pool, given back on a natural 20); a
  roll that cannot pay for the worst case of every repetition rolls nothing and exits 2,
  the sheet untouched. :func:`refund` gives it back when the output could not be delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Optional

from rpgdice.core.errors import BadValue, RulesError, shown
from rpgdice.roll.plan import Plan
from rpgdice.roll.spec import RollSpec

if TYPE_CHECKING:
    from rpgdice.core.command import Param, Parser
    from rpgdice.core.data import JSONObject
    from rpgdice.core.dice import DiceSource
    from rpgdice.core.parts import Cost
    from rpgdice.core.record import Tagged
    from rpgdice.roll.run import Turn
    from rpgdice.roll.spec import Term
    from rpgdice.table.sheets import Sheet, Trait


def costs(state: Turn, spec: RollSpec) -> Cost:
    """The costs of the roll, from its arguments: its ruleset's own ``plan``."""
    from rpgdice.core import registry
    from rpgdice.core.parts import Cost

    own = registry.get(spec.ruleset).plan
    if own is None or state.sheet is None:
        return Cost()
    pool = spec.character.pool if spec.character is not None else None
    return own(spec.command, spec.kwargs, state.sheet, pool)


def check(state: Turn, spec: RollSpec) -> None:
    """The checks an ``odds`` command with ``--as`` makes (it pays nothing)."""
    if state.sheet is not None:
        costs(state, spec)


def base(state: Turn) -> JSONObject:
    """What every result of a character's roll carries: its name, the traits the
    arguments named, and the sheet's wound where it applied."""
    spec = state.spec
    character = spec.character
    assert character is not None
    out: JSONObject = {"character": character.name, "labels": list(state.labels)}
    if character.practiced is not None:  # Cypher: a skill the sheet does not list
        out["practiced"] = character.practiced
    return out


def settle(state: Turn, plan: Plan, source: DiceSource, times: int
           ) -> tuple[list[Tagged] | None, Callable[[Tagged], JSONObject]]:
    """Roll ``times`` times for the character, paying from the sheet under its lock.
    Returns the results (None when nothing is to be paid: the caller rolls as any
    roll does) and, for each, the keys the output adds: ``character``, and where
    something may be paid ``spent`` and ``left``."""
    from rpgdice.core.dice import GivenDice
    from rpgdice.table import sheets

    sheet = state.sheet
    shown = base(state)
    cost = costs(state, state.spec)
    if cost.resource is None or cost.worst == 0:
        return None, lambda r: shown  # nothing to pay: roll as any roll does
    resource = cost.resource
    roll = plan.roll
    assert roll is not None
    extras: dict[int, JSONObject] = {}
    spends: dict[int, int] = {}  # what each result spent, as its extras say

    def pay(fresh: Sheet) -> tuple[dict[str, int], list[Tagged]]:
        have = sheets.resource(fresh, resource)
        worst = cost.worst * times
        if worst > have and not cost.paced:
            e = sheets.cannot_pay(fresh, "--as", resource, worst, have)
            why = "" if sheets.hidden(fresh) else cost.why  # (impaired: a state held back)
            raise RulesError(e.param, e.message + why)
        results: list[Tagged] = []
        left = have
        for _ in range(times):
            r = roll(source, left) if cost.paced else roll(source)
            results.append(r)
            spent = cost.cost(r)
            left -= spent
            extras[id(r)] = {**shown, "spent": {resource: spent}, "left": {resource: left}}
            spends[id(r)] = spent
        if isinstance(source, GivenDice):
            source.check_all_used()
        return {resource: left}, results

    results = sheets.settle(sheet, sheet.ruleset, pay)  # the file --as read pays
    paid = 0
    for n in spends.values():
        state.spent[resource] = state.spent.get(resource, 0) + n
        paid += n
    state.paid = (sheet, resource, paid)
    return results, lambda r: extras[id(r)]


def refund(state: Turn) -> None:
    """Give back what :func:`settle` paid, when the output could not be delivered (so
    nothing was logged either): a sheet pays only for what was shown and recorded. A
    refund that cannot be made is a warning; the output's own error is the one reported."""
    paid, state.paid = state.paid, None
    if not paid or not paid[2]:
        return
    from rpgdice.table import sheets

    sheet, resource, points = paid

    def give_back(fresh: Sheet) -> tuple[dict[str, int], None]:
        return {resource: sheets.resource(fresh, resource) + points}, None

    try:
        sheets.settle(sheet, sheet.ruleset, give_back)
    except (RulesError, OSError) as e:
        from rpgdice.render.output import warning

        warning(f"the {points} {resource} paid could not be given back: {e}")
        return
    state.spent[resource] = state.spent.get(resource, 0) - points


# Reading the sheet: a line's trait names as the sheet's numbers -------------------------


AS_ENV = "RPGDICE_AS"


def resolved(spec: RollSpec, sheet: Optional[Sheet]) -> tuple[RollSpec, Optional[Sheet]]:
    """A parsed line's spec with its character read: the sheet loaded (unless given), the
    trait names its arguments named made the sheet's numbers (``dexterity+stealth`` ->
    ``3+3``, then the argument's own parser), a Cypher ``--skill NAME`` the level the sheet
    gives it, the options the line left out given by the sheet (Seyruun's wound, the Edge of
    the Cypher Pool named), and what each argument named kept for the view. Returns the
    spec and the sheet (None: ``RPGDICE_AS`` named nobody, or another ruleset's character:
    rolled without one)."""
    from rpgdice.core import registry
    from rpgdice.table import sheets

    character = spec.character
    assert character is not None
    where = AS_ENV if character.from_env else "--as"
    if sheet is None:
        try:
            sheet = sheets.load(character.name, where)
        except RulesError as e:
            if not character.from_env or not _nobody(character.name):
                raise
            from rpgdice.render.output import warning

            # An RPGDICE_AS that names nobody stops no command: it rolls without a character.
            warning(f"{AS_ENV}: {e.message}; rolling without a character")
            return _without(spec), None
    if sheet.ruleset != spec.ruleset:
        if character.from_env:
            return _without(spec), None
        line = f"rpgdice {spec.ruleset} {spec.command}"
        raise RulesError("--as", f"{sheet.name} is a {sheet.ruleset} character, and "
                         f"'{line}' rolls {spec.ruleset}")
    record = registry.get(spec.ruleset)
    command = record.command(spec.command)
    args = dict(spec.args)
    given = set(character.given)
    own = sheets.schema(sheet.ruleset).defaults
    if own is not None:
        for key, value in own(sheet, character.pool).items():
            if key in args and key not in given:
                args[key] = value
    named = {p.name.upper() for p in command.params if isinstance(args.get(p.name), str)} \
        if command is not None else set()  # what this reading names (``again`` may add some)
    labels = [x for x in character.labels if x[0] not in named and x[0] not in ("wound", "state")]
    terms = [x for x in character.terms if x[0] not in named]
    practiced = character.practiced
    for param in command.params if command is not None else ():
        value = args.get(param.name)
        if param.kind == "traits":
            args[param.name] = _traits(sheet, param, value, labels, terms)
        elif param.completes == "skills" and isinstance(value, str):
            level, practiced = _skill(sheet, value, labels)
            args[param.name] = level
    schema_labels = sheets.schema(sheet.ruleset).labels
    if schema_labels is not None:
        labels += schema_labels(sheet, spec.command, given)
    from rpgdice.roll.spec import Character

    return spec.replace(args=tuple(args.items()), character=Character(
        name=sheet.name, ruleset=sheet.ruleset, labels=tuple(labels), terms=tuple(terms),
        practiced=practiced, pool=character.pool, given=character.given)), sheet


def _without(spec: RollSpec) -> RollSpec:
    """The spec rolled without its character: trait names left are refused as a line
    without ``--as`` refuses them (its parser's reason; names: what to do)."""
    from rpgdice.core import registry

    command = registry.get(spec.ruleset).command(spec.command)
    for param in command.params if command is not None else ():
        value = spec.arg(param.name)
        if param.kind == "traits" and isinstance(value, str):
            try:
                parsed(param, value)  # its parser says what is wrong
            except RulesError as e:
                if not looks_like_names(value):
                    raise
                raise RulesError(e.param, without_as(value, e.message)) from None
    return spec.replace(character=None)


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


def _nobody(name: str) -> bool:
    """Whether ``name`` names no saved character (no such sheet, or no name at all): a
    sheet that exists but is broken is still an error."""
    from rpgdice.table import sheets

    try:
        sheets.check_name(name, AS_ENV)
    except RulesError:
        return True
    return not sheets.path_of(name).exists()


def _label(param: Param) -> str:
    """How an error names a parameter: its option, or an argument's name in capitals."""
    return str(param.option or param.name.upper())


MINUS = str.maketrans({"\u2212": "-", "\u2013": "-"})
"""Typed minus signs (−, –) read as ``-``, as in a pool typed without a character."""


def parsed(param: Param, text: str, parse: Optional[Parser] = None) -> object:
    """``text`` read by the parameter's own parser (or ``parse``); its complaint a usage
    error naming it."""
    parse = parse or param.parse
    if parse is None:
        return text
    try:
        return parse(text)
    except BadValue as e:  # a parser's complaint: it names no parameter
        raise RulesError(_label(param), e.message) from None
    except RulesError:
        raise
    except Exception as e:  # the command line's bad-parameter error, which carries its reason
        message = getattr(e, "message", None)
        if not isinstance(message, str):
            raise
        raise RulesError(_label(param), message) from None


def _traits(sheet: Sheet, param: Param, value: object, labels: list[tuple[str, str]],
            terms: list[tuple[str, tuple[Term, ...]]]) -> object:
    """A trait-taking argument's value with the names it holds read from the sheet (each
    value of a repeated one in turn)."""
    if isinstance(value, tuple):
        return tuple(_traits(sheet, param, v, labels, terms) for v in value)
    if not isinstance(value, str):
        return value
    from rpgdice.roll.spec import Term
    from rpgdice.table import sheets

    name = param.name.upper()
    got = sheets.resolve(sheet, value.translate(MINUS), name)
    if got is None:
        return parsed(param, value)
    text, named = got
    labels.append((name, sheets.describe(named)))
    kept = tuple(Term(t.sign, t.trait, t.value) for t in named)
    terms[:] = [(p, t) for p, t in terms if p != name] + [(name, kept)]
    return parsed(param, text)


TYPO = 0.8
"""How close (difflib's ratio) a ``--skill`` name must be to a skill the sheet lists to
read as a misspelling of it (a usage error) rather than an unlisted skill."""


def _skill(sheet: Sheet, value: str, labels: list[tuple[str, str]]) -> tuple[Optional[Trait], Optional[str]]:
    """Cypher ``--skill NAME``: the level the sheet gives that skill, and a practiced one's
    name. A skill the sheet does not list is practiced (SRD): no step (None), and the
    output says so; a name close to a listed skill is a misspelling of it, a usage error."""
    from rpgdice.core.errors import shown
    from rpgdice.core.names import fold
    from rpgdice.table import sheets

    levels = sheets.schema(sheet.ruleset).skill_words
    if fold(value) in {fold(s) for s in levels}:
        return value, None
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
        labels.append(("--skill", f"{sheets.label(name)} (practiced, not on the sheet: no step)"))
        return None, name
    level = sheet.traits[spelled]
    labels.append(("--skill", f"{sheets.label(spelled)} ({level})"))
    return level, None
