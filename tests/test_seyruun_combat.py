"""Seyruun combat (RULES.md "Combat", CLI.md "Seyruun combat"): initiative, and an attack
against defense with damage against soak, every rule with given faces."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from conftest import assert_usage_error, cli, cli_json, cli_one, make_character, ok
from rpgdice.core.dice import GivenDice, SeededDice
from rpgdice.core.errors import RulesError
from rpgdice.rulesets.seyruun import odds as sey_odds
from rpgdice.rulesets.seyruun import rules as seyruun


def faces(*fs: int) -> str:
    return ",".join(map(str, fs))


def initiative(*combatants: str, dice: list[int]) -> dict:
    return cli_one("seyruun", "initiative", *combatants, "--dice", faces(*dice))


def attack(*args: str, dice: list[int]) -> dict:
    return cli_one("seyruun", "attack", *args, "--dice", faces(*dice))


# Initiative ---------------------------------------------------------------------------------


def test_initiative_most_successes_first_and_faces_in_named_order():
    # A 2+3 rolls 5 dice, B 3+1 rolls 4, C 1+1 rolls 2.
    obj = initiative("A=2+3", "B=3+1", "C=1+1", dice=[6, 2, 2, 2, 2, 10, 7, 2, 2, 6, 6])
    assert obj["command"] == "initiative" and obj["outcome"] is None
    assert [r["pool"] for r in obj["rolls"]] == [5, 4, 2]  # rolls in named order
    assert [d["face"] for d in obj["rolls"][1]["dice"]] == [10, 7, 2, 2]
    assert [(e["name"], e["rank"], e["successes"], e["botch"]) for e in obj["order"]] == [
        ("B", 1, 3, False), ("C", 2, 2, False), ("A", 3, 1, False)]
    for entry in obj["order"]:
        assert set(entry) >= {"name", "rank", "successes", "botch", "roll"}
        assert entry["roll"] == obj["rolls"][entry["named"] - 1]


def test_initiative_has_no_untrained_penalty():
    # Dexterity 0 or a lone number: both terms are Attributes, no −1 die.
    obj = initiative("A=3+0", "B=4", dice=[2] * 3 + [2] * 4)
    assert [r["pool"] for r in obj["rolls"]] == [3, 4]
    assert not any(r["untrained"] for r in obj["rolls"])


def test_initiative_bonuses_inside_the_cap_and_penalties():
    # 2+2 +3+4: bonuses 7, capped at +5 -> 9 dice. 3+3 -2 -1 -> 3 dice.
    obj = initiative("Reflexes=2+2+3+4", "Hurt=3+3-2-1", dice=[2] * 9 + [2] * 3)
    first, second = obj["rolls"]
    assert first["pool"] == 9 and first["bonus_capped"] == 2
    assert second["pool"] == 3 and second["penalty"] == 3


def test_initiative_pool_reduced_to_nothing_rolls_a_chance_die():
    obj = initiative("Slow=1+1-3", "Also=1+1-2", dice=[10, 5])
    assert all(r["chance_die"] for r in obj["rolls"])
    assert [(e["name"], e["successes"]) for e in obj["order"]] == [("Slow", 1), ("Also", 0)]


def test_a_botch_acts_after_every_non_botch():
    # Botcher: 3 successes would be impossible, but even 0 successes without a 1 beats a botch.
    obj = initiative("Botcher=5+5", "Blank=1+1", dice=[1] + [2] * 9 + [2, 3])
    assert [(e["name"], e["botch"], e["rank"]) for e in obj["order"]] == [
        ("Blank", False, 1), ("Botcher", True, 2)]


def test_ties_go_to_the_higher_wits_dexterity_before_modifiers():
    # Both roll 1 success. High=3+3 (base 6, 6 dice); Boosted=2+2+2 (base 4, 6 dice after
    # its bonus): the bonus does not break the tie.
    obj = initiative("Boosted=2+2+2", "High=3+3", dice=[6] + [2] * 5 + [6] + [2] * 5)
    assert [(e["name"], e["rank"], e["tied"]) for e in obj["order"]] == [
        ("High", 1, False), ("Boosted", 2, False)]
    assert [e["base"] for e in obj["order"]] == [6, 4]


def test_ties_on_everything_share_a_rank_like_a_competition():
    # A, B, C: one success each, base 4; D two successes; E none.
    dice = [6, 2, 2, 2] * 3 + [6, 6, 2, 2] + [2, 2, 2, 2]
    obj = initiative("A=2+2", "B=3+1", "C=1+3", "D=2+2", "E=2+2", dice=dice)
    assert [(e["name"], e["rank"], e["tied"]) for e in obj["order"]] == [
        ("D", 1, False), ("A", 2, True), ("B", 2, True), ("C", 2, True), ("E", 5, False)]


def test_one_one_three():
    obj = initiative("A=2+2", "B=2+2", "C=2+2", dice=[6, 2, 2, 2, 6, 2, 2, 2, 2, 2, 2, 2])
    assert [e["rank"] for e in obj["order"]] == [1, 1, 3]
    assert [e["name"] for e in obj["order"]] == ["A", "B", "C"]


def test_botches_among_themselves_break_ties_the_same_way():
    obj = initiative("Low=1+1", "High=2+2", "Same=1+1", dice=[1, 2, 1, 2, 2, 2, 1, 3])
    assert [(e["name"], e["botch"], e["rank"]) for e in obj["order"]] == [
        ("High", True, 1), ("Low", True, 2), ("Same", True, 2)]


def test_no_extra_dice_are_rolled_for_ties():
    # A face more than the pools need is too many: ties roll nothing more.
    assert_usage_error(cli("seyruun", "initiative", "A=1+1", "B=1+1", "--dice", faces(6, 2, 6, 2, 6)),
                       "--dice", "too many")


def test_initiative_engine_order_from_results():
    a, b = seyruun.Combatant("a", 2, 2), seyruun.Combatant("b", 3, 1)
    pool = a.pool
    botch, blank, one = (seyruun.evaluate(pool, f) for f in ([1, 2, 2, 2], [2, 2, 2, 2], [6, 2, 2, 2]))
    assert seyruun.initiative_key(a, blank) < seyruun.initiative_key(a, botch)
    assert seyruun.initiative_key(a, one) < seyruun.initiative_key(a, blank)
    entries = seyruun.initiative_order([a, b], [blank, one])
    assert [(e.name, e.rank) for e in entries] == [("b", 1), ("a", 2)]


@pytest.mark.parametrize("combatant, fragment", [
    ("A", "A=WITS+DEXTERITY"),  # no saved character A
    ("=2+2", "name"),
    ("A=x", "A"),
    ("A=2+2000", "A"),
    ("A;b=2+2", "name"),
    ("A" * 41 + "=2+2", "name"),
])
def test_bad_combatants_are_usage_errors(combatant, fragment):
    assert_usage_error(cli("seyruun", "initiative", combatant, "--seed", "1"), "COMBATANT", fragment)


def test_a_name_given_twice_is_a_usage_error():
    assert_usage_error(cli("seyruun", "initiative", "Ana=2+2", "ana=1+1", "--seed", "1"),
                       "COMBATANT", "twice")


def test_initiative_needs_a_combatant_and_bounds_them():
    run = cli("seyruun", "initiative", "--seed", "1")
    assert run.exit_code == 2 and run.stdout == ""
    many = [f"C{i}=1+1" for i in range(seyruun.MAX_COMBATANTS + 1)]
    assert_usage_error(cli("seyruun", "initiative", *many, "--seed", "1"), "COMBATANT",
                       str(seyruun.MAX_COMBATANTS))


def test_initiative_seeded_is_reproducible_and_repeats():
    one = cli_json("seyruun", "initiative", "A=3+3", "B=2+4", "--seed", "9", "-n", "3")
    assert one == cli_json("seyruun", "initiative", "A=3+3", "B=2+4", "--seed", "9", "-n", "3")
    assert len(one) == 3


# Attack: hit or miss -------------------------------------------------------------------------


def test_no_defense_any_success_hits():
    # 3+3 = 6 dice, 3 successes; no damage pool: it stops at the hit.
    obj = attack("3+3", dice=[6, 7, 8, 2, 2, 2])
    assert obj["command"] == "attack"
    assert obj["hit"] is True and obj["outcome"] == "success"
    assert obj["defense"] is None
    assert obj["net_successes"] == 3 and obj["extra_successes"] == 2
    assert obj["damage_pool"] is None and obj["damage"] is None and obj["soak"] is None
    assert obj["damage_dealt"] is None
    assert obj["rolls"] == [obj["attack"]]


def test_more_defense_successes_is_a_miss_that_consumes_no_damage_faces():
    # Attack 2+2 (4 dice) 1 success; defense 2+2 2 successes. The faces end there: the
    # damage and soak that would have been rolled take none.
    obj = attack("2+2", "--defense", "2+2", "--damage", "3+3", "--soak", "2+2",
                 dice=[6, 2, 2, 2, 6, 7, 2, 2])
    assert obj["hit"] is False and obj["outcome"] == "failure"
    assert obj["net_successes"] == -1 and obj["extra_successes"] == 0
    assert obj["damage_pool"] is None and obj["damage"] is None and obj["soak"] is None
    assert obj["damage_dealt"] == 0
    assert obj["rolls"] == [obj["attack"], obj["defense"]]


@pytest.mark.parametrize("attack_pool, defense_pool, hit", [
    ("4+1", "3+2", True),  # tie, the attack's base Attribute higher: a hit
    ("3+2", "3+2", False),  # tie, equal: the defender
    ("2+3", "3+2", False),
])
def test_a_tie_follows_the_contest_rule(attack_pool, defense_pool, hit):
    obj = attack(attack_pool, "--defense", defense_pool, "--damage", "2",
                 dice=[6, 2, 2, 2, 2, 7, 2, 2, 2, 2] + ([2, 2] if hit else []))
    assert obj["hit"] is hit
    assert obj["net_successes"] == 0 and obj["extra_successes"] == 0
    if hit:  # won on a tie: net 0, so the damage pool is the base alone
        assert obj["damage_pool"] == 2 and obj["damage"]["pool"] == 2


def test_an_attack_needs_a_success_even_when_the_defense_rolls_none():
    # 0 against 0 with the higher Attribute would win the contest, but it is no hit.
    obj = attack("4+1", "--defense", "2+1", "--damage", "3", dice=[2] * 5 + [2] * 3)
    assert obj["attack"]["successes"] == 0 and obj["defense"]["successes"] == 0
    assert obj["hit"] is False and obj["outcome"] == "failure" and obj["damage"] is None


def test_an_attack_that_botches_is_a_botch_with_no_damage_and_the_defense_still_rolls():
    obj = attack("2+2", "--defense", "2+1", "--damage", "3", "--soak", "2",
                 dice=[1, 2, 2, 2, 2, 2, 2])
    assert obj["outcome"] == "botch" and obj["hit"] is False
    assert obj["defense"] is not None and len(obj["defense"]["dice"]) == 3
    assert obj["damage"] is None and obj["damage_dealt"] == 0


def test_a_chance_die_attack_can_hit():
    obj = attack("1-2", "--damage", "1", dice=[10, 6])
    assert obj["attack"]["chance_die"] is True
    assert obj["hit"] is True and obj["net_successes"] == 1 and obj["extra_successes"] == 0
    assert obj["damage_pool"] == 1


def test_untrained_attack_and_willpower_on_each_side():
    # "3" is untrained: 2 dice, +3 Willpower -> 5. Defense 2+1 +3 -> 6.
    obj = attack("3", "--defense", "2+1", "--attacker-willpower", "--defender-willpower",
                 dice=[2] * 5 + [2] * 6)
    assert obj["attack"]["untrained"] is True
    assert obj["attack"]["pool"] == 5 and obj["attack"]["willpower_spent"] == 1
    assert obj["defense"]["pool"] == 6 and obj["defense"]["willpower_spent"] == 1


# Attack: damage and soak ---------------------------------------------------------------------


def test_damage_pool_is_base_plus_extra_successes_then_soak_in_dice_order():
    # Attack 3+3: 10 10 7 2 2 2 = 5 successes; defense 2+2: 6 2 2 2 = 1. Net 4, extra 3.
    # Damage 2+3 base 5 + 3 = 8 dice: 6 6 6 2 2 2 2 10 = 5 successes; soak 2+1 = 3 dice:
    # 6 2 2 = 1. Dealt 4.
    dice = [10, 10, 7, 2, 2, 2] + [6, 2, 2, 2] + [6, 6, 6, 2, 2, 2, 2, 10] + [6, 2, 2]
    obj = attack("3+3", "--defense", "2+2", "--damage", "2+3", "--soak", "2+1", dice=dice)
    assert obj["hit"] and obj["net_successes"] == 4 and obj["extra_successes"] == 3
    assert obj["damage_base"] == 5 and obj["damage_pool"] == 8
    assert [d["face"] for d in obj["damage"]["dice"]] == [6, 6, 6, 2, 2, 2, 2, 10]
    assert obj["damage"]["successes"] == 5
    assert [d["face"] for d in obj["soak"]["dice"]] == [6, 2, 2]
    assert obj["damage_dealt"] == 4
    assert obj["rolls"] == [obj["attack"], obj["defense"], obj["damage"], obj["soak"]]


def test_damage_and_soak_are_plain_sums_no_untrained_penalty_no_cap():
    # Damage "4" alone: 4 dice (no untrained −1). Soak 1+1+1+1+1+1+1 = 7 dice (no +5 cap).
    obj = attack("2+2", "--damage", "4", "--soak", "1+1+1+1+1+1+1", dice=[6, 2, 2, 2] + [2] * 4 + [2] * 7)
    assert obj["damage"]["pool"] == 4 and obj["damage"]["untrained"] is False
    assert obj["soak"]["pool"] == 7


def test_attack_overflow_goes_into_damage():
    # 5+5+5 = 15 dice: 10 rolled, 5 overflow. One success: net 1, extra 0.
    # Damage 2 + 0 + 5 = 7 dice.
    obj = attack("5+5+5", "--damage", "2", dice=[6] + [2] * 9 + [2] * 7)
    assert obj["attack"]["pool"] == 10 and obj["attack"]["overflow"] == 5
    assert obj["damage_pool"] == 7 and obj["overflow_to_damage"] == 5
    assert obj["damage"]["pool"] == 7


def test_damage_past_ten_dice_rolls_ten_and_shows_the_overflow():
    obj = attack("2+2", "--damage", "8+4", dice=[6, 2, 2, 2] + [2] * 10)
    assert obj["damage_pool"] == 12
    assert obj["damage"]["pool"] == 10 and obj["damage"]["overflow"] == 2


def test_a_damage_pool_of_zero_rolls_nothing_and_no_soak():
    # A hit with net 1 (extra 0) and base 0: nothing rolled, no chance die, no soak.
    obj = attack("2+2", "--damage", "0", "--soak", "3+2", dice=[6, 2, 2, 2])
    assert obj["hit"] is True
    assert obj["damage_pool"] == 0 and obj["damage"] is None and obj["soak"] is None
    assert obj["damage_dealt"] == 0 and len(obj["rolls"]) == 1


def test_a_negative_damage_pool_rolls_nothing():
    obj = attack("2+2", "--damage", "1-3", dice=[6, 6, 2, 2])  # extra 1: 1 - 3 + 1 = -1
    assert obj["damage_pool"] == -1 and obj["damage"] is None and obj["damage_dealt"] == 0


def test_a_soak_pool_of_zero_rolls_nothing():
    obj = attack("2+2", "--damage", "2", "--soak", "0", dice=[6, 2, 2, 2, 6, 10])
    assert obj["soak"] is None and obj["soak_pool"] == 0
    assert obj["damage_dealt"] == 3


def test_damage_dealt_never_below_zero():
    obj = attack("2+2", "--damage", "1", "--soak", "3", dice=[6, 2, 2, 2, 6, 10, 10, 10])
    assert obj["damage"]["successes"] == 1 and obj["soak"]["successes"] == 6
    assert obj["damage_dealt"] == 0


def test_attack_dice_must_cover_exactly_what_is_rolled():
    assert_usage_error(cli("seyruun", "attack", "2+2", "--damage", "2", "--dice", faces(6, 2, 2, 2, 6)),
                       "--dice", "too few")
    assert_usage_error(cli("seyruun", "attack", "2+2", "--damage", "2", "--dice", faces(2, 2, 2, 2, 6)),
                       "--dice", "too many")


def test_attack_usage_errors():
    assert_usage_error(cli("seyruun", "attack", "2+2", "--soak", "2", "--seed", "1"), "--soak", "--damage")
    assert_usage_error(cli("seyruun", "attack", "2+2", "--defender-willpower", "--seed", "1"),
                       "--defender-willpower", "--defense")
    assert_usage_error(cli("seyruun", "attack", "2+2", "--damage", "2+x", "--seed", "1"), "--damage")
    assert_usage_error(cli("seyruun", "attack", "2+2", "--damage", "1000+1000", "--seed", "1"),
                       "--damage", "1000")
    assert_usage_error(cli("seyruun", "attack", "2+2", "--defense", "3+", "--seed", "1"), "--defense")
    assert_usage_error(cli("seyruun", "attack", "1000+1000", "--seed", "1"), "ATTACK")


def test_attack_json_keys_are_cli_md_s():
    obj = cli_one("seyruun", "attack", "3+3", "--defense", "2+2", "--damage", "2+3", "--soak", "2+1",
                  "--seed", "5")
    assert {"ruleset", "command", "outcome", "attack", "defense", "hit", "net_successes",
            "extra_successes", "damage_pool", "damage", "soak", "damage_dealt", "rolls", "seed"} <= set(obj)
    assert obj["outcome"] in ("success", "failure", "botch") and obj["seed"] == 5
    init = cli_one("seyruun", "initiative", "A=2+2", "--seed", "5")
    assert init["outcome"] is None and init["seed"] == 5 and {"order", "rolls"} <= set(init)


# Engine invariants --------------------------------------------------------------------------


pools = st.builds(seyruun.SeyruunPool, attribute=st.integers(0, 6), skill=st.one_of(st.none(), st.integers(0, 6)),
                  bonuses=st.tuples(st.integers(0, 7)), penalties=st.tuples(st.integers(0, 4)),
                  willpower=st.booleans())
terms = st.one_of(st.none(), st.lists(st.integers(-3, 12), min_size=1, max_size=3).map(tuple))


@settings(max_examples=200)
@given(att=pools, dfn=st.one_of(st.none(), pools), damage=terms, soak=terms,
       seed=st.integers(0, 2**32))
def test_attack_invariants(att, dfn, damage, soak, seed):
    if damage is None:
        soak = None
    spec = seyruun.SeyruunAttack(attack=att, defense=dfn, damage=damage, soak=soak)
    source = SeededDice(seed)
    r = seyruun.roll_attack(spec, source)
    # Replaying exactly the faces the rolls show gives the same attack: a roll that does
    # not happen takes no faces.
    shown_faces = [d.face for roll in r.rolls for d in roll.dice]
    again = seyruun.roll_attack(spec, GivenDice(shown_faces))
    assert again.damage_dealt == r.damage_dealt and again.outcome == r.outcome
    assert r.hit == (r.outcome == "success")
    assert r.hit <= (r.attack.successes >= 1)
    assert r.extra_successes == (max(0, r.net_successes - 1) if r.hit else 0)
    assert (r.damage is not None) == (r.hit and damage is not None and r.damage_pool > 0)
    assert (r.soak is not None) == (r.damage is not None and soak is not None and sum(soak) > 0)
    if r.damage is not None:
        assert r.damage.pool == min(r.damage_pool, 10)
        assert r.damage_dealt == max(0, r.damage.successes - (r.soak.successes if r.soak else 0))
    if damage is None:
        assert r.damage_dealt is None
    else:
        assert r.damage_dealt >= 0


# Odds ---------------------------------------------------------------------------------------


class _Need(Exception):
    def __init__(self, count: int) -> None:
        self.count = count


class _Prefix:
    """Faces from a prefix; asking past it raises :class:`_Need` so the caller branches."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix, self.used = prefix, 0

    def roll(self, sides: int, count: int = 1) -> list[int]:
        if self.used + count > len(self.prefix):
            raise _Need(count)
        out = list(self.prefix[self.used:self.used + count])
        self.used += count
        return out


