"""The ruleset file's ``kind = "custom"`` (docs/your-own-system.md): its expression
language (parsed by our own parser, bounded, errors placed by column), ``rulesets check``
naming each problem's line, key and the key meant, the push after a roll (logged, linked,
once, a refusal using nothing up), the odds budget, bad input in one line, the exact odds
of the fold against an enumeration of synthetic files, and files of the first kinds
unchanged. The twenty systems themselves are checked elsewhere, from SYSTEMS.md alone."""

from __future__ import annotations

import json
import shutil
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli, home, ok

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "rulesets"
LEGACY = Path(__file__).resolve().parent / "own" / "legacy"


def folder() -> Path:
    path = home() / "rulesets"
    path.mkdir(exist_ok=True)
    return path


def install(*names: str) -> None:
    for name in names:
        shutil.copy(EXAMPLES / f"{name}.toml", folder() / f"{name}.toml")


def write(name: str, text: str) -> Path:
    path = folder() / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# The expression language ------------------------------------------------------------------


@pytest.mark.parametrize(("text", "column", "words"), [
    ("1 +", 4, "found the end"),
    ("total >= 10 and", 16, "found the end"),
    ("a $ b", 3, "'$' is not part of an expression"),
    ("count(d, face >= 5", 19, "expected ')'"),
    ("nosuch(d)", 1, "nosuch() is no function"),
    ("(" * 50 + "1" + ")" * 50, 41, "nests more than 40 levels"),
    ("1 + " * 200 + "1", 501, "longer than 500"),
    ("[d] + 1", 1, "expected a number"),
])
def test_a_bad_expression_is_placed_by_its_column(text, column, words):
    from rpgdice.rulesets._file import expr

    with pytest.raises(expr.ExprError) as e:
        expr.parse(text)
    assert e.value.column == column and words in str(e.value), str(e.value)
    assert str(e.value).startswith(f"at column {column}: ")


@given(st.text(alphabet="ab1 0+-*/%()[],=<>!andortfu_x", max_size=80))
@settings(max_examples=150, deadline=None)
def test_any_text_is_an_expression_or_one_placed_error(text):
    from rpgdice.rulesets._file import expr

    try:
        tree = expr.parse(text)
    except expr.ExprError as e:
        assert 1 <= e.column <= max(len(text), expr.MAX_TEXT) + 1
        return
    assert expr.walk(tree)


@pytest.mark.parametrize("text", ["not " * 100 + "1", "-" * 100 + "1", "if(" * 60 + "1"])
def test_deep_nesting_is_refused_not_recursed(text):
    from rpgdice.rulesets._file import expr

    with pytest.raises(expr.ExprError, match="nests more than 40 levels"):
        expr.parse(text)


def test_expressions_evaluate_without_eval():
    from rpgdice.rulesets._file import expr

    values = {"a": 7, "b": 2, "t": True}

    def run(text: str) -> object:
        return expr.evaluate(expr.parse(text), values.__getitem__, lambda f, a: 0)

    assert run("a / b") == 3 and run("-a / b") == -4 and run("a % b") == 1
    assert run("a > b and not (b > a) or false") is True
    assert run("if(t, a, 1 / 0)") == 7  # the branch not taken is never worked out
    assert run("min(a, b, 5) + max(a, 9) + abs(-3)") == 14
    assert run("a - b - 1") == 4
    with pytest.raises(expr.EvalError):
        run("a / (b - 2)")
    # a name is only a name: nothing of Python's is reachable
    with pytest.raises(KeyError):
        run("__import__")
    with pytest.raises(expr.ExprError):
        expr.parse("a.b")


CUSTOM = '''name = "mine"
title = "Mine"
kind = "custom"
keys = ["total"]

[[args]]
name = "pool"
metavar = "POOL"
min = 1
max = 30

[[dice]]
name = "d"
sides = 6
count = "pool"

[values]
total = "sum(d)"

[[outcomes]]
name = "Hit"
tone = "good"
when = "{when}"

[[outcomes]]
name = "Miss"
tone = "bad"
'''


