"""Property test: no command line breaks rpgdice.

Command lines are built from the CLI's own vocabulary, read at test time by walking
the Click command tree (groups, commands, every option's flags, the names in
metavars and in what each parser accepts), mixed with numbers, signed and huge
numbers, sums, faces and junk. Commands other branches add later are fuzzed too.

Every run must exit 0 or 2, raise nothing but SystemExit, never show a traceback;
exit 2 means stdout empty and exactly one ``rpgdice: error: `` line on stderr; exit 0
with ``--json`` means every stdout line is JSON. The environment varies too (widths,
NO_COLOR/FORCE_COLOR, exported seeds); a second, smaller run starts real processes with
varied encodings and locales and varied streams (closed, full, closed early).

Examples: ``RPGDICE_FUZZ_EXAMPLES`` (default 3000, a few seconds to a minute);
processes: ``RPGDICE_FUZZ_PROCESSES`` (default 60).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from unittest import mock

import pytest
import typer.main
import typer.testing
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import ruleset_groups
from rpgdice.cli import app, command_tree

EXAMPLES = int(os.environ.get("RPGDICE_FUZZ_EXAMPLES", "2000"))
PROCESSES = int(os.environ.get("RPGDICE_FUZZ_PROCESSES", "40"))
TIMES_FLAGS = ("-n", "--times")
"""Repetitions are fuzzed only with small or invalid values, so examples stay fast;
the 100000 bound itself is tested in test_validation.py."""
HELP_FLAGS = ("-h", "--help", "--version")


@dataclass
class Leaf:
    path: list[str]
    flags: list[str] = field(default_factory=list)
    value_flags: list[str] = field(default_factory=list)
    arguments: int = 0
    required: list[str] = field(default_factory=list)
    words: set[str] = field(default_factory=set)


def _walk(command, path: list[str], leaves: list[Leaf], groups: list[list[str]]) -> None:
    subcommands = getattr(command, "commands", None)
    if subcommands is not None:
        groups.append(path)
        for name, sub in subcommands.items():
            _walk(sub, [*path, name], leaves, groups)
        return
    leaf = Leaf(path)
    for param in command.params:
        texts = [str(param.metavar or "")]
        parse = getattr(getattr(param, "type", None), "func", None)
        texts.append(str(getattr(parse, "accepts", "") or ""))
        for text in texts:
            leaf.words.update(re.findall(r"[A-Za-z][A-Za-z-]+", text))
        if param.param_type_name == "argument":
            leaf.arguments += 1
            continue
        names = [*param.opts, *param.secondary_opts]
        if any(n in TIMES_FLAGS for n in names):
            continue
        if param.required:
            leaf.required.append(names[0])
        if param.is_flag:
            leaf.flags.extend(names)
        else:
            leaf.value_flags.extend(names)
    leaves.append(leaf)


ROOT = command_tree()
LEAVES: list[Leaf] = []
GROUPS: list[list[str]] = []
_walk(ROOT, [], LEAVES, GROUPS)
COMMAND_NAMES = sorted({p for leaf in LEAVES for p in leaf.path})
ALL_WORDS = sorted({w for leaf in LEAVES for w in leaf.words})
ALL_FLAGS = sorted({f for leaf in LEAVES for f in leaf.flags + leaf.value_flags})

JUNK = [
    "", " ", "  3 ", "٣", "３", "+", "-", "--", "=", ",", ",,", "1++2", "4+", "+4", "4+-2",
    "0x10", "1e3", "1.5", "-0", "+0", "3\x00", "\x00", "\n", "1\n2", "\x1b[31m", "None",
    "nan", "inf", "-inf", "true", "é", "Muy Difícil", "MUY_DIFICIL", "muy-dificil",
    "x" * 300, "9" * 5000, "0" * 5000 + "5", "4,7,2", "1 2 3", "0,1", "11,12", "20,21",
    "--dice=", "--seed=", "--json=1", "-", "-1", "-5000", "--unknown", "-z", "-dd",
]

numbers = st.one_of(
    st.integers(0, 12),
    st.sampled_from([0, 1, 2, 5, 6, 9, 10, 11, 19, 20, 21, 99, 100, 999, 1000, 1001,
                     100000, 100001, 2**31, 2**63, 2**64 - 1, 2**64, 10**30]),
    st.integers(-20, -1),
    st.integers(min_value=-(10**40), max_value=10**40),
).map(str)
signed_numbers = st.integers(-15, 15).map(lambda n: f"+{n}" if n >= 0 else str(n))
sums = st.lists(st.integers(0, 8), min_size=2, max_size=4).map(lambda xs: "+".join(map(str, xs)))
faces = st.lists(st.integers(0, 22), min_size=0, max_size=14).map(lambda xs: ",".join(map(str, xs)))


def _mangle(word: str, how: int) -> str:
    """A named level as a user might type it, or a near miss."""
    if how == 0:
        return word.upper()
    if how == 1:
        return word.replace("-", " ")
    if how == 2:
        return word.replace("-", "_").title()
    if how == 3:
        return word[:-1]
    if how == 4:
        return word + "x"
    return word


words = st.builds(_mangle, st.sampled_from(ALL_WORDS or ["none"]), st.integers(0, 7))
values = st.one_of(numbers, numbers, signed_numbers, sums, faces, words, st.sampled_from(JUNK),
                   st.text(max_size=8))
# Mostly plausible values, so that a good share of runs get past parsing and roll.
plausible = st.one_of(st.integers(0, 10).map(str), st.integers(0, 10).map(str), sums,
                      st.sampled_from(ALL_WORDS or ["none"]), signed_numbers, faces, values)
small = st.integers(0, 10).map(str)
positional = st.one_of(small, small, small, small, small, small, sums, values)
small_times = st.sampled_from(["1", "2", "3", "0", "-1", "100001", "abc", "1e3", "", str(10**30)])


WIDTHS = ["0", "1", "7", "20", "80", "200", "-3", "abc", "", "99999999999999999999", "1e3"]
view_environments = st.fixed_dictionaries({}, optional={
    "COLUMNS": st.sampled_from(WIDTHS),
    "LINES": st.sampled_from(WIDTHS),
    "TERMINAL_WIDTH": st.sampled_from(WIDTHS),
    "NO_COLOR": st.sampled_from(["1", ""]),
    "FORCE_COLOR": st.sampled_from(["1", "", "0"]),
})
"""What the environment says about the view: widths (usable, odd and junk) and color."""


@st.composite
def command_lines(draw) -> tuple[list[str], dict[str, str] | None]:
    kind = draw(st.integers(0, 19))
    if kind == 0:  # anything at all
        args = draw(st.lists(st.one_of(st.sampled_from(COMMAND_NAMES + ALL_FLAGS), values),
                             max_size=6))
    elif kind == 1:  # a group and something
        group = draw(st.sampled_from(GROUPS))
        args = [*group, *draw(st.lists(st.one_of(st.sampled_from(COMMAND_NAMES + ALL_FLAGS),
                                                 values), max_size=3))]
    else:  # a real command with arguments and options, mostly its own
        leaf = draw(st.sampled_from(LEAVES))
        path = list(leaf.path)
        if draw(st.sampled_from([False] * 15 + [True])):
            path[-1] = _mangle(path[-1], draw(st.integers(3, 4)))
        n = leaf.arguments
        count = draw(st.sampled_from([n, n, n, max(0, n - 1), n + 1]))
        args = path + draw(st.lists(positional, min_size=count, max_size=count))
        for name in leaf.required:
            if draw(st.sampled_from([True] * 7 + [False])):
                args += [name, draw(plausible)]
        own = leaf.flags + leaf.value_flags
        for _ in range(draw(st.integers(0, 5))):
            pick = draw(st.integers(0, 15))
            if pick < 8 and leaf.value_flags:
                args += [draw(st.sampled_from(leaf.value_flags)), draw(plausible)]
            elif pick < 13 and leaf.flags:
                args.append(draw(st.sampled_from(leaf.flags)))
            elif pick == 13:
                args += [draw(st.sampled_from(TIMES_FLAGS)), draw(small_times)]
            else:
                flag = draw(st.sampled_from(own + ALL_FLAGS))
                args.append(f"{flag}={draw(values)}" if flag.startswith("--") else flag)
        if draw(st.integers(0, 1)) == 0:
            args.append("--json")
        if draw(st.integers(0, 40)) == 0:
            args.append(draw(st.sampled_from(HELP_FLAGS)))
    env = dict(draw(st.sampled_from([{}, {}, {}, {"RPGDICE_SEED": "7"},
                                     {"RPGDICE_SEED": "junk"}, {"RPGDICE_SEED": ""},
                                     {"RPGDICE_SEED": "   "}, {"RPGDICE_SEED": str(2**64)}])))
    env.update(draw(view_environments))
    return args, env or None


def _not_served(*args: object) -> None:
    sys.stdout.write("rpgdice serve: (the fuzz test starts no server)\n")


def _times_bound_kept(args: list[str]) -> bool:
    """Only this file's own pairs give --times a value; a flag= form could not."""
    return not any(a.startswith("--times=") for a in args)


