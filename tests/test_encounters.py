"""Encounters in every ruleset (CLI.md "The table's state", RULES.md "Encounters in every
ruleset"): start with --ruleset, NAME@INIT, a sheet's initiative, --health; add, rm, delay,
out, back walked step by step; out on their own by the rules, back when healed."""

from __future__ import annotations

import json

import pytest

from conftest import assert_usage_error, cli, make_character, ok
from rpgdice.table import encounter


def state() -> dict:
    return json.loads(ok("encounter", "--json").stdout)


def step(*args: str) -> dict:
    return json.loads(ok("encounter", *args, "--json").stdout)


def order(got: dict) -> list[str]:
    return [s["name"] for s in got["order"]]


def where(got: dict) -> tuple[int, str]:
    return got["round"], got["current"]


# Starting in every ruleset ------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["crytures", "reglas", "cypher"])
def test_the_rulesets_without_initiative_take_init_highest_first_ties_as_named(ruleset):
    got = step("start", "--ruleset", ruleset, "A@5", "B@9", "C@5", "D@1d6+2", "--dice", "5")
    assert order(got) == ["B", "D", "A", "C"]
    assert [s["rank"] for s in got["order"]] == [1, 2, 3, 4]
    assert [s["initiative"] for s in got["order"]] == [9, 7, 5, 5]
    assert all(s["extra"] and not s["character"] and not s["out"] for s in got["order"])
    assert where(got) == (1, "B")


def test_a_sheets_initiative_a_number_or_dice_and_the_ruleset_from_it():
    make_character("Ana", "cypher", might=10, speed=8, intellect=6, initiative=12)
    make_character("Bo", "cypher", might=6, speed=6, intellect=6, initiative="1d20+1")
    got = step("start", "ana", "Goblin@15", "bo", "--health", "5", "--dice", "20")
    assert order(got) == ["Bo", "Goblin", "Ana"]
    bo, goblin, ana = got["order"]
    assert bo["character"] and bo["initiative"] == 21 and bo["state"] == "hale"
    assert ana["pools"] == {"might": {"value": 10, "max": 10}, "speed": {"value": 8, "max": 8},
                            "intellect": {"value": 6, "max": 6}}
    assert goblin["health"] == 5 and goblin["damage"] == 0 and goblin["state"] == "hale"
    assert encounter.load().ruleset == "cypher"


def test_a_reglas_sheet_says_initiative_in_its_own_words():
    # Reglas' word for it is its trait's name: no "did you mean initiative?", the spelling
    # kept, the encounter takes it; the English name keeps working, and names the same trait
    run = ok("char", "new", "Thureck", "--ruleset", "reglas", "destreza=4", "iniciativa=7")
    assert run.stderr == ""
    make_character("Ana", "reglas", {"Iniciativa": "1d10"})
    make_character("Bo", "reglas", initiative=5)
    got = step("start", "thureck", "ana", "bo", "Gob@6", "--dice", "9")
    assert [(s["name"], s["initiative"]) for s in got["order"]] == [
        ("Ana", 9), ("Thureck", 7), ("Gob", 6), ("Bo", 5)]
    ok("char", "set", "thureck", "initiative=8")  # the same trait, kept as it was spelled
    traits = json.loads(ok("char", "show", "thureck", "--json").stdout)["traits"]
    assert traits == {"destreza": 4, "iniciativa": 8}
    assert "Iniciativa  8" in ok("char", "show", "thureck").stdout
    assert_usage_error(cli("char", "set", "thureck", "iniciativa=2d6x"), "iniciativa")


def test_a_character_with_no_initiative_is_refused_naming_it():
    make_character("Kit", "crytures", stamina=3)
    assert_usage_error(cli("encounter", "start", "kit", "Gob@3"), "Kit", "initiative")
    assert not encounter.path().exists()


def test_no_ruleset_to_tell_asks_for_one_and_a_pool_outside_seyruun_is_refused():
    assert_usage_error(cli("encounter", "start", "A@3", "B@2"), "--ruleset")
    assert_usage_error(cli("encounter", "start", "--ruleset", "reglas", "A=2+2"), "NAME@INIT")
    assert_usage_error(cli("encounter", "start", "--ruleset", "reglas", "A@3", "a@2"), "twice")
    assert not encounter.path().exists()


