"""Issue 18, item 14: the errors a table meets twice each say what to do."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, make_character, proc

TRAITS_WITHOUT_AS = [
    (["seyruun", "roll", "dexterity", "stealth"], "ATTRIBUTE: 'dexterity'", "a trait name"),
    (["seyruun", "contest", "dex+stealth", "3+3"], "ATTACKER: 'dex+stealth'", "trait names"),
    (["seyruun", "attack", "dex+brawl"], "ATTACK: 'dex+brawl'", "trait names"),
    (["crytures", "roll", "strength"], "POOL: 'strength'", "a trait name"),
    (["reglas", "roll", "destreza+armas-de-fuego"], "ÍNDICE: 'destreza+armas-de-fuego'", "trait names"),
    (["reglas", "team", "destreza", "5"], "'destreza'", "a trait name"),
    (["cypher", "task", "-d", "3", "--skill", "stealth"], "--skill: 'stealth'", "a skill's name"),
]


@pytest.mark.parametrize("argv, names, what", TRAITS_WITHOUT_AS)
def test_trait_names_without_as_say_that_as_reads_them(argv, names, what):
    run = cli(*argv)
    if argv[0] == "reglas":  # in Spanish (issue 18, point 11)
        said = {"a trait name": "el nombre de un rasgo", "trait names": "nombres de rasgos"}[what]
        assert_usage_error(run, names, f"sino {said}", "añade --as NOMBRE", "rpgdice char list")
        return
    assert_usage_error(run, names, f"looks like {what}", "add --as NAME", "rpgdice char list")


def test_no_hint_of_traits_for_what_is_no_name_or_a_misspelled_level():
    run = cli("seyruun", "roll", "3x")
    assert_usage_error(run, "ATTRIBUTE: '3x' is not a number or a sum")
    assert "--as" not in run.stderr
    run = cli("cypher", "task", "-d", "3", "--skill", "traned")
    assert_usage_error(run, "(did you mean 'trained'?)")
    assert "--as" not in run.stderr


def test_a_trait_hint_does_not_hide_a_character_roll_that_names_a_missing_trait(tmp_path):
    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    assert cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "1").exit_code == 0
    run = cli("seyruun", "roll", "dexterity", "stelth", "--as", "ysolde")
    assert_usage_error(run, "stealth")
    assert "add --as NAME" not in run.stderr


@pytest.mark.parametrize("argv, meant", [
    (["2d6"], "did you mean 'rpgdice roll 2d6'?"),
    (["d20", "+5"], "did you mean 'rpgdice roll d20 +5'?"),
    (["4d6kh3", "-n", "6"], "did you mean 'rpgdice roll 4d6kh3 -n 6'?"),
    (["seyruun", "3", "3"], "did you mean 'rpgdice seyruun roll 3 3'?"),
    (["reglas", "5+5"], "did you mean 'rpgdice reglas roll 5+5'?"),
    (["crytures", "4"], "did you mean 'rpgdice crytures roll 4'?"),
])
def test_an_unknown_command_that_is_a_roll_suggests_the_roll(argv, meant):
    if argv[0] == "reglas":  # in Spanish (issue 18, point 11)
        meant = meant.replace("did you mean", "¿quisiste decir")
    assert_usage_error(cli(*argv), "ORDEN:" if argv[0] == "reglas" else "COMMAND:", meant)


def test_an_unknown_command_says_where_the_commands_are_described():
    assert_usage_error(cli("foo"), "is not a command of 'rpgdice'", "(rpgdice --help says what each does)")
    assert_usage_error(cli("rol", "2d6"), "(did you mean 'roll'?)")
    # Cypher's roll takes no pool argument: no roll to suggest for a number.
    run = cli("cypher", "5")
    assert_usage_error(run, "is not a command of 'rpgdice cypher'")
    assert "roll 5" not in run.stderr


@pytest.mark.process
def test_a_real_process_suggests_the_roll_too():
    done = proc("2d6")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith("(did you mean 'rpgdice roll 2d6'?)")


def test_too_few_or_too_many_faces_say_what_to_give():
    assert_usage_error(cli("crytures", "roll", "3", "--dice", "1,2"),
                       "--dice: too few faces: 2 given", "give a face for every die rolled, in order")
    assert_usage_error(cli("roll", "d6", "--dice", "1,2"),
                       "--dice: too many faces: 2 given, the roll used 1", "give just the 1 it rolls")
    assert_usage_error(cli("crytures", "roll", "0", "--dice", "1"), "it rolls no die: leave out --dice")


def test_a_misspelled_difficulty_names_the_closest_level():
    assert_usage_error(cli("seyruun", "roll", "3", "3", "-d", "moderat"), "(did you mean 'moderate'?)")
    assert_usage_error(cli("reglas", "roll", "5", "-d", "dificl"), "(¿quisiste decir 'dificil'?)")
    assert_usage_error(cli("cypher", "task", "-d", "standrd"), "(did you mean 'standard'?)")


@pytest.mark.parametrize("argv", [
    ("seyruun", "roll", "3", "3", "--as", "ysold"),
    ("seyruun", "attack", "3+2", "--defense", "2+2", "--vs", "ysold"),
    ("seyruun", "initiative", "ysold"),
    ("char", "show", "ysold"),
    ("reglas", "roll", "5", "--as", "ysold"),
])
def test_a_misspelled_character_gets_the_closest_saved_name(argv):
    make_character("Ysolde", "seyruun", wits=3)
    said = "¿quisiste decir 'ysolde'?" if argv[0] == "reglas" else "did you mean 'ysolde'?"
    assert_usage_error(cli(*argv), "'ysold'", said)
    assert "did you mean" not in cli("char", "show", "zzzzqq").stderr


def test_a_misspelled_alias_gets_its_name():
    assert cli("alias", "sneak", "seyruun roll 3 3").exit_code == 0
    assert_usage_error(cli("sneek"), "COMMAND: 'sneek'", "did you mean 'sneak'?")
    assert "sneak" not in cli("seyruun", "sneek").stderr  # aliases are commands at the top only


# Issue 34, point 4: hints that pointed the wrong way.

@pytest.mark.parametrize("argv, said", [
    (["seyruun", "odds", "attack", "3+3", "--damage", "2+2"],
     "add --odds to the roll: rpgdice seyruun attack ... --odds"),
    (["seyruun", "odds", "initiative", "a=3+3"], "roll it with rpgdice seyruun initiative"),
    (["crytures", "odds", "roll", "5"], "'rpgdice crytures odds ...' itself (leave out 'roll')"),
    (["cypher", "odds", "task", "-d", "3"], "(leave out 'task')"),
    (["reglas", "odds", "roll", "5"], "(quita 'roll')"),
])
def test_a_command_named_after_odds_is_named_back_the_way_that_works(argv, said):
    run = cli(*argv)
    assert_usage_error(run, "odds: '", said)
    assert "trait name" not in run.stderr and "rasgo" not in run.stderr


def test_odds_of_a_type_and_of_a_trait_under_as_still_work():
    assert cli("seyruun", "odds", "contest", "3+3", "2+2").exit_code == 0
    make_character("Ysolde", "seyruun", dexterity=3, stealth=3)
    assert cli("seyruun", "odds", "dexterity", "stealth", "--as", "ysolde").exit_code == 0


@pytest.mark.parametrize("argv", [["2d6 3"], ["2d6", "3"]])
def test_a_number_after_a_space_suggests_the_sum_in_one_argument_or_two(argv):
    for command in ("roll", "odds"):
        assert_usage_error(cli(command, *argv), "EXPR", "did you mean 2d6+3?")


def test_a_comparison_given_as_its_own_argument_joins_the_roll():
    run = cli("roll", "d20", "+5", ">=", "15", "--dice", "12", "--json")
    assert run.exit_code == 0, run.stderr
    obj = __import__("json").loads(run.stdout)
    assert (obj["total"], obj["outcome"]) == (17, "success")
    assert ">=+15" not in run.stderr
    assert cli("roll", "d20+5", ">=", "15", "--dice", "2").stdout.count("failure") == 1


@pytest.mark.parametrize("argv, fixed", [
    (["crytures", "roll", "brawn", "fighting", "--as", "brakka", "--dice", "6,2,9,1,10"],
     ["crytures", "roll", "brawn+fighting", "--as", "brakka", "--dice", "6,2,9,1,10"]),
    (["crytures", "roll", "--as", "brakka", "brawn", "--die-mod", "1", "fighting", "--dice",
      "6,2,9,1,10,7"],
     ["crytures", "roll", "brawn+fighting", "--die-mod", "1", "--as", "brakka", "--dice",
      "6,2,9,1,10,7"]),
    (["crytures", "odds", "brawn", "fighting", "--as", "brakka"],
     ["crytures", "odds", "brawn+fighting", "--as", "brakka"]),
    (["crytures", "roll", "3", "-d", "6", "2", "--dice", "6,2,9,1,10"],
     ["crytures", "roll", "3+2", "-d", "6", "--dice", "6,2,9,1,10"]),
])
def test_a_crytures_pool_typed_as_two_words_is_their_sum(argv, fixed):
    # Issue 43, point 14: as Seyruun rolls `dexterity stealth`, Crytures rolls
    # `brawn fighting`: the two words are the sum (Talent + Skill), as `brawn+fighting`.
    make_character("Brakka", "crytures", brawn=3, fighting=2)
    run = cli(*argv, "--json")
    assert run.exit_code == 0 and run.stderr == "", run.stderr
    (got,) = run.json()
    (want,) = cli(*fixed, "--json").json()
    assert got == want
    assert got["pool"] == 5 + ("--die-mod" in argv), got  # Brawn 3 + Fighting 2 (+1 die)
    # a word the sheet lacks is named as in the sum; three words are not a pool
    assert_usage_error(cli("crytures", "roll", "brawn", "figting", "--as", "brakka"),
                       "figting", "fighting")
    assert_usage_error(cli("crytures", "roll", "brawn", "fighting", "3", "--as", "brakka"),
                       "extra argument")


def test_the_bots_repeat_spelling_rolls_its_number_with_a_warning_saying_how_to_repeat():
    run = cli("roll", "3#1d20", "--json")
    assert run.exit_code == 0 and run.json()[0]["total"] == 3  # CLI.md: '#' starts a label
    assert "rpgdice roll 1d20 -n 3" in run.stderr and run.stderr.count("\n") == 1
    assert "warning" not in cli("roll", "3 # fire", "--json").stderr


def test_a_first_name_finds_the_character_whose_name_begins_with_it(tmp_path):
    make_character("Borin Ironhand", "seyruun", strength=3)
    run = cli("seyruun", "roll", "strength", "1", "--as", "borin")
    assert run.exit_code == 2 and "did you mean 'borin-ironhand'?" in run.stderr
    assert cli("seyruun", "roll", "strength", "1", "--as", "borin-ironhand").exit_code == 0


def test_a_spanish_trait_hint_is_all_spanish_and_a_far_word_gets_no_opposite():
    make_character("Thureck", "reglas", destreza=5, **{"armas de fuego": 3})
    run = cli("reglas", "roll", "destreza+armas-fuego", "--as", "thureck")
    assert "(el más parecido es 'armas de fuego')" in run.stderr and "closest" not in run.stderr
    run = cli("reglas", "roll", "5+5", "-d", "facil")
    assert run.exit_code == 2 and "dificil'?" not in run.stderr


def test_d66_rolls_its_66_sides_and_warns_how_to_roll_the_tens_and_units_kind():
    run = cli("roll", "d66", "--dice", "28", "--json")
    assert run.exit_code == 0 and run.json()[0]["total"] == 28
    assert "rpgdice roll 'd6*10+d6'" in run.stderr
    assert cli("roll", "d6*10+d6", "--dice", "3,4", "--json").json()[0]["total"] == 34
    assert "warning" not in cli("roll", "2d66", "--dice", "3,4").stderr


def test_a_new_sheets_trait_close_to_one_the_ruleset_knows_is_kept_with_a_warning():
    run = cli("char", "new", "Vex", "--ruleset", "cypher", "might=9", "intelect=10")
    assert run.exit_code == 0
    assert "did you mean 'intellect'?" in run.stderr and "intellect=10 intelect=-" in run.stderr
    run = cli("char", "new", "Ann", "--ruleset", "seyruun", "dexterity=3", "stealth=2")
    assert run.exit_code == 0 and run.stderr == ""