def test_check_names_the_line_the_key_and_the_key_meant():
    path = write("mine", CUSTOM.format(when="totl >= 10").replace(
        'count = "pool"', 'cont = "pool"').replace('keys = ["total"]', 'keys = ["totals"]'))
    run = cli("rulesets", "check", str(path))
    assert run.exit_code == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert lines == [
        f"{path}: dice[1].cont: is no key here (did you mean count?) (line 15)",
        f"{path}: keys: names 'totals', no value or argument (did you mean total?) (line 4)",
        f"{path}: outcomes[1].when: at column 1: 'totl' is no name here (did you mean "
        "total?) (line 23)",
    ], lines
    run = cli("mine", "roll", "3")
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "dice[1].cont" in run.stderr


@pytest.mark.parametrize(("when", "words"), [
    ("sum(pool) > 3", "sum() reads a group of dice first"),
    ("d > 3", "d is a group of dice: read it with a dice function"),
    ("count(d, sum(d) > 3) > 1", "not here (inside another dice function)"),
    ("faces(d) == 3", "faces() is for the JSON keys only"),
    ("if(total, 1)", "if() takes 3 arguments, not 2"),
    ("face > 3", "'face' is no name here"),
])
def test_check_says_what_an_expression_may_read(when, words):
    path = write("mine", CUSTOM.format(when=when))
    run = cli("rulesets", "check", str(path))
    assert run.exit_code == 2 and words in run.stderr, run.stderr
    assert "outcomes[1].when: at column " in run.stderr


def test_a_value_that_reads_itself_and_a_count_that_reads_the_dice_are_refused():
    text = CUSTOM.format(when="total > 3").replace('total = "sum(d)"',
                                                   'total = "more + 1"\nmore = "total"')
    run = cli("rulesets", "check", str(write("mine", text)))
    assert "values.total: reads itself" in run.stderr
    text = CUSTOM.format(when="total > 3").replace('count = "pool"', 'count = "total"')
    run = cli("rulesets", "check", str(write("mine", text)))
    assert "dice[1].count: at column 1: total reads the dice" in run.stderr


def test_a_division_by_zero_in_a_file_is_one_line_never_a_traceback():
    write("mine", CUSTOM.format(when="total / (pool - pool) > 1"))
    for command in ("roll", "odds"):
        run = cli("mine", command, "3")
        assert run.exit_code == 2 and run.exception is None
        assert len(run.stderr.splitlines()) == 1 and "divides by 0" in run.stderr


# Bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "args", "words"), [
    ("fate", ("roll", "1", "--dice=2,0,0,0"), "--dice: face 2 is not on the die (-1 to 1)"),
    ("fate", ("roll", "1", "--dice=1,0,0"), "--dice: too few faces"),
    ("fate", ("roll", "1", "--dice=1,0,0,0,1"), "--dice: too many faces"),
    ("pbta", ("roll", "1", "--adv", "--dis"), "--adv: excludes --dis"),
    ("v5", ("roll", "2", "--hunger", "3"), "--hunger: is more than POOL"),
    ("yze", ("roll", "0"), "POOL: 0 is out of range (1 to 1000)"),
    ("savage", ("roll", "7"), "DIE: 7 is not one of 4, 6, 8, 10, 12"),
    ("dnd5e", ("roll", "3"), "--target: is needed"),
    ("cortex", ("roll", *["8"] * 21, "--target", "3"), "DIE: 21 dice; 1 to 20"),
    ("genesys", ("roll",), "--ability: no dice"),
    ("coc", ("odds", "--target", "101"), "--target: 101 is out of range (0 to 100)"),
])
def test_bad_input_exits_2_in_one_line(name, args, words):
    install(name)
    run = cli(name, *args)
    assert run.exit_code == 2 and run.exception is None, run.stderr
    assert len(run.stderr.splitlines()) == 1 and words in run.stderr, run.stderr


@pytest.mark.slow
def test_odds_over_the_budget_are_refused_in_one_line():
    install("v5")
    run = cli("v5", "odds", "300", "--hunger", "150")
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "odds budget" in run.stderr
    assert ok("v5", "odds", "12", "--hunger", "4").stdout  # a typical one is computed


# The push after a roll --------------------------------------------------------------------