def test_seyruun_rolls_its_pools_and_places_a_given_initiative_among_them():
    # A 4 dice: 8 8 2 2 -> 2 successes; B 2 dice: 2 2 -> 0; C@1: one success's place
    got = step("start", "--ruleset", "seyruun", "A=2+2", "B=1+1", "C@1", "--dice", "8,8,2,2,2,2")
    assert order(got) == ["A", "C", "B"]
    assert got["order"][0]["health"] == 7 and got["order"][0]["state"] == "none"


# The turn and round rules, step by step -----------------------------------------------


@pytest.fixture
def five():
    got = step("start", "--ruleset", "reglas", "A@50", "B@40", "C@30", "D@20", "E@10")
    assert order(got) == list("ABCDE")
    return got


def test_next_walks_the_order_and_starts_a_new_round_after_the_last(five):
    seen = [where(step("next")) for _ in range(5)]
    assert seen == [(1, "B"), (1, "C"), (1, "D"), (1, "E"), (2, "A")]


def test_add_after_the_current_turn_acts_this_round(five):
    step("next")  # B's turn
    got = step("add", "F@35")
    assert order(got) == list("ABFCDE") and where(got) == (1, "B")
    assert [where(step("next")) for _ in range(2)] == [(1, "F"), (1, "C")]


def test_add_before_the_current_turn_first_acts_next_round(five):
    step("next")
    step("next")  # C's turn
    got = step("add", "F@45")
    assert order(got) == list("AFBCDE") and where(got) == (1, "C")
    assert [where(step("next")) for _ in range(4)] == [(1, "D"), (1, "E"), (2, "A"), (2, "F")]


def test_add_takes_dice_for_the_newcomers_initiative_as_start_does(five):
    # its help promises "--dice faces go to them in this order": dice expressions, then a
    # sheet's initiative, in the order named; too few or too many faces is a usage error
    make_character("Ana", "reglas", initiative="1d10")
    got = step("add", "F@1d20+2", "ana", "G@2d6", "--dice", "20,3,6,6")
    assert {s["name"]: s["initiative"] for s in got["order"]} == {
        "A": 50, "B": 40, "C": 30, "F": 22, "D": 20, "G": 12, "E": 10, "Ana": 3}
    assert_usage_error(cli("encounter", "add", "H@1d20", "--dice", "5,5"), "--dice")
    assert_usage_error(cli("encounter", "add", "H@2d6", "--dice", "5"), "--dice")
    assert "H" not in order(state())
    assert "--dice" in ok("encounter", "add", "--help").stdout


def test_add_gives_dice_to_seyruuns_own_initiative_roll():
    step("start", "--ruleset", "seyruun", "A=2+2", "--dice", "8,8,2,2")
    # B's 3 dice 9 9 9: 3 successes, ahead of A's 2; C@1d6 takes the face after them (6)
    got = step("add", "B=2+1", "C@1d6", "--dice", "9,9,9,6")
    assert order(got) == ["C", "B", "A"]
    assert [s["initiative"] for s in got["order"]] == [6, 3, 2]


def test_rm_closes_the_order_and_the_current_ones_turn_passes_on(five):
    step("next")  # B
    got = step("rm", "b")
    assert order(got) == list("ACDE") and where(got) == (1, "C")
    got = step("rm", "A")  # before the current: the turn stays C's
    assert order(got) == list("CDE") and where(got) == (1, "C")
    step("next")
    step("next")  # E, the last
    got = step("rm", "E")  # the last one's turn passes to a new round
    assert where(got) == (2, "C")
    assert_usage_error(cli("encounter", "rm", "Zed"), "Zed", "not in the encounter")


def test_the_last_combatant_cannot_be_removed():
    step("start", "--ruleset", "reglas", "A@1")
    assert_usage_error(cli("encounter", "rm", "A"), "encounter end")


