"""What a seat can learn before ``log reveal`` (issue #45, items 1-4; docs/serve.md, "What a
seat can and cannot learn"): a seat's answer (its JSON and its view's envelopes), its panel's
sheet, its refusals and its odds say the state as the table saw it; a secret roll's payment
shows nowhere, even while its own output drains; a seat's roll that depends on what a secret
roll changed is held back with it."""

from __future__ import annotations

import json
import re
import time

import pytest

from conftest import character, make_character, ok


def text(html: str) -> str:
    """What a page shows (its style and script left out)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def seat(name: str = "ana"):
    from rpgdice.table import seats

    return seats.find(name)


def roll(line: str, name: str = "ana"):
    from rpgdice.cli.seated import roll_line

    return roll_line(line, seat(name))


def table():
    from conftest import log_path
    from rpgdice.serve.app import Table

    return Table(log_path(), None)


def asgi(path: str, token: str, line: str | None = None) -> tuple[int, dict]:
    """``GET path`` (or with ``line``, ``POST`` it) with ``Authorization: Bearer token``
    from the server's app, in-process (its guard and routes; what the seat's phone gets)."""
    import asyncio

    from conftest import log_path
    from rpgdice.cli.seated import odds_line, roll_line
    from rpgdice.serve.app import Guard, Table, make_app
    from rpgdice.table import seats

    served = Table(log_path(), None, roller=roll_line, odds_line=odds_line)
    app = Guard(make_app(served), None, seats.Watched(seats.path()))
    data = b"" if line is None else json.dumps({"line": line}).encode()
    scope = {"type": "http", "method": "GET" if line is None else "POST", "path": path,
             "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(len(data)).encode()),
                         (b"authorization", f"Bearer {token}".encode())],
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1),
             "root_path": "", "http_version": "1.1"}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    try:
        asyncio.run(app(scope, receive, send))
    finally:
        served.close()
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


def panel_sheet(name: str = "ana") -> dict:
    """The seat's first character's sheet as ``GET /api/panel`` answers it."""
    status, got = asgi("/api/panel", seat(name).token)
    assert status == 200, got
    return got["characters"][0]["sheet"]


def thug_fight() -> None:
    """Ysolde (Willpower 5 of 5) seated as ana; the GM's secret roll as her spent 1 and
    a secret attack left the Thug at 6/7."""
    character("Ysolde", willpower=5)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Ana=3+2", "Thug=2", "--health", "7", "--no-log")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower", "--secret",
       "--seed", "1")
    hit = ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Thug",
             "--secret", "--seed", "3")
    assert "+6 damage → 6/7" in hit.stdout


def test_a_seats_answer_and_panel_say_the_state_the_table_saw():
    thug_fight()
    answer = roll("seyruun attack dexterity+stealth --defense 2 --damage 4 --vs Thug "
                  "--attacker-willpower")
    assert answer.status == 200, answer.body
    truth = json.loads(ok("log", "--json").stdout.splitlines()[-1])["results"][0]
    assert truth["left"] == {"willpower": 3}  # the log: the truth
    served = table()
    try:
        said = served.answer(answer.body)
    finally:
        served.close()
    (obj,) = said["rolls"]
    assert obj["left"] == {"willpower": 4}
    dealt = truth["damage_dealt"] or 0
    assert obj["vs_damage"] == min(7, dealt)
    (env,) = said["shown"]["envelopes"]
    assert env["table"]["left"] == {"willpower": 4}
    assert f"+{dealt} damage → {min(7, dealt)}/7" in env["vs_table"]["hurt"]
    true = f"{min(7, 6 + dealt)}/7"
    assert true == f"{min(7, dealt)}/7" or true not in json.dumps(said, ensure_ascii=False)
    assert "held" not in env and "vs_table" in env
    sheet = panel_sheet()
    willpower = {r["name"]: r["value"] for r in sheet["resources"]}["willpower"]
    assert willpower == 4
    values = {t["name"]: t["value"] for t in sheet["traits"]}
    assert values["willpower"] == 4


def test_a_refusal_to_a_seat_names_no_hidden_value():
    character("Ysolde", willpower=1)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower", "--secret",
       "--seed", "1")  # the table saw 1 Willpower left; she has 0
    status, body = asgi("/api/roll", seat().token, "seyruun roll dexterity stealth --willpower")
    assert status == 400
    said = body["error"]
    assert "Willpower" in said and "nothing was rolled or spent" in said
    assert "has 0" not in said and "0 Willpower" not in said, said
    plain = roll("seyruun roll dexterity stealth --willpower")  # the GM's view: the truth
    assert plain.status == 400 and "has 0 Willpower" in plain.body["error"]


def test_a_refusal_with_nothing_held_back_is_as_it_was():
    from rpgdice.cli.seated import roll_line

    character("Ysolde", willpower=0)
    ok("seat", "add", "ana", "--as", "ysolde")
    served = table()
    try:
        refused = roll_line("seyruun roll dexterity stealth --willpower", seat(),
                            seen=served.take_back)
    finally:
        served.close()
    assert refused.status == 400 and "has 0 Willpower" in refused.body["error"]


@pytest.mark.process
def test_a_secret_payment_shows_nowhere_while_its_output_drains(monkeypatch):
    """The GM's secret roll pays Ysolde's Willpower, then blocks writing its output (a
    pipe already full: a slow pager) before its entry is logged: neither the encounter's
    view nor a seat's panel shows what it paid, then or after."""
    import fcntl
    import os
    import subprocess
    import sys

    from conftest import sheet_file
    from rpgdice.serve import app

    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3, "wits": 2,
                                         "composure": 3, "resolve": 2, "willpower": 5})
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--no-log")
    read, write = os.pipe()
    flags = fcntl.fcntl(write, fcntl.F_GETFL)
    fcntl.fcntl(write, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(write, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(write, fcntl.F_SETFL, flags)  # the roll's first write waits for a reader
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    child = subprocess.Popen([sys.executable, "-m", "rpgdice", "seyruun", "roll", "dexterity",
                              "stealth", "--as", "ysolde", "--willpower", "--secret", "--log"],
                             stdout=write, stderr=subprocess.DEVNULL, env=env)
    os.close(write)
    served = table()
    monkeypatch.setattr(app, "SETTLING", 0.2, raising=False)
    try:
        deadline = time.monotonic() + 30
        while "willpower = 4" not in sheet_file("ysolde").read_text():  # it paid
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.05)
        served._tick()
        assert "WP 4" not in text(served.hub.encounter), text(served.hub.encounter)
        status, said = asgi("/api/panel", seat().token)
        assert status == 503 or {r["name"]: r["value"] for r in said["characters"][0][
            "sheet"]["resources"]}["willpower"] == 5, said
        while os.read(read, 65536):  # the pager reads on: the roll ends, logged
            pass
        assert child.wait(30) == 0
        served._tick()
        served._tick()
        assert "WP 5" in text(served.hub.encounter) and "WP 4" not in text(served.hub.encounter)
        assert {r["name"]: r["value"] for r in panel_sheet()["resources"]}["willpower"] == 5
    finally:
        os.close(read)
        if child.poll() is None:
            child.kill()
        served.close()


def test_a_seats_odds_are_computed_on_the_state_the_table_saw():
    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3, "wits": 2,
                                         "composure": 3, "resolve": 2, "willpower": 5})
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--no-log")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower", "--secret",
       "--seed", "1")
    assert "→ 6/7" in ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs",
                          "Ysolde", "--secret", "--seed", "3").stdout
    truth = json.loads(ok("seyruun", "odds", "dexterity", "willpower", "--as", "ysolde",
                          "--json").stdout)
    assert truth["pool_total"] == 3 + 4 - 3 and truth["penalty"] == 3  # the GM: the truth
    status, said = asgi("/api/roll", seat().token, "seyruun odds dexterity willpower")
    assert status == 200, said
    (odds,) = said["rolls"]
    assert odds["skill"] == 5 and odds["penalty"] == 0 and odds["pool_total"] == 8, odds
    assert "severe" not in json.dumps(said) and "crippled" not in json.dumps(said)
    roll_back = ok("seyruun", "odds", "dexterity", "willpower", "--as", "ysolde", "--json")
    assert json.loads(roll_back.stdout)["pool_total"] == truth["pool_total"]  # nothing written


