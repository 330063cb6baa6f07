"""Issue 20: exact odds of every roll type (Seyruun contest, extended, team; Reglas multi,
contest, team, extended, retry), each checked against an independent computation — every
sequence of faces enumerated and rolled by the rules' own roll functions, or a seeded
simulation with a stated tolerance — and `--compare`, whose alternatives equal each
alternative run alone."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from conftest import assert_usage_error, cli, cli_json, make_character
from rpgdice.rulesets.reglas import odds as reglas_odds
from rpgdice.rulesets.reglas import rules as reglas
from rpgdice.rulesets.seyruun import odds as seyruun_odds
from rpgdice.rulesets.seyruun import rules as seyruun


class _More(Exception):
    """The roll wants a die past the faces given so far."""


class _Prefix:
    """A dice source that deals the faces of one sequence and asks for more past its end."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.used = faces, 0

    def roll(self, sides: int, count: int = 1) -> list[int]:
        if self.used + count > len(self.faces):
            raise _More
        out = self.faces[self.used:self.used + count]
        self.used += count
        return out


def enumerate_rolls(roll, sides: int = 10) -> dict[object, Fraction]:
    """Every way ``roll(source)`` can go, each sequence of faces extended die by die only
    as far as the roll reads it, with its exact chance: ``{result: probability}``."""
    out: dict[object, Fraction] = {}
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            result = roll(_Prefix(faces))
        except _More:
            stack.extend(faces + [f] for f in range(1, sides + 1))
            continue
        out[result] = out.get(result, Fraction(0)) + Fraction(1, sides ** len(faces))
    return out


def _by(results: dict[object, Fraction], key) -> dict[object, Fraction]:
    out: dict[object, Fraction] = {}
    for r, p in results.items():
        out[key(r)] = out.get(key(r), Fraction(0)) + p
    return out


def _outcomes(results):
    return _by(results, lambda r: r.outcome)


def _nonzero(d):
    return {k: v for k, v in d.items() if v}


# Seyruun ---------------------------------------------------------------------------------


@pytest.mark.parametrize("a, d", [((1, 1), (1, 1)), ((2, 1), (1, 0)), ((1, 0), (2, 1))])
@pytest.mark.slow
def test_seyruun_contest_against_every_pair_of_rolls(a, d):
    spec = seyruun.SeyruunContest(attacker=seyruun.SeyruunPool(attribute=a[0], skill=a[1]),
                                  defender=seyruun.SeyruunPool(attribute=d[0], skill=d[1]))
    odds = seyruun_odds.seyruun_contest_odds(spec)
    seen = enumerate_rolls(lambda s: _key(seyruun.roll_contest(spec, s)))
    assert odds.winner == {"attacker": sum((p for k, p in seen.items() if k[0] == "attacker"), Fraction(0)),
                           "defender": sum((p for k, p in seen.items() if k[0] == "defender"), Fraction(0))}
    assert _nonzero(odds.margin) == _nonzero(_by(seen, lambda k: k[1]))
    assert odds.outcomes["success"] == odds.winner["attacker"]


def _key(r):
    return (r.winner, r.margin)


@pytest.mark.parametrize("target, max_rolls", [(1, 3), (2, 4), (4, 3)])
@pytest.mark.slow
def test_seyruun_extended_against_every_sequence(target, max_rolls):
    pool = seyruun.SeyruunPool(attribute=1, skill=0, attributes_only=True)  # one die
    spec = seyruun.SeyruunExtended(pool=pool, target=target, max_rolls=max_rolls)
    odds = seyruun_odds.seyruun_extended_odds(spec)
    seen = enumerate_rolls(lambda s: _ended(seyruun.roll_extended(spec, s)))
    assert _nonzero(odds.outcomes) == _nonzero(_by(seen, lambda k: k[0]))
    reached = {k: _by(seen, lambda e: e[1] if e[0] == "success" else None).get(k, Fraction(0))
               for k in range(1, max_rolls + 1)}
    assert _nonzero(odds.rolls_needed) == _nonzero(reached)
    assert odds.within[max(odds.within)] == odds.outcomes["success"]
    assert odds.expected_rolls == sum((p * k[1] for k, p in seen.items()), Fraction(0))


