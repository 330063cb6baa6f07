"""What a newcomer trips on with the files of docs/rulesets/ (docs/your-own-system.md): a
custom file's help at 80 columns, its errors and the view of its roll."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import assert_usage_error, cli, home

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "rulesets"


def install(*names: str) -> None:
    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(EXAMPLES / f"{name}.toml", folder / f"{name}.toml")


def page(*args: str) -> str:
    """A help page at 80 columns, its words joined as one line."""
    run = cli(*args, "--help", env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert run.exit_code == 0, run.stderr
    assert all(len(line) <= 80 for line in run.stdout.splitlines())
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", run.stdout).split())


def test_a_title_with_a_colon_is_said_once():
    install("v5")
    for args in (("v5", "roll"), ("v5",)):
        text = page(*args)
        assert "Roll Vampire: the Masquerade 5th: its own dice and outcomes" in text
        assert "the Masquerade 5th: the Masquerade 5th" not in text


def test_an_argument_is_typed_as_a_number_or_a_die_not_by_a_private_name():
    install("v5", "cortex")
    v5, cortex = page("v5", "roll"), page("cortex", "roll")
    assert "<_" not in v5 + cortex
    assert "POOL <number>" in v5 and "DIE... <die>" in cortex
    assert_usage_error(cli("v5", "roll"), "POOL: missing; accepts a number such as 3")
    assert_usage_error(cli("cortex", "roll"), "DIE: missing; accepts a die's size, such as 8")


def test_a_number_argument_says_its_range():
    install("v5", "coc")
    v5, coc = page("v5", "roll"), page("coc", "roll")
    assert "Dice in the pool, Hunger dice included (1 to 1000)." in v5
    assert "How many of the dice are Hunger dice (0 to 1000)." in v5
    assert "kept (0 to 2)." in coc


def test_the_compare_example_of_the_help_runs_with_the_files_example():
    install("v5", "genesys")
    for name, example in (("v5", "6 --hunger 2"), ("genesys", "--ability 2")):
        said = re.search(r"--compare '([^']+)'", page(name, "odds"))
        assert said is not None
        run = cli(name, "odds", *example.split(), "--compare", said.group(1))
        assert run.exit_code == 0, run.stderr


def test_too_few_faces_names_every_die_the_roll_needs():
    install("v5")
    assert_usage_error(cli("v5", "roll", "6", "--hunger", "2", "--dice", "1,2"),
                       "2 given, the roll needs at least 6")


def test_a_symbol_die_is_shown_by_its_letters():
    install("genesys")
    run = cli("genesys", "roll", "--ability", "2", "--boost", "1", "--dice", "4,7,1",
              env={"COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    assert "ability ss  ability sa  boost blank" in run.stdout
    assert "Success — successes 3, advantages 1" in run.stdout


def test_a_push_says_it_is_one_and_its_id_is_an_integer(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    install("yze")
    assert "Year Zero Engine · 3 dice" in cli("yze", "roll", "3", "--dice", "6,1,3").stdout
    run = cli("yze", "push", "--dice", "6", env={"COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == "Year Zero Engine · pushed · 3 dice"
    assert "[ID] <integer>" in page("yze", "push")


def test_a_one_line_summary_names_each_group_of_dice():
    # a card, the log and --short said "10 4 9 1 1 → 2 succ.": which two were Hunger dice?
    install("v5", "genesys", "onering")
    said = {args[0]: cli(*args, "--short").stdout.strip() for args in (
        ("v5", "roll", "5", "--hunger", "2", "--dice", "10,4,9,1,1"),
        ("genesys", "roll", "--ability", "2", "--boost", "1", "--dice", "4,7,1"),
        ("onering", "roll", "3", "--favoured", "--target", "14", "--dice", "4,5,1,6,4"))}
    assert "· 10 4 9, hunger 1 1 → 2 succ. ·" in said["v5"]
    assert "· ability ss sa, boost blank → 3 succ. ·" in said["genesys"]
    assert "· feat (4) 5, 1 6 4 →" in said["onering"]  # the Feat die dropped, bracketed
    install("coc")  # no group: a bonus die's dropped tens die bracketed all the same
    coc = cli("coc", "roll", "--target", "55", "--bonus", "1", "--dice", "2,9,1", "--short")
    assert "· 2 (9) 1 → +12 ·" in coc.stdout


def test_a_missing_option_is_asked_for_by_its_help_word():
    install("coc")
    assert_usage_error(cli("coc", "roll", "--bonus", "1"), "--target: is needed; give it with "
                       "--target SKILL")


@pytest.mark.slow
@pytest.mark.process
def test_a_phone_shows_a_boxs_help_while_it_has_focus(tmp_path):
    # the help was only a title (a tooltip): a phone has no hover, so Hunger's box never
    # said what it takes; shown in the flow, it moved Roll away from a tap as it closed
    from conftest import ok
    from test_serve import serving
    from test_serve_browser import _wait
    from test_table_screens import _driver

    install("v5")
    ok("char", "new", "Xan", "--ruleset", "v5", "blood=3")
    token = ok("seat", "add", "ana", "--as", "xan").stdout.strip().rsplit("seat=", 1)[1]
    with serving(tmp=tmp_path) as server:
        phone = _driver(390, 844, phone=True)
        try:
            phone.get(f"{server.base}/?seat={token}")
            _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
            help_ = phone.find_element("css selector", '#params [data-param="hunger"] .help')
            assert not help_.is_displayed()
            roll = phone.find_element("css selector", "#roll-form button[type=submit]")
            before = roll.rect
            phone.find_element("css selector", '#params [data-param="hunger"] input').click()
            _wait(phone, lambda d: help_.is_displayed())
            assert roll.rect == before  # over what is below: a tap on Roll never misses
            assert help_.text == "How many of the dice are Hunger dice (0 to 1000)."
            size = phone.execute_script("return parseFloat(getComputedStyle(arguments[0]).fontSize)",
                                        help_)
            assert size >= 12
        finally:
            phone.quit()


def test_a_comparison_of_many_outcomes_fits_80_columns():
    # v5's six outcomes side by side were wider than 80 columns: each row broke in two
    install("v5")
    run = cli("v5", "odds", "6", "--hunger", "2", "--compare", "--hunger 4", "--compare", "-d 3",
              env={"COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), run.stdout
    row = next(line for line in lines if line.lstrip().startswith("with --hunger 4"))
    assert row.split()[3:9] == ["10.8%", "0.7%", "87.0%", "0.9%", "0.6%", "0.0%"]
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("as given")) - 2
    assert lines[head].split() == ["messy", "critical", "bestial", "total"]
    assert lines[head + 1].split() == ["choice", "critical", "win", "win", "failure", "failure",
                                       "failure"]


def test_a_custom_rolls_dice_are_not_all_green():
    # a v5 Failure showed every die in green, the color of a success everywhere else
    install("v5")
    run = cli("v5", "roll", "3", "--dice", "1,2,3", env={"FORCE_COLOR": "1", "COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    dice = next(line for line in run.stdout.splitlines() if "  dice \x1b" in line)
    assert "\x1b[" in run.stdout and "\x1b[32m" not in dice, repr(dice)


def test_savages_die_says_how_a_d8_is_typed():
    install("savage")
    assert "4, 6, 8, 10 or 12 (8 for a d8)." in page("savage", "roll")
    assert "Savage Worlds · 2 dice" in cli("savage", "roll", "8", "--dice", "3,2").stdout
