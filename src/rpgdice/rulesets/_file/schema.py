"""A ruleset file's content checked: every problem as ``(KEY, what is wrong)``, and the
rules as plain data when there is none. Pure: the caller reads the file (TOML) and hands
its parsed table in; nothing here reads files or imports the command line.

The schema (CLI.md, "Your own system: a ruleset as a file"): ``name``, ``title``, ``kind``
(``pool``, ``total`` or ``highest``), ``die`` (``pool`` and ``highest``) or ``dice``
(``total``), the kind's own keys, and ``outcomes``: tables tried in order, each with
``name``, ``tone`` and conditions; the last has no condition.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TypeGuard

from rpgdice.core.data import Loaded

KINDS = ("pool", "total", "highest", "custom")
TONES = ("good", "bad", "dire")
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
COMMON = ("name", "title", "kind", "outcomes")
KEYS: dict[str, tuple[str, ...]] = {
    "pool": ("die", "success", "success_at_most", "double", "again", "again_once", "cancel",
             "glitch", "zero"),
    "total": ("dice",),
    "highest": ("die", "zero", "critical"),
    "custom": ("args", "dice", "values", "keys", "refuse", "push", "example"),
}
CONDITIONS: dict[str, tuple[str, ...]] = {
    "pool": ("glitch", "margin_at_least", "successes_at_least", "success"),
    "total": ("at_least", "at_most", "natural"),
    "highest": ("highest_at_least", "critical"),
    "custom": ("when", "applies"),
}
OTHER_WORDS = {"explode": "again", "explodes": "again", "exploding": "again",
               "explosion": "again", "reroll": "again", "sides": "die", "faces": "die",
               "botch": "glitch", "crit": "critical", "threshold": "success"}
"""Other systems' and notations' words for a key (``explode = 10``: ``again``)."""
GLITCHES = ("none", "ones-no-success", "ones-over-half")
ZEROS = {"pool": ("fail", "chance"), "highest": ("fail", "lowest-of-2")}
MAX_DICE_TERMS = 100
"""The most dice a ``total`` file's ``dice`` rolls."""
DICE_TERM = r"^(\d{1,3})d(\d{1,4})$|^(\d{1,6})$"
TARGET = r"^target(?:/(\d{1,6}))?$"
"""Patterns compiled when first used (re's cache): a roll that reads a file's parsed copy
checks nothing, and each cost its start 0.1 ms."""


def fold(name: str) -> str:
    """An outcome's JSON value: its name in lower case, ``-`` for spaces."""
    return "-".join(name.strip().lower().split())


def has_controls(text: str) -> bool:
    """Whether ``text`` holds a control character (ESC, BEL, a newline...): a file's text
    is shown on terminals and pages, and never drives them."""
    return any(unicodedata.category(c) == "Cc" for c in text)


Bad = Callable[[str, str], None]
"""Where a problem of the file is said: its key, and what is wrong with it."""