EVERY_FACE = {f: Fraction(1, 10) for f in range(1, 11)}
ONE_FACE_A_KIND = {1: Fraction(1, 10), 3: Fraction(4, 10), 7: Fraction(4, 10), 10: Fraction(1, 10)}
"""A 1, a blank (2-5), a success (6-9), a 10, weighted by how many faces each stands for."""


def attack_by_brute_force(spec: seyruun.SeyruunAttack, die: dict = EVERY_FACE) -> tuple[dict, dict]:
    """Every sequence of faces roll_attack can ask for, each with its own probability."""
    outcomes: Counter = Counter()
    dealt: Counter = Counter()
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            r = seyruun.roll_attack(spec, _Prefix(prefix))
        except _Need as need:
            for more in product(die, repeat=need.count):
                stack.append((prefix + more, p * math.prod(die[f] for f in more)))
            continue
        outcomes[r.outcome] += p
        dealt[r.damage_dealt] += p
    return dict(outcomes), dict(dealt)


def nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


@pytest.mark.parametrize("spec, die", [
    (seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(1), defense=seyruun.SeyruunPool(1, 0),
                           damage=(1,), soak=(1,)), EVERY_FACE),  # chance dice on both sides
    (seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(1, 1), defense=seyruun.SeyruunPool(1),
                           damage=(0,), soak=(1,)), ONE_FACE_A_KIND),  # damage from extra successes alone
    (seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(1, 1), defense=seyruun.SeyruunPool(1, 1),
                           damage=(1,)), ONE_FACE_A_KIND),
    (seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(2, 1), defense=seyruun.SeyruunPool(2, 1)),
     ONE_FACE_A_KIND),
    (seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(1, 1), defense=seyruun.SeyruunPool(2, 0)),
     EVERY_FACE),
], ids=["chance", "extra-only", "no-soak", "no-damage", "no-damage-every-face"])
def test_attack_odds_equal_every_roll_enumerated(spec, die):
    outcomes, dealt = attack_by_brute_force(spec, die)
    o = sey_odds.seyruun_attack_odds(spec)
    assert nonzero(o.outcomes) == nonzero(outcomes)
    assert o.hit == outcomes.get("success", 0)
    if spec.damage is None:
        assert o.damage_dealt is None and set(dealt) == {None}
    else:
        assert nonzero(o.damage_dealt) == nonzero(dealt)
        assert sum(o.damage_dealt.values()) == 1


