"""Issue 18: a Seyruun roll reads right (which trait is the Attribute, each penalty, one
verdict per attack, steps that show what they add, the odds header's build)."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, cli_one


def view(*args: str, columns: int = 80) -> str:
    run = cli(*args, env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert run.exit_code == 0, run.stderr
    return run.stdout


def _ysolde(*traits: str) -> None:
    run = cli("char", "new", "Ysolde", "--ruleset", "seyruun", *traits)
    assert run.exit_code == 0, run.stderr


# Item 1: the Attribute by role, not by position ------------------------------------------


def test_the_attribute_is_found_in_a_sum_and_the_trait_line_puts_it_first():
    _ysolde("wits=2", "occult=3")
    obj = cli_one("seyruun", "roll", "occult+wits", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["pool"], obj["attribute"], obj["skill"]) == (5, 2, 3)
    out = view("seyruun", "roll", "occult", "wits", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert "Ysolde · Wits 2 + Occult 3" in out
    assert "Attribute 2 + Skill 3" in out


def test_wits_occult_with_a_skill_of_zero_is_a_chance_die_whatever_the_order():
    _ysolde("wits=1", "occult=0")
    for argv in (("occult", "wits"), ("wits", "occult")):
        obj = cli_one("seyruun", "roll", *argv, "--as", "ysolde", "--dice", "6")
        assert obj["chance_die"] and obj["untrained"], argv


def test_two_attributes_rated_zero_have_no_untrained_penalty():
    _ysolde("composure=3", "resolve=0")
    obj = cli_one("seyruun", "roll", "composure", "resolve", "--as", "ysolde", "--dice", "6,2,2")
    assert (obj["pool"], obj["untrained"]) == (3, False)
    assert "Attribute 3 + Attribute 0" in view("seyruun", "roll", "composure", "resolve",
                                               "--as", "ysolde", "--dice", "6,2,2")


def test_two_skills_are_a_usage_error_naming_the_missing_attribute():
    _ysolde("occult=3", "stealth=3")
    assert_usage_error(cli("seyruun", "roll", "occult", "stealth", "--as", "ysolde"),
                       "ATTRIBUTE", "occult", "stealth", "Attribute")
    assert_usage_error(cli("seyruun", "contest", "occult+stealth", "3", "--as", "ysolde"),
                       "ATTACKER", "Attribute")


def test_numbers_keep_their_places():
    _ysolde("occult=3")
    obj = cli_one("seyruun", "roll", "occult", "2", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["attribute"], obj["skill"]) == (3, 2)


def test_a_sheet_may_mark_a_trait_as_an_attribute(tmp_path):
    import os
    from pathlib import Path

    _ysolde("occult=3", "lore=2")
    path = Path(os.environ["RPGDICE_HOME"]).glob("**/ysolde.toml")
    (sheet,) = list(path)
    sheet.write_text('attributes = ["Lore"]\n' + sheet.read_text())
    obj = cli_one("seyruun", "roll", "occult", "lore", "--as", "ysolde", "--dice", "6,2,2,2,2")
    assert (obj["attribute"], obj["skill"]) == (2, 3)
    sheet.write_text('attributes = "lore"\n' + sheet.read_text().split("\n", 1)[1])
    assert_usage_error(cli("seyruun", "roll", "occult", "lore", "--as", "ysolde"), "attributes")


def test_a_contest_side_takes_its_attribute_by_role_for_the_tie():
    _ysolde("wits=4", "occult=1")
    # occult+wits is Wits 4 + Occult 1: a tie at 1 success goes to the attacker (4 > 3)
    obj = cli_one("seyruun", "contest", "occult+wits", "3+2", "--as", "ysolde",
                  "--dice", "6,2,2,2,2,6,2,2,2,2")
    assert obj["winner"] == "attacker"
