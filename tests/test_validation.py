"""Bad input, case by case: exit 2, one line on stderr naming the argument and what it
accepts, nothing on stdout, no traceback; and bounded work for any input."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import typer

from conftest import assert_usage_error, cli, cli_json, proc
from rpgdice.cli import params
from rpgdice.core.dice import MAX_POOL

POOL_ACCEPTS = "accepts a number such as 5, or a sum such as 4+2 or 3+2+1-2"

# (command line, fragments the one error line must contain)
BAD = [
    # Numbers that are not plain whole numbers, as a pool (a sum is parsed, never evaluated).
    (["crytures", "roll", ""], ["POOL: ''", POOL_ACCEPTS]),
    (["crytures", "roll", "٣"], ["POOL: '٣'", POOL_ACCEPTS]),
    (["crytures", "roll", "３"], ["POOL: '３'", POOL_ACCEPTS]),
    (["crytures", "roll", "+"], ["POOL: '+'", POOL_ACCEPTS]),
    (["crytures", "roll", "1++2"], ["POOL: '1++2'", POOL_ACCEPTS]),
    (["crytures", "roll", "4+"], ["POOL: '4+'"]),
    (["crytures", "roll", "0x10"], ["POOL: '0x10'", POOL_ACCEPTS]),
    (["crytures", "roll", "1e3"], ["POOL: '1e3'", POOL_ACCEPTS]),
    (["crytures", "roll", "2*3"], ["POOL: '2*3'"]),
    (["crytures", "roll", "__import__('os')"], ["POOL: '__import__('os')'"]),
    (["crytures", "roll", "3\x00"], ["POOL: '3\\x00'"]),
    (["crytures", "roll", str(10**30)], ["POOL:", "more than 1000"]),
    (["crytures", "roll", "600+600"], ["POOL: '600+600' is more than 1000"]),
    (["crytures", "roll", "-3"], ["-3:", "POOL cannot be negative"]),
    (["crytures", "roll", "-0"], ["-0:", "POOL cannot be negative"]),
    (["crytures", "roll", "--", "-3"], ["POOL: '-3' is negative"]),
    # Options' values.
    (["crytures", "roll", "3", "-d", "0"], ["-d: 0 is out of range", "from 1 to"]),
    (["crytures", "roll", "3", "--difficulty", "0"], ["--difficulty: 0 is out of range"]),
    (["crytures", "roll", "3", "-c", "1.5"], ["-c: '1.5' is not a whole number"]),
    (["crytures", "roll", "3", "--die-mod", "+-1"], ["--die-mod: '+-1'"]),
    (["crytures", "roll", "3", "--die-mod", "99999999999999999999999"],
     ["--die-mod:", "out of range", "from -1000 to 1000"]),
    (["crytures", "roll", "3", "--roll-mod", "1e3"], ["--roll-mod: '1e3'"]),
    (["seyruun", "roll", "3", "--actions", "0"], ["--actions: 0 is out of range"]),
    (["seyruun", "roll", "3", "--bonus", "-1"], ["--bonus: -1 is out of range"]),
    (["seyruun", "roll", "3", "-d", "0"], ["-d: 0 is out of range"]),
    (["reglas", "roll", "5", "--attempt", "0"], ["--attempt: 0 está fuera de rango"]),
    (["reglas", "roll", "5", "--raise", "-1"], ["--raise: -1 está fuera de rango"]),
    # An option is named as it was typed: an alias, a short name, a second spelling.
    (["reglas", "roll", "5", "--niveles", "-1"], ["--niveles: -1 está fuera de rango"]),
    (["reglas", "roll", "5", "--niveles=x"], ["--niveles: 'x' no es un número entero"]),
    (["reglas", "roll", "5", "--intento", "0"], ["--intento: 0 está fuera de rango"]),
    (["reglas", "roll", "5", "--dificultad", "dura"], ["--dificultad: 'dura'"]),
    (["crytures", "roll", "3", "-d0"], ["-d: 0 is out of range"]),
    (["crytures", "roll", "3", "--times", "0"], ["--times: 0 is out of range"]),
    (["cypher", "task", "-d", "11"], ["-d: 11 is out of range", "0 to 10"]),
    (["cypher", "task", "-d", "5", "--asset", "3"], ["--asset: 3", "0 to 2"]),
    (["cypher", "task", "-d", "5", "--effort", "7"], ["--effort: 7", "0 to 6"]),
    (["cypher", "task", "-d", "5", "--edge", "-1"], ["--edge: -1"]),
    # Named levels: what they accept, and the closest name on a typo.
    (["seyruun", "roll", "3", "--wound", "mortal"],
     ["--wound: 'mortal' is not one of none, light, moderate, severe, crippled"]),
    (["seyruun", "roll", "3", "--wound", "sever"], ["--wound:", "(did you mean 'severe'?)"]),
    (["seyruun", "roll", "3", "-d", "legendry"], ["-d:", "did you mean 'legendary'"]),
    (["reglas", "roll", "5", "-d", "muy dificl"], ["-d:", "¿quisiste decir 'muy-dificil'?"]),
    (["cypher", "task", "-d", "heroik"], ["-d:", "did you mean 'heroic'", "0 to 10"]),
    (["cypher", "task", "-d", "3", "--skill", "traned"], ["--skill:", "did you mean 'trained'"]),
    (["seyruun", "roll", "3", "--wound", ""], ["--wound: ''"]),
    (["seyruun", "roll", "3", "--wound", "x" * 5000], ["--wound: 'xxxx", "…'"]),
    # Click's own errors, each as one line naming the argument.
    (["crytures", "roll"], ["POOL: missing", POOL_ACCEPTS]),
    (["cypher", "task"], ["--difficulty: missing", "routine", "0 to 10"]),
    (["cypher", "task", "5"], ["--difficulty: missing", "'5'", "(did you mean -d 5?)", "0 to 10"]),
    (["cypher", "odds", "demanding"], ["--difficulty: missing", "(did you mean -d demanding?)"]),
    (["seyruun", "extended", "3", "2", "10"], ["--target: missing", "(did you mean --target 10?)"]),
    (["reglas", "team", "5", "6", "-d"], ["-d: necesita un valor"]),
    (["crytures", "roll", "3", "--difficulty"], ["--difficulty: needs a value", "from 1 to"]),
    (["crytures", "roll", "3", "-n"], ["-n: needs a value", "1 to 100000"]),
    (["crytures", "roll", "3", "--attack=yes"], ["--attack: is a flag and takes no value"]),
    (["crytures", "roll", "3", "--json=1"], ["--json: is a flag"]),
    (["crytures", "roll", "3", "--bogus"], ["--bogus: no such option", "--die-mod"]),
    (["crytures", "roll", "3", "--die-md", "1"], ["--die-md: no such option", "did you mean", "--die-mod"]),
    (["crytures", "roll", "3", "4", "5"], ["extra argument", "(4 5)"]),  # two words are a sum
    (["crytur"], ["COMMAND: 'crytur'", "crytures, seyruun, reglas, cypher", "did you mean 'crytures'"]),
    (["dice"], ["COMMAND: 'dice'", "crytures, seyruun, reglas, cypher"]),
    (["crytures", "rol", "3"], ["COMMAND: 'rol'", "rpgdice crytures", "did you mean 'roll'"]),
    (["--bogus"], ["--bogus: no such option"]),
    (["--version=2"], ["--version: is a flag"]),
    # Repetitions and pools: at most 100000 and 1000, refused at once.
    (["crytures", "roll", "3", "-n", "100001"], ["-n: 100001 is out of range", "1 to 100000"]),
    (["crytures", "roll", "3", "-n", "0"], ["-n: 0 is out of range"]),
    (["crytures", "roll", "3", "-n", str(10**30)], ["-n:", "out of range"]),
    (["crytures", "roll", "1000", "--die-mod", "1"], ["POOL: a pool of 1001 dice", "limit of 1000"]),
    (["crytures", "roll", "600+400", "--die-mod", "1000", "--die-mod", "1000"],
     ["--die-mod:", "adding up to 2000", "more than 1000"]),
    (["seyruun", "roll", "999", "2"], ["a pool of 1001 dice"]),
    # Given faces.
    (["crytures", "roll", "3", "--dice", "0,1,2"], ["--dice: face 0 is not on a d10"]),
    (["crytures", "roll", "3", "--dice", "1,2,11"], ["--dice: face 11 is not on a d10"]),
    (["cypher", "task", "-d", "3", "--dice", "21"], ["--dice: face 21 is not on a d20"]),
    (["crytures", "roll", "3", "--dice", "1,2"], ["--dice: too few faces"]),
    (["crytures", "roll", "3", "--dice", "1,2,3,4"], ["--dice: too many faces"]),
    (["crytures", "roll", "0", "--dice", "1"], ["--dice: too many faces"]),
    (["cypher", "task", "-d", "routine", "--dice", "5,6"], ["--dice: too many faces"]),
    (["crytures", "roll", "3", "--dice", "a,b,c"], ["--dice: 'a' is not a face"]),
    (["crytures", "roll", "3", "--dice", ""], ["--dice: too few faces: 0 given"]),
    (["crytures", "roll", "3", "--dice", "1,2,٣"], ["--dice: '٣' is not a face"]),
    (["crytures", "roll", "3", "--dice", "1,2," + "9" * 40], ["--dice: face", "not on any die"]),
    (["crytures", "roll", "2", "-n", "2", "--dice", "1,2,3"], ["--dice: too few faces"]),
    # Impossible combinations and seeds.
    (["crytures", "roll", "3", "--dice", "1,2,3", "--seed", "4"], ["--dice: cannot be combined with --seed"]),
    (["crytures", "roll", "3", "--seed", "-1"], ["--seed: -1 is out of range"]),
    (["crytures", "roll", "3", "--seed", str(2**64)], ["--seed:", "out of range"]),
    (["crytures", "roll", "3", "--seed", "abc"], ["--seed: 'abc' is not a whole number"]),
]


@pytest.mark.parametrize("args,fragments", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(args, fragments):
    assert_usage_error(cli(*args), *fragments)


@pytest.mark.parametrize("value", ["junk", "-5", "1.5", str(2**64), "٣"])
def test_junk_rpgdice_seed_is_a_usage_error_naming_the_variable(value):
    run = cli("crytures", "roll", "3", env={"RPGDICE_SEED": value})
    assert_usage_error(run, "RPGDICE_SEED:")
    assert "--seed" not in run.stderr


def test_an_exported_seed_gives_way_to_given_dice():
    (obj,) = cli("crytures", "roll", "2", "--dice", "10,1", "--json",
                 env={"RPGDICE_SEED": "7"}).json()
    assert [d["face"] for d in obj["dice"]] == [10, 1]


def test_an_empty_rpgdice_seed_is_no_seed():
    run = cli("crytures", "roll", "2", "--json", env={"RPGDICE_SEED": ""})
    assert run.exit_code == 0, run.stderr


def test_largest_seed_is_accepted():
    run = cli("crytures", "roll", "2", "--json", "--seed", str(2**64 - 1))
    assert run.exit_code == 0, run.stderr


def test_padded_and_signed_numbers_that_are_whole_numbers_are_accepted():
    assert cli_json("crytures", "roll", " 3 ", "--die-mod", "+1", "--roll-mod", "-0",
                    "--seed", "5")[0]["pool"] == 4
    assert cli_json("crytures", "roll", "0003", "--seed", "5")[0]["pool"] == 3
    assert cli_json("crytures", "roll", "2 + 1", "--seed", "5")[0]["pool"] == 3


def test_die_modifiers_may_remove_every_die_but_not_add_past_the_limit():
    assert cli_json("crytures", "roll", "3", "--die-mod", "-1000")[0]["pool"] == 0
    assert cli_json("crytures", "roll", "999", "--die-mod", "1", "--seed", "1")[0]["pool"] == MAX_POOL


def test_control_characters_never_reach_the_terminal():
    run = cli("crytures", "roll", "3\x1b[31m\x00\n")
    assert_usage_error(run, "POOL:")
    assert "\x1b" not in run.stderr and "\x00" not in run.stderr


def test_very_long_input_is_refused_quickly_and_echoed_short():
    blob = "7" * 200_000
    started = time.perf_counter()
    runs = [cli("crytures", "roll", blob), cli("crytures", "roll", "3", "--dice", blob),
            cli("seyruun", "roll", "3", "--wound", "z" * 200_000),
            cli("crytures", "roll", "3", "--die-mod", blob), cli("crytures", "roll", "3", blob)]
    assert time.perf_counter() - started < 5
    for run in runs:
        assert_usage_error(run)
        assert len(run.stderr) < 600, len(run.stderr)


def test_huge_repetitions_are_refused_before_any_roll(monkeypatch):
    from rpgdice.roll import execute

    rolled = []
    monkeypatch.setattr(execute, "make_source", lambda *a: rolled.append(a))
    assert_usage_error(cli("crytures", "roll", "1000", "-n", "100001"), "-n: 100001")
    assert rolled == []


def test_an_internal_error_is_one_line_exit_1_not_a_traceback(monkeypatch):
    from rpgdice.rulesets.crytures import rules as crytures

    def broken(spec, source):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(crytures, "roll", broken)
    run = cli("crytures", "roll", "3")
    assert run.exit_code == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        "rpgdice: error: internal error: ZeroDivisionError: boom "
        "(set RPGDICE_DEBUG=1 for details; please report it)"
    ]


def test_streamed_json_matches_rolling_everything_first(monkeypatch):
    streamed = cli("seyruun", "roll", "4", "4", "--json", "-n", "600", "--seed", "11").stdout
    from rpgdice.render import jsonl

    monkeypatch.setattr(jsonl, "CHUNK", 10**6)
    whole = cli("seyruun", "roll", "4", "4", "--json", "-n", "600", "--seed", "11").stdout
    assert streamed == whole
    assert len(streamed.splitlines()) == 600


@pytest.mark.parametrize("text", ["", "٣", "1e3", "0x10", "+", "1++2", "3\x00", "9" * 5000,
                                  "0" * 5000 + "11", "--", "١٢", "-0" + "0" * 30 + "1"])
def test_integer_parser_refuses_with_a_reason(text):
    with pytest.raises(typer.BadParameter) as caught:
        params.integer(0, 10)(text)
    assert "accepts a whole number from 0 to 10" in caught.value.message


def test_leading_zeros_do_not_make_a_number_huge():
    assert params.integer(0, 10)("0" * 5000 + "7") == 7
    assert params.pool_sum()("0" * 5000 + "7+1") == 8


def test_parsers_never_evaluate():
    # A sum is split on '+' and '-', each term checked against [0-9]+; nothing is eval'd.
    assert params.pool_sum()("4+2") == 6
    assert params.pool_sum()("4-2") == 2
    for text in ("4*2", "(4)", "4+2j", "True", "len('x')"):
        with pytest.raises(typer.BadParameter):
            params.pool_sum()(text)


@pytest.mark.process
@pytest.mark.slow
def test_real_process_bad_input_exits_2_with_one_line():
    for args in (["crytures", "roll", "٣"], ["nope"], ["crytures", "roll", "3", "-n", "100001"],
                 ["crytures", "roll", "3", "--dice", "1,2"]):
        done = proc(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == ""
        assert "Traceback" not in done.stderr
        assert len(done.stderr.splitlines()) == 1
        assert done.stderr.startswith("rpgdice: error: ")


@pytest.mark.process
def test_undecodable_arguments_are_refused_with_escapes():
    # Bytes that are not UTF-8 reach Python as lone surrogates; they are echoed escaped.
    done = subprocess.run(
        [sys.executable, "-m", "rpgdice", "crytures", "roll", b"\xff\xfe"],
        capture_output=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("ascii").startswith("rpgdice: error: POOL: '\\udcff\\udcfe'")


@pytest.mark.process
def test_a_terminal_that_cannot_show_a_character_still_gets_the_roll():
    done = proc("crytures", "roll", "5", "--seed", "1", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert "Difficulty 6" in done.stdout


@pytest.mark.process
def test_a_closed_pipe_is_not_a_success_and_no_error_either():
    done = subprocess.run(
        f"set -o pipefail; '{sys.executable}' -m rpgdice crytures roll 5 -n 50000 --json --seed 1 | head -c 10",
        shell=True, capture_output=True, text=True, timeout=60, executable="/bin/bash",
    )
    assert done.stdout.startswith('{"ruleset"')
    # CLI.md: a reader that closed the pipe early is no error to report: exit 141
    # (as a program ended by SIGPIPE), nothing on stderr.
    assert done.stderr == ""
    assert done.returncode == 141


def test_one_line_keeps_a_kept_part_whole_and_squeezes_the_rest():
    from rpgdice.cli.output import LONG_WORD, one_line

    assert one_line("EXPR:  '  2d6 +x'  —  bad\n at 8", keep="'  2d6 +x'") == "EXPR: '  2d6 +x' — bad at 8"
    assert one_line("a  b", keep="not there") == "a b"
    # a part too long or not printable to keep is squeezed and cut as any other
    long = "x " * LONG_WORD
    assert one_line(f"E: {long}", keep=long) == "E: " + " ".join(["x"] * LONG_WORD)
    assert one_line("E: a\n b", keep="a\n b") == "E: a b"
