"""A seat's own secret rolls (issue #41; CLI.md, "Roll modes"; docs/serve.md): the seat's
page, its ``/events`` (live and caught up with Last-Event-ID) and ``/api/rolls`` show its own
``--secret`` rolls whole, marked secret, and its sheet what they changed; another seat and
the TV see "a secret roll" and the state as the table saw it; a ``--blind`` roll stays
hidden from its own seat; ``log reveal`` shows it to everyone."""

from __future__ import annotations

import json
import re

import pytest

from conftest import make_character, ok

MARK = "secret: you and the GM see it"


def text(html: str) -> str:
    """What a page shows (its style and script left out)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def card(page: str, ident: int) -> str:
    """The card of entry ``ident`` in a page's HTML."""
    found = re.search(rf'<article class="roll[^"]*" id="roll-{ident}".*?</article>', page,
                      flags=re.S)
    assert found, page[-2000:]
    return found.group(0)


def two_seats() -> tuple[str, str]:
    """Ysolde (Willpower 5) seated as ana, Bren as bo, both in the encounter; their
    tokens."""
    from rpgdice.table import seats

    traits = {"dexterity": 3, "stealth": 3, "wits": 2, "composure": 3, "resolve": 2,
              "willpower": 5}
    make_character("Ysolde", "seyruun", traits)
    make_character("Bren", "seyruun", traits)
    ok("seat", "add", "ana", "--as", "ysolde")
    ok("seat", "add", "bo", "--as", "bren")
    ok("encounter", "start", "Ysolde", "Bren", "--no-log")
    return seats.find("ana").token, seats.find("bo").token


def feed(server, token: str | None, want: int, after: str | None = None, during=None
         ) -> tuple[list[dict], list[str]]:
    """``/events`` of the seat whose token is ``token`` (None: the TV) until ``want`` cards
    came (each entry's ``view`` event follows its data): the data, the cards."""
    import threading
    import time
    import urllib.request

    headers = {} if after is None else {"Last-Event-ID": after}
    query = "" if token is None else f"?seat={token}"
    request = urllib.request.Request(server.base + "/events" + query, headers=headers)
    data: list[dict] = []
    views: list[str] = []
    deadline = time.monotonic() + 10
    with urllib.request.urlopen(request, timeout=10) as stream:
        if during is not None:
            threading.Thread(target=during, daemon=True).start()
        name = "message"
        while time.monotonic() < deadline and len(views) < want:
            line = stream.readline().decode()
            if not line:
                break
            if line.startswith("event: "):
                name = line[7:].strip()
            elif line.startswith("data: ") and name == "message":
                data.append(json.loads(line[6:]))
            elif line.startswith("data: ") and name == "view":
                views.append(json.loads(line[6:])["html"])
            elif line == "\n":
                name = "message"
    return data, views


def willpower(sheet: dict) -> int:
    return {r["name"]: r["value"] for r in sheet["resources"]}["willpower"]


# The hub: a seat's streams get their own secret entries whole, every other one as the table

