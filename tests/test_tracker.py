"""The encounter as a combat tracker (CLI.md, "What the table sees"): each combatant's
initiative shown in every ruleset, and its conditions — ``encounter mark NAME CONDITION
[--rounds N]`` and ``encounter unmark NAME [CONDITION]``, counted down by ``next``."""

from __future__ import annotations

import json

import pytest

from conftest import assert_usage_error, cli, home, make_character, ok


def state() -> dict:
    return json.loads(ok("encounter", "--json").stdout)


def conditions(name: str) -> list[dict]:
    (side,) = [s for s in state()["order"] if s["name"] == name]
    return side["conditions"]


def changes() -> list[dict]:
    return [json.loads(line) for line in ok("log", "--json").stdout.splitlines()]


@pytest.fixture
def fight():
    """Cypher, three extras: Ana (12) acts first, then Bo (8), then Cy (3)."""
    ok("encounter", "start", "--ruleset", "cypher", "Ana@12", "Bo@8", "Cy@3", "--no-log")


def test_mark_keeps_a_condition_in_the_file_and_json_until_unmarked(fight):
    ok("encounter", "mark", "Bo", "blessed +1", "--no-log")
    ok("encounter", "mark", "bo", "prone", "--rounds", "2", "--no-log")
    assert conditions("Bo") == [{"name": "blessed +1", "rounds": None},
                                {"name": "prone", "rounds": 2}]
    assert conditions("Ana") == [] and conditions("Cy") == []
    assert "prone" in (home() / "encounter.toml").read_text()
    ok("encounter", "unmark", "Bo", "prone", "--no-log")
    assert conditions("Bo") == [{"name": "blessed +1", "rounds": None}]
    ok("encounter", "mark", "Bo", "prone", "--no-log")
    ok("encounter", "unmark", "Bo", "--no-log")
    assert conditions("Bo") == []


def test_marked_again_a_condition_starts_its_rounds_over(fight):
    ok("encounter", "mark", "Bo", "prone", "--rounds", "1", "--no-log")
    ok("encounter", "mark", "Bo", "Prone", "--rounds", "3", "--no-log")
    assert conditions("Bo") == [{"name": "Prone", "rounds": 3}]


def test_next_counts_down_the_turn_that_ends_and_says_when_one_ends(fight):
    ok("encounter", "mark", "Ana", "prone", "--rounds", "2", "--no-log")  # its turn under way
    ok("encounter", "mark", "Bo", "dazed", "--rounds", "1", "--no-log")
    ok("encounter", "mark", "Cy", "blessed", "--no-log")
    shown = ok("encounter", "next", "--no-log").stdout  # Ana's turn ends
    assert conditions("Ana") == [{"name": "prone", "rounds": 1}] and "ends" not in shown
    assert conditions("Bo") == [{"name": "dazed", "rounds": 1}]  # others count nothing
    shown = ok("encounter", "next", "--log").stdout  # Bo's turn ends: dazed ends
    assert "Bo: dazed ends" in shown and conditions("Bo") == []
    assert changes()[-1]["results"][0]["said"] == "Round 1 — Cy's turn; Bo: dazed ends"
    ok("encounter", "next", "--no-log")  # Cy's: no rounds, nothing counted
    assert conditions("Cy") == [{"name": "blessed", "rounds": None}]
    data = json.loads(ok("encounter", "next", "--json", "--no-log").stdout)  # Ana's second
    assert data["order"][0]["conditions"] == [] and data["current"] == "Bo"


def test_a_turn_skipped_out_counts_nothing_and_rm_takes_the_conditions_away(fight):
    ok("encounter", "mark", "Bo", "dazed", "--rounds", "1", "--no-log")
    ok("encounter", "out", "Bo", "--no-log")
    ok("encounter", "next", "--no-log")  # Ana's turn ends; Bo skipped
    ok("encounter", "next", "--no-log")  # Cy's ends; Bo skipped again
    assert conditions("Bo") == [{"name": "dazed", "rounds": 1}]
    ok("encounter", "rm", "Bo", "--no-log")
    ok("encounter", "add", "Bo@8", "--no-log")
    assert conditions("Bo") == []


def test_mark_and_unmark_are_logged_as_changes_of_the_encounter(fight):
    ok("encounter", "mark", "Cy", "on fire", "--rounds", "3", "--log")
    ok("encounter", "unmark", "Cy", "ON FIRE", "--log")
    mark, unmark = changes()
    assert mark["command"] == "encounter mark" and unmark["command"] == "encounter unmark"
    assert mark["results"][0]["said"] == "Cy is on fire for 3 rounds"
    assert mark["results"][0]["encounter"]["order"][2]["conditions"] == [
        {"name": "on fire", "rounds": 3}]
    assert unmark["results"][0]["said"] == "Cy: on fire ends"
    run = cli("again")  # a change is never repeated
    assert run.exit_code == 2