SIGMAS = 5
ROLLS = 4000


@pytest.mark.slow
@settings(max_examples=8)
@given(att=pools, dfn=st.one_of(st.none(), pools), damage=st.lists(st.integers(0, 8), min_size=1,
       max_size=2).map(tuple), soak=st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple),
       seed=st.integers(0, 2**32))
def test_attack_odds_agree_with_simulation(att, dfn, damage, soak, seed):
    spec = seyruun.SeyruunAttack(attack=att, defense=dfn, damage=damage, soak=soak)
    o = sey_odds.seyruun_attack_odds(spec)
    assert sum(o.outcomes.values()) == 1 and sum(o.damage_dealt.values()) == 1
    source = SeededDice(seed)
    rolls = [seyruun.roll_attack(spec, source) for _ in range(ROLLS)]
    for counts, exact in ((Counter(r.outcome for r in rolls), o.outcomes),
                          (Counter(r.damage_dealt for r in rolls), o.damage_dealt)):
        assert set(counts) <= {k for k, p in exact.items() if p}
        for key, p in exact.items():
            seen = counts.get(key, 0) / ROLLS
            sigma = math.sqrt(p * (1 - p) / ROLLS)
            assert abs(seen - p) <= SIGMAS * sigma + 1 / ROLLS, (key, seen, float(p))


