"""Your table: `rpgdice paths`, character sheets, rolling by trait name with --as,
paying from the sheet, aliases, and safe writes. Every test runs in its own
temporary RPGDICE_HOME (conftest), never the developer's files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import (
    assert_usage_error,
    character,
    cli,
    cli_one,
    hand_sheet,
    home,
    make_character,
    ok,
    proc,
    sheet_file,
)
from rpgdice.render.output import one_line


def shown(name: str) -> dict:
    return json.loads(ok("char", "show", name, "--json").stdout)


@pytest.fixture
def ysolde():
    # The table's Ysolde, with a skill of two words, one rated 0 and another Attribute.
    return character("Ysolde", {"Armas de Fuego": 2}, occult=0, wits=2)


@pytest.fixture
def thureck():
    return character("Thureck")


@pytest.fixture
def nix():
    return character("Nix")


# ------------------------------------------------------------------- paths ---

def test_paths_with_rpgdice_home_name_its_files_and_create_nothing():
    out = ok("paths", "--json").json()[0]
    assert out["config"] == str(home() / "config.toml")
    assert out["characters"] == str(home() / "characters")
    assert Path(out["log"]).parent == home()
    assert list(home().iterdir()) == []
    text = ok("paths").stdout
    assert str(home() / "config.toml") in text and str(home() / "characters") in text


def test_paths_without_rpgdice_home_follow_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("RPGDICE_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    if sys.platform != "linux":
        pytest.skip("XDG places are Linux's")
    out = ok("paths", "--json").json()[0]
    assert out["config"] == str(tmp_path / "cfg" / "rpgdice" / "config.toml")
    assert out["characters"] == str(tmp_path / "cfg" / "rpgdice" / "characters")
    assert Path(out["log"]).parent == tmp_path / "state" / "rpgdice"
    assert out["home"] is None
    assert not (tmp_path / "cfg").exists() and not (tmp_path / "state").exists()


# ------------------------------------------------------------------ sheets ---

def test_char_new_show_list_rm(ysolde):
    assert ysolde.is_file()
    data = shown("ysolde")
    assert data["name"] == "Ysolde" and data["ruleset"] == "seyruun"
    assert data["traits"]["dexterity"] == 3
    assert data["traits"]["armas-de-fuego"] == 2  # folded trait names
    # A new Seyruun sheet starts with Willpower at composure + resolve.
    assert data["willpower"] == data["willpower_max"] == 5
    assert shown("YSOLDE") == data  # names match like named levels
    listed = ok("char", "list", "--json").json()
    assert [(c["name"], c["ruleset"]) for c in listed] == [("Ysolde", "seyruun")]
    assert "Ysolde" in ok("char", "list").stdout
    view = ok("char", "show", "ysolde").stdout
    for word in ("Ysolde", "Dexterity", "Stealth", "Willpower", "●●●", "5 of 5", "Wound"):
        assert word in view, word
    ok("char", "rm", "ysolde", "--yes")
    assert not ysolde.exists()
    assert ok("char", "list", "--json").stdout == ""


def test_char_rm_deletes_only_with_yes(ysolde):
    before = ysolde.read_bytes()
    run = cli("char", "rm", "ysolde")
    # the sheet's path as the line shows it (a long temporary path is cut, as a word is)
    assert_usage_error(run, "--yes", "nothing was deleted", "add --yes", one_line(f"({ysolde});"))
    assert ysolde.read_bytes() == before
    # A name with no sheet says so, --yes or not.
    assert_usage_error(cli("char", "rm", "ghost"), "ghost")
    assert_usage_error(cli("char", "rm", "ghost", "--yes"), "ghost")
    assert ok("char", "rm", "YSOLDE", "--yes").stdout == f"removed Ysolde: {ysolde}\n"
    assert not ysolde.exists()


def test_char_show_cypher_pools_and_edge(nix):
    view = ok("char", "show", "nix").stdout
    for word in ("Pools", "Might", "Edge", "Effort 2", "Climbing", "trained", "inability"):
        assert word in view, word
    data = shown("nix")
    assert data["traits"]["might-edge"] == 1 and data["traits"]["climbing"] == "trained"
    assert "willpower" not in data


def test_char_show_leaves_out_nothing_the_sheet_holds():
    # Cypher's tier, armor, initiative and recoveries; Crytures' and Reglas' initiative
    # (reserved traits, no rated trait's dots): each shown with its value
    character("Nix", tier=3, armor=2, initiative="1d20+1", recoveries=1)
    view = " ".join(ok("char", "show", "nix").stdout.split())
    for said in ("Tier 3", "Armor 2", "Initiative 1d20+1", "recoveries used today 1 of 4",
                 "Effort 2"):
        assert said in view, (said, view)
    make_character("Brakka", "crytures", brawn=3, stamina=4, initiative=7)
    view = ok("char", "show", "brakka").stdout
    assert any(line.split()[1:3] == ["Initiative", "7"] for line in view.splitlines()
               if len(line.split()) > 2), view
    make_character("Thureck", "reglas", destreza=4, initiative="1d10")
    assert "Initiative  1d10" in ok("char", "show", "thureck").stdout
    make_character("Bo", "cypher", might=5)  # a sheet without them: none of them shown
    view = ok("char", "show", "bo").stdout
    assert "Tier" not in view and "Armor" not in view and "recoveries" not in view


def test_char_new_refuses_a_name_taken_and_leaves_the_sheet(ysolde):
    before = ysolde.read_bytes()
    assert_usage_error(cli("char", "new", "ysolde", "--ruleset", "reglas"), "NAME", "taken")
    # Two names that match share one file: 'Ana Lu' and 'ana_lu' are one character.
    ok("char", "new", "Ana Lu", "--ruleset", "crytures", "talent=3")
    assert sheet_file("ana-lu").is_file()
    assert_usage_error(cli("char", "new", "ana_lu", "--ruleset", "crytures"), "taken")
    assert_usage_error(cli("char", "new", "AnaLu", "--ruleset", "crytures"), "taken")
    assert shown("analu")["name"] == "Ana Lu"
    assert ysolde.read_bytes() == before


@pytest.mark.parametrize("args,fragment", [
    (["char", "new", "a/b", "--ruleset", "seyruun"], "NAME"),
    (["char", "new", "x" * 41, "--ruleset", "seyruun"], "NAME"),
    (["char", "new", "Zed", "--ruleset", "dnd"], "--ruleset"),
    (["char", "new", "Zed", "--ruleset", "seyruun", "dexterity"], "TRAIT=VALUE"),
    (["char", "new", "Zed", "--ruleset", "seyruun", "dexterity=three"], "dexterity"),
    (["char", "new", "Zed", "--ruleset", "seyruun", "wound=mortal"], "wound"),
    (["char", "new", "Zed", "--ruleset", "seyruun", "3d=2"], "TRAIT"),
    (["char", "new", "Zed", "--ruleset", "cypher", "climbing=expert"], "climbing"),
    (["char", "show", "nobody"], "no character"),
])
def test_char_usage_errors(args, fragment):
    assert_usage_error(cli(*args), fragment)
    assert not sheet_file("zed").exists()


def test_char_set_changes_traits_and_keeps_comments_and_unknown_keys(ysolde):
    text = ysolde.read_text(encoding="utf-8")
    text = text.replace('name = "Ysolde"', 'name = "Ysolde"\nplayer = "Ana"  # who plays her')
    text += "\n[notes]\nbackground = \"a thief of Vhal\"\n"
    text = text.replace("stealth = 3", "stealth = 3 # +1 from the boots, not counted")
    ysolde.write_text(text, encoding="utf-8")
    ok("char", "set", "ysolde", "wound=Light", "willpower=2", "occult=-", "Larceny=2")
    after = ysolde.read_text(encoding="utf-8")
    assert 'player = "Ana"  # who plays her' in after
    assert "# +1 from the boots, not counted" in after
    assert 'background = "a thief of Vhal"' in after
    data = shown("ysolde")
    assert data["traits"]["wound"] == "light" and data["willpower"] == 2
    assert "occult" not in data["traits"] and data["traits"]["larceny"] == 2
    assert_usage_error(cli("char", "set", "ysolde", "willpower=9"), "maximum 5")
    assert shown("ysolde")["willpower"] == 2


# -------------------------------------------------------------- broken file ---

BROKEN = 'name = "Bad"\nruleset = "seyruun"\n\n[traits]\ndexterity = 3\nstealth 3\n'


@pytest.mark.parametrize("args", [
    ["char", "show", "bad"],
    ["char", "set", "bad", "stealth=2"],
    ["char", "rm", "bad"],
    ["seyruun", "roll", "dexterity", "--as", "bad", "--willpower"],
])
def test_a_sheet_broken_by_hand_is_reported_and_left_as_it_was(args):
    path = sheet_file("bad")
    path.parent.mkdir(parents=True)
    path.write_bytes(BROKEN.encode())
    assert_usage_error(cli(*args), str(path), "line 6, column 9")
    assert path.read_bytes() == BROKEN.encode()


def test_a_sheet_with_a_wrong_value_is_reported_and_char_list_warns():
    path = sheet_file("odd")
    path.parent.mkdir(parents=True)
    data = b'name = "Odd"\nruleset = "seyruun"\n[traits]\ndexterity = "lots"\n'
    path.write_bytes(data)
    assert_usage_error(cli("char", "show", "odd"), str(path), "dexterity")
    run = cli("char", "list")
    assert run.exit_code == 0 and run.stderr.startswith("rpgdice: warning: ") and str(path) in run.stderr
    assert path.read_bytes() == data


# ----------------------------------------------------------- rolling by name ---

def test_seyruun_roll_by_trait_names(ysolde):
    by_name = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "5", "--json").json()[0]
    by_number = cli("seyruun", "roll", "3", "3", "--seed", "5", "--json").json()[0]
    assert by_name["character"] == "Ysolde"
    assert "spent" not in by_name  # nothing paid
    assert {k: v for k, v in by_name.items() if k != "character"} == by_number
    view = ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "5").stdout
    assert "Dexterity 3 + Stealth 3" in view and "Ysolde" in view


def test_names_match_ignoring_case_accents_spaces_and_hyphens(ysolde):
    for spelling in ("armas-de-fuego", "ARMAS_DE_FUEGO", "ármas de fuego"):
        r = cli("seyruun", "roll", "wits", spelling, "--as", "ysolde", "--json", "--seed", "1").json()[0]
        assert (r["attribute"], r["skill"]) == (2, 2)


def test_a_skill_rated_0_is_untrained(ysolde):
    r = cli("seyruun", "roll", "dexterity", "occult", "--as", "ysolde", "--json", "--seed", "1").json()[0]
    assert r["untrained"] is True and r["pool_total"] == 3 - 1


def test_a_missing_trait_names_the_closest(ysolde):
    assert_usage_error(cli("seyruun", "roll", "dexterty", "--as", "ysolde"),
                       "'dexterty'", "closest is 'dexterity'")


def test_reglas_index_sums_traits_and_numbers(thureck):
    r = cli("reglas", "roll", "destreza+armas-de-fuego+2", "--as", "thureck", "--json",
            "--dice", "3").json()[0]
    assert r["index"] == 4 + 3 + 2 and r["result"] == 9 - 3
    assert r["character"] == "Thureck"
    view = ok("reglas", "roll", "destreza+armas-de-fuego", "--as", "thureck", "--dice", "3").stdout
    assert "Destreza 4 + Armas-de-fuego 3" in view


def test_longest_leading_trait_then_subtractions_in_a_contest_side(ysolde):
    # 'armas-de-fuego-1' is no trait: the trait armas-de-fuego, then −1 (a penalty).
    r = cli("seyruun", "contest", "dexterity+armas-de-fuego-1", "2+2", "--as", "ysolde",
            "--json", "--seed", "3").json()[0]
    att = r["attacker"]
    assert (att["attribute"], att["skill"], att["penalty"]) == (3, 2, 1)


def test_the_sheet_wound_applies_unless_wound_is_given(ysolde):
    ok("char", "set", "ysolde", "wound=moderate")
    sheet = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--json", "--seed", "1").json()[0]
    given = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--wound", "light",
                "--json", "--seed", "1").json()[0]
    plain = cli("seyruun", "roll", "3", "3", "--json", "--seed", "1").json()[0]
    assert (sheet["penalty"], given["penalty"], plain["penalty"]) == (2, 1, 0)
    contest = cli("seyruun", "contest", "dexterity+stealth", "2+2", "--as", "ysolde", "--json",
                  "--seed", "1").json()[0]
    assert contest["attacker"]["penalty"] == 2 and contest["defender"]["penalty"] == 0


@pytest.mark.parametrize("command", ["roll", "odds", "extended", "team"])
def test_wound_none_overrides_the_sheets_wound_in_every_command_that_takes_wound(ysolde, command):
    ok("char", "set", "ysolde", "wound=severe")
    more = {"extended": ["--target", "3"], "team": ["--assists", "2"], "odds": []}.get(command, [])
    seed = [] if command == "odds" else ["--seed", "1"]

    def run(*args: str) -> list[dict]:
        done = cli("seyruun", command, *args, *more, *seed, "--json")
        assert done.exit_code == 0, done.stderr
        return [{k: v for k, v in o.items() if k not in ("character", "spent", "left")}
                for o in done.json()]

    sheets = run("dexterity", "stealth", "--as", "ysolde")
    none = run("dexterity", "stealth", "--as", "ysolde", "--wound", "none")
    plain = run("3", "3")  # Ysolde's dexterity and stealth, no wound
    assert none == plain == run("3", "3", "--wound", "none")
    assert sheets != plain


def test_wound_none_rolls_the_whole_pool_and_is_shown_and_completed(ysolde):
    ok("char", "set", "ysolde", "wound=moderate")
    r = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--wound", "none",
            "--json", "--seed", "1").json()[0]
    assert r["penalty"] == 0 and r["pool_total"] == 6
    view = ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--wound", "none",
              "--seed", "1").stdout
    assert "(the sheet's)" not in view
    assert cli("seyruun", "roll", "3", "3", "--wound", "none", "--json", "--seed", "1").json()[0]["penalty"] == 0
    assert "none overrides" in " ".join(ok("seyruun", "roll", "--help").stdout.split())


def test_odds_read_traits_and_spend_nothing(ysolde):
    before = ysolde.read_bytes()
    odds = cli("seyruun", "odds", "dexterity", "stealth", "--willpower", "--as", "ysolde", "--json").json()[0]
    plain = cli("seyruun", "odds", "3", "3", "--willpower", "--json").json()[0]
    assert odds["character"] == "Ysolde"
    assert odds["outcomes"] == plain["outcomes"]
    assert ysolde.read_bytes() == before


def test_as_another_rulesets_character_is_a_usage_error_and_the_variable_is_ignored(ysolde, thureck):
    assert_usage_error(cli("reglas", "roll", "5", "--as", "ysolde"), "--as", "seyruun")
    # RPGDICE_AS applies only to its character's ruleset.
    env = {"RPGDICE_AS": "ysolde"}
    r = cli("reglas", "roll", "5", "--json", "--dice", "3", env=env).json()[0]
    assert "character" not in r and r["index"] == 5
    r = cli("seyruun", "roll", "dexterity", "--json", "--seed", "2", env=env).json()[0]
    assert r["character"] == "Ysolde" and r["attribute"] == 3


def test_trait_names_without_as_are_an_error():
    assert_usage_error(cli("seyruun", "roll", "dexterity"), "ATTRIBUTE")


# ------------------------------------------------------------------ paying ---

def test_willpower_is_paid_from_the_sheet(ysolde):
    r = cli("seyruun", "roll", "dexterity", "stealth", "--willpower", "--as", "ysolde", "--json",
            "--seed", "4").json()[0]
    assert r["willpower_spent"] == 1
    assert r["spent"] == {"willpower": 1} and r["left"] == {"willpower": 4}
    assert shown("ysolde")["willpower"] == 4


def test_a_reroll_is_paid_only_when_it_happens(ysolde):
    # A success is not re-rolled: nothing spent.
    r = cli("seyruun", "roll", "dexterity", "stealth", "--reroll", "--as", "ysolde", "--json",
            "--dice", "9,2,2,2,2,2").json()[0]
    assert r["spent"] == {"willpower": 0} and r["left"] == {"willpower": 5}
    # A failure is: 1 Willpower.
    r = cli("seyruun", "roll", "dexterity", "stealth", "--reroll", "--as", "ysolde", "--json",
            "--dice", "2,2,2,2,2,2,9,2,2,2,2,2").json()[0]
    assert r["spent"] == {"willpower": 1} and r["left"] == {"willpower": 4}
    assert shown("ysolde")["willpower"] == 4


def test_repetitions_pay_for_each_or_roll_nothing(ysolde):
    runs = cli("seyruun", "roll", "dexterity", "--willpower", "-n", "3", "--as", "ysolde",
               "--json", "--seed", "1").json()
    assert [r["left"]["willpower"] for r in runs] == [4, 3, 2]
    assert shown("ysolde")["willpower"] == 2
    before = sheet_file("ysolde").read_bytes()
    run = cli("seyruun", "roll", "dexterity", "--willpower", "-n", "3", "--as", "ysolde", "--json")
    assert_usage_error(run, "--as", "2 Willpower", "may cost 3")
    assert sheet_file("ysolde").read_bytes() == before


@pytest.mark.slow
@pytest.mark.process
def test_a_roll_that_cannot_pay_the_worst_case_prints_nothing(ysolde):
    ok("char", "set", "ysolde", "willpower=1")
    before = ysolde.read_bytes()
    # (An extended roll's --willpower is paid roll by roll, so it starts: test_state.py.)
    for args in (["seyruun", "roll", "dexterity", "--willpower", "--reroll"],):
        run = proc(*args, "--as", "ysolde", env={"RPGDICE_HOME": str(home())})
        assert_usage_error(run, "1 Willpower", "may cost 2")
        assert ysolde.read_bytes() == before
    # The command line form: still nothing on stdout.
    assert_usage_error(cli("seyruun", "roll", "dexterity", "--willpower", "--reroll", "--as", "ysolde"),
                       "nothing was rolled")


def test_extended_and_team_pay_what_they_spent(ysolde):
    r = cli("seyruun", "extended", "dexterity", "stealth", "--target", "2", "--willpower", "--as",
            "ysolde", "--max-rolls", "3", "--json", "--dice", "9,9,2,2,2,2,2,2,2").json()[0]
    assert r["spent"] == {"willpower": 1} and shown("ysolde")["willpower"] == 4
    r = cli("seyruun", "team", "dexterity", "stealth", "--assists", "1", "--willpower", "--as",
            "ysolde", "--json", "--seed", "2").json()[0]
    assert r["spent"] == {"willpower": 1} and shown("ysolde")["willpower"] == 3
    # --willpower in an extended roll is paid roll by roll while the sheet has it (3 here,
    # and up to 10 rolls): it starts, and pays what it spent.
    r = cli("seyruun", "extended", "dexterity", "--target", "30", "--willpower", "--as", "ysolde",
            "--json", "--seed", "5").json()[0]
    assert r["spent"] == {"willpower": r["willpower_spent"]} and 1 <= r["willpower_spent"] <= 3
    assert shown("ysolde")["willpower"] == 3 - r["willpower_spent"]


def test_cypher_effort_is_paid_from_the_pool_and_a_natural_20_gives_it_back(nix):
    r = cli("cypher", "task", "-d", "5", "--skill", "climbing", "--effort", "2", "--pool", "might",
            "--as", "nix", "--json", "--dice", "7").json()[0]
    # Trained (1) + Effort (2): 5 -> 2; Effort 2 costs 3 + 2 - Edge 1 = 4 Might.
    assert r["effective_difficulty"] == 2 and r["effort_cost"] == 4
    assert r["spent"] == {"might": 4} and r["left"] == {"might": 6}
    assert shown("nix")["traits"]["might"] == 6
    r = cli("cypher", "task", "-d", "5", "--effort", "1", "--pool", "speed", "--as", "nix",
            "--json", "--dice", "20").json()[0]
    assert r["spent"] == {"speed": 0} and r["left"] == {"speed": 12}
    assert shown("nix")["traits"]["speed"] == 12
    r = cli("cypher", "task", "-d", "5", "--skill", "lore", "--as", "nix", "--json", "--dice", "7").json()[0]
    assert r["hindering"] == 1


def test_cypher_skill_the_sheet_does_not_list_is_practiced(nix):
    # SRD: a skill a character is not trained in is practiced: no step, and the output says so.
    r = cli("cypher", "task", "-d", "5", "--skill", "swimming", "--as", "nix", "--json",
            "--dice", "14").json()[0]
    assert (r["easing"], r["hindering"], r["target"]) == (0, 0, 15)
    assert r["practiced"] == "swimming" and r["outcome"] == "failure"
    listed = cli("cypher", "task", "-d", "5", "--skill", "climbing", "--as", "nix", "--json",
                 "--dice", "14").json()[0]
    assert listed["easing"] == 1 and "practiced" not in listed
    text = ok("cypher", "task", "-d", "5", "--skill", "swimming", "--as", "nix", "--dice", "14").stdout
    assert "Swimming (practiced" in text and "no step" in text


def test_cypher_effort_refusals(nix):
    before = nix.read_bytes()
    assert_usage_error(cli("cypher", "task", "-d", "5", "--effort", "3", "--pool", "might", "--as", "nix"),
                       "--effort", "Effort (2)")
    assert_usage_error(cli("cypher", "task", "-d", "5", "--effort", "1", "--as", "nix"), "--pool")
    assert_usage_error(cli("cypher", "task", "-d", "5", "--skill", "climbnig", "--as", "nix"),
                       "--skill", "closest is 'climbing'")
    ok("char", "set", "nix", "intellect=2")
    before = nix.read_bytes()
    assert_usage_error(cli("cypher", "task", "-d", "5", "--effort", "1", "--pool", "intellect",
                           "--as", "nix", "--json"), "2 Intellect", "may cost 3")
    assert nix.read_bytes() == before


SPEND = """
import sys
from rpgdice.cli import main
sys.exit(main(["seyruun", "roll", "dexterity", "--willpower", "--as", "crowd", "--json"]))
"""


@pytest.mark.slow
@pytest.mark.process
def test_ten_processes_spending_at_once_lose_no_update():
    ok("char", "new", "Crowd", "--ruleset", "seyruun", "dexterity=2", "composure=10",
       "resolve=5", "willpower=15")
    env = {**os.environ, "RPGDICE_HOME": str(home())}
    procs = [subprocess.Popen([sys.executable, "-c", SPEND], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(10)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 10, outs
    lefts = sorted(json.loads(out)["left"]["willpower"] for out, _ in outs)
    assert lefts == list(range(5, 15))  # each saw the one before it
    assert shown("crowd")["willpower"] == 5


# ----------------------------------------------------------------- aliases ---

def test_alias_set_list_run_and_remove(ysolde):
    ok("alias", "sneak", "seyruun roll dexterity stealth --as ysolde")
    assert ok("alias", "--json").json() == [
        {"name": "sneak", "command": "seyruun roll dexterity stealth --as ysolde"}]
    assert "sneak" in ok("alias").stdout
    r = cli("sneak", "--json", "--seed", "3", "-d", "moderate").json()[0]
    plain = cli("seyruun", "roll", "3", "3", "--json", "--seed", "3", "-d", "moderate").json()[0]
    assert r["character"] == "Ysolde" and r["required"] == 2
    assert r["dice"] == plain["dice"]
    config = (home() / "config.toml").read_text(encoding="utf-8")
    assert "[alias]" in config and "sneak" in config
    ok("alias", "--rm", "sneak")
    assert ok("alias", "--json").stdout == ""
    assert_usage_error(cli("sneak"), "COMMAND", "'sneak' is not a command")
    assert_usage_error(cli("alias", "--rm", "sneak"), "--rm", "no alias")


def test_an_alias_never_shadows_a_command():
    assert_usage_error(cli("alias", "seyruun", "crytures roll 3"), "NAME", "is a command")
    assert_usage_error(cli("alias", "char", "crytures roll 3"), "NAME", "is a command")
    assert not (home() / "config.toml").exists()


def test_an_alias_leading_to_an_alias_is_an_error_not_a_loop():
    ok("alias", "six", "crytures roll 6")
    assert_usage_error(cli("alias", "again6", "six -n 2"), "COMMAND", "another alias")
    # Written by hand, a loop is refused when run.
    config = home() / "config.toml"
    config.write_text('[alias]\na = "b"\nb = "a"\nsix = "crytures roll 6"\n', encoding="utf-8")
    assert_usage_error(cli("a"), "alias 'a' leads to alias 'b'")
    r = cli("six", "--json", "--seed", "1").json()[0]
    assert r["pool"] == 6


def test_aliases_keep_the_rest_of_config_toml():
    config = home() / "config.toml"
    config.write_text("# my settings\n[other]\nkeep = 1\n", encoding="utf-8")
    ok("alias", "six", "crytures roll 6")
    text = config.read_text(encoding="utf-8")
    assert "# my settings" in text and "keep = 1" in text and 'six = "crytures roll 6"' in text


def test_a_broken_config_is_reported_when_an_alias_is_looked_up():
    config = home() / "config.toml"
    config.write_text("[alias\n", encoding="utf-8")
    assert_usage_error(cli("sneak"), str(config), "line 1")
    assert config.read_text(encoding="utf-8") == "[alias\n"
    # Commands that need no alias do not read it.
    assert cli("crytures", "roll", "3", "--json", "--seed", "1").exit_code == 0


# -------------------------------------------------------------- completion ---

from test_completion import _bash, _fish, _zsh  # noqa: E402  (the real-shell harnesses)

SHELL_RUNNERS = {"bash": _bash, "zsh": _zsh, "fish": _fish}
SHELLS = ["bash", pytest.param("zsh", marks=pytest.mark.slow), "fish"]  # zsh: a pty session a TAB


def _names_case_setup():
    ok("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3")
    ok("char", "new", "Ana Lu", "--ruleset", "crytures", "talent=2")
    ok("char", "new", "Nix", "--ruleset", "cypher", "might=9")
    config = home() / "config.toml"
    config.write_text('# mine\n[other]\nnot-an-alias = 1\n\n[alias]\nsneak = "seyruun roll 3"\n'
                      '  "six" = "crytures roll 6"\n\n[more]\nneither = 2\n', encoding="utf-8")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.process
def test_tab_completes_the_users_names_in_each_shell(shell):
    complete = SHELL_RUNNERS[shell]
    _names_case_setup()
    names = ["ana-lu", "nix", "ysolde"]
    # A ruleset's --as offers its own characters only (issue 18).
    assert complete(["rpgdice", "seyruun", "roll", "3", "--as"], "") == ["ysolde"]
    assert complete(["rpgdice", "crytures", "roll", "3", "--as"], "") == ["ana-lu"]
    assert complete(["rpgdice", "cypher", "task", "--as"], "n") == ["nix"]
    for sub in ("show", "set", "rm"):
        assert sorted(complete(["rpgdice", "char", sub], "")) == names
    assert complete(["rpgdice", "char", "show"], "ys") == ["ysolde"]
    roots = complete(["rpgdice"], "")
    assert {"sneak", "six", "seyruun", "char"} <= set(roots)
    assert "not-an-alias" not in roots and "neither" not in roots
    assert sorted(complete(["rpgdice"], "s")) == ["seat", "serve", "seyruun", "six", "sneak"]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.process
def test_tab_offers_no_alias_that_is_commented_out(shell):
    complete = SHELL_RUNNERS[shell]
    (home() / "config.toml").write_text('[alias]\nsneak = "seyruun roll 3"\n# old = "cypher task 1"\n'
                                        '  #spare="crytures roll 2"\n', encoding="utf-8")
    roots = complete(["rpgdice"], "")
    assert "sneak" in roots
    assert not [w for w in roots if "old" in w or "spare" in w], roots


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.process
def test_tab_with_no_files_offers_no_names(shell):
    complete = SHELL_RUNNERS[shell]
    assert complete(["rpgdice", "char", "show"], "") == []
    assert "sneak" not in complete(["rpgdice"], "")


def test_commands_that_write_nothing_create_nothing():
    for args in (["char", "show", "ghost"], ["char", "set", "ghost", "a=1"], ["char", "rm", "ghost"],
                 ["alias", "--rm", "ghost"], ["seyruun", "roll", "3", "--as", "ghost"]):
        assert cli(*args).exit_code == 2, args
    assert ok("char", "list").stdout and ok("alias").stdout == ""
    assert list(home().iterdir()) == []


def test_the_spending_api_pays_all_or_nothing(ysolde):
    from rpgdice.core.errors import RulesError
    from rpgdice.table import sheets

    assert sheets.spend("Ysolde", "seyruun", {"willpower": 2}) == ({"willpower": 2}, {"willpower": 3})
    before = ysolde.read_bytes()
    with pytest.raises(RulesError, match="3 Willpower"):
        sheets.spend("ysolde", "seyruun", {"willpower": 4})
    with pytest.raises(RulesError, match="seyruun character"):
        sheets.spend("ysolde", "cypher", {"might": 1})
    assert ysolde.read_bytes() == before
    assert shown("ysolde")["willpower"] == 3


def test_a_misspelled_skill_level_is_no_practiced_skill():
    """`--skill speciallized --as cy` meant specialized: a usage error naming it, not an
    unlisted skill practiced with no step (an unlisted real skill still is)."""
    make_character("Cy", "cypher", climbing="trained")
    run = cli("cypher", "task", "-d", "3", "--skill", "speciallized", "--as", "cy", "--dice", "6")
    assert_usage_error(run, "--skill", "the closest is 'specialized'")
    assert cli("cypher", "task", "-d", "3", "--skill", "swimming", "--as", "cy", "--dice",
               "6").exit_code == 0


@pytest.mark.parametrize("change", ["willpower-=1", "willpower -=1"])
def test_a_relative_change_is_not_written_as_a_value(change):
    """`char set ysolde willpower-=1` once read `willpower-` as the trait and set Willpower
    to 1: it lowers Willpower by 1."""
    make_character("Ysolde", "seyruun", composure=5, resolve=5)
    assert cli("char", "set", "ysolde", change).exit_code == 0
    assert cli_one("char", "show", "ysolde")["willpower"] == 9


# ------------------------------------------- sheets edited by hand, names typed ---

def test_a_hand_edited_skill_level_matches_like_a_named_level():
    # CLI.md "Your table": skills are SKILL=trained|specialized|inability, and names
    # match ignoring case; a sheet that passes its own check ("Trained") must roll as
    # the same skill `char set cy climbing=Trained` would have saved.
    path = hand_sheet("cy", 'name = "Cy"\nruleset = "cypher"\n[traits]\nmight = 3\n'
                             'climbing = "Trained"\nlore = "INABILITY"\n')
    before = path.read_bytes()
    by_hand = cli("cypher", "task", "-d", "3", "--skill", "climbing", "--as", "cy",
                  "--dice", "10", "--json")
    assert by_hand.exit_code == 0, by_hand.stderr
    assert by_hand.json()[0]["effective_difficulty"] == 3 - 1
    hindered = cli("cypher", "task", "-d", "3", "--skill", "lore", "--as", "cy",
                   "--dice", "10", "--json").json()[0]
    assert hindered["effective_difficulty"] == 3 + 1
    assert path.read_bytes() == before  # read, never rewritten


def test_a_hand_edited_number_in_quotes_is_the_number_its_check_accepted():
    # The sheet's check accepts stealth = "2" (char show shows it); rolling with it then
    # must not say it is "not a number".
    hand_sheet("hand", 'name = "Hand"\nruleset = "seyruun"\n[traits]\ndexterity = 3\n'
                        'stealth = "2"\nwound = "Light"\n')
    shown = cli("char", "show", "hand", "--json").json()[0]
    assert shown["traits"]["stealth"] == 2 and shown["traits"]["wound"] == "light"
    run = cli("seyruun", "roll", "dexterity", "stealth", "--as", "hand",
              "--dice", "1,1,1,1", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()[0]
    assert (r["attribute"], r["skill"], r["penalty"], r["pool"]) == (3, 2, 1, 3 + 2 - 1)


def test_a_name_typed_with_a_combining_accent_is_letters():
    # CLI.md: a NAME is letters, digits, spaces, - and _; "José" typed decomposed
    # (e + U+0301, as macOS may hand it over) is the same letters as "José" precomposed,
    # and names match ignoring accents.
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    run = cli("char", "new", decomposed, "--ruleset", "reglas", "punteri\u0301a=3")
    assert run.exit_code == 0, run.stderr
    shown = cli("char", "show", composed, "--json").json()[0]
    assert shown["name"] == composed and shown["traits"] == {"punteria": 3}
    r = cli("reglas", "roll", "puntería", "--as", "jose", "--dice", "1", "--json").json()[0]
    assert r["index"] == 3 and r["character"] == composed
    taken = cli("char", "new", composed, "--ruleset", "reglas")
    assert taken.exit_code == 2 and "taken" in taken.stderr
