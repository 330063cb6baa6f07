"""The forms CLI.md's "Added (new)" table brings (RULES.md, "Ordinary dice", revised): each on
given faces, its JSON marks, its exact odds against an enumeration, and the peers' hints."""

from __future__ import annotations

import itertools
import json
import re
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


PEERS_SPELLINGS = [
    ("4d10 ie10", "Dice Maiden's 'ie10' (explode on 10 or more) is '4d10!>=10' here"),
    ("/r 1d20+5", "'/r' (the chat command) is '1d20+5' here"),
    ("1d20+5 dc 15", "a 'dc 15' (a target number) is '1d20+5>=15' here"),
    ("1d20+5 vs 15", "is '1d20+5>=15' here"),
    ("4d6 ir2", "is '4d6r<=2' here"),
    ("[[2d6+3]]", "is '2d6+3' here"),
    ("3d6 // fire", "rpg-dice-roller's '// fire' (a comment) is '3d6 # fire' here"),
    ("!r 1d20+5", "the Discord bots' '!r' (the chat command) is '1d20+5' here"),
    # Dice Maiden's README (Humblemonk/DiceMaiden e2ae45c) and its aliases (dice_maiden_logic.rb)
    ("6 4d6", "Dice Maiden's '6' (6 sets) is '4d6' with -n 6 here"),
    ("s 4d6", "Dice Maiden's 's' (simplified output) is '4d6' with --short here"),
    ("4d6 p", "Dice Maiden's 'p' (a private roll) is '4d6' with --secret here"),
    ("p 4d6", "is '4d6' with --secret here"),
    ("nr 4d6", "Dice Maiden's 'nr' (no total shown) has no rpgdice form (the total is always shown): '4d6' rolls"),
    ("ul 4d6", "Dice Maiden's 'ul' (unsorted dice) is how dice are shown here: '4d6' rolls"),
    ("4d6 ! unsort", "'! unsort' (unsorted dice) is how dice are shown here: '4d6' rolls"),
    ("4d6 ! Hello World!", "Dice Maiden's '! Hello World!' (a comment) is '4d6 # Hello World!' here"),
    ("3d6 ie", "Dice Maiden's 'ie' (explode on the top face) is '3d6!' here"),
    ("3d6 e", "Dice Maiden's 'e' (explode once on the top face) is '3d6xo' here"),
    ("4d6 b1", "Dice Maiden's 'b1' (count the botches, 1 or less) is '4d6<=1' here"),
    ("4cod", "(Chronicles of Darkness) is '4d10!>=10>=8' here"),
    ("4cod8", "(Chronicles of Darkness, 8-again) is '4d10!>=8>=8' here"),
    ("4codr", "(Chronicles of Darkness, rote) is '4d10ro<=7>=8' here"),
    ("4wod8", "(World of Darkness) is '4d10>=8f1' here"),
    ("3wh4+", "(Warhammer) is '3d6>=4' here"),
    ("dd34", "(double digit) is '1d3*10+1d4' here"),
    ("age", "(an AGE test) is '2d6+1d6' here"),
    ("d6s4 +2", "(the D6 System) is '4d6+1d6! +2' here"),
    ("sr6", "(Shadowrun) is '6d6>=5' here"),
    ("sp4", "(Storypath) is '4d10!>=10>=8' here"),
    ("snm5", "(Sunsails: New Millennium) is '5d6!>=6>=4' here"),
    ("6yz", "(Year Zero) is '6d6>=6' here"),
    ("dndstats", "(D&D ability scores) is '4d6kh3' with -n 6 here"),
    ("attack +5", "Dice Maiden's 'attack' (a d20 roll) is '1d20 +5' here"),
    ("ex5", "has no rpgdice form (a 10 counts once here): '5d10>=7' counts the successes"),
    # Sidekick's README (ArtemGr/Sidekick, its history to 468a334)
    ("1d10>=8f1f2", "Sidekick's 'f1f2' (failure on any of these faces) is '1d10>=8f<=2' here"),
    ("1d10>6f1f2f3", "is '1d10>6f<=3' here"),
    ("repeat (4d6k3, 6)", "Sidekick's 'repeat (4d6k3, 6)' (6 rolls) is '4d6k3' with -n 6 here"),
    ("repeat (d6, 3, brief)", "(3 rolls) is 'd6' with -n 3 here"),
    ("repeat (1d20+1, 3, short sum)", "(3 rolls summed) is '(1d20+1) + (1d20+1) + (1d20+1)' here"),
    ("ova (5)", "Sidekick's 'ova (5)' (OVA: the best sum of equal faces) has no rpgdice form: '5d6' rolls the dice"),
    ("//roll-dice3-sides999", "Sidekick's AOL '//roll-dice3-sides999' (3 dice of 999 sides) is '3d999' here"),
    ("$persuasion = 2d20k1+3", "(a saved roll) is the command alias persuasion 'roll 2d20k1+3' here; '2d20k1+3' rolls"),
    ("1d20!1k1", "Sidekick's '!1' (re-roll on 1) is '1d20r1k1' here"),
    ("1d20+5 Grog attacks", "Sidekick's 'Grog attacks' (a comment) is '1d20+5 # Grog attacks' here"),
]