@pytest.mark.slow
def test_attack_odds_with_overflow_mean_matches_simulation():
    spec = seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(5, 5, bonuses=(5,), willpower=True),
                                 defense=seyruun.SeyruunPool(4, 4), damage=(3, 3), soak=(3, 3, 2))
    o = sey_odds.seyruun_attack_odds(spec)
    source = SeededDice(12345)
    dealt = [seyruun.roll_attack(spec, source).damage_dealt for _ in range(ROLLS)]
    mean = sum(dealt) / ROLLS
    var = sum((k - float(o.mean_damage)) ** 2 * float(p) for k, p in o.damage_dealt.items())
    assert abs(mean - float(o.mean_damage)) <= SIGMAS * math.sqrt(var / ROLLS)


def test_attack_odds_json():
    obj = cli_one("seyruun", "attack", "3+3", "--defense", "2+2", "--damage", "2+3", "--soak", "2+1",
                  "--seed", "5", "--odds")
    o = obj["odds"]
    assert 0 < o["hit"] < 1
    assert o["hit"] == pytest.approx(o["outcomes"]["success"])
    assert sum(o["damage_dealt"].values()) == pytest.approx(1)
    assert all(k.isdigit() for k in o["damage_dealt"])
    assert o["outcome"] == o["outcomes"][obj["outcome"]]
    plain = cli_one("seyruun", "attack", "3+3", "--seed", "5", "--odds")["odds"]
    assert plain["damage_dealt"] is None