@pytest.mark.slow
def test_seyruun_extended_paced_willpower_against_every_sequence():
    """--willpower --as: the sheet pays the +3 dice of the first roll only (enumerated), and
    paying none or every roll is the plain pool's or the Willpower pool's odds exactly."""
    pool = seyruun.SeyruunPool(attribute=1, skill=0, attributes_only=True, willpower=True)
    spec = seyruun.SeyruunExtended(pool=pool, target=3, max_rolls=2, willpower_budget=1)
    odds = seyruun_odds.seyruun_extended_odds(spec)
    assert odds.willpower_rolls == 1
    seen = enumerate_rolls(lambda s: _ended(seyruun.roll_extended(spec, s)))
    assert _nonzero(odds.outcomes) == _nonzero(_by(seen, lambda k: k[0]))
    reached = {k: _by(seen, lambda e: e[1] if e[0] == "success" else None).get(k, Fraction(0))
               for k in range(1, 3)}
    assert _nonzero(odds.rolls_needed) == _nonzero(reached)
    assert odds.expected_rolls == sum((p * k[1] for k, p in seen.items()), Fraction(0))
    plain = replace(pool, willpower=False)
    for budget, same in ((0, plain), (5, pool)):
        paced = seyruun_odds.seyruun_extended_odds(replace(spec, max_rolls=5, willpower_budget=budget))
        alone = seyruun_odds.seyruun_extended_odds(seyruun.SeyruunExtended(same, 3, 5))
        assert (paced.outcomes, paced.within, paced.expected_rolls) == (
            alone.outcomes, alone.within, alone.expected_rolls)


