"""The GM's screen (CLI.md, "What the table sees"): its own token (``[gm] token`` in
seats.toml, ``seat link --gm [--new]``), every roll whole with a Reveal on each hidden one
(``POST /api/reveal``), the encounter with its controls (``POST /api/encounter``: next,
out, back, damage, logged as ``encounter next|out|back`` log), while the plain page (the
TV) never shows a hidden roll. In-process where it can be; a real server on a free port,
and one headless Chromium that reveals from the GM's screen and sees the TV's card turn."""

from __future__ import annotations

import json
import os
import re
import stat
import urllib.error
import urllib.request

import pytest

from conftest import assert_usage_error, character, cli, home, logged_entry, ok, proc
from test_serve import Server, events, serving, wait_for

HIDDEN = ["id", "time", "character", "seat", "ruleset", "command", "secret", "blind"]


def gm_token() -> str:
    return ok("seat", "link", "--gm").stdout.strip().rsplit("?gm=", 1)[1]


# seat link --gm ----------------------------------------------------------------------------


def test_the_gm_token_is_kept_in_seats_toml_and_a_new_one_replaces_it():
    first = ok("seat", "link", "--gm").stdout
    assert re.fullmatch(r"http://127\.0\.0\.1:8737/\?gm=[A-Za-z0-9_-]{32}\n", first)
    token = gm_token()
    assert len(token) * 6 >= 128 and token == first.strip().rsplit("=", 1)[1]  # kept
    where = home() / "seats.toml"
    assert f'token = "{token}"' in where.read_text() and "[gm]" in where.read_text()
    assert stat.S_IMODE(os.stat(where).st_mode) == 0o600
    new = ok("seat", "link", "--gm", "--new").stdout.strip().rsplit("=", 1)[1]
    assert new != token and gm_token() == new
    ok("seat", "add", "ana")
    assert gm_token() == new and "ana" in ok("seat", "list").stdout  # seats and the GM's apart
    assert_usage_error(cli("seat", "link", "ana", "--gm"), "--gm")
    assert_usage_error(cli("seat", "link"), "NAME")


# The screen's HTML, in-process ---------------------------------------------------------------


@pytest.mark.slow  # about 0.4 s (several rolls and cards)
def test_the_gm_screen_shows_hidden_rolls_whole_with_reveal_and_the_plain_page_does_not():
    from rpgdice.serve.hub import Hub
    from rpgdice.serve.page import page

    character("Ysolde")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--dice", "8,9,2,3,7,1",
       "--blind")
    ok("roll", "1d6", "--dice", "5", "--secret")
    ok("roll", "1d6", "--dice", "4", "--log")
    hub = Hub(10)
    for ident in (1, 2, 3):
        logged = logged_entry(ident)
        hub.entries([(logged, False, logged if logged["secret"] else None)])
    screen = page(hub, "gm-token-gm-token-gm", key="gm", screen=True)
    plain = page(hub, None)
    assert screen.count("data-reveal=") == 2 and 'data-reveal="1"' in screen
    assert "blind: the GM alone sees it" in screen and ">secret<" in screen
    assert "Success" in screen and "8 9 2 3 7 1" in re.sub(r"<[^>]+>|\s+", " ", screen)
    assert "a secret roll" not in screen
    assert plain.count("a secret roll") == 2 and "data-reveal" not in plain
    assert "Success" not in plain and "gm-token" not in plain and "gm-controls" not in plain
    cards = re.findall(r'<article class="roll[^"]*" id="roll-(\d)"', plain)
    assert cards == ["3", "2", "1"]  # newest first, each roll once


def test_the_gm_screens_encounter_has_its_controls_and_names_escaped():
    from rpgdice.serve import gm_page

    ok("encounter", "start", "<b>Ghoul</b>@5", "Rat@3", "--ruleset", "seyruun", "--no-log")
    from rpgdice.table import encounter

    html = gm_page.encounter_html(encounter.state(encounter.need()))
    assert 'data-act="next"' in html and 'data-act="damage"' in html
    assert "<b>Ghoul" not in html and "&lt;b&gt;Ghoul&lt;/b&gt;" in html


# The controls, in-process: the commands' own changes, logged as they log them ----------------


