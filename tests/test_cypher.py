"""The Cypher System (seed 004 plus the SRD points in RULES.md), with given faces."""

import pytest

from conftest import assert_usage_error, cli, cli_one
from rpgdice.rulesets.cypher.rules import DIFFICULTIES, CypherTask, effort_cost, evaluate


def test_trained_eases_difficulty_3_to_2():
    task = CypherTask(3, skill="trained")
    assert (task.effective_difficulty, task.target) == (2, 6)


@pytest.mark.parametrize("difficulty, target", [(2, 6), (5, 15)])
def test_target_is_three_times_difficulty(difficulty, target):
    assert CypherTask(difficulty).target == target
    assert cli_one("cypher", "task", "-d", str(difficulty), "--dice", "10")["target"] == target


def test_design_card_example():
    obj = cli_one("cypher", "task", "--difficulty", "5", "--ease", "2", "--dice", "9")
    assert (obj["effective_difficulty"], obj["target"], obj["roll"], obj["outcome"]) == (3, 9, 9, "success")
    assert cli_one("cypher", "task", "--difficulty", "5", "--ease", "2", "--dice", "8")["outcome"] == "failure"


def test_names():
    assert DIFFICULTIES["routine"] == 0 and DIFFICULTIES["impossible"] == 10
    assert cli_one("cypher", "task", "-d", "Challenging", "--dice", "15")["difficulty"] == 5


def test_routine_succeeds_without_a_roll():
    obj = cli_one("cypher", "task", "-d", "2", "--ease", "1", "--asset", "1")
    assert obj["routine"] and obj["outcome"] == "success"
    assert obj["roll"] is None and obj["target"] is None and obj["effective_difficulty"] == 0
    assert_usage_error(cli("cypher", "task", "-d", "0", "--dice", "5,6"), "--dice", "too many")
    assert "routine" in cli("cypher", "task", "-d", "routine").stdout


@pytest.mark.parametrize("args, outcome", [
    (("-d", "7"), "failure"), (("-d", "impossible", "--bonus", "2"), "failure"),
    (("-d", "0"), "success"), (("-d", "2", "--ease", "2"), "success"),
])
@pytest.mark.parametrize("face", [1, 20])
def test_a_hand_thrown_d20_on_a_task_that_needs_no_roll_is_recorded(args, outcome, face):
    # A GM records the die the player already threw: the face is kept (roll, total,
    # special), the verdict is the rules' own without a roll, exit 0 (CLI.md, "cypher task").
    run = cli("cypher", "task", *args, "--dice", str(face), "--json")
    assert run.exit_code == 0, run.stderr
    obj = __import__("json").loads(run.stdout)
    bonus = obj["bonus"]
    assert (obj["roll"], obj["total"], obj["outcome"]) == (face, face + bonus, outcome)
    assert obj["special"] == ("gm_intrusion" if face == 1 else "major_effect")
    assert obj["routine"] or obj["impossible"]
    shown = " ".join(cli("cypher", "task", *args, "--dice", str(face)).stdout.split())
    assert f"d20 {face}" in shown and "only recorded" in shown
    assert ("Success" if outcome == "success" else "Failure") in shown


def test_effective_difficulty_is_raw():
    assert cli_one("cypher", "task", "-d", "1", "--ease", "4")["effective_difficulty"] == -3


def test_impossible_target_fails_without_a_roll():
    obj = cli_one("cypher", "task", "-d", "impossible")  # target 30 > 20
    assert obj["impossible"] and obj["outcome"] == "failure" and obj["roll"] is None
    # A bonus that makes it reachable means a roll is made.
    obj = cli_one("cypher", "task", "-d", "10", "--bonus", "10", "--dice", "20")
    assert not obj["impossible"] and obj["total"] == 30 and obj["outcome"] == "success"


def test_skill_levels():
    assert CypherTask(4, skill="specialized").effective_difficulty == 2
    assert CypherTask(4, skill="inability").effective_difficulty == 5


