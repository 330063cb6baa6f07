"""What an attacker found in the seats' roll API (issue #31), each closed and checked
against the real server on a free port (CLI.md, "The players: seats at the table": what a
seat may run; docs/serve.md)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import character, make_character, ok
from test_seats import post, seat_token
from test_serve import Server, serving

GM = "the-gms-own-token-0123456789"


def entries() -> list[dict]:
    return [json.loads(x) for x in ok("log", "--json").stdout.splitlines()]


def willpower(name: str) -> int:
    return ok("char", "show", name, "--json").json()[0]["willpower"]


@pytest.mark.process
@pytest.mark.slow
def test_a_seat_may_not_reroll_and_a_secret_rolls_reroll_is_secret(tmp_path):
    character("Ysolde", willpower=3)
    make_character("Borin", "seyruun", {"dexterity": 1, "stealth": 0, "composure": 2,
                                        "resolve": 2}, willpower=3)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo", "--as", "borin")
    ok("seyruun", "roll", "1", "-d", "5", "--dice", "3", "--secret", "--log", "--as", "borin")
    (secret,) = entries()
    with serving("--token", GM, tmp=tmp_path) as server:
        for token in (seat_token("ana"), seat_token("bo"), GM):
            for line in (f"seyruun reroll {secret['id']}", "seyruun reroll"):
                status, body, _ = post(server, {"line": line}, token)
                assert status == 403 and "seyruun reroll" in body["error"], body
        assert willpower("borin") == 3 and len(entries()) == 1
        # at the terminal: the re-roll of a secret roll is secret itself
        ok("seyruun", "reroll", str(secret["id"]), "--dice", "4", "--log")
        rerolled = entries()[-1]
        assert rerolled["command"] == "reroll" and rerolled["secret"] is True
        time.sleep(0.1)
        shown = server.rolls(token=f"&token={GM}")
        assert [e["secret"] for e in shown] == [True, True]
        assert all("results" not in e for e in shown)  # no die of the secret roll public


@pytest.mark.process
@pytest.mark.slow
def test_a_seat_may_not_recover_with_or_without_reset(tmp_path):
    character("Nix")
    ok("char", "set", "nix", "might=4")
    ok("seat", "add", "ana", "--as", "nix")
    with serving(tmp=tmp_path) as server:
        for line in ("cypher recover", "cypher recover --reset", "cypher recover --as nix"):
            status, body, _ = post(server, {"line": line}, seat_token("ana"))
            assert status == 403 and "cypher recover" in body["error"], (line, body)
    assert ok("char", "show", "nix", "--json").json()[0]["traits"]["might"] == 4
    assert entries() == []


COMPARES = [
    ("--as Borin", "--as Borin"),
    ("--as=Borin", "--as Borin"),
    ("--dice 1,2,3", "--dice"),
    ("--seed 4", "--seed"),
    ("--no-log", "--no-log"),
    ("-n 30", "-n 20"),
    ("--vs Ghoul", "no encounter"),
]
"""A ``--compare`` a seat may not give, and what its refusal names."""


@pytest.mark.process
@pytest.mark.slow
def test_a_compare_is_checked_like_the_lines_own_options(tmp_path):
    # One server for every case (each a refusal, then an allowed roll that is logged), a
    # seat of Ysolde's for each (a seat's rolls are limited to 10 in 10 seconds).
    character("Ysolde")
    make_character("Borin", "seyruun", {"dexterity": 1})
    for n in range(len(COMPARES)):
        ok("seat", "add", f"ana{n}", "--as", "ysolde")
    with serving(tmp=tmp_path) as server:
        for done, (compare, fragment) in enumerate(COMPARES, 1):
            token = seat_token(f"ana{done - 1}")
            line = f"seyruun roll dexterity stealth --odds --compare '{compare}'"
            status, body, _ = post(server, {"line": line}, token)
            assert status == 403 and fragment in body["error"], (compare, body)
            status, body, _ = post(server, {"line": "seyruun roll dexterity stealth --odds "
                                            "--compare '-d 5'"}, token)
            assert status == 200, (compare, body)
            assert [e["character"] for e in entries()] == ["Ysolde"] * done, compare


@pytest.mark.process
@pytest.mark.slow
def test_vs_a_saved_character_outside_the_encounter_is_refused(tmp_path):
    character("Ysolde", wits=2)
    make_character("Zed", "seyruun", {"dexterity": 2, "stamina": 2})
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("encounter", "start", "Ysolde", "Zed=3+3", "Ghoul=2+2", "--no-log", quiet=False)
    before = ok("char", "show", "zed", "--json").json()[0]
    with serving(tmp=tmp_path) as server:
        token = seat_token("ana")
        line = "seyruun attack dexterity --damage 5 --vs Zed --secret"
        status, body, _ = post(server, {"line": line}, token)
        assert status == 403 and "saved character outside the encounter" in body["error"], body
        status, body, _ = post(server, {"line": line.replace("Zed", "Ghoul")}, token)
        assert status == 200, body
    assert ok("char", "show", "zed", "--json").json()[0] == before


@pytest.mark.process
@pytest.mark.slow
def test_a_seat_rolls_only_its_characters_rulesets_the_gm_any(tmp_path):
    character("Ysolde")
    character("Nix")
    ok("seat", "add", "ana", "--as", "ysolde", "--as", "nix")
    ok("seat", "add", "bo")
    with serving("--token", GM, tmp=tmp_path) as server:
        ana, bo = seat_token("ana"), seat_token("bo")
        for token in (ana, bo):
            for line in ("crytures roll 3", "reglas roll 5", "reglas multi 5 5"):
                status, body, _ = post(server, {"line": line}, token)
                assert status == 403 and "only as a" in body["error"], (line, body)
            for line in ("crytures odds 3", "reglas odds 5", "roll d20"):
                assert post(server, {"line": line}, token)[0] == 200, line
        assert post(server, {"line": "seyruun roll 3"}, bo)[0] == 403  # no character at all
        assert post(server, {"line": "seyruun roll dexterity stealth --as ysolde"}, ana)[0] == 200
        status, body, _ = post(server, {"line": "cypher task -d 3 --as nix"}, ana)
        assert status == 200, body
        for line in ("crytures roll 3", "reglas roll 5", "seyruun roll 3"):
            status, body, _ = post(server, {"line": line}, GM)
            assert status == 200, (line, body)
    assert [e["ruleset"] for e in entries()] == (["dice"] * 2 + ["seyruun", "cypher"]
                                                 + ["crytures", "reglas", "seyruun"])


def cpu(pid: int) -> float:
    """Seconds of CPU the process used so far (user and system)."""
    import os

    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(server: Server, path: str) -> tuple[float, int]:
    started = time.monotonic()
    request = urllib.request.Request(server.base + path)
    with urllib.request.urlopen(request, timeout=60) as answer:
        answer.read()
        return time.monotonic() - started, answer.status


LONG_ODDS = "crytures odds 600 --compare '-d 5' --compare '-d 7' --compare '-d 8'"
"""About two seconds of exact odds (the whole budget, shared by four computations)."""
LONG_ROLL = "crytures roll 600 --odds --compare '-d 5' --compare '-d 7' --compare '-d 8'"
"""A roll whose odds take as long (#45 point 7: it held the rolls' lock)."""


@pytest.mark.slow
@pytest.mark.process
def test_one_seats_long_odds_do_not_stall_the_table(tmp_path):
    make_character("Kira", "crytures")
    ok("seat", "add", "ana")
    ok("seat", "add", "bo", "--as", "kira")
    ana, bo = seat_token("ana"), seat_token("bo")
    with serving(tmp=tmp_path) as server:
        status, body, _ = post(server, {"line": LONG_ODDS + " --compare '-d 9'"}, bo)
        assert status == 403 and "--compare 3 times at most" in body["error"], body
        answers: list = []
        started = time.monotonic()
        heavy = [threading.Thread(target=lambda line=line: answers.append(
            post(server, {"line": line}, bo, timeout=120)))
            for line in (LONG_ODDS, LONG_ROLL, LONG_ROLL)]
        for t in heavy:
            t.start()
        time.sleep(1.0)  # the odds are being computed
        waited = []
        for _ in range(3):
            t0 = time.monotonic()
            status, body, _ = post(server, {"line": "roll d20"}, ana)
            waited.append(time.monotonic() - t0)
            assert status == 200, body
            waited.append(timed(server, "/api/rolls")[0])
        for t in heavy:
            t.join()
        took = time.monotonic() - started
        assert sorted(a[0] for a in answers) == [200] * 3, answers
        rolled = [a[1] for a in answers if a[1]["rolls"] and a[1]["rolls"][0].get("id")]
        assert len(rolled) == 2 and all(r["shown"]["odds"] for r in rolled), rolled
        assert max(waited) < 2.0 < took, (waited, took)  # the table went on meanwhile


@pytest.mark.slow
@pytest.mark.process
def test_a_hung_up_clients_queued_odds_are_dropped_and_odds_count_in_the_rate(tmp_path):
    """#45 point 7: odds asked by a client that hung up were computed all the same, one
    after the other, and a seat's odds counted one request each, whatever they cost."""
    import socket

    make_character("Kira", "crytures")
    ok("seat", "add", "bo", "--as", "kira")
    bo = seat_token("bo")
    with serving(tmp=tmp_path) as server:
        host, port = server.base.removeprefix("http://").rsplit(":", 1)
        before = cpu(server.process.pid)
        hung = []
        for _ in range(6):  # ~2 s of odds each: 12 s, were they computed
            body = json.dumps({"line": LONG_ODDS}).encode()
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.sendall(b"POST /api/roll HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Authorization: Bearer " + bo.encode() + b"\r\n"
                         b"Content-Type: application/json\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            hung.append(sock)
        time.sleep(0.5)
        for sock in hung:
            sock.close()  # hung up before any answer
        status, body, _ = post(server, {"line": "odds 2d6"}, bo, timeout=60)
        assert status == 200, body
        time.sleep(1)
        used = cpu(server.process.pid) - before
        assert used < 4.5, f"{used:.1f} s of CPU: it computed odds nobody reads"
        said = []  # each ~2 s of CPU (other pools: nothing computed before): 8 requests
        for n in range(3):  # or more, counting the 5 before: a 429 (counting 1 each: 8)
            said.append(post(server, {"line": LONG_ODDS.replace("600", str(590 - n))}, bo,
                             timeout=60)[0])
        assert said[0] == 200 and 429 in said, said


@pytest.mark.process
@pytest.mark.slow
def test_crytures_odds_share_their_budget_with_each_compare(tmp_path):
    line = "crytures odds 1000 --attack --crit-hits 5 --compare '-d 5'"
    with serving("--token", GM, tmp=tmp_path) as server:
        started = time.monotonic()
        status, body, _ = post(server, {"line": line}, GM)
        assert status == 400 and "shared by the 2 computations" in body["error"], body
        assert time.monotonic() - started < 5  # refused at once, not computed


@pytest.mark.process
@pytest.mark.slow
def test_a_bare_expression_rolls_and_a_wrong_token_is_named(tmp_path):
    ok("seat", "add", "ana")
    with serving(tmp=tmp_path) as server:
        status, body, _ = post(server, {"line": "2d6+3"}, seat_token("ana"))
        assert status == 200, body
        (rolled,) = body["rolls"]
        assert rolled["expression"] == "2d6+3" and 5 <= rolled["total"] <= 15
        request = urllib.request.Request(
            server.base + "/api/roll", data=b'{"line": "roll d6"}', method="POST",
            headers={"Authorization": "Bearer not-a-token-of-this-table"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        said = refused.value.read().decode()
        assert refused.value.code == 403 and "not one of this table's" in said, said
        assert "needed" not in said
    assert "Read-only" not in ok("serve", "--help").stdout
    assert "/api/roll" in ok("serve", "--help").stdout