def test_vocabulary_was_read_from_the_app():
    # The walk found every group and command, and each command's options.
    assert set(ruleset_groups()) <= set(COMMAND_NAMES)
    assert {"roll", "task"} <= set(COMMAND_NAMES)
    assert "--dice" in ALL_FLAGS and "--json" in ALL_FLAGS
    assert {"muy-dificil", "heroic", "crippled", "legendary"} <= set(ALL_WORDS)


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(command_lines())
def test_no_command_line_breaks_rpgdice(case):
    args, env = case
    assert _times_bound_kept(args)
    # The command tree is built once (ROOT): Typer's CliRunner would rebuild it for
    # every example, which costs more than most runs.
    # `rpgdice serve` would serve until stopped: its options are fuzzed, its server is not started.
    with mock.patch.object(typer.testing, "_get_command", lambda _app: ROOT), \
            mock.patch("rpgdice.cli.serve._run", _not_served):
        result = CliRunner().invoke(app, args, env=env)
    out, err = result.stdout, result.stderr
    context = (args, env, result.exit_code, out[-400:], err)
    event(f"exit {result.exit_code}" + (" (json)" if "--json" in args else ""))
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (context, result.exception)
    assert result.exit_code in (0, 2), context
    assert "Traceback" not in out and "Traceback" not in err, context
    if args[:1] == ["again"] and err.startswith("rpgdice: again: "):
        # CLI.md: `again` names what it runs on stderr first; the rest is that command's.
        err = err.split("\n", 1)[1]
    if result.exit_code == 2:
        assert out == "", context
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("rpgdice: error: "), context
        assert len(lines[0]) > len("rpgdice: error: "), context
    else:
        assert err == "", context
        # A listing of nothing (no characters, no aliases yet) is rightly empty, and so
        # are the JSON Lines of an empty roll log.
        listing = args[:2] in (["char", "list"], ["alias", "--json"]) or args == ["alias"]
        empty_log = args[:1] == ["log"] and "--json" in args
        # `play` with no input (the runner's stdin is empty) runs no command: it prints nothing.
        no_lines = args[:1] == ["play"]
        assert out.strip() or listing or empty_log or no_lines, context
        if "--json" in args and not any(a in HELP_FLAGS for a in args):
            for line in out.splitlines():
                value = json.loads(line)
                # CLI.md: `seat list --json` is one list of {name, characters, link}.
                listed = args[:2] == ["seat", "list"] and isinstance(value, list)
                assert isinstance(value, dict) or listed, context