def test_an_extra_is_read_as_the_table_saw_it_for_a_seats_odds():
    from rpgdice.serve import secrecy
    from rpgdice.table import encounter

    ok("encounter", "start", "Ana=3+2", "Ghoul=2", "--health", "7", "--no-log")
    ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
       "--secret", "--seed", "3")
    served = table()
    try:
        held = served.take_back()
    finally:
        served.close()
    truth = encounter.load().extra("Ghoul")
    assert (truth.damage, truth.wound) == (6, "severe")
    seen = secrecy.seen_encounter(encounter.load(), held).extra("Ghoul")
    assert (seen.damage, seen.wound) in ((0, None), (0, "none")), seen


def test_a_seats_roll_on_a_secretly_changed_state_is_held_back_with_that_secret():
    from rpgdice.serve import views

    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3, "wits": 2,
                                         "composure": 3, "resolve": 2, "willpower": 5})
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--health", "7", "--no-log")
    assert "→ 6/7" in ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs",
                          "Ysolde", "--secret", "--seed", "3").stdout  # severely wounded
    ok("seyruun", "roll", "1", "--secret", "--seed", "1", "--log")  # touches no one
    secret = logged_ids()[0]
    status, said = asgi("/api/roll", seat().token, "seyruun roll dexterity stealth")
    assert status == 200, said
    assert said["held"] == f"held until the GM reveals #{secret}"
    held = said["id"]
    # CLI.md: what a blind roll's answer carries (a hidden roll's keys), plus held (N): the
    # panel says "NAME: held until the GM reveals #N" from it.
    (hidden,) = said["rolls"]
    assert list(hidden) == ["id", "time", "character", "seat", "ruleset", "command", "secret",
                            "blind", "held"], hidden
    assert (hidden["id"], hidden["held"], hidden["character"], hidden["seat"]) == (
        held, secret, "Ysolde", "ana") and hidden["secret"] is True and hidden["blind"] is False
    truth = json.loads(ok("log", "--json").stdout.splitlines()[-1])  # the GM: whole
    assert truth["id"] == held and truth["secret"] is True
    assert truth["results"][0]["penalty"] == 3  # rolled on the true state: the wound's −3
    from conftest import log_path
    from rpgdice.serve import follow

    reader = follow.Reader(log_path())
    try:
        card = text(views.entry_html(reader.get(held)))
    finally:
        reader.close()
    assert f"held until the GM reveals #{secret}" in card and "3" not in card.split("#")[0]
    # Not held: a roll the secret changed nothing of (ordinary dice), and the odds.
    status, plain = asgi("/api/roll", seat().token, "roll 1d6")
    assert status == 200 and plain["rolls"] and "held" not in plain
    ok("log", "reveal", str(held))  # either reveals both
    found = {e["id"]: e for e in map(json.loads, ok("log", "--json").stdout.splitlines())}
    assert found[held]["secret"] is False and found[secret]["secret"] is False
    assert found[secret + 1]["secret"] is True  # the other secret roll stays secret


