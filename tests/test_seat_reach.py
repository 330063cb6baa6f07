"""What a seat reached that it should not, and what a joined terminal or ``log show``
printed that it should not (issue #45, items 5, 6, 8, 11, 12, 13), each attack made again
against the real server on a free port where it needs one (docs/serve.md, "What a seat
can and cannot do")."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import character, cli, log_path, ok, proc
from test_seats import seat_token
from test_serve import serving

GM = "the-gms-own-token-0123456789"


# 13. A joined terminal prints whatever the table rolled, labelled dice too ---------------


@pytest.mark.slow
@pytest.mark.process
def test_a_joined_terminal_prints_labelled_dice_as_the_same_local_roll_does(tmp_path):
    character("Ysolde")
    ok("seat", "add", "ana", "--as", "ysolde")
    lines = [["roll", "2d6 # fire", "--seed", "4"], ["roll", "2d6+1d4[fire]", "--seed", "4"],
             ["roll", "2d6+1d4[fire]", "2d8 # cold", "--seed", "5"]]
    with serving("--token", GM, tmp=tmp_path) as server:
        assert proc("table", "join", f"{server.base}/?seat={GM}").returncode == 0
        for words in lines:
            run = proc(*words)
            assert run.returncode == 0, (words, run.stderr)
            here = proc(*words, "--here")
            assert here.returncode == 0 and run.stdout == here.stdout, words
        assert "fire" in run.stdout and "cold" in run.stdout
        assert proc("table", "join", f"{server.base}/?seat={seat_token('ana')}").returncode == 0
        for words in (["roll", "2d6 # fire"], ["roll", "2d6+1d4[fire]"]):
            run = proc(*words)  # a seat's own: the table rolls, the terminal prints it
            assert run.returncode == 0 and "fire" in run.stdout, (words, run.stderr)
    logged = ok("log", "--json").stdout.splitlines()
    assert len(logged) == 5


# 11. Control characters from the network or a file are made visible, notes included ------

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x9b1m"
"""A note that would set the terminal's title, clear the screen and color it."""


def _hostile(roll: dict) -> dict:
    return {**roll, "notes": [HOSTILE], "compare": None}


@pytest.mark.process
@pytest.mark.slow
def test_a_hostile_tables_notes_reach_a_joined_terminal_made_visible():
    from test_joined import a_roll, at_table, fake_table, reply

    roll = _hostile(a_roll("roll", "2d6 # fire"))
    body = json.dumps({"rolls": [{**roll, "id": 7, "seat": "ana"}]}).encode()
    with fake_table(reply("200 OK", body)) as fake:
        at_table(fake.base)
        run = cli("roll", "2d6 # fire")
    assert run.exit_code == 0, run.stderr
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\x9b" not in run.stdout
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in run.stdout  # shown, made visible


def test_a_forged_log_entrys_notes_are_shown_made_visible_by_log_show():
    ok("roll", "2d6 # fire", "--seed", "4", "--log")
    con = sqlite3.connect(log_path(), isolation_level=None)
    try:
        (results,) = con.execute("SELECT results FROM entries WHERE id = 1").fetchone()
        forged = [{**_hostile(r), "compare": HOSTILE, "against": {
            "expression": "15", "dice": [], "value": 15, "label": None}}
            for r in json.loads(results)]
        con.execute("UPDATE entries SET results = ? WHERE id = 1", (json.dumps(forged),))
    finally:
        con.close()
    for words in (["log", "show", "1"], ["log"]):
        run = cli(*words)
        assert run.exit_code == 0, run.stderr
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout, words
    assert cli("log", "show", "1").stdout.count("\\x1b]0;pwned") == 2  # note, comparison


# 12. Line and paragraph separators, NEL, a lone surrogate: never a 500 -------------------

SEPARATORS = ["\u2028", "\u2029", "\x85"]


@pytest.mark.parametrize("mark", SEPARATORS)
def test_a_label_with_a_line_separator_is_rolled_and_answered(mark):
    from test_seats import roll

    ok("seat", "add", "ana")
    answer = roll(f"roll '2d6 # a{mark}b'")
    assert answer.status == 200, answer.body
    (rolled,) = answer.body["rolls"]
    assert rolled["label"] == f"a{mark}b" and isinstance(rolled["id"], int)
    assert json.loads(ok("log", "--json").stdout)["results"][0]["label"] == f"a{mark}b"


