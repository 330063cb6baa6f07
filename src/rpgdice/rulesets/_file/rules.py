"""A user's ruleset file, rolled: one implementation for every file, its rules the
checked content of the file (:mod:`.schema`) carried in the roll itself (as JSON text), so
that a replay rolls by the rules of the time of the roll. Pure: dice from an injected
source, no files, no command line.

Each file's results are classes of their own (:func:`classes`): a result's class names its
ruleset, as every ruleset's does, and the views and the log find it by that name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from rpgdice.core import jsontext
from rpgdice.core.data import Loaded
from rpgdice.core.dice import DiceSource, check_pool
from rpgdice.core.errors import RulesError, at_least
from rpgdice.core.record import Tagged, record

if TYPE_CHECKING:
    from fractions import Fraction

MAX_AGAIN = 100
"""The most extra dice ``again`` rolls in one roll."""
MAX_ARG = 10_000


@record
class FileRoll:
    """One roll of a user's ruleset: its rules (the file's checked content, as JSON) and
    its arguments (POOL and ``--difficulty``; MOD and ``--target``); ``name`` the
    ruleset's."""

    name: str
    rules: str
    pool: int = 0
    difficulty: int = 1
    mod: int = 0
    target: Optional[int] = None
    args: Optional[str] = None
    """A custom file's arguments, as JSON (an object of its arguments' names)."""

    def __post_init__(self) -> None:
        if abs(self.pool) > 1000:
            check_pool(self.pool, "POOL")
        at_least("--difficulty", self.difficulty, 0, f"{self.difficulty} is below 0")
        if abs(self.mod) > 1_000_000:
            raise RulesError("MOD", f"{self.mod} is out of range (at most 1000000 either way)")
        if self.target is not None and abs(self.target) > 1_000_000:
            raise RulesError("--target", f"{self.target} is out of range")

    @property
    def parsed(self) -> Loaded:
        return parsed(self.rules)


_PARSED: dict[str, Loaded] = {}


def parsed(text: str) -> Loaded:
    """The rules a roll carries, read once per text."""
    rules = _PARSED.get(text)
    if rules is None:
        try:
            rules = jsontext.loads(text)
            if not isinstance(rules, dict) or rules.get("kind") not in ("pool", "total", "highest",
                                                                   "custom"):
                raise ValueError
        except ValueError:
            raise RulesError("rules", "the roll's rules are not a ruleset file's") from None
        _PARSED[text] = rules
    return rules


@record
class FileDie:
    face: int
    counts: Optional[int] = None
    """The successes the die adds in a pool (2 a double, -1 a cancelling die); None else."""


@record
class PoolResult(Tagged, command="roll"):
    outcome: str
    dice: list[FileDie]
    successes: int
    difficulty: int
    margin: int
    glitch: bool


@record
class TotalResult(Tagged, command="roll"):
    outcome: str
    dice: list[FileDie]
    total: int
    target: Optional[int]
    mod: int = 0
    """MOD as given (the file's own numbers are part of its dice, as ``odds`` heads it). An
    entry logged before this held MOD plus the file's numbers; its view reads alike."""


@record
class HighestResult(Tagged, command="roll"):
    outcome: str
    dice: list[FileDie]
    highest: int
    critical: bool
    zero: bool = False
    """The pool was 0 or less: no dice of its own; the dice shown are the file's ``zero``
    rule's (``lowest-of-2``: two rolled, the lower decides; ``fail``: none)."""


@record
class OddsOfFile(Tagged, command="odds"):
    """What the odds of every kind of file say: each outcome's chance, and how deep an
    exploding (acing) die was followed, with the chance left out beyond."""

    outcomes: dict[str, Fraction]
    truncated: bool = False
    explode_depth: Optional[int] = None
    left_out: float = 0.0


@record
class FileOdds(OddsOfFile):
    pool: Optional[int] = None
    """The roll the odds are of: POOL and ``--difficulty`` (pool), POOL (highest), MOD
    and ``--target`` (total); None where the kind takes no such argument."""
    difficulty: Optional[int] = None
    mod: Optional[int] = None
    target: Optional[int] = None


@record
class CustomResult(Tagged, command="roll"):
    """A custom file's roll: its outcome, its dice (``{face, group}``, ``kept`` where the
    group keeps some) and then the keys the file names (made per file: :func:`custom_classes`)."""

    outcome: str
    dice: list[dict[str, Any]]


@record
class PushResult(Tagged, command="push"):
    """The step after a roll (``yze push``): the dice as they stand after it, and its keys."""

    outcome: str
    dice: list[dict[str, Any]]


@record
class CustomOdds(OddsOfFile):
    args: Optional[dict[str, Any]] = None
    """The arguments the odds are of."""


BASES = {"PoolResult": PoolResult, "TotalResult": TotalResult, "HighestResult": HighestResult,
         "FileOdds": FileOdds}