def logged_ids() -> list[int]:
    return [json.loads(x)["id"] for x in ok("log", "--json").stdout.splitlines()]


def test_a_crytures_refusal_names_no_stamina_a_secret_roll_spent():
    make_character("Cry", "crytures", {"stamina": 2, "mana": 3})
    ok("seat", "add", "bo", "--as", "cry")
    ok("crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=2", "--secret", "--seed", "1")
    status, said = asgi("/api/roll", seat("bo").token, "crytures roll 3 --spend stamina=1")
    assert status == 400 and "Stamina" in said["error"], said
    assert "has 0" not in said["error"], said


@pytest.mark.process
@pytest.mark.slow
def test_a_joined_terminal_prints_a_held_roll_as_held():
    from conftest import cli
    from test_joined import at_table, fake_table, reply

    held = {"rolls": [], "id": 9, "until": 4, "held": "held until the GM reveals #4"}
    with fake_table(reply("200 OK", json.dumps(held).encode())) as fake:
        at_table(fake.base)
        run = cli("seyruun", "roll", "dexterity", "stealth")
        assert run.exit_code == 0, run.stderr
        assert run.stdout == "held until the GM reveals #4\n"
        run = cli("seyruun", "roll", "dexterity", "stealth", "--json")
        assert json.loads(run.stdout) == {"held": "held until the GM reveals #4", "until": 4}