ENCODINGS = st.sampled_from([
    {}, {"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
    {"PYTHONIOENCODING": "cp1252"}, {"LC_ALL": "C", "PYTHONUTF8": "0"},
    {"PYTHONIOENCODING": "utf-8"},
])
STREAMS = ["pipe", "pipe", "closed stdout", "full stdout", "closed stderr", "closed early"]


def _process(args: list[str], env: dict[str, str], stream: str) -> tuple[int, bytes, bytes]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED", "COLUMNS", "LINES",
                         "PYTHONIOENCODING", "TERMINAL_WIDTH", "LANG")}
    base.update(env)
    argv = [sys.executable, "-m", "rpgdice", *args]
    if stream == "closed early":
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, env=base)
        head = proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read()
        return proc.wait(timeout=120), head, err
    close = {"closed stdout": 1, "closed stderr": 2}.get(stream)
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            argv, stdin=subprocess.DEVNULL, env=base, timeout=120,
            stdout=full if stream == "full stdout" else subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=(lambda: os.close(close)) if close is not None else None,
        )
    return done.returncode, done.stdout or b"", done.stderr or b""


@pytest.mark.slow
@settings(max_examples=PROCESSES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(command_lines(), ENCODINGS, st.sampled_from(STREAMS))
@pytest.mark.process
def test_no_environment_or_stream_breaks_rpgdice(case, encoding, stream):
    args, env = case
    assume(not any("\x00" in a for a in args))  # no process can be given a NUL byte
    assume(not any("serve" in a for a in args))  # it serves until stopped (test_serve.py)
    env = {**(env or {}), **encoding}
    code, out, err = _process(args, env, stream)
    context = (args, env, stream, code, out[-300:], err[-600:])
    event(f"{stream}: exit {code}")
    assert b"Traceback" not in err and b"Traceback" not in out, context
    lines = err.decode("utf-8", "replace").splitlines()
    if stream == "closed stderr":
        assert code in (0, 2), context
        assert err == b"", context
        return
    if code == 2:
        assert out == b"", context
        assert len(lines) == 1 and lines[0].startswith("rpgdice: error: "), context
        return
    if stream in ("closed stdout", "full stdout"):
        if code == 0:  # only a command with nothing to write may succeed (log --json, empty log)
            assert _process(args, env, "pipe")[1] == b"", context
            assert err == b"", context
            return
        assert code == 1, context  # nothing it writes can be delivered
        assert len(lines) == 1 and "could not write the output" in lines[0], context
        return
    if stream == "closed early" and code == 141:  # CLI.md: a reader that left is no error
        assert err == b"", context
        return
    assert code == 0, context
    assert err == b"", context
    codec = encoding.get("PYTHONIOENCODING") or ("ascii" if encoding.get("LC_ALL") == "C" else
                                                 "utf-8")
    out.decode(codec)  # only what the stream can carry