def _controls(value: object, where: str, depth: int = 0) -> list[str]:
    """The keys (as ``check`` names them) whose name or text holds a control character
    (looked into 8 levels deep: a ruleset file has two)."""
    found: list[str] = []
    if depth > 8:
        return found
    if isinstance(value, str):
        return [where] if has_controls(value) else []
    if isinstance(value, dict):
        for k, v in value.items():
            key = f"{where}.{k}" if where else str(k)
            if has_controls(str(k)):
                found.append(key)
            else:
                found += _controls(v, key, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _controls(v, f"{where}[{i + 1}]", depth + 1)
    return found


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def dice_terms(text: str) -> list[tuple[int, int, int]] | None:
    """``2d6+1d4-1`` as ``(sign, count, sides)`` terms (sides 0: a number); None when it
    is no sum of dice terms and numbers."""
    compact = text.replace(" ", "")
    if not compact or len(compact) > 200:
        return None
    parts = re.split(r"([+-])", compact)
    if parts[0] == "":
        return None
    terms, sign = [], 1
    for i, part in enumerate(parts):
        if i % 2:
            sign = 1 if part == "+" else -1
            continue
        m = re.match(DICE_TERM, part)
        if m is None:
            return None
        if m.group(3) is not None:
            terms.append((sign, int(m.group(3)), 0))
        else:
            terms.append((sign, int(m.group(1)), int(m.group(2))))
    return terms


def check(data: object, stem: str | None = None, taken: frozenset[str] = frozenset()
          ) -> tuple[Loaded | None, list[tuple[str, str]]]:
    """The rules of a parsed file (None when it has problems) and its problems, in the
    order of the file's keys. ``stem``: the file's name without ``.toml`` (``name`` must be
    it); ``taken``: names a user's ruleset may not have (built-in rulesets, commands)."""
    problems: list[tuple[str, str]] = []

    def bad(key: str, what: str) -> None:
        problems.append((key, what))

    if not isinstance(data, dict):
        return None, [("(file)", "is not a table of keys")]
    for key in _controls(data, ""):
        bad(key, "control characters are not allowed")
    kind = data.get("kind")
    if kind not in KINDS:
        bad("kind", f"is {kind!r}; one of {', '.join(KINDS)}" if "kind" in data
            else f"is missing; one of {', '.join(KINDS)}")
    allowed = set(COMMON) | set(KEYS.get(kind, ())) if kind in KINDS else set(COMMON) | {
        k for keys in KEYS.values() for k in keys}
    for key in data:
        if key not in allowed:
            belongs = [k for k, keys in KEYS.items() if key in keys]
            if belongs and kind in KINDS:
                bad(key, f"belongs to kind {' or '.join(belongs)}, not {kind}")
                continue
            from difflib import get_close_matches

            close = [OTHER_WORDS[key]] if OTHER_WORDS.get(key) in allowed else \
                get_close_matches(str(key), sorted(allowed), n=1)
            bad(key, "is no key of a ruleset file" + (f" (did you mean {close[0]}?)"
                                                      if close else ""))
    name = data.get("name")
    if not isinstance(name, str):
        bad("name", "is missing" if name is None else "is not text")
    elif not NAME.match(name):
        bad("name", f"{name!r} is not lower-case letters, digits and '-' (at most 40)")
    elif stem is not None and name != stem:
        bad("name", f"is {name!r} but the file is {stem}.toml (misnamed)")
    elif name in taken:
        bad("name", f"{name!r} is a built-in ruleset or command")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        bad("title", "is missing" if title is None else "is not text")
    elif len(title) > 60:
        bad("title", "is longer than 60 characters")
    rules: Loaded = {"name": name, "title": title, "kind": kind}
    scope = None
    if kind == "custom":
        from rpgdice.rulesets._file.custom import check_custom

        scope = check_custom(data, rules, bad)
    elif kind in KINDS:
        _kind_keys(kind, data, rules, bad)
    rules["outcomes"] = _outcomes(kind, data.get("outcomes"), rules, bad, scope)
    return (None if problems else rules), problems


def _threshold(data: Loaded, key: str, die: int | None, bad: Bad,
               least: int = 1) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not _is_int(value):
        bad(key, f"is {value!r}; a whole number")
        return None
    if die is not None and not least <= value <= die:
        bad(key, f"is {value}; a face from {least} to {die}")
        return None
    return int(value)


def _kind_keys(kind: str, data: Loaded, rules: Loaded, bad: Bad) -> None:
    if kind == "total":
        _total_keys(data, rules, bad)
        return
    die = data.get("die")
    if die is None:
        bad("die", "is missing; the die's sides, 2 to 1000")
    elif not _is_int(die) or not 2 <= die <= 1000:
        bad("die", f"is {die!r}; the die's sides, 2 to 1000")
        die = None
    rules["die"] = die
    zero = data.get("zero", "fail")
    if zero not in ZEROS[kind]:
        bad("zero", f"is {zero!r}; one of {', '.join(ZEROS[kind])}")
    rules["zero"] = zero
    if kind == "highest":
        critical = data.get("critical")
        if critical is not None and (not _is_int(critical) or not 1 <= critical <= 1000):
            bad("critical", f"is {critical!r}; how many top faces make a critical (1 or more)")
        rules["critical"] = critical
        return
    _pool_keys(data, rules, bad, die)


def _total_keys(data: Loaded, rules: Loaded, bad: Bad) -> None:
    dice = data.get("dice")
    terms = dice_terms(dice) if isinstance(dice, str) else None
    if dice is None:
        bad("dice", "is missing; dice such as 2d6 or 1d100")
    elif terms is None or not any(s for _, _, s in terms):
        bad("dice", f"is {dice!r}; dice terms and numbers joined by + and - (2d6, 1d20+1d4)")
    elif sum(n for _, n, s in terms if s) > MAX_DICE_TERMS:
        bad("dice", f"rolls more than {MAX_DICE_TERMS} dice")
    elif any(s and not 2 <= s <= 1000 for _, _, s in terms) or any(
            s and n < 1 for _, n, s in terms):
        bad("dice", "has a die of fewer than 2 or more than 1000 sides, or no dice")
    else:
        rules["dice"] = dice.replace(" ", "")


def _pool_keys(data: Loaded, rules: Loaded, bad: Bad, die: int | None) -> None:
    success = _threshold(data, "success", die, bad)
    at_most = _threshold(data, "success_at_most", die, bad)
    if "success" in data and "success_at_most" in data:
        bad("success_at_most", "excludes success (a pool counts up or down, not both)")
    elif "success" not in data and "success_at_most" not in data:
        bad("success", "is missing (or success_at_most, for a roll-under pool)")
    rules["success"], rules["success_at_most"] = success, at_most
    for key in ("double", "again"):
        value = _threshold(data, key, die, bad, least=2)
        if value is not None and success is not None and value < success:
            bad(key, f"is {value}, below success ({success})")
        if value is not None and "success_at_most" in data:
            bad(key, "needs success (a pool counted upwards)")
        rules[key] = value
    once = data.get("again_once", False)
    if not isinstance(once, bool):
        bad("again_once", f"is {once!r}; true or false")
    elif once and "again" not in data:
        bad("again_once", "needs again")
    rules["again_once"] = once is True
    cancel = _threshold(data, "cancel", die, bad)
    if cancel is not None and success is not None and cancel >= success:
        bad("cancel", f"is {cancel}, not below success ({success})")
    if cancel is not None and "success_at_most" in data:
        bad("cancel", "needs success (a pool counted upwards)")
    rules["cancel"] = cancel
    glitch = data.get("glitch", "none")
    if glitch not in GLITCHES:
        bad("glitch", f"is {glitch!r}; one of {', '.join(GLITCHES)}")
    rules["glitch"] = glitch


def _outcomes(kind: object, outcomes: object, rules: Loaded, bad: Bad,
              scope: object = None) -> list[Loaded]:
    if outcomes is None:
        bad("outcomes", "is missing; an array of tables, [[outcomes]]")
        return []
    if not isinstance(outcomes, list) or not outcomes or not all(
            isinstance(o, dict) for o in outcomes):
        bad("outcomes", "is not an array of tables ([[outcomes]]) with at least one")
        return []
    out: list[Loaded] = []
    seen: dict[str, object] = {}
    for i, o in enumerate(outcomes):
        where = f"outcomes[{i + 1}]"
        name, tone = o.get("name"), o.get("tone")
        if not isinstance(name, str) or not fold(name) or len(name) > 40:
            bad(f"{where}.name", "is missing" if name is None else "is not a name of 1 to 40 "
                "characters")
        elif fold(name) in seen and (kind != "custom" or seen[fold(name)] != tone):
            bad(f"{where}.name", f"{name!r} is the name of an earlier outcome (as folded)"
                + (" of another tone" if kind == "custom" else ""))
        else:
            seen.setdefault(fold(name), tone)
        if tone not in TONES:
            bad(f"{where}.tone", "is missing; good, bad or dire" if tone is None
                else f"is {tone!r}; good, bad or dire")
        conditions: Loaded = {}
        for key, value in o.items():
            if key in ("name", "tone"):
                continue
            if kind in KINDS and key not in CONDITIONS[kind]:
                bad(f"{where}.{key}", "is no condition of kind "
                    f"{kind} ({', '.join(CONDITIONS[kind])})")
                continue
            problem = _condition(key, value, rules, scope)
            if problem:
                bad(f"{where}.{key}", problem)
            conditions[key] = value
        if i == len(outcomes) - 1 and (conditions if kind != "custom" else "when" in conditions):
            bad(where, "is the last outcome: it has no condition (it names every other roll)")
        out.append({"name": name, "tone": tone, "when": conditions})
    return out


def _condition(key: str, value: object, rules: Loaded, scope: object = None) -> str:
    if rules.get("kind") == "custom":
        from rpgdice.rulesets._file.custom import Scope, check_condition

        return check_condition(key, value, scope if isinstance(scope, Scope) else None)
    if key in ("glitch", "success") or (key == "critical" and isinstance(value, bool)):
        if not isinstance(value, bool):
            return f"is {value!r}; true or false"
        if key == "critical" and rules.get("critical") is None:
            return "needs the file's critical (how many top faces make one)"
        return ""
    if key in ("at_least", "at_most"):
        if _is_int(value):
            return ""
        target = re.match(TARGET, value) if isinstance(value, str) else None
        if target:
            k = target.group(1)
            return "" if k is None or int(k) >= 1 else "divides by 0"
        return f"is {value!r}; a number, \"target\" or \"target/K\""
    if not _is_int(value):
        return f"is {value!r}; a whole number"
    if key == "highest_at_least" and rules.get("die") and not 1 <= value <= rules["die"]:
        return f"is {value}; a face from 1 to {rules['die']}"
    return ""


_KEY = r"^([A-Za-z0-9_-]+)(?:\[(\d+)\])?(?:\.([A-Za-z0-9_-]+))?$"
_HEADER = r"^\s*(\[\[?)\s*([A-Za-z0-9_-]+)\s*\]"
_ASSIGN = r"^\s*([A-Za-z0-9_-]+)\s*="


def line_of(text: str, key: str) -> int | None:
    """The line of the file's ``text`` that holds a problem's ``key`` (``outcomes[2].tone``,
    ``dice[1].count``, ``values.total``, ``name``): the key's own line, else its table's
    header; None when the file does not write it."""
    return line_finder(text)(key)


def line_finder(text: str) -> Callable[[str], int | None]:
    """:func:`line_of` of ``text`` for many keys: the file read once (a file of thousands
    of problems is not read again for each)."""
    top: dict[str, int] = {}
    first: dict[str, int] = {}
    headers: dict[tuple[str, int], int] = {}
    assigns: dict[tuple[tuple[str, int], str], int] = {}
    where: tuple[str, int] | None = None
    seen: dict[str, int] = {}
    for n, line in enumerate(text.splitlines()[:20_000], 1):
        h = re.match(_HEADER, line)
        if h is not None:
            name = h.group(2)
            seen[name] = seen.get(name, 0) + 1
            where = (name, seen[name] if h.group(1) == "[[" else 0)
            headers[where] = n
            first.setdefault(name, n)
            continue
        a = re.match(_ASSIGN, line)
        if a is not None and where is None:
            top.setdefault(a.group(1), n)
        elif a is not None and where is not None:
            assigns.setdefault((where, a.group(1)), n)

    def find(key: str) -> int | None:
        m = re.match(_KEY, key)
        if m is None:
            return None
        table, index, leaf = m.group(1), m.group(2), m.group(3)
        want = (table, int(index)) if index else (table, 0) if leaf else None
        if want is None:
            return top.get(table, first.get(table))
        return assigns.get((want, leaf or ""), headers.get(want))

    return find