RESULT_OF = {"pool": "PoolResult", "total": "TotalResult", "highest": "HighestResult"}
_CLASSES: dict[str, dict[str, type]] = {}


def classes(name: str) -> dict[str, type]:
    """The result classes of the user's ruleset ``name`` (made once): each base class with
    ``RULESET`` set to ``name``; the records of a roll (:class:`FileRoll`, :class:`FileDie`)
    are every file's."""
    made = _CLASSES.get(name)
    if made is None:
        made = {n: type(base.__name__, (base,), {"__module__": __name__,
                                                   "__qualname__": base.__qualname__,
                                                   "__doc__": base.__doc__},
                        ruleset=name)
                for n, base in BASES.items()}
        made.update(FileRoll=FileRoll, FileDie=FileDie)
        _CLASSES[name] = made
    return made


_CUSTOM: dict[tuple[Any, ...], dict[str, type]] = {}


def custom_classes(name: str, rules: Loaded) -> dict[str, type]:
    """The result classes of a custom file: each with a field for each key it names."""
    push = rules.get("push") or {}
    found = (name, tuple(rules.get("keys") or ()),
             tuple(k for k in push.get("keys") or () if k != "pushed"),
             push.get("command", "push"))
    made = _CUSTOM.get(found)
    if made is None:
        made = _CUSTOM[found] = {
            "CustomResult": _keyed(CustomResult, name, found[1], "roll"),
            "PushResult": _keyed(PushResult, name, found[2], found[3]),
            "CustomOdds": _keyed(CustomOdds, name, (), "odds"),
            "FileRoll": FileRoll}
    return made


def _keyed(base: type, name: str, keys: tuple[str, ...], command: str) -> type:
    space: dict[str, Any] = {"__module__": __name__, "__qualname__": base.__qualname__,
                             "__doc__": base.__doc__, "__annotations__": dict.fromkeys(keys, Any)}
    space.update(dict.fromkeys(keys))
    return record(type(base.__name__, (base,), space, ruleset=name, command=command))


def custom_args(spec: FileRoll) -> dict[str, Any]:
    try:
        args = jsontext.loads(spec.args or "{}")
    except ValueError:
        raise RulesError("rules", "the roll's arguments are not a ruleset file's") from None
    if not isinstance(args, dict):
        raise RulesError("rules", "the roll's arguments are not a ruleset file's")
    return args


def roll_custom(name: str, rules: Loaded, spec: FileRoll, source: DiceSource) -> Any:
    from rpgdice.rulesets._file import engine

    args = engine.check_args(rules, custom_args(spec))
    rolled = engine.roll_all(rules, args, source)
    cls = custom_classes(name, rules)["CustomResult"]
    return cls(outcome=engine.outcome_of(rolled), dice=engine.dice_data(rolled),
               **engine.key_values(rolled, rules["keys"]))


# Outcomes -----------------------------------------------------------------------------


def fold(name: str) -> str:
    return "-".join(str(name).strip().lower().split())


def _bound(value: int | str, target: Optional[int], param: str) -> int:
    if isinstance(value, int):
        return value
    if target is None:
        raise RulesError("--target", f"the rules compare with the target ({value}); give one "
                         "with --target N")
    k = int(value.partition("/")[2] or 1)
    return target // k


def outcome(rules: Loaded, facts: Loaded, target: Optional[int] = None) -> str:
    """The first outcome whose conditions all hold of ``facts`` (``margin``, ``glitch``;
    ``total``, ``natural``; ``highest``, ``critical``), as its JSON value."""
    for o in rules["outcomes"]:
        if all(_holds(key, value, facts, target) for key, value in o["when"].items()):
            return fold(o["name"])
    raise AssertionError("the last outcome has no condition")  # pragma: no cover


def _holds(key: str, value: Any, facts: Loaded, target: Optional[int]) -> bool:
    if key == "glitch":
        return bool(facts["glitch"]) == value
    if key == "margin_at_least":
        return int(facts["margin"]) >= value
    if key == "successes_at_least":
        return int(facts["successes"]) >= value
    if key == "success":
        return (facts["margin"] >= 0) == value
    if key == "at_least":
        return int(facts["total"]) >= _bound(value, target, key)
    if key == "at_most":
        return int(facts["total"]) <= _bound(value, target, key)
    if key == "natural":
        return facts["natural"] == value
    if key == "highest_at_least":
        return int(facts["highest"]) >= value
    if key == "critical":
        return bool(facts["critical"]) == value
    raise AssertionError(key)  # pragma: no cover


def needs_target(rules: Loaded) -> bool:
    return any(isinstance(v, str) for o in rules["outcomes"] for v in o["when"].values())


def check_target(rules: Loaded, spec: FileRoll) -> None:
    if spec.target is None and needs_target(rules):
        raise RulesError("--target", "the rules compare the total with a target: give one "
                         "with --target N")


