"""The players' seats (CLI.md, "The players: seats at the table"): ``rpgdice seat``, a
seat's roll as the table's server makes it (in-process: rpgdice.cli.seated), and the
server itself on a free port (``POST /api/roll``: every refusal, the rate limit, the
bounds, seats and the GM rolling at once; the Host check; ASCII-digit numbers)."""

from __future__ import annotations

import json
import os
import re
import stat
import threading
import urllib.error
import urllib.request

import pytest

from conftest import assert_usage_error, character, cli, home, ok, proc
from test_serve import Server, serving


def seat_token(name: str) -> str:
    return ok("seat", "link", name).stdout.strip().rsplit("seat=", 1)[1]


# seat add | list | link | rm -------------------------------------------------------------


def test_a_seat_is_a_name_a_token_and_its_characters_in_an_owner_only_file():
    character("Ysolde")
    out = ok("seat", "add", "ana", "--as", "ysolde").stdout
    found = re.search(r"http://127\.0\.0\.1:8737/\?seat=([A-Za-z0-9_-]+)$", out.strip())
    assert found and len(found.group(1)) >= 22  # 128 bits and more, URL-safe
    ok("seat", "add", "bo")
    path = home() / "seats.toml"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    listed = json.loads(ok("seat", "list", "--json").stdout)
    assert listed == [{"name": "ana", "characters": ["Ysolde"], "link": found.group(0)},
                      {"name": "bo", "characters": [], "link": listed[1]["link"]}]
    assert listed[0]["link"] != listed[1]["link"]


def test_seat_errors_are_usage_errors_and_change_nothing():
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    assert_usage_error(cli("seat", "add", "ana"), "NAME", "already")
    assert_usage_error(cli("seat", "add", "cy", "--as", "nobody"), "--as", "nobody")
    assert_usage_error(cli("seat", "add", "1x"), "NAME")
    assert_usage_error(cli("seat", "rm", "ana"), "--yes")
    assert_usage_error(cli("seat", "link", "nobody"), "NAME")
    assert [s["name"] for s in json.loads(ok("seat", "list", "--json").stdout)] == ["ana"]


def test_a_new_link_replaces_the_old_and_rm_removes_the_seat():
    ok("seat", "add", "ana")
    old = seat_token("ana")
    new = ok("seat", "link", "ana", "--new").stdout.strip().rsplit("seat=", 1)[1]
    assert new != old and seat_token("ana") == new
    ok("seat", "rm", "ana", "--yes")
    assert "no seats yet" in ok("seat", "list").stdout


def test_a_link_uses_the_configured_host_and_port_never_a_wildcard():
    (home() / "config.toml").write_text('[serve]\nhost = "0.0.0.0"\nport = 9001\n')
    out = ok("seat", "add", "ana").stdout
    assert ":9001/?seat=" in out and "0.0.0.0" not in out


# A seat's roll, in-process -------------------------------------------------------------


def roll(line: str, name: str | None = "ana", gm: bool = False):
    from rpgdice.cli.seated import roll_line
    from rpgdice.table import seats

    return roll_line(line, None if name is None else seats.find(name), gm=gm)


def last_entry() -> dict:
    return json.loads(ok("log", "--json").stdout.splitlines()[-1])


def test_a_seat_rolls_as_its_character_spends_from_its_sheet_and_is_logged_with_its_seat():
    character("Ysolde", willpower=3)
    ok("seat", "add", "ana", "--as", "ysolde")
    answer = roll("seyruun roll dexterity stealth --willpower")
    assert answer.status == 200, answer.body
    (rolled,) = answer.body["rolls"]
    assert rolled["seat"] == "ana" and rolled["pool"] == 9 and isinstance(rolled["id"], int)
    entry = last_entry()
    assert entry["id"] == rolled["id"] and entry["seat"] == "ana"
    assert entry["character"] == "Ysolde"
    assert ok("char", "show", "ysolde", "--json").json()[0]["willpower"] == 2
    terminal = json.loads(ok("roll", "1d6", "--dice", "3", "--log", "--json").stdout)
    assert terminal["total"] == 3 and last_entry()["seat"] is None


def test_a_seats_character_applies_to_its_own_rulesets_commands_only():
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    (rolled,) = roll("roll 2d6").body["rolls"]
    assert rolled["ruleset"] == "dice" and last_entry()["character"] is None