def test_the_hub_hands_a_seats_own_secret_entry_to_its_streams_alone():
    from rpgdice.serve import own
    from rpgdice.serve.hub import Hub

    hub = Hub(10)
    ana, bo, tv = hub.subscribe("t-ana", owner="ana"), hub.subscribe("t-bo", owner="bo"), \
        hub.subscribe()
    assert ana is not None and bo is not None and tv is not None
    entry = {"id": 1, "time": "2026-01-01T00:00:00", "argv": ["roll", "1d6"], "character": None,
             "seat": "Ana", "ruleset": "dice", "command": "roll", "seed": 1, "faces": [6],
             "count": 1, "outcome": None, "rerolled_at": None, "rerolled_by": None,
             "secret": True, "blind": False, "revealed_at": None, "shown": None,
             "results": [{"expression": "1d6", "total": 4, "rolls": [4]}]}
    hub.entries([(entry, False, entry)])
    mine, theirs, shown = ana.get_nowait()[2], bo.get_nowait()[2], tv.get_nowait()[2]
    assert theirs == shown and "a secret roll" in shown and '"results"' not in shown
    assert '"results"' in mine and MARK in mine and "a secret roll" not in mine
    assert MARK in hub.seat_rolls("ANA")[0] and "a secret roll" in hub.seat_rolls("bo")[0]
    assert list(hub.recent.values()) == hub.seat_rolls("bo")
    blind = {**entry, "id": 2, "blind": True}
    held = {**entry, "id": 3, "shown": {"odds": None, "envelopes": [], "held_until": 1}}
    hub.entries([(blind, False, blind), (held, False, held)])
    assert own.owner(blind) is None and own.owner(held) is None
    assert [ana.get_nowait()[2] for _ in range(2)] == [bo.get_nowait()[2] for _ in range(2)]
    hub.entries([({**entry, "secret": False}, True, None)])  # revealed: the same for all
    for _ in range(2):
        tv.get_nowait()
    assert ana.get_nowait()[2] == bo.get_nowait()[2] == tv.get_nowait()[2]
    assert "a secret roll" not in hub.seat_rolls("bo")[0] and MARK not in hub.seat_rolls("ana")[0]


# A real server, two seats -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.process
def test_a_seat_sees_its_own_secret_roll_whole_and_its_spend_others_do_not(tmp_path):
    from test_gm_screen import call
    from test_serve import serving, wait_for

    ana, bo = two_seats()
    with serving(tmp=tmp_path) as server:
        line = "seyruun roll dexterity stealth --willpower --secret"
        (live,), (view,) = feed(server, ana, 1, during=lambda: call(
            server, "/api/roll", ana, {"line": line}))
        assert live["id"] == 1 and live["secret"] is True and live["results"], live
        assert MARK in view and "a secret roll" not in view
        whole = call(server, "/api/rolls", ana)[1]
        assert whole[0]["results"] == live["results"] and whole[0]["secret"] is True
        hidden = call(server, "/api/rolls", bo)[1]
        assert "results" not in hidden[0] and hidden == call(server, "/api/rolls", None)[1]
        (caught,), (again,) = feed(server, ana, 1, after="0")  # caught up from the log
        assert caught == live and again == view
        for token in (bo, None):
            (theirs,), (shown,) = feed(server, token, 1, after="0")
            assert "results" not in theirs and "a secret roll" in shown and MARK not in shown
        wait_for(lambda: b"roll-1" in server.get("/")[1], timeout=5)
        mine = server.get(f"/?seat={ana}")[1].decode()
        assert MARK in card(mine, 1) and "a secret roll" not in text(card(mine, 1))
        for page in (server.get(f"/?seat={bo}")[1].decode(), server.get("/")[1].decode()):
            assert "a secret roll" in text(card(page, 1)) and MARK not in page
            assert "WP 5" in text(page) and "WP 4" not in text(page)  # the encounter
        sheet = call(server, "/api/panel", ana)[1]["characters"][0]["sheet"]
        assert willpower(sheet) == 4  # its own spend, at once
        assert "WP 4" not in text(mine)  # the encounter stays as the table saw it
        # A blind roll stays hidden from its own seat
        assert call(server, "/api/roll", ana, {"line": "seyruun roll wits composure "
                                                      "--blind"})[0] == 200
        wait_for(lambda: b"roll-2" in server.get("/")[1], timeout=5)
        assert "results" not in call(server, "/api/rolls", ana)[1][1]
        assert "a secret roll" in text(card(server.get(f"/?seat={ana}")[1].decode(), 2))
        caught_up, cards = feed(server, ana, 2, after="0")
        assert "results" in caught_up[0] and "results" not in caught_up[1], caught_up
        assert MARK in cards[0] and "a secret roll" in cards[1] and MARK not in cards[1]
        # Revealed: everyone sees both whole, and the spend
        ok("log", "reveal", "1")
        ok("log", "reveal", "2")
        for token in (bo, None):
            assert all(e["results"] for e in call(server, "/api/rolls", token)[1])
        wait_for(lambda: "a secret roll" not in text(server.get(f"/?seat={bo}")[1].decode()),
                 timeout=5)
        assert "a secret roll" not in text(server.get("/")[1].decode())
        assert MARK not in server.get(f"/?seat={ana}")[1].decode()
        wait_for(lambda: "WP 4" in text(server.get("/")[1].decode()), timeout=5)
        assert willpower(call(server, "/api/panel", ana)[1]["characters"][0]["sheet"]) == 4