def test_plain_pool_refuses_nothing_to_roll():
    with pytest.raises(RulesError):
        seyruun.PlainPool(0)
    assert seyruun.plain_pool(0) is None and seyruun.plain_pool(-2) is None
    assert seyruun.plain_pool(None) is None
    assert seyruun.plain_pool(13).dice == 10 and seyruun.plain_pool(13).overflow == 3


# Saved characters: combatants, --as (the attacker) and --vs (the target) ---------------------


def _willpower(name: str) -> int:
    return ok("char", "show", name, "--json").json()[0]["willpower"]


@pytest.fixture
def table():
    # Ysolde as she fights (the table's Ysolde sneaks): Wits 3, Dexterity 4, hurt.
    make_character("Ysolde", "seyruun", wits=3, dexterity=4, strength=2, brawl=3, composure=2,
                   resolve=2, wound="light")
    make_character("Ghoul", "seyruun", wits=2, dexterity=2, athletics=3, constitution=3,
                   endurance=1, composure=1, resolve=1, wound="moderate")
    make_character("Kel", "crytures", talent=2)


def test_a_saved_character_rolls_wits_dexterity_with_its_wound(table):
    # Ysolde: 3 + 4 − 1 (light) = 6 dice; Ghoul 2 + 2 − 2 = 2; Bandit 2+2 = 4.
    obj = initiative("ysolde", "Ghoul", "Bandit=2+2", dice=[6] + [2] * 5 + [6, 2] + [6, 2, 2, 2])
    assert [r["pool"] for r in obj["rolls"]] == [6, 2, 4]
    assert obj["rolls"][0]["penalty"] == 1 and obj["rolls"][1]["penalty"] == 2
    # All one success: Ysolde (base 7) first, then Ghoul and Bandit (base 4 each) tied.
    assert [(e["name"], e["rank"]) for e in obj["order"]] == [("Ysolde", 1), ("Ghoul", 2), ("Bandit", 2)]


