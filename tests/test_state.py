"""The table's state (CLI.md, "The table's state"): resources with maxima, relative
changes, Seyruun damage and wounds, the log by time, encounters."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, cli_one, make_character
from rpgdice.table import paths


def sheet_text(key: str) -> str:
    return (paths.characters_dir() / f"{key}.toml").read_text()


# Resources ---------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "given", "expect"), [
    ("seyruun", ["composure=3", "resolve=2"], {"willpower": {"value": 5, "max": 5}}),
    ("seyruun", ["willpower=4"], {"willpower": {"value": 4, "max": 4}}),
    ("cypher", ["might=10", "speed=8", "speed-max=12"],
     {"might": {"value": 10, "max": 10}, "speed": {"value": 8, "max": 12}}),
    ("crytures", ["stamina=6", "mana=3", "mana-max=5"],
     {"stamina": {"value": 6, "max": 6}, "mana": {"value": 3, "max": 5}}),
])
def test_a_new_sheets_resources_have_the_maximum_given_or_their_value(ruleset, given, expect):
    cli("char", "new", "Ann", "--ruleset", ruleset, *given)
    assert cli_one("char", "show", "ann")["resources"] == expect


def test_a_sheet_without_a_maximum_has_max_null():
    make_character("Ann", "cypher")
    (paths.characters_dir() / "ann.toml").write_text(
        'name = "Ann"\nruleset = "cypher"\n[traits]\nmight = 7\n')
    assert cli_one("char", "show", "ann")["resources"] == {"might": {"value": 7, "max": None}}
    assert cli("char", "set", "ann", "might+=500").exit_code == 0
    assert cli_one("char", "show", "ann")["resources"]["might"]["value"] == 507


def test_relative_changes_within_0_and_the_maximum():
    make_character("Cy", "cypher", might=10, intellect=6)
    assert cli("char", "set", "cy", "might-=3", "intellect-=1").exit_code == 0
    got = cli_one("char", "show", "cy")["resources"]
    assert (got["might"], got["intellect"]) == ({"value": 7, "max": 10}, {"value": 5, "max": 6})
    assert cli("char", "set", "cy", "might+=3").exit_code == 0
    assert cli_one("char", "show", "cy")["resources"]["might"]["value"] == 10


@pytest.mark.parametrize(("change", "fragment"), [
    ("might+=1", "more than its maximum 10"),
    ("might-=11", "below 0"),
    ("might-=x", "not a whole number"),
])
def test_a_change_past_the_bounds_exits_2_and_leaves_the_sheet(change, fragment):
    make_character("Cy", "cypher", might=10, speed=4)
    before = sheet_text("cy")
    assert_usage_error(cli("char", "set", "cy", "speed-=1", change), fragment)
    assert sheet_text("cy") == before


def test_a_relative_change_of_a_trait_the_sheet_lacks_starts_from_0():
    make_character("Ysolde", "seyruun", dexterity=3)
    assert cli("char", "set", "ysolde", "stealth+=2", "dexterity+=1").exit_code == 0
    traits = cli_one("char", "show", "ysolde")["traits"]
    assert (traits["stealth"], traits["dexterity"]) == (2, 4)


def test_a_relative_change_of_a_word_is_refused():
    make_character("Cy", "cypher", climbing="trained")
    assert_usage_error(cli("char", "set", "cy", "climbing+=1"), "not a number")


def test_char_new_refuses_a_relative_change():
    assert_usage_error(cli("char", "new", "Cy", "--ruleset", "cypher", "might+=1"), "char set")


def test_char_show_shows_value_of_max():
    make_character("Cy", "crytures", {"stamina": 6, "mana": 2, "mana-max": 4})
    run = cli("char", "show", "cy")
    assert run.exit_code == 0
    assert "6 of 6" in run.stdout and "2 of 4" in run.stdout
    assert "Mana-max" not in run.stdout
    make_character("Nix", "cypher", {"might": 10, "speed": 8, "speed-max": 12})
    cli("char", "set", "nix", "might-=3")
    run = cli("char", "show", "nix")
    assert "7 of 10" in run.stdout and "8 of 12" in run.stdout and "Speed-max" not in run.stdout


def test_char_rm_needs_yes():
    make_character("Cy", "crytures")
    assert_usage_error(cli("char", "rm", "cy"), "--yes")
    assert (paths.characters_dir() / "cy.toml").exists()
    assert cli("char", "rm", "cy", "--yes").exit_code == 0
    assert not (paths.characters_dir() / "cy.toml").exists()


# Seyruun damage ----------------------------------------------------------------

HIT_3 = "6,2,2,2,2,2,6,6,6,2,2"
"""Attack 3+3 (one success, no defense), damage 5: three successes, 3 dealt."""


def attack(*more: str, dice: str = HIT_3):
    return cli("seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul", "--dice", dice,
               *more)


@pytest.fixture
def ghoul():
    make_character("Ghoul", "seyruun", wits=2, dexterity=2, composure=2, resolve=2)


def test_an_attack_writes_its_damage_and_the_wound_follows(ghoul):
    run = attack()
    assert run.exit_code == 0
    assert "Ghoul: +3 damage → 3/7, moderately wounded (−2)" in run.stdout
    got = cli_one("char", "show", "ghoul")["traits"]
    assert (got["damage"], got["wound"]) == (3, "moderate")
    again = attack("--json")
    assert again.exit_code == 0
    data = __import__("json").loads(again.stdout)
    assert (data["vs_damage"], data["vs_wound"]) == (6, "severe")
    # What this attack dealt, then where it leaves the target: never read as a total.
    assert "Ghoul: +3 damage → 7/7, crippled (−5)" in attack().stdout  # 6 + 3, at most 7
    got = cli_one("char", "show", "ghoul")["traits"]
    assert (got["damage"], got["wound"]) == (7, "crippled")  # at most health


def test_the_damage_line_reads_as_dealt_in_the_roll_and_the_log_and_a_replay_hurts_no_one(ghoul):
    import json

    cli("char", "set", "ghoul", "damage=5")
    run = attack("--log")
    line = "Ghoul: +3 damage → 7/7, crippled (−5)"
    assert line in run.stdout and "5 damage" not in run.stdout
    assert line in cli("log", "show", "1").stdout  # as it was rolled
    replay = cli("log", "show", "1", "--replay")
    assert replay.exit_code == 0, replay.stderr
    assert "Ghoul: +3 damage, replayed: not hurt again" in replay.stdout
    assert "→" not in replay.stdout.splitlines()[-1]
    assert cli_one("char", "show", "ghoul")["traits"]["damage"] == 7
    # The log keeps every key the live --json printed, the target's side included.
    live = json.loads(attack("--json", "--log").stdout)
    stored = json.loads(cli("log", "--json", "--last", "1").stdout)["results"][0]
    assert stored == live and stored["vs"] == "Ghoul" and stored["vs_damage"] == 7
    assert cli("log", "show", "2", "--replay").exit_code == 0


def test_the_log_keeps_the_defenders_willpower_and_the_attackers_spent(ghoul):
    import json

    cli("char", "set", "ghoul", "willpower=3")
    make_character("Ysolde", "seyruun", strength=3, brawl=3, willpower=2)
    argv = ("seyruun", "attack", "strength+brawl", "--as", "ysolde", "--attacker-willpower",
            "--defense", "2+2", "--defender-willpower", "--vs", "ghoul", "--damage", "3",
            "--seed", "7")
    live = json.loads(cli(*argv, "--json", "--log").stdout)
    stored = json.loads(cli("log", "--json", "--last", "1").stdout)["results"][0]
    for key in ("vs", "vs_damage", "vs_wound", "vs_spent", "vs_left", "spent", "left",
                "character"):
        assert stored[key] == live[key], key
    assert stored == live


def test_each_repetition_adds_its_damage(ghoul):
    import json

    run = attack("-n", "2", "--json", dice=HIT_3 + "," + HIT_3)
    assert [json.loads(x)["vs_damage"] for x in run.stdout.splitlines()] == [3, 6]
    assert cli_one("char", "show", "ghoul")["traits"]["damage"] == 6


def test_the_next_roll_carries_the_wound(ghoul):
    attack()
    run = cli("seyruun", "roll", "3", "--as", "ghoul", "--dice", "6", "--json")
    assert __import__("json").loads(run.stdout)["pool"] == 1  # 3 − 2 (moderate)


def test_healing_lowers_damage_and_wound_and_a_hand_set_wound_holds(ghoul):
    attack()
    assert cli("char", "set", "ghoul", "damage-=2").exit_code == 0
    got = cli_one("char", "show", "ghoul")["traits"]
    assert (got["damage"], got["wound"]) == (1, "light")
    assert cli("char", "set", "ghoul", "wound=severe").exit_code == 0
    assert cli_one("char", "show", "ghoul")["traits"]["wound"] == "severe"
    assert cli("char", "set", "ghoul", "damage-=1").exit_code == 0
    assert cli_one("char", "show", "ghoul")["traits"]["wound"] == "none"


def test_a_new_sheet_with_damage_takes_its_wound_from_the_track():
    make_character("hurt", "seyruun", damage=5)
    assert cli_one("char", "show", "hurt")["traits"]["wound"] == "severe"
    make_character("held", "seyruun", damage=5, wound="light")
    assert cli_one("char", "show", "held")["traits"]["wound"] == "light"


def test_damage_stays_within_0_and_health(ghoul):
    before = sheet_text("ghoul")
    assert_usage_error(cli("char", "set", "ghoul", "damage+=8"), "maximum 7")
    assert_usage_error(cli("char", "set", "ghoul", "damage-=1"), "below 0")
    assert sheet_text("ghoul") == before
    assert cli("char", "set", "ghoul", "health=5", "damage+=5").exit_code == 0
    assert cli_one("char", "show", "ghoul")["traits"]["wound"] == "crippled"


def test_a_replay_writes_nothing(ghoul):
    assert attack("--log").exit_code == 0
    after = sheet_text("ghoul")
    assert "damage = 3" in after
    assert cli("log", "show", "1").exit_code == 0
    assert cli("log", "show", "1", "--replay").exit_code in (0, 1)
    assert sheet_text("ghoul") == after


def test_an_attack_that_fails_writes_no_damage(ghoul):
    before = sheet_text("ghoul")
    assert_usage_error(attack(dice="6,2"), "--dice")
    assert sheet_text("ghoul") == before


# Encounters --------------------------------------------------------------------

import json  # noqa: E402


def encounter_file():
    return paths.config_dir() / "encounter.toml"


@pytest.fixture
def fight():
    """Ysolde (a character, wits 3 dexterity 3) against Ghoul=2+2 and Thug=2+1 (extras):
    Ysolde 6 dice, 2 successes; Ghoul 4 dice, 1; Thug 3 dice, 0."""
    make_character("Ysolde", "seyruun", wits=3, dexterity=3, composure=3, resolve=2)
    run = cli("encounter", "start", "ysolde", "Ghoul=2+2", "Thug=2+1", "--json", "--dice",
              "8,9,2,2,2,2," "8,2,2,2," "2,2,2")
    assert run.exit_code == 0, run.stderr
    return json.loads(run.stdout)


def test_encounter_start_keeps_the_initiative_order(fight):
    assert fight["round"] == 1 and fight["turn"] == 0 and fight["current"] == "Ysolde"
    assert [(s["name"], s["rank"], s["character"]) for s in fight["order"]] == [
        ("Ysolde", 1, True), ("Ghoul", 2, False), ("Thug", 3, False)]
    assert fight["order"][0] == {"name": "Ysolde", "rank": 1, "character": True, "wound": "none",
                                 "damage": 0, "health": 7, "willpower": 5, "extra": False,
                                 "initiative": 2, "state": "none", "pools": None, "out": False,
                                     "conditions": []}
    assert fight["order"][1]["willpower"] is None and fight["order"][1]["health"] == 7
    assert encounter_file().is_file()
    assert json.loads(cli("encounter", "--json").stdout) == fight


def test_a_new_encounter_over_a_running_one_says_it_replaced_it(fight):
    first = cli("encounter", "start", "ysolde", "Bandit=1+1", "--seed", "3")
    assert first.exit_code == 0
    assert first.stderr.count("\n") == 1
    assert "encounter that was running (round 1: 'Ysolde', 'Ghoul', 'Thug') was replaced" in (
        first.stderr)
    assert cli("encounter", "end").exit_code == 0
    again = cli("encounter", "start", "ysolde", "Bandit=1+1", "--seed", "3")
    assert again.exit_code == 0 and again.stderr == ""


def test_an_extra_named_as_a_saved_character_is_warned_of(fight):
    run = cli("encounter", "start", "Ysolde=2+2", "Thug=2+1", "--seed", "3")
    assert run.exit_code == 0
    assert "the extra 'Ysolde' has the name of a saved character" in run.stderr
    assert "'Thug'" not in run.stderr.split("replaced")[-1]


def test_encounter_next_moves_the_turn_and_a_new_round_after_the_last(fight):
    got = [json.loads(cli("encounter", "next", "--json").stdout) for _ in range(3)]
    assert [(g["round"], g["turn"], g["current"]) for g in got] == [
        (1, 1, "Ghoul"), (1, 2, "Thug"), (2, 0, "Ysolde")]
    view = cli("encounter")
    assert view.exit_code == 0 and "round 2" in view.stdout and "▶" in view.stdout


def test_attack_vs_an_extra_keeps_its_damage_in_the_encounter(fight):
    run = cli("seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul", "--dice", HIT_3,
              "--json")
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["vs"], data["vs_damage"], data["vs_wound"]) == ("Ghoul", 3, "moderate")
    ghoul = json.loads(cli("encounter", "--json").stdout)["order"][1]
    assert (ghoul["damage"], ghoul["wound"]) == (3, "moderate")
    assert not (paths.characters_dir() / "ghoul.toml").exists()


def test_a_character_of_the_encounter_is_hurt_on_its_sheet(fight):
    assert cli("seyruun", "attack", "3+3", "--damage", "5", "--vs", "ysolde", "--dice",
               HIT_3).exit_code == 0
    ysolde = json.loads(cli("encounter", "--json").stdout)["order"][0]
    assert (ysolde["damage"], ysolde["wound"]) == (3, "moderate")
    assert cli_one("char", "show", "ysolde")["traits"]["damage"] == 3


def test_encounter_end_and_no_encounter(fight):
    assert cli("encounter", "end").exit_code == 0
    assert not encounter_file().exists()
    for args in (["encounter"], ["encounter", "next"], ["encounter", "end"]):
        assert_usage_error(cli(*args), "no encounter")


@pytest.mark.parametrize("text", ["round = 1\nturn = 5\n[[order]]\nname = 'A'\nrank = 1\n",
                                  "round = 'x'", "round = [", "[[order]]\nname = 3\n"])
def test_a_broken_encounter_file_is_one_error_naming_it(fight, text):
    encounter_file().write_text(text)
    for args in (["encounter"], ["encounter", "next"]):
        run = cli(*args)
        assert_usage_error(run, "encounter.toml")
    assert encounter_file().read_text() == text


def test_an_extra_has_no_willpower_to_pay(fight):
    assert_usage_error(cli("seyruun", "attack", "3", "--vs", "ghoul", "--defense", "2+2",
                           "--defender-willpower", "--seed", "1"), "--defender-willpower")


# Willpower in an extended roll, paid roll by roll; RPGDICE_AS naming nobody ------------


def test_an_extended_roll_pays_willpower_roll_by_roll_while_the_sheet_has_it():
    make_character("Ysolde", "seyruun", composure=2, resolve=2, willpower=2)
    # 1+1 = 2 dice, +3 with Willpower: rolls 1-2 have 5 dice, rolls 3-4 have 2.
    faces = ",".join(["2"] * 5 + ["2"] * 5 + ["2"] * 2 + ["2"] * 2)
    run = cli("seyruun", "extended", "1", "1", "--target", "5", "--max-rolls", "4", "--willpower",
              "--as", "ysolde", "--dice", faces, "--json", "--log")
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    assert [r["pool"] for r in data["rolls"]] == [5, 5, 2, 2]
    assert (data["willpower_spent"], data["willpower_until"]) == (2, 2)
    assert (data["spent"], data["left"]) == ({"willpower": 2}, {"willpower": 0})
    assert cli_one("char", "show", "ysolde")["willpower"] == 0
    view = cli("log", "show", "1", "--replay")
    assert view.exit_code == 0, view.stdout + view.stderr  # replays with what it spent
    assert "Willpower ran out after roll 2" in view.stdout


def test_an_extended_roll_without_a_character_has_willpower_every_roll():
    run = cli("seyruun", "extended", "1", "1", "--target", "5", "--max-rolls", "2",
              "--willpower", "--dice", ",".join(["2"] * 10), "--json")
    data = json.loads(run.stdout)
    assert [r["pool"] for r in data["rolls"]] == [5, 5]
    assert (data["willpower_spent"], data["willpower_until"]) == (2, 2)


@pytest.mark.parametrize("name", ["nobody", "a/b"])
def test_rpgdice_as_naming_nobody_warns_and_rolls(name):
    run = cli("seyruun", "roll", "3", "--dice", "2,2", "--json", env={"RPGDICE_AS": name})
    assert run.exit_code == 0
    assert "character" not in json.loads(run.stdout)
    assert run.stderr.count("\n") == 1 and "warning: RPGDICE_AS" in run.stderr


def test_as_naming_nobody_on_the_command_line_is_still_an_error():
    assert_usage_error(cli("seyruun", "roll", "3", "--as", "nobody", "--dice", "2,2"), "--as")


def test_encounter_start_is_logged_like_a_roll(fight):
    run = cli("encounter", "start", "A=2+2", "B=1+1", "--seed", "5", "--log", "--json")
    assert run.exit_code == 0
    (entry,) = [json.loads(x) for x in cli("log", "--json").stdout.splitlines()]
    assert (entry["ruleset"], entry["command"], entry["seed"]) == ("seyruun", "initiative", 5)
    assert entry["argv"][:2] == ["encounter", "start"]


def test_an_extras_wound_is_the_encounters(fight):
    cli("seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul", "--dice", HIT_3)
    run = cli("seyruun", "attack", "3", "--vs", "ghoul", "--defense", "2+2", "--seed", "1")
    assert "moderate (the encounter's)" in run.stdout


@pytest.mark.slow
@pytest.mark.process
def test_attacks_and_willpower_spends_at_once_lose_neither():
    """Six attacks on Ghoul's sheet (1 damage each) and six Willpower rolls by Ghoul, all at
    once: every damage and every point spent is in the sheet."""
    import os
    import subprocess
    import sys

    make_character("Ghoul", "seyruun", composure=5, resolve=5, health=20)
    env = {**os.environ, "RPGDICE_LOG": "never"}
    attack = [sys.executable, "-m", "rpgdice", "seyruun", "attack", "2+1", "--damage", "1", "--vs",
              "ghoul", "--dice", "8,2,2,8"]
    spend = [sys.executable, "-m", "rpgdice", "seyruun", "roll", "1", "--willpower", "--as",
             "ghoul", "--seed", "1"]
    procs = [subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for _ in range(6) for argv in (attack, spend)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 12, [p.stderr.read() for p in procs]
    traits = cli_one("char", "show", "ghoul")["traits"]
    assert (traits["damage"], traits["willpower"]) == (6, 4)


# Writing a sheet's changed values in place --------------------------------------------

SHEET = """# Ghoul, by hand
name = "Ghoul"
ruleset = "seyruun"

