"""A ``kind = "custom"`` ruleset file, rolled: its arguments checked, its groups of dice
rolled in order (a group's count, sides or faces, acing, the dice it keeps), its values
and outcome worked out by its expressions (:mod:`.expr`). Pure: dice from an injected
source.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Optional

from rpgdice.core.data import Loaded
from rpgdice.core.dice import DiceSource, GivenDice
from rpgdice.core.errors import RulesError
from rpgdice.rulesets._file import expr as E

MAX_DICE = 1000
"""The most dice one group rolls."""
MAX_LISTED = 20
"""The most dice an argument of ``type = "dice"`` lists (Cortex's DIE...)."""
MAX_ACES = 100
"""The most extra dice acing rolls in one roll."""


@lru_cache(maxsize=512)
def tree(text: str) -> E.Node:
    try:
        return E.parse(text)
    except E.ExprError as e:  # a checked file's expressions parse; a forged log's may not
        raise RulesError("rules", f"{text!r}: {e}") from None


class Die:
    """One die of a roll: its group, sides, faces as rolled (one more for each ace), the
    value expressions read (``face``: the faces added when it aces), whether it is kept."""

    __slots__ = ("group", "label", "sides", "rolls", "value", "kept", "letters")

    def __init__(self, group: str, label: Optional[str], sides: int, rolls: list[int],
                 letters: str = "") -> None:
        self.group, self.label, self.sides, self.rolls = group, label, sides, rolls
        self.value = sum(rolls)
        self.kept: Optional[bool] = None
        self.letters = letters


def faces_of(g: Loaded, sides: int) -> list[int]:
    """The numbers on a die of the group ``g`` (``--dice`` gives these)."""
    table = g.get("faces")
    return list(table) if table else list(range(1, sides + 1))


class Roll:
    """One roll's arguments and dice, and the expressions read over them."""

    def __init__(self, rules: Loaded, args: dict[str, Any]) -> None:
        self.rules, self.args = rules, args
        self.values: dict[str, str] = rules.get("values") or {}
        self.memo: dict[str, Any] = {}
        self.dice: dict[str, list[Die]] = {}
        self.die: Optional[Die] = None
        self.extra: dict[str, Any] = {}
        self.symbols = {g["name"]: set("".join(g["symbols"])) for g in rules["dice"]
                        if g.get("symbols")}
        self.depth = 0

    def lookup(self, name: str) -> Any:
        die = self.die
        if die is not None:
            if name == "face":
                return die.value
            if name in self.symbols.get(die.group, ()):
                return die.letters.count(name)
            if len(name) == 1 and any(name in s for s in self.symbols.values()):
                return 0
        if name in self.args:
            return self.args[name]
        if name in self.extra:
            return self.extra[name]
        if name not in self.memo:
            if name not in self.values:
                raise RulesError("rules", f"{name!r} is no name of the rules")
            self.depth += 1
            if self.depth > 60:
                raise RulesError("rules", f"{name} reads itself")
            saved, self.die = self.die, None
            self.memo[name] = self.eval(self.values[name])
            self.die, self.depth = saved, self.depth - 1
        return self.memo[name]

    def eval(self, text: str) -> Any:
        try:
            return E.evaluate(tree(str(text)), self.lookup, self.call)
        except E.EvalError as e:
            raise RulesError("rules", f"{text}: {e}") from None
        except TypeError:  # a list where a number is read: a forged log's rules
            raise RulesError("rules", f"{text}: cannot be worked out") from None

    def eval_node(self, node: E.Node) -> Any:
        try:
            return E.evaluate(node, self.lookup, self.call)
        except E.EvalError as e:
            raise RulesError("rules", str(e)) from None

    def per_die(self, node: E.Node, die: Die) -> Any:
        saved, self.die = self.die, die
        try:
            return E.evaluate(node, self.lookup, self.call)
        finally:
            self.die = saved

    def group_dice(self, node: E.Node, kept: bool = True) -> list[Die]:
        names = E.group_arg(node) or ()
        out = []
        for n in names:
            out += [d for d in self.dice.get(n, []) if not kept or d.kept is not False]
        return out

    def call(self, fname: str, args: tuple[E.Node, ...]) -> Any:
        if fname == "faces":
            return [d.value for d in self.group_dice(args[0], kept=False)]
        dice = self.group_dice(args[0])
        if fname == "effect":
            return effect(dice)
        if fname == "count":
            return sum(1 for d in dice if self.per_die(args[1], d))
        k = None
        if fname == "top":
            k, args = E.evaluate(args[1], self.lookup, self.call), (args[0], *args[2:])
        values = [self.per_die(args[1], d) if len(args) > 1 else d.value for d in dice]
        return aggregate(fname, values, k)


def aggregate(fname: str, values: list[Any], k: Optional[int] = None) -> int:
    """``sum``, ``high``, ``low``, ``top`` (k) or ``alike`` of the dice's values (0 with
    no dice)."""
    if fname == "sum":
        return int(sum(values))
    if fname == "alike":
        return max(Counter(values).values(), default=0)
    if fname == "top":
        return int(sum(sorted(values, reverse=True)[:max(0, int(k or 0))]))
    if not values:
        return 0
    return int(max(values) if fname == "high" else min(values))


def effect(dice: list[Die]) -> int:
    """Cortex's effect die (the one function made for one system): the two highest faces
    that are no hitch (a 1) go to the total, the smaller die first among equal faces; the
    effect is the largest size among the other dice that are no hitch, 4 when none."""
    rest = [d for d in dice if d.value != 1]
    rest.sort(key=lambda d: (-d.value, d.sides))
    return max((d.sides for d in rest[2:]), default=4)


# Arguments ------------------------------------------------------------------------------


def label(arg: Loaded) -> str:
    return str(arg["flags"][0] if arg["flags"] else arg["metavar"])


def check_args(rules: Loaded, given: dict[str, Any]) -> dict[str, Any]:
    """The arguments of a roll, every one checked (its range, its choices, the file's
    refusals): a RulesError naming the first at fault."""
    args: dict[str, Any] = {}
    for a in rules["args"]:
        value = given.get(a["name"], a["default"])
        if value is None:
            raise RulesError(label(a), "is needed; give it" + (
                f" with {a['flags'][0]} {a.get('metavar') or 'N'}" if a["flags"] else ""))
        if a["type"] == "dice" and not 1 <= len(value) <= MAX_LISTED:
            raise RulesError(label(a), f"{len(value)} dice; 1 to {MAX_LISTED}")
        for v in value if isinstance(value, (tuple, list)) else (value,):
            _in_range(a, v)
        args[a["name"]] = tuple(value) if isinstance(value, list) else value
    roll = Roll(rules, args)
    for r in rules.get("refuse") or []:
        if roll.eval(r["when"]):
            found = next(a for a in rules["args"] if a["name"] == r["arg"])
            raise RulesError(label(found), str(r["why"]))
    return args


def _in_range(a: Loaded, v: Any) -> None:
    if a["type"] == "flag":
        return
    if not isinstance(v, int) or isinstance(v, bool):
        raise RulesError(label(a), f"{v!r} is not a whole number")
    lo, hi = a.get("min"), a.get("max")
    if a["choices"] and v not in a["choices"]:
        raise RulesError(label(a), f"{v} is not one of {', '.join(map(str, a['choices']))}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        span = f"{lo} to {hi}" if lo is not None and hi is not None else (
            f"at least {lo}" if lo is not None else f"at most {hi}")
        raise RulesError(label(a), f"{v} is out of range ({span})")


# Rolling --------------------------------------------------------------------------------


def pick(source: DiceSource, faces: list[int]) -> int:
    """One face of a die numbered ``faces``: a given face read as given (``--dice``: −1,
    0), a rolled one drawn among them."""
    if isinstance(source, GivenDice):
        if source.used >= len(source.faces):
            source.roll(2, 1)  # too few faces: the same error as any die's
        face = source.faces[source.used]
        if face not in faces:
            shown = (f"{faces[0]} to {faces[-1]}" if faces == list(range(faces[0], faces[-1] + 1))
                     else ", ".join(map(str, faces)))
            raise RulesError(source.param, f"face {face} is not on the die ({shown})")
        source.used += 1
        return face
    return faces[source.roll(len(faces), 1)[0] - 1]


def group_sides(roll: Roll, g: Loaded) -> list[int]:
    """The sides of each die of the group ``g`` in this roll."""
    if g.get("faces") or g.get("symbols"):
        n = len(g.get("faces") or g["symbols"])
        return [n] * _count(roll, g)
    sides = g["sides"] if isinstance(g["sides"], int) else roll.eval(g["sides"])
    if isinstance(sides, (tuple, list)):
        return [int(s) for s in sides]
    if not isinstance(sides, int) or not 2 <= sides <= 1000:
        raise RulesError("rules", f"a die of {sides} sides")
    return [sides] * _count(roll, g)


def _count(roll: Roll, g: Loaded) -> int:
    n = roll.eval(g["count"])
    if not isinstance(n, int) or n > MAX_DICE:
        raise RulesError("rules", f"{g['name']} would roll {n} dice (at most {MAX_DICE})")
    return max(0, int(n))


def roll_group(roll: Roll, g: Loaded, source: DiceSource, aces: list[int]) -> list[Die]:
    dice = []
    for sides in group_sides(roll, g):
        faces = faces_of(g, sides)
        rolls = [pick(source, faces)]
        while g.get("ace") and rolls[-1] == max(faces) and aces[0] < MAX_ACES:
            aces[0] += 1
            rolls.append(pick(source, faces))
        letters = g["symbols"][rolls[0] - 1] if g.get("symbols") else ""
        dice.append(Die(g["name"], g.get("group"), sides, rolls, letters))
    if g.get("keep") is not None:
        keep_dice(roll, g, dice)
    return dice


def keep_dice(roll: Roll, g: Loaded, dice: list[Die]) -> None:
    """Mark the dice the group keeps: ``keep`` of them, by ``rank`` (the face unless
    said), the highest unless ``low`` holds; among equal ranks the earlier die."""
    k, low = roll.eval(g["keep"]), bool(roll.eval(g["low"]))
    rank = tree(str(g.get("rank") or "face"))
    ranks = [roll.per_die(rank, d) for d in dice]
    order = sorted(range(len(dice)), key=lambda i: (ranks[i] if low else -ranks[i], i))
    kept = set(order[:max(0, int(k))])
    if len(kept) == len(dice):  # none dropped: no die says kept
        return
    for i, d in enumerate(dice):
        d.kept = i in kept


def roll_all(rules: Loaded, args: dict[str, Any], source: DiceSource) -> Roll:
    roll = Roll(rules, args)
    aces = [0]
    if isinstance(source, GivenDice):  # too few faces: say how many the whole roll needs
        need = sum(len(group_sides(roll, g)) for g in rules["dice"])
        if source.used + need > len(source.faces):
            source.roll(2, need)
    for g in rules["dice"]:
        roll.dice[g["name"]] = roll_group(roll, g, source, aces)
    return roll


def outcome_of(roll: Roll) -> str:
    """The first outcome that applies to the roll's form and whose ``when`` holds."""
    from rpgdice.rulesets._file.schema import fold

    for o in roll.rules["outcomes"]:
        when = o["when"]
        if "applies" in when and not roll.eval(when["applies"]):
            continue
        if "when" not in when or roll.eval(when["when"]):
            return fold(o["name"])
    raise RulesError("rules", "no outcome holds for this roll (the last needs no when)")


def dice_data(roll: Roll) -> list[dict[str, Any]]:
    """The dice as JSON has them: each face rolled, ``{face, group}``, ``kept`` on the dice
    of a group that keeps some, ``ace`` true on a face an ace added to the die before it."""
    out: list[dict[str, Any]] = []
    for dice in roll.dice.values():
        for d in dice:
            for i, face in enumerate(d.rolls):
                entry: dict[str, Any] = {"face": face, "group": d.label}
                if d.kept is not None:
                    entry["kept"] = d.kept
                if i:
                    entry["ace"] = True
                out.append(entry)
    return out


def key_values(roll: Roll, keys: list[str]) -> dict[str, Any]:
    return {k: roll.lookup(k) for k in keys}


def work(rules: Loaded, args: dict[str, Any]) -> int:
    """The most dice one roll rolls."""
    roll = Roll(rules, args)
    n = sum(len(group_sides(roll, g)) for g in rules["dice"])
    return n + (MAX_ACES if any(g.get("ace") for g in rules["dice"]) else 0)