def test_the_terminal_shows_initiative_and_conditions_control_characters_visible(fight):
    ok("encounter", "mark", "Ana", "stunned\x1b[31m", "--rounds", "2", "--no-log")
    shown = ok("encounter").stdout
    header = next(line for line in shown.splitlines() if "name" in line)
    assert header.split()[:3] == ["#", "init", "name"] and "conditions" in header
    row = next(line for line in shown.splitlines() if "Ana (extra)" in line)
    assert "12" in row.split() and "stunned\\x1b[31m (2)" in row and "\x1b" not in shown
    assert conditions("Ana") == [{"name": "stunned\x1b[31m", "rounds": 2}]  # as given


def test_every_ruleset_shows_its_initiative():
    make_character("Ysolde", "seyruun", wits=2, dexterity=3, composure=2, resolve=2)
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--dice", "6,1,1,1,1,1,1,1,1", "--no-log")
    ghoul = state()["order"][1]
    assert ghoul["name"] == "Ghoul" and isinstance(ghoul["initiative"], int)
    row = next(line for line in ok("encounter").stdout.splitlines() if "Ghoul" in line)
    assert row.split()[:2] == ["2", str(ghoul["initiative"])]


@pytest.mark.parametrize("args, fragment", [
    (["mark", "Ana", ""], "CONDITION"),
    (["mark", "Ana", "   "], "CONDITION"),
    (["mark", "Ana", "x" * 41], "CONDITION"),
    (["mark", "Ana", "prone", "--rounds", "0"], "--rounds"),
    (["mark", "Nobody", "prone"], "Nobody"),
    (["unmark", "Ana"], "no conditions"),
    (["unmark", "Nobody"], "Nobody"),
])
def test_a_bad_mark_or_unmark_exits_2_and_changes_nothing(fight, args, fragment):
    before = (home() / "encounter.toml").read_text()
    assert_usage_error(cli("encounter", *args, "--log"), fragment)
    assert (home() / "encounter.toml").read_text() == before
    assert ok("log", "--json").stdout == ""


def test_a_condition_of_40_characters_a_control_character_counting_one(fight):
    ok("encounter", "mark", "Ana", "x" * 39 + "\x07", "--no-log")
    assert conditions("Ana")[0]["name"] == "x" * 39 + "\x07"


def test_unmark_of_a_condition_not_had_names_those_it_has(fight):
    ok("encounter", "mark", "Ana", "prone", "--no-log")
    assert_usage_error(cli("encounter", "unmark", "Ana", "dazed"), "dazed", "prone")
    assert conditions("Ana") == [{"name": "prone", "rounds": None}]


def test_without_an_encounter_mark_says_so():
    assert_usage_error(cli("encounter", "mark", "Ana", "prone"), "no encounter")


def test_a_hand_broken_condition_is_an_error_naming_the_file(fight):
    path = home() / "encounter.toml"
    path.write_text(path.read_text().replace("initiative = 12",
                                             'initiative = 12\nconditions = [{rounds = 2}]'))
    run = cli("encounter")
    assert run.exit_code != 0 and "encounter.toml" in run.stderr


def test_a_seat_may_not_mark():
    from conftest import character
    from rpgdice.cli.seated import roll_line
    from rpgdice.table import seats

    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "--ruleset", "cypher", "Ana@12", "Bo@8", "--no-log")
    for line in ("encounter mark Bo prone", "encounter unmark Bo"):
        answer = roll_line(line, seats.find("ana"), gm=False)
        assert answer.status == 403, answer.body
    assert conditions("Bo") == []


def test_the_pages_encounter_shows_initiative_and_conditions(fight):
    from rpgdice.serve.views import encounter_html

    ok("encounter", "mark", "Bo", "<b>prone</b>", "--rounds", "2", "--no-log")
    html = encounter_html(state())
    assert '<span class="init">8</span>' in html
    assert '<span class="cond">&lt;b&gt;prone&lt;/b&gt; (2)</span>' in html


def test_the_limits_of_conditions_are_the_references(fight):
    from test_limits import TEXT

    assert ("a condition of the encounter (`encounter mark`) | 1–40 characters (a control "
            "character counts one); 20 a combatant; `--rounds` 1–1000") in TEXT
    for n in range(20):
        ok("encounter", "mark", "Ana", f"c{n}", "--rounds", "1000", "--no-log")
    assert len(conditions("Ana")) == 20
    assert_usage_error(cli("encounter", "mark", "Ana", "c20"), "20 conditions")
    assert_usage_error(cli("encounter", "mark", "Bo", "x", "--rounds", "1001"), "--rounds")
    ok("encounter", "mark", "Ana", "C19", "--no-log")  # marked again: no new one
    assert conditions("Ana")[-1] == {"name": "C19", "rounds": None}


def test_a_narrow_terminal_shows_the_initiative_after_the_name(fight):
    import io

    from rich.console import Console

    from rpgdice.render.encounter import encounter_view

    def shown(width: int) -> str:
        out = Console(width=width, record=True, file=io.StringIO())
        out.print(encounter_view(state(), width, "cypher"))
        return out.export_text()

    narrow, wide = shown(40), shown(80)
    assert "init" not in narrow.splitlines()[1].split() and "init 12" in narrow
    assert wide.splitlines()[1].split()[:3] == ["#", "init", "name"] and "init 12" not in wide
