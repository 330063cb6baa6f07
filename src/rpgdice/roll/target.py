"""A roll's target (an attack's ``--vs NAME``) as it executes: read and resolved.

Parsing keeps ``--vs`` as the name typed and a target's pools (Seyruun's ``--defense``
and ``--soak``) as typed where they name traits. :func:`targeted` reads the target the
name names — a saved character's sheet or an extra of the encounter, as the command's
record says (its ``character`` parameter's :attr:`~rpgdice.core.command.Param.target`)
— makes the trait names of its pools the sheet's numbers, and keeps what each named in
the spec's ``target`` (:class:`~rpgdice.roll.spec.Character`), so that a stored roll
shows and builds what it did. A stored spec (a replay, ``again``) carries its target
resolved: the target is read again, for what the builder does to it.
"""

from __future__ import annotations

from typing import Any, Optional

from rpgdice.core import registry
from rpgdice.roll.spec import Character, RollSpec, Term


def _targets(spec: RollSpec) -> tuple[Optional[Any], list[Any]]:
    """The spec's command's parameter naming a target and the pools that name its traits
    (None, []: it takes no target), read once a ruleset's record (a session rolls the same
    command line after line)."""
    try:
        record = registry.get(spec.ruleset)
    except LookupError:  # no such ruleset (a KeyError), or none registered
        return None, []
    found = _TARGETS.get((spec.ruleset, spec.command))
    if found is None or found[0] is not record:
        command = record.command(spec.command)  # None: no record, as ordinary dice have none
        param = None if command is None else next(
            (p for p in command.params if p.target is not None), None)
        pools = [] if command is None else [p for p in command.params if p.target_traits]
        found = _TARGETS[(spec.ruleset, spec.command)] = (record, param, pools)
    return found[1], found[2]


_TARGETS: dict[tuple[str, str], tuple[Any, Optional[Any], list[Any]]] = {}


def targeted(spec: RollSpec) -> tuple[RollSpec, dict[str, Any]]:
    """The spec with its target read (the pools that name its traits resolved, and
    ``target`` what they named), and what the builder reads of it: ``{"target": sheet,
    "target_extra": extra}`` (empty: the roll names no target)."""
    param, pools = _targets(spec)
    if param is None:
        return spec, {}
    named = {p.name: v for p in pools if isinstance(v := spec.arg(p.name), str)}
    name = spec.arg(param.name)
    if not isinstance(name, str) or not name.strip():
        if name is not None:  # --vs "": no target, as if none were given
            spec = spec.with_args(**{param.name: None})
        return _parsed_pools(spec, pools, named, None)[0], {}
    sheet, extra = param.target(name)
    found = {"target": sheet, "target_extra": extra}
    if sheet is None:  # an extra of the encounter: no sheet, no traits
        return _parsed_pools(spec, pools, named, None)[0].replace(target=None), found
    if not named and spec.target is not None and spec.target.name == sheet.name:
        return spec, found  # a stored roll's target, resolved as it was rolled
    spec, labels, terms = _parsed_pools(spec, pools, named, sheet)
    return spec.replace(target=Character(
        name=sheet.name, ruleset=sheet.ruleset, labels=tuple(labels), terms=tuple(terms))), found


def _parsed_pools(spec: RollSpec, pools: list[Any], named: dict[str, str], sheet: Any,
                  ) -> tuple[RollSpec, list[tuple[str, str]], list[tuple[str, tuple[Term, ...]]]]:
    """The target's pools typed as words made values: their trait names the numbers
    ``sheet`` gives them (none without a sheet: the pool's own parser says what is wrong),
    what each named and its terms."""
    from rpgdice.roll.character import parsed

    labels: list[tuple[str, str]] = []
    terms: list[tuple[str, tuple[Term, ...]]] = []
    values: dict[str, Any] = {}
    for param in pools:
        if param.name not in named:
            continue
        text = named[param.name]
        option = str(param.option)
        if sheet is not None:
            from rpgdice.table import sheets

            got = sheets.resolve(sheet, text, option)
            if got is not None:
                text, found = got
                labels.append((option, sheets.describe(found)))
                terms.append((option, tuple(Term(t.sign, t.trait, t.value) for t in found)))
        values[param.name] = parsed(param, text, getattr(param.parse, "strict", param.parse))
    return (spec.with_args(**values) if values else spec), labels, terms