def test_asset_and_effort_bounds_are_usage_errors():
    assert_usage_error(cli("cypher", "task", "-d", "4", "--asset", "3"), "--asset")
    assert_usage_error(cli("cypher", "task", "-d", "4", "--effort", "7"), "--effort")
    assert_usage_error(cli("cypher", "task", "-d", "11"), "-d: 11")
    assert_usage_error(cli("cypher", "task", "-d", "4", "--dice", "21"), "--dice", "d20")


@pytest.mark.parametrize("levels, edge, cost", [(0, 0, 0), (1, 0, 3), (2, 0, 5), (3, 0, 7), (2, 1, 4), (1, 5, 0)])
def test_effort_cost(levels, edge, cost):
    assert effort_cost(levels, edge) == cost


def test_effort_eases_and_costs():
    obj = cli_one("cypher", "task", "-d", "5", "--effort", "2", "--edge", "1", "--dice", "10")
    assert (obj["effective_difficulty"], obj["effort_cost"]) == (3, 4)


@pytest.mark.parametrize(
    "roll, attack, special",
    [
        (1, False, "gm_intrusion"), (17, False, None), (17, True, "plus_1_damage"),
        (18, True, "plus_2_damage"), (18, False, None), (19, False, "minor_effect"),
        (20, True, "major_effect"), (10, True, None),
    ],
)
def test_special_rolls(roll, attack, special):
    assert evaluate(CypherTask(3, attack=attack), roll).special == special


def test_bonus_adds_to_the_roll():
    r = evaluate(CypherTask(4, bonus=2), 10)
    assert (r.total, r.outcome) == (12, "success")


def test_json_keys():
    obj = cli_one("cypher", "task", "-d", "3", "--dice", "1")
    for key in ("ruleset", "command", "difficulty", "effective_difficulty", "target", "roll", "total",
                "routine", "impossible", "effort_cost", "special", "outcome"):
        assert key in obj
    assert obj["command"] == "task" and obj["special"] == "gm_intrusion"
    assert "GM intrusion" in cli("cypher", "task", "-d", "3", "--dice", "1").stdout


# Recovery and damage (RULES.md "Cypher damage and recovery") ----------------------------


def test_the_odds_of_a_recovery_roll_are_1d6_plus_tier():
    from conftest import cli, make_character

    make_character("Ana", "cypher", {"might-max": 20}, might=5, speed=5, intellect=5, tier=3)
    import json

    run = cli("cypher", "recover", "--as", "Ana", "--odds", "--json", "--dice", "2")
    assert run.exit_code == 0, run.stderr
    odds = json.loads(run.stdout)["odds"]
    assert sorted(odds["points"]) == [str(k) for k in range(4, 10)]
    assert all(abs(p - 1 / 6) < 1e-12 for p in odds["points"].values())
    assert abs(odds["outcome"] - 1 / 6) < 1e-12
    text = cli("cypher", "recover", "--as", "Ana", "--odds", "--dice", "6", "--reset").stdout
    assert "16.7% of 9 points" in text


def test_a_logged_recovery_replays_and_writes_nothing():
    from conftest import cli, make_character, ok

    path = make_character("Ana", "cypher", might=5, speed=5, intellect=5)
    ok("char", "set", "Ana", "might=1")
    ok("cypher", "recover", "--as", "Ana", "--dice", "3", "--log")
    after = path.read_text()
    assert "recoveries = 1" in after and "might = 5" in after
    shown = cli("log", "show", "1")
    assert shown.exit_code == 0 and "d6 3 + tier 1 = 4 points" in shown.stdout
    assert path.read_text() == after


def test_a_debilitated_character_rolls_with_a_warning():
    from conftest import cli, make_character

    make_character("Bo", "cypher", might=0, speed=0, intellect=4)
    run = cli("cypher", "task", "-d", "1", "--as", "Bo", "--dice", "10")
    assert run.exit_code == 0
    assert "Bo is debilitated: no action but to move" in run.stderr
    assert "debilitated" in cli("char", "show", "Bo").stdout