@pytest.mark.parametrize(("text", "said"), PEERS_SPELLINGS)
def test_a_peers_spelling_is_refused_with_the_rpgdice_form(text, said):
    run = cli("roll", text)
    assert run.exit_code == 2 and said in run.stderr and run.stderr.count("\n") == 1
    form = run.stderr.rstrip().rsplit("'", 2)[1]  # the last quoted text: the form that rolls
    option = re.search(r"' with (-n \d+|--secret|--short) here", run.stderr)
    extra = option.group(1).split() if option else []
    assert cli("roll", form, *extra).exit_code == 0  # the suggested form itself rolls


def test_every_row_of_the_peers_table_is_tried_above():
    hinted = set()
    for text, _ in PEERS_SPELLINGS:
        for i, (pattern, *_rest) in enumerate(grammar.PEERS):
            if re.search(pattern, text, flags=re.IGNORECASE):
                hinted.add(i)
                break
    assert hinted | {i for i, row in enumerate(grammar.PEERS) if row[3] is None} == set(range(len(grammar.PEERS)))


def test_several_rolls_a_saved_roll_and_what_still_rolls_as_before():
    run = cli("roll", "4d100 ; 10d6 e6 k8 +4; 3d10 k2; ul 3d100")
    said = "Dice Maiden's ';' (several rolls) is one argument a roll here: roll '4d100' '10d6 e6 k8 +4' '3d10 k2' '3d100'"
    assert run.exit_code == 2 and said in run.stderr
    assert cli("roll", "4d100", "10d6 e6 k8 +4", "3d10 k2", "3d100").exit_code == 0
    run = cli("roll", "$persuasion")
    assert run.exit_code == 2 and "Sidekick's '$persuasion' (a saved roll) is the command persuasion here" in run.stderr
    # Arguments that roll as they are keep their meaning: two rolls, 2 and a d20 (CLI.md).
    rows = [json.loads(line) for line in cli("roll", "2", "d20", "--dice", "7", "--json").stdout.splitlines()]
    assert [r["expression"] for r in rows] == ["2", "d20"]
    assert cli("roll", "6", "4d6").exit_code == 2  # a peer's sets, refused with the hint
    for text in ("2d6 adv", "1d20+5 >= 15 x", "4d10 t8 b1", "1d10>6f1f3"):  # no hint fits these
        assert " is '" not in cli("roll", text).stderr


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
        tree_odds.odds(grammar.parse("3d6!u"))  # #43.19: refused with explosions only (3d6u is exact)
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


README_DIFFERENT = {
    "4d6 r2": "Dice Maiden's r2 re-rolls 2 or less once; here r2 re-rolls 2s while (rpg-dice-roller's)",
    "3d6 e6": "Dice Maiden's e6 explodes once; here e6 is d20's (explodes while, CLI.md)",
    "+d20": "Dice Maiden's +d20 is advantage; here a plus sign (advantage: d20 adv)",
    "-d20": "Dice Maiden's -d20 is disadvantage; here a minus sign (disadvantage: d20 dis)",
    "+d%": "Dice Maiden's +d% is a roll-under advantage; here a plus sign",
    "-d%": "Dice Maiden's -d% is a roll-under disadvantage; here a minus sign",
    "3d10!>=8": "Sidekick's nWoD roll (tens explode, 8 or more succeed); here !>=8 explodes on 8 or more "
                "(rpg-dice-roller's): 3d10!>=10>=8",
    "1d10t10": "Sidekick's t10 counts a 10 twice; here t10 is Dice Maiden's >=10",
}
"""Dice Maiden's and Sidekick's README forms that roll here with another meaning: the peers
differ, rpg-dice-roller's notation (or CLI.md's table) decides; docs/rules.md says each."""


def test_every_readme_form_of_dice_maiden_and_sidekick_rolls_or_is_hinted():
    from pathlib import Path

    from tests.peers import oracle

    readme = [e for section, e in oracle.corpus() if section in ("Dice Maiden", "Sidekick")]
    assert len(readme) >= 89
    for e in readme:
        assert oracle.ours_accepts(e) or grammar.hint(e), e
    rules_md = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for e in README_DIFFERENT:
        assert e in readme and oracle.ours_accepts(e) and f"`{e}`" in rules_md, e


@pytest.mark.parametrize("text", [
    "1d6" + " " * 10000 + "y", "(" * 3000 + "1" + " " * 5000 + "zz", "1d6" + " " * 395 + "y",
    "1d6" + " " * 200 + "b" + " " * 190 + "q", "4d6 " + "p " * 190, "1 " + "ab " * 130 + "9",
])
def test_the_peers_hints_are_bounded_work(text):
    import time

    started = time.perf_counter()
    grammar.hint(text)
    assert time.perf_counter() - started < 0.2
    run = cli("roll", text)
    assert run.exit_code == 2 and run.stderr.count("\n") == 1
