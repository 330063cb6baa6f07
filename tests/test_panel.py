"""``GET /api/panel`` (CLI.md, "What the table sees"): what a token may roll, as data made
from the commands' records — the same declaration the command line and its ``--help`` are
made from, so a parameter the command line takes is on the panel and one it does not is not."""

from __future__ import annotations

import json

import pytest

from conftest import character, make_character, ok
from test_seats import seat_token
from test_serve import serving


def _panel(seat):
    from rpgdice.serve.panel import panel
    from rpgdice.table import seats

    return panel("gm" if seat == "gm" else seats.find(seat))


def _options(command_help: str) -> set[str]:
    """The long options a help page lists (the command line's own declaration)."""
    import re

    return set(re.findall(r"(--[a-z][a-z-]+)", command_help))


def test_a_seat_gets_its_characters_their_sheets_and_the_commands_they_may_run():
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    got = _panel("ana")
    (ysolde,) = got["characters"]
    assert ysolde["name"] == "Ysolde" and ysolde["ruleset"] == "seyruun"
    lines = [c["line"] for c in ysolde["commands"]]
    assert "seyruun roll" in lines and "seyruun reroll" not in lines  # a seat may not re-roll
    traits = {t["name"]: t for t in ysolde["sheet"]["traits"]}
    assert traits["dexterity"]["offered"] and not traits.get("willpower", {"offered": False})["offered"]
    assert [r["name"] for r in got["rulesets"]] == ["dice"]  # a seat rolls ordinary dice too


def test_a_commands_params_are_its_records_and_match_its_help_page():
    make_character("Brakka", "crytures", {"brawn": 3, "fighting": 2, "stamina": 4})
    ok("seat", "add", "bo", "--as", "brakka")
    (brakka,) = _panel("bo")["characters"]
    (roll,) = [c for c in brakka["commands"] if c["line"] == "crytures roll"]
    by_name = {p["name"]: p for p in roll["params"]}
    assert by_name["pool"]["option"] is None and by_name["pool"]["kind"] == "traits"
    assert by_name["pool"]["required"] is True
    assert by_name["difficulty"] == {**by_name["difficulty"], "option": "--difficulty",
                                     "kind": "number", "default": 6, "min": 1}
    assert by_name["attack"]["kind"] == "flag" and by_name["die_mod"]["multiple"] is True
    options = {p["option"] for p in roll["params"] if p["option"]}
    page = ok("crytures", "roll", "--help", env={"COLUMNS": "200"}).stdout
    shared = {"--dice", "--seed", "--times", "--json", "--odds", "--log", "--no-log", "--short",
              "--secret", "--blind", "--compare", "--as", "--help",
              "--willpower"}  # named by --compare's help, as its example
    assert options <= _options(page) and _options(page) - options <= shared


def test_the_gm_gets_every_character_and_every_rulesets_commands():
    character("Ysolde")
    make_character("Brakka", "crytures", {"brawn": 3})
    got = _panel("gm")
    assert {c["name"] for c in got["characters"]} == {"Ysolde", "Brakka"}
    from rpgdice import rulesets

    assert [r["name"] for r in got["rulesets"]] == list(rulesets.names())
    assert all(r["commands"] for r in got["rulesets"])


@pytest.mark.process
@pytest.mark.slow
def test_get_api_panel_needs_a_token(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    token = seat_token("ana")
    with serving(tmp=tmp_path) as server:
        status, body = server.get("/api/panel", {"Authorization": f"Bearer {token}"})
        assert status == 200
        assert [c["name"] for c in json.loads(body)["characters"]] == ["Ysolde"]
        assert server.get("/api/panel")[0] == 403
        assert server.get("/api/panel", {"Authorization": "Bearer nothing-at-all"})[0] == 403
