"""A player's own terminal, joined (CLI.md, "What the table sees"): while joined to a
table, ``char show NAME`` of the seat's own characters is the table's sheet (``--here``:
this machine's), ``char list`` the seat's characters, and ``again`` the seat's last roll
at the table, from whichever device the seat rolled it. Against a real server on a free
port; the player's terminal keeps its own files (another RPGDICE_HOME) as a player's
machine does."""

from __future__ import annotations

import json

import pytest

from conftest import character, ok, proc
from test_seats import seat_token
from test_serve import serving


@pytest.fixture
def player(tmp_path):
    """The player's machine: its own folder, with a sheet of the same name of its own."""
    mine = tmp_path / "player"
    mine.mkdir()
    env = {"RPGDICE_HOME": str(mine)}
    made = proc("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=1", env=env)
    assert made.returncode == 0, made.stderr
    return env


def _json_lines(run) -> list[dict]:
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.mark.slow
@pytest.mark.process
def test_a_joined_terminal_shows_and_lists_the_seats_characters_as_the_table_has_them(
        tmp_path, player):
    character("Ysolde", willpower=5)
    character("Thureck")
    ok("seat", "add", "ana", "--as", "ysolde")
    with serving(tmp=tmp_path) as server:
        joined = proc("table", "join", f"{server.base}/?seat={seat_token('ana')}", env=player)
        assert joined.returncode == 0, joined.stderr
        table = ok("char", "show", "ysolde", "--json").json()
        assert _json_lines(proc("char", "show", "ysolde", "--json", env=player)) == table
        text = proc("char", "show", "YSOLDE", env=player)
        assert text.returncode == 0 and "Willpower" in text.stdout
        assert "at the table 127.0.0.1:" in text.stdout
        (mine,) = _json_lines(proc("char", "show", "ysolde", "--json", "--here", env=player))
        assert mine["traits"] == {"dexterity": 1}  # this machine's sheet, only with --here
        assert proc("seyruun", "roll", "dexterity", "stealth", "--willpower",
                    env=player).returncode == 0
        (after,) = _json_lines(proc("char", "show", "ysolde", "--json", env=player))
        assert after["willpower"] == 4 == ok("char", "show", "ysolde", "--json").json()[0][
            "willpower"]
        # Not one of the seat's: this machine's files, as before (none of that name here).
        gone = proc("char", "show", "thureck", env=player)
        assert gone.returncode == 2 and "no character" in gone.stderr
        assert _json_lines(proc("char", "list", "--json", env=player)) == [
            {"name": "Ysolde", "ruleset": "seyruun", "file": None}]
        listed = proc("char", "list", env=player).stdout
        assert listed.split()[:2] == ["Ysolde", "seyruun"] and server.base in listed
        here = _json_lines(proc("char", "list", "--json", "--here", env=player))
        assert [c["name"] for c in here] == ["Ysolde"] and here[0]["file"].startswith(
            player["RPGDICE_HOME"])
    silent = proc("char", "list", env=player)
    assert silent.returncode == 2 and server.base in silent.stderr and silent.stdout == ""


@pytest.mark.slow
@pytest.mark.process
def test_again_at_the_table_repeats_the_seats_last_roll_from_whichever_device(tmp_path, player):
    import urllib.request

    character("Ysolde", willpower=5)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo")
    token = seat_token("ana")
    with serving(tmp=tmp_path) as server:
        assert proc("table", "join", f"{server.base}/?seat={token}", env=player).returncode == 0
        none = proc("again", env=player)
        assert none.returncode == 2 and "no roll of seat ana" in none.stderr
        # The seat rolls from its phone (POST /api/roll), then others roll after it.
        request = urllib.request.Request(
            server.base + "/api/roll", data=json.dumps(
                {"line": "seyruun roll dexterity stealth --willpower"}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
        ok("roll", "1d6", "--log")  # the GM's terminal
        ok("encounter", "start", "Yara=3+3", "Ghoul=2+2", "--log")  # a change: never repeated
        run = proc("again", "--json", env=player)
        assert run.returncode == 0, run.stderr
        (rolled,) = _json_lines(run)
        assert rolled["command"] == "roll" and rolled["willpower_spent"] == 1
        assert "again: seyruun roll dexterity stealth --willpower --as Ysolde --json" in run.stderr
        entries = [json.loads(line) for line in ok("log", "--json", "--last", "10").stdout.splitlines()]
        assert entries[-1]["seat"] == "ana" and entries[-1]["argv"][:4] == [
            "seyruun", "roll", "dexterity", "stealth"]
        assert ok("char", "show", "ysolde", "--json").json()[0]["willpower"] == 3
        # --here: this machine's own log, which holds no roll
        here = proc("again", "--here", env=player)
        assert here.returncode == 2 and "empty" in here.stderr
