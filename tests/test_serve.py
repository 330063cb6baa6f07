"""``rpgdice serve`` (CLI.md, "Showing the table"): the page, ``/api/rolls``, ``/events``,
the token, the Discord webhook, and a log that cannot be read. The quick tests work on
the pieces in-process; the slow ones start the server on a free local port, make rolls in
other processes, and read what a client sees (test_serve_browser.py opens a real browser)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import assert_usage_error, cli, home, log_path, old_log, proc


def last_entry() -> dict:
    from rpgdice.table.log import Log

    log = Log.open(write=False)
    assert log is not None
    try:
        (entry,) = log.last()
        return entry
    finally:
        log.close()


# Quick: the pieces -----------------------------------------------------------------------


def test_serve_without_its_extra_exits_2_with_the_pip_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    run = cli("serve")
    assert_usage_error(run, "pip install 'rpgdice[serve]'")


def test_only_loopback_needs_no_token():
    from rpgdice.cli.serve import loopback

    assert all(map(loopback, ["127.0.0.1", "localhost", "::1", "127.0.0.2", "LOCALHOST"]))
    assert not any(map(loopback, ["0.0.0.0", "192.168.1.5", "::", "example.org"]))


def test_bad_token_and_webhook_are_usage_errors():
    assert_usage_error(cli("serve", "--token", "short"), "--token")
    assert_usage_error(cli("serve", "--discord", "ftp://x/y"), "--discord")
    assert_usage_error(cli("serve", "--port", "70000"), "--port")


def test_a_roll_is_shown_with_every_user_text_escaped_and_a_secret_roll_without_results():
    from rpgdice.serve import views

    assert cli("reglas", "roll", "8", "--dice", "3", "--log").exit_code == 0
    entry = last_entry()
    entry["character"] = "<script>alert(1)</script>"
    entry["argv"] = [*entry["argv"], "<img src=x onerror=alert(2)>"]
    html = views.entry_html(entry)
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x" in html
    assert "Éxito" in html and "<span style=" in html  # the view, with its colors
    secret = views.entry_html({**entry, "secret": True})
    assert "a secret roll" in secret and "Éxito" not in secret and "&lt;script&gt;" in secret
    assert "<script>" not in secret


def test_secret_entries_give_the_table_only_their_few_keys():
    from rpgdice.table.log import on_the_table

    cli("cypher", "task", "-d", "3", "--dice", "12", "--secret")
    entry = last_entry()
    assert on_the_table(entry) == {k: entry[k] for k in
                                   ("id", "time", "character", "seat", "ruleset", "command")} | {
        "secret": True, "blind": False}
    cli("log", "reveal", str(entry["id"]))
    shown = on_the_table(last_entry())
    assert shown["results"] and shown["secret"] is False


def test_the_discord_message_is_the_short_line_within_2000_characters():
    from rpgdice.serve.discord import message

    cli("roll", "1d6", "--dice", "4", "--log")
    entry = last_entry()
    assert message(entry, False) == cli("roll", "1d6", "--dice", "4", "--short").stdout.strip()
    big = {**entry, "results": entry["results"] * 200, "count": 1000}
    text = message(big, True)
    assert len(text) == 2000 and text.startswith(f"revealed #{entry['id']}: roll 1d6")


def test_the_follower_reads_an_old_log_without_writing_it():
    from rpgdice.serve.follow import Reader

    con = old_log(4)
    con.execute("INSERT INTO entries (time, argv, ruleset, command, count, outcome, results,"
                " rolled) VALUES ('2026-01-01T00:00:00Z', '[\"reglas\", \"roll\", \"8\"]',"
                " 'reglas', 'roll', 1, 'failure', '[]', '{}')")
    con.close()
    before = log_path().read_bytes()
    reader = Reader(log_path())
    (entry,) = reader.after(0)
    assert entry["secret"] is False and reader.reveals_after(0) == [] and reader.last_id() == 1
    reader.close()
    assert log_path().read_bytes() == before  # not migrated, not touched


def test_a_slow_client_is_cut_off_and_never_stalls_the_others():
    import asyncio

    from rpgdice.serve.hub import OVERFLOW, QUEUE, Hub

    async def go() -> None:
        hub = Hub(10)
        slow, quick = hub.subscribe(), hub.subscribe()
        for i in range(QUEUE + 5):
            hub.publish((i, False, f"event {i}"))
            await quick.get()  # this one keeps up
        assert slow.get_nowait() is OVERFLOW and slow.empty()
        hub.publish((999, False, "after"))
        assert (await quick.get())[2] == "after"

    asyncio.run(go())


def test_a_missing_or_corrupt_log_is_a_notice_not_an_exception(tmp_path):
    from rpgdice.serve.follow import Follower, Reader, Unreadable

    path = tmp_path / "log.sqlite3"
    with pytest.raises(Unreadable, match="no roll log yet"):
        Reader(path).last_id()
    path.write_bytes(b"this is not a database, it is garbage" * 200)
    with pytest.raises(Unreadable, match="corrupt"):
        Reader(path).last_id()
    notices: list = []
    follower = Follower(path, lambda e, r: None, notices.append, poll=0.01)
    follower.start()
    time.sleep(0.1)
    follower.close()
    assert notices and "corrupt" in notices[0]


# Slow: a real server on a free port -----------------------------------------------------


class Server:
    def __init__(self, process: subprocess.Popen, url: str, err: Path) -> None:
        self.process, self.url, self.err = process, url, err
        self.base = re.sub(r"/(\?.*)?$", "", url)

    def get(self, path: str, headers: dict | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def rolls(self, after: int = 0, token: str = "") -> list[dict]:
        status, body = self.get(f"/api/rolls?after={after}{token}")
        assert status == 200, body
        return json.loads(body)

    def stderr(self) -> str:
        return self.err.read_text()


@contextmanager
def serving(*args: str, tmp: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    err = tmp / "serve.err"
    with open(err, "w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "rpgdice", "serve", "--port", "0", *args],
                                   stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    try:
        line = process.stdout.readline() if process.stdout else ""
        found = re.search(r"http://\S+", line)
        assert found, (line, err.read_text())
        url = found.group(0).replace("0.0.0.0", "127.0.0.1")
        yield Server(process, url, err)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            process.kill()
            process.wait(5)


def events(server: Server, want: int, after: str | None = None, timeout: float = 8,
           query: str = "", during=None) -> list[tuple[str, str, str]]:
    """Read ``/events`` until ``want`` roll events came: (event id, name, data) each;
    ``during()`` runs once the stream is open."""
    headers = {} if after is None else {"Last-Event-ID": after}
    request = urllib.request.Request(server.base + "/events" + query, headers=headers)
    got: list[tuple[str, str, str]] = []
    deadline = time.monotonic() + timeout
    with urllib.request.urlopen(request, timeout=timeout) as stream:
        if during is not None:
            threading.Thread(target=during, daemon=True).start()
        ident, name, data = "", "message", ""
        while time.monotonic() < deadline and sum(n == "message" for _, n, _ in got) < want:
            line = stream.readline().decode()
            if not line:
                break
            line = line.rstrip("\n")
            if line.startswith("id: "):
                ident = line[4:]
            elif line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and data:
                got.append((ident, name, data))
                ident, name, data = "", "message", ""
    return got


@pytest.mark.slow
@pytest.mark.process
def test_api_rolls_gives_log_json_objects_and_secret_ones_only_their_keys(tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving(tmp=tmp_path) as server:
        proc("cypher", "task", "-d", "2", "--dice", "12", "--secret")
        proc("roll", "1d6", "--dice", "2", "--log")
        found = server.rolls()
        assert [e["id"] for e in found] == [1, 2, 3]
        log_json = [json.loads(x) for x in proc("log", "--json").stdout.splitlines()]
        assert found[0] == log_json[0] and found[2] == log_json[2]
        assert found[1] == {"id": 2, "time": log_json[1]["time"], "character": None,
                            "seat": None, "ruleset": "cypher", "command": "task", "secret": True,
                            "blind": False}
        assert [e["id"] for e in server.rolls(after=1)] == [2, 3]
        assert [e["id"] for e in json.loads(server.get("/api/rolls?after=0&limit=1")[1])] == [1]
        assert server.get("/api/rolls?after=-1")[0] == 400
        assert server.get("/api/rolls?limit=1001")[0] == 400
        request = urllib.request.Request(server.base + "/api/rolls", data=b"", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 405  # nothing writes
        wait_for(lambda: b"roll-3" in server.get("/")[1], timeout=2)  # followed within 2 s
        status, page = server.get("/")
        assert status == 200 and b"a secret roll" in page and b"Success" not in page
        assert page.index(b'id="roll-3"') < page.index(b'id="roll-2"') < page.index(b'id="roll-1"')
        assert b"http://" not in page.replace(b"http://www.w3.org", b"")  # nothing from outside
        assert b"src=" not in page


@pytest.mark.slow
@pytest.mark.process
def test_events_stream_new_rolls_resume_after_last_event_id_and_resend_a_revealed_one(tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving(tmp=tmp_path) as server:
        def roll() -> None:
            proc("reglas", "roll", "9", "--dice", "4", "--secret")
            proc("roll", "1d6", "--dice", "5", "--log")

        got = [g for g in events(server, 2, during=roll) if g[1] == "message"]
        assert [(i, json.loads(d)["id"]) for i, _, d in got] == [("2", 2), ("3", 3)]
        assert json.loads(got[0][2]) == {**{k: json.loads(got[0][2])[k] for k in
                                            ("id", "time", "character", "seat", "ruleset", "command")},
                                         "secret": True, "blind": False}
        resumed = [g for g in events(server, 2, after="1") if g[1] == "message"]
        assert [json.loads(d)["id"] for _, _, d in resumed] == [2, 3]
        revealed = [g for g in events(server, 1, during=lambda: proc("log", "reveal", "2"))
                    if g[1] == "message"]
        (whole,) = [json.loads(d) for _, _, d in revealed]
        assert whole["id"] == 2 and whole["secret"] is False and whole["results"]


@pytest.mark.slow
@pytest.mark.process
def test_a_non_loopback_host_needs_the_token_on_every_path(tmp_path):
    with serving("--host", "0.0.0.0", tmp=tmp_path) as server:
        token = re.search(r"token=(\S+)", server.url).group(1)
        assert len(token) >= 16
        for path in ("/", "/api/rolls", "/events", "/nothing"):
            assert server.get(path)[0] == 403
            assert server.get(path + ("&" if "?" in path else "?") + "token=wrong" + token)[0] == 403
        assert server.get(f"/api/rolls?token={token}")[0] == 200
        assert server.get("/api/rolls", {"Authorization": f"Bearer {token}"})[0] == 200
        status, page = server.get(f"/?token={token}")
        assert status == 200 and json.dumps(token).encode() in page  # the page's requests carry it
    given = "a-token-of-our-own-0123"
    with serving("--host", "0.0.0.0", "--token", given, tmp=tmp_path) as server:
        assert server.url.endswith(f"?token={given}")
        assert server.get("/api/rolls")[0] == 403
        assert server.get(f"/api/rolls?token={given}")[0] == 200


@pytest.mark.slow
@pytest.mark.process
def test_a_corrupt_or_replaced_log_gives_a_notice_and_the_server_goes_on(tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving(tmp=tmp_path) as server:
        aside = log_path().with_name("moved.sqlite3")
        for suffix in ("", "-wal", "-shm"):
            source = log_path().with_name(log_path().name + suffix)
            if source.exists():
                source.rename(aside.with_name(aside.name + suffix))
        log_path().write_bytes(b"garbage, not a roll log " * 100)
        time.sleep(1.5)
        status, body = server.get("/api/rolls")
        assert status == 503 and "corrupt" in json.loads(body)["error"]
        status, page = server.get("/")
        assert status == 200 and b"corrupt" in page
        # The next roll sets the corrupt log aside and begins a new one: the page follows it.
        assert "set aside" in proc("reglas", "roll", "9", "--dice", "4", "--log").stderr
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            status, body = server.get("/api/rolls")
            if status == 200 and json.loads(body):
                break
            time.sleep(0.2)
        assert [e["argv"][2] for e in json.loads(body)] == ["9"]
        assert server.process.poll() is None


class Webhook(BaseHTTPRequestHandler):
    """A stand-in for Discord: checks each post's shape, answers the first with a 429
    (``retry_after``), the rest 204; posts to /missing are 404."""

    posts: list = []
    problems: list = []
    limited = [False]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            data = json.loads(body)
            assert self.headers.get("Content-Type") == "application/json"
            assert set(data) <= {"content", "allowed_mentions", "username"}
            assert isinstance(data["content"], str) and 0 < len(data["content"]) <= 2000
            assert data["allowed_mentions"] == {"parse": []}
        except Exception as e:
            self.problems.append(repr(e))
        if self.path == "/missing":
            self.send_response(404)
            self.end_headers()
            return
        if not self.limited[0]:
            self.limited[0] = True
            answer = json.dumps({"message": "You are being rate limited.", "retry_after": 0.3,
                                 "global": False}).encode()
            self.send_response(429)
            self.send_header("Content-Type", "application/json")
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return
        self.posts.append((time.monotonic(), data["content"]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@contextmanager
def webhook():
    Webhook.posts, Webhook.problems, Webhook.limited = [], [], [False]
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def wait_for(check, timeout: float = 8) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not check():
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.process
def test_discord_gets_each_public_roll_and_each_reveal_as_its_short_line(tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")  # before serve started: not posted
    with webhook() as url, serving("--discord", url + "/hook", tmp=tmp_path) as server:
        started = time.monotonic()
        short = proc("roll", "1d6", "--dice", "5", "--short", "--log").stdout.strip()
        proc("cypher", "task", "-d", "2", "--dice", "12", "--secret")
        wait_for(lambda: len(Webhook.posts) >= 2)
        time.sleep(1)
        # the secret roll is posted as who rolled it, nothing of what (issue 31)
        assert [c for _, c in Webhook.posts] == [short, "the GM: a secret roll"]
        assert Webhook.posts[0][0] - started >= 0.3  # the 429's retry_after was waited out
        proc("log", "reveal", "3")
        wait_for(lambda: len(Webhook.posts) >= 3)
        assert Webhook.posts[2][1].startswith("revealed #3: cypher task -d 2 --dice 12 · ")
        assert Webhook.problems == []
        assert server.get("/")[0] == 200


@pytest.mark.slow
@pytest.mark.process
def test_a_failed_discord_post_is_said_on_the_page_and_on_stderr(tmp_path):
    with webhook() as url, serving("--discord", url + "/missing", tmp=tmp_path) as server:
        proc("roll", "1d6", "--dice", "5", "--log")
        wait_for(lambda: "not posted" in server.stderr())
        assert "rpgdice: warning: Discord: roll #1 was not posted: HTTP 404" in server.stderr()
        wait_for(lambda: b"not posted" in server.get("/")[1])
        assert b"was not posted: HTTP 404" in server.get("/")[1]
        assert server.rolls()[0]["id"] == 1  # the page goes on


def test_discord_in_config_toml_is_read(monkeypatch):
    from rpgdice.cli.serve import discord_url

    home().mkdir(parents=True, exist_ok=True)
    (home() / "config.toml").write_text('[serve]\ndiscord = "https://discord.com/api/webhooks/1/x"\n')
    assert discord_url(None) == "https://discord.com/api/webhooks/1/x"
    assert discord_url("https://example.org/h") == "https://example.org/h"


def test_the_page_shows_the_encounter_and_at_most_a_dozen_results_of_an_entry():
    from rpgdice.serve import views
    from rpgdice.serve.app import encounter_html

    assert encounter_html() == ""
    assert cli("encounter", "start", "Ghoul=2+2", "Thug=2+1", "--seed", "1").exit_code == 0
    html = encounter_html()
    assert "Encounter" in html and "round" in html and "Ghoul" in html and "Thug" in html
    cli("roll", "1d6", "-n", "40", "--seed", "2", "--log")
    entry = last_entry()
    html = views.entry_html(entry)
    assert html.count("Total") == 12 and f"… and 28 more (rpgdice log show {entry['id']})" in html


@pytest.mark.process
def test_a_port_in_use_or_a_host_not_here_is_a_usage_error():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert_usage_error(cli("serve", "--port", str(port)), f"cannot listen on 127.0.0.1:{port}")
    assert_usage_error(cli("serve", "--host", "no-such-host.invalid", "--token", "x" * 16),
                       "--host")


@pytest.mark.slow
@pytest.mark.process
def test_a_locked_log_is_a_notice_and_reads_again_once_free():
    from rpgdice.serve.follow import Reader, Unreadable

    proc("reglas", "roll", "8", "--dice", "3", "--log")  # a process of its own: no connection left
    holder = sqlite3.connect(log_path(), isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE entries SET outcome = outcome")
    reader = Reader(log_path())
    with pytest.raises(Unreadable, match="locked"):
        reader.after(0)
    holder.execute("COMMIT")
    holder.close()
    assert [e["id"] for e in reader.after(0)] == [1]
    reader.close()


def test_the_page_shows_an_entrys_odds_as_log_show_does():
    # The page's views read a stored odds spec as `log show` does (the roll value's
    # ExactOdds), importing nothing of the command line.
    from rpgdice.serve import views

    assert cli("roll", "2d6+1", "--odds", "--seed", "1", "--log").exit_code == 0
    entry = last_entry()
    assert "16.7%" in views.entry_html(entry) and "of exactly" in views.entry_html(entry)
    entry = {**entry, "shown": {**(entry.get("shown") or {}), "odds": None}}
    assert "Total" in views.entry_html(entry) and "16.7%" not in views.entry_html(entry)


@pytest.mark.slow
@pytest.mark.process
def test_rpgdice_serve_shows_an_entrys_odds_lines_on_the_page(tmp_path):
    assert cli("roll", "2d6+1", "--odds", "--seed", "1", "--log").exit_code == 0
    with serving(tmp=tmp_path) as server:
        status, page = server.get("/")
        assert status == 200 and "16.7%" in page.decode()


def test_a_cards_command_never_breaks_a_short_word_at_its_hyphen():
    from rpgdice.serve.views import entry_html

    entry = {"id": 3, "time": "2026-12-03T20:00:00Z", "argv": ["seyruun", "attack", "3+3",
             "--vs", "ghoul1", "--defense", "2+2", "--x" + "-y" * 20], "character": None,
             "seat": None, "ruleset": "seyruun", "command": "attack", "results": [],
             "secret": False}
    html = entry_html(entry)
    assert '<span class="w">--defense</span>' in html and '<span class="w">--vs</span>' in html
    assert "--x-y-y" in html and '<span class="w">--x-y' not in html  # a long one may break