def test_a_lone_surrogate_is_refused_before_rolling_on_one_line():
    from test_seats import roll

    ok("seat", "add", "ana")
    for line in ("roll '2d6 # a\ud800b'", "roll 2d6+1d4[\udcff]"):
        answer = roll(line)
        assert answer.status == 400, answer.body
        error = answer.body["error"]
        assert "surrogate" in error and error.isprintable() and error.encode("utf-8"), error
    assert ok("log", "--json").stdout == ""


@pytest.mark.slow
@pytest.mark.process
def test_the_server_answers_such_labels_and_never_says_500(tmp_path):
    from test_seats import post
    from test_serve import events

    ok("seat", "add", "ana")
    token = seat_token("ana")
    with serving(tmp=tmp_path) as server:
        for mark in SEPARATORS:
            status, body, _ = post(server, {"line": f"roll '2d6 # a{mark}b'"}, token)
            assert status == 200 and body["rolls"][0]["label"] == f"a{mark}b", body
        status, body, _ = post(server, {"line": "roll '2d6 # a\ud800b'"}, token)
        assert status == 400 and "surrogate" in body["error"], body
        assert [e["results"][0]["label"] for e in server.rolls()] == [
            f"a{m}b" for m in SEPARATORS]
        got = events(server, 3, after="0")
        assert [json.loads(d)["results"][0]["label"] for _, n, d in got if n == "message"] == [
            f"a{m}b" for m in SEPARATORS]
        assert server.get("/")[0] == 200
        assert "Traceback" not in server.stderr()


# 5. A seat spends only its own characters' resources ---------------------------------------


def _two_players() -> None:
    from conftest import make_character

    character("Ysolde", willpower=5, wits=2)
    make_character("Bran", "seyruun", {"dexterity": 2, "wits": 2, "stamina": 2}, willpower=6)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo", "--as", "bran")
    ok("encounter", "start", "Ysolde", "Bran", "--no-log", quiet=False)


def _willpower(name: str) -> int:
    return ok("char", "show", name, "--json").json()[0]["willpower"]


@pytest.mark.parametrize("line", [
    "seyruun attack dexterity --defense 3 --vs Bran --defender-willpower -n 6",
    "seyruun attack dexterity --defense 3 --vs bran --defender-willpower",
    "seyruun attack dexterity --defense 3 --vs Bran --odds --compare '--defender-willpower'",
])
def test_a_seat_may_not_spend_another_players_willpower(line):
    from test_seats import roll

    _two_players()
    answer = roll(line)
    assert answer.status == 403, answer.body
    error = answer.body["error"]
    assert "--defender-willpower" in error and "own" in error and "\n" not in error, error
    assert _willpower("bran") == 6 and _willpower("ysolde") == 5
    assert ok("log", "--json").stdout == ""  # nothing rolled


@pytest.mark.slow
@pytest.mark.process
def test_the_attack_on_anothers_willpower_is_refused_by_the_server(tmp_path):
    from test_seats import post

    _two_players()
    with serving(tmp=tmp_path) as server:
        line = "seyruun attack dexterity --defense 3 --vs Bran --defender-willpower -n 6"
        status, body, _ = post(server, {"line": line}, seat_token("ana"))
        assert status == 403 and "--defender-willpower" in body["error"], body
    assert _willpower("bran") == 6 and ok("log", "--json").stdout == ""


def test_a_seat_attacks_without_the_defenders_willpower_and_the_gm_may_spend_it():
    from test_seats import roll

    _two_players()
    answer = roll("seyruun attack dexterity --defense 3 --vs Bran")
    assert answer.status == 200, answer.body
    assert _willpower("bran") == 6
    answer = roll("seyruun attack dexterity --defense 3 --vs Bran --defender-willpower -n 2 "
                  "--as Ysolde",
                  name=None, gm=True)
    assert answer.status == 200, answer.body
    assert _willpower("bran") == 4


# 6. A removed or renewed seat's open /events stream ends at once ---------------------------


