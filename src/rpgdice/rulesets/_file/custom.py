"""The keys of a ``kind = "custom"`` ruleset file, checked (:func:`check_custom`): its
arguments (``[[args]]``), its dice (``[[dice]]``, named groups), its ``[values]`` (safe
expressions, :mod:`.expr`), the JSON ``keys``, its refusals (``[[refuse]]``), the step
after a roll (``[push]``), and its outcomes' ``when`` and ``applies``. Pure."""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from difflib import get_close_matches
from typing import Any

from rpgdice.rulesets._file import expr as E

Bad = Callable[[str, str], None]
TOP = ("args", "dice", "values", "keys", "refuse", "push", "example")
ARG_KEYS = ("name", "flags", "metavar", "type", "default", "min", "max", "choices", "help")
DICE_KEYS = ("name", "group", "count", "sides", "faces", "symbols", "ace", "keep", "low",
             "rank")
OUTCOME_KEYS = ("when", "applies")
REFUSE_KEYS = ("when", "arg", "why")
PUSH_KEYS = ("command", "reroll", "keys", "help")
ARG_TYPES = ("number", "flag", "dice")
IDENT = re.compile(r"^[a-z][a-z0-9_]{0,29}$")
FLAG = re.compile(r"^(--[a-z][a-z0-9-]{0,29}|-[a-zA-Z])$")
SYMBOL = re.compile(r"^[a-z]*$")
RESERVED = frozenset({"dice", "seed", "times", "json", "odds", "log_choice", "short", "secret",
                      "compare", "rules", "as_name", "pool_name", "run", "name", "face",
                      "pushed", "outcome", "ruleset", "command", "verdict", "tone", "args",
                      "help", "entry_id", *E.WORDS})
MAX_GROUPS = 12
MAX_SIDES = 1000


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _unknown(key: str, allowed: tuple[str, ...], where: str, bad: Bad) -> None:
    close = get_close_matches(key, allowed, n=1)
    bad(f"{where}{key}", "is no key here" + (f" (did you mean {close[0]}?)" if close else
                                              f" ({', '.join(allowed)})"))


def _tables(data: dict[str, Any], key: str, bad: Bad) -> list[dict[str, Any]]:
    found = data.get(key, [])
    if not isinstance(found, list) or not all(isinstance(t, dict) for t in found):
        bad(key, f"is not an array of tables ([[{key}]])")
        return []
    return found


