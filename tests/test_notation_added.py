"""The forms CLI.md's "Added (new)" table brings (RULES.md, "Ordinary dice", revised): each on
given faces, its JSON marks, its exact odds against an enumeration, and the peers' hints."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from tests.conftest import cli

from rpgdice.core.dice import GivenDice
from rpgdice.core.errors import RulesError
from rpgdice.rulesets.dice import grammar, tree, tree_odds


def _roll(text, faces):
    source = GivenDice(faces)
    r = tree.roll(grammar.parse(text), source)
    source.check_all_used()
    return r


def _dice(r):
    return [(d.face, d.kept) for t in r.terms for d in t.dice]


@pytest.mark.parametrize(("text", "faces", "total"), [
    ("4d10dh1dl2", [4, 10, 9, 3], 9),           # drops the highest and the two lowest
    ("3d10k1dh1", [4, 10, 9], 0),               # keeps the highest, then drops it
    ("3d10k1d1", [4, 10, 9], 10),               # RULES.md: keeps the highest
    ("10d6k1k2k3", [2, 5, 5, 2, 3, 5, 4, 6, 5, 1], 16),  # the last keep of a kind stands: k3
    ("2^3", [], 8), ("2**3**2", [], 512), ("-2^2", [], -4), ("(1d6)^2", [5], 25),
    ("1d20 % 4", [11], 3), ("-7 % 3", [], 2), ("7 % -3", [], -2),
    ("1d20+5 adv", [8, 19], 24), ("1d20+5 dis", [8, 19], 13), ("2d6+1d20 adv", [1, 2, 3, 17], 20),
    ("3d6x", [6, 2, 3, 4], 15), ("3d6xo", [6, 6, 3, 4], 19), ("2d6x>=5", [5, 1, 2], 8),
    ("4d10 t7", [4, 10, 9, 3], 2), ("4d10t7f1", [1, 10, 9, 3], 1),
    ("5d10cs>=8", [4, 10, 9, 3, 6], 32), ("4d6sd", [2, 5, 1, 4], 12),
    ("4d6 mi2", [1, 5, 1, 4], 13), ("4d6ma3", [1, 5, 1, 4], 8),
    ("4d10 e10", [10, 2, 3, 4, 5], 24), ("2d6ra1", [1, 4, 2], 7), ("2d6ra1", [1, 1, 2], 4),
    ("4d6pl1", [2, 5, 5, 2], 12), ("4d6ph1", [2, 5, 5, 2], 9),
])
def test_each_added_form_on_given_faces(text, faces, total):
    assert _roll(text, faces).total == total


def test_ties_by_highest_take_the_later_by_lowest_the_earlier():
    assert _dice(_roll("3d6kh1", [5, 5, 2])) == [(5, False), (5, True), (2, False)]
    assert _dice(_roll("3d6dl1", [1, 4, 1])) == [(1, False), (4, True), (1, True)]


def test_critical_marks_and_sorting_leave_the_total():
    r = _roll("4d6cs cf", [6, 1, 3, 6])
    marks = [d.marks for d in r.terms[0].dice]
    assert marks == [["critical-success"], ["critical-failure"], [], ["critical-success"]]
    assert r.total == 16
    r = _roll("4d6sd", [2, 5, 1, 4])
    assert [d.face for d in r.terms[0].dice] == [5, 4, 2, 1] and r.total == 12
    r = _roll("4d6s", [2, 5, 1, 4])
    assert [d.face for d in r.terms[0].dice] == [1, 2, 4, 5]


def test_json_marks_and_the_views_marks():
    run = cli("roll", "3d6cs", "--dice", "6,2,6", "--json")
    data = json.loads(run.stdout)
    assert [d.get("marks") for d in data["terms"][0]["dice"]] == [["critical-success"], [], ["critical-success"]]
    run = cli("roll", "4d10dh1dl2", "--dice", "4,10,9,3")
    assert run.exit_code == 0 and "(10)" in run.stdout and "Total 9" in run.stdout


def _enumerate(text, sides, n):
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        t = _roll(text, list(faces)).total
        counts[t] = counts.get(t, 0) + 1
    return {t: Fraction(c, sides ** n) for t, c in counts.items()}


@pytest.mark.parametrize(("text", "sides", "n"), [
    ("4d6dh1dl1", 6, 4), ("3d6k2dl1", 6, 3), ("1d20 % 7", 20, 1), ("(1d6)^2-1d6", 6, 2),
    ("2d6ma4 + 1", 6, 2), ("3d4t3", 4, 3), ("2d6cs sd", 6, 2), ("3d6pl1", 6, 3),
])
def test_exact_odds_of_the_added_forms(text, sides, n):
    odds = tree_odds.odds(grammar.parse(text))
    assert odds.distribution == _enumerate(text, sides, n)


def test_explode_once_odds():
    odds = tree_odds.odds(grammar.parse("1d6xo"))
    expected = {f: Fraction(1, 6) for f in range(1, 6)}
    for g in range(1, 7):
        expected[6 + g] = Fraction(1, 36)
    assert odds.distribution == expected and odds.left_out == 0


@pytest.mark.parametrize(("text", "said"), [
    ("4d10 ie10", "Dice Maiden's 'ie10' (explode on 10 or more) is '4d10!>=10' here"),
    ("/r 1d20+5", "'/r' (the chat command) is '1d20+5' here"),
    ("1d20+5 dc 15", "a 'dc 15' (a target number) is '1d20+5>=15' here"),
    ("1d20+5 vs 15", "is '1d20+5>=15' here"),
    ("4d6 ir2", "is '4d6r<=2' here"),
    ("[[2d6+3]]", "is '2d6+3' here"),
])
def test_a_peers_spelling_is_refused_with_the_rpgdice_form(text, said):
    run = cli("roll", text)
    assert run.exit_code == 2 and said in run.stderr and run.stderr.count("\n") == 1
    form = run.stderr.rsplit("is '", 1)[1].split("' here")[0]
    assert cli("roll", form).exit_code == 0  # the suggested form itself rolls


def test_bad_exponents_and_a_second_keep_on_a_group_are_usage_errors():
    for text in ("2^65", "2^(1d6-2)", "{1d6, 2d6}kh1dl1"):
        with pytest.raises(RulesError):
            grammar.parse(text)
    with pytest.raises(RulesError):
        tree.roll(grammar.parse("10^20"), GivenDice([]))


def test_n_of_a_compared_total_counts_successes_and_failures():
    run = cli("roll", "1d20+5 >= 15", "-n", "4", "--dice", "2,3,3,12")
    assert run.exit_code == 0
    last = run.stdout.strip().splitlines()[-1].replace("\u00a0", " ")
    assert last == "4 rolls: 1 success, 3 failures; totals 7 to 17, mean 10"


@pytest.mark.parametrize(("text", "faces", "total"), [
    ("7/2", [], 3), ("-7/2", [], -4), ("ceil(7/2)", [], 4), ("floor(-7/2)", [], -4),
    ("(1d6/2)*2", [5], 5), ("1d20*1.5", [7], 10), ("round(5/2)", [], 3), ("round(-5/2)", [], -3),
    ("round(7/3)", [], 2), ("1.5+1.5", [], 3), ("2*floor(4d10/3.4)", [4, 5, 2, 7], 10),
    ("3d(5/2)", [1, 2, 1], 4),
])
def test_arithmetic_is_exact_and_the_total_rounded_down_once(text, faces, total):
    assert _roll(text, faces).total == total


def test_a_compared_total_compares_the_exact_value_and_the_view_says_it_rounded():
    assert _roll("1d6/2 >= 2.5", [5]).outcome == "success"
    assert _roll("1d6/2 >= 2.5", [4]).outcome == "failure"
    r = _roll("7/2", [])
    assert r.notes == ["the exact total 3.5 is rounded down to 3"]
    run = cli("roll", "1d6/2", "--dice", "5")
    assert "rounded down to 2" in run.stdout
    assert json.loads(cli("roll", "1d6/2", "--dice", "5", "--json").stdout)["terms"][0]["value"] == 2.5


def test_odds_of_exact_arithmetic_are_of_the_floored_total():
    odds = tree_odds.odds(grammar.parse("1d6/2 >= 2.5"))
    assert odds.distribution == _enumerate("1d6/2", 6, 1)
    assert odds.outcomes == {"success": Fraction(1, 3), "failure": Fraction(2, 3)}
    assert tree_odds.odds(grammar.parse("ceil(1d6/2)")).distribution == _enumerate("ceil(1d6/2)", 6, 1)


def test_fudge_dice_dF1_and_dF2():
    assert _roll("4dF.1", [1, 0, -1, 0]).total == 0
    assert _roll("dF.2", [-1]).total == -1
    one = tree_odds.odds(grammar.parse("dF.1")).distribution
    assert one == {-1: Fraction(1, 6), 0: Fraction(2, 3), 1: Fraction(1, 6)}
    assert tree_odds.odds(grammar.parse("dF.2")).distribution == {f: Fraction(1, 3) for f in (-1, 0, 1)}
    faces = [tree.roll(grammar.parse("dF.1"), s).total for s in _seeded(600)]
    assert 300 < faces.count(0) < 500  # four faces of six are 0


def _seeded(n):
    from rpgdice.core.dice import SeededDice

    return [SeededDice(i) for i in range(n)]


def test_sorting_a_group_and_a_comment_hint():
    assert _dice(_roll("{4d6}sd", [1, 5, 3, 2])) == [(5, True), (3, True), (2, True), (1, True)]
    r = _roll("{4d6, 2d10, d4}s", [6, 6, 6, 6, 1, 1, 2])
    assert [d.face for d in r.terms[0].dice] == [1, 1, 2, 6, 6, 6, 6] and r.total == 28
    assert _roll("4dF.1>0f!=1", [1, 0, -1, 1]).total == 0  # 2 successes, 2 failures (f!= is f<>)
    run = cli("roll", "3d6 // fire")
    assert run.exit_code == 2 and "is '3d6 # fire' here" in run.stderr


def test_unique_rerolls_a_face_another_die_shows():
    r = _roll("3d6u", [2, 2, 2, 5, 5, 3])
    assert r.total == 10 and [(d.face, d.kept) for d in r.terms[0].dice] == [
        (2, True), (2, False), (2, False), (5, True), (5, False), (3, True)]
    assert _roll("3d6uo", [2, 2, 2, 5]).total == 9  # once: the second 2 stands
    assert _roll("3d6u>4", [5, 2, 5, 1]).total == 8  # only faces over 4 must differ: 5 2 5→1
    with pytest.raises(RulesError):
        grammar.parse("7d6u")
    with pytest.raises(RulesError) as e:
        tree_odds.odds(grammar.parse("3d6u"))
    assert "unique re-rolls" in e.value.message


def test_compounding_penetrating_dice():
    r = _roll("3d6!!p", [6, 6, 2, 3, 4])
    assert r.total == 12 + 3 + 4 and r.terms[0].dice[0].rolls == [6, 6, 2]
    odds = tree_odds.odds(grammar.parse("1d6!!p")).distribution
    assert odds[6] == Fraction(1, 36) and odds[5] == Fraction(1, 6) and sum(odds.values()) < 1


# A second modifier of one kind on one term replaces the first whole, as rpg-dice-roller's
# parser does ("multiple of the same operator just keeps the last one", its test of
# 42d2!=6!!>4!p<5; docs/rules.md): each written form and the form it comes to.
SAME_AS_THE_LAST = [
    ("3d6!!!p", "3d6!p"), ("6d6!>5!p", "6d6!p"), ("6d6!p<3!=6", "6d6!=6"), ("4d6!!>4!", "4d6!"),
    ("3d6xo!", "3d6!"), ("3d6!xo", "3d6xo"),
    ("4d6r=1r=2", "4d6r=2"), ("4d6r<3ro=5", "4d6ro=5"), ("4d6ro<3r=1", "4d6r=1"),
    ("4d6min3min2", "4d6min2"), ("4d6max2max5", "4d6max5"),
    ("3d6u=1u=2", "3d6u=2"), ("3d6uo>2u", "3d6u"),
    ("4d6>3f=1<4", "4d6<4"), ("4d6<4f=1>3", "4d6>3"), ("5d10>=6f=1>=8f=2", "5d10>=8f=2"),
    ("4d6sdsa", "4d6sa"), ("4d6cs=4cs=1", "4d6cs=1"), ("4d6cf=4cf<2", "4d6cf<2"),
]


@pytest.mark.parametrize(("text", "last"), SAME_AS_THE_LAST)
def test_a_second_modifier_of_a_kind_replaces_the_first(text, last):
    assert repr(grammar.parse(text).tree.mods) == repr(grammar.parse(last).tree.mods)  # type: ignore[union-attr]
    for seed in range(8):  # the same faces: the same dice, marks and total
        from rpgdice.core.dice import SeededDice

        mine, theirs = tree.roll(grammar.parse(text), SeededDice(seed)), tree.roll(grammar.parse(last), SeededDice(seed))
        assert (mine.total, _dice(mine)) == (theirs.total, _dice(theirs))


@pytest.mark.parametrize(("text", "last", "faces"), [
    ("3d6!!!p", "3d6!p", "6,1,2,3"), ("3d4r=1ro=2", "3d4ro=2", "2,1,1,3"),
    ("4d6>3f=1<4", "4d6<4", "6,1,2,3"), ("2d6!p<3!=6", "2d6!=6", "6,1,2"),
])
def test_a_replaced_modifier_has_the_exact_odds_and_json_of_the_last(text, last, faces):
    assert tree_odds.odds(grammar.parse(text)).distribution == tree_odds.odds(grammar.parse(last)).distribution
    mine = json.loads(cli("roll", text, "--dice", faces, "--json").stdout)
    theirs = json.loads(cli("roll", last, "--dice", faces, "--json").stdout)
    assert mine["total"] == theirs["total"]
    assert [[(d["face"], d["kept"]) for d in t["dice"]] for t in mine["terms"]] == [
        [(d["face"], d["kept"]) for d in t["dice"]] for t in theirs["terms"]]


def test_the_last_explode_of_rpg_dice_rollers_own_example_is_refused_for_what_it_is():
    run = cli("roll", "42d2!=6!!>4!p<5")  # the last stands: !p<5 explodes on both faces of a d2
    assert run.exit_code == 2 and run.stderr.count("\n") == 1
    assert "!p<5 explodes on every face: it would never stop at 14" in run.stderr
    assert _roll("4d2!=6!!>4!p<2", [2, 2, 1, 2, 2]).total == 2 + 2 + 1 + 1 + 2  # !p<2 stands