def test_extended_odds_with_as_follow_the_sheets_willpower():
    make_character("Ysolde", "seyruun", wits=3, occult=2, composure=1, resolve=1, willpower=1)
    args = ("extended", "wits", "occult", "--target", "8", "--max-rolls", "6", "--willpower")
    (paced,) = cli_json("seyruun", "odds", *args, "--as", "ysolde")
    (every,) = cli_json("seyruun", "odds", "extended", "3", "2", *args[3:])
    (plain,) = cli_json("seyruun", "odds", *args[:-1], "--as", "ysolde")
    assert paced["willpower_rolls"] == 1 and every["willpower_rolls"] is None
    assert plain["outcomes"]["success"] < paced["outcomes"]["success"] < every["outcomes"]["success"]
    assert paced["within"]["1"] == every["within"]["1"]
    run = cli("seyruun", "odds", *args, "--as", "ysolde", env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert "Willpower pays the +3 dice of the first roll only" in run.stdout


def _ended(r):
    return (r.outcome, len(r.rolls))


@pytest.mark.slow
def test_seyruun_extended_of_a_big_pool_against_a_simulation():
    pool = seyruun.SeyruunPool(attribute=3, skill=2)
    spec = seyruun.SeyruunExtended(pool=pool, target=8, max_rolls=4)
    odds = seyruun_odds.seyruun_extended_odds(spec)
    from rpgdice.core.dice import SeededDice

    source, n = SeededDice(20261202), 20000
    wins = sum(seyruun.roll_extended(spec, source).outcome == "success" for _ in range(n))
    p = float(odds.outcomes["success"])
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(wins / n - p) < 5 * sigma  # 5 standard errors: fails about once in 3 million


def test_seyruun_team_is_one_roll_of_the_leaders_pool_with_the_assists():
    team = cli_json("seyruun", "odds", "team", "3", "2", "--assists", "2")[0]
    alone = cli_json("seyruun", "odds", "3", "2", "--bonus", "2")[0]
    assert team["outcomes"] == alone["outcomes"]
    assert team["total"] == {k: v for k, v in alone["successes"].items()}


# Reglas ----------------------------------------------------------------------------------


def _r(index, difficulty=0):
    return reglas.ReglasRoll(index=index, difficulty=difficulty)


def test_reglas_multi_against_every_roll():
    spec = reglas.ReglasMulti(actions=3, spec=_r(12, 2))
    odds = reglas_odds.reglas_multi_odds(spec)
    seen = enumerate_rolls(lambda s: reglas.roll_multi(spec, s).outcome)
    assert _nonzero(odds.outcomes) == _nonzero(seen)
    assert odds.all_succeed == seen.get("success", 0)
    assert [e.index for e in odds.each] == [9, 7, 5]


@pytest.mark.parametrize("a, d, difficulty", [(9, 5, 2), (5, 9, 0), (6, 6, 4)])
def test_reglas_contest_against_every_pair(a, d, difficulty):
    spec = reglas.ReglasContest(attacker=_r(a, difficulty), defender=_r(d))
    odds = reglas_odds.reglas_contest_odds(spec)
    seen = enumerate_rolls(lambda s: (lambda r: (r.winner, r.margin))(reglas.roll_contest(spec, s)))
    assert odds.winner["attacker"] == _by(seen, lambda k: k[0]).get("attacker", 0)
    assert _nonzero(odds.margin) == _nonzero(_by(seen, lambda k: k[1]))


def test_reglas_team_against_every_roll():
    spec = reglas.ReglasTeam(members=(_r(8), _r(5), _r(3)), difficulty=6)
    odds = reglas_odds.reglas_team_odds(spec)
    seen = enumerate_rolls(lambda s: (lambda r: (r.outcome, r.total))(reglas.roll_team(spec, s)))
    assert _nonzero(odds.total) == _nonzero(_by(seen, lambda k: k[1]))
    assert _nonzero(odds.outcomes) == _nonzero(_by(seen, lambda k: k[0]))


@pytest.mark.parametrize("index, target, start, max_rolls", [(8, 12, 0, 4), (4, 5, 2, 3), (10, 20, 0, 3)])
def test_reglas_extended_against_every_sequence(index, target, start, max_rolls):
    spec = reglas.ReglasExtended(spec=_r(index), target=target, start=start, max_rolls=max_rolls)
    odds = reglas_odds.reglas_extended_odds(spec)
    seen = enumerate_rolls(lambda s: _ended(reglas.roll_extended(spec, s)))
    assert _nonzero(odds.outcomes) == _nonzero(_by(seen, lambda k: k[0]))
    reached = _by({k: p for k, p in seen.items() if k[0] == "success"}, lambda k: k[1])
    assert _nonzero(odds.rolls_needed) == _nonzero(reached)
    assert odds.expected_rolls == sum((p * k[1] for k, p in seen.items()), Fraction(0))


@pytest.mark.parametrize("index, difficulty, attempts", [(9, 4, 4), (6, 2, 3), (12, 0, 2)])
def test_reglas_retry_against_every_sequence(index, difficulty, attempts):
    spec = reglas.ReglasRetry(spec=_r(index, difficulty), max_attempts=attempts)
    odds = reglas_odds.reglas_retry_odds(spec)
    seen = enumerate_rolls(lambda s: (lambda r: (r.outcome, r.attempts))(reglas.roll_retry(spec, s)))
    assert _nonzero(odds.outcomes) == _nonzero(_by(seen, lambda k: k[0]))
    for k in range(1, attempts + 1):
        by = sum((p for e, p in seen.items() if e[0] == "success" and e[1] <= k), Fraction(0))
        assert odds.by_attempt.get(k, odds.by_attempt[max(odds.by_attempt)]) == by
    assert odds.expected_attempts == sum((p * e[1] for e, p in seen.items()), Fraction(0))


# The command line ------------------------------------------------------------------------

TYPES = [
    (("seyruun", "contest", "3+2", "2+2"), {"outcomes", "winner", "margin"}),
    (("seyruun", "extended", "3", "2", "--target", "5", "--max-rolls", "6"),
     {"outcomes", "within", "rolls_needed"}),
    (("seyruun", "team", "3", "2", "--assists", "2"), {"outcomes", "total"}),
    (("reglas", "multi", "3", "9", "-d", "normal"), {"outcomes", "each", "all_succeed"}),
    (("reglas", "contest", "9", "5"), {"outcomes", "winner", "margin"}),
    (("reglas", "team", "6", "5", "4", "-d", "dificil"), {"outcomes", "total"}),
    (("reglas", "extended", "8", "--target", "12", "--max-rolls", "5"),
     {"outcomes", "within", "rolls_needed"}),
    (("reglas", "retry", "9", "-d", "dificil", "--max-attempts", "4"), {"outcomes", "by_attempt"}),
]


@pytest.mark.parametrize("args, keys", TYPES, ids=lambda a: " ".join(a) if isinstance(a, tuple) else "")
def test_odds_type_and_odds_on_the_roll_give_the_same_object(args, keys):
    ruleset, kind, *rest = args
    (alone,) = cli_json(ruleset, "odds", kind, *rest)
    assert keys <= set(alone) and abs(sum(alone["outcomes"].values()) - 1) < 1e-12
    (rolled,) = cli_json(ruleset, kind, *rest, "--odds", "--seed", "3")
    odds = rolled["odds"]
    assert odds["outcome"] == alone["outcomes"][rolled["outcome"]]
    assert {k: v for k, v in odds.items() if k != "outcome"} == alone
    for key in ("within", "by_attempt"):
        if key in alone:
            values = list(alone[key].values())
            assert values == sorted(values) and list(alone[key]) == [str(k) for k in
                                                                     range(1, len(values) + 1)]


@pytest.mark.parametrize("args, keys", TYPES, ids=lambda a: " ".join(a) if isinstance(a, tuple) else "")
def test_odds_type_views_fit_at_every_width(args, keys):
    ruleset, kind, *rest = args
    for columns in (40, 80, 120):
        run = cli(ruleset, "odds", kind, *rest, env={"COLUMNS": str(columns), "NO_COLOR": "1"})
        assert run.exit_code == 0, run.stderr
        assert max(len(line) for line in run.stdout.splitlines()) <= columns


def test_odds_type_takes_no_rolling_options():
    assert_usage_error(cli("seyruun", "odds", "contest", "3", "3", "--seed", "1"), "--seed:", "computed")
    assert_usage_error(cli("reglas", "odds", "multi", "2", "5", "-n", "3"), "-n:", "se calculan")
    assert_usage_error(cli("reglas", "odds", "team", *["5"] * 700), "ÍNDICE:", "presupuesto de 1,000,000")


def test_odds_over_the_budget_are_refused_at_once():
    run = cli("seyruun", "odds", "extended", "5", "5", "--target", "1000", "--max-rolls", "1000")
    assert_usage_error(run, "--max-rolls:", "odds budget of 1,000,000")


@pytest.mark.slow
def test_compared_alternatives_share_the_odds_budget():
    alone = ("seyruun", "odds", "extended", "5", "5", "--target", "11", "--max-rolls", "500")
    assert cli(*alone).exit_code == 0
    run = cli(*alone, "--compare", "--willpower", "--compare", "--bonus 2", "--compare", "--bonus 1")
    assert_usage_error(run, "--max-rolls:", "shared by the 4 computations --compare asks for")
    assert cli(*alone[:-1], "100", "--compare", "--willpower").exit_code == 0
    spanish = cli("reglas", "odds", "extended", "5", "--target", "100", "--max-rolls", "900",
                  *["--compare=--mod 1"] * 9)
    assert_usage_error(spanish, "--max-rolls:", "repartido entre los 10 cálculos")


def test_odds_with_as_spend_nothing():
    make_character("Ysolde", "seyruun", wits=3, occult=2, composure=1, resolve=1)
    before = cli_json("char", "show", "ysolde")
    (o,) = cli_json("seyruun", "odds", "extended", "wits", "occult", "--target", "5",
                    "--willpower", "--as", "ysolde")
    assert o["outcomes"]["success"] > 0 and o["character"] == "Ysolde"
    assert cli_json("char", "show", "ysolde") == before


# --compare ---------------------------------------------------------------------------------

COMPARED = [
    ("seyruun", "odds", "3", "3"), ("--willpower", "--bonus 2", "-d moderate", "--reroll"),
    ("reglas", "odds", "5+5", "-d", "normal"), ("--raise 1", "-d dificil", "--mod -2"),
    ("crytures", "odds", "6", "-d", "7"), ("-d 9", "--roll-mod 2"),
    ("cypher", "odds", "-d", "5"), ("--effort 1", "--skill trained", "-d 3"),
    ("seyruun", "odds", "contest", "3+2", "2+2"), ("--attacker-willpower",),
    ("reglas", "odds", "retry", "9", "-d", "dificil"), ("--max-attempts 1",),
]


@pytest.mark.parametrize("base, alts", list(zip(COMPARED[::2], COMPARED[1::2])), ids=lambda x: " ".join(x))
def test_each_compared_choice_equals_that_choice_alone(base, alts):
    flags = [a for alt in alts for a in ("--compare", alt)]
    (obj,) = cli_json(*base, *flags)
    assert [c["args"] for c in obj["compare"]] == list(alts)
    (alone,) = cli_json(*base)
    assert {k: v for k, v in obj.items() if k != "compare"} == alone
    for c in obj["compare"]:
        (each,) = cli_json(*base, *c["args"].split())
        assert c["odds"] == each


def test_compare_under_rolls_goes_inside_odds_and_names_the_best_choice():
    (obj,) = cli_json("seyruun", "roll", "3", "3", "--odds", "--seed", "4", "--compare", "--willpower")
    (alone,) = cli_json("seyruun", "odds", "3", "3", "--willpower")
    assert obj["odds"]["compare"] == [{"args": "--willpower", "odds": alone}]
    run = cli("seyruun", "roll", "3", "3", "--odds", "--seed", "4", "--compare", "--willpower",
              env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert "best chance of success: with --willpower" in run.stdout
    assert "lowest chance of botch: with --willpower" in run.stdout and "1 Willpower" in run.stdout


def test_compared_attacks_weigh_the_damage_too():
    attack = ("seyruun", "attack", "3+2", "--defense", "2+2", "--damage", "2+2", "--soak", "1+1",
              "--seed", "1", "--odds")
    (obj,) = cli_json(*attack, "--compare", "--damage 4+2")
    base, (alt,) = obj["odds"], obj["odds"]["compare"]
    assert alt["odds"]["outcomes"] == base["outcomes"]
    mean = sum(int(k) * p for k, p in alt["odds"]["damage_dealt"].items())
    assert mean > sum(int(k) * p for k, p in base["damage_dealt"].items())
    run = cli(*attack, "--compare", "--damage 4+2", env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert "every choice gives the same chances" not in run.stdout
    assert f"most damage: with --damage 4+2 (mean {mean:.2f})" in run.stdout
    row = next(line for line in run.stdout.splitlines() if line.strip().startswith("with --damage"))
    assert f"{mean:.2f}" in row


def test_compare_spanish_and_a_bad_alternative():
    run = cli("reglas", "odds", "5+5", "--compare", "--raise 1", env={"NO_COLOR": "1"})
    assert "mejor probabilidad de éxito" in run.stdout and "con --raise 1" in run.stdout
    assert_usage_error(cli("seyruun", "odds", "3", "3", "--compare", "--bogus"), "--compare:", "--bogus")
    assert_usage_error(cli("seyruun", "odds", "3", "3", "--compare", "'"), "--compare:")


def test_a_roll_with_compare_is_logged_once_and_unchanged(tmp_path):
    run = cli("seyruun", "roll", "3", "3", "--odds", "--seed", "4", "--compare", "--willpower", "--log")
    assert run.exit_code == 0, run.stderr
    entries = [json.loads(line) for line in cli("log", "--json").stdout.splitlines()]
    assert len(entries) == 1


def test_simulated_reglas_retry_agrees(seed=7):
    spec = reglas.ReglasRetry(spec=_r(7, 2), max_attempts=5)
    p = float(reglas_odds.reglas_retry_odds(spec).outcomes["success"])
    from rpgdice.core.dice import SeededDice

    source, n = SeededDice(seed), 20000
    hits = sum(reglas.roll_retry(spec, source).outcome == "success" for _ in range(n))
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def test_ordinary_dice_compare_their_totals():
    (obj,) = cli_json("odds", "2d6", "--compare", "+1")
    assert obj["compare"][0]["args"] == "+1" and obj["compare"][0]["odds"]["mean"] == obj["mean"] + 1
    (rolled,) = cli_json("roll", "2d6", "--odds", "--seed", "1", "--compare", "+1")
    assert rolled["odds"]["compare"][0]["odds"]["by_expression"]["2d6 +1"]["max"] == 13
    run = cli("odds", "2d6", "--compare", "+1", env={"NO_COLOR": "1"})
    assert "with +1" in run.stdout and "8.00" in run.stdout


def test_a_compared_alternative_edits_the_roll_value_and_may_name_another_character():
    """``--compare`` edits the line's roll value (rpgdice.cli.edit), never parses the line
    again: an alternative's ``--as`` rolls the same trait names from that sheet, a trait
    option it adds is read from the sheet too, and the base's own arguments stay."""
    make_character("Ysolde", "seyruun", {"dexterity": 4, "stealth": 2, "willpower": 3})
    make_character("Bran", "seyruun", {"dexterity": 2, "stealth": 1, "willpower": 3})
    base = ("seyruun", "odds", "dexterity", "stealth", "--as", "ysolde")
    (obj,) = cli_json(*base, "--compare", "--as bran", "--compare", "--bonus 2")
    (bran,) = cli_json("seyruun", "odds", "dexterity", "stealth", "--as", "bran")
    (bonus,) = cli_json(*base, "--bonus", "2")
    alone = [{k: v for k, v in o.items() if k != "character"} for o in (bran, bonus)]
    assert [c["odds"] for c in obj["compare"]] == alone  # an alternative names no one
    assert bran["outcomes"] != bonus["outcomes"]  # the two alternatives differ
    (dice,) = cli_json("odds", "1d6", "--compare", "+1d4 +1")
    (alone,) = cli_json("odds", "1d6", "+1d4", "+1")
    assert dice["compare"][0]["odds"]["distribution"] == alone["distribution"]
    assert_usage_error(cli("seyruun", "odds", "3", "3", "--compare", "4"), "--compare: '4':",
                       "extra argument")
    (pool,) = cli_json("crytures", "odds", "4", "--compare", "6")  # a second POOL word: the sum
    (ten,) = cli_json("crytures", "odds", "4", "6")
    assert pool["compare"][0]["odds"] == ten and ten["outcomes"] != pool["outcomes"]
