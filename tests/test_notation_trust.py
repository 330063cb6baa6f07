"""Issue #43's points on ordinary dice notation: each on given faces and, where odds are
concerned, against an independent brute-force enumeration in Fractions."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import pytest

from rpgdice.core.dice import GivenDice
from rpgdice.rulesets.dice import grammar, tree, tree_odds


def _roll(text, faces):
    source = GivenDice(faces)
    r = tree.roll(grammar.parse(text), source)
    source.check_all_used()
    return r


def _marks(r):
    return [(d.face, d.marks) for t in r.terms for d in t.dice]


# 6: != after cs, cf, r, ro, u is "not equal", as rpg-dice-roller reads it -------------------


@pytest.mark.parametrize("text, faces, total, marks", [
    ("2d6cs!=3", [3, 6], 9, [(3, []), (6, ["critical-success"])]),
    ("2d6cf!=3", [3, 6], 9, [(3, []), (6, ["critical-failure"])]),
    ("1d6ro!=1", [4, 2], 2, [(4, ["rerolled"]), (2, [])]),
    ("1d6ro!=1", [1], 1, [(1, [])]),
    ("1d6r!=3", [5, 6, 3], 3, [(5, ["rerolled"]), (6, ["rerolled"]), (3, [])]),
])
def test_not_equal_after_a_modifier_is_its_test_never_an_explosion(text, faces, total, marks):
    r = _roll(text, faces)
    assert r.total == total
    assert _marks(r) == marks
    assert grammar.parse(text).tree.mods.explode is None  # type: ignore[union-attr]


def test_unique_not_equal_re_rolls_only_the_faces_it_names():
    assert _roll("3d6u!=2", [2, 2, 5]).total == 9  # a second 2 is not re-rolled
    r = _roll("3d6u!=2", [5, 5, 3, 1])  # a second 5 is
    assert r.total == 9 and [d.face for t in r.terms for d in t.dice if d.kept] == [5, 3, 1]


def _enumerate(dice, sides, value):
    out: Counter = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        for total, p in value(faces):
            out[total] += p * Fraction(1, sides ** dice)
    return dict(out)


def test_the_odds_of_not_equal_tests_are_exact():
    # ro!=1: a face other than 1 is re-rolled once
    def reroll_once(faces):
        (f,) = faces
        if f == 1:
            return [(1, Fraction(1))]
        return [(g, Fraction(1, 6)) for g in range(1, 7)]

    assert tree_odds.odds(grammar.parse("1d6ro!=1")).distribution == _enumerate(1, 6, reroll_once)
    crit = tree_odds.odds(grammar.parse("2d6cs!=3"))
    assert crit.distribution == _enumerate(2, 6, lambda f: [(sum(f), Fraction(1))])
    assert crit.explode_depth is None


# 8: Dice Maiden's spaced forms join unquoted, as adv does --------------------------------


@pytest.mark.parametrize("words, faces", [
    (["4d10", "t7", "f1"], "1,10,9,3"),
    (["1d20", "cs"], "20"),
    (["10d10>=8", "f1"], "1,8,9,2,3,4,5,6,7,10"),
    (["8d10", "t7"], "1,2,3,4,7,8,9,10"),
])
def test_a_modifier_as_its_own_argument_continues_the_expression(words, faces):
    from tests.conftest import cli_one

    quoted = cli_one("roll", " ".join(words), "--dice", faces)
    assert cli_one("roll", *words, "--dice", faces) == quoted


def test_a_modifier_as_its_own_word_at_play_continues_the_expression():
    from typer.testing import CliRunner

    from rpgdice.cli import app

    result = CliRunner().invoke(app, ["play"], input="8d10 t7 --dice 1,2,3,4,7,8,9,10 --json\n"
                                "1d20 cs --dice 20 --json\n")
    assert result.exit_code == 0, result.stderr
    rolls = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["expression"], r["total"]) for r in rolls] == [("8d10 t7", 4), ("1d20 cs", 20)]


def test_words_that_roll_alone_stay_rolls_of_their_own():
    from tests.conftest import cli

    assert len(cli("roll", "2d6", "d20", "--json", "--seed", "1").json()) == 2
    run = cli("roll", "2d6", "3")
    assert run.exit_code == 2 and "did you mean 2d6+3?" in run.stderr


# 7: the same line gets the same hint at play and one-shot ---------------------------------

VS_AC = "EXPR: 1d20+5 vs AC 15 — a 'vs AC 15' (a target number) is '1d20+5>=15' here"


def test_a_target_after_vs_ac_gets_one_hint_wherever_it_is_typed():
    from tests.conftest import cli
    from typer.testing import CliRunner

    from rpgdice.cli import app

    for words in (["1d20+5 vs AC 15"], "1d20+5 vs AC 15".split()):
        run = cli("roll", *words)
        assert run.exit_code == 2 and run.stderr.strip().endswith(VS_AC)
    for line in ("1d20+5 vs AC 15", "roll '1d20+5 vs AC 15'", "roll 1d20+5 vs AC 15"):
        result = CliRunner().invoke(app, ["play"], input=line + "\n")
        assert result.stderr.strip() == f"rpgdice: error: line 1: {VS_AC}"
    assert cli("roll", "1d20+5 vs. DC 15").stderr.strip().endswith("is '1d20+5>=15' here")


# 19: several keep/drop on a group of one dice term, as on the term ------------------------


def test_several_keeps_on_a_group_of_one_dice_term_roll_as_on_the_term():
    for faces in ([3, 1, 6, 4], [2, 2, 5, 5], [6, 6, 6, 1]):
        grouped, term = _roll("{4d6}dh1dl1", faces), _roll("4d6dh1dl1", faces)
        assert grouped.total == term.total == sum(sorted(faces)[1:3])
        assert [d.kept for t in grouped.terms for d in t.dice] == [d.kept for t in term.terms for d in t.dice]


def test_the_odds_of_several_keeps_on_a_group_are_exact():
    brute = _enumerate(4, 6, lambda f: [(sum(sorted(f)[1:3]), Fraction(1))])
    assert tree_odds.odds(grammar.parse("{4d6}dh1dl1")).distribution == brute


def test_a_group_of_several_parts_still_takes_one_keep():
    from rpgdice.core.errors import RulesError

    for text in ("{4d6, 2d6}dh1dl1", "{2d6+1}dh1dl1"):
        with pytest.raises(RulesError, match="a group takes one keep or drop"):
            grammar.parse(text)


# 19: exact odds of unique re-rolls (u, uo), within the work budget -------------------------


def _brute_unique_once(n, sides, total, test=lambda f: True):
    """Every way n dice roll under uo, enumerated: a die showing a face an earlier die shows
    (and that passes the test) is rolled once more; ``total`` of the faces that stand."""
    out: Counter = Counter()

    def go(shown, p):
        if len(shown) == n:
            out[total(shown)] += p
            return
        for f in range(1, sides + 1):
            if f in shown and test(f):
                for g in range(1, sides + 1):
                    go((*shown, g), p / sides / sides)
            else:
                go((*shown, f), p / sides)

    go((), Fraction(1))
    return dict(out)


@pytest.mark.parametrize("text, n, sides, total, test", [
    ("2d6uo", 2, 6, sum, lambda f: True),
    ("4d6uo", 4, 6, sum, lambda f: True),
    ("4d6uokh3", 4, 6, lambda fs: sum(sorted(fs)[1:]), lambda f: True),
    ("3d6uo>=4", 3, 6, sum, lambda f: f >= 4),
    ("5d4uo>=3", 5, 4, sum, lambda f: f >= 3),  # uo then a comparison: u's own test, not a count
])
def test_the_odds_of_unique_once_equal_an_enumeration(text, n, sides, total, test):
    odds = tree_odds.odds(grammar.parse(text))
    assert odds.distribution == _brute_unique_once(n, sides, total, test)
    assert odds.left_out == 0


def test_unique_once_rolls_a_repeated_face_once_more():
    assert _roll("2d6uo", [3, 3, 5]).total == 8
    assert _roll("2d6uo", [3, 3, 3]).total == 6  # once: the second 3 stands


def test_unique_odds_with_explosions_are_still_refused_by_form():
    from rpgdice.rulesets.dice.tree_odds import OutOfReach

    with pytest.raises(OutOfReach, match="unique re-rolls"):
        tree_odds.odds(grammar.parse("3d6!uo"))


# 19: exact odds of a keep or drop among the dice of a sum ---------------------------------


def _brute_across(dice, plus, pick):
    out: Counter = Counter()
    each = Fraction(1, math.prod(dice))
    for faces in itertools.product(*(range(1, s + 1) for s in dice)):
        out[sum(pick(sorted(faces))) + plus] += each
    return dict(out)


@pytest.mark.parametrize("text, dice, plus, pick", [
    ("{3d6+1d8}kh2", [6, 6, 6, 8], 0, lambda f: f[-2:]),
    ("{2d6+1d4+3}dl1", [6, 6, 4], 3, lambda f: f[1:]),
    ("{2d4+1d6}kl2", [4, 4, 6], 0, lambda f: f[:2]),
    ("{1d6+1d10}dh1", [6, 10], 0, lambda f: f[:1]),
])
def test_the_odds_of_a_keep_among_the_dice_of_a_sum_equal_an_enumeration(text, dice, plus, pick):
    odds = tree_odds.odds(grammar.parse(text))
    assert odds.distribution == _brute_across(dice, plus, pick)
    assert odds.left_out == 0


def test_a_keep_among_the_dice_of_other_expressions_is_still_refused():
    from rpgdice.rulesets.dice.tree_odds import OutOfReach

    with pytest.raises(OutOfReach, match="a sum of plain dice terms"):
        tree_odds.odds(grammar.parse("{4d10*5d6}k2"))


# 19: exact odds of a keep among exploded dice, to the explosion depth ----------------------


def _chains(sides, depth):
    """One exploding die's rolls followed to ``depth`` extra rolls: each way it stops, and its
    chance (a die still exploding after ``depth`` extra rolls is left out)."""
    for extra in range(depth + 1):
        for last in range(1, sides):
            yield (sides,) * extra + (last,), Fraction(1, sides) ** (extra + 1)


@pytest.mark.parametrize("text, n, sides, pick", [
    ("2d6!kh1", 2, 6, lambda f: f[-1:]),
    ("2d4!kl2", 2, 4, lambda f: f[:2]),
    ("2d4!kh2", 2, 4, lambda f: f[-2:]),
    pytest.param("3d4!kh2", 3, 4, lambda f: f[-2:], marks=pytest.mark.slow),
])
def test_the_odds_of_a_keep_among_exploded_dice_equal_an_enumeration(text, n, sides, pick):
    odds = tree_odds.odds(grammar.parse(text))
    depth = odds.explode_depth
    assert depth is not None and depth >= 10
    brute: Counter = Counter()
    for dice in itertools.product(list(_chains(sides, depth)), repeat=n):
        pool = sorted(f for rolls, _ in dice for f in rolls)
        brute[sum(pick(pool))] += math.prod((p for _, p in dice), start=Fraction(1))
    followed = sum(brute.values(), Fraction(0))
    assert odds.distribution == dict(brute)
    assert odds.left_out == 1 - followed


def test_a_keep_among_exploded_dice_rolls_as_its_odds_say():
    r = _roll("2d6!kh2", [6, 3, 5])  # the 6 exploded into a 3: the pool is 6 3 5
    assert r.total == 11