@pytest.mark.parametrize("line, fragment", [
    ("seyruun roll 3 3 --dice 1,2,3", "--dice"),
    ("roll 2d6 --seed 4", "--seed"),
    ("roll 2d6 --no-log", "--no-log"),
    ("roll 2d6 -n 21", "-n 20"),
    ("seyruun roll 3 3 --as thureck", "--as thureck"),
    ("seyruun attack 3 --vs Ghoul", "no encounter"),
    ("char show ysolde", "not a roll"),
    ("log reveal 1", "not a roll"),
    ("alias x 'roll 1d6'", "not a roll"),
    ("seat add eve", "not a roll"),
    ("serve", "not a roll"),
    ("encounter end", "not a roll"),
])
def test_what_a_seat_may_not_run_is_refused_with_a_reason_and_rolls_nothing(line, fragment):
    character("Ysolde")
    character("Thureck")
    ok("seat", "add", "ana", "--as", "ysolde")
    answer = roll(line)
    assert answer.status == 403 and fragment in answer.body["error"], answer.body
    assert ok("log", "--json").stdout == ""


def test_vs_names_only_a_combatant_of_the_encounter():
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Yara=3+3", "Ghoul=2+2", "--no-log")
    assert roll("seyruun attack dexterity --vs Orc").status == 403
    answer = roll("seyruun attack dexterity --vs Ghoul")
    assert answer.status == 200, answer.body


def test_a_bad_line_is_a_400_with_the_command_lines_own_message():
    ok("seat", "add", "ana")
    answer = roll("roll 2d")
    message = cli("roll", "2d").stderr.strip().removeprefix("rpgdice: error: ")
    assert answer.status == 400 and answer.body == {"error": message}
    assert roll('roll "2d6').status == 400 and roll("").status == 400


def test_a_seat_may_ask_the_odds_which_roll_and_log_nothing():
    ok("seat", "add", "ana")
    for line in ("odds 2d6", "seyruun odds 3 3", "reglas odds 8"):
        answer = roll(line)
        assert answer.status == 200, (line, answer.body)
        (one,) = answer.body["rolls"]
        assert one["id"] is None and one["seat"] == "ana"
    assert ok("log", "--json").stdout == ""


def test_the_gm_may_give_dice_and_roll_as_anyone():
    character("Ysolde")
    answer = roll("seyruun roll dexterity stealth --as ysolde --dice 8,8,8,8,8,8", None, gm=True)
    (rolled,) = answer.body["rolls"]
    assert answer.status == 200 and rolled["successes"] == 6 and rolled["seat"] is None


# The server on a free port ---------------------------------------------------------------