class Scope:
    """The names a file's expressions may read: arguments, values, dice groups (and their
    symbols), with what each value reads."""

    def __init__(self, args: list[str], values: dict[str, str], groups: dict[str, Any]
                 ) -> None:
        self.args, self.values, self.groups = args, values, groups
        self.trees: dict[str, E.Node] = {}
        self.known: dict[tuple[tuple[str, ...], tuple[str, ...]], frozenset[str]] = {}
        """The names an expression may read, by what else it reads (``per_die``,
        ``extra``): made once, not once an expression's node (a file may hold thousands
        of values)."""

    def dicey(self, name: str) -> bool:
        """Whether the value ``name`` reads dice (through other values too); each value
        looked at once (values reading many others would be paths without number)."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            tree = self.trees.get(todo.pop())
            if tree is None:
                continue
            if any(n[0] == "call" and n[1] in E.AGGREGATES + E.KEY_ONLY for n in E.walk(tree)):
                return True
            for n in E.names(tree):
                if n in self.values and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False


def check_expr(text: object, scope: Scope, *, dice: bool = True, keys: bool = False,
               per_die: tuple[str, ...] = (), extra: tuple[str, ...] = ()) -> tuple[
                   E.Node | None, str]:
    """The tree of an expression and "" , or None and what is wrong (its column named).
    ``dice``: it may read dice; ``keys``: ``faces``/``effect`` too; ``per_die``: it reads
    one die (``face`` and the symbols of those groups)."""
    if not isinstance(text, str):
        return None, f"is {text!r}; an expression (text), such as \"total >= 10\""
    try:
        tree = E.parse(text)
        _names_ok(tree, scope, dice, keys, per_die, extra)
    except E.ExprError as e:
        return None, str(e)
    return tree, ""


def _symbols(scope: Scope, groups: tuple[str, ...]) -> set[str]:
    found: set[str] = set()
    for g in groups:
        for face in scope.groups.get(g, {}).get("symbols") or []:
            found.update(face)
    return found


def _names_ok(tree: E.Node, scope: Scope, dice: bool, keys: bool,
              per_die: tuple[str, ...], extra: tuple[str, ...]) -> None:
    known = scope.known.get((per_die, extra))
    if known is None:
        known = frozenset(set(scope.args) | set(scope.values) | set(extra) | (
            {"face"} | _symbols(scope, per_die) if per_die else set()))
        scope.known[(per_die, extra)] = known
    if tree[0] == "name":
        _name_ok(tree, known, scope, dice)
    elif tree[0] == "op":
        for sub in (tree[2], tree[3]):
            _names_ok(sub, scope, dice, keys, per_die, extra)
    elif tree[0] in ("not", "neg"):
        _names_ok(tree[1], scope, dice, keys, per_die, extra)
    elif tree[0] == "call":
        _call_ok(tree, scope, dice, keys, per_die, extra)
    elif tree[0] == "groups":
        raise E.ExprError("a list of groups is only a dice function's first argument", tree[2])


def _name_ok(tree: E.Node, known: frozenset[str], scope: Scope, dice: bool) -> None:
    name, col = tree[1], tree[2]
    if name in scope.groups and name not in known:
        raise E.ExprError(f"{name} is a group of dice: read it with a dice function, such as "
                          f"sum({name})", col)
    if name not in known:
        close = get_close_matches(name, sorted(known), n=1)
        raise E.ExprError(f"{name!r} is no name here" + (
            f" (did you mean {close[0]}?)" if close else ""), col)
    if not dice and name in scope.values and scope.dicey(name):
        raise E.ExprError(f"{name} reads the dice; this is known before they are rolled", col)


ARITY = {"if": (3, 3), "min": (1, 20), "max": (1, 20), "abs": (1, 1), "count": (2, 2),
         "sum": (1, 2), "high": (1, 2), "low": (1, 2), "top": (2, 3), "alike": (1, 2),
         "faces": (1, 1), "effect": (1, 1)}


def _call_ok(tree: E.Node, scope: Scope, dice: bool, keys: bool,
             per_die: tuple[str, ...], extra: tuple[str, ...]) -> None:
    fname, args, col = tree[1], tree[2], tree[3]
    lo, hi = ARITY[fname]
    if not lo <= len(args) <= hi:
        raise E.ExprError(f"{fname}() takes {lo}" + (f" to {hi}" if hi > lo else "")
                          + f" arguments, not {len(args)}", col)
    if fname in E.NUMERIC:
        for a in args:
            _names_ok(a, scope, dice, keys, per_die, extra)
        return
    if fname in E.KEY_ONLY and not keys:
        raise E.ExprError(f"{fname}() is for the JSON keys only (a list or a die's size)", col)
    if not dice or per_die:
        raise E.ExprError(f"{fname}() reads the dice: not here" + (
            " (inside another dice function)" if per_die else ""), col)
    groups = E.group_arg(args[0])
    if groups is None or any(g not in scope.groups for g in groups):
        bad = next((g for g in groups or () if g not in scope.groups), None)
        close = get_close_matches(bad, sorted(scope.groups), n=1) if bad else []
        raise E.ExprError(f"{fname}() reads a group of dice first" + (
            f"; {bad!r} is none (did you mean {close[0]}?)" if close else
            f" ({', '.join(scope.groups)})"), args[0][-1])
    rest = args[1:]
    if fname == "top":
        _names_ok(rest[0], scope, False, False, (), extra)
        rest = rest[1:]
    for a in rest:
        _names_ok(a, scope, True, False, groups, extra)


# The file's tables ---------------------------------------------------------------------


def check_custom(data: dict[str, Any], rules: dict[str, Any], bad: Bad) -> Scope:
    """Check the custom kind's keys of ``data`` into ``rules``; the scope its outcomes'
    expressions are read in."""
    args = [_arg(i, a, bad) for i, a in enumerate(_tables(data, "args", bad))]
    names = [a["name"] for a in args if a]
    groups: dict[str, Any] = {}
    for i, d in enumerate(_tables(data, "dice", bad)[:MAX_GROUPS + 1]):
        g = _group(i, d, bad, set(names) | set(groups))
        if g:
            groups[g["name"]] = g
    if not groups:
        bad("dice", "is missing; at least one group of dice ([[dice]])")
    elif len(groups) > MAX_GROUPS:
        bad("dice", f"has more than {MAX_GROUPS} groups")
    values = data.get("values", {})
    if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
        bad("values", "is not a table of names and expressions ([values])")
        values = {}
    scope = Scope(names, dict(values), groups)
    _values(scope, bad, set(names) | set(groups))
    _group_exprs(scope, bad)
    rules.update(args=args, dice=list(groups.values()), values=dict(values))
    rules["keys"] = _keys(data.get("keys", []), "keys", scope, bad)
    rules["refuse"] = _refusals(_tables(data, "refuse", bad), scope, bad)
    rules["push"] = _push(data.get("push"), scope, bad)
    example = data.get("example", "")
    if not isinstance(example, str) or len(example) > 60:
        bad("example", "is not the arguments of a roll, as its help shows them (text)")
    rules["example"] = example if isinstance(example, str) else ""
    return scope


def _arg(i: int, a: dict[str, Any], bad: Bad) -> dict[str, Any]:
    where = f"args[{i + 1}]."
    for key in a:
        if key not in ARG_KEYS:
            _unknown(key, ARG_KEYS, where, bad)
    name, kind = a.get("name"), a.get("type", "number")
    if not isinstance(name, str) or not IDENT.match(name) or name in RESERVED or \
            keyword.iskeyword(name):
        bad(where + "name", f"is {name!r}; a name of lower-case letters, digits and _ "
            "(not one rpgdice uses itself)")
        return {}
    if kind not in ARG_TYPES:
        bad(where + "type", f"is {kind!r}; one of {', '.join(ARG_TYPES)}")
    flags = a.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) and FLAG.match(f)
                                              for f in flags):
        bad(where + "flags", "is not a list of options such as [\"--target\", \"-t\"]")
        flags = []
    if kind == "flag" and not flags:
        bad(where + "flags", "is missing: a flag is an option (--adv)")
    for key in ("min", "max", "default"):
        if key in a and not (_is_int(a[key]) or (key == "default" and isinstance(a[key], bool))):
            bad(where + key, f"is {a[key]!r}; a whole number")
    choices = a.get("choices", [])
    if not isinstance(choices, list) or not all(_is_int(c) for c in choices):
        bad(where + "choices", "is not a list of whole numbers")
        choices = []
    return {"name": name, "type": kind, "flags": flags, "choices": choices,
            "metavar": str(a.get("metavar", "" if flags else name.upper())),
            "default": a.get("default", False if kind == "flag" else None),
            "min": a.get("min"), "max": a.get("max"), "help": str(a.get("help", ""))}


def _group(i: int, d: dict[str, Any], bad: Bad, taken: set[str]) -> dict[str, Any]:
    where = f"dice[{i + 1}]."
    for key in d:
        if key not in DICE_KEYS:
            _unknown(key, DICE_KEYS, where, bad)
    name = d.get("name")
    if not isinstance(name, str) or not IDENT.match(name) or name in RESERVED or name in taken:
        bad(where + "name", f"is {name!r}; a name of lower-case letters, digits and _, not "
            "an argument's or another group's")
        return {}
    label = d.get("group", None)
    if label is not None and (not isinstance(label, str) or not IDENT.match(label)):
        bad(where + "group", f"is {label!r}; the dice's name in JSON (lower-case)")
    faces, symbols, sides = d.get("faces"), d.get("symbols"), d.get("sides")
    if sum(k in d for k in ("faces", "symbols", "sides")) != 1:
        bad(where + "sides", "give one of sides, faces (the numbers on the faces) or "
            "symbols (each face's letters)")
    elif faces is not None and (not isinstance(faces, list) or not 2 <= len(faces) <= MAX_SIDES
                                or not all(_is_int(f) for f in faces)
                                or len(set(faces)) != len(faces)):
        bad(where + "faces", "is not a list of 2 or more different whole numbers")
    elif symbols is not None and (not isinstance(symbols, list) or not 2 <= len(symbols) <= 100
                                  or not all(isinstance(s, str) and SYMBOL.match(s)
                                             for s in symbols)):
        bad(where + "symbols", "is not a list of each face's letters (\"\", \"s\", \"sa\")")
    for key in ("ace",):
        if not isinstance(d.get(key, False), bool):
            bad(where + key, f"is {d[key]!r}; true or false")
    return {"name": name, "group": label, "count": d.get("count", "1"), "sides": sides,
            "faces": faces, "symbols": symbols, "ace": d.get("ace") is True,
            "keep": d.get("keep"), "low": d.get("low", "false"), "rank": d.get("rank", "face"),
            "where": where}


def _values(scope: Scope, bad: Bad, taken: set[str]) -> None:
    for name, text in scope.values.items():
        if not IDENT.match(name) or name in RESERVED or name in taken:
            bad(f"values.{name}", "is no name a value may have (lower-case letters, digits "
                "and _, not an argument's or a group's)")
            continue
        tree, problem = check_expr(text, scope, keys=True)
        if problem:
            bad(f"values.{name}", problem)
        elif tree is not None:
            scope.trees[name] = tree
    heights = _heights(scope)
    for name in scope.trees:
        if heights[name] > MAX_CHAIN:
            bad(f"values.{name}", "reads itself (through other values)")


MAX_CHAIN = 51
"""The longest chain of values reading values (the rolls' own lookup goes 60 deep)."""


def _heights(scope: Scope) -> dict[str, int]:
    """Each value's longest chain of values read from it on (:data:`MAX_CHAIN` + 1: it
    reads itself, through others too, or goes deeper): one walk, each value and what it
    reads looked at once, no recursion (values that each read many others make paths
    without number, and a file may hold thousands of values)."""
    reads = {n: [m for m in E.names(t) if m in scope.trees] for n, t in scope.trees.items()}
    heights: dict[str, int] = {}
    cyclic: set[str] = set()
    for root in reads:
        if root in heights:
            continue
        stack, on = [(root, iter(reads[root]))], {root}
        while stack:
            name, ahead = stack[-1]
            step = next(ahead, None)
            if step is None:
                stack.pop()
                on.discard(name)
                below = max((heights.get(m, MAX_CHAIN + 1) for m in reads[name]), default=0)
                heights[name] = MAX_CHAIN + 1 if name in cyclic else min(MAX_CHAIN + 1,
                                                                         1 + below)
            elif step in on:  # a cycle: every value on the way here reads itself or it
                cyclic.update(n for n, _ in stack)
            elif step not in heights:
                stack.append((step, iter(reads[step])))
                on.add(step)
    return heights


def _group_exprs(scope: Scope, bad: Bad) -> None:
    """Each group's ``count``, ``sides``, ``keep``, ``low`` (known before the roll) and
    ``rank`` (of one die)."""
    for g in scope.groups.values():
        where = g.pop("where")
        for key in ("count", "sides", "keep", "low", "rank"):
            value = g[key]
            if value is None or (key == "sides" and _is_int(value)):
                if key == "sides" and _is_int(value) and not 2 <= value <= MAX_SIDES:
                    bad(where + key, f"is {value}; 2 to {MAX_SIDES}")
                continue
            if _is_int(value) and key != "rank":
                g[key] = str(value)
                continue
            _tree, problem = check_expr(value, scope, dice=key == "rank",
                                        per_die=(g["name"],) if key == "rank" else ())
            if problem:
                bad(where + key, problem)


def _keys(keys: object, where: str, scope: Scope, bad: Bad,
          extra: tuple[str, ...] = ()) -> list[str]:
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        bad(where, "is not a list of names (of values or arguments)")
        return []
    known = set(scope.values) | set(scope.args) | set(extra)
    for k in keys:
        if k not in known:
            close = get_close_matches(k, sorted(known), n=1)
            bad(where, f"names {k!r}, no value or argument" + (
                f" (did you mean {close[0]}?)" if close else ""))
    if len(set(keys)) != len(keys):
        bad(where, "names a key twice")
    return list(keys)


def _refusals(tables: list[dict[str, Any]], scope: Scope, bad: Bad) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(tables):
        where = f"refuse[{i + 1}]."
        for key in r:
            if key not in REFUSE_KEYS:
                _unknown(key, REFUSE_KEYS, where, bad)
        _tree, problem = check_expr(r.get("when"), scope, dice=False)
        if problem:
            bad(where + "when", problem)
        if r.get("arg") not in scope.args:
            bad(where + "arg", f"is {r.get('arg')!r}; the argument the refusal names")
        if not isinstance(r.get("why"), str) or not r["why"].strip():
            bad(where + "why", "is missing; what is wrong, in a few words")
        out.append({"when": r.get("when"), "arg": r.get("arg"), "why": r.get("why")})
    return out


def _push(push: object, scope: Scope, bad: Bad) -> dict[str, Any] | None:
    if push is None:
        return None
    if not isinstance(push, dict):
        bad("push", "is not a table ([push])")
        return None
    for key in push:
        if key not in PUSH_KEYS:
            _unknown(key, PUSH_KEYS, "push.", bad)
    command = push.get("command", "push")
    if not isinstance(command, str) or not IDENT.match(command) or command in ("roll", "odds"):
        bad("push.command", f"is {command!r}; the command's name (push)")
    _tree, problem = check_expr(push.get("reroll"), scope, per_die=tuple(scope.groups))
    if problem:
        bad("push.reroll", problem)
    keys = _keys(push.get("keys", []), "push.keys", scope, bad, extra=("pushed",))
    return {"command": command, "reroll": push.get("reroll"), "keys": keys,
            "help": str(push.get("help", ""))}


def check_condition(key: str, value: object, scope: Scope | None) -> str:
    """An outcome's ``when`` (reads the dice) or ``applies`` (the arguments alone)."""
    if scope is None:
        return ""
    _tree, problem = check_expr(value, scope, dice=key == "when")
    return problem
