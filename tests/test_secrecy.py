"""Secret rolls keep ALL their effects secret (CLI.md, "Showing the table"; issues #31
point 4, #32 point 5): until ``log reveal``, neither the page's encounter, nor a later
public roll's card, ``/api/rolls``, ``/events`` or its Discord line shows what an
unrevealed secret roll changed — in every ruleset (Seyruun damage and Willpower, Cypher
Pools, extras' health, Effort and recoveries, Crytures Stamina and Mana). The quick tests
take the effects back in-process (serve/secrecy.py on the log the rolls wrote); the slow
ones read a real server."""

from __future__ import annotations

import json
import re
import sqlite3
import time

import pytest

from conftest import log_path, make_character, ok, proc

# Quick: the take-back, in-process ---------------------------------------------------------


def held():
    from rpgdice.serve import follow, secrecy

    reader = follow.Reader(log_path())
    try:
        return secrecy.read(reader)[0]
    finally:
        reader.close()


def text(html: str) -> str:
    """What a page shows (its style and script left out)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def page_encounter(found) -> str:
    from rpgdice.serve.app import encounter_html

    return text(encounter_html(found))


def ids() -> list[int]:
    return [json.loads(x)["id"] for x in ok("log", "--json", "--last", "100").stdout.splitlines()]


def seen(entry) -> tuple[str, str, dict]:
    """What the table sees of an entry: its card, its Discord line, its JSON."""
    from rpgdice.serve import discord, views
    from rpgdice.table.log import on_the_table

    return text(views.entry_html(entry)), discord.message(entry, False), on_the_table(entry)


def logged(ident: int) -> dict:
    from rpgdice.serve import follow

    reader = follow.Reader(log_path())
    try:
        found = reader.get(ident)
        assert found is not None
        return found
    finally:
        reader.close()


def seyruun_fight() -> None:
    ok("encounter", "start", "Ana=3+2", "Ghoul=4", "--health", "7", "--no-log")


def test_a_later_public_attack_shows_its_target_as_if_the_secret_one_had_not_happened():
    seyruun_fight()
    secret = ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
                "--secret", "--seed", "3")
    assert "+6 damage → 6/7" in secret.stdout
    public = ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
                "--seed", "5", "--log")
    assert "Ghoul: +4 damage → 7/7, crippled (−5)" in public.stdout  # the GM's terminal: the truth
    missed = json.loads(ok("seyruun", "attack", "1", "--defense", "4", "--damage", "4", "--vs",
                           "Ghoul", "--seed", "1", "--log", "--json").stdout)
    assert missed["damage_dealt"] == 0 and missed["vs_wound"] == "crippled"
    first, second, third = ids()
    found = held()
    assert found.diff == {"ghoul": {"damage": -3}}
    assert set(found.entries) == {second, third}
    miss = seen(found.entry(logged(third)))[2]["results"][0]  # a miss says the state too
    assert miss["vs_damage"] == 4 and miss["vs_wound"] == "moderate"
    card, line, data = seen(found.entry(logged(second)))
    assert "Ghoul: +4 damage → 4/7, moderately wounded (−2)" in card
    assert "7/7" not in card and "crippled" not in card and "7/7" not in line
    assert data["results"][0]["vs_damage"] == 4 and data["results"][0]["vs_wound"] == "moderate"
    shown = page_encounter(found)
    assert "4/7" in shown and "moderate" in shown and "7/7" not in shown and "crippled" not in shown
    truth = json.loads(ok("log", "--json").stdout.splitlines()[-1])["results"][0]
    assert truth["vs_damage"] == 7 and truth["vs_wound"] == "crippled"  # the log: the truth
    ok("log", "reveal", str(first))
    after = held()
    assert after.diff == {} and after.entries == {}
    assert "7/7" in page_encounter(after) and "crippled" in page_encounter(after)


def _hurt_ghoul(damage: int) -> None:
    from rpgdice.rulesets.seyruun.rules import wound_for
    from rpgdice.table import encounter

    def hurt(enc) -> None:
        side = enc.extra("Ghoul")
        side.damage, side.wound = damage, wound_for(damage, side.health)

    encounter.update(hurt)


def test_capped_secret_damage_is_taken_back_as_applied_and_an_old_entry_whole():
    seyruun_fight()
    _hurt_ghoul(5)
    dealt = json.loads(ok("seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul", "--seed", "1",
                          "--secret", "--json").stdout)["damage_dealt"]
    assert dealt == 4  # at 5/7: 2 of them applied
    found = held()
    assert found.diff == {"ghoul": {"damage": -2}}
    shown = page_encounter(found)
    assert "5/7" in shown and "severe" in shown and "7/7" not in shown
    # An entry of an older rpgdice (no record of the state it found): taken back whole.
    con = sqlite3.connect(log_path(), isolation_level=None)
    (ident, stored), = con.execute("SELECT id, shown FROM entries WHERE secret = 1").fetchall()
    data = json.loads(stored)
    for envelope in data["envelopes"]:
        envelope.pop("held")
    con.execute("UPDATE entries SET shown = ? WHERE id = ?", (json.dumps(data), ident))
    con.close()
    assert held().diff == {"ghoul": {"damage": -4}}
    assert "3/7" in page_encounter(held())


def test_secret_willpower_paid_is_given_back_and_a_later_public_left_said_again():
    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3, "composure": 3,
                                         "resolve": 2})
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "Ysolde", "--willpower", "--seed", "1",
       "--secret")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "Ysolde", "--willpower", "--seed", "2",
       "--log")
    _, second = ids()
    found = held()
    assert found.diff == {"ysolde": {"willpower": 1}}
    card, _, data = seen(found.entry(logged(second)))
    assert data["results"][0]["left"] == {"willpower": 4} and "4 left" in card
    assert logged(second)["results"][0]["left"] == {"willpower": 3}


def test_a_seyruun_characters_secret_damage_out_and_willpower_are_off_the_page():
    make_character("Ysolde", "seyruun", {"dexterity": 3, "wits": 2, "composure": 3,
                                         "resolve": 2})
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--no-log")
    ok("seyruun", "attack", "6", "--damage", "3", "--vs", "Ysolde", "--defense", "2",
       "--defender-willpower", "--seed", "1", "--secret")  # a miss: 1 Willpower paid
    ok("char", "set", "Ysolde", "willpower=5")  # by hand: never shown above its maximum
    assert "→ 7/7, crippled" in ok("seyruun", "attack", "3+3", "--damage", "4", "--vs", "Ysolde",
                                   "--seed", "3", "--secret").stdout
    (ysolde,) = [s for s in ok("encounter", "--json").json()[0]["order"] if s["name"] == "Ysolde"]
    assert ysolde["out"] is True and ysolde["damage"] == 7  # out on its own
    assert "+3 damage → 7/7" in ok("seyruun", "attack", "3+3", "--damage", "4", "--vs", "Ysolde",
                                   "--seed", "5", "--log").stdout
    found = held()
    assert found.diff == {"ysolde": {"willpower": 1, "damage": -4}}
    shown = page_encounter(found)
    assert "3/7" in shown and "moderate" in shown and "WP 5" in shown
    assert "crippled" not in shown and "out" not in shown and "7/7" not in shown
    card = seen(found.entry(logged(ids()[-1])))[0]
    assert "Ysolde: +3 damage → 3/7, moderately wounded (−2)" in card


def test_a_secret_reroll_leaves_its_entry_not_rerolled_for_the_table():
    from rpgdice.table.log import on_the_table

    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3, "composure": 3,
                                         "resolve": 2})
    ok("seyruun", "roll", "1", "1", "--as", "Ysolde", "--seed", "2", "--log")  # a botch
    (first,) = ids()
    ok("seyruun", "reroll", str(first), "--secret", "--seed", "2")
    found = held()
    assert found.diff == {"ysolde": {"willpower": 1}}
    assert on_the_table(logged(first))["rerolled"] is True  # the log: the truth
    assert on_the_table(found.entry(logged(first)))["rerolled"] is False
    ok("log", "reveal", str(ids()[-1]))
    assert on_the_table(held().entry(logged(first)))["rerolled"] is True


def cypher_fight() -> None:
    make_character("Nix", "cypher", {"might": 10, "speed": 12, "intellect": 8, "armor": 1,
                                     "initiative": 12})
    make_character("Kor", "cypher", {"might": 9, "speed": 10, "intellect": 10, "effort": 2,
                                     "initiative": 3})
    ok("encounter", "start", "Nix", "Kor", "Orc@5", "--health", "6", "--no-log")


def attack(target: str, damage: int, *more: str) -> list[str]:
    return ["cypher", "task", "-d", "1", "--attack", "--damage", str(damage), "--vs", target,
            "--dice", "15", *more]


def test_a_secret_cypher_attack_is_off_a_characters_pools_and_an_extras_health():
    cypher_fight()
    ok(*attack("Nix", 4, "--secret"))  # 3 after armor: Might 7
    assert "now impaired" in ok(*attack("Nix", 8, "--log")).stdout  # Might 0
    ok(*attack("Orc", 4, "--secret"))
    assert "now dead" in ok(*attack("Orc", 4, "--log")).stdout
    _, nix, _, orc = ids()
    found = held()
    assert found.diff == {"nix": {"might": 3}, "orc": {"damage": -2}}
    card, line, data = seen(found.entry(logged(nix)))
    assert "Nix: 7 damage (armor 1; Might 10 → 3), now hale" in card
    assert "impaired" not in card + line and "→ 0" not in card + line
    assert data["results"][0]["vs_state"] == "hale"
    card, line, data = seen(found.entry(logged(orc)))
    assert "Orc: 4 damage (health 6 → 2), now hale" in card
    assert "dead" not in card + line and "→ 0" not in card + line
    assert data["results"][0]["vs_state"] == "hale"
    shown = page_encounter(found)
    assert "M 3/10" in shown and "4/6" in shown
    assert "impaired" not in shown and "dead" not in shown and " out " not in shown
    ok("log", "reveal", str(ids()[0]))
    ok("log", "reveal", str(ids()[2]))
    shown = page_encounter(held())
    assert "M 0/10" in shown and "impaired" in shown and "6/6" in shown and "dead" in shown


def test_secret_cypher_effort_and_recovery_are_held_back():
    cypher_fight()
    effort = ["cypher", "task", "-d", "1", "--effort", "1", "--pool", "speed", "--as", "Kor",
              "--dice", "15"]
    ok(*effort, "--secret")
    ok(*effort, "--log")
    ok("char", "set", "Nix", "might=2")
    ok("cypher", "recover", "--as", "Nix", "--dice", "3", "--secret")  # +4: Might 6
    ok("cypher", "recover", "--as", "Nix", "--dice", "3", "--log")  # +4: Might 10
    _, spend, _, recover = ids()
    found = held()
    assert found.diff == {"kor": {"speed": 3}, "nix": {"might": -4, "recoveries": -1}}
    card, _, data = seen(found.entry(logged(spend)))
    assert data["results"][0]["left"] == {"speed": 7} and "7 left" in card and "4 left" not in card
    card, _, data = seen(found.entry(logged(recover)))
    result = data["results"][0]
    assert result["pools"]["might"] == 6 and result["to"]["might"] == 4
    assert result["recovery"] == "one action" and "Might 6" in card and "ten minutes" not in card
    shown = page_encounter(found)
    assert "S 7/10" in shown and "M 6/10" in shown and "S 4/10" not in shown


def test_a_secret_crytures_spend_is_held_back():
    make_character("Cry", "crytures", {"stamina": 5, "mana": 3})
    ok("crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=2", "--seed", "1", "--secret")
    ok("crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=1", "--seed", "1", "--log")
    _, public = ids()
    found = held()
    assert found.diff == {"cry": {"stamina": 2}}
    card, _, data = seen(found.entry(logged(public)))
    assert data["results"][0]["left"] == {"stamina": 4} and "4 left" in card and "2 left" not in card


def test_a_step_made_again_stays_within_0_and_its_maximum():
    from rpgdice.rulesets import add_within, get

    assert add_within({"damage": 5, "damage-max": 7}, {"damage": 4}) == {"damage": 7,
                                                                         "damage-max": 7}
    assert add_within({"willpower": 1}, {"willpower": -3}) == {"willpower": 0}
    cypher = get("cypher").fight
    assert cypher.redo({"might": 2, "speed": 5, "intellect": 4}, {"hit": 4}) == {
        "might": 0, "speed": 3, "intellect": 4}
    assert cypher.redo({"might": 8, "might-max": 10, "speed": 3, "speed-max": 12},
                       {"recover": 5}) == {"might": 10, "might-max": 10, "speed": 6,
                                           "speed-max": 12}


# Slow: a real server ------------------------------------------------------------------------

SCENARIOS = {
    "seyruun-attack": dict(
        setup=[seyruun_fight],
        secret=["seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
                "--seed", "3"],
        public=["seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
                "--seed", "5"],
        who="the GM", hidden=["7/7", "crippled"], shown=["4/7", "moderate"],
        check=lambda r: (r["vs_damage"], r["vs_wound"]), before=(4, "moderate"),
        after=(7, "crippled")),
    "cypher-attack": dict(
        setup=[cypher_fight],
        secret=attack("Nix", 4), public=attack("Nix", 8),
        who="the GM", hidden=["impaired", "M 0/10"], shown=["M 3/10", "now hale"],
        check=lambda r: r["vs_state"], before="hale", after="impaired"),
    "cypher-spend": dict(
        setup=[cypher_fight],
        secret=["cypher", "task", "-d", "1", "--effort", "1", "--pool", "speed", "--as", "Kor",
                "--dice", "15"],
        public=["cypher", "task", "-d", "1", "--effort", "1", "--pool", "speed", "--as", "Kor",
                "--dice", "15"],
        who="Kor", hidden=["S 4/10", "4 left"], shown=["S 7/10", "7 left"],
        check=lambda r: r["left"], before={"speed": 7}, after={"speed": 4}),
    "cypher-recover": dict(
        setup=[cypher_fight, lambda: ok("char", "set", "Nix", "might=2")],
        secret=["cypher", "recover", "--as", "Nix", "--dice", "3"],
        public=["cypher", "recover", "--as", "Nix", "--dice", "3"],
        who="Nix", hidden=["M 10/10", "Might 10", "ten minutes"],
        shown=["M 6/10", "Might 6", "one action"],
        check=lambda r: (r["pools"]["might"], r["recovery"]), before=(6, "one action"),
        after=(10, "ten minutes")),
    "crytures-spend": dict(
        setup=[lambda: make_character("Cry", "crytures", {"stamina": 5, "mana": 3})],
        secret=["crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=2", "--seed", "1"],
        public=["crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=1", "--seed", "1"],
        who="Cry", hidden=["2 left"], shown=["4 left"],
        check=lambda r: r["left"], before={"stamina": 4}, after={"stamina": 2}),
}


def _until(check, timeout: float = 8):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    return check()


def _events(server, want: int, during=None, after: str | None = None) -> list[dict]:
    from test_serve import events

    got = events(server, want, after=after, during=during)
    return [json.loads(d) for _, name, d in got if name == "message"]


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_real_server_shows_no_trace_of_a_secret_change_until_it_is_revealed(name, tmp_path):
    from test_serve import Webhook, serving, webhook

    case = SCENARIOS[name]
    for step in case["setup"]:
        step()
    with webhook() as url, serving("--discord", url + "/hook", tmp=tmp_path) as server:
        secret = proc(*case["secret"], "--secret")
        assert secret.returncode == 0, secret.stderr
        public = proc(*case["public"], "--log")
        assert public.returncode == 0, public.stderr
        first, second = [e["id"] for e in server.rolls()]

        def page() -> str:
            return text(server.get("/")[1].decode())

        assert _until(lambda: f"roll-{second}" in server.get("/")[1].decode()
                      and all(s in page() for s in case["shown"])), page()
        shown = page()
        assert not [s for s in case["hidden"] if s in shown], shown
        assert "a secret roll" in shown
        api = server.rolls()
        assert case["check"](api[1]["results"][0]) == case["before"]
        assert api[0] == {k: api[0][k] for k in ("id", "time", "character", "seat", "ruleset",
                                                   "command")} | {"secret": True,
                                                                  "blind": False}
        caught_up = _events(server, 2, after="0")
        assert case["check"](caught_up[1]["results"][0]) == case["before"]
        assert not [s for s in case["hidden"] if s in json.dumps(caught_up, ensure_ascii=False)]
        _until(lambda: len(Webhook.posts) >= 2)
        posts = [c for _, c in Webhook.posts]
        assert posts[0] == f"{case['who']}: a secret roll", posts
        assert not [s for s in case["hidden"] if s in posts[1]], posts
        # The truth once revealed: the secret roll and the public one sent again, whole.
        sent = sorted(_events(server, 2, during=lambda: proc("log", "reveal", str(first))),
                      key=lambda e: e["id"])  # the public one may come first: two looks
        assert [e["id"] for e in sent] == [first, second]
        assert case["check"](sent[1]["results"][0]) == case["after"]
        assert _until(lambda: all(s in page() for s in case["hidden"])), page()
        assert case["check"](server.rolls()[1]["results"][0]) == case["after"]
        assert _until(lambda: len(Webhook.posts) >= 3)
        assert Webhook.posts[2][1].startswith(f"revealed #{first}: ")


@pytest.mark.slow
@pytest.mark.process
def test_a_seats_roll_after_a_secret_one_is_answered_as_the_table_sees_it(tmp_path):
    """Its target changed by the secret roll, the seat's attack is held back with it (#45
    item 2): the seat and the page see "held until the GM reveals #N"; the log, the truth."""
    from test_seats import post, seat_token
    from test_serve import serving

    seyruun_fight()
    make_character("Ana", "seyruun", {"dexterity": 3})  # a seat rolls its characters' rulesets
    ok("seat", "add", "ana", "--as", "ana")
    with serving(tmp=tmp_path) as server:
        secret = proc(*SCENARIOS["seyruun-attack"]["secret"], "--secret")
        assert secret.returncode == 0, secret.stderr
        status, body, _ = post(server, {"line": "seyruun attack 3+3 --defense 2 --damage 4 "
                                        "--vs Ghoul"}, seat_token("ana"))
        assert status == 200, body
        first = ids()[0]
        assert body["held"] == f"held until the GM reveals #{first}"
        assert [(r["held"], r["id"], "results" in r) for r in body["rolls"]] == [
            (first, body["id"], False)]  # a hidden roll's keys and held N (CLI.md)
        truth = json.loads(ok("log", "--json").stdout.splitlines()[-1])
        assert truth["id"] == body["id"] and truth["secret"] is True
        assert truth["results"][0]["vs_damage"] == min(7, 6 + (truth["results"][0]["damage_dealt"] or 0))
        assert _until(lambda: "held until the GM reveals" in text(server.get("/")[1].decode()))
        assert [e["secret"] for e in server.rolls()] == [True, True]


def test_discord_gets_a_secret_roll_of_every_ruleset_as_who_rolled_it_alone():
    import queue

    from rpgdice import rulesets
    from rpgdice.serve.app import Table

    make_character("Ysolde", "seyruun", {"dexterity": 3, "stealth": 3})
    make_character("Nix", "cypher", {"might": 10, "speed": 12, "intellect": 8})
    make_character("Cry", "crytures", {"stamina": 5})
    make_character("Thureck", "reglas", {"destreza": 4})
    secret = {"seyruun": (["seyruun", "roll", "dexterity", "stealth", "--as", "Ysolde"], "Ysolde"),
              "cypher": (["cypher", "task", "-d", "2", "--as", "Nix"], "Nix"),
              "crytures": (["crytures", "roll", "3", "--as", "Cry", "--spend", "stamina=1"], "Cry"),
              "reglas": (["reglas", "roll", "destreza", "--as", "Thureck"], "Thureck"),
              "dice": (["roll", "2d6"], "the GM")}
    assert set(secret) == set(rulesets.NAMES)  # every ruleset this rpgdice has
    for words, _ in secret.values():
        ok(*words, "--seed", "1", "--secret")

    class Poster:
        def __init__(self) -> None:
            self.queue: queue.Queue = queue.Queue()
            self.offered: list = []

        def offer(self, entry, revealed=False) -> None:
            self.offered.append(entry["id"])

    poster = Poster()
    table = Table(log_path(), None, poster)
    try:
        for ident in ids():
            table._entry(logged(ident), False)
        posted = [poster.queue.get_nowait()[1] for _ in range(len(secret))]
        assert posted == [f"{who}: a secret roll" for _, who in secret.values()]
        assert poster.offered == []  # nothing of what was rolled
    finally:
        table.secrets.close()


def test_the_page_is_sent_a_public_roll_again_as_each_secret_before_it_is_revealed():
    from rpgdice.serve.app import Table

    ok("encounter", "start", "Ana=3+2", "Ghoul=4", "--health", "20", "--no-log")
    hit = ["seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul", "--seed", "1"]  # 4 a hit
    ok(*hit, "--secret")
    ok(*hit, "--secret")
    assert "→ 12/20" in ok(*hit, "--log").stdout
    first, second, public = ids()
    table = Table(log_path(), None)
    try:
        for ident in ids():
            table._entry(logged(ident), False)

        def card() -> str:
            return text(table.hub.recent[public])

        assert "Ghoul: +4 damage → 4/20" in card()
        ok("log", "reveal", str(second))
        table._tick()
        assert "Ghoul: +4 damage → 8/20" in card()
        assert "8/20" in text(table.hub.encounter)
        ok("log", "reveal", str(first))
        table._tick()
        assert "Ghoul: +4 damage → 12/20" in card() and not table.restated
    finally:
        table.secrets.close()


def test_an_encounter_change_logged_after_a_secret_hit_shows_the_state_the_table_saw():
    seyruun_fight()
    ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "Ghoul",
       "--secret", "--seed", "3")  # 6 damage: 6/7
    ok("encounter", "next", "--log")
    change = ids()[-1]
    found = held()
    _, _, data = seen(found.entry(logged(change)))
    ghoul = next(s for s in data["results"][0]["encounter"]["order"] if s["name"] == "Ghoul")
    assert ghoul["damage"] == 0 and ghoul["wound"] != "severe"
    truth = json.loads(ok("log", "--json").stdout.splitlines()[-1])["results"][0]["encounter"]
    assert next(s for s in truth["order"] if s["name"] == "Ghoul")["damage"] == 6


def test_a_change_by_hand_between_rolls_counts_on_top_of_what_the_table_saw():
    make_character("A", "seyruun", dexterity=3, brawl=3, composure=3, resolve=3, wits=2)
    ok("encounter", "start", "A", "Orc=2", "--seed", "1", "--no-log")
    ok("seyruun", "roll", "dexterity", "brawl", "--willpower", "--as", "A", "--secret",
       "--seed", "1")  # a secret that touches A, left unrevealed
    ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "4", "--vs", "A", "--dice",
       "8,8,8,1,1,1,1,1,8,8,8,8,8", "--log")  # 5 damage, public
    ok("char", "set", "A", "damage-=5")
    public = ok("seyruun", "attack", "3+3", "--defense", "2", "--damage", "1", "--vs", "A",
                "--dice", "8,8,1,1,1,1,1,1,8", "--log", "--json")
    assert json.loads(public.stdout)["vs_damage"] == 1
    found = held()
    _, _, data = seen(found.entry(logged(ids()[-1])))
    assert data["results"][0]["vs_damage"] == 1 and data["results"][0]["vs_wound"] == "light"
    assert "A" not in {k.upper() for k, v in found.diff.items() if v.get("damage")}


def _copies(ident: int, n: int) -> None:
    """``n`` copies of entry ``ident`` logged after it (as if rolled again and again)."""
    con = sqlite3.connect(log_path())
    columns = [row[1] for row in con.execute("PRAGMA table_info(entries)") if row[1] != "id"]
    named = ", ".join(columns)
    with con:
        for _ in range(n):
            con.execute(f"INSERT INTO entries ({named}) SELECT {named} FROM entries WHERE id = ?",
                        (ident,))
    con.close()


@pytest.mark.slow
def test_an_idle_table_after_a_secret_roll_reads_and_compares_nothing_each_tick(monkeypatch):
    """#45 point 10: one unrevealed secret roll, then many public rolls said again: an idle
    server neither reads the secret rolls again nor compares every entry said again on each
    look at the log — only when the log changed."""
    from rpgdice.serve import app, secrecy
    from rpgdice.serve.app import Table

    ok("encounter", "start", "Ana=3+2", "Ghoul=4", "--health", "20", "--no-log")
    hit = ["seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul", "--seed", "1"]
    ok(*hit, "--secret")
    ok(*hit, "--log")
    secret, public = ids()
    _copies(public, 300)
    table = Table(log_path(), None)
    calls = {"unrevealed": 0, "said": 0}

    def counted(name, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    try:
        found = table.take_back()
        assert len(found.entries) == 301  # every public hit is said again
        for ident, entry in found.entries.items():
            table.restated[ident] = app._said(entry)
        table._tick()
        monkeypatch.setattr(secrecy, "unrevealed", counted("unrevealed", secrecy.unrevealed))
        monkeypatch.setattr(app, "_said", counted("said", app._said))
        for _ in range(20):
            table._tick()
            table.take_back()
        assert calls == {"unrevealed": 0, "said": 0}, calls
        ok(*hit, "--log")  # a new roll: read once, and only the new entry compared
        table._tick()
        assert calls["unrevealed"] <= 2 and calls["said"] == 0, calls
        ok("log", "reveal", str(secret))
        table._tick()
        assert not table.restated and table.take_back().entries == {}
    finally:
        table.secrets.close()


def _cpu(pid: int) -> float:
    """Seconds of CPU the process used so far (user and system)."""
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
@pytest.mark.process
def test_a_real_server_idles_after_one_secret_roll_and_thousands_of_public_ones(tmp_path):
    """#45 point 10, as the attack did it (13,000 rolls; 1,000 here): the server sat at
    100% CPU while idle, comparing every entry it had said again on each look."""
    from test_serve import serving

    ok("encounter", "start", "Ana=3+2", "Ghoul=4", "--health", "20", "--no-log")
    hit = ["seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul", "--seed", "1"]
    ok(*hit, "--secret")
    ok(*hit, "--log")
    public = ids()[-1]
    with serving(tmp=tmp_path) as server:
        _copies(public, 1000)  # rolled while the page follows: each one said again
        pid = server.process.pid
        assert _until(lambda: f'id="roll-{public + 1000}"' in server.get("/")[1].decode(),
                      timeout=60)  # followed them all
        time.sleep(1)
        before = _cpu(pid)
        time.sleep(3)
        idle = _cpu(pid) - before
        assert idle < 0.15, f"{idle:.2f} s of CPU in 3 s idle (it was 0.33 s with 1,000)"
        last = server.rolls(after=public + 999)[-1]
        assert last["id"] == public + 1000


@pytest.mark.slow
def test_what_a_secret_roll_holds_back_costs_a_few_hundred_bytes_a_public_roll():
    """#45 point 10 (memory): one unrevealed secret roll, then thousands of public rolls
    against its target: each public roll said again is kept compressed, what is said again
    alone — not the entry whole (some 19 KB as Python objects: 191 MB at 10,000) — and
    read back as it was said."""
    import tracemalloc

    from rpgdice.serve import secrecy
    from rpgdice.serve.follow import Reader

    ok("encounter", "start", "Ana=3+2", "Ghoul=4", "--health", "20", "--no-log")
    hit = ["seyruun", "attack", "6", "--damage", "3", "--vs", "Ghoul", "--seed", "1"]
    ok(*hit, "--secret")
    ok(*hit, "--log")
    secret, public = ids()
    _copies(public, 1000)
    reader = Reader(log_path())
    entries = reader.after(0, 2000)
    reader.close()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        played = secrecy.TakeBack({secret}).feed(entries)
        held = played.held()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(held.entries) == 1001
    assert kept < 1001 * 1024, kept  # under 1 KiB a public roll said again, the play included
    said = held.entries[public]
    assert said["results"][0]["damage"] != entries[1]["results"][0]["damage"] or \
        said["shown"] != entries[1]["shown"]  # said again: not the entry as logged
    assert held.entry(entries[1])["results"] == said["results"]
