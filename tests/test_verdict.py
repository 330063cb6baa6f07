"""The verdict as data (CLI.md, "What the table sees"): every roll's JSON carries its
``verdict`` in the rules' words and its ``tone``, decided once per ruleset (its
``verdict.py``), and ``--short``, the page's card, Discord and ``log``'s outcome column say
the same."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import cli, home, log_path

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "rulesets"

CASES = [
    # (argv with given faces, verdict, tone)
    ("crytures roll 3 --dice 4,10,9", "Success", "good"),
    ("crytures roll 3 --dice 1,2,3", "Failure", "bad"),
    ("crytures roll 3 --attack --dice 10,10,9", "Success · 2 critical hits", "good"),
    ("seyruun roll 2 1 --dice 7,3,8", "Success · solid execution", "good"),
    ("seyruun roll 2 1 --dice 10,3,2", "Success · solid execution · critical", "good"),
    ("seyruun roll 2 1 --dice 10,10,2", "Success · heroic performance · heightened critical",
     "good"),
    ("seyruun roll 2 1 --dice 5,3,2", "Failure", "bad"),
    ("seyruun roll 2 1 --dice 1,3,2", "Botch", "dire"),
    ("seyruun contest 1+1 1 --dice 8,2,9", "Attacker wins", "good"),
    ("seyruun extended 2 1 --target 3 --dice 8,9,9", "Success", "good"),
    ("seyruun extended 2 1 --target 3 --dice 1,2,3", "Botch", "dire"),
    ("seyruun team 2 1 --assists 2 --dice 8,2,9,1,1", "Team success", "good"),
    ("seyruun team 2 1 --assists 2 --dice 1,2,3,4,5", "Team botch", "dire"),
    ("seyruun attack 3+2 --dice 8,2,9,9,9", "Hit", "good"),
    ("seyruun attack 3+2 --dice 1,2,3,4,5", "Botch", "dire"),
    ("seyruun initiative Ysolde=2+2 Ghoul=1+1 --dice 8,2,9,3,5,6", "Ysolde first", "neutral"),
    ("reglas roll 8 --dice 1", "Crítico", "good"),
    ("reglas roll 8 --dice 3", "Éxito", "good"),
    ("reglas roll 8 -d 8 --dice 3", "Fallo", "bad"),
    ("reglas roll 8 --dice 10", "Fracaso de grado 2", "dire"),
    ("reglas roll 4 --dice 10", "Fracaso de grado 6", "dire"),
    ("reglas contest 8 5 --dice 3,4", "Gana el atacante", "good"),
    ("reglas contest 8 5 --dice 9,4", "Gana el defensor", "bad"),
    ("reglas team 8 9 --dice 3,4", "Éxito", "good"),
    ("reglas extended 8 --objetivo 5 --dice 10", "Fracaso", "dire"),
    ("reglas retry 8 --dice 2", "Éxito", "good"),
    ("cypher task -d 3 --dice 12", "Success", "good"),
    ("cypher task -d 3 --dice 1", "Failure · GM intrusion", "dire"),
    ("cypher task -d 3 --dice 19", "Success · minor effect", "good"),
    ("cypher task -d 3 --dice 20", "Success · major effect", "good"),
    ("cypher task -d 3 --attack --dice 17", "Success · +1 damage", "good"),
    ("roll 2d6 --dice 3,5", "8", "neutral"),
    ("roll 1d20-30 --dice 3", "−27", "neutral"),
    ("roll 4d10>=6 --dice 1,6,2,7", "2 successes", "good"),
    ("roll 4d10>=6 --dice 1,2,3,4", "0 successes", "bad"),
    ("roll 1d20+5>=15 --dice 12", "Success", "good"),
    ("roll 1d20+5>=15 --dice 2", "Failure", "bad"),
    ("sr5 roll 4 --dice 1,1,1,2", "Critical glitch", "dire"),
    ("sr5 roll 4 --dice 1,1,1,5", "Success with a glitch", "good"),
    ("sr5 roll 4 -d 2 --dice 1,1,1,5", "Glitch", "bad"),
    ("sr5 roll 4 --dice 5,6,2,3", "Success", "good"),
    ("blades roll 2 --dice 6,6", "Critical", "good"),
    ("blades roll 2 --dice 4,2", "Partial success", "good"),
    ("blades roll 2 --dice 1,2", "Bad outcome", "bad"),
]


@pytest.fixture(autouse=True)
def _files() -> None:
    """Two ruleset files of the docs' examples: Shadowrun's dire critical glitch, Blades."""
    folder = home() / "rulesets"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("sr5", "blades"):
        shutil.copy(EXAMPLES / f"{name}.toml", folder / f"{name}.toml")


def _argv(line: str) -> list[str]:
    return line.split(" ")


@pytest.mark.parametrize(("line", "verdict", "tone"), CASES, ids=[c[0] for c in CASES])
def test_every_roll_says_its_verdict_and_tone_in_json_and_short(line, verdict, tone):
    run = cli(*_argv(line), "--json", "--no-log")
    assert run.exit_code == 0, run.stderr
    (data,) = run.json()
    assert (data["verdict"], data["tone"]) == (verdict, tone)
    run = cli(*_argv(line), "--short", "--no-log")
    assert run.exit_code == 0, run.stderr
    (short,) = run.stdout.splitlines()
    # the short line's verdict part is the verdict (a roll type's count of rolls after it)
    said = re.sub(r" \(\d+ (rolls|tiradas)\)$", "", short)
    assert said.endswith(f" · {verdict}") or said.endswith(f" → {verdict}"), short


def test_a_roll_types_rolls_carry_no_verdict_of_their_own():
    (data,) = cli("seyruun", "contest", "1+1", "1", "--dice", "8,2,9", "--json", "--no-log").json()
    assert data["verdict"] == "Attacker wins"
    assert all("verdict" not in r and "tone" not in r for r in data["rolls"])


def test_odds_carry_no_verdict():
    (data,) = cli("cypher", "odds", "-d", "3", "--json").json()
    assert "verdict" not in data and "tone" not in data


def test_a_repeated_roll_gives_each_its_verdict():
    rows = cli("cypher", "task", "-d", "2", "--dice", "1,20,7", "-n", "3", "--json", "--no-log").json()
    assert [r["verdict"] for r in rows] == ["Failure · GM intrusion", "Success · major effect",
                                            "Success"]
    lines = cli("cypher", "task", "-d", "2", "--dice", "1,20,7", "-n", "3", "--short",
                "--no-log").stdout.splitlines()
    assert [x.rsplit(" · ", 1)[-1] for x in lines] == ["GM intrusion", "major effect", "Success"]


def _logged(*lines: str) -> list[dict]:
    for line in lines:
        run = cli(*_argv(line), "--log")
        assert run.exit_code == 0, run.stderr
    return cli("log", "--json", "--last", "100").json()


def test_the_log_card_and_discord_say_the_verdict():
    from rpgdice.serve import discord, views

    entries = _logged("cypher task -d 3 --dice 1", "reglas roll 4 --dice 10", "roll 2d6 --dice 3,5",
                      "sr5 roll 4 --dice 1,1,1,2")
    said = [(e["results"][0]["verdict"], e["results"][0]["tone"]) for e in entries]
    assert said == [("Failure · GM intrusion", "dire"), ("Fracaso de grado 6", "dire"),
                    ("8", "neutral"), ("Critical glitch", "dire")]
    table = cli("log", env={"COLUMNS": "200"}).stdout
    for verdict, _ in said:
        assert verdict in table
    for e, (verdict, tone) in zip(entries, said):
        card = views._card(e)
        assert f'<strong class="verdict {tone}">{verdict}</strong>' in card, card
        assert discord.message(e, revealed=False).endswith(
            f" · {verdict}" if verdict != "8" else "3 5 → 8")
    # an ordinary roll's headline is its total: the dice before it by term (issue 41)
    assert ('<span class="term"><span class="expr">2d6</span><span class="die">3</span>'
            '<span class="die">5</span><span class="sum">= 8</span></span>') in views._card(entries[2])


def test_an_older_entry_without_a_verdict_gets_it_from_its_rebuilt_result():
    _logged("cypher task -d 3 --dice 20", "seyruun attack 3+2 --dice 1,2,3,4,5",
            "roll 1d20+5>=15 --dice 12", "reglas contest 8 5 --dice 9,4")
    con = sqlite3.connect(log_path())
    for ident, results in con.execute("SELECT id, results FROM entries").fetchall():
        stored = [{k: v for k, v in r.items() if k not in ("verdict", "tone")}
                  for r in json.loads(results)]
        con.execute("UPDATE entries SET results = ?, kinds = NULL WHERE id = ?",
                    (json.dumps(stored), ident))
    con.commit()
    con.close()
    entries = cli("log", "--json", "--last", "100").json()
    assert all("verdict" not in e["results"][0] for e in entries)
    table = cli("log", env={"COLUMNS": "200"}).stdout
    from rpgdice.serve import views

    for e, verdict in zip(entries, ["Success · major effect", "Botch", "Success",
                                    "Gana el defensor"]):
        assert verdict in table
        assert f">{verdict}</strong>" in views._card(e)


def test_the_rulesets_record_names_its_verdict():
    from rpgdice import rulesets

    for name in rulesets.names():  # every folder's and the ruleset files' (sr5, blades)
        assert rulesets.get(name).verdict is not None, name


def test_a_seats_answer_carries_the_verdict():
    from rpgdice.cli.seated import roll_line

    answer = roll_line("cypher task -d 3 --dice 1", None, gm=True)
    assert answer.status == 200, answer.body
    (rolled,) = answer.body["rolls"]
    assert (rolled["verdict"], rolled["tone"]) == ("Failure · GM intrusion", "dire")
    # the panel prints the answer's verdict
    from rpgdice.serve import page

    assert "r.verdict" in page.PANEL_SCRIPT
