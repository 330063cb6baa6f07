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