def test_damage_needs_an_attack_a_target_and_the_target_pays_nothing_on_a_replay():
    from conftest import assert_usage_error, cli, make_character

    path = make_character("Ana", "cypher", might=5, speed=5, intellect=5)
    assert_usage_error(cli("cypher", "task", "-d", "1", "--damage", "2", "--vs", "Ana",
                           "--dice", "10"), "--attack")
    assert_usage_error(cli("cypher", "task", "-d", "1", "--attack", "--damage", "2",
                           "--dice", "10"), "--vs")
    assert_usage_error(cli("cypher", "task", "-d", "1", "--attack", "--damage", "2", "--vs",
                           "Nobody", "--dice", "10"), "Nobody")
    run = cli("cypher", "task", "-d", "1", "--attack", "--damage", "2", "--vs", "Ana",
              "--dice", "10", "--log")
    assert run.exit_code == 0 and "Ana: 2 damage (Might 5 → 3), now hale" in run.stdout
    after = path.read_text()
    assert "might = 3" in after
    assert cli("log", "show", "1").exit_code == 0
    assert path.read_text() == after


def test_a_recovery_with_every_pool_full_is_refused_and_uses_up_nothing():
    from conftest import cli, make_character, ok

    path = make_character("Zora", "cypher", might=9, speed=8, intellect=14)
    run = cli("cypher", "recover", "--as", "Zora", "--dice", "4", "--log")
    assert run.exit_code == 2 and "Pools are full" in run.stderr and run.stdout == ""
    assert "recoveries" not in path.read_text(encoding="utf-8")
    ok("char", "set", "Zora", "might-=3")
    assert ok("cypher", "recover", "--as", "Zora", "--dice", "4", "--json").json()[0]["points"] == 5


@pytest.mark.parametrize("split", ["might=x", "health=2", "might=1,might=2", "might"])
def test_a_recovery_split_that_names_no_pool_is_a_usage_error(split):
    from conftest import make_character

    make_character("Ana", "cypher", might=1, speed=5, intellect=5)
    run = cli("cypher", "recover", "--as", "Ana", "--to", split, "--dice", "3")
    assert_usage_error(run, "--to", "is not POOL=N[,POOL=N...] of might, speed, intellect")


def test_an_impaired_characters_effort_cost_is_stated_as_charged():
    # Nix (Might 0: impaired, Speed 12, no Speed Edge): Effort 1 charges 3 + 1 = 4 Speed,
    # and every place that states the cost says 4 (issue 43, item 1).
    from conftest import character, ok

    character("Nix", might=0, **{"might-max": 10})
    args = ("cypher", "task", "-d", "3", "--effort", "1", "--pool", "speed", "--as", "Nix")
    shown = " ".join(ok(*args, "--dice", "9").stdout.split())
    assert "spent 4 Speed, 8 left" in shown
    assert "Effort 1: costs 4 Pool points (after Edge; 1 more, impaired)" in shown
    obj = ok(*args, "--dice", "9", "--json").json()[0]
    assert (obj["effort_cost"], obj["spent"], obj["effort_surcharge"]) == (4, {"speed": 4}, 1)
    odds = " ".join(ok("cypher", "odds", *args[2:], "--compare", "--effort 2").stdout.split())
    assert "Effort costs 4 Pool points" in odds
    assert "as given 75.0% 25.0% 4 from the Pool" in odds
    assert "with --effort 2 90.0% 10.0% 7 from the Pool" in odds
    assert effort_cost(2, 1, impaired=True) == 6 and effort_cost(1, 5, impaired=True) == 1


@pytest.mark.parametrize("args", [("-d", "0"), ("-d", "1", "--ease", "1"), ("-d", "10"),
                                  ("-d", "9", "--bonus", "1")])
