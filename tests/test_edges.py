"""Issue 14: the edges a real terminal and shell reach — closed and full streams,
pipes closed early, Ctrl-C, encodings and locales, odd widths, long pasted input,
exported seeds, the work budget. Streams and signals go through real processes
(``python -m rpgdice``, the console script's own entry)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import assert_usage_error, cli, cli_json
from rpgdice.cli.common import ROLL_COST, WORK_BUDGET, Work, check_work
from rpgdice.core.errors import RulesError

RPGDICE = [sys.executable, "-m", "rpgdice"]
ROLL = ["crytures", "roll", "3", "--seed", "1"]
VIEWS = [
    ["crytures", "roll", "4", "--seed", "3", "-n", "2", "--odds"],
    ["seyruun", "roll", "3", "3", "--seed", "2", "--reroll"],
    ["seyruun", "contest", "3+2", "2+3", "--seed", "2"],
    ["reglas", "roll", "5+5", "-d", "normal", "--seed", "1", "-n", "3"],
    ["reglas", "multi", "3", "8", "--seed", "1"],
    ["cypher", "task", "-d", "5", "--seed", "1", "--odds"],
    ["crytures", "odds", "5"],
    ["seyruun", "odds", "3", "3"],
    ["reglas", "odds", "5+5", "-d", "normal"],
    ["cypher", "odds", "-d", "5"],
]
HELP = [["--help"], ["reglas", "roll", "--help"], ["seyruun", "contest", "--help"]]
COMPLETIONS = [["completion", "bash"], ["completion", "zsh"], ["completion", "fish"]]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED", "COLUMNS", "LINES",
                        "PYTHONIOENCODING", "TERMINAL_WIDTH", "GITHUB_ACTIONS")}
    env.update(extra)
    return env


def _run(args, *, env=None, close=(), stdout=subprocess.PIPE, timeout=120):
    """Run rpgdice with the given descriptors closed in the child (``>&-``)."""

    def closing():
        for fd in close:
            os.close(fd)

    return subprocess.run([*RPGDICE, *args], stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, env=env or _env(), timeout=timeout,
                          preexec_fn=closing if close else None)


def _one_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert "Traceback" not in text
    return text.rstrip("\n")


# Closed, full and broken streams -----------------------------------------------------


@pytest.mark.process
def test_a_closed_stdout_is_an_undelivered_output_not_a_traceback():
    done = _run(ROLL, close=(1,), stdout=None)
    assert done.returncode == 1
    assert _one_line(done.stderr) == ("rpgdice: error: could not write the output: "
                                      "standard output is closed")


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["completion", "fish"]])
@pytest.mark.process
def test_help_version_and_completion_to_a_closed_stdout_fail_too(args):
    done = _run(args, close=(1,), stdout=None)
    assert done.returncode == 1
    assert "could not write the output" in _one_line(done.stderr)


@pytest.mark.process
def test_bad_input_with_a_closed_stdout_is_still_a_usage_error():
    done = _run(["crytures", "roll", "x"], close=(1,), stdout=None)
    assert done.returncode == 2
    assert _one_line(done.stderr).startswith("rpgdice: error: POOL:")


@pytest.mark.parametrize("args, code", [(["--version"], 0), (ROLL, 0), (["--help"], 0),
                                        (["crytures", "roll", "x"], 2)])
@pytest.mark.process
def test_a_closed_stderr_changes_no_exit_status(args, code):
    done = subprocess.run([*RPGDICE, *args], capture_output=False, stdout=subprocess.PIPE,
                          env=_env(), timeout=60, preexec_fn=lambda: os.close(2))
    assert done.returncode == code
    assert bool(done.stdout) == (code == 0)


@pytest.mark.process
def test_a_closed_stdin_is_no_matter():
    done = _run(ROLL, close=(0,))
    assert done.returncode == 0 and done.stderr == b""


@pytest.mark.slow
@pytest.mark.process
def test_a_full_disk_says_so_and_exits_1():
    with open("/dev/full", "wb") as full:
        for args in (ROLL, [*ROLL, "--json"], ["--help"], ["crytures", "odds", "4"]):
            done = _run(args, stdout=full)
            assert done.returncode == 1, args
            assert _one_line(done.stderr) == ("rpgdice: error: could not write the output: "
                                              "No space left on device"), args


@pytest.mark.parametrize("args", [
    ["crytures", "roll", "1000", "-n", "100", "--json", "--seed", "1"],  # one 4 MB write
    ["crytures", "roll", "100", "-n", "1000", "--seed", "1"],  # 1 MB: over a pipe's buffer
    ["--help"],
])
@pytest.mark.process
@pytest.mark.slow
def test_a_pipe_closed_early_is_never_a_success_and_no_error_to_report(args):
    proc = subprocess.Popen([*RPGDICE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env())
    assert proc.stdout is not None and proc.stderr is not None
    head = proc.stdout.read(10)
    proc.stdout.close()  # `| head -c 10`
    err = proc.stderr.read()
    code = proc.wait(timeout=120)
    assert len(head) == 10
    assert code == 141  # CLI.md: as a program ended by SIGPIPE, and nothing on stderr
    assert err == b""


@pytest.mark.parametrize("command", ["--help", "roll 2d6+1 d20 -n 3000 --seed 1",
                                     "roll 4d6kh3 -n 3000 --seed 1 --breakdown",
                                     "roll 4d6kh3 -n 20000 --seed 1"])
@pytest.mark.process
@pytest.mark.slow
def test_a_real_pipe_to_head_exits_141_and_says_nothing(command):
    # `rpgdice --help | head -1`, through a shell, as a user types it.
    rpgdice = " ".join(f"'{a}'" for a in RPGDICE)
    done = subprocess.run(f"set -o pipefail; {rpgdice} {command} | head -1",
                          shell=True, capture_output=True, text=True, timeout=120,
                          executable="/bin/bash", env=_env())
    assert done.stderr == ""
    assert done.returncode == 141
    assert done.stdout.count("\n") == 1


def test_a_full_disk_is_still_an_error_the_reader_leaving_is_not():
    from rpgdice import streams

    assert streams.reader_left(BrokenPipeError(32, "Broken pipe"))
    assert not streams.reader_left(OSError(28, "No space left on device"))
    assert not streams.reader_left(streams.UndeliveredOutput(9, "standard output is closed"))


def test_a_write_the_system_takes_in_parts_or_interrupts_is_delivered_whole(monkeypatch):
    from rpgdice import streams

    read, write = os.pipe()
    calls: list[int] = []
    real_write = os.write

    def in_parts(fd, data):  # at most 3 bytes a call, and a signal at every other call
        calls.append(len(data))
        if len(calls) % 2 == 0:
            raise InterruptedError
        return real_write(fd, bytes(data[:3]))

    monkeypatch.setattr(streams.os, "write", in_parts)
    try:
        raw = streams._WholeWrites(write)
        assert raw.write(b"hello, table") == 12
        assert raw.write(memoryview(b"one call")[:3]) == 3
        assert os.read(read, 100) == b"hello, tableone"
        # whole first, then what was left after each part (again after an interruption)
        assert calls == [12, 9, 9, 6, 6, 3, 3, 3, 3]
    finally:
        os.close(read)
        os.close(write)


def test_a_write_to_a_pipe_whose_reader_left_is_the_reader_leaving():
    from rpgdice import streams

    read, write = os.pipe()
    os.close(read)
    try:
        with pytest.raises(streams.ReaderLeft):
            streams._WholeWrites(write).write(b"x")
    finally:
        os.close(write)


@pytest.mark.process
def test_stdout_and_stderr_on_one_pipe_closed_early_exit_141():
    # `rpgdice ... 2>&1 | head -c 10`: the error line cannot be delivered either.
    proc = subprocess.Popen([*RPGDICE, "crytures", "roll", "100", "-n", "1000", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=_env())
    assert proc.stdout is not None
    assert len(proc.stdout.read(10)) == 10
    proc.stdout.close()
    assert proc.wait(timeout=120) == 141


# Ctrl-C --------------------------------------------------------------------------------


def _foreground() -> None:
    """A child as a terminal's foreground job gets it: SIGINT at its default (a test run
    started in the background may have it ignored, and that is inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.process
