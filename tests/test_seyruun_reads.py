"""Issue 18: a Seyruun roll reads right (which trait is the Attribute, each penalty, one
verdict per attack, steps that show what they add, the odds header's build)."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, cli_json, cli_one, make_character


def view(*args: str, columns: int = 80) -> str:
    run = cli(*args, env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert run.exit_code == 0, run.stderr
    return run.stdout


# Item 1: the Attribute by role, not by position ------------------------------------------


def test_the_attribute_is_found_in_a_sum_and_the_trait_line_puts_it_first():
    make_character("Ysolde", "seyruun", wits=2, occult=3)
    obj = cli_one("seyruun", "roll", "occult+wits", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["pool"], obj["attribute"], obj["skill"]) == (5, 2, 3)
    out = view("seyruun", "roll", "occult", "wits", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert "Ysolde · Wits 2 + Occult 3" in out
    assert "Attribute 2 + Skill 3" in out


def test_wits_occult_with_a_skill_of_zero_is_a_chance_die_whatever_the_order():
    make_character("Ysolde", "seyruun", wits=1, occult=0)
    for argv in (("occult", "wits"), ("wits", "occult")):
        obj = cli_one("seyruun", "roll", *argv, "--as", "ysolde", "--dice", "6")
        assert obj["chance_die"] and obj["untrained"], argv


def test_two_attributes_rated_zero_have_no_untrained_penalty():
    make_character("Ysolde", "seyruun", composure=3, resolve=0)
    obj = cli_one("seyruun", "roll", "composure", "resolve", "--as", "ysolde", "--dice", "6,2,2")
    assert (obj["pool"], obj["untrained"]) == (3, False)
    assert "Attribute 3 + Attribute 0" in view("seyruun", "roll", "composure", "resolve",
                                               "--as", "ysolde", "--dice", "6,2,2")


def test_two_rated_attributes_are_labelled_attributes_in_the_roll_the_odds_and_the_log():
    make_character("Ysolde", "seyruun", wits=3, dexterity=2)
    args = ("seyruun", "roll", "wits", "dexterity", "--as", "ysolde")
    obj = cli_one(*args, "--dice", "6,2,2,2,2")
    assert (obj["attribute"], obj["skill"], obj["attributes_only"]) == (3, 2, True)
    assert "(Attribute 3 + Attribute 2 = 5)" in view(*args, "--dice", "6,2,2,2,2")
    assert "(Attribute 3 + Attribute 2 = 5)" in view("seyruun", "odds", *args[2:])
    run = cli(*args, "--dice", "6,2,2,2,2", "--log", env={"NO_COLOR": "1"})
    assert run.exit_code == 0, run.stderr
    shown = view("log", "show", "1")
    assert "Attribute 3 + Attribute 2" in shown and "Skill" not in shown
    assert "(Attribute 3 + Skill 2 = 5)" in view("seyruun", "roll", "3", "2", "--dice", "6,2,2,2,2")


def test_two_skills_are_a_usage_error_naming_the_missing_attribute():
    make_character("Ysolde", "seyruun", occult=3, stealth=3)
    assert_usage_error(cli("seyruun", "roll", "occult", "stealth", "--as", "ysolde"),
                       "ATTRIBUTE", "occult", "stealth", "Attribute")
    assert_usage_error(cli("seyruun", "contest", "occult+stealth", "3", "--as", "ysolde"),
                       "ATTACKER", "Attribute")


def test_numbers_keep_their_places():
    make_character("Ysolde", "seyruun", occult=3)
    obj = cli_one("seyruun", "roll", "occult", "2", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["attribute"], obj["skill"]) == (3, 2)


def test_a_sheet_may_mark_a_trait_as_an_attribute(tmp_path):
    sheet = make_character("Ysolde", "seyruun", occult=3, lore=2)
    sheet.write_text('attributes = ["Lore"]\n' + sheet.read_text())
    obj = cli_one("seyruun", "roll", "occult", "lore", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["attribute"], obj["skill"]) == (2, 3)
    shown = view("char", "show", "ysolde", columns=120)
    lines = shown.splitlines()
    head = next(line for line in lines if "Attributes" in line)
    lore = next(line for line in lines if "Lore" in line)
    occult = next(line for line in lines if "Occult" in line)
    # Lore under Attributes, Occult under Skills (the columns stand side by side)
    assert lore.index("Lore") < head.index("Skills") <= occult.index("Occult")
    sheet.write_text('attributes = "lore"\n' + sheet.read_text().split("\n", 1)[1])
    assert_usage_error(cli("seyruun", "roll", "occult", "lore", "--as", "ysolde"), "attributes")


def test_a_contest_side_takes_its_attribute_by_role_for_the_tie():
    make_character("Ysolde", "seyruun", wits=4, occult=1)
    # occult+wits is Wits 4 + Occult 1: a tie at 1 success goes to the attacker (4 > 3)
    obj = cli_one("seyruun", "contest", "occult+wits", "3+2", "--as", "ysolde",
                  "--dice", "6,2,2,2,2,6,2,2,2,2")
    assert obj["winner"] == "attacker"


# Item 4: each penalty, in rolls, odds and roll types; item 15: the odds header's build ----


EACH = "− penalties 8 (wound severe −3, 3 actions −4, penalty −1)"


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("args", [
    ("seyruun", "roll", "3", "3", "--wound", "severe", "--actions", "3", "--penalty", "1", "--dice", "6"),
    ("seyruun", "odds", "3", "3", "--wound", "severe", "--actions", "3", "--penalty", "1"),
    ("seyruun", "extended", "3", "3", "--target", "1", "--wound", "severe", "--actions", "3",
     "--penalty", "1", "--dice", "10"),
    ("seyruun", "team", "3", "3", "--assists", "1", "--wound", "severe", "--actions", "3",
     "--penalty", "1", "--dice", "6"),
])
def test_each_penalty_is_shown(args, columns):
    out = " ".join(view(*args, columns=columns).split())
    assert EACH in out
    assert "pool −2" not in out


def test_one_penalty_is_named_and_the_json_lists_each():
    out = view("seyruun", "odds", "3", "3", "--bonus", "1", "--wound", "light")
    assert "(Attribute 3 + Skill 3 + bonus 1 − wound light 1 = 6)" in out
    obj = cli_one("seyruun", "roll", "3", "3", "--wound", "light", "--actions", "2", "--dice", "6,2,2")
    assert obj["penalties"] == [{"what": "wound light", "dice": 1}, {"what": "2 actions", "dice": 2}]


def test_a_characters_penalty_from_the_sheet_shows_as_the_wound():
    make_character("Ysolde", "seyruun", dexterity=3, stealth=3, wound="moderate")
    out = view("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", "6,2,2,2")
    assert "− wound moderate 2 = 4" in out


def test_the_odds_header_shows_the_build_the_roll_shows():
    args = ("3", "3", "--bonus", "1", "--willpower", "--penalty", "2")
    roll = view("seyruun", "roll", *args, "--dice", "6,2,2,2,2,2,2,2", columns=120).splitlines()[0]
    odds = view("seyruun", "odds", *args, columns=120).splitlines()[0]
    build = roll[roll.index("("):roll.index(")") + 1]
    assert build in odds and "Willpower 3" in build


# Item 5: one verdict per exchange; the log reads an attack and an initiative right ---------


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_a_miss_is_one_verdict_and_deals_no_damage_line(columns):
    out = view("seyruun", "attack", "3+3", "--defense", "3+2", "--damage", "2",
               "--dice", "6,2,2,2,2,2,6,6,7,8,2", columns=columns)
    flat = " ".join(out.split())
    assert "Miss — 4 successes of defense against 1 success of attack" in flat
    assert "Success" not in flat and "Damage dealt" not in flat and "needed" not in flat
    assert "→ 1 success" in flat and "→ 4 successes" in flat
    assert all(len(line) <= columns for line in out.splitlines())


def test_a_hit_without_damage_is_its_one_verdict():
    out = view("seyruun", "attack", "3+3", "--dice", "6,2,2,2,2,2")
    assert "Hit — 1 success against no defense" in out and out.count("Hit") == 1


def test_the_log_says_hit_with_its_damage_miss_and_the_initiative_order(capsys):
    cli("seyruun", "attack", "3+3", "--defense", "2+3", "--damage", "2+2", "--soak", "3+1",
        "--dice", "10,7,6,2,1,4,6,2,2,2,3,8,6,6,2,9,6,3,3,5,10", "--log")
    cli("seyruun", "attack", "3+3", "--defense", "3+2", "--dice", "6,2,2,2,2,2,6,6,7,8,2", "--log")
    cli("seyruun", "initiative", "A=3+3", "B=2+2", "C=2+2", "--dice", "6,6,2,2,2,2,6,2,2,2,6,2,2,2", "--log")
    rows = view("log", columns=200).splitlines()
    hit, miss, order = (next(r for r in rows if r.lstrip().startswith(n)) for n in ("1 ", "2 ", "3 "))
    assert "Hit" in hit and "3 damage" in hit and "Success" not in hit and "rolls" not in hit
    assert "Miss" in miss and "Failure" not in miss and "rolls" not in miss
    assert "1 A, 2= B, 2= C" in order and "rolls" not in order
    from rpgdice.render.log import show_data

    entry = {"results": [cli_one("seyruun", "attack", "3+3", "--dice", "1,2,2,2,2,2")]}
    show_data(entry)
    assert "Botch, 0 succ." in capsys.readouterr().out


# Item 15: the initiative's tie note only where someone tied -------------------------------


def test_the_initiative_tie_note_only_when_someone_tied():
    none = view("seyruun", "initiative", "A=3+3", "B=2+2", "--dice", "6,6,2,2,2,2,6,2,2,2")
    assert "ties go to" not in none
    tied = view("seyruun", "initiative", "A=3+3", "B=2+2", "--dice", "6,2,2,2,2,2,6,2,2,2")
    assert "ties go to" in " ".join(tied.split())


# Item 6: a step shows what it adds, not a verdict against no difficulty --------------------


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_seyruun_extended_and_team_steps_show_their_successes(columns):
    ext = " ".join(view("seyruun", "extended", "3", "3", "--target", "4",
                        "--dice", "6,6,2,2,2,2,6,6,7,2,2,2", columns=columns).split())
    assert "Roll 1 · 6 dice" in ext and "→ 2 successes → total 2 of 4" in ext
    assert "needed" not in ext and "just enough" not in ext and ext.count("Success") == 1
    team = " ".join(view("seyruun", "team", "3", "3", "--assists", "1", "-d", "epic",
                         "--dice", "6,6,6,2,2,2,2", columns=columns).split())
    assert "4 successes needed" in team and "→ 3 successes" in team
    assert "Failure" not in team and "Team failure — 3 successes, 4 needed" in team


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_reglas_team_and_extended_steps_show_what_they_add(columns):
    team = " ".join(view("reglas", "team", "5", "4", "-d", "difícil", "--dice", "2,8",
                         columns=columns).split())
    assert "sin dificultad" not in team and "Éxito" not in team
    assert "Miembro 1 · iE 5" in team and "→ aporta 3" in team
    assert "→ aporta −4 (fracaso de grado 4)" in team
    assert "Fallo — suma 3 + (−4) = −1 de 4 necesarios" in team
    ext = " ".join(view("reglas", "extended", "6", "--target", "5", "--dice", "2,9",
                        columns=columns).split())
    assert "sin dificultad" not in ext and "→ suma 4" in ext
    assert "→ termina la acción (fracaso de grado 3)" in ext and ext.count("Fracaso") == 1


# Item 15: seyruun reroll keeps the first roll's trait line ---------------------------------


def test_a_reroll_shows_the_trait_line_of_the_first_roll():
    make_character("Ysolde", "seyruun", dexterity=2, stealth=1, willpower=3)
    first = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", "2,3,4", "--log")
    assert first.exit_code == 0, first.stderr
    out = view("seyruun", "reroll", "--dice", "6,7,2")
    assert "Ysolde · Dexterity 2 + Stealth 1 · spent 1 Willpower, 2 left" in out


@pytest.mark.parametrize("columns", ["60", "70", "80"])
def test_a_parenthesis_and_each_penalty_are_never_broken_inside(monkeypatch, columns):
    """The sheet's wound, "wound light (the sheet's)", and each penalty of a sum, "wound
    light −1", stay whole: a line breaks only between them (it broke inside both)."""
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("NO_COLOR", "1")
    make_character("Ysolde", "seyruun", dexterity=3, stealth=3, wound="light")
    run = cli("seyruun", "contest", "dexterity+stealth-1", "3+2", "--as", "ysolde", "--dice",
              "8,3,10,5,1,2,3,4,5")
    assert run.exit_code == 0, run.stderr
    lines = [" ".join(line.split()) for line in run.stdout.splitlines()]
    assert any("wound light (the sheet's)" in line for line in lines), run.stdout
    assert any("wound light −1" in line for line in lines), run.stdout