def post(server: Server, body: bytes | dict, token: str | None,
         headers: dict | None = None, timeout: float = 20) -> tuple[int, dict, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    head = {"Content-Type": "application/json", **(headers or {})}
    if token is not None:
        head["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.base + "/api/roll", data=data, headers=head,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as e:
        text = e.read()
        return e.code, (json.loads(text) if text.startswith(b"{") else {}), {k.lower(): v for k, v in e.headers.items()}


@pytest.mark.slow
@pytest.mark.process
def test_post_api_roll_refuses_bounds_and_rate_limits_a_seat(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo")
    ana, bo = seat_token("ana"), seat_token("bo")
    with serving(tmp=tmp_path) as server:
        printed = [server.process.stdout.readline() for _ in range(2)]
        assert printed == [f"rpgdice serve: seat ana: {server.base}/?seat={ana}\n",
                           f"rpgdice serve: seat bo: {server.base}/?seat={bo}\n"]
        status, body, _ = post(server, {"line": "seyruun roll dexterity stealth"}, ana)
        assert status == 200 and body["rolls"][0]["seat"] == "ana"
        assert post(server, {"line": "roll 1d6"}, None)[0] == 403
        assert post(server, {"line": "roll 1d6"}, "wrong-token-wrong-token")[0] == 403
        status, body, _ = post(server, {"line": "char rm ysolde --yes"}, bo)
        assert status == 403 and "not a roll" in body["error"]
        assert post(server, {"line": "x" * 9000}, bo)[0] == 413
        assert post(server, b"not json", bo)[0] == 400
        assert post(server, {"line": "roll 2d"}, bo)[0] == 400
        codes = [post(server, {"line": "roll 1d6"}, bo)[0] for _ in range(8)]
        assert codes == [200] * 6 + [429] * 2  # 10 in 10 s, the refused ones counted
        status, _, headers = post(server, {"line": "roll 1d6"}, bo)
        assert status == 429 and 1 <= int(headers["retry-after"]) <= 10
        assert post(server, {"line": "roll 1d6"}, ana)[0] == 200  # another seat rolls on
        new = ok("seat", "link", "ana", "--new").stdout.strip().rsplit("seat=", 1)[1]
        assert post(server, {"line": "roll 1d6"}, ana)[0] == 403  # the old link stops at once
        assert post(server, {"line": "roll 1d6"}, new)[0] == 200
        assert server.get("/api/rolls?token=nothing-at-all-here")[0] == 403  # loopback too
        assert server.get(f"/?seat={new}")[0] == 200


@pytest.mark.slow
@pytest.mark.process
def test_two_seats_and_the_gm_rolling_at_once_lose_nothing(tmp_path):
    character("Ysolde", willpower=3)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo")
    tokens = {"ana": seat_token("ana"), "bo": seat_token("bo")}
    gm = "the-gms-own-token-0123456789"
    results: dict[str, list] = {"ana": [], "bo": [], "gm": []}
    with serving("--token", gm, tmp=tmp_path) as server:
        def rolls(who: str, line: str, times: int) -> None:
            token = gm if who == "gm" else tokens[who]
            for _ in range(times):
                results[who].append(post(server, {"line": line}, token)[:2])

        workers = [threading.Thread(target=rolls, args=a) for a in (
            ("ana", "seyruun roll dexterity stealth", 8), ("bo", "roll 3d6", 8),
            ("gm", "roll 1d20", 8))]
        for w in workers:
            w.start()
        terminal = [proc("roll", "1d4", "--log") for _ in range(3)]
        for w in workers:
            w.join()
        assert all(t.returncode == 0 for t in terminal)
        ids = []
        for who, got in results.items():
            assert [s for s, _ in got] == [200] * 8, got
            for _, body in got:
                (one,) = body["rolls"]
                assert one["seat"] == (None if who == "gm" else who)
                assert ("total" in one) == (who != "ana")  # each answer is its own roll
                ids.append(one["id"])
        logged = [json.loads(x) for x in proc("log", "--json", "--last", "100").stdout.splitlines()]
        assert len(logged) == 27 and len(set(ids)) == 24 and set(ids) <= {e["id"] for e in logged}
        seats = [e["seat"] for e in logged]
        assert seats.count("ana") == seats.count("bo") == 8 and seats.count(None) == 11
        got = server.rolls(token=f"&token={gm}")
        assert len(got) == 27


@pytest.mark.slow
@pytest.mark.process
def test_a_wildcard_host_prints_the_machines_address(tmp_path):
    from rpgdice.serve.hosts import shown_host

    with serving("--host", "0.0.0.0", tmp=tmp_path) as server:  # (serving() would undo 0.0.0.0)
        assert server.base.startswith(f"http://{shown_host('0.0.0.0')}:")
        assert server.get("/api/rolls?token=" + server.url.rsplit("token=", 1)[1])[0] == 200


@pytest.mark.slow
@pytest.mark.process
def test_host_header_tokens_and_numbers_are_checked(tmp_path):
    with serving(tmp=tmp_path) as server:
        assert server.get("/api/rolls", {"Host": "evil.example"})[0] == 403
        assert server.get("/api/rolls", {"Host": "localhost:1"})[0] == 200
        for bad in ("%C2%B2", "%D9%A3", "1.5", "-1", "+1", "%201"):
            assert server.get(f"/api/rolls?after={bad}")[0] == 400, bad
            assert server.get(f"/api/rolls?limit={bad}")[0] == 400, bad
        assert server.get("/events", {"Last-Event-ID": "²".encode().decode("latin-1")})[0] == 400
        assert server.get("/events?after=%C2%B2")[0] == 400
        _, page = server.get("/")
        assert b"set-cookie" not in page.lower()
    for token in ("AFTER-LIMIT-TOKEN-KEY-x", "</script><b>x</b>\\\"'`${AFTER}"):
        with serving("--token", token, tmp=tmp_path) as server:
            status, page = server.get("/?token=" + urllib.request.quote(token, safe=""))
            assert status == 200
            script = page.decode().split("<script>", 1)[1]
            assert json.dumps(token).replace("<", "\\u003c") in script
            assert "</script>" not in script[:-len("</script></body></html>\n")]
            assert re.search(r"after = \d+;", script)


# Secret rolls keep their effects secret -----------------------------------------------------


def test_a_secret_attacks_damage_is_off_the_pages_encounter_until_revealed():
    from rpgdice.serve.app import Table
    from rpgdice.table.paths import log_file

    ok("encounter", "start", "Yara=3+3", "Ghoul=2+2", "--no-log")
    dealt = json.loads(ok("seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul",
                          "--seed", "1", "--secret", "--json").stdout)["damage_dealt"]
    assert dealt == 4
    (ghoul,) = [s for s in ok("encounter", "--json").json()[0]["order"] if s["name"] == "Ghoul"]
    assert ghoul["damage"] == 4  # the table's own state has it

    def shown() -> str:
        table = Table(log_file(), None)
        try:
            return re.sub(r"<[^>]+>", "", table.encounter())
        finally:
            table.secrets.close()

    page = shown()
    assert "4/7" not in page and "moderate" not in page and page.count("0/7") == 2
    entry = json.loads(ok("log", "--json").stdout.splitlines()[-1])["id"]
    ok("log", "reveal", str(entry))
    assert "4/7" in shown()


# A player's terminal at the table -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.process
def test_a_players_terminal_rolls_at_the_table_it_joined(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    token = seat_token("ana")
    assert json.loads(proc("table", "--json").stdout) is None
    with serving(tmp=tmp_path) as server:
        link = f"{server.base}/?seat={token}"
        refused = proc("table", "join", f"{server.base}/?seat=not-a-seat-of-this-table")
        assert refused.returncode == 2 and "refused" in refused.stderr
        joined = proc("table", "join", link)
        assert joined.returncode == 0, joined.stderr
        assert json.loads(proc("table", "--json").stdout) == {"url": server.base + "/",
                                                               "seat": "ana"}
        rolled = proc("seyruun", "roll", "dexterity", "stealth", "--json")
        assert rolled.returncode == 0, rolled.stderr
        one = json.loads(rolled.stdout)
        assert one["character"] == "Ysolde" and "id" not in one
        entry = json.loads(ok("log", "--json").stdout)
        assert entry["seat"] == "ana" and entry["seed"] == one["seed"]
        text = proc("roll", "2d6")
        assert text.returncode == 0 and "Total" in text.stdout
        no = proc("roll", "2d6", "--dice", "3,4")
        assert no.returncode == 2 and "--dice" in no.stderr and no.stdout == ""
        here = proc("roll", "2d6", "--dice", "3,4", "--here", "--json")
        assert json.loads(here.stdout)["total"] == 7
        assert ok("log", "--json", "--last", "10").stdout.count('"seat": "ana"') == 2
        import subprocess
        import sys

        session = subprocess.run([sys.executable, "-m", "rpgdice", "play", "--json"],
                                 input="roll 1d6\nroll 1d6 --here\nroll 1d6 --seed 3\n",
                                 capture_output=True, text=True, env=dict(os.environ), timeout=60)
        lines = [json.loads(x) for x in session.stdout.splitlines()]
        assert [("error" in x) for x in lines] == [False, False, True] and session.returncode == 2
        assert "--seed" in lines[2]["error"]
        assert ok("log", "--json", "--last", "10").stdout.count('"seat": "ana"') == 3
    gone = proc("roll", "2d6")
    assert gone.returncode == 2 and server.base in gone.stderr and gone.stdout == ""
    assert proc("table", "leave").returncode == 0
    assert proc("roll", "2d6").returncode == 0


def test_discord_gets_a_secret_roll_as_who_rolled_and_nothing_else():
    import queue

    from rpgdice.serve.app import Table
    from rpgdice.table.paths import log_file

    class Poster:
        def __init__(self) -> None:
            self.queue: queue.Queue = queue.Queue()
            self.offered: list = []

        def offer(self, entry, revealed=False) -> None:
            self.offered.append((entry["id"], revealed))

    poster = Poster()
    table = Table(log_file(), None, poster)
    try:
        table._entry({"id": 7, "secret": True, "character": "Ysolde", "seat": "ana"}, False)
        table._entry({"id": 8, "secret": True, "character": None, "seat": None}, False)
        assert [poster.queue.get_nowait() for _ in range(2)] == [
            (7, "Ysolde: a secret roll"), (8, "the GM: a secret roll")]
        assert poster.offered == []
    finally:
        table.secrets.close()


def test_a_log_that_cannot_be_written_is_a_503_and_nothing_is_spent():
    character("Ysolde", willpower=3)
    ok("seat", "add", "ana", "--as", "ysolde")
    (home() / "log.sqlite3").mkdir()
    answer = roll("seyruun roll dexterity stealth --willpower")
    assert answer.status == 503 and "log" in answer.body["error"]
    assert ok("char", "show", "ysolde", "--json").json()[0]["willpower"] == 3


@pytest.mark.slow
@pytest.mark.process
def test_a_seat_rolls_with_a_users_ruleset_file_and_its_panel_offers_that_roll(tmp_path):
    # issue 36: a ruleset file, a character of it, a seat for that character.
    import shutil
    from pathlib import Path

    from conftest import make_character
    from rpgdice.serve import page

    docs = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
    (home() / "rulesets").mkdir(exist_ok=True)
    for name in ("pbta", "blades"):
        shutil.copy(docs / f"{name}.toml", home() / "rulesets" / f"{name}.toml")
    make_character("Vex", "pbta", {"cool": 2, "hard": -1})
    make_character("Nyx", "blades", {"prowl": 2})
    ok("seat", "add", "ana", "--as", "vex", "--as", "nyx")
    token = seat_token("ana")
    with serving(tmp=tmp_path) as server:
        status, answer, _ = post(server, {"line": "pbta roll cool --as vex"}, token)
        assert status == 200, answer
        (rolled,) = answer["rolls"]
        assert rolled["ruleset"] == "pbta" and rolled["character"] == "Vex"
        entry = json.loads(ok("log", "--json").stdout.splitlines()[-1])
        assert entry["seat"] == "ana" and entry["ruleset"] == "pbta"
        assert entry["argv"][:3] == ["pbta", "roll", "cool"]
        total = rolled["total"]
        assert total == sum(d["face"] for d in rolled["dice"]) + 2  # cool 2
        word = {"strong-hit": "Strong hit", "weak-hit": "Weak hit", "miss": "Miss"}[rolled["outcome"]]
        import time

        mark, deadline, text = f'id="roll-{entry["id"]}"', time.monotonic() + 10, ""
        while mark not in text and time.monotonic() < deadline:  # the server follows the log
            status, html = server.get(f"/?seat={token}")
            assert status == 200
            text = html.decode()
            time.sleep(0.2)
        card = text[text.index(mark):]
        card = card[:card.index("</article>")]
        assert word in card and "Powered by the Apocalypse" in card  # in the file's words
        status, answer, _ = post(server, {"line": "blades roll prowl --as nyx"}, token)
        assert status == 200, answer and answer["rolls"][0]["ruleset"] == "blades"
    # The seat's panel: each character's own roll line, with its ruleset's options.
    from rpgdice.table import seats

    chars = page.characters(seats.find("ana"))
    assert [(c["name"], c["ruleset"], c["traits"]) for c in chars] == [
        ("Vex", "pbta", ["cool", "hard"]), ("Nyx", "blades", ["prowl"])]


@pytest.mark.slow
@pytest.mark.process
def test_a_joined_terminal_prints_a_roll_as_the_same_local_roll_does_trait_line_included(tmp_path):
    # issue 31: the joined terminal left out the --as line (the traits named, what was paid),
    # the --odds line, and showed repeats of one dice term in full.
    from conftest import sheet_file

    sheet = character("Ysolde", willpower=5)
    before = sheet.read_bytes()
    gm = "the-gms-own-token-0123456789"
    lines = [["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "4"],
             ["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "4",
              "--willpower"],
             ["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "9", "-n", "3"],
             ["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "4", "--odds"],
             ["roll", "4d6kh3", "-n", "6", "--seed", "2"]]  # its repeats on one line
    with serving("--token", gm, tmp=tmp_path) as server:
        joined = proc("table", "join", f"{server.base}/?seat={gm}")  # the GM's token: --seed
        assert joined.returncode == 0, joined.stderr
        at_table = []
        for words in lines:
            run = proc(*words)
            assert run.returncode == 0, run.stderr
            at_table.append(run.stdout)
            assert sheet_file("ysolde").read_bytes() != before or "--willpower" not in words
            sheet.write_bytes(before)  # paid at the table: given back for the local roll
            here = proc(*words, "--here")
            assert here.returncode == 0, here.stderr
            assert run.stdout == here.stdout, words
            sheet.write_bytes(before)
    assert "Ysolde · Dexterity 3 + Stealth 3\n" in at_table[0]
    assert "Ysolde · Dexterity 3 + Stealth 3 · spent 1 Willpower, 4 left" in at_table[1]
    assert at_table[2].count("Ysolde · Dexterity 3 + Stealth 3") == 3
    assert "odds 98.4% chance of success" in at_table[3]
    assert at_table[4].startswith("4d6kh3 ×6: ")
    logged = [json.loads(x) for x in ok("log", "--json", "--last", "10").stdout.splitlines()]
    assert [e["argv"] for e in logged] == lines  # the table logged its rolls (--here: not asked)