def test_ctrl_c_during_a_roll_exits_130_with_one_line():
    proc = subprocess.Popen([*RPGDICE, "crytures", "roll", "1000", "-n", "990", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
                            preexec_fn=_foreground)
    assert proc.stdout is not None
    proc.stdout.readline()  # it is rolling and printing
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert _one_line(err) == "rpgdice: interrupted"


@pytest.mark.process
def test_ctrl_c_during_start_up_imports_exits_130_with_one_line(tmp_path):
    # A stand-in for Typer that is interrupted while it is being imported.
    shim = tmp_path / "typer"
    shim.mkdir()
    (shim / "__init__.py").write_text(textwrap.dedent("""
        import os, signal, time
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)
    """))
    env = _env(PYTHONPATH=str(tmp_path))
    started = time.monotonic()
    done = subprocess.run([*RPGDICE, *ROLL], capture_output=True, env=env, timeout=60,
                          preexec_fn=_foreground)
    assert time.monotonic() - started < 25
    assert done.returncode == 130
    assert _one_line(done.stderr) == "rpgdice: interrupted"


@pytest.mark.process
def test_a_job_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path):
    # `rpgdice ... &` in a script: SIGINT is ignored from the start, and stays so.
    shim = tmp_path / "typer"
    shim.mkdir()
    (shim / "__init__.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
                                      "from importlib import import_module\n")
    env = _env(PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", "import rpgdice.entry as e; e.run()", *ROLL],
                          capture_output=True, env=env, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert b"interrupted" not in done.stderr  # the signal did nothing; the fake Typer fails later
    assert done.returncode != 130


# Encodings and locales -------------------------------------------------------------------


@functools.cache
def _utf8_lines(args: tuple[str, ...]) -> int:
    return len(_run(list(args), env=_env(PYTHONIOENCODING="utf-8")).stdout.splitlines())


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
@pytest.mark.parametrize("args", HELP[:2] + COMPLETIONS[1:] + [VIEWS[3], VIEWS[6]], ids=" ".join)
@pytest.mark.process
@pytest.mark.slow
def test_every_output_degrades_to_the_stream_encoding(encoding, args):
    done = _run(args, env=_env(PYTHONIOENCODING=encoding))
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    text = done.stdout.decode(encoding)  # what the stream can carry, whole
    assert text.strip() and len(text.splitlines()) == _utf8_lines(tuple(args))


@pytest.mark.parametrize("args", VIEWS + HELP[1:2] + COMPLETIONS[2:], ids=" ".join)
@pytest.mark.process
def test_a_c_locale_gets_plain_ascii(args):
    env = _env(LC_ALL="C", PYTHONUTF8="0")
    env.pop("LANG", None)
    done = _run(args, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert done.stdout.isascii() and done.stdout.strip()


@pytest.mark.process
def test_look_alikes_keep_the_view_readable():
    env = _env(LC_ALL="C", PYTHONUTF8="0")
    done = _run(["reglas", "roll", "5", "--dice", "9"], env=env)
    text = done.stdout.decode("ascii")
    assert "Reglas Basicas . iE 5" in text  # Básicas, ·
    assert "5 - 9 = -4" in text  # true minus signs


@pytest.mark.process
def test_an_undecodable_argument_in_a_c_locale_is_one_escaped_line():
    env = _env(LC_ALL="C", PYTHONUTF8="0")
    done = subprocess.run([*RPGDICE, "crytures", "roll", b"\xff\xfe"], capture_output=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert _one_line(done.stderr).startswith("rpgdice: error: POOL:")


# Widths and colour -----------------------------------------------------------------------


@functools.cache
def _plain(args: tuple[str, ...]) -> bytes:
    return _run(list(args)).stdout


UNUSABLE_WIDTHS = ["COLUMNS=0", "COLUMNS=-5", "COLUMNS=99999999999999999999", "COLUMNS=abc",
                   "COLUMNS=1", "TERMINAL_WIDTH=x", "TERMINAL_WIDTH=0", "LINES=0"]


@pytest.mark.parametrize("width", UNUSABLE_WIDTHS)
def test_an_unusable_width_is_dropped_before_anything_reads_it(width):
    from rpgdice.cli import tidy_environment
    from rpgdice.cli.typer_private import tidy_help_printer

    name, value = width.split("=")
    env = {name: value, "COLUMNS" if name != "COLUMNS" else "LINES": "100"}
    try:
        tidy_environment(env)
    finally:
        tidy_help_printer(os.environ)  # Typer's help printer follows the test's own again
    assert name not in env  # as if it were not given...
    assert len(env) == 1  # ...and a usable one beside it is kept


# One of each variable through a whole process (the one above holds every value to it).
@pytest.mark.parametrize("width", ["COLUMNS=abc", "TERMINAL_WIDTH=0", "LINES=0"])
@pytest.mark.parametrize("args", [["--help"], ["crytures", "odds", "5"]], ids=" ".join)
@pytest.mark.process
@pytest.mark.slow
def test_an_unusable_width_is_no_width(width, args):
    name, value = width.split("=")
    done = _run(args, env=_env(**{name: value}))
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert done.stdout == _plain(tuple(args))  # as if no width were given: 80 columns


@pytest.mark.parametrize("args, forcing", [
    (["--help"], "FORCE_COLOR"), (["crytures", "--help"], "FORCE_COLOR"), (ROLL, "FORCE_COLOR"),
    (["crytures", "odds", "3"], "FORCE_COLOR"), (["--help"], "PY_COLORS"),
    (["reglas", "roll", "--help"], "GITHUB_ACTIONS"),
], ids=str)
@pytest.mark.process
@pytest.mark.slow
def test_no_color_wins_everywhere(args, forcing):
    forced = _run(args, env=_env(**{forcing: "1"}))
    assert b"\x1b[" in forced.stdout  # forcing works alone...
    done = _run(args, env=_env(**{forcing: "1", "NO_COLOR": "1"}))
    assert done.returncode == 0
    assert b"\x1b" not in done.stdout  # ...and NO_COLOR wins over it


# Error lines stay short ------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["seyruun", "contest", "x " * 60000, "3"],
    ["crytures", "roll", "3", "--" + "x " * 3000],
    ["crytures", "roll", "3", *map(str, range(20000))],
    ["reglas", "roll", "5", "-d", "y" * 100000],
    ["crytures", "rol" + "l " * 5000],
    ["crytures", "roll", "3", "--dice", ",".join(["1"] * 50000)],
])
def test_every_error_line_stays_short(args):
    run = cli(*args)
    assert_usage_error(run)
    assert len(run.stderr) < 400, len(run.stderr)


def test_a_cut_line_keeps_both_ends():
    run = cli("crytures", "roll", "3", *map(str, range(20000)))
    line = run.stderr.strip()
    assert "…" in line and line.endswith("usage: rpgdice crytures roll [OPTIONS] POOL")


# Seeds, faces, numbers -------------------------------------------------------------------


def test_a_junk_exported_seed_gives_way_to_given_dice():
    (obj,) = cli("crytures", "roll", "3", "--dice", "1,2,3", "--json",
                 env={"RPGDICE_SEED": "abc"}).json()
    assert [d["face"] for d in obj["dice"]] == [1, 2, 3]


@pytest.mark.parametrize("blank", ["   ", "\t", " \n "])
def test_a_blank_exported_seed_is_unset(blank):
    run = cli("crytures", "roll", "2", "--json", env={"RPGDICE_SEED": blank})
    assert run.exit_code == 0, run.stderr
    assert len(run.json()) == 1


def test_an_exported_seed_with_spaces_is_that_seed():
    spaced = cli("crytures", "roll", "6", "--json", env={"RPGDICE_SEED": " 7 "}).json()
    assert spaced == cli_json("crytures", "roll", "6", "--seed", "7")


@pytest.mark.parametrize("faces", ["7,,8,9", ",7,8,9", "7,8,9,", "7, ,8,9"])
def test_an_empty_face_is_refused(faces):
    assert_usage_error(cli("crytures", "roll", "4", "--dice", faces), "--dice:", "empty face")


def test_faces_with_commas_and_spaces_mixed_are_faces():
    (obj,) = cli_json("crytures", "roll", "3", "--dice", " 7, 8 9 ")
    assert [d["face"] for d in obj["dice"]] == [7, 8, 9]


def test_leading_zeros_in_contest_sides_are_numbers():
    zeros = cli_json("seyruun", "contest", "0000000000003+0002", "003", "--seed", "4")
    assert zeros == cli_json("seyruun", "contest", "3+2", "3", "--seed", "4")


# The work budget and sums of modifiers ---------------------------------------------------


@pytest.mark.parametrize("args", [
    ["crytures", "roll", "1000", "-n", "100000"],
    ["seyruun", "extended", "10", "--target", "1000", "--max-rolls", "1000", "-n", "100"],
    ["reglas", "retry", "1000", "-d", "1000", "--max-attempts", "1000", "-n", "100000"],
    ["reglas", "multi", "1000", "5", "-n", "1000"],
    ["reglas", "extended", "5", "--target", "1000", "--max-rolls", "1000", "-n", "1000"],
    ["seyruun", "roll", "9", "--reroll", "-n", "100000"],
    ["seyruun", "contest", "9", "9", "-n", "100000"],
])
def test_work_over_the_budget_is_refused_at_once_naming_it(args):
    started = time.monotonic()
    run = cli(*args)
    assert time.monotonic() - started < 5  # refused before anything is rolled
    budget = "presupuesto de" if args[0] == "reglas" else "budget of"  # Reglas: in Spanish
    assert_usage_error(run, "error: -n: ", f"{budget} {WORK_BUDGET:,}")  # named as typed


def test_the_largest_repetition_count_the_budget_allows_is_allowed():
    per = Work(dice=1000, rolls=1)
    most = WORK_BUDGET // per.cost
    check_work(per, most)
    with pytest.raises(RulesError, match=f"accepts at most {most} repetitions"):
        check_work(per, most + 1)
    assert per.cost == 1000 + ROLL_COST


def test_every_rolling_command_states_its_work(monkeypatch):
    from rpgdice.roll import execute

    seen = []
    real = execute.check_work

    def spy(work, times):
        seen.append(work)
        real(work, times)

    monkeypatch.setattr(execute, "check_work", spy)
    cases = {
        ("crytures", "roll", "7", "--die-mod", "2"): Work(9, 1),
        ("seyruun", "roll", "4", "2", "--reroll"): Work(12, 2),
        ("seyruun", "extended", "4", "2", "--target", "5", "--max-rolls", "7"): Work(42, 7),
        ("reglas", "retry", "6", "--max-attempts", "9"): Work(9, 9),
        ("reglas", "team", "6", "5", "4"): Work(3, 3),
        ("cypher", "task", "-d", "3"): Work(1, 1),
    }
    for args, work in cases.items():
        seen.clear()
        assert cli(*args, "--seed", "1").exit_code == 0
        assert seen == [work], args


@pytest.mark.parametrize("args, param", [
    (["reglas", "roll", "5", *["--mod=1000"] * 3], "--mod:"),
    (["crytures", "roll", "5", "--roll-mod", "600", "--roll-mod", "401"], "--roll-mod:"),
    (["crytures", "roll", "5", "--die-mod=-600", "--die-mod=-401"], "--die-mod:"),
    (["seyruun", "roll", "3", "--penalty", "999", "--penalty", "2"], "--penalty:"),
    (["reglas", "contest", "5", "5", *["--defender-mod=-500"] * 3], "--defender-mod:"),
    (["seyruun", "contest", "3-600-600", "3"], "ATTACKER:"),
])
def test_sums_of_modifiers_keep_to_one_modifiers_limit(args, param):
    said = "más que 1000" if args[0] == "reglas" else "more than 1000"  # Reglas: in Spanish
    assert_usage_error(cli(*args), param, said)


def test_sums_within_the_limit_still_roll():
    (obj,) = cli_json("reglas", "roll", "5", "--mod", "600", "--mod", "400", "--seed", "1")
    assert obj["outcome"]
