"""The roll log: modes and flags, concurrent writers, replay (log show), again, the
re-roll after the fact, stats against exact expectations, and logs that cannot be
written. Every test has its own RPGDICE_HOME (conftest)."""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import subprocess
import sys

import pytest

from conftest import character, cli, drawn, home, log_path, proc
from rpgdice.core import luck


def split_header(stdout: str) -> tuple[str, str]:
    """``log show``'s header (wrapped to the width: its first line and the indented lines
    under it) and what follows it, the entry as it was shown."""
    lines = stdout.split("\n")
    n = 1
    while n < len(lines) and lines[n].startswith(" "):
        n += 1
    return " ".join(line.strip() for line in lines[:n]), "\n".join(lines[n:])


def entries() -> list[dict]:
    if not log_path().exists():
        return []
    run = cli("log", "--json", "--last", "100000")
    assert run.exit_code == 0, run.stderr
    return run.json()


@pytest.fixture
def read_only_log(monkeypatch):
    """Make the (existing) log read-only: by file modes where they bind (not as root);
    as root, where they do not, SQLite opens it read-only (mode=ro), which fails the
    same writes with the same error. Runs in-process (cli)."""
    import contextlib

    @contextlib.contextmanager
    def make():
        if os.geteuid() != 0:
            os.chmod(log_path(), 0o444)
            os.chmod(log_path().parent, 0o555)
            try:
                yield
            finally:
                os.chmod(log_path().parent, 0o755)
                os.chmod(log_path(), 0o644)
            return
        real = sqlite3.connect

        def read_only(target, *args, **kwargs):
            if kwargs.get("uri") and "mode=ro" not in str(target):
                target = f"{target}?mode=ro"
            return real(target, *args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(sqlite3, "connect", read_only)
            yield

    return make


# Seeds ---------------------------------------------------------------------------------


def test_every_roll_reports_its_seed_and_replays_from_it():
    (first,) = cli("seyruun", "roll", "4", "3", "--json").json()
    assert isinstance(first["seed"], int) and 0 <= first["seed"] < 2**64
    (again,) = cli("seyruun", "roll", "4", "3", "--json", "--seed", str(first["seed"])).json()
    assert again == first
    assert cli("crytures", "roll", "2", "--dice", "3,9", "--json").json()[0]["seed"] is None
    contest = cli("reglas", "contest", "5", "6", "--seed", "9", "--json").json()[0]
    assert contest["seed"] == 9
    repeated = cli("cypher", "task", "-d", "4", "-n", "3", "--json").json()
    assert len({r["seed"] for r in repeated}) == 1  # one seed for the whole command


# Modes and flags -----------------------------------------------------------------------


ROLL = ["seyruun", "roll", "3", "2", "--json"]


@pytest.mark.parametrize("mode, flag, logged", [
    ("always", None, True), ("never", None, False), ("auto", None, False), (None, None, False),
    ("never", "--log", True), ("always", "--no-log", False), ("auto", "--log", True),
])
def test_modes_and_flags(monkeypatch, mode, flag, logged):
    if mode is not None:
        monkeypatch.setenv("RPGDICE_LOG", mode)
    run = cli(*ROLL, *([flag] if flag else []))
    assert run.exit_code == 0, run.stderr
    assert len(entries()) == (1 if logged else 0)


@pytest.mark.process
def test_auto_logs_a_command_whose_stdout_is_a_terminal():
    import pty

    main, side = pty.openpty()
    try:
        code = subprocess.run([sys.executable, "-m", "rpgdice", "cypher", "task", "-d", "3"],
                              stdout=side, stderr=subprocess.PIPE, env=dict(os.environ),
                              timeout=60).returncode
        os.read(main, 65536)
    finally:
        os.close(main)
        os.close(side)
    assert code == 0
    (entry,) = entries()
    assert entry["argv"] == ["cypher", "task", "-d", "3"]
    # ...and a pipe (stdout not a terminal) is not logged.
    assert proc("cypher", "task", "-d", "3").returncode == 0
    assert len(entries()) == 1


def test_a_bad_mode_is_a_usage_error(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "sometimes")
    run = cli(*ROLL)
    assert run.exit_code == 2 and run.stdout == ""
    assert "RPGDICE_LOG" in run.stderr


def test_odds_is_never_logged_and_takes_no_log_flag(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    assert cli("seyruun", "odds", "3", "--json").exit_code == 0
    assert cli("seyruun", "odds", "3", "--log").exit_code == 2
    assert not log_path().exists()


def test_an_entry_records_what_csi_asks():
    run = cli("crytures", "roll", "3+1", "--seed", "77", "--log", "--json")
    (entry,) = entries()
    assert entry["argv"] == ["crytures", "roll", "3+1", "--seed", "77", "--log", "--json"]
    assert (entry["ruleset"], entry["command"], entry["seed"]) == ("crytures", "roll", 77)
    assert entry["character"] is None and entry["faces"] is None
    assert entry["results"] == run.json()
    assert entry["outcome"] == run.json()[0]["outcome"]
    assert entry["time"].endswith("Z") and entry["count"] == 1
    cli("reglas", "roll", "5", "--dice", "4,4,9", "-n", "3", "--log")
    entry = entries()[-1]
    assert entry["faces"] == [4, 4, 9] and entry["seed"] is None
    assert entry["count"] == 3 and entry["outcome"] is None


def test_many_results_are_one_entry_keeping_the_first_1000():
    run = cli("cypher", "task", "-d", "2", "-n", "1500", "--log", "--json")
    (entry,) = entries()
    assert entry["count"] == 1500 and len(entry["results"]) == 1000
    assert entry["results"] == run.json()[:1000]


def test_the_log_is_bounded(monkeypatch):
    from rpgdice.table import log

    monkeypatch.setattr(log.store, "MAX_ENTRIES", 5)
    for d in range(1, 9):
        cli("cypher", "task", "-d", str(d), "--log")
    kept = entries()
    assert [e["argv"][3] for e in kept] == ["4", "5", "6", "7", "8"]


def test_schema_version_and_wal():
    cli(*ROLL, "--log")
    con = sqlite3.connect(log_path())
    from rpgdice.table.log import MIGRATIONS

    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 7
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_first_release_log_is_migrated_keeping_its_entries():
    from rpgdice.table.log import MIGRATIONS

    log_path().parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(log_path(), isolation_level=None)
    for statement in MIGRATIONS[0]:
        con.execute(statement)
    con.execute("PRAGMA user_version = 1")
    result = {"ruleset": "cypher", "command": "task", "outcome": "failure", "roll": 2,
              "seed": None}
    con.execute("INSERT INTO entries (time, argv, ruleset, command, seed, count, outcome,"
                " results, rolled) VALUES ('2026-01-01T00:00:00Z', ?, 'cypher', 'task', '7',"
                " 1, 'failure', ?, ?)", (json.dumps(["cypher", "task", "-d", "3", "--seed", "7"]),
                                         json.dumps([result]), json.dumps({"d20": [2]})))
    con.close()
    # Reading (stats) brings it up to date; the old entry counts.
    (g,) = cli("log", "stats", "--json").json()
    assert g["rolls"] == 1 and g["outcomes"]["failure"] == 1 and g["faces"]["d20"]["2"] == 1
    drawn(cli("cypher", "task", "-d", "3", "--dice", "20", "--log"))
    assert [e["id"] for e in entries()] == [1, 2]
    assert sqlite3.connect(log_path()).execute("PRAGMA user_version").fetchone()[0] == 7
    (g,) = cli("log", "stats", "--json").json()
    assert g["rolls"] == 2 and g["faces"]["d20"]["20"] == 1


@pytest.mark.slow
@pytest.mark.process
def test_sixteen_processes_logging_at_once_lose_no_entry():
    env = {k: v for k, v in os.environ.items() if k not in ("RPGDICE_SEED",)}
    procs = [subprocess.Popen([sys.executable, "-m", "rpgdice", "reglas", "roll", str(i),
                               "--log", "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env) for i in range(16)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 16
    assert all(err == b"" for _, err in outs), [err for _, err in outs]
    logged = entries()
    assert sorted(int(e["argv"][2]) for e in logged) == list(range(16))
    assert len({e["id"] for e in logged}) == 16


# log show ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["seyruun", "roll", "3", "2", "--bonus", "1"],
    ["crytures", "roll", "6", "--attack", "-n", "3"],
    ["reglas", "extended", "6", "--target", "8"],
    ["cypher", "task", "-d", "4", "--odds"],
    ["seyruun", "roll", "2", "1", "--dice", "10,1,4"],
])
def test_log_show_reproduces_the_entry(args):
    shown = cli(*args, "--log")
    assert shown.exit_code == 0, shown.stderr
    (entry,) = entries()
    again = cli("log", "show", str(entry["id"]))
    assert again.exit_code == 0, again.stderr
    header, rest = split_header(again.stdout)
    assert header.startswith(f"#{entry['id']} ")
    assert rest == shown.stdout
    as_json = cli("log", "show", str(entry["id"]), "--json", "--replay").json()[0]
    assert as_json["replayed"] is True
    assert as_json["results"] == entry["results"]


def test_log_show_says_when_the_replay_differs():
    cli("seyruun", "roll", "5", "--log", "--seed", "3")
    con = sqlite3.connect(log_path())
    (results,) = con.execute("SELECT results FROM entries").fetchone()
    tampered = json.loads(results)
    tampered[0]["dice"][0]["face"] = 11
    con.execute("UPDATE entries SET results = ?", (json.dumps(tampered),))
    con.commit()
    run = cli("log", "show", "1", "--replay")
    assert run.exit_code == 1
    assert run.stderr.startswith("rpgdice: warning: entry 1 does not replay")


def test_log_show_of_a_missing_entry():
    cli(*ROLL, "--log")
    run = cli("log", "show", "99")
    assert run.exit_code == 2 and "no entry 99" in run.stderr


def test_log_lists_oldest_first_with_filters():
    for args in (["seyruun", "roll", "3"], ["reglas", "roll", "5"], ["seyruun", "roll", "4"]):
        cli(*args, "--log")
    listed = cli("log", "--json", "--last", "2").json()
    assert [e["argv"][:3] for e in listed] == [["reglas", "roll", "5"], ["seyruun", "roll", "4"]]
    only = cli("log", "--json", "--ruleset", "seyruun").json()
    assert [e["argv"][2] for e in only] == ["3", "4"]
    view = cli("log", "--last", "2")
    assert view.exit_code == 0
    assert view.stdout.index("reglas roll 5") < view.stdout.index("seyruun roll 4")
    assert "seyruun roll 3" not in view.stdout


def test_an_empty_log_lists_nothing():
    run = cli("log")
    assert run.exit_code == 0 and "empty" in run.stdout
    assert cli("log", "--json").stdout == ""
    assert not log_path().exists()  # reading never creates the log


def test_clear_needs_yes():
    cli(*ROLL, "--log")
    run = cli("log", "clear")
    assert run.exit_code == 2 and run.stdout == ""
    assert len(entries()) == 1
    assert cli("log", "clear", "--yes").exit_code == 0
    assert entries() == []
    cli(*ROLL, "--log")
    assert entries()[0]["id"] == 2  # IDs are not reused


# again ---------------------------------------------------------------------------------


def test_again_repeats_the_last_command_with_fresh_dice():
    cli("seyruun", "roll", "3", "2", "--seed", "5", "--log")
    run = cli("again", "--json", "--bonus", "1")
    assert run.exit_code == 0, run.stderr
    (result,) = run.json()
    assert result["seed"] != 5 and result["bonus"] == 1
    # It was logged (the repeated command keeps --log), without the seed.
    last = entries()[-1]
    assert last["argv"] == ["seyruun", "roll", "3", "2", "--log", "--json", "--bonus", "1"]
    assert last["seed"] == result["seed"]


def test_again_drops_given_faces():
    cli("crytures", "roll", "2", "--dice", "1,1", "--log")
    (result,) = cli("again", "--json").json()
    assert result["seed"] is not None and len(result["dice"]) == 2


def test_again_names_what_it_runs_on_stderr_first():
    cli("seyruun", "roll", "3", "2", "--seed", "5", "--log", "--bonus", "1")
    run = cli("again", "--json", "-d", "moderate")
    assert run.exit_code == 0, run.stderr
    # The repeated command, its --seed dropped and MORE ARGS added, quoted for the shell.
    assert run.stderr == "rpgdice: again: seyruun roll 3 2 --log --bonus 1 --json -d moderate\n"
    assert run.json()[0]["required"] == 2
    cli("roll", "2d6 + 3", "--seed", "1", "--log")
    assert cli("again").stderr.splitlines()[0] == "rpgdice: again: roll '2d6 + 3' --log"


def test_again_never_repeats_a_reroll_after_the_fact():
    cli("seyruun", "roll", "2", "1", "--dice", "2,3,4", "--log")
    assert cli("seyruun", "reroll", "--dice", "6,1,1", "--log").exit_code == 0
    assert [e["command"] for e in entries()] == ["roll", "reroll"]
    run = cli("again", "--json")
    # The roll before the re-roll, with fresh dice, not a second re-roll of entry 1.
    assert run.exit_code == 0, run.stderr
    assert run.stderr == "rpgdice: again: seyruun roll 2 1 --log --json\n"
    (result,) = run.json()
    assert result.get("rerolled") is None and result["pool"] == 3 and result["seed"] is not None
    assert [e["command"] for e in entries()] == ["roll", "reroll", "roll"]
    assert entries()[-1]["argv"] == ["seyruun", "roll", "2", "1", "--log", "--json"]


def test_again_with_an_empty_log():
    run = cli("again")
    assert run.exit_code == 2 and "empty" in run.stderr


# The re-roll after the fact ------------------------------------------------------------


def test_reroll_a_failed_roll_once():
    first = cli("seyruun", "roll", "2", "1", "--dice", "2,3,4", "--log", "--json").json()[0]
    assert first["outcome"] == "failure"
    run = cli("seyruun", "reroll", "--dice", "6,1,1", "--json", "--log")
    assert run.exit_code == 0, run.stderr
    (r,) = run.json()
    assert r["rerolls"] == 1
    # the roll re-rolled, nested: no verdict of its own (the re-roll's is the verdict)
    assert r["rerolled"] == {k: v for k, v in first.items() if k not in ("seed", "verdict", "tone")}
    assert [d["face"] for d in r["dice"]] == [6, 1, 1]
    assert r["outcome"] == "success" and r["willpower_spent"] == 1
    logged = entries()
    assert logged[0]["rerolled"] is True and logged[0]["rerolled_by"] == 2
    assert logged[1]["command"] == "reroll" and logged[1]["results"] == run.json()
    # Once only.
    again = cli("seyruun", "reroll", "1")
    assert again.exit_code == 2 and "already re-rolled" in again.stderr and again.stdout == ""
    # The re-roll entry replays (log show) as it was.
    shown = cli("log", "show", "2", "--json", "--replay").json()[0]
    assert shown["replayed"] is True


def test_reroll_refuses_successes_and_other_commands():
    cli("seyruun", "roll", "2", "1", "--dice", "7,3,4", "--log")
    run = cli("seyruun", "reroll")
    assert run.exit_code == 2 and "succeeded" in run.stderr
    cli("reglas", "roll", "2", "--log", "--dice", "9")
    run = cli("seyruun", "reroll", "2")
    assert run.exit_code == 2 and "not a seyruun roll" in run.stderr
    cli("seyruun", "roll", "1", "--dice", "2,2", "-n", "2", "--log")
    run = cli("seyruun", "reroll", "3")
    assert run.exit_code == 2 and "single roll" in run.stderr
    cli("seyruun", "roll", "1", "--reroll", "--dice", "2,3", "--log")
    run = cli("seyruun", "reroll", "4")
    assert run.exit_code == 2 and "already re-rolled" in run.stderr


def test_reroll_marks_the_roll_even_when_not_logged():
    cli("seyruun", "roll", "2", "1", "--dice", "1,2,3", "--log")  # botch
    run = cli("seyruun", "reroll", "--json")  # not a terminal: the re-roll itself is not logged
    assert run.exit_code == 0
    (entry,) = entries()
    assert entry["rerolled"] is True and entry["rerolled_by"] is None
    assert cli("seyruun", "reroll").exit_code == 2


def test_reroll_with_wrong_faces_marks_nothing():
    cli("seyruun", "roll", "2", "1", "--dice", "1,2,3", "--log")
    assert cli("seyruun", "reroll", "--dice", "5").exit_code == 2
    assert entries()[0]["rerolled"] is False


def test_reroll_needs_a_writable_log(read_only_log):
    cli("seyruun", "roll", "2", "1", "--dice", "1,2,3", "--log")
    with read_only_log():
        run = cli("seyruun", "reroll")
    assert run.exit_code == 2 and run.stdout == ""
    assert entries()[0]["rerolled"] is False


# The re-roll paid from a character's sheet (issue 10's sheets) ------------------------

FAILED = "2,2,3,4,5,5"  # dexterity 3 + stealth 3: six dice, no success, no 1


def _sheet(willpower: int | None = None) -> None:
    character("Ysolde", composure=2, willpower=willpower)  # Willpower 4 unless given


def _willpower() -> int:
    run = cli("char", "show", "ysolde", "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()[0]["willpower"]


def test_reroll_of_a_characters_roll_spends_one_willpower_from_the_sheet():
    _sheet()
    before = _willpower()
    first = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", FAILED,
                "--log", "--json").json()[0]
    assert first["outcome"] == "failure" and first["character"] == "Ysolde"
    assert _willpower() == before  # the roll itself paid nothing
    run = cli("seyruun", "reroll", "--dice", "9,1,1,1,1,1", "--json", "--log")
    assert run.exit_code == 0, run.stderr
    (r,) = run.json()
    assert r["character"] == "Ysolde"
    assert r["spent"] == {"willpower": 1} and r["left"] == {"willpower": before - 1}
    assert r["rerolls"] == 1 and r["willpower_spent"] == 1
    assert _willpower() == before - 1
    logged = entries()
    assert logged[0]["rerolled"] is True and logged[0]["rerolled_by"] == 2
    assert logged[1]["character"] == "Ysolde" and logged[1]["command"] == "reroll"
    # A second re-roll is refused and spends nothing.
    again = cli("seyruun", "reroll", "1")
    assert again.exit_code == 2 and again.stdout == "" and "already re-rolled" in again.stderr
    assert _willpower() == before - 1
    # Both entries replay as they were logged (a replay pays nothing).
    assert cli("log", "show", "2", "--json", "--replay").json()[0]["replayed"] is True
    assert cli("log", "show", "1", "--json", "--replay").json()[0]["replayed"] is True
    assert _willpower() == before - 1


def test_reroll_that_the_sheet_cannot_pay_rolls_nothing_and_marks_nothing():
    _sheet(willpower=0)
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", FAILED, "--log")
    run = cli("seyruun", "reroll", "--dice", "9,1,1,1,1,1")
    assert run.exit_code == 2 and run.stdout == ""
    assert "Willpower" in run.stderr and "nothing was rolled or spent" in run.stderr
    (entry,) = entries()
    assert entry["rerolled"] is False
    assert _willpower() == 0
    # Once the sheet has Willpower again, the same entry can still be re-rolled.
    assert cli("char", "set", "ysolde", "willpower=1").exit_code == 0
    run = cli("seyruun", "reroll", "--dice", "9,1,1,1,1,1", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()[0]["left"] == {"willpower": 0}
    assert _willpower() == 0 and entries()[0]["rerolled"] is True


def test_reroll_whose_sheet_cannot_be_written_is_not_marked(monkeypatch):
    from rpgdice.table import files

    _sheet()
    before = _willpower()
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", FAILED, "--log")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(files, "write_document", full_disk)
        run = cli("seyruun", "reroll", "--dice", "9,1,1,1,1,1")
    assert run.exit_code != 0 and run.stdout == ""
    assert entries()[0]["rerolled"] is False
    assert _willpower() == before


def test_reroll_refused_by_the_log_spends_nothing(read_only_log):
    _sheet()
    before = _willpower()
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", FAILED, "--log")
    with read_only_log():
        run = cli("seyruun", "reroll")
    assert run.exit_code == 2 and run.stdout == ""
    assert entries()[0]["rerolled"] is False
    assert _willpower() == before


def test_reroll_takes_no_as_option():
    _sheet()
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", FAILED, "--log")
    run = cli("seyruun", "reroll", "--as", "ysolde")
    assert run.exit_code == 2 and run.stdout == ""
    assert entries()[0]["rerolled"] is False


def test_log_names_the_character_as_the_sheet_spells_it():
    _sheet()
    cli("seyruun", "roll", "dexterity", "stealth", "--as", "YSOLDE", "--log")
    cli("seyruun", "roll", "dexterity", "stealth", "--log", env={"RPGDICE_AS": "ysolde"})
    cli("seyruun", "roll", "3", "3", "--log")
    logged = entries()
    assert [e["character"] for e in logged] == ["Ysolde", "Ysolde", None]
    assert logged[0]["argv"][-3:] == ["--as", "YSOLDE", "--log"]
    mine = cli("log", "--as", "ysolde", "--json").json()
    assert [e["id"] for e in mine] == [1, 2]
    # A roll made through RPGDICE_AS replays with its character.
    assert cli("log", "show", "2", "--json", "--replay").json()[0]["replayed"] is True


# Ordinary dice (issue 13's rpgdice roll) ----------------------------------------------


def test_an_ordinary_roll_is_logged_replayed_and_repeated():
    run = cli("roll", "2d6+3", "--seed", "11", "--log", "--json")
    assert run.exit_code == 0, run.stderr
    (r,) = run.json()
    assert r["seed"] == 11
    assert cli("roll", "-1d4+6", "--dice", "3", "--log").exit_code == 0  # an expression like an option
    assert cli("roll", "d6", "--no-log").exit_code == 0
    logged = entries()
    assert [e["ruleset"] for e in logged] == ["dice", "dice"]
    assert logged[0]["results"] == [r] and logged[0]["seed"] == 11
    assert logged[1]["faces"] == [3] and logged[1]["results"][0]["total"] == 3
    for n in (1, 2):
        assert cli("log", "show", str(n), "--json", "--replay").json()[0]["replayed"] is True
    (again,) = cli("again", "--json", "--no-log").json()
    assert again["expression"] == "-1d4+6" and again["seed"] is not None
    assert len(entries()) == 2


def test_stats_judge_ordinary_dice_by_their_faces():
    for faces in ("1,2,6", "6,6,3"):
        drawn(cli("roll", "3d6", "--dice", faces, "--log"))
    drawn(cli("roll", "d20", "--dice", "20", "--log"))
    assert cli("roll", "d6", "-n", "2", "--dice", "5,5", "--log").exit_code == 0  # -n: left out
    (g,) = cli("log", "stats", "--ruleset", "dice", "--json").json()
    assert g["rolls"] == 3 and g["outcomes"] == {} and g["verdict"] is None
    assert g["faces"]["d6"] == {"1": 1, "2": 1, "3": 1, "4": 0, "5": 0, "6": 3}
    assert g["faces"]["d20"]["20"] == 1 and sum(g["faces"]["d20"].values()) == 1
    counts = list(g["faces"]["d6"].values())
    assert g["fairness"]["d6"]["chi2"] == pytest.approx(luck.chi_squared(counts), abs=1e-4)
    assert g["fairness"]["d6"]["df"] == 5
    shown = cli("log", "stats")
    assert shown.exit_code == 0 and "d20 faces" in shown.stdout


# Stats ---------------------------------------------------------------------------------


def test_stats_against_exact_expectations_on_given_faces():
    # seyruun roll 1 2: a 3-die pool, 1 success needed. Each die succeeds on 6-10 (1/2)
    # and is a 1 with 1/10: P(no success) = 1/8; botch = 1/8 - (4/10)^3; success 7/8.
    rolls = ["2,3,4", "1,1,9", "6,7,10", "1,2,2"]
    for faces in rolls:
        drawn(cli("seyruun", "roll", "1", "2", "--dice", faces, "--log"))
    cli("seyruun", "contest", "3+2", "2+2", "--log", "--seed", "1")  # a roll type: left out
    cli("seyruun", "roll", "3", "-n", "2", "--log")  # repeated: left out
    # crytures roll 2: P(at least one die of 6+) = 3/4.
    drawn(cli("crytures", "roll", "2", "--dice", "5,5", "--log"))
    groups = {g["ruleset"]: g for g in cli("log", "stats", "--json").json()}
    s = groups["seyruun"]
    assert s["rolls"] == 4 and s["character"] is None
    assert s["outcomes"] == {"success": 2, "failure": 1, "botch": 1}
    p_botch = 1 / 8 - 0.4**3
    expected = {"success": 4 * 7 / 8, "failure": 4 * 0.4**3, "botch": 4 * p_botch}
    assert s["expected"] == pytest.approx(expected)
    z = (2 - 3.5) / math.sqrt(4 * 7 / 8 * 1 / 8)
    assert s["z"]["success"] == pytest.approx(z)
    faces = [int(f) for r in rolls for f in r.split(",")]
    assert s["faces"] == {"d10": {str(f): faces.count(f) for f in range(1, 11)}}
    stat = sum((faces.count(f) - 1.2) ** 2 / 1.2 for f in range(1, 11))
    assert s["fairness"]["d10"]["chi2"] == pytest.approx(stat, abs=1e-4)
    assert s["fairness"]["d10"]["p"] == pytest.approx(luck.chi2_sf(stat, 9))
    c = groups["crytures"]
    assert c["rolls"] == 1 and c["outcomes"] == {"success": 0, "failure": 1}
    assert c["expected"] == pytest.approx({"success": 0.75, "failure": 0.25})
    view = cli("log", "stats")
    assert view.exit_code == 0
    # Four rolls and twelve faces are too few for a verdict (CLI.md): it says so.
    assert s["verdict"] == "too few rolls for a verdict: 4 of the 20 needed"
    assert s["fairness"]["d10"]["verdict"].startswith("too few faces for a verdict: 12 rolled")
    assert "Too few rolls for a verdict" in view.stdout
    assert "χ²" in view.stdout


def test_stats_follow_the_bound(monkeypatch):
    # Entries that fall out of the log fall out of the stats too.
    from rpgdice.table import log

    monkeypatch.setattr(log.store, "MAX_ENTRIES", 3)
    for faces in ("1", "2", "3", "20", "20"):
        drawn(cli("cypher", "task", "-d", "3", "--dice", faces, "--log"))
    (g,) = cli("log", "stats", "--json").json()
    assert g["rolls"] == 3
    assert g["outcomes"] == {"success": 2, "failure": 1}
    assert {f: n for f, n in g["faces"]["d20"].items() if n} == {"3": 1, "20": 2}
    assert cli("log", "clear", "--yes").exit_code == 0
    assert cli("log", "stats", "--json").stdout == ""


def test_stats_filters_by_ruleset():
    drawn(cli("seyruun", "roll", "1", "2", "--dice", "2,3,4", "--log"))
    drawn(cli("cypher", "task", "-d", "3", "--dice", "20", "--log"))
    (g,) = cli("log", "stats", "--ruleset", "cypher", "--json").json()
    assert g["ruleset"] == "cypher" and g["rolls"] == 1
    assert g["faces"]["d20"]["20"] == 1 and sum(g["faces"]["d20"].values()) == 1
    assert g["expected"]["success"] == pytest.approx(12 / 20)  # target 9: 9..20


# Logs that cannot be written -----------------------------------------------------------


def _one_warning(run) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rpgdice: warning: "), run.stderr
    return lines[0]


def test_a_read_only_log_costs_no_roll(read_only_log):
    cli(*ROLL, "--log")
    with read_only_log():
        run = cli("seyruun", "roll", "3", "2", "--log", "--seed", "4")
    assert run.exit_code == 0
    assert run.stdout.startswith("Seyruun roll")
    assert "not logged" in _one_warning(run)
    assert len(entries()) == 1


@pytest.mark.process
def test_a_corrupt_log_is_set_aside_and_costs_no_roll():
    log_path().parent.mkdir(parents=True, exist_ok=True)
    garbage = b"this is not a database, it is a shopping list\n" * 100
    log_path().write_bytes(garbage)
    run = proc("cypher", "task", "-d", "3", "--log")
    assert run.returncode == 0
    assert run.stdout.startswith("Cypher task")
    assert "corrupt" in _one_warning(run)
    (aside,) = log_path().parent.glob("log.sqlite3.corrupt-*")
    assert aside.read_bytes() == garbage
    assert len(entries()) == 1


def test_a_locked_log_costs_no_roll(monkeypatch):
    from rpgdice.table import log

    cli(*ROLL, "--log")
    monkeypatch.setattr(log.store, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(log_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = cli("seyruun", "roll", "3", "--log", "--seed", "2")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert run.exit_code == 0 and run.stdout.startswith("Seyruun roll")
    assert "locked" in _one_warning(run)


def test_an_unmakeable_folder_costs_no_roll(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RPGDICE_HOME", str(blocker / "home"))
    run = cli(*ROLL, "--log")
    assert run.exit_code == 0 and run.json()[0]["ruleset"] == "seyruun"
    assert "not logged" in _one_warning(run)


# Luck arithmetic -----------------------------------------------------------------------


def test_chi2_sf_against_closed_forms_on_both_branches():
    for df in (2, 4, 10, 20, 100):
        for x in (0.5, 3.0, 18.3, 60.0, 150.0):
            closed = math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(df // 2))
            assert luck.chi2_sf(x, df) == pytest.approx(closed, rel=1e-9, abs=1e-300)
    assert luck.chi2_sf(16.919, 9) == pytest.approx(0.05, abs=1e-4)
    assert luck.chi2_sf(30.144, 19) == pytest.approx(0.05, abs=1e-4)


def test_verdict_words():
    assert luck.verdict(-2.1) == ("successes 2.1 standard deviations below expectation: "
                                  "unlucky, not impossible")
    assert luck.verdict(0.4).endswith("within ordinary luck")
    assert "above" in luck.verdict(1.5) and "lucky" in luck.verdict(1.5)
    assert luck.verdict(None).startswith("no uncertainty")


def test_a_full_disk_costs_no_roll(monkeypatch):
    # SQLite's own "database or disk is full", made by capping the log's size.
    from rpgdice.table import log

    cli(*ROLL, "--log")
    real_open = log.Log._open.__func__

    def capped(cls, path, write, **kw):
        opened = real_open(cls, path, write, **kw)
        pages = opened.con.execute("PRAGMA page_count").fetchone()[0]
        opened.con.execute(f"PRAGMA max_page_count = {pages}")
        return opened

    monkeypatch.setattr(log.Log, "_open", classmethod(capped))
    run = cli("crytures", "roll", "900", "--seed", "3", "--log")
    assert run.exit_code == 0 and run.stdout.startswith("Crytures roll")
    assert "full" in _one_warning(run)


def test_log_filters_by_character_ignoring_case_and_accents():
    from rpgdice.table.log import Entry, Log

    log = Log.open(write=True)
    for who in ("Ysolde", "Thureck", None, "ysolde"):
        log.add(Entry(argv=["cypher", "task", "-d", "2"], character=who, ruleset="cypher",
                      command="task", seed=1, faces=None, count=1, outcome="success",
                      results=[{"ruleset": "cypher", "command": "task", "outcome": "success",
                                "roll": 12, "seed": 1}]))
    log.close()
    listed = cli("log", "--json", "--as", "YSÓLDE").json()
    assert [e["id"] for e in listed] == [1, 4]
    assert cli("log", "--as", "thureck").stdout.count("Thureck") == 1


@pytest.mark.slow
def test_log_show_of_a_long_command_replays_all_of_it():
    shown = cli("cypher", "task", "-d", "3", "-n", "1200", "--log")
    run = cli("log", "show", "1")
    assert run.exit_code == 0, run.stderr
    assert split_header(run.stdout)[1] == shown.stdout


@pytest.mark.parametrize("args", [("seyruun", "reroll"), ("seyruun", "reroll", "3"),
                                  ("again",), ("log",), ("log", "stats"), ("log", "show", "1")])
def test_a_command_that_only_reads_the_log_creates_none(args):
    """With no log yet, asking for one (a re-roll of nothing, ``again``, the list) is an
    answer, not a new empty database: nothing is written until a command needs it."""
    cli(*args)
    assert not any(home().iterdir()), sorted(p.name for p in home().iterdir())


def test_log_stats_fits_80_columns():
    """The luck verdict (``... beyond luck: check the dice (or the log)``) and the χ² line
    wrap to the terminal like every view."""
    for _ in range(20):  # enough rolls for a verdict
        drawn(cli("crytures", "roll", "6", "--die-mod", "3", "--roll-mod", "2", "-d", "7", "-c",
                  "3", "--attack", "--log", "--dice", "3,3,1,5,6,2,4,1,2"))
    run = cli("log", "stats", env={"COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    assert "beyond luck" in run.stdout
    lines = run.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [ln for ln in lines if len(ln) > 80]


@pytest.mark.process
@pytest.mark.slow
def test_the_time_column_dates_entries_not_from_today_in_local_time():
    cli(*ROLL, "--log")
    cli(*ROLL, "--log")
    con = sqlite3.connect(log_path())
    con.execute("UPDATE entries SET time = '2026-11-28T10:00:00Z' WHERE id = 1")
    con.commit()
    con.close()
    for zone, shown in (("UTC", "2026-11-28 10:00"), ("Asia/Tokyo", "2026-11-28 19:00")):
        run = proc("log", env={"TZ": zone, "COLUMNS": "100"})
        assert run.returncode == 0, run.stderr
        # each entry's first line (a long verdict may wrap its command onto a second)
        old, new = [x for x in run.stdout.splitlines()[1:] if re.match(r"^\s*\d+\s", x)]
        assert shown in old
        # today's entry: the time alone (HH:MM:SS), no date
        assert re.search(r"^\s*2\s+\d\d:\d\d:\d\d\s", new), new
        header = split_header(proc("log", "show", "1", env={"TZ": zone}).stdout)[0]
        assert shown in header


def test_what_secret_rolls_hold_back_is_found_by_index_not_by_reading_every_entry():
    """Schema 7: serve asks after each roll which secret entries are unrevealed (and which
    are re-rolls); those queries use the partial indexes, never a scan of the entries."""
    cli(*ROLL, "--log")
    con = sqlite3.connect(log_path())
    plan = " ".join(row[3] for row in con.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM entries WHERE secret = 1 AND revealed_at IS NULL "
        "AND (command LIKE '%reroll%' OR id IN (SELECT rerolled_by FROM entries WHERE "
        "rerolled_by IS NOT NULL)) ORDER BY id DESC LIMIT 100"))
    assert "USING INDEX entries_unrevealed" in plan and "entries_rerolled" in plan, plan
    assert "SCAN entries" not in plan.replace("SCAN entries USING", ""), plan
