"""A user's ruleset file: the roll view and the odds view (the file's title in the header,
the verdict in the outcome's words, colored by its tone)."""

from __future__ import annotations

import functools

from rich.text import Text

from rpgdice.core import registry
from rpgdice.core.data import Loaded
from rpgdice.core.record import Tagged
from rpgdice.render.common import (
    CRIT,
    DOUBLE,
    FACES_SHOWN,
    HIT,
    MISS,
    ONE,
    Line,
    dice_line,
    faces_text,
    notes,
    num,
    outcome_chart,
    outcome_word,
    percent,
    plural,
    signed,
    unit,
)
from rpgdice.rulesets import Views
from rpgdice.rulesets._file import rules

_TABLES: dict[str, Views] = {}


def _title(r: Tagged) -> str:
    ruleset = type(r).RULESET
    try:
        return str(registry.get(ruleset).title)
    except (KeyError, Exception):  # a file removed or broken since: its name
        return str(ruleset)


def _zero_rule(r: Tagged) -> object:
    """The file's ``zero`` rule (None: the file is gone or broken since)."""
    try:
        return rules.parsed(registry.get(type(r).RULESET).text).get("zero")
    except Exception:  # a file removed or broken since: no rule to name
        return None


def _verdict(r: rules.PoolResult | rules.TotalResult | rules.HighestResult, why: str) -> Text:
    word, style = outcome_word(type(r).RULESET, r.outcome)
    return Text.assemble("  ", (word, style), f" — {why}" if why else "")


def pool(r: rules.PoolResult) -> list[Text]:
    chips = []
    for d in r.dice:
        counts = d.counts or 0
        style = DOUBLE if counts >= 2 else HIT if counts == 1 else ONE if counts < 0 else MISS
        chips.append((f"{d.face}" + ("✓" * counts if counts > 0 else "✗" if counts < 0 else ""),
                      style))
    lines = [Text.assemble((_title(r), "bold"), f" · {plural(len(r.dice), 'die', 'dice')}",
                                      f" · {unit(f'Difficulty {r.difficulty}')}")]
    lines.append(dice_line("dice", chips) if chips else Text("  no dice: the pool is empty"))
    why = f"{plural(r.successes, 'success', 'successes')}, margin {num(r.margin)}"
    lines.append(_verdict(r, why + (", glitch" if r.glitch else "")))
    return lines


def total(r: rules.TotalResult) -> list[Text]:
    head = Text.assemble((_title(r), "bold"),
                         f" · {unit(f'target {r.target}')}" if r.target is not None else "")
    chips = [(str(d.face), CRIT if i == 0 else HIT) for i, d in enumerate(r.dice)]
    mod = getattr(r, "mod", 0) or 0
    why = f"total {num(r.total)}" + (
        f" (dice {num(r.total - mod)} {'+' if mod > 0 else '−'} {abs(mod)})" if mod else "")
    # the dice: the file's whole ``dice`` (its numbers too, 4d3-8), MOD: the roll's own
    return [head, dice_line("dice", chips), _verdict(r, why)]


def highest(r: rules.HighestResult) -> list[Text]:
    if getattr(r, "zero", False):
        return _zero_highest(r)
    top = max((d.face for d in r.dice), default=0)
    chips = [(str(d.face), HIT if d.face == top else MISS) for d in r.dice]
    head = Text.assemble((_title(r), "bold"), f" · {plural(len(r.dice), 'die', 'dice')}")
    why = f"the highest die is {r.highest}" + (", a critical" if r.critical else "")
    lines = [head, dice_line("dice", chips) if chips else Text("  no dice: the pool is empty")]
    return [*lines, _verdict(r, why)]


ZERO_ROLLED = "two rolled, the lower decides"
"""What a pool of 0 or less rolls under ``zero = "lowest-of-2"``, in a view's words."""


