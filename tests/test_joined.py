"""A player's terminal against a hostile or broken table (issue #31; CLI.md, "The players:
seats at the table"): ``rpgdice table join`` and a joined roll against a tiny fake HTTP
server on a free port. Whatever the table answers, a bad answer exits 2 with one line
naming its URL, prints nothing on stdout, follows no redirect and ends within the
deadline."""

from __future__ import annotations

import json
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from conftest import cli, home, proc

TOKEN = "a-seat-token-0123456789abcdef"

Answer = Callable[[str, socket.socket], None]
"""What the fake table does with a request (its first line) on its connection."""


class Fake:
    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.requests: list[str] = []
        self.stop = threading.Event()

        fake = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                data = b""
                while b"\r\n\r\n" not in data:
                    got = self.request.recv(65536)
                    if not got:
                        return
                    data += got
                head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
                fake.requests.append(head)
                try:
                    fake.answer(head.split("\r\n", 1)[0], self.request)
                except OSError:
                    pass

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"


@contextmanager
def fake_table(answer: Answer) -> Iterator[Fake]:
    fake = Fake(answer)
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.stop.set()
        fake.server.shutdown()
        fake.server.server_close()


def reply(status: str, body: bytes, *headers: str) -> Answer:
    def answer(line: str, conn: socket.socket) -> None:
        head = "".join(f"{h}\r\n" for h in (*headers, f"Content-Length: {len(body)}",
                                             "Content-Type: application/json",
                                             "Connection: close"))
        conn.sendall(f"HTTP/1.1 {status}\r\n{head}\r\n".encode() + body)
    return answer


def at_table(base: str) -> None:
    """Joined to ``base`` (written as ``table join`` writes it, nothing asked of it)."""
    (home() / "config.toml").write_text(f'[table]\nurl = "{base}/?seat={TOKEN}"\nseat = "ana"\n')


def refused(run, base: str, *fragments: str) -> str:
    """Exit 2, nothing on stdout, one line on stderr naming the table's URL."""
    code = getattr(run, "exit_code", getattr(run, "returncode", None))
    assert code == 2, (code, run.stdout, run.stderr)
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert base in lines[0] or not base, lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def a_roll(*words: str) -> dict:
    run = cli(*(words or ("roll", "2d6")), "--seed", "3", "--json", "--no-log")
    assert run.exit_code == 0, run.stderr
    return json.loads(run.stdout)


# 1. a table that answers a byte at a time, or without end --------------------------------


@pytest.mark.slow
@pytest.mark.process
def test_a_table_answering_a_byte_at_a_time_is_cut_off_within_the_deadline():
    def drip(line: str, conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n"
                     b"Content-Type: application/json\r\n\r\n[")
        while True:  # one byte every 5 s (old: a 10 s timeout per read never fired)
            time.sleep(5)
            conn.sendall(b" ")

    with fake_table(drip) as fake:
        at_table(fake.base)
        runs: dict[str, object] = {}
        took: dict[str, float] = {}

        def run(name: str, *words: str) -> None:
            start = time.monotonic()
            runs[name] = proc(*words, timeout=45)
            took[name] = time.monotonic() - start

        workers = [threading.Thread(target=run, args=("join", "table", "join",
                                                      f"{fake.base}/?seat={TOKEN}")),
                   threading.Thread(target=run, args=("roll", "roll", "2d6"))]
        for w in workers:
            w.start()
        for w in workers:
            w.join(60)
        assert set(runs) == {"join", "roll"}, "a request did not end within 45 s"
        for name in ("join", "roll"):
            refused(runs[name], fake.base, "15 s")
            assert took[name] < 25, took


