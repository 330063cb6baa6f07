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

from collections.abc import Iterable
from typing import Any

from rpgdice.core.errors import RulesError
from rpgdice.roll.plan import Plan
from rpgdice.roll.spec import RollSpec


def costs(state: Any, spec: RollSpec) -> Any:
    """The costs of the roll, from its arguments: its ruleset's own ``plan``."""
    from rpgdice.core import registry
    from rpgdice.core.parts import Cost

    own = registry.get(spec.ruleset).plan
    if own is None or state.sheet is None:
        return Cost()
    pool = spec.character.pool if spec.character is not None else None
    return own(spec.command, spec.kwargs, state.sheet, pool)


def check(state: Any, spec: RollSpec) -> None:
    """The checks an ``odds`` command with ``--as`` makes (it pays nothing)."""
    if state.sheet is not None:
        costs(state, spec)


def base(state: Any) -> dict[str, Any]:
    """What every result of a character's roll carries: its name, the traits the
    arguments named, and the sheet's wound where it applied."""
    spec = state.spec
    character = spec.character
    assert character is not None
    out: dict[str, Any] = {"character": character.name, "labels": list(state.labels)}
    if character.practiced is not None:  # Cypher: a skill the sheet does not list
        out["practiced"] = character.practiced
    return out


def settle(state: Any, plan: Plan, source: Any, times: int
           ) -> tuple[Iterable[Any] | None, Any]:
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
    extras: dict[int, dict[str, Any]] = {}

    def pay(fresh: Any) -> tuple[dict[str, int], list[Any]]:
        have = sheets.resource(fresh, resource)
        worst = cost.worst * times
        if worst > have and not cost.paced:
            e = sheets.cannot_pay(fresh, "--as", resource, worst, have)
            raise RulesError(e.param, e.message + cost.why)
        results, left = [], have
        for _ in range(times):
            r = roll(source, left) if cost.paced else roll(source)
            results.append(r)
            spent = cost.cost(r)
            left -= spent
            extras[id(r)] = {**shown, "spent": {resource: spent}, "left": {resource: left}}
        if isinstance(source, GivenDice):
            source.check_all_used()
        return {resource: left}, results

    results = sheets.settle(sheet, sheet.ruleset, pay)  # the file --as read pays
    paid = 0
    for extra in extras.values():
        for name, n in extra["spent"].items():
            state.spent[name] = state.spent.get(name, 0) + n
            paid += n
    state.paid = (sheet, resource, paid)
    return results, lambda r: extras[id(r)]


def refund(state: Any) -> None:
    """Give back what :func:`settle` paid, when the output could not be delivered (so
    nothing was logged either): a sheet pays only for what was shown and recorded. A
    refund that cannot be made is a warning; the output's own error is the one reported."""
    paid, state.paid = state.paid, None
    if not paid or not paid[2]:
        return
    from rpgdice.table import sheets

    sheet, resource, points = paid

    def give_back(fresh: Any) -> tuple[dict[str, int], None]:
        return {resource: sheets.resource(fresh, resource) + points}, None

    try:
        sheets.settle(sheet, sheet.ruleset, give_back)
    except (RulesError, OSError) as e:
        from rpgdice.render.output import warning

        warning(f"the {points} {resource} paid could not be given back: {e}")
        return
    state.spent[resource] = state.spent.get(resource, 0) - points
