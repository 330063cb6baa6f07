"""Twenty dice systems as ruleset files (issue 42; the specification is SYSTEMS.md): an
oracle written from SYSTEMS.md alone, never from the engine that reads the files.

- Given faces: tests/systems/NAME.toml holds, for each system, cases worked out by hand from
  SYSTEMS.md's words (every outcome row and every edge its table and "Details" name) and the
  usage errors (exit 2, one line). The same cases are checked against this file's own
  classifiers below (without rpgdice), so that the hand work and the classifiers vouch for
  each other.
- Exact odds: each system's classifier, run over every face (``itertools.product``, counted
  in ``Fraction``), against ``rpgdice NAME odds ARGS --json``; an acing die (Savage Worlds)
  and a die that rolls again (Chronicles of Darkness) are followed to the depth the odds
  state (``explode_depth``: extra rolls a die, the chance beyond it ``left_out``).
- Full agreement: every face tuple of one small case a system, rolled by ``-n N --dice``,
  each roll's JSON against the classifier (outcome and keys).
- ``yze push`` with the log on; and the twenty files shipped, each ``rulesets check`` ok.

Readings of SYSTEMS.md where it leaves room (the engine must read it the same way):
``kept`` is true on a kept die and false on a dropped one wherever a die is chosen among
others (pbta and dnd5e --adv/--dis, coc's tens dice with bonus or penalty dice, onering's two
Feat dice); ``explode_depth`` is one number, the extra rolls every acing (or again) die of the
roll may make, the chance of any die going further ``left_out``; cofd's Exceptional success
holds at 5 successes even when -d asks more (its row comes before Success); coc's Critical
(01) holds even at skill 0; --bonus with --penalty, and --favoured with --ill-favoured, are
usage errors as --adv with --dis; a push's ``successes`` and ``ones`` count the whole pool
after it, its JSON ``command`` is ``push``, its default the last logged ``yze roll``; mnm's
``degrees`` is signed; onering's ``tengwar`` counts the Success dice's 6s whatever the outcome;
a negative MOD is typed bare (``pbta roll -1``), as today; odds list every outcome of the
file's rows (a Critical failure at 0 under --extra too), dnd5e's those of the form asked.
"""

from __future__ import annotations

import itertools
import shutil
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from pathlib import Path

import pytest

from conftest import assert_usage_error, cli, home, ok
from test_rules import subset

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "rulesets"
DATA = Path(__file__).resolve().parent / "systems"
SYSTEMS = ("blades", "pbta", "yze", "v5", "sr5", "savage", "coc", "genesys", "fate",
           "ironsworn", "dnd5e", "cortex", "cofd", "exalted", "mnm", "gurps", "mothership",
           "onering", "age", "daggerheart")
GROUPED = {"hunger", "wild", "challenge", "feat", "dragon", "hope", "fear", "ability",
           "proficiency", "difficulty", "boost", "setback"}
"""The group names SYSTEMS.md fixes (Genesys's challenge die shares ``challenge``)."""


def install(name: str) -> None:
    """Copy docs/rulesets/NAME.toml into the test's config folder (CLI.md, "Your own
    system")."""
    source = EXAMPLES / f"{name}.toml"
    assert source.is_file(), f"docs/rulesets/{name}.toml is missing"
    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    shutil.copy(source, folder / f"{name}.toml")


def dice_option(faces: Iterable[int]) -> str:
    """``--dice=F1,F2,...`` (the ``=`` form: Fate's first face may be -1)."""
    return "--dice=" + ",".join(str(f) for f in faces)


# The arguments, read the way SYSTEMS.md writes them ------------------------------------------

FLAGS = {"--adv", "--dis", "--attack", "--extra", "--favoured", "--ill-favoured", "--weary"}


class Args:
    """``"3 --hunger 1 -d 2"`` read: positionals (numbers, ``d8``) and options."""

    def __init__(self, text: str) -> None:
        self.pos: list[str] = []
        self.opts: dict[str, int] = {}
        self.flags: set[str] = set()
        words = text.split()
        i = 0
        while i < len(words):
            word = words[i]
            if word in FLAGS:
                self.flags.add(word)
            elif word.startswith("-") and not word[1:].isdigit():
                self.opts[word] = int(words[i + 1])
                i += 1
            else:
                self.pos.append(word)
            i += 1

    def num(self, i: int, default: int = 0) -> int:
        return int(self.pos[i]) if len(self.pos) > i else default

    def opt(self, name: str, default: int = 0) -> int:
        return self.opts.get(name, default)

    def flag(self, name: str) -> bool:
        return name in self.flags


Faces = list[list[tuple[int, int]]]
"""Each die's faces in ``--dice`` order, each face with its weight (1 unless faces that
decide alike are folded into one, to keep an enumeration small)."""


def die(sides: int, low: int = 1) -> list[tuple[int, int]]:
    return [(f, 1) for f in range(low, low + sides)]


D6, D10, D12, D20 = die(6), die(10), die(12), die(20)