def test_the_targets_defense_takes_its_attribute_by_role_too():
    """--vs: the defense names the target's traits, and RULES.md's "Which trait is the
    Attribute" holds there as for the attacker: the order typed changes nothing, two
    Skills are a usage error naming the side."""
    make_character("Kes", "seyruun", firearms=2, wits=3)
    make_character("Ysolde", "seyruun", dexterity=2, athletics=1, occult=3, stealth=2)
    seen = []
    for defense in ("athletics+dexterity", "dexterity+athletics"):
        (obj,) = cli_json("seyruun", "attack", "firearms+wits", "--defense", defense, "--vs",
                          "ysolde", "--as", "kes", "--dice", "6,1,1,1,1,6,1,1")
        seen.append((obj["hit"], obj["defense"]["attribute"], obj["defense"]["skill"]))
    assert seen[0] == seen[1] == (True, 2, 1), seen  # Dexterity 2 + Athletics 1; the tie: Wits 3 > 2
    run = cli("seyruun", "attack", "firearms+wits", "--defense", "occult+stealth", "--vs",
              "ysolde", "--as", "kes", "--seed", "1")
    assert_usage_error(run, "--defense", "both Skills of Ysolde")


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_a_contest_is_one_verdict_and_each_side_shows_its_successes(columns):
    out = view("seyruun", "contest", "3+2", "2+2", "--dice", "4,10,9,3,6,10,8,10,2", columns=columns)
    assert "→ 4 successes" in out and "→ 5 successes" in out
    verdicts = [w for w in ("Success", "Failure", "Botch", "needed") if w in out]
    assert verdicts == [], out
    assert out.count("wins") == 2 and "Defender wins by 1 success (4 to 5)" in out  # the header's too


@pytest.mark.parametrize("command", ["roll", "odds"])
def test_actions_alone_show_their_sign_and_size_beside_their_name(command):
    # Issue 34, point 8: "− 2 actions 2" read as two numbers; the penalty is −2.
    more = ("--dice", "6,2,2,2") if command == "roll" else ()
    out = " ".join(view("seyruun", command, "3", "3", "--actions", "2", *more).split())
    assert "2 actions −2" in out and "actions 2" not in out
    assert "(Attribute 3 + Skill 3 − penalty 2 (2 actions −2) = 4)" in out


def test_compare_leaves_the_main_chart_its_width_and_its_note():
    # Issue 34, point 8: --compare shrank the main chart to the comparison's scale.
    plain = view("seyruun", "odds", "3", "3", columns=80)
    compared = view("seyruun", "odds", "3", "3", "--compare", "--bonus 2", columns=80)
    success = [line for line in plain.splitlines() if line.lstrip().startswith("Success")][0]
    assert success in compared.splitlines()
    scale = [line for line in plain.splitlines() if "bars on one scale" in line][0]
    assert scale in compared.splitlines()
    assert sum("bars on one scale" in line for line in compared.splitlines()) == 2