class Stream:
    """An open ``/events`` stream, read to its end in a thread of its own."""

    def __init__(self, answer) -> None:
        import threading

        self.answer, self.done = answer, threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        try:
            while self.answer.readline():
                pass
        except Exception:  # closed here, or cut off
            pass
        self.done.set()

    def ended(self, within: float = 5.0) -> bool:
        """Whether the server ends it within ``within`` seconds."""
        return self.done.wait(within)

    def close(self) -> None:
        import socket

        try:
            self.answer.fp.raw._sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass
        self.answer.close()


def _open(server, query: str) -> Stream | int:
    """An ``/events`` stream, its first event read (open); or the status it was refused."""
    import urllib.error
    import urllib.request

    try:
        answer = urllib.request.urlopen(server.base + "/events" + query, timeout=10)
    except urllib.error.HTTPError as e:
        e.close()
        return e.code
    assert answer.readline().startswith(b"retry:")
    return Stream(answer)


@pytest.mark.slow
@pytest.mark.process
def test_a_removed_or_renewed_seats_open_stream_is_closed_at_once(tmp_path):
    from test_serve import events

    for name in ("ana", "bo", "cy"):
        ok("seat", "add", name)
    tokens = {name: seat_token(name) for name in ("ana", "bo", "cy")}
    with serving(tmp=tmp_path) as server:
        streams = {name: _open(server, f"?seat={token}") for name, token in tokens.items()}
        ok("seat", "rm", "ana", "--yes")
        ok("seat", "link", "bo", "--new")
        assert streams["ana"].ended() and streams["bo"].ended()
        assert not streams["cy"].ended(within=1.5)  # a seat still there goes on
        got = events(server, 1, query=f"?seat={tokens['cy']}",
                     during=lambda: ok("roll", "1d6", "--log"))
        assert [n for _, n, _ in got].count("message") == 1
        for name in ("ana", "bo"):  # and the old links open no stream again
            assert _open(server, f"?seat={tokens[name]}") == 403
        streams["cy"].close()


# 8. At most 4 streams per seat; the GM's screen and the plain page always served ----------


@pytest.mark.slow
@pytest.mark.process
def test_one_seat_cannot_take_every_stream_and_the_tv_is_always_served(tmp_path):
    ok("seat", "add", "ana")
    token = seat_token("ana")
    with serving(tmp=tmp_path) as server:
        got = [_open(server, f"?seat={token}") for _ in range(256)]  # every slot, one seat
        opened = [s for s in got if isinstance(s, Stream)]
        assert len(opened) == 4 and set(got[4:]) == {429}
        tv, laptop = _open(server, ""), _open(server, "")  # the plain page (loopback)
        assert isinstance(tv, Stream) and isinstance(laptop, Stream)
        opened[0].close()  # its slot is free again once the server sees it gone
        import time

        deadline = time.monotonic() + 20
        again = _open(server, f"?seat={token}")
        while again == 429 and time.monotonic() < deadline:
            time.sleep(0.5)
            again = _open(server, f"?seat={token}")
        assert isinstance(again, Stream)
        for stream in (*opened[1:], tv, laptop, again):
            stream.close()


@pytest.mark.slow
@pytest.mark.process
def test_the_seats_together_leave_a_quarter_of_the_streams_to_the_gm_and_the_page(
        tmp_path, monkeypatch):
    monkeypatch.setenv("RPGDICE_SERVE_MAX_STREAMS", "8")
    for name in ("ana", "bo"):
        ok("seat", "add", name)
    ana, bo = seat_token("ana"), seat_token("bo")
    with serving("--token", GM, tmp=tmp_path) as server:
        held = [_open(server, f"?seat={ana}") for _ in range(4)]
        held += [_open(server, f"?seat={bo}") for _ in range(2)]
        assert all(isinstance(s, Stream) for s in held)
        assert _open(server, f"?seat={bo}") == 429  # 6 of 8: the seats' share
        held += [_open(server, f"?token={GM}"), _open(server, f"?token={GM}")]  # TV, GM
        assert all(isinstance(s, Stream) for s in held)
        assert _open(server, f"?token={GM}") == 503  # all 8 open
        for stream in held:
            stream.close()