def test_saved_combatant_errors(table):
    assert_usage_error(cli("seyruun", "initiative", "kel", "--seed", "1"), "COMBATANT", "crytures")
    assert_usage_error(cli("seyruun", "initiative", "nobody", "--seed", "1"), "COMBATANT", "nobody")
    ok("char", "new", "Slow", "--ruleset", "seyruun", "wits=2")
    assert_usage_error(cli("seyruun", "initiative", "slow", "--seed", "1"), "COMBATANT", "dexterity")
    assert_usage_error(cli("seyruun", "initiative", "ysolde", "Ysolde=2+2", "--seed", "1"),
                       "COMBATANT", "twice")


def test_attack_as_and_vs_name_traits_apply_wounds_and_pay(table):
    # Attack strength+brawl (2+3) + Willpower 3 − light 1 = 7 dice; defense dexterity+athletics
    # (2+3) + 3 − moderate 2 = 6; damage 2+strength = 4 + extra; soak constitution+endurance = 4.
    dice = [10, 6, 6, 6, 2, 2, 2] + [6, 2, 2, 2, 2, 2] + [6] * 7 + [6, 2, 2, 2]
    obj = cli_one("seyruun", "attack", "strength+brawl", "--as", "ysolde", "--attacker-willpower",
                  "--damage", "2+strength", "--vs", "ghoul", "--defense", "dexterity+athletics",
                  "--soak", "constitution+endurance", "--defender-willpower", "--dice", faces(*dice))
    assert obj["attack"]["pool"] == 7 and obj["attack"]["penalty"] == 1
    assert obj["defense"]["pool"] == 6 and obj["defense"]["penalty"] == 2
    assert obj["net_successes"] == 4 and obj["damage_base"] == 4 and obj["damage_pool"] == 7
    assert obj["soak_pool"] == 4 and obj["damage_dealt"] == 7 - 1
    assert obj["character"] == "Ysolde" and obj["spent"] == {"willpower": 1} and obj["left"] == {"willpower": 3}
    assert obj["vs"] == "Ghoul" and obj["vs_spent"] == {"willpower": 1} and obj["vs_left"] == {"willpower": 1}
    assert _willpower("ysolde") == 3 and _willpower("ghoul") == 1
    view = ok("seyruun", "attack", "strength+brawl", "--as", "ysolde", "--vs", "ghoul",
               "--defense", "dexterity+athletics", "--seed", "3").stdout
    # The first attack dealt 6 damage to the Ghoul: its wound followed, severe.
    assert "vs Ghoul" in view and "Dexterity 2 + Athletics 3" in view and "severe" in view