def _zero_highest(r: rules.HighestResult) -> list[Text]:
    """A pool of 0 or less: no dice of its own; under ``lowest-of-2`` two dice rolled and
    the lower one decides (it is the one marked), else nothing rolled."""
    if not r.dice:
        head = Text.assemble((_title(r), "bold"), " · no dice")
        return [head, Text("  no dice: the pool is empty, nothing rolled"),
                _verdict(r, "no die rolled")]
    low = min(range(len(r.dice)), key=lambda i: r.dice[i].face)
    chips = [(str(d.face), HIT if i == low else MISS) for i, d in enumerate(r.dice)]
    head = Text.assemble((_title(r), "bold"), " · no dice", f" · {unit(ZERO_ROLLED)}")
    return [head, dice_line("dice", chips), _verdict(r, f"the lower die is {r.highest}")]


def odds(o: rules.FileOdds) -> list[Line]:
    said = []
    if o.pool is not None and o.pool <= 0 and _zero_rule(o) == "lowest-of-2":
        said += ["no dice", unit(ZERO_ROLLED)]
    elif o.pool is not None:
        said.append(plural(o.pool, "die", "dice"))
    if o.difficulty is not None:
        said.append(unit(f"Difficulty {o.difficulty}"))
    if o.mod:
        said.append(unit(f"MOD {signed(o.mod)}"))
    if o.target is not None:
        said.append(unit(f"target {o.target}"))
    lines: list[Line] = [Text.assemble((_title(o), "bold"), " odds",
                                      "".join(f" · {s}" for s in said))]
    lines += outcome_chart(type(o).RULESET, o.outcomes)
    if o.truncated:
        lines += notes([f"again chains followed to {o.explode_depth} extra dice a die; "
                        f"{percent(o.left_out)} left out"])
    return lines


def _figures(r: Loaded) -> str:
    faces = _grouped(r) or faces_text(r.get("dice") or [])
    if "successes" in r:
        return f"{faces} → {r.get('successes')} succ."
    if "total" in r and not isinstance(r.get("total"), (int, str)):
        return faces
    if "total" in r:
        return f"{faces} → {signed(r['total']) if isinstance(r['total'], int) else r['total']}"
    if "highest" in r:
        return f"{faces} → {r.get('highest')}"
    return f"{faces} → {r.get('outcome')}"


def _grouped(r: Loaded) -> str:
    """A custom roll's faces by group, each group named once, a dropped die in brackets and
    a symbol die by its letters (``3 10 2, hunger 2 8``; ``ability ss s, boost blank``;
    ``2 (9) 1``); empty for dice of no group none dropped (their faces as they are) or too
    many to list."""
    dice = [d for d in r.get("dice") or [] if isinstance(d, dict)]
    if not any(d.get("group") or d.get("kept") is False for d in dice) or len(dice) > FACES_SHOWN:
        return ""
    try:
        symbols = symbol_groups(rules.parsed(registry.get(str(r.get("ruleset"))).text))
    except Exception:  # a file removed or broken since: the faces as numbers
        symbols = {}
    runs: list[tuple[object, list[str]]] = []
    for d in dice:
        face = _face(d, symbols)
        face = f"({face})" if d.get("kept") is False else face
        if runs and runs[-1][0] == d.get("group"):
            runs[-1][1].append(face)
        else:
            runs.append((d.get("group"), [face]))
    return ", ".join(" ".join(([str(g)] if g else []) + faces) for g, faces in runs)


def custom(r: Tagged, symbols: dict[object, list[str]] | None = None) -> list[Text]:
    """A custom file's roll (or its push): the dice by group (a dropped die dimmed; a
    symbol die by its face's letters, ``symbols`` by group), the verdict and the keys the
    file names."""
    data = r.__dict__
    chips = []
    for d in data.get("dice") or []:
        group = f"{d.get('group')} " if d.get("group") else ""
        # the file alone knows what a face means: a kept die in the terminal's own color (not
        # green, which every other view keeps for a success), a dropped one dimmed
        chips.append((f"{group}{_face(d, symbols or {})}", MISS if d.get("kept") is False else ""))
    said = [f"{k} {_shown(v)}" for k, v in data.items() if k not in ("outcome", "dice")]
    step = f" · {type(r).COMMAND}ed" if isinstance(r, rules.PushResult) else ""  # yze push
    head = Text.assemble((_title(r), "bold"), step, f" · {plural(len(chips), 'die', 'dice')}")
    return [head, dice_line("dice", chips) if chips else Text("  no dice"),
            _verdict(r, ", ".join(said))]  # type: ignore[arg-type]