@pytest.mark.process
@pytest.mark.slow
def test_an_answer_over_one_mib_is_refused_naming_the_table():
    big = b"[" + b" " * (2 << 20) + b"]"
    with fake_table(reply("200 OK", big)) as fake:
        at_table(fake.base)
        refused(cli("roll", "2d6"), fake.base, "bytes")
        refused(cli("table", "join", f"{fake.base}/?seat={TOKEN}"), fake.base, "bytes")

    def endless(line: str, conn: socket.socket) -> None:  # no Content-Length: read to the end
        conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[")
        while True:
            conn.sendall(b" " * 65536)

    with fake_table(endless) as fake:
        at_table(fake.base)
        refused(cli("roll", "2d6"), fake.base, "bytes")


# 2. redirects are never followed ---------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow
def test_a_redirect_is_not_followed_and_the_token_goes_nowhere_else():
    with fake_table(reply("200 OK", b"[]")) as other:
        with fake_table(reply("302 Found", b"", f"Location: {other.base}/elsewhere")) as fake:
            at_table(fake.base)
            line = refused(cli("roll", "2d6"), fake.base, "redirect", f"{other.base}/elsewhere")
            assert TOKEN not in line
            refused(cli("table", "join", f"{fake.base}/?seat={TOKEN}"), fake.base, "redirect")
            assert len(fake.requests) == 2
        assert other.requests == []
    assert "[table]" in (home() / "config.toml").read_text()  # the join wrote nothing new
    assert "elsewhere" not in (home() / "config.toml").read_text()


# 3. no internal error, whatever the table or the link --------------------------------------


@pytest.mark.process
@pytest.mark.parametrize("status,body", [
    ("200 OK", b"[" * 200000),
    ("400 Bad Request", b'{"error": ' + b"[" * 30000 + b"]" * 30000 + b"}"),
    ("200 OK", b'{"rolls": ' + b"[" * 30000 + b"]" * 30000 + b"}"),
])
@pytest.mark.slow
def test_a_deeply_nested_answer_is_a_bad_answer_not_an_internal_error(status, body):
    with fake_table(reply(status, body)) as fake:
        at_table(fake.base)
        run = cli("roll", "2d6", "--json")
        assert run.exception is None, repr(run.exception)
        refused(run, "" if status.startswith("400") else fake.base)


@pytest.mark.process
@pytest.mark.parametrize("url", ["http://[::1/?seat=T", "http://127.0.0.1:abc/?seat=T",
                                 "http://127.0.0.1:99999/?seat=T"])
def test_a_link_that_is_no_url_is_a_usage_error(url):
    run = proc("table", "join", url)
    line = refused(run, "", "no seat's link")
    assert "internal error" not in line


@pytest.mark.process
def test_a_links_password_is_never_echoed():
    run = proc("table", "join", "http://player:s3cretpw@127.0.0.1:9/?seat=T")
    line = refused(run, "")
    assert "s3cretpw" not in line and "player" not in line
    at_table("http://player:s3cretpw@127.0.0.1:9")
    line = refused(proc("roll", "2d6"), "")
    assert "s3cretpw" not in line


# 4. a table's bad answers are refused ------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow
def test_a_good_answer_prints_as_a_local_roll():  # the fake table itself is believed
    roll = a_roll()
    with fake_table(reply("200 OK", json.dumps({"rolls": [{**roll, "id": 7, "seat": "ana"}]})
                          .encode())) as fake:
        at_table(fake.base)
        run = cli("roll", "2d6", "--json")
        assert run.exit_code == 0, run.stderr
        assert json.loads(run.stdout) == roll
        text = cli("roll", "2d6")
        assert text.exit_code == 0 and "Total" in text.stdout
        assert fake.requests[0].startswith("POST /api/roll ")
        assert f"Authorization: Bearer {TOKEN}" in fake.requests[0]


@pytest.mark.process
@pytest.mark.parametrize("change,as_json", [
    (lambda r: {"rolls": []}, False),
    (lambda r: {"rolls": []}, True),
    (lambda r: {"rolls": [{**r, "terms": "notalist"}]}, False),
    (lambda r: {"rolls": [{**r, "terms": "notalist"}]}, True),
    (lambda r: {"rolls": [{**r, "terms": [{**r["terms"][0], "dice": "notalist"}]}]}, True),
    (lambda r: {"rolls": [{**r, "total": "seven"}]}, True),
    (lambda r: {"rolls": [{**r, "ruleset": "nosuchruleset"}]}, False),
    (lambda r: {"rolls": ["not an object"]}, True),
    (lambda r: {"rolls": {"a": 1}}, False),
])
@pytest.mark.slow
def test_an_answer_that_does_not_rebuild_into_its_roll_is_refused(change, as_json):
    body = json.dumps(change(a_roll())).encode()
    with fake_table(reply("200 OK", body)) as fake:
        at_table(fake.base)
        refused(cli("roll", "2d6", *(["--json"] if as_json else [])), fake.base)


@pytest.mark.process
@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.slow
def test_a_seyruun_roll_whose_dice_are_no_list_is_refused(as_json):
    body = json.dumps({"rolls": [{**a_roll("seyruun", "roll", "3"), "dice": "notalist"}]})
    with fake_table(reply("200 OK", body.encode())) as fake:
        at_table(fake.base)
        refused(cli("seyruun", "roll", "3", *(["--json"] if as_json else [])), fake.base)


@pytest.mark.process
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.slow
def test_nan_and_infinity_are_refused_never_printed_as_json(constant):
    body = json.dumps({"rolls": [a_roll()]}).replace('"total": ', f'"total": {constant}, "x": ')
    with fake_table(reply("200 OK", body.encode())) as fake:
        at_table(fake.base)
        refused(cli("roll", "2d6", "--json"), fake.base)


@pytest.mark.process
@pytest.mark.slow
def test_a_refusal_is_the_tables_message_on_one_line_bounded():
    body = json.dumps({"error": "no such roll\n\x1b[31mred" + "x" * 5000}).encode()
    with fake_table(reply("400 Bad Request", body)) as fake:
        at_table(fake.base)
        line = refused(cli("roll", "2d6"), "", "no such roll")
        assert "\x1b" not in line and len(line) < 500


@pytest.mark.process
@pytest.mark.parametrize("status,body", [
    ("200 OK", b"<html>a router's page</html>"),
    ("200 OK", b'{"rolls": []}'),
    ("200 OK", b"[1, 2]"),
    ("404 Not Found", b"{}"),
    ("500 Internal Server Error", b"oops"),
])
@pytest.mark.slow
def test_join_checks_the_answer_is_a_tables(status, body):
    with fake_table(reply(status, body)) as fake:
        refused(cli("table", "join", f"{fake.base}/?seat={TOKEN}"), fake.base)
    assert not (home() / "config.toml").exists() or "[table]" not in (
        home() / "config.toml").read_text()


@pytest.mark.process
@pytest.mark.slow
def test_join_keeps_at_most_40_visible_characters_of_the_seats_name():
    name = "\x1b[2J" + "s" * 60000
    with fake_table(reply("200 OK", b"[]", f"X-Rpgdice-Seat: {name}")) as fake:
        run = cli("table", "join", f"{fake.base}/?seat={TOKEN}")
        assert run.exit_code == 0, run.stderr
        assert "\x1b" not in run.stdout and len(run.stdout) < 200
        seat = json.loads(cli("table", "--json").stdout)["seat"]
        assert len(seat) == 40 and seat.startswith("\\x1b[2J") and seat.isprintable()
