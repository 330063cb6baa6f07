"""Independent review (review1): cases worked by hand against RULES.md and CLI.md
where the code disagreed. Each test names the rule it checks."""

from __future__ import annotations

from conftest import cli


def test_as_reads_an_en_dash_as_a_minus_like_every_pool_argument():
    # README "Numbers": the minus sign may be typed as -, − or an en dash –; a pool
    # without --as takes 3–1, so the same pool by trait name takes dexterity–1.
    assert cli("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3",
               "stealth=3").exit_code == 0
    plain = cli("seyruun", "roll", "3\u20131", "3", "--dice", "1,1,1,1,1", "--json").json()[0]
    for minus in ("-", "\u2212", "\u2013"):
        run = cli("seyruun", "roll", f"dexterity{minus}1", "stealth", "--as", "ysolde",
                  "--dice", "1,1,1,1,1", "--json")
        assert run.exit_code == 0, (minus, run.stderr)
        r = run.json()[0]
        assert r["pool_total"] == plain["pool_total"] == 3 - 1 + 3 - 0


def _hand_sheet(key: str, text: str):
    import os
    from pathlib import Path

    path = Path(os.environ["RPGDICE_HOME"]) / "characters" / f"{key}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_hand_edited_skill_level_matches_like_a_named_level():
    # CLI.md "Your table": skills are SKILL=trained|specialized|inability, and names
    # match ignoring case; a sheet that passes its own check ("Trained") must roll as
    # the same skill `char set cy climbing=Trained` would have saved.
    path = _hand_sheet("cy", 'name = "Cy"\nruleset = "cypher"\n[traits]\nmight = 3\n'
                             'climbing = "Trained"\nlore = "INABILITY"\n')
    before = path.read_bytes()
    by_hand = cli("cypher", "task", "-d", "3", "--skill", "climbing", "--as", "cy",
                  "--dice", "10", "--json")
    assert by_hand.exit_code == 0, by_hand.stderr
    assert by_hand.json()[0]["effective_difficulty"] == 3 - 1
    hindered = cli("cypher", "task", "-d", "3", "--skill", "lore", "--as", "cy",
                   "--dice", "10", "--json").json()[0]
    assert hindered["effective_difficulty"] == 3 + 1
    assert path.read_bytes() == before  # read, never rewritten


def test_a_hand_edited_number_in_quotes_is_the_number_its_check_accepted():
    # The sheet's check accepts stealth = "2" (char show shows it); rolling with it then
    # must not say it is "not a number".
    _hand_sheet("hand", 'name = "Hand"\nruleset = "seyruun"\n[traits]\ndexterity = 3\n'
                        'stealth = "2"\nwound = "Light"\n')
    shown = cli("char", "show", "hand", "--json").json()[0]
    assert shown["traits"]["stealth"] == 2 and shown["traits"]["wound"] == "light"
    run = cli("seyruun", "roll", "dexterity", "stealth", "--as", "hand",
              "--dice", "1,1,1,1", "--json")
    assert run.exit_code == 0, run.stderr
    r = run.json()[0]
    assert (r["attribute"], r["skill"], r["penalty"], r["pool"]) == (3, 2, 1, 3 + 2 - 1)


def test_a_name_typed_with_a_combining_accent_is_letters():
    # CLI.md: a NAME is letters, digits, spaces, - and _; "José" typed decomposed
    # (e + U+0301, as macOS may hand it over) is the same letters as "José" precomposed,
    # and names match ignoring accents.
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    run = cli("char", "new", decomposed, "--ruleset", "reglas", "punteri\u0301a=3")
    assert run.exit_code == 0, run.stderr
    shown = cli("char", "show", composed, "--json").json()[0]
    assert shown["name"] == composed and shown["traits"] == {"punteria": 3}
    r = cli("reglas", "roll", "puntería", "--as", "jose", "--dice", "1", "--json").json()[0]
    assert r["index"] == 3 and r["character"] == composed
    taken = cli("char", "new", composed, "--ruleset", "reglas")
    assert taken.exit_code == 2 and "taken" in taken.stderr


def test_crytures_odds_with_huge_critical_hits_are_refused_at_once_not_left_to_run():
    # CLI.md "Errors": a command's work is bounded by a budget the README states, and a
    # command over it is refused at once (exit 2), naming the budget. 1000 dice whose
    # critical hits add 1000 successes each have ~500000 distinct totals: hours of
    # exact arithmetic. (A subprocess with a timeout, so a regression fails, not hangs.)
    from conftest import assert_usage_error, proc

    for args in (["crytures", "odds", "1000", "--attack", "--crit-hits", "1000"],
                 ["crytures", "roll", "1000", "--attack", "--crit-hits", "1000", "--odds",
                  "--seed", "1"]):
        assert_usage_error(proc(*args, timeout=60), "--crit-hits", "budget")


def test_the_largest_ordinary_crytures_odds_stay_within_the_budget():
    # The budget refuses only what the README says takes too long: a 1000-die pool, an
    # attack whose critical hits add the default 1 success, is allowed.
    from rpgdice.rulesets.crytures import odds as cry_odds
    from rpgdice.rulesets.crytures import rules as crytures

    for spec in (crytures.CryturesRoll(base_pool=1000),
                 crytures.CryturesRoll(base_pool=1000, attack=True),
                 crytures.CryturesRoll(base_pool=1000, attack=True, crit_hits=3),
                 crytures.CryturesRoll(base_pool=100, attack=True, crit_hits=1000)):
        assert cry_odds.crytures_work(spec) <= cry_odds.CRYTURES_MAX_WORK, spec
    huge = crytures.CryturesRoll(base_pool=1000, attack=True, crit_hits=1000)
    assert cry_odds.crytures_work(huge) > cry_odds.CRYTURES_MAX_WORK


def test_log_stats_leaves_out_a_logged_roll_whose_odds_are_over_the_budget():
    # `log stats` weighs each logged roll against its exact odds; a roll whose odds are
    # refused (over the budget) is left out, like one that no longer parses, and the
    # other rolls are still judged.
    from conftest import proc

    env = {"RPGDICE_LOG": "never"}
    for args in (["crytures", "roll", "1000", "--attack", "--crit-hits", "1000"],
                 ["crytures", "roll", "3"]):
        assert proc(*args, "--seed", "1", "--log", "--json", env=env).returncode == 0
    run = proc("log", "stats", "--json", env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    import json

    (stats,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert stats["ruleset"] == "crytures" and stats["rolls"] == 1 and stats["left_out"] == 1