@pytest.mark.slow
def test_a_task_that_needs_no_roll_is_not_changed_by_a_recorded_face(args):
    # Every face of the d20 recorded on a routine or impossible attack with Effort: the same
    # verdict, damage, Pool points as unrolled; the face and its special stay recorded, and
    # the view says it had no effect (issue 43, item 4; CLI.md "cypher task").
    from conftest import character, make_character, ok, sheet_file

    def fresh() -> None:
        for key in ("nix", "ana"):
            sheet_file(key).unlink(missing_ok=True)
        character("Nix")
        make_character("Ana", "cypher", might=10, speed=12, intellect=8, armor=1)

    command = ("cypher", "task", *args, "--attack", "--damage", "2", "--vs", "Ana",
               "--effort", "1", "--pool", "speed", "--as", "Nix")
    keys = ("outcome", "verdict", "tone", "vs_damage", "vs_state", "spent", "left", "effort_cost")
    for face in [None, *range(1, 21)]:
        fresh()
        dice = () if face is None else ("--dice", str(face))
        obj = ok(*command, *dice, "--json").json()[0]
        if face is None:
            unrolled = {k: obj[k] for k in keys}
            assert obj["roll"] is None
            continue
        assert {k: obj[k] for k in keys} == unrolled, face
        assert obj["roll"] == face and obj["special"] == evaluate(
            CypherTask(3, attack=True), face).special
        if obj["special"]:
            fresh()
            shown = " ".join(ok(*command, *dice).stdout.split())
            assert "had no effect: the task needed no roll" in shown, shown
            assert "not lost" not in shown and "GM intrusion ·" not in shown


@pytest.mark.parametrize("split", ["might=4,speed=5", "speed=1,might=2", "intellect=9",
                                   "might=0", "speed=3,intellect=3,might=3"])
def test_a_recovery_roll_is_never_thrown_away(split):
    # Whatever the face, a split the sheet can take uses the roll: the points go where
    # the output says, every one of them (issue 43, item 2).
    from conftest import make_character, ok, sheet_file

    for face in range(1, 7):
        sheet_file("ana").unlink(missing_ok=True)
        make_character("Ana", "cypher", might=5, speed=8, intellect=6)
        ok("char", "set", "Ana", "might=1", "speed=6", "intellect=2")
        r = ok("cypher", "recover", "--as", "Ana", "--to", split, "--dice", str(face),
               "--json").json()[0]
        assert r["points"] == face + 1 and sum(r["to"].values()) + r["lost"] == r["points"]
        room = {"might": 4, "speed": 2, "intellect": 4}
        assert r["pools"] == {p: v + r["to"].get(p, 0) for p, v in
                              {"might": 1, "speed": 6, "intellect": 2}.items()}
        assert all(r["to"][p] <= room[p] for p in r["to"])
        asked = [(p, int(n)) for p, n in (x.split("=") for x in split.split(","))]
        left = r["points"]
        for pool, n in asked:  # the named Pools first, in order, as far as the roll goes
            assert r["to"][pool] >= min(n, left, room[pool]), (face, r["to"])
            left -= min(n, left, room[pool])
        saved = sheet_file("ana").read_text(encoding="utf-8")
        assert f"might = {r['pools']['might']}" in saved and "recoveries = 1" in saved


def test_a_split_wrong_whatever_the_roll_is_refused_before_rolling():
    from conftest import make_character, ok

    path = make_character("Ana", "cypher", might=5, speed=8, intellect=6)
    before = path.read_text(encoding="utf-8")
    run = cli("cypher", "recover", "--as", "Ana", "--to", "might=2", "--log")
    assert_usage_error(run, "--to", "Might is full", "nothing was rolled")
    assert "d6" not in run.stderr and path.read_text(encoding="utf-8") == before
    make_character("Bo", "cypher", might=5, speed=8)
    ok("char", "set", "Bo", "might=1")
    run = cli("cypher", "recover", "--as", "Bo", "--to", "intellect=1", "--log")
    assert_usage_error(run, "--to", "no intellect Pool", "nothing was rolled")
    assert "recoveries" not in (path.parent / "bo.toml").read_text(encoding="utf-8")
    assert "The roll log is empty" in cli("log").stdout
    shown = " ".join(ok("cypher", "recover", "--as", "Bo", "--to", "speed=9",
                        "--dice", "6").stdout.split())
    assert "Might +4, 3 lost (every Pool full)" in shown
