"""``--blind`` (CLI.md, "What the table sees", roll modes): a secret roll the GM alone sees.
Logged with ``secret`` and ``blind`` true, shown whole on the terminal that rolled it (there
``--blind`` is ``--secret``), hidden on every page and feed but the GM's screen, a seat's
blind roll answered with a hidden roll's keys alone, and ``log reveal`` reveals it. The
server's side (the GM's screen, its Reveal) is tests/test_gm_screen.py."""

from __future__ import annotations

import json

import pytest

from conftest import assert_usage_error, character, cli, logged_entry, ok

HIDDEN = ["id", "time", "character", "seat", "ruleset", "command", "secret", "blind"]


def last_entry() -> dict:
    return json.loads(ok("log", "--json").stdout.splitlines()[-1])


@pytest.mark.slow  # about 0.4 s (several rolls and cards)
def test_a_blind_roll_is_logged_secret_and_blind_shown_here_and_revealed_by_log_reveal():
    rolled = ok("roll", "2d6", "--dice", "3,4", "--blind", "--json")  # logged whatever RPGDICE_LOG
    assert json.loads(rolled.stdout)["total"] == 7  # at a terminal --blind is --secret
    entry = last_entry()
    assert entry["secret"] is True and entry["blind"] is True and entry["results"]
    text = ok("log").stdout
    assert "(blind)" in text
    secret = ok("roll", "1d6", "--dice", "2", "--secret", "--json")
    assert json.loads(secret.stdout)["total"] == 2
    assert last_entry()["secret"] is True and last_entry()["blind"] is False
    assert "Entry 1 is public now." in ok("log", "reveal", str(entry["id"])).stdout
    revealed = json.loads(ok("log", "--json").stdout.splitlines()[0])
    assert revealed["secret"] is False and revealed["blind"] is False
    assert revealed["revealed"] is not None


def test_blind_with_no_log_is_a_usage_error_naming_blind():
    assert_usage_error(cli("roll", "1d6", "--blind", "--no-log"), "--blind", "--no-log")
    assert ok("log", "--json").stdout == ""


def test_a_blind_entry_gives_the_table_its_hidden_keys_and_the_page_a_secret_card():
    from rpgdice.serve import views
    from rpgdice.table.log import on_the_table

    character("Ysolde")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "3", "--blind")
    entry = logged_entry(1)
    shown = on_the_table(entry)
    assert list(shown) == HIDDEN and shown["blind"] is True and shown["secret"] is True
    card = views.entry_html(entry)
    assert "a secret roll" in card and "Ysolde" in card
    whole = json.dumps(entry["results"])
    assert "dice" in whole and "dice" not in json.dumps(shown)
    assert 'class="verdict' not in card and "results" not in card


def test_a_seat_that_rolls_blind_gets_only_the_hidden_keys_and_spends_from_its_sheet():
    from rpgdice.cli.seated import roll_line
    from rpgdice.table import seats

    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    before = json.loads(ok("char", "show", "ysolde", "--json").stdout)["willpower"]
    answer = roll_line("seyruun roll dexterity stealth --willpower --blind", seats.find("ana"))
    assert answer.status == 200, answer.body
    assert list(answer.body) == ["rolls"]
    (got,) = answer.body["rolls"]
    assert list(got) == HIDDEN
    entry = logged_entry(got["id"])
    assert got == {"id": entry["id"], "time": entry["time"], "character": "Ysolde",
                   "seat": "ana", "ruleset": "seyruun", "command": "roll", "secret": True,
                   "blind": True}
    assert entry["blind"] is True and entry["results"][0]["willpower_spent"] == 1
    after = json.loads(ok("char", "show", "ysolde", "--json").stdout)["willpower"]
    assert after == before - 1  # paid from its sheet as any roll of its


def test_the_gm_rolling_blind_at_the_table_is_answered_whole():
    from rpgdice.cli.seated import roll_line

    answer = roll_line("roll 1d6 --dice 4 --blind", None, gm=True)
    assert answer.status == 200 and answer.body["rolls"][0]["total"] == 4
    assert logged_entry(answer.body["rolls"][0]["id"])["blind"] is True


@pytest.mark.parametrize("line", ["roll 2d6 --blind", "seyruun roll 3 2 --blind -n 2"])
def test_blind_is_no_part_of_the_short_line(line):
    out = ok(*line.split(), "--short").stdout
    assert "--blind" not in out and out.strip()


def test_again_repeats_a_blind_roll_blind():
    ok("roll", "1d6", "--blind")
    ok("again", quiet=False)
    assert last_entry()["blind"] is True and last_entry()["id"] == 2