def test_the_target_that_cannot_pay_rolls_nothing_and_failed_faces_give_back(table):
    assert_usage_error(cli("seyruun", "attack", "2+2", "--vs", "ghoul", "--defense", "2+2",
                           "--defender-willpower", "-n", "3", "--seed", "1"), "--vs", "Willpower")
    assert _willpower("ghoul") == 2
    assert_usage_error(cli("seyruun", "attack", "2+2", "--vs", "ghoul", "--defense", "2+2",
                           "--defender-willpower", "--dice", "1,2"), "--dice")
    assert _willpower("ghoul") == 2
    obj = cli_json("seyruun", "attack", "2+2", "--vs", "ghoul", "--defense", "2+2",
                   "--defender-willpower", "-n", "2", "--seed", "4")
    assert [o["vs_left"] for o in obj] == [{"willpower": 1}, {"willpower": 0}]
    assert _willpower("ghoul") == 0


def test_vs_errors(table):
    assert_usage_error(cli("seyruun", "attack", "2", "--vs", "kel", "--seed", "1"), "--vs", "crytures")
    assert_usage_error(cli("seyruun", "attack", "2", "--vs", "nobody", "--seed", "1"), "--vs", "nobody")
    assert_usage_error(cli("seyruun", "attack", "2", "--vs", "ghoul", "--defense", "dex+athletics",
                           "--seed", "1"), "--defense", "dexterity")
    # Without --vs the target's traits mean nothing.
    assert_usage_error(cli("seyruun", "attack", "2", "--defense", "dexterity+athletics", "--seed", "1"),
                       "--defense")


# Views ----------------------------------------------------------------------------------------


def _view(*args: str, columns: int = 80) -> str:
    run = cli(*args, env={"COLUMNS": str(columns)})
    assert run.exit_code == 0, run.stderr
    assert "\x1b[" not in run.stdout
    return run.stdout


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_initiative_view_shows_ranks_ties_and_every_die_within_the_width(columns):
    out = _view("seyruun", "initiative", "A=2+2", "B=3+1", "Botcher=2+2", "D=3+3",
                "--dice", faces(6, 2, 2, 2, 6, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2), columns=columns)
    assert all(cell_len(line) <= columns for line in out.splitlines())
    rows = [line.split() for line in out.splitlines() if re.match(r"  \d+=?\s+[A-Za-z]", line)]
    assert [(r[0], r[1]) for r in rows] == [("1=", "A"), ("1=", "B"), ("3", "D"), ("4", "Botcher")]
    assert "tied at rank 1: A and B" in " ".join(out.split())
    assert out.count("dice") >= 4


@pytest.mark.parametrize("columns", [40, 80])
def test_attack_view_tells_the_whole_exchange(columns):
    # 5+5+5: 10 dice, 5 overflow; 6 successes against 1: net 5, extra 4; damage 2 + 4 + 5 = 11:
    # 10 dice rolled, 1 over; soak 3.
    dice = [10, 10, 6, 6, 2, 2, 2, 2, 2, 2] + [6, 2, 2, 2] + [6] * 10 + [6, 2, 2]
    out = _view("seyruun", "attack", "5+5+5", "--defense", "2+2", "--damage", "2", "--soak", "3",
                "--dice", faces(*dice), columns=columns)
    assert all(cell_len(line) <= columns for line in out.splitlines())
    flat = " ".join(out.split())
    for said in ("6 successes to 1: net 5, extra successes 4",
                 "base 2 + extra successes 4 + overflow 5 = 11, 1 over 10 unused",
                 "→ 10 successes", "→ 1 success", "Hit — 9 damage"):
        assert said in flat, (said, out)
    # issue 18: one verdict per exchange; the attack and defense show their successes
    assert flat.count("Hit") == 1 and "Success" not in flat and "needed" not in flat