[traits]
wits = 2        # sharp
dexterity = 2
willpower = 5   # spent at the table
composure = 3
resolve = 2

[notes]
lair = "the crypt"
"""


def test_a_spend_and_a_hit_change_only_their_values_every_other_byte_kept():
    path = paths.characters_dir() / "ghoul.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SHEET)
    assert cli("seyruun", "roll", "2", "--willpower", "--as", "ghoul", "--dice",
               ",".join(["2"] * 4)).exit_code == 0
    assert path.read_text() == SHEET.replace("willpower = 5   #", "willpower = 4   #")
    assert attack().exit_code == 0
    assert path.read_text() == SHEET.replace("willpower = 5   #", "willpower = 4   #").replace(
        "resolve = 2\n", 'resolve = 2\ndamage = 3\nwound = "moderate"\n')
    assert cli_one("char", "show", "ghoul")["traits"]["damage"] == 3


@pytest.mark.parametrize("text", [
    'name = "Ghoul"\nruleset = "seyruun"\ntraits = { willpower = 5, composure = 3, resolve = 2 }\n',
    'name = "Ghoul"\nruleset = "seyruun"\n[traits]\n"willpower" = 5\ncomposure = 3\nresolve = 2\n',
    'name = "Ghoul"\nruleset = "seyruun"\n[traits]\nwillpower = 0x5\ncomposure = 3\nresolve = 2\n',
])
def test_a_sheet_laid_out_otherwise_is_still_written_right(text):
    path = paths.characters_dir() / "ghoul.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    assert cli("seyruun", "roll", "2", "--willpower", "--as", "ghoul", "--dice",
               ",".join(["2"] * 4)).exit_code == 0
    assert cli_one("char", "show", "ghoul")["willpower"] == 4


@pytest.mark.slow
@pytest.mark.process
def test_an_attack_on_a_sheet_in_its_usual_layout_loads_no_tomlkit():
    from test_startup import _modules_after

    path = paths.characters_dir() / "ghoul.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SHEET)
    out, modules = _modules_after(["seyruun", "attack", "3+3", "--damage", "5", "--vs", "ghoul",
                                   "--dice", HIT_3, "--json"])
    assert json.loads(out)["vs_damage"] == 3 and "damage = 3" in path.read_text()
    assert "tomlkit" not in modules


# Invariants --------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.integers(1, 60), st.data())
def test_the_wound_follows_the_boxes_filled(health, data):
    from rpgdice.rulesets.seyruun.rules import WOUNDS, wound_for

    levels = ["none", *WOUNDS]
    damage = data.draw(st.integers(0, health - 1))
    now, more = wound_for(damage, health), wound_for(damage + 1, health)
    assert levels.index(now) <= levels.index(more)  # more damage, never a lighter wound
    assert wound_for(0, health) == "none" and wound_for(health, health) == "crippled"
    assert (now == "none") == (damage * 7 < health)  # the first box of k = 1: ceil(health / 7)


@pytest.mark.slow
@pytest.mark.process
def test_encounter_next_at_once_loses_no_turn(fight):
    """Seven `encounter next` at once over three sides: round 3, the second side's turn."""
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-m", "rpgdice", "encounter", "next", "--json"]
    procs = [subprocess.Popen(argv, env=dict(os.environ), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for _ in range(7)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 7
    got = json.loads(cli("encounter", "--json").stdout)
    assert (got["round"], got["turn"], got["current"]) == (3, 1, "Ghoul")


def test_encounter_start_replays_from_the_log_and_writes_nothing(fight):
    assert cli("encounter", "start", "A=2+2", "B=1+1", "--seed", "5", "--log").exit_code == 0
    cli("encounter", "next")
    before = encounter_file().read_text()
    run = cli("log", "show", "1", "--replay")
    assert run.exit_code == 0, run.stderr
    assert encounter_file().read_text() == before