# Rolling ------------------------------------------------------------------------------


def die_counts(rules: Loaded, face: int) -> int:
    """What one die of a pool adds: 1 a success, 2 a double, -1 a cancelling face, else 0."""
    success, at_most = rules.get("success"), rules.get("success_at_most")
    if (success is not None and face >= success) or (at_most is not None and face <= at_most):
        double = rules.get("double")
        return 2 if double is not None and face >= double else 1
    cancel = rules.get("cancel")
    return -1 if cancel is not None and face <= cancel else 0


def glitched(rules: Loaded, rolled: int, ones_all: int, ones_own: int, n: int) -> bool:
    glitch = rules.get("glitch", "none")
    if glitch == "ones-no-success":
        return rolled == 0 and ones_all > 0
    if glitch == "ones-over-half":
        return 2 * ones_own > n
    return False


def roll(spec: FileRoll, source: DiceSource) -> Any:
    rules, name = spec.parsed, spec.name
    kind = rules["kind"]
    if kind == "custom":
        return roll_custom(name, rules, spec, source)
    if kind == "pool":
        return roll_pool(name, rules, spec, source)
    if kind == "total":
        return roll_total(name, rules, spec, source)
    return roll_highest(name, rules, spec, source)


def roll_pool(name: str, rules: Loaded, spec: FileRoll, source: DiceSource) -> PoolResult:
    die, n = rules["die"], spec.pool
    dice: list[FileDie] = []
    glitch = False
    if n <= 0:
        if rules.get("zero") == "chance":
            face = source.roll(die, 1)[0]
            dice.append(FileDie(face, 1 if face == die else 0))
            glitch = face == 1
    else:
        again, once, extra = rules.get("again"), rules.get("again_once"), 0
        ones_own = 0
        for _ in range(n):
            face = source.roll(die, 1)[0]
            ones_own += face == 1
            dice.append(FileDie(face, die_counts(rules, face)))
            first = True
            while again is not None and face >= again and extra < MAX_AGAIN and (first or not once):
                first = False
                extra += 1
                face = source.roll(die, 1)[0]
                dice.append(FileDie(face, die_counts(rules, face)))
        rolled = sum(d.counts for d in dice if d.counts and d.counts > 0)
        glitch = glitched(rules, rolled, sum(d.face == 1 for d in dice), ones_own, n)
    net = max(0, sum(d.counts or 0 for d in dice))
    margin = net - spec.difficulty
    cls = classes(name)["PoolResult"]
    return cls(outcome=outcome(rules, {"margin": margin, "glitch": glitch,
                                                 "successes": net}), dice=dice,
               successes=net, difficulty=spec.difficulty, margin=margin, glitch=glitch)


def terms(rules: Loaded) -> list[tuple[int, int, int]]:
    from rpgdice.rulesets._file.schema import dice_terms

    found = dice_terms(rules["dice"])
    assert found is not None
    return found


def roll_total(name: str, rules: Loaded, spec: FileRoll, source: DiceSource) -> TotalResult:
    check_target(rules, spec)
    dice: list[FileDie] = []
    total = spec.mod
    for sign, count, sides in terms(rules):
        if not sides:  # a number of the file's dice: part of the dice, not of MOD
            total += sign * count
            continue
        for face in source.roll(sides, count):
            dice.append(FileDie(face))
            total += sign * face
    facts = {"total": total, "natural": dice[0].face if dice else None}
    cls = classes(name)["TotalResult"]
    return cls(outcome=outcome(rules, facts, spec.target), dice=dice, total=total,
               target=spec.target, mod=spec.mod)


def roll_highest(name: str, rules: Loaded, spec: FileRoll, source: DiceSource) -> HighestResult:
    die, n = rules["die"], spec.pool
    critical = False
    if n <= 0:
        faces = source.roll(die, 2) if rules.get("zero") == "lowest-of-2" else []
        highest = min(faces) if faces else 0
    else:
        faces = source.roll(die, n)
        highest = max(faces)
        need = rules.get("critical")
        critical = need is not None and faces.count(die) >= need
    cls = classes(name)["HighestResult"]
    return cls(outcome=outcome(rules, {"highest": highest, "critical": critical}),
               dice=[FileDie(f) for f in faces], highest=highest, critical=critical,
               zero=n <= 0)


def work(spec: FileRoll) -> int:
    """The most dice one roll rolls."""
    rules = spec.parsed
    if rules["kind"] == "custom":
        from rpgdice.rulesets._file import engine

        return engine.work(rules, custom_args(spec))
    if rules["kind"] == "total":
        return sum(c for _, c, s in terms(rules) if s)
    if rules["kind"] == "pool":
        return max(1, spec.pool) + (MAX_AGAIN if rules.get("again") else 0)
    return max(2, spec.pool)