def test_attack_view_of_a_miss_and_a_botch_names_why():
    tie = " ".join(_view("seyruun", "attack", "2+2", "--defense", "2+2", "--damage", "2",
                         "--dice", faces(6, 2, 2, 2, 6, 2, 2, 2)).split())
    assert "Miss — a tie at 1 success goes to the defender" in tie
    assert "Damage ·" not in tie
    botch = _view("seyruun", "attack", "2+2", "--dice", faces(1, 2, 2, 2))
    assert "the attack botched: no damage" in botch
    many = _view("seyruun", "attack", "2+2", "--seed", "3", "-n", "4")
    assert re.search(r"4 attacks: ", many)


def test_attack_odds_view_charts_damage_dealt():
    out = _view("seyruun", "attack", "3+3", "--defense", "2+3", "--damage", "2+2", "--soak", "3+1",
                "--seed", "2", "--odds")
    assert re.search(r"odds \d+\.\d% chance of (hit|miss|botch) \(hit \d+\.\d%", out)
    assert "damage dealt" in out and "mean damage dealt" in out


# Startup --------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["seyruun", "initiative", "A=2+3", "B=3+3"],
    ["seyruun", "attack", "3+3", "--defense", "2+3", "--damage", "2+2", "--soak", "3+1"],
])
@pytest.mark.process
def test_combat_json_loads_neither_rich_nor_icepool_nor_the_sheets(args):
    from test_startup import _modules_after

    out, modules = _modules_after([*args, "--json", "--seed", "7"])
    assert json.loads(out.splitlines()[0])["command"] == args[1]
    assert not [m for m in modules if m.split(".")[0] in ("rich", "icepool", "tomllib", "tomli")]
    assert "rpgdice.table.sheets" not in modules and "rpgdice.rulesets.seyruun.odds" not in modules


def test_the_log_replays_combat_and_a_replay_charges_no_target(table):
    first = cli_one("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense", "dexterity+athletics",
                    "--defender-willpower", "--damage", "2", "--soak", "constitution", "--seed", "5", "--log")
    assert first["vs_spent"] == {"willpower": 1} and _willpower("ghoul") == 1
    ok("seyruun", "initiative", "ysolde", "Bandit=2+2", "--seed", "3", "--log")
    for entry in ("1", "2"):
        shown = ok("log", "show", entry, "--json", "--replay").json()[0]
        assert shown["replayed"] is True, shown
    assert _willpower("ghoul") == 1  # replaying the attack paid nothing again
    assert shown["results"][0]["order"][0]["name"] in ("Ysolde", "Bandit")


@settings(max_examples=100)
@given(att=pools, dfn=st.one_of(st.none(), pools), damage=terms, soak=terms, seed=st.integers(0, 2**32))
def test_the_most_an_attack_rolls_bounds_every_attack(att, dfn, damage, soak, seed):
    if damage is None:
        soak = None
    spec = seyruun.SeyruunAttack(attack=att, defense=dfn, damage=damage, soak=soak)
    r = seyruun.roll_attack(spec, SeededDice(seed))
    assert sum(len(x.dice) for x in r.rolls) <= spec.most_dice
    assert len(r.rolls) <= spec.most_rolls


def test_the_most_an_initiative_rolls():
    spec = seyruun.SeyruunInitiative(combatants=(seyruun.Combatant("a", 5, 5, (5,)),
                                                 seyruun.Combatant("b", 0, 0)))
    r = seyruun.roll_initiative(spec, SeededDice(1))
    assert sum(len(x.dice) for x in r.rolls) == spec.most_dice == 11 and spec.most_rolls == 2


def test_combat_is_held_to_the_work_budget(table):
    from rpgdice.cli.common import WORK_BUDGET

    spec = seyruun.SeyruunAttack(attack=seyruun.SeyruunPool(5, 5, (5,)), defense=seyruun.SeyruunPool(5, 5),
                                 damage=(5,), soak=(5,))
    most = WORK_BUDGET // (spec.most_dice + 10 * spec.most_rolls)
    args = ("seyruun", "attack", "5+5+5", "--defense", "5+5", "--damage", "5", "--soak", "5", "--seed", "1")
    assert_usage_error(cli(*args, "-n", str(most + 1)), "-n", "budget", str(most))
    # The target pays nothing for a command refused over the budget.
    assert_usage_error(cli("seyruun", "attack", "5+5+5", "--vs", "ghoul", "--defense", "5+5",
                           "--defender-willpower", "--damage", "5", "--soak", "5", "--seed", "1",
                           "-n", str(most + 1)), "budget")
    assert _willpower("ghoul") == 2
    many = [f"C{i}=5+5" for i in range(seyruun.MAX_COMBATANTS)]
    assert_usage_error(cli("seyruun", "initiative", *many, "--seed", "1", "-n", "1000"), "-n", "budget")
