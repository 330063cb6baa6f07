"""``--short`` (one line per roll, the chat message's form), ``--secret`` and ``log
reveal`` (CLI.md, "Your table" and "Showing the table")."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import assert_usage_error, cli, log_path, make_character, old_log

ROLLING = [
    ("crytures", "roll", "3", "--dice", "4,10,9"),
    ("seyruun", "roll", "2", "1", "--dice", "7,3,8"),
    ("seyruun", "contest", "1+1", "1", "--dice", "8,2,9"),
    ("reglas", "roll", "8", "--dice", "3"),
    ("reglas", "team", "8", "9", "--dice", "3,4"),
    ("cypher", "task", "-d", "3", "--dice", "12"),
    ("roll", "2d6", "--dice", "3,5"),
]


def entries() -> list[dict]:
    run = cli("log", "--json", "--last", "100")
    assert run.exit_code == 0, run.stderr
    return run.json()


@pytest.mark.parametrize("argv", ROLLING, ids=lambda a: " ".join(a[:2]))
def test_short_is_one_line_naming_the_command_dice_and_verdict(argv):
    run = cli(*argv, "--short")
    assert run.exit_code == 0, run.stderr
    (line,) = run.stdout.splitlines()
    shown = " ".join(a for a in argv)
    assert line.startswith(shown + " · "), line
    (full,) = cli(*argv, "--json", "--no-log").json()
    if full["outcome"] is not None and full["ruleset"] != "reglas":
        assert full["outcome"].capitalize() in line or "wins" in line, line
    if "rolls" in full:
        assert f"({len(full['rolls'])} " in line or "vs" in line, line


def test_short_line_shows_faces_and_totals():
    (line,) = cli("crytures", "roll", "3", "--dice", "4,10,9", "--short").stdout.splitlines()
    assert "4 10 9" in line and "Success" in line
    (line,) = cli("roll", "2d6", "--dice", "3,5", "--short").stdout.splitlines()
    assert line.endswith("3 5 → 8"), line
    (line,) = cli("reglas", "team", "8", "9", "--dice", "3,4", "--short").stdout.splitlines()
    assert "(2 tiradas)" in line and "suma" in line


def test_short_leaves_out_output_options_and_names_the_character():
    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    run = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice",
              "1,2,3,8,9", "--short", "--odds", "--log")
    (line,) = run.stdout.splitlines()
    assert line.startswith("Ysolde · seyruun roll dexterity stealth --as ysolde --dice 1,2,3,8,9 · ")
    assert "--short" not in line and "--odds" not in line and "--log" not in line


def test_short_with_times_gives_one_line_per_repetition_and_no_summary():
    run = cli("cypher", "task", "-d", "2", "--dice", "1,20,7", "-n", "3", "--short")
    lines = run.stdout.splitlines()
    assert len(lines) == 3 and "Failure" in lines[0] and "Success" in lines[1], lines
    assert all(" · " in x for x in lines)


def test_short_with_json_is_a_usage_error():
    assert_usage_error(cli("crytures", "roll", "3", "--short", "--json"), "--short", "--json")
    assert not log_path().exists()


def test_secret_with_no_log_is_a_usage_error():
    assert_usage_error(cli("crytures", "roll", "3", "--secret", "--no-log"), "--secret")


@pytest.mark.parametrize("argv", ROLLING[:4], ids=lambda a: " ".join(a[:2]))
def test_a_secret_roll_is_logged_whatever_rpgdice_log_says_and_shown(argv):
    run = cli(*argv, "--secret", env={"RPGDICE_LOG": "never"})
    assert run.exit_code == 0, run.stderr
    assert run.stdout.strip()  # shown on this terminal as usual
    (e,) = entries()
    assert e["secret"] is True and e["results"] and e["revealed"] is None
    cli(*argv, "--log")
    assert [x["secret"] for x in entries()] == [True, False]


def test_log_views_say_secret_and_reveal_makes_it_public():
    cli("reglas", "roll", "8", "--dice", "3", "--secret")
    assert "(secret)" in cli("log").stdout
    assert "secret" in cli("log", "show", "1").stdout.splitlines()[0]
    run = cli("log", "reveal", "1")
    assert run.exit_code == 0 and "public" in run.stdout
    (e,) = entries()
    assert e["secret"] is False and e["revealed"]
    assert "(secret)" not in cli("log").stdout
    again = cli("log", "reveal", "1")
    assert again.exit_code == 0 and "already public" in again.stdout
    con = sqlite3.connect(log_path())
    assert con.execute("SELECT entry FROM reveals").fetchall() == [(1,)]  # revealed once


def test_reveal_of_a_missing_entry_exits_2():
    assert_usage_error(cli("log", "reveal", "5"), "no entry 5")
    assert not log_path().exists()  # nothing made by asking
    cli("reglas", "roll", "8", "--dice", "3", "--log")
    assert_usage_error(cli("log", "reveal", "5"), "no entry 5")


def test_secret_roll_that_cannot_be_logged_warns_and_still_shows(tmp_path, monkeypatch):
    home = tmp_path / "file"
    home.write_text("not a folder")
    monkeypatch.setenv("RPGDICE_HOME", str(home))
    run = cli("reglas", "roll", "8", "--dice", "3", "--secret")
    assert run.exit_code == 0 and run.stdout.strip()
    assert "rpgdice: warning:" in run.stderr


def test_a_schema_4_log_is_migrated_to_secret_rolls():
    from rpgdice.table.log import MIGRATION_NAMES, MIGRATIONS

    assert MIGRATION_NAMES[4] == "secret rolls" and len(MIGRATIONS) == 7
    con = old_log(4)
    result = {"ruleset": "reglas", "command": "roll", "outcome": "failure", "seed": None}
    con.execute("INSERT INTO entries (time, argv, ruleset, command, seed, count, outcome,"
                " results, rolled) VALUES ('2026-01-01T00:00:00Z', ?, 'reglas', 'roll', NULL,"
                " 1, 'failure', ?, '{}')", (json.dumps(["reglas", "roll", "8"]),
                                            json.dumps([result])))
    con.close()
    (old,) = entries()  # read: brought up to date, the old entry public
    assert old["secret"] is False and old["results"] == [result]
    assert cli("log", "reveal", "1").stdout.startswith("Entry 1 is already public")
    cli("reglas", "roll", "8", "--dice", "3", "--secret")
    assert [e["secret"] for e in entries()] == [False, True]
    assert sqlite3.connect(log_path()).execute("PRAGMA user_version").fetchone()[0] == 7


def _rolling_commands() -> list[tuple[str, ...]]:
    from rpgdice import rulesets

    found = [(r, c.name) for r in rulesets.SHEET_RULESETS for c in rulesets.get(r).records()
             if c.results]
    return [*found, ("roll",), ("encounter", "start")]


@pytest.mark.parametrize("command", _rolling_commands(), ids=" ".join)
def test_every_rolling_command_takes_short_and_secret(command):
    run = cli(*command, "--help", env={"COLUMNS": "120"})
    assert run.exit_code == 0, run.stderr
    assert "--short" in run.stdout and "--secret" in run.stdout


def test_encounter_start_short_and_secret():
    run = cli("encounter", "start", "Ghoul=2+2", "Thug=2+1", "--dice", "1,2,3,4,5,6,7",
              "--short", "--secret")
    assert run.exit_code == 0, run.stderr
    (line,) = run.stdout.splitlines()
    assert line.startswith("encounter start Ghoul=2+2 Thug=2+1 --dice 1,2,3,4,5,6,7 · ")
    (e,) = entries()
    assert e["secret"] is True and e["command"] == "initiative"


def test_a_short_line_marks_dropped_dice_and_counted_ones_as_the_terminal_does():
    from conftest import ok

    line = ok("roll", "1d20+5 adv", "--short", "--dice", "9,12").stdout
    assert "1d20+5 adv: (9) 12 → 17" in line
    assert "4d6kh3: (1) 6 2 3 → 11" in ok("roll", "4d6kh3", "--short", "--dice", "1,6,2,3").stdout
    line = ok("roll", "4d10>=6", "--short", "--dice", "1,6,2,7").stdout
    assert "4d10>=6: 1 6✓ 2 7✓ → 2" in line
    assert "2d6: 3 4 → 7" in ok("roll", "2d6", "--short", "--dice", "3,4").stdout