def test_a_push_rerolls_the_dice_the_file_says_logged_and_linked_once():
    install("yze")
    (first,) = ok("yze", "roll", "4", "--dice", "6,1,3,4", "--log", "--json").json()
    assert first["successes"] == 1
    # too few faces for the two dice re-rolled: refused, and the roll is not used up
    run = cli("yze", "push", "--dice", "5", "--log")
    assert run.exit_code == 2 and "too few faces" in run.stderr
    (pushed,) = ok("yze", "push", "--dice", "6,2", "--log", "--json").json()
    assert pushed["command"] == "push" and pushed["pushed"] == 1
    assert [d["face"] for d in pushed["dice"]] == [6, 1, 6, 2]
    assert pushed["successes"] == 2 and pushed["ones"] == 1 and pushed["outcome"] == "success"
    run = cli("yze", "push", "1", "--dice", "6,6")
    assert run.exit_code == 2 and "already pushed" in run.stderr and "entry 2" in run.stderr
    entries = {e["id"]: e for e in ok("log", "--json").json()}
    assert entries[1]["rerolled"] is True and entries[1]["rerolled_by"] == 2
    assert entries[2]["command"] == "push"
    replayed = ok("log", "show", "2", "--replay", "--json").json()[0]
    assert replayed["results"][0]["dice"] == pushed["dice"]


def test_a_push_of_another_roll_or_of_nothing_is_refused():
    install("yze", "pbta")
    run = cli("yze", "push")
    assert run.exit_code == 2 and "no yze roll" in run.stderr
    ok("pbta", "roll", "1", "--log")
    run = cli("yze", "push", "1")
    assert run.exit_code == 2 and "not a yze roll" in run.stderr


# Exact odds: the fold against every way the dice can fall ----------------------------------


class Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class Prefix:
    """Gives the faces of a prefix and asks for one more die when they run out."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.at = faces, 0

    def roll(self, sides: int, n: int) -> list[int]:
        out = []
        for _ in range(n):
            if self.at == len(self.faces):
                raise Need(sides)
            out.append(self.faces[self.at])
            self.at += 1
        return out


def enumerated(rules: dict, args: dict, most: int) -> tuple[dict[str, Fraction], Fraction]:
    from rpgdice.rulesets._file import engine

    found: dict[str, Fraction] = defaultdict(Fraction)
    beyond = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, p = stack.pop()
        try:
            found[engine.outcome_of(engine.roll_all(rules, args, Prefix(faces)))] += p
        except Need as need:
            if len(faces) >= most:
                beyond += p
            else:
                stack.extend((faces + [f], p / need.sides) for f in range(1, need.sides + 1))
    return found, beyond


SYNTHETIC = '''name = "syn"
title = "Synthetic"
kind = "custom"

[[args]]
name = "n"
min = 0
max = 4

[[args]]
name = "low"
type = "flag"
flags = ["--low"]

[[dice]]
name = "first"
faces = [0, 1, 2]

[[dice]]
name = "kept"
sides = 3
count = "n + 1"
keep = 2
low = "low"
rank = "if(face == 3 and lead == 0, 0, face)"

[[dice]]
name = "aces"
sides = 3
ace = true
count = "if(n > 1, 1, 0)"

[[dice]]
name = "sym"
symbols = ["", "x", "xy", "yy"]
count = 1

[values]
lead = "high(first)"
score = "top(kept, 1) + low(kept) + lead + sum(aces) + sum(sym, x - y)"

[[outcomes]]
name = "Pair"
tone = "good"
when = "alike([kept, first]) >= 2 and count(sym, y > 0) >= 1"

[[outcomes]]
name = "High"
tone = "good"
when = "score >= 8"

[[outcomes]]
name = "Even"
tone = "bad"
when = "score % 2 == 0"

[[outcomes]]
name = "Odd"
tone = "dire"
'''


@pytest.mark.parametrize("args", [
    {"n": 0, "low": False}, {"n": 1, "low": True},
    pytest.param({"n": 2, "low": False}, marks=pytest.mark.slow),
    pytest.param({"n": 2, "low": True}, marks=pytest.mark.slow)])
def test_the_folded_odds_are_every_way_the_dice_can_fall(args):
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    from rpgdice.rulesets._file import folding, schema

    rules, problems = schema.check(tomllib.loads(SYNTHETIC), "syn")
    assert problems == [] and rules is not None
    exact, left, aces = folding.custom_odds(rules, args, "a roll")
    counted, beyond = enumerated(rules, args, most=args["n"] + 6)  # aces: 3 deep
    assert set(counted) <= set(exact) and list(exact) == ["pair", "high", "even", "odd"]
    for outcome, p in exact.items():
        assert abs(p - counted[outcome]) <= beyond + left, outcome
        if not (beyond or left):
            assert p == counted[outcome], outcome
    assert aces and (left > 0) == (args["n"] > 1)


def test_the_odds_list_only_the_outcomes_that_apply_to_the_form_asked():
    install("dnd5e")
    (plain,) = ok("dnd5e", "odds", "3", "--target", "15", "--json").json()
    assert list(plain["outcomes"]) == ["success", "failure"]
    (attack,) = ok("dnd5e", "odds", "3", "--target", "15", "--attack", "--json").json()
    assert list(attack["outcomes"]) == ["critical-hit", "hit", "miss"]
    assert attack["outcomes"]["critical-hit"] == pytest.approx(1 / 20)


# Files of the first kinds keep their meaning ----------------------------------------------


def test_the_first_kinds_files_roll_as_they_did():
    for name in ("pbta", "coc", "blades", "sr5"):
        shutil.copy(LEGACY / f"{name}.toml", folder() / f"{name}.toml")
        assert ok("rulesets", "check", name).stdout == "ok\n"
    (pbta,) = ok("pbta", "roll", "+1", "--target", "9", "--dice", "4,5", "--json").json()
    assert (pbta["total"], pbta["mod"], pbta["target"], pbta["outcome"]) == (10, 1, 9,
                                                                             "strong-hit")
    assert pbta["dice"] == [{"face": 4, "counts": None}, {"face": 5, "counts": None}]
    (coc,) = ok("coc", "roll", "--target", "40", "--dice", "97", "--json").json()
    assert coc["outcome"] == "failure"  # the first file had no fumble below 100
    (blades,) = ok("blades", "roll", "0", "--dice", "6,6", "--json").json()
    assert blades["zero"] is True and blades["outcome"] == "full-success"
    (sr5,) = ok("sr5", "roll", "3", "--dice", "1,1,5", "--json").json()
    assert sr5["outcome"] == "glitch" and sr5["difficulty"] == 1


def test_the_json_of_a_custom_roll_has_the_keys_the_file_names():
    install("ironsworn")
    (obj,) = ok("ironsworn", "roll", "2", "--adds", "1", "--dice", "4,7,7", "--json").json()
    assert list(obj)[:3] == ["ruleset", "command", "outcome"]
    assert obj["dice"] == [{"face": 4, "group": None}, {"face": 7, "group": "challenge"},
                           {"face": 7, "group": "challenge"}]
    assert (obj["score"], obj["challenge"], obj["match"]) == (7, [7, 7], True)
    assert obj["outcome"] == "miss" and obj["tone"] == "bad"
    shown = ok("ironsworn", "roll", "2", "--dice", "6,1,9").stdout
    assert "Weak hit" in shown and "challenge 1" in shown
    assert json.loads(ok("ironsworn", "odds", "2", "--json").stdout)["outcomes"]


@pytest.mark.slow
@pytest.mark.process
def test_the_shells_complete_a_custom_files_own_options_and_its_push():
    from test_completion import _bash, _fish, _zsh_many

    install("yze", "dnd5e", "owod")
    assert _bash("rpgdice yze ") == ["roll", "odds", "push"]
    assert _bash("rpgdice dnd5e roll --a") == ["--as", "--adv", "--attack"]
    assert _bash("rpgdice dnd5e odds --t") == ["--target"]  # once, though every kind has it
    assert _bash("rpgdice owod roll --a") == ["--as"]  # another file's are not offered
    assert _fish("rpgdice yze ") == ["odds", "push", "roll"]
    assert _fish("rpgdice dnd5e roll --a") == ["--adv", "--as", "--attack"]
    subs, adv, target = _zsh_many("rpgdice yze ", "rpgdice dnd5e roll --a",
                                  "rpgdice dnd5e odds --t")
    assert sorted(subs) == ["odds", "push", "roll"] and sorted(adv) == ["--adv", "--as",
                                                                      "--attack"]
    assert target == ["--target"]