# The sheet, in-process: another seat's secret spend stays hidden, its own shows

def test_a_seats_sheet_shows_its_own_secret_spend_not_another_seats():
    from rpgdice.table import seats
    from test_seat_secrets import asgi, table

    ana, bo = two_seats()
    ok("seat", "add", "cy", "--as", "ysolde")  # a second seat playing Ysolde
    cy = seats.find("cy").token
    line = "seyruun roll dexterity stealth --willpower --secret"
    assert asgi("/api/roll", ana, line)[0] == 200
    assert willpower(asgi("/api/panel", ana)[1]["characters"][0]["sheet"]) == 4
    assert willpower(asgi("/api/panel", cy)[1]["characters"][0]["sheet"]) == 5
    status, said = asgi("/api/roll", cy, line)  # the truth: 3 left
    assert status == 200 and said["rolls"][0]["left"] == {"willpower": 4}, said  # as cy saw it
    assert said["shown"]["envelopes"][0]["table"]["left"] == {"willpower": 4}
    assert willpower(asgi("/api/panel", cy)[1]["characters"][0]["sheet"]) == 4  # its own
    assert willpower(asgi("/api/panel", ana)[1]["characters"][0]["sheet"]) == 4  # its own
    assert willpower(asgi("/api/panel", bo)[1]["characters"][0]["sheet"]) == 5
    mine, theirs = asgi("/api/rolls", cy)[1], asgi("/api/rolls", ana)[1]
    assert mine[1]["results"][0]["left"] == {"willpower": 4} and "results" not in mine[0]
    assert theirs[0]["results"][0]["left"] == {"willpower": 4} and "results" not in theirs[1]
    served = table()  # its streams: cy's own card said from the state cy saw, never 3 left
    try:
        queue = served.hub.subscribe("t", owner="cy")
        assert queue is not None
        served._entries([(served.secrets.get(2), False)])
        sent = queue.get_nowait()[2]
        assert '"left": {"willpower": 4}' in sent and '"willpower": 3' not in sent, sent
        assert MARK in served.hub.seat_rolls("cy")[0]
        assert "a secret roll" in served.hub.seat_rolls("ana")[0]
    finally:
        served.close()


@pytest.mark.slow
@pytest.mark.process
def test_a_seats_phone_shows_its_own_secret_roll_as_it_comes(tmp_path):
    """In a headless Chromium at 390×844: the card of ana's secret roll comes over
    ana's ``/events`` whole and marked; the card on bo's page stays "a secret roll"."""
    from test_gm_screen import call
    from test_seats_browser import _driver
    from test_serve import serving
    from test_serve_browser import _wait

    ana, bo = two_seats()
    driver = _driver(390, 844)
    try:
        with serving(tmp=tmp_path) as server:
            driver.get(f"{server.base}/?seat={ana}")
            _wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
            assert call(server, "/api/roll", ana, {"line": "seyruun roll dexterity stealth "
                                                          "--willpower --secret"})[0] == 200
            shown = _wait(driver, lambda d: d.find_element("id", "roll-1").text)
            assert MARK in shown and "a secret roll" not in shown, shown
            driver.get(f"{server.base}/?seat={bo}")
            theirs = _wait(driver, lambda d: d.find_element("id", "roll-1").text)
            assert "a secret roll" in theirs and MARK not in theirs, theirs
    finally:
        driver.quit()
