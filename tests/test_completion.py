"""Static shell completion: the committed scripts, the `completion` command, and
completing in real bash, zsh and fish with the script loaded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer._click.core import Context
from typer.main import get_command

from conftest import assert_usage_error, cli
from rpgdice.cli import app
from rpgdice.cli.completion import SHELLS, generate, model
from rpgdice.rulesets.cypher.rules import DIFFICULTIES as CYPHER_DIFFICULTIES
from rpgdice.rulesets.reglas.commands import DIFFICULTY_NAMES as REGLAS_NAMES
from rpgdice.rulesets.reglas.rules import DIFFICULTIES as REGLAS_DIFFICULTIES
from rpgdice.rulesets.seyruun.rules import WOUNDS

WOUND_VALUES = ["none", *WOUNDS]
"""--wound's values: the engine's wounds, and none (no wound, over a sheet's)."""

ROOT = Path(__file__).resolve().parents[1]
COMPLETIONS = ROOT / "completions"


def _group_commands(*path: str) -> list[str]:
    """The command names under ``path``, straight from the Click tree."""
    cmd = get_command(app)
    ctx = Context(cmd, info_name="rpgdice")
    for name in path:
        cmd = cmd.get_command(ctx, name)
        ctx = Context(cmd, info_name=name, parent=ctx)
    return list(cmd.list_commands(ctx))


def _shell(name: str) -> str:
    """The shell's path; a missing shell fails under CI (which installs it), else skips."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is not installed; .ci/run installs it")
        pytest.skip(f"{name} is not installed (CI installs it)")
    return path


# ------------------------------------------------------------- the scripts ---

@pytest.mark.parametrize("shell", list(SHELLS))
def test_committed_script_is_what_the_generator_prints(shell):
    committed = (COMPLETIONS / SHELLS[shell]).read_text(encoding="utf-8")
    assert committed == generate(shell), (
        f"completions/{SHELLS[shell]} is stale: run python -m rpgdice.cli.completion --write"
    )


@pytest.mark.parametrize("shell", list(SHELLS))
def test_completion_command_prints_the_committed_script(shell):
    run = cli("completion", shell)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == (COMPLETIONS / SHELLS[shell]).read_text(encoding="utf-8")


def test_completion_command_refuses_an_unknown_shell():
    assert_usage_error(cli("completion", "powershell"), "'powershell'", "bash, zsh, fish")


@pytest.mark.slow
def test_generator_check_mode_finds_a_stale_script(tmp_path):
    write = subprocess.run([sys.executable, "-m", "rpgdice.cli.completion", "--write", str(tmp_path)],
                           capture_output=True, text=True)
    assert write.returncode == 0, write.stderr
    check = [sys.executable, "-m", "rpgdice.cli.completion", "--check", str(tmp_path)]
    assert subprocess.run(check, capture_output=True).returncode == 0
    (tmp_path / "_rpgdice").write_text("#compdef rpgdice\n", encoding="utf-8")
    stale = subprocess.run(check, capture_output=True, text=True)
    assert stale.returncode == 1 and "_rpgdice" in stale.stderr


def test_the_model_holds_every_command_and_option_of_the_app():
    tree = model()
    nodes = {node.path: node for node in tree.walk()}
    for group in _group_commands():
        assert (group,) in nodes
        if group in ("crytures", "seyruun", "reglas", "cypher"):
            for command in _group_commands(group):
                assert (group, command) in nodes
    roll = nodes[("seyruun", "roll")]
    assert {"--wound", "--bonus", "-d", "--difficulty", "--json", "--help", "-h"} <= set(roll.all_options)
    assert "--wound" in roll.value_options and "--json" not in roll.value_options
    # Named values come from the parsers, so they are the engine's own tables.
    values = {n: o.values for o in roll.options for n in o.names}
    assert values["--wound"] == WOUND_VALUES
    task = {n: o.values for o in nodes[("cypher", "task")].options for n in o.names}
    assert task["--difficulty"] == list(CYPHER_DIFFICULTIES)
    reglas = {n: o.values for o in nodes[("reglas", "roll")].options for n in o.names}
    assert reglas["--dificultad"] == list(REGLAS_NAMES)
    # Every Reglas difficulty has a Spanish and an English name.
    assert set(REGLAS_NAMES.values()) == set(REGLAS_DIFFICULTIES.values())
    assert {"ninguna", "none", "dificil", "hard", "muy-dificil", "very-hard", "imposible",
            "impossible"} <= set(REGLAS_NAMES)


@pytest.mark.parametrize("shell", list(SHELLS))
def test_every_command_and_option_is_in_every_script(shell):
    text = generate(shell)
    for node in model().walk():
        for name in node.path:
            assert name in text
        for opt in node.all_options:
            word = opt.lstrip("-") if shell == "fish" else opt
            assert word in text, (shell, node.path, opt)


# -------------------------------------------------------------- real shells ---

CASES = [
    # (words before the cursor, the word being completed, expected candidates)
    (["rpgdice"], "cr", lambda: [c for c in _group_commands() if c.startswith("cr")]),
    (["rpgdice", "seyruun"], "", lambda: _group_commands("seyruun")),
    (["rpgdice", "seyruun", "roll", "3", "--wound"], "", lambda: WOUND_VALUES),
]
CASE_IDS = ["group-prefix", "group-commands", "wound-values"]


def _bash(words: list[str], cur: str) -> list[str]:
    script = COMPLETIONS / "rpgdice.bash"
    quoted = " ".join(f"'{w}'" for w in [*words, cur])
    code = (f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; _rpgdice; "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    run = subprocess.run([_shell("bash"), "--norc", "--noprofile", "-c", code],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [line for line in run.stdout.splitlines() if line]


# zsh: load the script as a sourced file and stand in for the completion builtins:
# compadd prints the words it is given that match the prefix being completed, as
# zsh's own compadd offers them; compdef (sourced mode registers) is a no-op.
ZSH_HARNESS = r"""
compdef() { : }
compset() { : }
compadd() {
    local -i i=${@[(i)--]}
    local w
    for w in "${@[i+1,-1]}"; do [[ $w == ${PREFIX}* ]] && print -r -- $w; done
    return 0
}
source $1
shift
words=("$@")
CURRENT=$#words
PREFIX=${words[CURRENT]}
_rpgdice
"""


def _zsh(words: list[str], cur: str) -> list[str]:
    run = subprocess.run([_shell("zsh"), "-f", "-c", ZSH_HARNESS, "zsh", str(COMPLETIONS / "_rpgdice"),
                          *words, cur], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [line for line in run.stdout.splitlines() if line]


def _fish_described(words: list[str], cur: str) -> dict[str, str]:
    """What fish offers, each candidate with the description it shows beside it."""
    line = " ".join([*words, cur])
    code = f"source '{COMPLETIONS / 'rpgdice.fish'}'; complete -C '{line}'"
    run = subprocess.run([_shell("fish"), "--no-config", "-c", code],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return dict((out.split("\t") + [""])[:2] for out in run.stdout.splitlines() if out)


def _fish(words: list[str], cur: str) -> list[str]:
    return list(_fish_described(words, cur))


@pytest.mark.parametrize("words,cur,expected", CASES, ids=CASE_IDS)
def test_bash_completes(words, cur, expected):
    assert _bash(words, cur) == expected()


@pytest.mark.parametrize("words,cur,expected", CASES, ids=CASE_IDS)
def test_zsh_completes(words, cur, expected):
    assert _zsh(words, cur) == expected()


@pytest.mark.parametrize("words,cur,expected", CASES, ids=CASE_IDS)
def test_fish_completes(words, cur, expected):
    # fish sorts what it offers.
    assert _fish(words, cur) == sorted(expected())


def test_expected_candidates_are_not_trivial():
    assert [c() for _, _, c in CASES][0] == ["crytures"]
    assert "roll" in _group_commands("seyruun")
    assert len(WOUNDS) == 4


def test_bash_completes_option_values_in_every_form():
    roll = ["rpgdice", "reglas", "roll", "5+5"]
    assert _bash([*roll, "--dificultad"], "muy") == ["muy-dificil"]
    # bash splits `--wound=mo` at '=' (COMP_WORDBREAKS) into `--wound`, `=`, `mo`.
    assert _bash(["rpgdice", "seyruun", "roll", "3", "--wound", "="], "mo") == ["moderate"]
    assert _bash(["rpgdice", "seyruun", "roll", "3", "--wound"], "=") == WOUND_VALUES
    # A number: nothing to offer; after the value, options again.
    assert _bash(["rpgdice", "seyruun", "roll", "3", "--bonus"], "") == []
    assert "--willpower" in _bash(["rpgdice", "seyruun", "roll", "3", "--bonus", "2"], "--w")
    assert _bash(["rpgdice", "completion"], "") == list(SHELLS)
    assert _bash(["rpgdice", "cypher", "task", "--skill"], "s") == ["specialized"]


def test_zsh_loads_the_script_from_fpath():
    code = (f"fpath=('{COMPLETIONS}' $fpath); autoload -Uz compinit; compinit -u -D; "
            "print -r -- $_comps[rpgdice]")
    run = subprocess.run([_shell("zsh"), "-f", "-c", code], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "_rpgdice"


def test_fish_completes_options_and_values():
    assert "--willpower" in _fish(["rpgdice", "seyruun", "roll", "3"], "--w")
    assert _fish(["rpgdice", "cypher", "task", "--difficulty"], "im") == ["immortal", "impossible"]
    assert _fish(["rpgdice", "seyruun", "roll", "3", "--bonus"], "") == []


def test_fish_describes_each_value_on_its_own():
    wounds = _fish_described(["rpgdice", "seyruun", "roll", "3", "--wound"], "")
    assert wounds == {"none": "no wound, even with --as NAME",
                      **{name: f"−{n} {'die' if n == 1 else 'dice'}" for name, n in WOUNDS.items()}}
    skills = _fish_described(["rpgdice", "cypher", "task", "--skill"], "")
    assert skills == {"trained": "eases 1 step", "specialized": "eases 2 steps",
                      "inability": "hinders 1 step"}
    levels = _fish_described(["rpgdice", "cypher", "task", "-d"], "")
    assert levels["demanding"] == "difficulty 3, target 9"
    assert levels["impossible"] == f"difficulty {CYPHER_DIFFICULTIES['impossible']}, target 30"
    reglas = _fish_described(["rpgdice", "reglas", "roll", "5", "--dificultad"], "")
    assert reglas["hard"] == reglas["dificil"] == "4 éxitos necesarios"
    assert _fish_described(["rpgdice", "completion"], "")["zsh"] == "the zsh script"
    # The option itself keeps its own help.
    option = _fish_described(["rpgdice", "seyruun", "roll", "3"], "--wou")
    assert option["--wound"].startswith("Wound:")


def test_every_value_has_a_description_of_its_own_in_the_model():
    for node in model().walk():
        for opt in node.options:
            assert len(opt.descriptions) == len(opt.values), (node.key, opt.names)
            for value, text in zip(opt.values, opt.descriptions):
                assert text and text != opt.help and text != value, (node.key, value, text)
        for values in node.positionals:
            for value in values:
                assert node.described.get(value) not in (None, "", value), (node.key, value)


def test_the_scripts_start_no_python():
    for filename in SHELLS.values():
        text = (COMPLETIONS / filename).read_text(encoding="utf-8")
        for word in ("python", "rpgdice completion", "_RPGDICE_COMPLETE", "COMPLETE="):
            body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
            assert word not in body, (filename, word)


def test_every_template_marker_is_filled_and_no_template_note_is_left():
    from rpgdice.cli import completion

    tree = completion.model()
    for shell in completion.SHELLS:
        text = completion.generate(shell, tree)
        assert "@@" not in text and not [line for line in text.splitlines() if line.startswith("#@")]
    with pytest.raises(ValueError, match="no marker for EXTRA"):
        completion.fill("rpgdice.fish.in", HEADER="", COMMANDS="", EXTRA="")
