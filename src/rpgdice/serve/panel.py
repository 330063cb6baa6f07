"""``GET /api/panel``: what a token may roll, as data, made from the commands' records
(rpgdice.core.command) — the same declaration the command line, its ``--help`` and
completion are made from (CLI.md, "What the table sees").

A seat gets its own characters, each with its sheet and the commands of its ruleset a
seat may run; the GM (its ``--token``) every saved character, and under ``rulesets``
each ruleset's commands for a roll as no character. Every seat also gets ordinary dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from rpgdice.core import registry
from rpgdice.core.command import Command, Param, describe

if TYPE_CHECKING:
    from rpgdice.serve.secrecy import Held

JSON = dict[str, object]

NO_POOL = frozenset({"initiative", "iniciativa", "recoveries", "tier", "armor", "xp", "experience", "wound",
                     "damage", "health", "effort"})
"""Traits that make no pool (shown on the sheet, not offered to tap): a resource, its
maximum, a sheet's initiative, tier, armor, its damage and wound."""


def line_of(ruleset: str, command: Command) -> str:
    """How a command line starts: ``cypher task``; ordinary dice's are top-level (``roll``)."""
    record = registry.get(ruleset)
    return f"{ruleset} {command.name}" if record.group else command.name


def commands_of(ruleset: str, as_character: bool) -> list[JSON]:
    """The commands of ``ruleset`` a seat may run (for a character: those taking
    ``--as``), each as the panel draws its form."""
    record = registry.get(ruleset)
    pools = tuple(record.sheet.effort_pools) if record.sheet is not None else ()
    out = []
    for command in record.records():
        if not command.seated or (as_character and not command.takes_as):
            continue
        described = describe(command, line_of(ruleset, command), record.language)
        params = list(described["params"])  # type: ignore[call-overload]
        if as_character and pools and command.param("effort") is not None:
            params.append(_pool(pools))
        described["params"] = params
        described["odds"] = command.kind == "odds" or "odds" not in command.without
        described["kind"] = command.kind  # "odds": an odds command (its answer: chances)
        if described["odds"]:  # its odds' outcomes in the ruleset's words ("Éxito")
            described["outcomes"] = {str(k): str(v[0]) for k, v in record.outcomes.items()}
        out.append(described)
    return out


def _pool(pools: tuple[str, ...]) -> JSON:
    """Cypher's ``--pool``: which Pool pays the Effort (with ``--as``), asked for once
    the Effort is given (``with``: the parameter that needs it; with ``--as`` the command
    refuses an Effort no Pool pays)."""
    return {"name": "pool_name", "option": "--pool", "kind": "choice", "choices": list(pools),
            "default": None, "help": "The Pool that pays the Effort, whose Edge lowers it.",
            "multiple": False, "required": False, "min": None, "max": None, "with": "effort"}


def sheet_of(sheet: object) -> JSON:
    """A character's sheet as the panel shows it: each trait with its value and whether it
    makes a pool (offered to tap), and its resources with their maxima."""
    traits = getattr(sheet, "traits", {})
    record = registry.get(str(getattr(sheet, "ruleset", "")))
    resources: list[JSON] = []
    names: set[str] = set()
    if record.sheet is not None:
        for r in record.sheet.resources:
            value = traits.get(r.name)
            top = traits.get(r.max_trait) if r.max_trait else None
            if top is None and r.derive is not None:
                top = r.derive(sheet)
            names.update({r.name, r.max_trait})
            if value is not None or top is not None:
                resources.append({"name": r.name, "label": r.label, "value": value,
                                  "max": top})
    listed = []
    for key, value in traits.items():
        if isinstance(value, bool):
            continue
        offered = (key.lower() not in NO_POOL and key not in names
                   and not key.endswith(("-max", "-edge")) and isinstance(value, (int, str)))
        listed.append({"name": key, "value": value, "offered": offered})
    return {"traits": listed, "resources": resources}


def character(name: str, held: Held | None = None) -> Optional[JSON]:
    """One saved character as the panel offers it (None: gone, broken, or of a ruleset
    this rpgdice no longer knows); ``held``: what unrevealed secret rolls changed, taken
    back out of its sheet (a seat's panel: the sheet as the table saw it)."""
    from rpgdice.serve import secrecy
    from rpgdice.table import sheets

    try:
        sheet = sheets.load(name, "--as")
        if held is not None:
            sheet = secrecy.seen_sheet(sheet, held)
        commands = commands_of(sheet.ruleset, as_character=True)
    except Exception:  # a sheet gone or broken, its ruleset file gone: not offered
        return None
    return {"name": sheet.name, "ruleset": sheet.ruleset, "sheet": sheet_of(sheet),
            "commands": commands}


def panel(seat: object, held: Held | None = None) -> JSON:
    """What ``seat`` may roll (``"gm"``: the GM's token, every character and ruleset); its
    sheets without what ``held`` says unrevealed secret rolls changed (None: as they are,
    the GM's screen's)."""
    from rpgdice.table import sheets

    gm = seat == "gm"
    names = [p.stem for p in sheets.names()] if gm else list(getattr(seat, "characters", ()))
    found = [c for c in (character(n, held) for n in names) if c is not None]
    rulesets = registry.names() if gm else ("dice",)
    return {"characters": found, "gm": gm,
            "rulesets": [{"name": r, "title": registry.get(r).title,
                          "commands": commands_of(r, as_character=False)}
                         for r in rulesets if _loads(r)]}


def _loads(name: str) -> bool:
    try:
        registry.get(name).records()
    except Exception:  # a broken user's ruleset file: not offered
        return False
    return True


__all__ = ["Param", "panel"]