def test_delay_moves_the_current_one_last_and_keeps_that_place(five):
    got = step("delay")  # A waits: it acts last
    assert order(got) == list("BCDEA") and where(got) == (1, "B")
    seen = [where(step("next")) for _ in range(5)]
    assert seen == [(1, "C"), (1, "D"), (1, "E"), (1, "A"), (2, "B")]


def test_delay_after_a_name(five):
    step("next")  # B
    got = step("delay", "--after", "D")
    assert order(got) == list("ACDBE") and where(got) == (1, "C")
    assert [where(step("next")) for _ in range(3)] == [(1, "D"), (1, "B"), (1, "E")]


def test_delay_after_someone_out_or_unknown_is_refused_and_changes_nothing(five):
    step("out", "D")
    before = encounter.path().read_text()
    assert_usage_error(cli("encounter", "delay", "--after", "D"), "D", "out of the fight")
    assert_usage_error(cli("encounter", "delay", "--after", "Zed"), "Zed")
    assert encounter.path().read_text() == before


def test_out_is_skipped_and_back_returns(five):
    got = step("out", "C")
    assert got["order"][2]["out"] is True
    assert [where(step("next")) for _ in range(2)] == [(1, "B"), (1, "D")]
    got = step("back", "C")
    assert got["order"][2]["out"] is False
    assert [where(step("next")) for _ in range(4)] == [(1, "E"), (2, "A"), (2, "B"), (2, "C")]


def test_out_of_the_current_one_passes_the_turn(five):
    got = step("out", "A")
    assert where(got) == (1, "B")
    assert "out" in ok("encounter").stdout


# Out on their own, back when healed ------------------------------------------------------


def test_a_seyruun_extra_at_its_health_is_out_and_skipped():
    step("start", "A=2+2", "Thug=1+1", "--health", "1", "--dice", "8,8,2,2,2,2")
    # attack 2+1, 3 dice: 8 2 2 hits (1 success); damage 1 die: 8, one point on health 1
    ok("seyruun", "attack", "2+1", "--damage", "1", "--vs", "Thug", "--dice", "8,2,2,8")
    got = state()
    assert got["order"][1]["out"] is True and got["order"][1]["damage"] == 1
    assert where(step("next")) == (2, "A")


def test_a_seyruun_character_at_its_health_is_out_until_healed():
    make_character("Ysolde", "seyruun", wits=3, dexterity=3, composure=3, resolve=2)
    step("start", "Ysolde@9", "B=1+1", "--dice", "2,2")
    ok("char", "set", "Ysolde", "damage=7")
    assert state()["order"][0]["out"] is True
    assert [where(step("next")) for _ in range(2)] == [(1, "B"), (2, "B")]  # Ysolde skipped
    ok("char", "set", "Ysolde", "damage-=1")
    got = state()
    assert got["order"][0]["out"] is False and got["order"][0]["state"] == "severe"


def test_a_cypher_character_with_three_pools_at_0_is_dead_and_out():
    make_character("Ana", "cypher", might=1, speed=1, intellect=1)
    step("start", "Ana@5", "Gob@9", "--health", "3")
    ok("cypher", "task", "-d", "1", "--attack", "--damage", "3", "--vs", "Ana", "--dice", "10")
    ana = state()["order"][1]
    assert ana["state"] == "dead" and ana["out"] is True
    assert where(step("next")) == (2, "Gob")
    ok("cypher", "recover", "--as", "Ana", "--dice", "1")  # 1 + 1 = 2: Might 1 (its max), Speed 1
    ana = state()["order"][1]
    assert ana["state"] == "impaired" and ana["out"] is False


def test_a_cypher_extra_at_0_health_is_out():
    step("start", "--ruleset", "cypher", "Gob@9", "Orc@3", "--health", "4")
    ok("cypher", "task", "-d", "1", "--attack", "--damage", "4", "--vs", "Gob", "--dice", "10")
    gob = state()["order"][0]
    assert gob["damage"] == 4 and gob["state"] == "dead" and gob["out"] is True


def test_an_encounter_of_an_older_rpgdice_is_seyruun():
    encounter.path().parent.mkdir(parents=True, exist_ok=True)
    encounter.path().write_text('round = 1\nturn = 0\n[[order]]\nname = "A"\nrank = 1\n'
                                'character = false\n')
    got = state()
    assert got["order"][0]["health"] == 7 and got["order"][0]["out"] is False


