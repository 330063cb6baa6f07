"""Command-line behaviour: colors, seeds, repetitions, help, the program itself."""

import json

import pytest

from conftest import assert_usage_error, cli, cli_json, proc

ROLLS = [
    ["crytures", "roll", "6", "--die-mod", "3", "--roll-mod", "2"],
    ["seyruun", "roll", "3", "3", "--bonus", "1"],
    ["reglas", "roll", "5+5", "-d", "normal"],
    ["cypher", "task", "--difficulty", "5", "--ease", "2"],
]
ESC = "\x1b["


@pytest.mark.process
def test_design_card_roll_is_colored_in_a_terminal():
    # FORCE_COLOR stands in for a terminal here.
    run = proc(*ROLLS[0], env={"FORCE_COLOR": "1", "TERM": "xterm-256color"})
    assert run.returncode == 0, run.stderr
    assert ESC in run.stdout
    assert "\x1b[32m" in run.stdout or "\x1b[1;32m" in run.stdout or "\x1b[35m" in run.stdout


@pytest.mark.parametrize("args", ROLLS)
@pytest.mark.process
def test_piped_output_has_no_escape_codes(args):
    run = proc(*args, "--seed", "3")
    assert run.returncode == 0 and run.stdout and ESC not in run.stdout


@pytest.mark.process
def test_force_color_colors_even_a_dumb_terminal():
    run = proc(*ROLLS[0], env={"FORCE_COLOR": "1", "TERM": "dumb"})
    assert run.returncode == 0 and ESC in run.stdout


@pytest.mark.process
def test_no_color_wins_over_force_color():
    run = proc(*ROLLS[0], env={"FORCE_COLOR": "1", "NO_COLOR": "1", "TERM": "xterm-256color"})
    assert run.returncode == 0 and ESC not in run.stdout


@pytest.mark.parametrize("args", ROLLS)
@pytest.mark.process
def test_json_lines_and_nothing_else(args):
    run = proc(*args, "--json", "-n", "3", "--seed", "9", env={"FORCE_COLOR": "1"})
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    objs = [json.loads(line) for line in lines]
    assert {o["ruleset"] for o in objs} == {args[0]}
    assert all("outcome" in o for o in objs)


@pytest.mark.parametrize("args", ROLLS)
@pytest.mark.process
def test_seeded_rolls_repeat(args):
    a = cli_json(*args, "--seed", "1234", "-n", "5")
    b = cli_json(*args, "--seed", "1234", "-n", "5")
    assert a == b
    env = proc(*args, "--json", "-n", "5", env={"RPGDICE_SEED": "1234"})
    assert [json.loads(x) for x in env.stdout.splitlines()] == a


def test_different_seeds_give_different_dice():
    a = cli_json("crytures", "roll", "20", "--seed", "1")
    b = cli_json("crytures", "roll", "20", "--seed", "2")
    assert a[0]["dice"] != b[0]["dice"]


def test_times_repeats_and_given_dice_are_consumed_across_repetitions():
    objs = cli_json("reglas", "roll", "5", "-n", "3", "--dice", "1,5,9")
    assert [o["die"] for o in objs] == [1, 5, 9]
    assert_usage_error(cli("reglas", "roll", "5", "-n", "3", "--dice", "1,5"), "--dice", "faltan caras")


def test_terminal_summary_over_repetitions_in_the_rulesets_words():
    out = cli("reglas", "roll", "5", "-n", "3", "--dice", "1,5,9").stdout
    # Issue 18: outcomes counted as plural nouns in the ruleset's language.
    assert "#3" in out and "3 tiradas: 2 éxitos, 1 fracaso" in out
    out = cli("crytures", "roll", "2", "-n", "3", "--dice", "1,1,6,1,7,7").stdout
    assert "3 rolls: 2 successes, 1 failure" in out  # (1,1) fails; (6,1) and (7,7) succeed


def test_a_summary_counts_botches_and_one_of_a_kind_in_the_singular():
    # 3 3 at Difficulty 6: (1,1,1,1,1,1) botches, the rest succeed.
    out = cli("seyruun", "roll", "3", "3", "-n", "3", "--dice",
              "1,1,1,1,1,1,6,6,6,6,6,6,7,7,7,7,7,7").stdout
    assert out.rstrip().splitlines()[-1] == "3 rolls: 2 successes, 1 botch"
    out = cli("reglas", "roll", "5", "-n", "2", "--dice", "1,1").stdout
    assert out.rstrip().splitlines()[-1] == "2 tiradas: 2 éxitos"


def test_every_outcome_of_every_ruleset_has_its_nouns():
    from rpgdice import rulesets

    for name in rulesets.NAMES:
        record = rulesets.get(name)
        assert set(record.nouns) == set(record.outcomes), name
        for one, many in record.nouns.values():
            assert one.islower() and many.islower() and one != many, name
        for outcome in record.outcomes:
            assert record.counted(outcome, 1) == f"1 {record.nouns[outcome][0]}"
            assert record.counted(outcome, 3) == f"3 {record.nouns[outcome][1]}"


def test_terminal_output_streams_with_random_dice(monkeypatch):
    # Results reach the view one by one (no list of every repetition is built).
    from rpgdice.render import common

    seen = []
    original = common.show

    def spy(results, after=None, total=1, **more):
        seen.append(type(results))
        return original(results, after=after, total=total, **more)

    monkeypatch.setattr(common, "show", spy)
    run = cli("crytures", "roll", "3", "-n", "5", "--seed", "4")
    assert run.exit_code == 0 and run.stdout.count("Crytures roll") == 5
    assert seen and seen[0] is not list


@pytest.mark.process
def test_version_and_module_entry_point():
    run = proc("--version")
    assert run.returncode == 0 and run.stdout.startswith("rpgdice ")
    assert proc("cypher", "task", "-d", "2", "--dice", "6", "--json").returncode == 0


def _every_rolling_command() -> list[list[str]]:
    """Every rolling command of every ruleset the registry lists, as typed."""
    from rpgdice import rulesets

    return [[n, c.name] if rulesets.get(n).group else [c.name]
            for n in rulesets.names() for c in rulesets.get(n).records()]


@pytest.mark.parametrize("cmd", _every_rolling_command(), ids=" ".join)
def test_help_has_an_example(cmd):
    run = cli(*cmd, "--help")
    assert run.exit_code == 0 and ("Example:" in run.stdout or "Ejemplo:" in run.stdout)
    assert f"rpgdice {' '.join(cmd)}" in " ".join(run.stdout.split())


def test_bare_program_shows_help():
    run = cli()
    assert run.exit_code == 0 and "crytures" in run.stdout


@pytest.mark.process
@pytest.mark.slow
def test_errors_are_one_line_without_traceback_in_a_real_process():
    run = proc("seyruun", "roll", "3", "--wound", "mortal")
    assert_usage_error(run, "--wound: 'mortal' is not one of none, light, moderate, severe, crippled")
    assert_usage_error(proc("crytures", "roll", "3", "--seed", "1", "--dice", "1,2,3"), "--seed")
    assert_usage_error(proc("crytures", "roll", "3", "--nope"), "--nope")
    assert_usage_error(proc("cypher", "task"), "--difficulty")