def test_the_gm_controls_change_the_encounter_as_the_commands_do_and_are_logged():
    from rpgdice.cli.encounter import control

    ok("encounter", "start", "Ghoul=2+2", "Rat=1+1", "--seed", "1", "--no-log")
    first = json.loads(ok("encounter", "--json").stdout)
    answer = control("next", None, None)
    assert answer.status == 200 and answer.body["encounter"]["turn"] == 1
    assert control("out", "rat", None).body["said"].startswith("Rat is out")
    assert control("back", "Rat", None).body["said"] == "Rat is back in the fight"
    hurt = control("damage", "Ghoul", 3)
    assert hurt.status == 200 and hurt.body["said"] == "Ghoul takes 3 damage (3/7)"
    (ghoul,) = [s for s in hurt.body["encounter"]["order"] if s["name"] == "Ghoul"]
    assert ghoul["damage"] == 3 and ghoul["wound"] == "moderate"  # the ruleset's wound
    assert control("damage", "Ghoul", -5).body["said"] == "Ghoul heals 5 damage (0/7)"
    bad = control("out", "Nobody", None)
    assert bad.status == 400 and "'Nobody' is not in the encounter" in bad.body["error"]
    log = [json.loads(line) for line in ok("log", "--json").stdout.splitlines()]
    assert [e["command"] for e in log] == ["encounter next", "encounter out", "encounter back",
                                           "encounter damage", "encounter damage"]
    assert len(log) == 5  # the refused one is not logged
    assert log[1]["argv"] == ["encounter", "out", "rat"]
    assert first["round"] == 1


def test_the_gm_damages_a_characters_sheet_where_its_ruleset_keeps_damage():
    from rpgdice.cli.encounter import control

    character("Ysolde")
    ok("encounter", "start", "Ysolde@5", "Ghoul@3", "--ruleset", "seyruun", "--no-log")
    assert control("damage", "ysolde", 4).body["said"] == "Ysolde takes 4 damage (4/7)"
    traits = json.loads(ok("char", "show", "ysolde", "--json").stdout)["traits"]
    assert traits["damage"] == 4 and traits["wound"] == "moderate"
    ok("encounter", "end")
    ok("char", "new", "Zed", "--ruleset", "cypher", "might=10", "speed=10", "intellect=10")
    ok("encounter", "start", "Zed@3", "Orc@2", "--health", "5", "--no-log")
    refused = control("damage", "zed", 3)
    assert refused.status == 400 and "char set Zed" in refused.body["error"]
    assert control("damage", "orc", 3).body["encounter"]["order"][1]["state"] == "hale"


# A real server ------------------------------------------------------------------------------