@pytest.mark.slow
@pytest.mark.process
def test_changes_at_once_lose_nothing(monkeypatch):
    """Six terminals at once: four newcomers join, one leaves, one is put out."""
    import os
    import subprocess
    import sys

    monkeypatch.setenv("RPGDICE_LOG", "always")
    step("start", "--ruleset", "reglas", "A@50", "B@40", "C@30")
    lines = [["add", "N1@45"], ["add", "N2@35"], ["add", "N3@25"], ["add", "N4@5"],
             ["rm", "B"], ["out", "C"]]
    procs = [subprocess.Popen([sys.executable, "-m", "rpgdice", "encounter", *line],
                              env=dict(os.environ), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for line in lines]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    got = state()
    assert order(got) == ["A", "N1", "N2", "C", "N3", "N4"]
    assert [s["out"] for s in got["order"]] == [False, False, False, True, False, False]
    # Each change logged once, in the order the changes were made (logged under the
    # encounter's lock): each state is the one before it with that one change.
    entries = logged()
    assert sorted(e["command"] for e in entries) == sorted(
        ["encounter start"] + ["encounter add"] * 4 + ["encounter rm", "encounter out"])
    states = [e["results"][0]["encounter"] for e in entries]
    for before, entry, after in zip(states, entries[1:], states[1:]):
        joined = {s["name"] for s in after["order"]} - {s["name"] for s in before["order"]}
        left = {s["name"] for s in before["order"]} - {s["name"] for s in after["order"]}
        outs = [s["name"] for s in after["order"] if s["out"]]
        change, name = entry["argv"][1], entry["argv"][2].split("@")[0]
        assert (joined, left) == (({name}, set()) if change == "add" else
                                  (set(), {name}) if change == "rm" else (set(), set()))
        assert (name in outs) == (change == "out" or name in
                                  [s["name"] for s in before["order"] if s["out"]])
    assert states[-1] == got


# Every change logged like a roll: `rpgdice log` tells the fight's story -----------------


def logged() -> list[dict]:
    return [json.loads(line) for line in ok("log", "--json", "--last", "1000").stdout.splitlines()]


def test_a_whole_fight_walked_step_by_step_is_the_logs_story(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    ok("roll", "2d6", "--seed", "7")  # a roll before the fight: the keys every entry has
    steps = [["start", "--ruleset", "reglas", "Ghoul@9", "Thug@5", "Ana@7"], ["next"],
             ["add", "Goblin@14"], ["delay", "--after", "Thug"], ["out", "Thug"],
             ["back", "Thug"], ["rm", "Goblin"], ["next"], ["next"], ["out", "ana"]]
    states = [step(*words) for words in steps]
    assert ok("encounter", "end").stdout == "encounter ended in round 2 (Ghoul, Thug, Ana)\n"
    roll, *entries = logged()
    assert len(entries) == len(steps) + 1
    assert [e["command"] for e in entries] == [f"encounter {w[0]}" for w in steps] + [
        "encounter end"]
    assert [e["argv"] for e in entries] == [["encounter", *w, "--json"] for w in steps] + [
        ["encounter", "end"]]
    assert all(set(e) == set(roll) for e in entries)  # CLI.md "The log": the same keys
    assert all(e["ruleset"] == "reglas" and e["character"] is None and e["seed"] is None
               and e["outcome"] is None and not e["secret"] and len(e["results"]) == 1
               for e in entries)
    # Each entry holds the state the change left, as `encounter --json` printed it.
    assert [e["results"][0]["encounter"] for e in entries] == [*states, None]
    said = [e["results"][0]["said"] for e in entries]
    assert said == [
        "The encounter starts: Ghoul (9), Ana (7), Thug (5) — round 1, Ghoul's turn",
        "Round 1 — Ana's turn",
        "Goblin joins (initiative 14)",
        "Ana waits until after Thug — round 1, Thug's turn",
        "Thug is out — round 1, Ana's turn",
        "Thug is back in the fight",
        "Goblin leaves the fight",
        "Round 2 — Ghoul's turn",
        "Round 2 — Thug's turn",
        "Ana is out",
        "The encounter ends in round 2 (Ghoul, Thug, Ana)",
    ]
    listing = ok("log", "--last", "50", env={"COLUMNS": "200"}).stdout
    at = [listing.index(line) for line in said]
    assert at == sorted(at)  # in order, each a readable line of `rpgdice log`
    assert "seed None" not in listing and "{" not in listing


def test_log_show_of_a_change_shows_what_was_logged_and_writes_nothing(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    step("start", "--ruleset", "cypher", "Gob@9", "Orc@3", "--health", "4")
    logged_state = step("next")
    ident = logged()[-1]["id"]
    step("out", "Gob")  # the fight goes on: log show shows the state as it was logged
    before = (encounter.path().read_bytes(), encounter.path().stat().st_mtime_ns, logged())
    shown = ok("log", "show", str(ident), env={"COLUMNS": "120"}).stdout
    assert f"#{ident} " in shown and "rpgdice encounter next --json" in shown
    assert "Round 1 — Orc's turn" in shown
    assert "Encounter · round 1  ·  turn: Orc" in shown and " out" not in shown
    assert "seed" not in shown
    as_json = json.loads(ok("log", "show", str(ident), "--json").stdout)
    assert as_json["results"][0]["encounter"] == logged_state and as_json["replayed"] is None
    assert_usage_error(cli("log", "show", str(ident), "--replay"), "no roll", "nothing to replay")
    assert (encounter.path().read_bytes(), encounter.path().stat().st_mtime_ns,
            logged()) == before


def test_again_after_a_change_repeats_the_last_roll_and_changes_nothing(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    assert_usage_error(cli("again"), "empty")
    step("start", "--ruleset", "reglas", "A@5", "B@9")
    step("next")
    assert_usage_error(cli("again"), "no roll to repeat")  # changes are never repeated
    ok("roll", "3d6", "--seed", "4")
    step("next")
    step("out", "A")
    fight = state()
    run = cli("again", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.stderr == "rpgdice: again: roll 3d6 --json\n"
    assert len(json.loads(run.stdout)["terms"][0]["dice"]) == 3
    assert state() == fight  # no change made again
    last = logged()[-1]
    assert last["command"] == "roll" and last["argv"] == ["roll", "3d6", "--json"]


def test_log_stats_counts_the_rolls_not_the_changes(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    ok("seyruun", "roll", "5", "--seed", "1")
    ok("seyruun", "roll", "6", "--seed", "2")
    (before,) = cli("log", "stats", "--json").json()
    step("start", "--ruleset", "seyruun", "A@5", "B@9")
    for _ in range(4):
        step("next")
    step("add", "C@1")
    ok("encounter", "end")
    assert len(logged()) == 2 + 7
    (after,) = cli("log", "stats", "--json").json()
    assert after == before and after["rolls"] == 2 and after["left_out"] == 0
    # within a window too (counted from the entries, not the stats tables)
    (since,) = cli("log", "stats", "--json", "--since", "1d").json()
    assert since["rolls"] == 2
    # and nothing to reveal: a change is never secret
    ident = str(logged()[-1]["id"])
    assert ok("log", "reveal", ident).stdout == f"Entry {ident} is already public; nothing changed.\n"


def test_a_change_that_fails_logs_nothing_and_the_log_rules_are_the_rolls(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    assert_usage_error(cli("encounter", "next"), "encounter")  # no encounter
    assert_usage_error(cli("encounter", "end"), "encounter")
    assert not logged()
    step("start", "--ruleset", "reglas", "A@5", "B@9", "C@2")
    for bad in (["out", "Nobody"], ["rm", "Zed"], ["back", "Q"], ["delay", "--after", "B"],
                ["add", "A@3"], ["add", "D@x"]):
        assert cli("encounter", *bad).exit_code == 2, bad
    assert len(logged()) == 1
    step("next", "--no-log")
    step("out", "C", "--no-log")
    assert len(logged()) == 1
    monkeypatch.setenv("RPGDICE_LOG", "never")
    step("back", "C")
    step("next", "--log")
    assert [e["command"] for e in logged()] == ["encounter start", "encounter next"]
    monkeypatch.setenv("RPGDICE_LOG", "auto")  # stdout is no terminal here: not logged
    step("next")
    monkeypatch.setenv("RPGDICE_LOG", "sometimes")
    fight = state()
    assert_usage_error(cli("encounter", "next"), "RPGDICE_LOG")
    assert state() == fight  # nothing changed either
    monkeypatch.setenv("RPGDICE_LOG", "always")
    ok("encounter", "end", "--no-log")
    assert len(logged()) == 2
    # A start outside Seyruun takes the rolling options: --secret logs it (secret) whatever
    # RPGDICE_LOG says, and --secret --no-log is refused, nothing started.
    assert_usage_error(cli("encounter", "start", "--ruleset", "reglas", "A@5", "--secret",
                           "--no-log"), "--secret")
    assert not encounter.path().exists()
    monkeypatch.setenv("RPGDICE_LOG", "never")
    step("start", "--ruleset", "reglas", "A@5", "B@1d6", "--secret")
    assert [(e["command"], e["secret"]) for e in logged()][-1] == ("encounter start", True)


def test_a_log_that_cannot_be_written_costs_the_change_nothing_but_a_warning(monkeypatch):
    from rpgdice.table import paths

    monkeypatch.setenv("RPGDICE_LOG", "always")
    step("start", "--ruleset", "reglas", "A@5", "B@9")
    where = paths.log_file()
    where.unlink()
    where.mkdir()  # the log's path is a folder now: it cannot be opened
    run = cli("encounter", "next", "--json")
    assert run.exit_code == 0 and json.loads(run.stdout)["current"] == "A"
    assert run.stderr.startswith("rpgdice: warning: the change was not logged")
    assert len(run.stderr.strip().splitlines()) == 1
    assert state()["current"] == "A"


def test_the_page_shows_a_change_as_a_line_and_the_feed_posts_only_next(monkeypatch):
    from rpgdice.serve import discord, views
    from rpgdice.table.log import Log

    monkeypatch.setenv("RPGDICE_LOG", "always")
    step("start", "--ruleset", "crytures", "<b>Kit</b>@12", "Wolf@3")
    step("next")
    step("out", "Wolf")
    ok("roll", "1d6", "--seed", "3")
    log = Log.open(write=False)
    entries = log.last(n=10)
    log.release()
    start, nxt, out, roll = entries
    for entry in (start, nxt, out):
        html = views.entry_html(entry)
        assert html.startswith('<article class="roll change"')
        assert "<details" not in html and "Error" not in html and "<b>" not in html
    assert "<p class=\"change\">Round 1 — Wolf&#x27;s turn</p>" in views.entry_html(nxt)
    assert "Wolf is out — round 2, &lt;b&gt;Kit&lt;/b&gt;&#x27;s turn" in views.entry_html(out)
    assert 'class="roll"' in views.entry_html(roll)  # a roll keeps its card
    assert discord.message(nxt, False) == "Round 1 — Wolf's turn"
    assert discord.message(start, False) is None and discord.message(out, False) is None
    poster = discord.Poster("http://127.0.0.1:9/", lambda t: None, lambda t: None)
    for entry in entries:
        poster.offer(entry)
    queued = [poster.queue.get_nowait() for _ in range(poster.queue.qsize())]
    assert [ident for ident, _ in queued] == [nxt["id"], roll["id"]]


def test_a_given_initiative_is_a_number_toml_and_the_table_can_hold():
    from conftest import cli, ok

    run = cli("encounter", "start", "Orc@5", "Q@" + "9" * 100, "--ruleset", "cypher", "--no-log")
    assert run.exit_code == 2 and "from -1,000,000 to 1,000,000" in run.stderr
    assert cli("encounter").exit_code == 2  # nothing started
    ok("encounter", "start", "Orc@5", "Q@-3", "Z@1000000", "--ruleset", "cypher", "--no-log")
    assert [s["initiative"] for s in json_of(ok("encounter", "--json"))["order"]] == [1000000, 5, -3]


def json_of(run):
    import json

    return json.loads(run.stdout)