def _face(d: dict[str, object], symbols: dict[object, list[str]]) -> str:
    """A die's face as the view shows it: a symbol die's letters (``ss``, ``blank``)."""
    face, letters = d.get("face"), symbols.get(d.get("group"))
    if letters and isinstance(face, int) and 1 <= face <= len(letters):
        return letters[face - 1] or "blank"
    return str(face)


def symbol_groups(parsed: dict[str, object]) -> dict[object, list[str]]:
    """The letters of each face of the symbol dice, by the group their JSON names (a
    group whose dice are not all the same symbol die left out: its faces as numbers)."""
    found: dict[object, list[str]] = {}
    mixed = set()
    for g in parsed.get("dice") or []:  # type: ignore[attr-defined]
        label, letters = g.get("group"), g.get("symbols")
        if not letters or found.get(label, letters) != letters:
            mixed.add(label)
        found.setdefault(label, letters)
    return {k: v for k, v in found.items() if k not in mixed}


def _shown(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(map(str, v)) + "]"
    return num(v) if isinstance(v, int) else str(v)


def _said(o: Tagged, args: dict[str, object]) -> list[str]:
    """The arguments of the roll the odds are of, as the heading names them: each one
    given that is not its default (its option's or its metavar's word)."""
    try:
        declared = rules.parsed(registry.get(type(o).RULESET).text).get("args") or []
    except Exception:  # a file removed or broken since: the arguments by their names
        declared = [{"name": k, "flags": [], "metavar": k, "default": None, "type": ""}
                    for k in args]
    said = []
    for a in declared:
        value = args.get(a["name"])
        if value is None or (a["default"] is not None and value == a["default"]):
            continue
        word = a["flags"][0].lstrip("-") if a["flags"] else str(a["metavar"]).lower()
        if a["type"] == "flag":
            said.append(word)
        elif isinstance(value, (list, tuple)):
            said.append(" ".join(f"d{v}" for v in value))
        else:
            said.append(f"{word} {num(value) if isinstance(value, int) else value}")
    return said


def custom_odds(o: Tagged) -> list[Line]:
    data = o.__dict__
    said = _said(o, data.get("args") or {})
    lines: list[Line] = [Text.assemble((_title(o), "bold"), " odds",
                                      "".join(f" · {unit(s)}" for s in said))]
    lines += outcome_chart(type(o).RULESET, data["outcomes"])
    if data.get("truncated"):
        lines += notes([f"acing dice followed to {data.get('explode_depth')} extra dice a die; "
                        f"{percent(data.get('left_out') or 0.0)} left out"])
    return lines


def table(name: str, text: str = "") -> Views:
    """The views of the user's ruleset ``name`` (its own result classes; a custom file's
    made for its keys, from its rules' ``text``)."""
    found = _TABLES.get(name + text)
    if found is None:
        made = rules.classes(name)
        shown: dict[type, object] = {
            made["PoolResult"]: pool, made["TotalResult"]: total,
            made["HighestResult"]: highest, made["FileOdds"]: odds}
        figures = {"roll": _figures}
        if text:
            parsed = rules.parsed(text)
            own = rules.custom_classes(name, parsed)
            symbols = symbol_groups(parsed)
            lettered = functools.partial(custom, symbols=symbols) if symbols else custom
            shown.update({own["CustomResult"]: lettered, own["PushResult"]: lettered,
                          own["CustomOdds"]: custom_odds})
            figures[(parsed.get("push") or {}).get("command", "push")] = _figures
        found = _TABLES[name + text] = Views(shown, figures=figures)  # type: ignore[arg-type]
    return found