def call(server: Server, path: str, token: str | None, body: dict | None = None
         ) -> tuple[int, dict | list]:
    head = {"Content-Type": "application/json"}
    if token is not None:
        head["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data=data, headers=head,
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        text = e.read()
        return e.code, (json.loads(text) if text[:1] in (b"{", b"[") else {"text": text.decode()})


@pytest.mark.slow
@pytest.mark.process
def test_a_served_table_hides_a_blind_roll_from_all_but_the_gms_screen(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    ana = ok("seat", "link", "ana").stdout.strip().rsplit("=", 1)[1]
    gm = gm_token()
    with serving(tmp=tmp_path) as server:
        printed = [server.process.stdout.readline() for _ in range(2)]
        assert printed[1] == f"rpgdice serve: the GM's screen: {server.base}/?gm={gm}\n"
        status, body = call(server, "/api/roll", ana, {"line": "seyruun roll dexterity "
                                                       "stealth --blind"})
        assert status == 200 and [list(r) for r in body["rolls"]] == [HIDDEN]
        plain = call(server, "/api/rolls", None)[1]
        assert plain == body["rolls"]  # the TV: the same few keys
        whole = call(server, "/api/rolls", gm)[1]
        assert whole[0]["results"] and whole[0]["blind"] is True
        fed = {q: [json.loads(d) for _, n, d in events(server, 1, after="0", query=q)
                   if n == "message"] for q in ("", f"?gm={gm}")}
        assert fed[""] == body["rolls"] and fed[f"?gm={gm}"] == whole
        wait_for(lambda: b"roll-1" in server.get("/")[1], timeout=3)
        page = server.get("/")[1].decode()
        assert "a secret roll" in page and "Success" not in page and "Failure" not in page
        screen = server.get(f"/?gm={gm}")[1].decode()
        assert 'data-reveal="1"' in screen and "gm-controls" not in page
        assert server.get("/?gm=not-the-gm-token-at-all")[0] == 403
        panel = call(server, "/api/panel", gm)[1]
        assert panel["gm"] is True and panel["characters"][0]["name"] == "Ysolde"
        assert call(server, "/api/panel", ana)[1]["gm"] is False
        # Reveal: the GM's screen alone, ids checked, then the TV sees it whole
        assert call(server, "/api/reveal", ana, {"id": 1})[0] == 403
        assert call(server, "/api/reveal", "not-the-gm-token-at-all", {"id": 1})[0] == 403
        assert call(server, "/api/reveal", gm, {"id": "1"})[0] == 400
        assert call(server, "/api/reveal", gm, {"id": 99}) == (
            404, {"error": "ID: no entry 99 in the roll log"})
        assert call(server, "/api/reveal", gm, {"id": 1}) == (
            200, {"id": 1, "said": "Entry 1 is public now."})
        assert call(server, "/api/rolls", None)[1][0]["results"] == whole[0]["results"]
        # The encounter's controls
        ok("encounter", "start", "Ghoul=2+2", "Rat=1+1", "--seed", "1", "--no-log")
        assert call(server, "/api/encounter", ana, {"action": "next"})[0] == 403
        assert call(server, "/api/encounter", gm, {"action": "jump"})[0] == 400
        for action in ({"action": "next"}, {"action": "out", "name": "Rat"},
                       {"action": "back", "name": "Rat"},
                       {"action": "damage", "name": "Ghoul", "amount": 2}):
            assert call(server, "/api/encounter", gm, action)[0] == 200, action
        logged = [json.loads(x)["command"] for x in ok("log", "--json").stdout.splitlines()]
        assert logged[-4:] == ["encounter next", "encounter out", "encounter back",
                               "encounter damage"]
        # A new gm token: the old one stops at once
        new = ok("seat", "link", "--gm", "--new").stdout.strip().rsplit("=", 1)[1]
        assert call(server, "/api/panel", gm)[0] == 403
        assert server.get(f"/?gm={gm}")[0] == 403 and server.get(f"/?gm={new}")[0] == 200
        # A joined terminal rolling blind
        assert proc("table", "join", f"{server.base}/?seat={ana}").returncode == 0
        blind = proc("roll", "1d6", "--blind")
        assert blind.returncode == 0 and blind.stdout == "rolled blind: the GM sees it\n"
        assert "gm=" not in server.stderr() and gm not in server.stderr()


@pytest.mark.slow
@pytest.mark.process
def test_reveal_clicked_on_the_gm_screen_turns_the_tvs_card(tmp_path):
    from test_seats_browser import _driver

    driver = _driver(1920, 1080)
    try:
        _revealed_from_the_gm_screen(driver, tmp_path)
    finally:
        driver.quit()


def _revealed_from_the_gm_screen(driver, tmp_path) -> None:
    from test_serve_browser import _wait

    gm = gm_token()
    proc("roll", "1d6", "--dice", "6", "--blind")
    with serving(tmp=tmp_path) as server:
        driver.get(server.url)  # the TV
        tv = driver.current_window_handle
        card = _wait(driver, lambda d: d.find_element("id", "roll-1"))
        hidden = re.sub(r"\d{1,2}:\d{2}(:\d{2})?", "", card.text.split("#1", 1)[1])  # the clock
        assert "a secret roll" in card.text and "6" not in hidden and "1d6" not in hidden
        driver.switch_to.new_window("tab")
        driver.get(f"{server.base}/?gm={gm}")
        assert "blind" in driver.find_element("id", "roll-1").text
        driver.find_element("css selector", 'button[data-reveal="1"]').click()
        _wait(driver, lambda d: "public now" in d.find_element("id", "gm-out").text)
        _wait(driver, lambda d: not d.find_elements("css selector", "[data-reveal]"))
        driver.switch_to.window(tv)
        _wait(driver, lambda d: "a secret roll" not in d.find_element("id", "roll-1").text)
        assert "1d6" in driver.find_element("id", "roll-1").text
        assert gm not in driver.page_source