def first(*pairs: tuple[bool, str], otherwise: str) -> str:
    """The first outcome whose condition holds (SYSTEMS.md's rows, in order)."""
    return next((name for holds, name in pairs if holds), otherwise)


# The twenty, each a classifier of given faces (written from SYSTEMS.md's rows) -------------


def blades(a: Args, f: list[int]) -> dict:
    pool = a.num(0)
    highest = max(f) if pool > 0 else min(f)
    critical = pool > 0 and f.count(6) >= 2
    return {"outcome": first((critical, "critical"), (highest == 6, "full-success"),
                             (highest >= 4, "partial-success"), otherwise="bad-outcome"),
            "highest": highest, "critical": critical}


def pbta(a: Args, f: list[int]) -> dict:
    kept = f
    if a.flag("--adv") or a.flag("--dis"):
        kept = sorted(f, reverse=a.flag("--adv"))[:2]
    total = sum(kept) + a.num(0)
    return {"outcome": first((total >= 10, "strong-hit"), (total >= 7, "weak-hit"),
                             otherwise="miss"), "total": total}


def yze(a: Args, f: list[int]) -> dict:
    return {"outcome": "success" if 6 in f else "failure", "successes": f.count(6)}


def v5(a: Args, f: list[int]) -> dict:
    pool, need = a.num(0), a.opt("-d", 1)
    hunger = f[pool - a.opt("--hunger"):]
    tens = f.count(10)
    successes = sum(x >= 6 for x in f) + 2 * (tens // 2)
    win = successes >= need
    return {"outcome": first((win and tens >= 2 and 10 in hunger, "messy-critical"),
                             (win and tens >= 2, "critical-win"), (win, "win"),
                             (1 in hunger, "bestial-failure"), (successes == 0, "total-failure"),
                             otherwise="failure"),
            "successes": successes, "margin": successes - need}


def sr5(a: Args, f: list[int]) -> dict:
    hits = sum(x >= 5 for x in f)
    glitch = 2 * f.count(1) > len(f)
    won = hits >= a.opt("-d", 1)
    return {"outcome": first((glitch and hits == 0, "critical-glitch"),
                             (glitch and won, "success-with-a-glitch"), (glitch, "glitch"),
                             (won, "success"), otherwise="failure"),
            "successes": hits, "glitch": glitch}


def acing(f: list[int], at: int, sides: int) -> tuple[int, int, int]:
    """One acing die read from ``f[at:]``: its total, its first face, where the next die
    starts."""
    start, total, face = at, 0, sides
    while face == sides:
        face = f[at]
        total, at = total + face, at + 1
    return total, f[start], at


def savage(a: Args, f: list[int]) -> dict:
    sides, extra = a.num(0), a.flag("--extra")
    best, trait_first, at = acing(f, 0, sides)
    fumble = False
    if not extra:
        wild, wild_first, _ = acing(f, at, 6)
        best = max(best, wild)
        fumble = trait_first == 1 and wild_first == 1
    total = best + a.num(1)
    outcome = first((fumble, "critical-failure"), (total >= 8, "raise"), (total >= 4, "success"),
                    otherwise="failure")
    raises = (total - 4) // 4 if outcome in ("raise", "success") else 0
    return {"outcome": outcome, "total": total, "raises": raises}


def coc(a: Args, f: list[int]) -> dict:
    skill = a.opt("--target")
    results = [10 * tens + f[0] or 100 for tens in f[1:]]
    total = min(results) if a.opt("--bonus") else max(results)
    return {"outcome": first((total == 1, "critical"),
                             (total == 100 or (skill < 50 and total >= 96), "fumble"),
                             (total <= skill // 5, "extreme-success"),
                             (total <= skill // 2, "hard-success"),
                             (total <= skill, "regular-success"), otherwise="failure"),
            "total": total, "target": skill}


GENESYS = {  # SYSTEMS.md's table: each die's faces 1..N
    "ability": ["", "s", "s", "ss", "a", "a", "sa", "aa"],
    "proficiency": ["", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "t"],
    "difficulty": ["", "f", "ff", "h", "h", "h", "hh", "fh"],
    "challenge": ["", "f", "f", "ff", "ff", "h", "h", "fh", "fh", "hh", "hh", "d"],
    "boost": ["", "", "s", "sa", "aa", "a"],
    "setback": ["", "", "f", "f", "h", "h"],
}


def genesys_dice(a: Args) -> list[str]:
    """The dice's kinds in ``--dice`` order: the fixed order, whatever order was typed."""
    return [kind for kind in GENESYS for _ in range(a.opt(f"--{kind}"))]


def genesys(a: Args, f: list[int]) -> dict:
    symbols = "".join(GENESYS[kind][face - 1] for kind, face in zip(genesys_dice(a), f))
    n = Counter(symbols)
    net = n["s"] + n["t"] - n["f"] - n["d"]
    return {"outcome": "success" if net >= 1 else "failure", "successes": net,
            "advantages": n["a"] - n["h"], "triumphs": n["t"], "despairs": n["d"]}


def fate(a: Args, f: list[int]) -> dict:
    total = sum(f) + a.num(0)
    shifts = total - a.opt("--target")
    return {"outcome": first((shifts >= 3, "succeed-with-style"), (shifts >= 1, "succeed"),
                             (shifts == 0, "tie"), otherwise="fail"),
            "total": total, "shifts": shifts}


def ironsworn(a: Args, f: list[int]) -> dict:
    score = min(10, f[0] + a.num(0) + a.opt("--adds"))
    beats = (score > f[1]) + (score > f[2])
    return {"outcome": ("miss", "weak-hit", "strong-hit")[beats], "score": score,
            "challenge": [f[1], f[2]], "match": f[1] == f[2]}


def dnd5e(a: Args, f: list[int]) -> dict:
    natural = max(f) if a.flag("--adv") else min(f)
    total = natural + a.num(0)
    made = total >= a.opt("--target")
    if a.flag("--attack"):
        outcome = first((natural == 20, "critical-hit"), (natural != 1 and made, "hit"),
                        otherwise="miss")
    else:
        outcome = "success" if made else "failure"
    return {"outcome": outcome, "total": total, "natural": natural}


def cortex_sizes(a: Args) -> list[int]:
    return [int(word.removeprefix("d")) for word in a.pos]


def cortex(a: Args, f: list[int]) -> dict:
    target = a.opt("--target")
    # not hitches, higher faces first, and among equal faces the smaller dice first
    others = sorted(((face, size) for face, size in zip(f, cortex_sizes(a)) if face != 1),
                    key=lambda d: (-d[0], d[1]))
    total = sum(face for face, _ in others[:2])
    effect = max((size for _, size in others[2:]), default=4)
    hitches = f.count(1)
    return {"outcome": first((hitches == len(f), "botch"), (total >= target + 5, "heroic-success"),
                             (total >= target, "success"), otherwise="failure"),
            "total": total, "effect": effect, "hitches": hitches}


def cofd(a: Args, f: list[int]) -> dict:
    need = a.opt("-d", 1)
    if a.num(0) <= 0:  # a chance die: 10 a success, 1 a dramatic failure, no again
        successes, dramatic = int(f[0] == 10), f[0] == 1
    else:
        successes, dramatic = sum(x >= 8 for x in f), False
    return {"outcome": first((dramatic, "dramatic-failure"),
                             (successes >= 5, "exceptional-success"),
                             (successes >= need, "success"), otherwise="failure"),
            "successes": successes, "margin": successes - need}


def exalted(a: Args, f: list[int]) -> dict:
    need = a.opt("-d", 1)
    successes = sum(x >= 7 for x in f) + f.count(10)
    return {"outcome": first((successes == 0 and 1 in f, "botch"), (successes >= need, "success"),
                             otherwise="failure"),
            "successes": successes, "margin": successes - need}


def mnm(a: Args, f: list[int]) -> dict:
    total, dc = f[0] + a.num(0), a.opt("--target")
    degrees = 1 + (total - dc) // 5 if total >= dc else -(1 + (dc - total - 1) // 5)
    if f[0] == 20:
        degrees = 1 if degrees == -1 else degrees + 1
    names = {3: "three-degrees-of-success", 2: "two-degrees-of-success", 1: "success",
             -1: "failure", -2: "two-degrees-of-failure", -3: "three-degrees-of-failure"}
    return {"outcome": names[max(-3, min(3, degrees))], "total": total, "degrees": degrees}


def gurps(a: Args, f: list[int]) -> dict:
    skill, total = a.opt("--target"), sum(f)
    critical = total <= 4 or (total == 5 and skill >= 15) or (total == 6 and skill >= 16)
    fumble = total == 18 or (total == 17 and skill <= 15) or total >= skill + 10
    return {"outcome": first((critical, "critical-success"), (fumble, "critical-failure"),
                             (total <= skill and total <= 16, "success"), otherwise="failure"),
            "total": total, "margin": skill - total}


def mothership(a: Args, f: list[int]) -> dict:
    total = 10 * f[0] + f[1]
    made, double = total < a.opt("--target"), f[0] == f[1]
    return {"outcome": first((double and made, "critical-success"), (double, "critical-failure"),
                             (made, "success"), otherwise="failure"), "total": total}


def onering_feat(a: Args, f: list[int]) -> int:
    """The kept Feat die: the rune (11) best, the Eye (12) worst."""
    if not (a.flag("--favoured") or a.flag("--ill-favoured")):
        return f[0]
    rank = {11: 11, 12: 0}
    pick = max if a.flag("--favoured") else min
    return pick(f[:2], key=lambda face: rank.get(face, face))


def onering(a: Args, f: list[int]) -> dict:
    feat = onering_feat(a, f)
    success_dice = f[2:] if (a.flag("--favoured") or a.flag("--ill-favoured")) else f[1:]
    weary = a.flag("--weary")
    total = (0 if feat >= 11 else feat) + sum(0 if weary and x <= 3 else x for x in success_dice)
    tengwar = success_dice.count(6)
    made = feat == 11 or total >= a.opt("--target")
    return {"outcome": first((made and tengwar >= 2, "extraordinary-success"),
                             (made and tengwar == 1, "great-success"), (made, "success"),
                             otherwise="failure"),
            "total": total, "tengwar": tengwar, "eye": feat == 12, "rune": feat == 11}


def age(a: Args, f: list[int]) -> dict:
    total = sum(f) + a.num(0)
    stunts = total >= a.opt("--target") and len(set(f)) < 3
    return {"outcome": first((stunts, "success-with-stunts"),
                             (total >= a.opt("--target"), "success"), otherwise="failure"),
            "total": total, "stunt_points": f[2] if stunts else 0}


def daggerheart(a: Args, f: list[int]) -> dict:
    hope, fear = f[0], f[1]
    total = hope + fear + a.num(0) + (f[2] if a.flag("--adv") else 0) - (
        f[2] if a.flag("--dis") else 0)
    made = total >= a.opt("--target")
    return {"outcome": first((hope == fear, "critical-success"),
                             (made and hope > fear, "success-with-hope"),
                             (made, "success-with-fear"), (hope > fear, "failure-with-hope"),
                             otherwise="failure-with-fear"),
            "total": total, "hope": hope, "fear": fear}


# Each system's dice (their faces, in --dice order) and outcomes (in order) -------------------


Chains = tuple[list[tuple[tuple[int, ...], Fraction]], Fraction]
"""Face sequences, each with its chance, and the chance left out beyond a depth."""


def chains(sides: int, depth: int, again: int | None = None,
           last: list[tuple[int, int]] | None = None) -> Chains:
    """One die that rolls again on ``again`` (default its top face), followed ``depth`` extra
    rolls deep: each sequence of faces with its chance, and the chance left out (the die
    rolled ``again`` on its last extra roll too). ``last`` folds the final faces by weight."""
    again = sides if again is None else again
    ends = last or [(f, 1) for f in range(1, sides + 1) if f != again]
    out = [((again,) * k + (end,), Fraction(weight, sides ** (k + 1)))
           for k in range(depth + 1) for end, weight in ends]
    return out, Fraction(1, sides ** (depth + 1))


def joined(dice: list[Chains]) -> Chains:
    """Several dice that roll again, one after another: every sequence, and what is left out
    (any die cut short)."""
    seqs: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    kept = Fraction(1)
    for options, left in dice:
        seqs = [(a + b, p * q) for a, p in seqs for b, q in options]
        kept *= 1 - left
    return seqs, 1 - kept


def savage_chains(a: Args, depth: int, fold: bool) -> Chains:
    dice = [chains(a.num(0), depth)] + ([] if a.flag("--extra") else [chains(6, depth)])
    return joined(dice)


def cofd_chains(a: Args, depth: int, fold: bool) -> Chains:
    if a.num(0) <= 0:
        return [((f,), Fraction(1, 10)) for f in range(1, 11)], Fraction(0)
    last = [(7, 7), (8, 2)] if fold else None  # below 8 decides alike; 8 and 9 too
    return joined([chains(10, depth, last=last)] * a.num(0))


@dataclass(frozen=True)
class System:
    outcomes: Callable[[Args], tuple[str, ...]]
    judge: Callable[[Args, list[int]], dict]
    faces: Callable[[Args, bool], Faces] | None = None
    """Each die's faces; the bool asks for them folded (an enumeration) or all (a roll)."""
    chains: Callable[[Args, int, bool], Chains] | None = None
    """For dice that roll again: the sequences to a depth (folded or not)."""


def same(names: str) -> Callable[[Args], tuple[str, ...]]:
    return lambda a: tuple(names.split())


def v5_faces(a: Args, fold: bool) -> Faces:
    plain = [(1, 5), (6, 4), (10, 1)] if fold else D10
    hungry = [(1, 1), (2, 4), (6, 4), (10, 1)] if fold else D10
    hunger = a.opt("--hunger")
    return [plain] * (a.num(0) - hunger) + [hungry] * hunger


def pbta_faces(a: Args, fold: bool) -> Faces:
    return [D6] * (3 if a.flag("--adv") or a.flag("--dis") else 2)


def coc_faces(a: Args, fold: bool) -> Faces:
    return [die(10, 0)] * (2 + a.opt("--bonus") + a.opt("--penalty"))


def onering_faces(a: Args, fold: bool) -> Faces:
    feats = 2 if a.flag("--favoured") or a.flag("--ill-favoured") else 1
    return [D12] * feats + [D6] * a.num(0)


def daggerheart_faces(a: Args, fold: bool) -> Faces:
    return [D12, D12] + ([D6] if a.flag("--adv") or a.flag("--dis") else [])


SYSTEM: dict[str, System] = {
    "blades": System(same("critical full-success partial-success bad-outcome"), blades,
                     lambda a, fold: [D6] * (a.num(0) if a.num(0) > 0 else 2)),
    "pbta": System(same("strong-hit weak-hit miss"), pbta, pbta_faces),
    "yze": System(same("success failure"), yze, lambda a, fold: [D6] * a.num(0)),
    "v5": System(same("messy-critical critical-win win bestial-failure total-failure failure"),
                 v5, v5_faces),
    "sr5": System(same("critical-glitch success-with-a-glitch glitch success failure"), sr5,
                  lambda a, fold: [D6] * a.num(0)),
    "savage": System(same("critical-failure raise success failure"), savage,
                     chains=savage_chains),
    "coc": System(same("critical fumble extreme-success hard-success regular-success failure"),
                  coc, coc_faces),
    "genesys": System(same("success failure"), genesys,
                      lambda a, fold: [die(len(GENESYS[k])) for k in genesys_dice(a)]),
    "fate": System(same("succeed-with-style succeed tie fail"), fate,
                   lambda a, fold: [die(3, -1)] * 4),
    "ironsworn": System(same("strong-hit weak-hit miss"), ironsworn,
                        lambda a, fold: [D6, D10, D10]),
    "dnd5e": System(lambda a: ("critical-hit", "hit", "miss") if a.flag("--attack")
                    else ("success", "failure"), dnd5e,
                    lambda a, fold: [D20] * (2 if a.flag("--adv") or a.flag("--dis") else 1)),
    "cortex": System(same("botch heroic-success success failure"), cortex,
                     lambda a, fold: [die(s) for s in cortex_sizes(a)]),
    "cofd": System(same("dramatic-failure exceptional-success success failure"), cofd,
                   chains=cofd_chains),
    "exalted": System(same("botch success failure"), exalted, lambda a, fold: [D10] * a.num(0)),
    "mnm": System(same("three-degrees-of-success two-degrees-of-success success failure "
                       "two-degrees-of-failure three-degrees-of-failure"), mnm,
                  lambda a, fold: [D20]),
    "gurps": System(same("critical-success critical-failure success failure"), gurps,
                    lambda a, fold: [D6] * 3),
    "mothership": System(same("critical-success critical-failure success failure"), mothership,
                         lambda a, fold: [die(10, 0)] * 2),
    "onering": System(same("extraordinary-success great-success success failure"), onering,
                      onering_faces),
    "age": System(same("success-with-stunts success failure"), age, lambda a, fold: [D6] * 3),
    "daggerheart": System(same("critical-success success-with-hope success-with-fear "
                               "failure-with-hope failure-with-fear"), daggerheart,
                          daggerheart_faces),
}


def sequences(name: str, a: Args, depth: int, fold: bool) -> Chains:
    """Every face sequence of the roll (to ``depth`` for dice that roll again), each with its
    chance, and the chance left out."""
    system = SYSTEM[name]
    if system.chains is not None:
        return system.chains(a, depth, fold)
    assert system.faces is not None
    faces = system.faces(a, fold)
    whole = prod(sum(w for _, w in one) for one in faces)
    return [(tuple(f for f, _ in combo), Fraction(prod(w for _, w in combo), whole))
            for combo in itertools.product(*faces)], Fraction(0)


def enumerated(name: str, args: str, depth: int = 0) -> tuple[dict[str, Fraction], Fraction]:
    """The exact chance of each outcome (every outcome, zeros included), and what the depth
    left out."""
    a = Args(args)
    found = dict.fromkeys(SYSTEM[name].outcomes(a), Fraction(0))
    seqs, left = sequences(name, a, depth, fold=True)
    for faces, p in seqs:
        found[SYSTEM[name].judge(a, list(faces))["outcome"]] += p
    return found, left


# Given faces, worked out by hand -------------------------------------------------------------


def _data(name: str) -> dict:
    with open(DATA / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


def _cases(kind: str) -> list:
    return [pytest.param(name, c, id=f"{name}: {c['name']}")
            for name in SYSTEMS for c in _data(name).get(kind, [])]


def roll(name: str, args: str, faces: list[int] | None, *more: str):
    install(name)
    given = [] if faces is None else [dice_option(faces)]
    return cli(name, "roll", *args.split(), *given, "--json", *more)


def check_dice(case: dict, dice: list[dict]) -> None:
    """``dice`` lists every die in ``--dice`` order with its face as given; the groups
    SYSTEMS.md names; ``kept`` true or false where the case says a die was kept or
    dropped."""
    assert [d["face"] for d in dice] == case["dice"], dice
    for d, group in zip(dice, case.get("groups", [])):
        if group:
            assert d.get("group") == group, (group, d)
    for d, kept in zip(dice, case.get("kept", [])):
        if kept:
            assert d.get("kept") is (kept == "kept"), (kept, d)


@pytest.mark.parametrize(("name", "case"), _cases("case"))
def test_given_faces(name, case):
    run = roll(name, case["args"], case["dice"])
    assert run.exit_code == 0, (run.stderr, run.exception)
    (obj,) = run.json()
    assert obj["ruleset"] == name and obj["command"] == "roll"
    assert subset(case["expect"], obj) == []
    check_dice(case, obj["dice"])


@pytest.mark.parametrize(("name", "case"), _cases("error"))
def test_usage_errors(name, case):
    if case.get("command") == "odds":
        install(name)
        run = cli(name, "odds", *case["args"].split(), "--json")
    else:
        run = roll(name, case["args"], case.get("dice"))
    # one line naming what was wrong (faces: --dice, as every --dice error says); never a
    # refusal of an option SYSTEMS.md gives the system
    assert_usage_error(run, *([case["about"]] if "about" in case else []))
    assert "no such option" not in run.stderr and "unexpected extra" not in run.stderr


@pytest.mark.parametrize(("name", "case"), _cases("case"))
def test_the_hand_worked_cases_agree_with_the_classifiers(name, case):
    """No rpgdice here: the cases worked out by hand and the classifiers the odds and the
    agreement below rest on say the same."""
    a = Args(case["args"])
    judged = SYSTEM[name].judge(a, list(case["dice"]))
    assert subset(case["expect"], judged) == []
    assert set(case["expect"]) == set(judged)  # every case names every key of its system
    if SYSTEM[name].faces is not None:  # the faces fit the dice the classifier rolls
        faces = SYSTEM[name].faces(a, False)
        assert len(faces) == len(case["dice"])
        assert all(any(f == x for x, _ in one) for f, one in zip(case["dice"], faces))
    else:
        assert read_through(name, a, list(case["dice"])) == len(case["dice"])


@pytest.mark.parametrize(("name", "case"), [p for p in _cases("error")
                                            if p.values[1].get("about") == "--dice"])
def test_the_faces_refused_do_not_fit_the_dice_by_the_classifiers(name, case):
    """No rpgdice here: each usage error about faces is one by this file's reading."""
    a, faces = Args(case["args"]), list(case["dice"])
    if SYSTEM[name].faces is not None:
        dice = SYSTEM[name].faces(a, False)
        assert len(dice) != len(faces) or any(
            f not in [x for x, _ in one] for f, one in zip(faces, dice))
        return
    sides = [a.num(0)] * len(faces) if name == "savage" else [10] * len(faces)
    try:
        fits = read_through(name, a, faces) == len(faces)
    except IndexError:
        fits = False
    if name == "savage" and fits and not a.flag("--extra"):
        at = acing(faces, 0, a.num(0))[2]
        sides[at:] = [6] * (len(faces) - at)
    assert not fits or any(not 1 <= f <= n for f, n in zip(faces, sides))


def read_through(name: str, a: Args, f: list[int]) -> int:
    """How many faces the dice that roll again read (Savage Worlds, Chronicles of Darkness)."""
    if name == "savage":
        at = acing(f, 0, a.num(0))[2]
        return at if a.flag("--extra") else acing(f, at, 6)[2]
    if a.num(0) <= 0:
        return 1
    at = 0
    for _ in range(a.num(0)):
        at = acing(f, at, 10)[2]
    return at


def test_the_enumeration_reproduces_figures_known_elsewhere():
    # SYSTEMS.md / issue 42: Vampire 5th, pool 5 at difficulty 4, wins 0.2325
    won, left = enumerated("v5", "5 -d 4")
    assert left == 0
    assert won["messy-critical"] + won["critical-win"] + won["win"] == Fraction(2325, 10000)
    assert won["messy-critical"] == 0 and won["bestial-failure"] == 0
    # 2d6+0: a strong hit is 10, 11 or 12: 3 + 2 + 1 of 36
    assert enumerated("pbta", "0")[0]["strong-hit"] == Fraction(6, 36)
    # blades 2d6: two 6s 1/36, one 6 10/36 (as tests/test_your_own_system.py counts)
    two = enumerated("blades", "2")[0]
    assert (two["critical"], two["full-success"]) == (Fraction(1, 36), Fraction(10, 36))
    # GURPS 3d6 at skill 10: 10 or less is 1/2; 3-4 critical (4 of 216); 17-18 (4 of 216)
    g = enumerated("gurps", "--target 10")[0]
    assert g["critical-success"] == Fraction(4, 216)  # 3: 1 way, 4: 3 ways
    assert g["critical-failure"] == Fraction(4, 216)  # 18: 1 way, 17: 3 ways; 20+ none
    assert g["success"] == Fraction(108 - 4, 216)  # 10 or less is half of 216
    # Mothership below 45: 00-44, ten doubles 00..99 of which 00-44 hold 5
    m = enumerated("mothership", "--target 45")[0]
    assert (m["critical-success"], m["critical-failure"], m["success"]) == (
        Fraction(5, 100), Fraction(5, 100), Fraction(40, 100))


# Exact odds against the enumeration ----------------------------------------------------------

ODDS: dict[str, tuple[str, ...]] = {
    "blades": ("0", "1", "3"),
    "pbta": ("0", "-1 --adv", "2 --dis"),
    "yze": ("1", "3", "5"),
    "v5": ("4 --hunger 2 -d 2", "5 -d 4", "3 --hunger 3 -d 3", "2 --hunger 1"),
    "sr5": ("5 -d 2", "1", "4 -d 3", "3"),
    "savage": ("6", "8 --extra", "4 1", "12 -1"),
    "coc": ("--target 60", "--target 45 --bonus 1", "--target 30 --penalty 2",
            "--target 49 --bonus 2", "--target 0", "--target 100 --penalty 1"),
    "genesys": ("--ability 2 --difficulty 1", "--proficiency 1 --challenge 1 --boost 1",
                "--setback 2 --ability 1", "--challenge 2"),
    "fate": ("0", "2 --target 3", "-2 --target 1"),
    "ironsworn": ("2", "3 --adds 1", "5 --adds 3"),
    "dnd5e": ("3 --target 15", "5 --target 12 --adv --attack", "0 --target 10 --dis",
              "2 --target 25 --attack"),
    "cortex": ("8 6 --target 7", "d4 d4 d12 --target 10", "6 --target 3", "4 6 8 --target 6"),
    "cofd": ("2", "0", "3 -d 2", "1 -d 0"),
    "exalted": ("3", "4 -d 2", "1"),
    "mnm": ("2 --target 15", "8 --target 12", "0 --target 25"),
    "gurps": ("--target 10", "--target 15", "--target 16", "--target 5"),
    "mothership": ("--target 45", "--target 0", "--target 100"),
    "onering": ("2 --target 14", "1 --target 12 --favoured --weary", "0 --target 8 --ill-favoured",
                "3 --target 16"),
    "age": ("1 --target 11", "0 --target 15", "3 --target 10"),
    "daggerheart": ("1 --target 13", "0 --target 12 --adv", "2 --target 15 --dis"),
}


def rolls_again(name: str, args: str) -> bool:
    return name == "savage" or (name == "cofd" and Args(args).num(0) > 0)


SLOW_ODDS = {("cofd", "3 -d 2")}
"""Enumerations over 0.2 s of their own (three dice that roll again, ten deep)."""


@pytest.mark.parametrize(("name", "args"), [
    pytest.param(n, a, id=f"{n} {a}", marks=[pytest.mark.slow] if (n, a) in SLOW_ODDS else [])
    for n in SYSTEMS for a in ODDS[n]])
def test_exact_odds_are_the_enumerated_ones(name, args):
    install(name)
    run = cli(name, "odds", *args.split(), "--json")
    assert run.exit_code == 0, (run.stderr, run.exception)
    (odds,) = run.json()
    assert odds["ruleset"] == name and odds["command"] == "odds"
    depth = 0
    if rolls_again(name, args):  # followed to the depth the odds state, the rest left out
        depth = odds["explode_depth"]
        assert isinstance(depth, int) and depth >= 1 and odds["truncated"] is True
    mine, left = enumerated(name, args, depth)
    assert set(odds["outcomes"]) == set(mine)  # every outcome, zeros included
    wrong = {k: (odds["outcomes"][k], float(p)) for k, p in mine.items()
             if abs(odds["outcomes"][k] - p) > 1e-12}
    assert wrong == {}
    assert abs(odds.get("left_out", 0) - left) <= 1e-12
    assert abs(sum(odds["outcomes"].values()) + odds.get("left_out", 0) - 1) <= 1e-12


# Every face tuple of one small case a system, rolled at once (-n N --dice ...) ----------------

AGREE = [("blades", "2"), ("blades", "0"), ("pbta", "1 --adv"), ("yze", "3"),
         ("v5", "3 --hunger 2 -d 2"), ("sr5", "3 -d 2"), ("savage", "4 1"),
         ("savage", "6 --extra"), ("coc", "--target 45 --bonus 1"),
         ("genesys", "--boost 1 --challenge 1 --ability 1"), ("fate", "1 --target 2"),
         ("ironsworn", "5 --adds 2"), ("dnd5e", "3 --target 14 --adv --attack"),
         ("cortex", "4 6 8 --target 6"), ("cofd", "2"), ("cofd", "0"), ("exalted", "2 -d 2"),
         ("mnm", "2 --target 15"), ("gurps", "--target 15"), ("mothership", "--target 45"),
         ("onering", "2 --target 14 --weary"), ("onering", "0 --target 8 --ill-favoured"),
         ("age", "1 --target 11"), ("daggerheart", "1 --target 13 --dis")]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "args"), AGREE, ids=[f"{n} {a}" for n, a in AGREE])
def test_every_face_tuple_rolls_as_the_classifier_says(name, args):
    install(name)
    a = Args(args)
    seqs = [list(faces) for faces, _ in sequences(name, a, depth=1, fold=False)[0]]
    assert SYSTEM[name].chains is not None or set(map(tuple, seqs)) == set(
        itertools.product(*[[f for f, _ in one] for one in SYSTEM[name].faces(a, False)]))
    run = cli(name, "roll", *args.split(), "-n", str(len(seqs)),
              dice_option(f for faces in seqs for f in faces), "--json")
    assert run.exit_code == 0, (run.stderr, run.exception)
    rolled = run.json()
    assert len(rolled) == len(seqs)
    wrong = [(faces, subset(SYSTEM[name].judge(a, faces), obj))
             for faces, obj in zip(seqs, rolled)
             if subset(SYSTEM[name].judge(a, faces), obj) or
             [d["face"] for d in obj["dice"]] != faces]
    assert wrong == [], f"{len(wrong)} of {len(seqs)} differ, e.g. {wrong[:3]}"


@pytest.mark.parametrize("name", SYSTEMS)
def test_seeded_rolls_say_what_their_own_dice_make(name):
    """Rolled dice (not given): each roll's outcome and keys are what its ``dice`` make."""
    install(name)
    args = ODDS[name][-1]
    a = Args(args)
    run = cli(name, "roll", *args.split(), "-n", "40", "--seed", "42", "--json")
    assert run.exit_code == 0, (run.stderr, run.exception)
    rolled = run.json()
    assert len(rolled) == 40
    wrong = [(obj["dice"], subset(SYSTEM[name].judge(a, [d["face"] for d in obj["dice"]]), obj))
             for obj in rolled
             if subset(SYSTEM[name].judge(a, [d["face"] for d in obj["dice"]]), obj)]
    assert wrong == [], wrong[:3]


# Year Zero's push, after the fact (the log on) -----------------------------------------------


@pytest.fixture
def logged(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    install("yze")


def last_id() -> int:
    return ok("log", "--json").json()[-1]["id"]


def push(*args: str):
    return cli("yze", "push", *args, "--json")


def pushed(run, **expect) -> None:
    assert run.exit_code == 0, (run.stderr, run.exception)
    (obj,) = run.json()
    assert obj["ruleset"] == "yze" and obj["command"] == "push"
    assert subset(expect, obj) == []


def test_a_push_rerolls_the_dice_showing_neither_6_nor_1(logged):
    ok("yze", "roll", "4", dice_option([6, 1, 3, 2]), "--json")
    first = last_id()
    assert_usage_error(push(dice_option([5])))  # two dice to re-roll: one face is too few
    assert_usage_error(push(dice_option([5, 5, 5])))  # and three too many
    # refused, the push is not used up: 6 1 stay, 3 2 become 1 5
    pushed(push(dice_option([1, 5])), outcome="success", successes=1, ones=2, pushed=first)
    assert_usage_error(push(dice_option([6, 6])))  # a roll is pushed once
    assert_usage_error(push(str(first), dice_option([6, 6])))


def test_a_push_counts_successes_anew_and_takes_an_id(logged):
    ok("yze", "roll", "3", dice_option([6, 3, 3]), "--json")
    one = last_id()
    ok("yze", "roll", "2", dice_option([2, 4]), "--json")
    two = last_id()
    pushed(push(str(one), dice_option([1, 6])), outcome="success", successes=2, ones=1,
           pushed=one)
    assert_usage_error(push(str(one), dice_option([6, 6])))
    # the default is the last yze roll: 2 4 both re-rolled, no 6 among them
    pushed(push(dice_option([3, 5])), outcome="failure", successes=0, ones=0, pushed=two)
    assert_usage_error(push(str(two), dice_option([6, 6])))


def test_a_push_of_a_roll_of_no_six_can_fail_with_ones(logged):
    ok("yze", "roll", "4", dice_option([3, 2, 4, 5]), "--json")
    first = last_id()
    pushed(push(dice_option([1, 1, 2, 4])), outcome="failure", successes=0, ones=2,
           pushed=first)


# The shipped files ------------------------------------------------------------------------------


def test_the_twenty_ship_with_owod_and_each_checks_ok():
    assert sorted(p.stem for p in EXAMPLES.glob("*.toml")) == sorted((*SYSTEMS, "owod"))
    for name in (*SYSTEMS, "owod"):
        assert ok("rulesets", "check", str(EXAMPLES / f"{name}.toml")).stdout == "ok\n", name


@pytest.mark.parametrize(("name", "args", "depth"), [("v5", "4 --hunger 2 -d 2", 0),
                                                     ("v5", "3 -d 3", 0), ("cofd", "2 -d 2", 2)])
def test_folding_faces_that_decide_alike_changes_no_chance(name, args, depth):
    """No rpgdice here: the enumerations fold faces (v5's 1-5, cofd's 1-7); unfolded, every
    face on its own, the chances are the same."""
    a = Args(args)
    folded: Counter[str] = Counter()
    whole: Counter[str] = Counter()
    for fold, out in ((True, folded), (False, whole)):
        seqs, _ = sequences(name, a, depth, fold)
        for faces, p in seqs:
            out[SYSTEM[name].judge(a, list(faces))["outcome"]] += p
    assert folded == whole and sum(whole.values()) > Fraction(99, 100)
