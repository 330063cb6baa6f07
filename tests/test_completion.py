"""Static shell completion: the committed scripts, the `completion` command, and
completing in real bash, zsh and fish with the script loaded."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer._click.core import Context
from typer.main import get_command

from conftest import assert_usage_error, character, cli, home, ok, ruleset_groups
from rpgdice import rulesets
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
@pytest.mark.process
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
        if group in ruleset_groups():
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
#
# Each shell completes through its own completion machinery, with the committed script
# loaded as a user loads it: bash calls the script's function with COMP_WORDS, COMP_CWORD,
# COMP_LINE and COMP_POINT as bash sets them; zsh runs interactively in a pseudo-terminal
# (zsh/zpty) with compinit and the script on fpath, and TAB is pressed; fish answers
# `complete -C LINE`. A line ends where the cursor is.

def _line(line: str | list[str], cur: str | None = None) -> str:
    """A command line up to the cursor: given as it is, or as the words before the cursor
    and the word being completed."""
    return line if cur is None else " ".join([*line, cur])


def _bash_words(line: str) -> list[str]:
    """The words bash makes of a command line for completion: split at blanks and
    around COMP_WORDBREAKS characters (`=` and `:` here), the word at the cursor last."""
    words = []
    for token in line.split():
        words += [w for w in re.split(r"([=:]+)", token) if w]
    if not line.strip() or line[-1].isspace():
        words.append("")
    return words


def _bash(line: str | list[str], cur: str | None = None) -> list[str]:
    """What bash offers at the end of ``line``."""
    line = _line(line, cur)
    words = _bash_words(line)
    cword = len(words) - 1
    quoted = " ".join(shlex.quote(w) for w in words)
    code = (f"source {shlex.quote(str(COMPLETIONS / 'rpgdice.bash'))}; "
            f"COMP_WORDS=({quoted}); COMP_CWORD={cword}; COMP_LINE={shlex.quote(line)}; "
            f"COMP_POINT={len(line)}; COMP_TYPE=9; COMP_KEY=9; "
            f"_rpgdice rpgdice {shlex.quote(words[-1])} {shlex.quote(words[cword - 1])}; "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    run = subprocess.run([_shell("bash"), "--norc", "--noprofile", "-c", code],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [out for out in run.stdout.splitlines() if out]


# zsh: an interactive `zsh -f` in a pseudo-terminal, driven by another zsh through
# zsh/zpty. compinit finds _rpgdice on fpath; each line is typed, TAB completes it
# (complete-word), ^T writes an end mark and ^U clears the line. compadd is wrapped to
# write down what the real compadd is given, filtered as zsh matches it against the
# word at the cursor (`compadd -O`), and the descriptions shown beside it (`-D`).
ZSH_DRIVER = r"""
zmodload zsh/zpty || exit 3
out=$1 dir=$2
shift 2
: > $out
_until() {  # until OUT holds $1 lines that are $2
    local -a lines
    integer tries=0
    while (( tries++ < 2000 )); do
        while zpty -rt z chunk 2>/dev/null; do :; done
        lines=("${(@f)$(<$out)}")
        lines=(${(M)lines:#$2})
        (( $#lines >= $1 )) && return 0
        sleep 0.01
    done
    return 1
}
zpty z zsh -f -i
zpty -w z "PS1='' RPS1=''; unsetopt autolist listambiguous beep; fpath=(${(q)dir} \$fpath)"
zpty -w z "autoload -Uz compinit; compinit -u -D"
zpty -w z "compadd() {
    local -a found shown
    local -i end=\${@[(i)--]} d
    builtin compadd -O found \"\$@\"
    d=\${\${@[1,end]}[(i)-d]}
    if (( d < end )); then
        shown=(\"\${(@P)\${@[d+1]}}\")
        builtin compadd -D shown \"\$@\"
        print -rl -- \${shown/#/@D:} >> ${(q)out}
    fi
    print -rl -- \$found >> ${(q)out}
    builtin compadd \"\$@\"
}"
zpty -w z "_rpgdice_test_end() { print -r -- @@END@@ >> ${(q)out} }; zle -N _rpgdice_test_end"
zpty -w z "bindkey '^I' complete-word '^T' _rpgdice_test_end '^U' kill-whole-line"
zpty -w z "zle-line-init() { print -r -- @@READY@@ >> ${(q)out} }; zle -N zle-line-init"
_until 1 @@READY@@ || exit 4
for line in "$@"; do
    zpty -w -n z "$line"$'\t\x14\x15'
done
_until $# @@END@@
rc=$?
zpty -d z
exit $rc
"""


def _zsh_session(*lines: str) -> list[tuple[list[str], list[str]]]:
    """What zsh offers at the end of each line, and the descriptions it lists."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "offered"
        run = subprocess.run([_shell("zsh"), "-f", "-c", ZSH_DRIVER, "zsh", str(out), str(COMPLETIONS),
                              *lines], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, (run.returncode, run.stderr)
        text = out.read_text(encoding="utf-8")
    chunks = text.split("@@READY@@\n", 1)[1].split("@@END@@\n")[: len(lines)]
    answers = []
    for chunk in chunks:
        offered = [w for w in chunk.splitlines() if w]
        answers.append(([w for w in offered if not w.startswith("@D:")],
                        [w[3:] for w in offered if w.startswith("@D:")]))
    return answers


def _zsh_many(*lines: str) -> list[list[str]]:
    return [offered for offered, _ in _zsh_session(*lines)]


def _zsh(line: str | list[str], cur: str | None = None) -> list[str]:
    return _zsh_many(_line(line, cur))[0]


def _fish_described(line: str | list[str], cur: str | None = None) -> dict[str, str]:
    """What fish offers at the end of ``line``, each with the description beside it."""
    line = _line(line, cur)
    code = f"source {shlex.quote(str(COMPLETIONS / 'rpgdice.fish'))}; complete -C {shlex.quote(line)}"
    run = subprocess.run([_shell("fish"), "--no-config", "-c", code],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return dict((out.split("\t") + [""])[:2] for out in run.stdout.splitlines() if out)


def _fish(line: str | list[str], cur: str | None = None) -> list[str]:
    return list(_fish_described(line, cur))


CASES = [
    # (the line up to the cursor, expected candidates)
    ("rpgdice cr", lambda: [c for c in _group_commands() if c.startswith("cr")]),
    ("rpgdice seyruun ", lambda: _group_commands("seyruun")),
    ("rpgdice seyruun roll 3 --wound ", lambda: WOUND_VALUES),
]
CASE_IDS = ["group-prefix", "group-commands", "wound-values"]


@pytest.mark.parametrize("line,expected", CASES, ids=CASE_IDS)
@pytest.mark.process
def test_bash_completes(line, expected):
    assert _bash(line) == expected()


@pytest.mark.slow
@pytest.mark.process
def test_zsh_completes():
    assert _zsh_many(*[line for line, _ in CASES]) == [expected() for _, expected in CASES]


@pytest.mark.parametrize("line,expected", CASES, ids=CASE_IDS)
@pytest.mark.process
def test_fish_completes(line, expected):
    # fish sorts what it offers.
    assert _fish(line) == sorted(expected())


def test_expected_candidates_are_not_trivial():
    assert [c() for _, c in CASES][0] == ["crytures"]
    assert "roll" in _group_commands("seyruun")
    assert len(WOUNDS) == 4


def test_bash_words_are_split_as_bash_splits_them():
    assert _bash_words("rpgdice seyruun roll 3 --wound=mo") == \
        ["rpgdice", "seyruun", "roll", "3", "--wound", "=", "mo"]
    assert _bash_words("rpgdice seyruun ") == ["rpgdice", "seyruun", ""]
    assert _bash_words("rpgdice --wound=") == ["rpgdice", "--wound", "="]


@pytest.mark.process
def test_bash_completes_option_values_in_every_form():
    assert _bash("rpgdice reglas roll 5+5 --dificultad muy") == ["muy-dificil"]
    # bash splits `--wound=mo` at '=' (COMP_WORDBREAKS) into `--wound`, `=`, `mo`.
    assert _bash("rpgdice seyruun roll 3 --wound=mo") == ["moderate"]
    assert _bash("rpgdice seyruun roll 3 --wound=") == WOUND_VALUES
    assert _bash("rpgdice seyruun roll 3 --wound = mo") == ["moderate"]
    # A number: nothing to offer; after the value, options again.
    assert _bash("rpgdice seyruun roll 3 --bonus ") == []
    assert "--willpower" in _bash("rpgdice seyruun roll 3 --bonus 2 --w")
    assert _bash("rpgdice completion ") == list(SHELLS)
    assert _bash("rpgdice cypher task --skill s") == ["specialized"]


@pytest.mark.slow
@pytest.mark.process
def test_zsh_loads_the_script_from_fpath():
    code = (f"fpath=('{COMPLETIONS}' $fpath); autoload -Uz compinit; compinit -u -D; "
            "print -r -- $_comps[rpgdice]")
    run = subprocess.run([_shell("zsh"), "-f", "-c", code], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "_rpgdice"


@pytest.mark.process
def test_fish_completes_options_and_values():
    assert "--willpower" in _fish("rpgdice seyruun roll 3 --w")
    assert _fish("rpgdice cypher task --difficulty im") == ["immortal", "impossible"]
    assert _fish("rpgdice seyruun roll 3 --bonus ") == []


@pytest.mark.process
def test_fish_describes_each_value_on_its_own():
    wounds = _fish_described("rpgdice seyruun roll 3 --wound ")
    assert wounds == {"none": "no wound, even with --as NAME",
                      **{name: f"−{n} {'die' if n == 1 else 'dice'}" for name, n in WOUNDS.items()}}
    skills = _fish_described("rpgdice cypher task --skill ")
    assert skills == {"trained": "eases 1 step", "specialized": "eases 2 steps",
                      "inability": "hinders 1 step"}
    levels = _fish_described("rpgdice cypher task -d ")
    assert levels["demanding"] == "difficulty 3, target 9"
    assert levels["impossible"] == f"difficulty {CYPHER_DIFFICULTIES['impossible']}, target 30"
    reglas = _fish_described("rpgdice reglas roll 5 --dificultad ")
    assert reglas["hard"] == reglas["dificil"] == "4 éxitos necesarios"
    assert _fish_described("rpgdice completion ")["zsh"] == "the zsh script"
    # The option itself keeps its own help.
    option = _fish_described("rpgdice seyruun roll 3 --wou")
    assert option["--wound"].startswith("Wound:")


# ------------------------------------------------- the user's own names ---

@pytest.fixture
def table():
    """Characters of three rulesets and two aliases, saved as a user saves them."""
    character("Nix", {"stealth": "trained", "Pilot craft": "specialized"})
    character("Ysolde", wound="light")
    character("Thureck")
    ok("alias", "sneak", "seyruun roll dexterity stealth --as ysolde")
    ok("alias", "t", "cypher task --as nix")
    return home()


def _sheet(name: str) -> dict:
    run = cli("char", "show", name, "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()[0]


def _traits(name: str, skills: bool = False) -> list[str]:
    """The traits TAB offers for the character: those with a number, or its skills."""
    sheet = _sheet(name)
    traits = sheet["traits"]
    if skills:
        return sorted(t for t, v in traits.items() if v in ("trained", "specialized", "inability"))
    from rpgdice.cli.completion import _reserved

    kept = {f"{sheet['ruleset']}:{t}" for t in traits} - set(_reserved())  # no resource
    return sorted(t for t, v in traits.items() if isinstance(v, int) and f"{sheet['ruleset']}:{t}" in kept)


def _characters(ruleset: str | None = None) -> list[str]:
    run = cli("char", "list", "--json")
    assert run.exit_code == 0, run.stderr
    return sorted(c["name"].lower() for c in run.json() if ruleset in (None, c["ruleset"]))


USER_CASES = [
    ("rpgdice char show ", lambda: _characters()),
    ("rpgdice char rm t", lambda: ["thureck"]),
    ("rpgdice seyruun roll --as ", lambda: _characters("seyruun")),
    ("rpgdice cypher task --as ", lambda: _characters("cypher")),
    ("rpgdice seyruun initiative ", lambda: _characters("seyruun")),
    ("rpgdice seyruun initiative ysolde ", lambda: _characters("seyruun")),
    ("rpgdice seyruun attack 5 --vs ", lambda: _characters("seyruun")),
    ("rpgdice sn", lambda: ["sneak"]),
    ("rpgdice alias --rm ", lambda: ["sneak", "t"]),
    ("rpgdice seyruun roll --as ysolde ", lambda: _traits("ysolde")),
    ("rpgdice seyruun roll --as=ysolde dexterity ", lambda: _traits("ysolde")),
    ("rpgdice seyruun roll --as ysolde d", lambda: ["dexterity"]),
    ("rpgdice reglas roll --as Thureck ", lambda: _traits("thureck")),
    ("rpgdice cypher task --as nix --skill ",
     lambda: sorted(["trained", "specialized", "inability", *_traits("nix", skills=True)])),
    ("rpgdice t --skill ",
     lambda: sorted(["trained", "specialized", "inability", *_traits("nix", skills=True)])),
    ("rpgdice t --pool ", lambda: ["intellect", "might", "speed"]),
    ("rpgdice sneak --wo", lambda: ["--wound"]),
    ("rpgdice sneak --wound mo", lambda: ["moderate"]),
]
USER_IDS = ["char-show", "char-rm-prefix", "as-seyruun", "as-cypher", "initiative", "initiative-more",
            "vs", "alias-name", "alias-rm", "traits", "traits-as-equals", "trait-prefix", "traits-reglas",
            "skills", "alias-skills", "alias-pool", "alias-option", "alias-value"]


def test_user_cases_expect_something_of_their_own(table):
    expected = {line: sorted(want()) for line, want in USER_CASES}
    assert expected["rpgdice char show "] == ["nix", "thureck", "ysolde"]
    assert expected["rpgdice seyruun roll --as "] == ["ysolde"]
    # Willpower is paid from, not rolled: no trait of a pool (issue 34, point 6).
    assert expected["rpgdice seyruun roll --as ysolde "] == ["composure", "dexterity", "resolve", "stealth"]
    assert expected["rpgdice reglas roll --as Thureck "] == ["armas-de-fuego", "destreza"]
    assert "pilot-craft" in expected["rpgdice t --skill "]


@pytest.mark.parametrize("line,expected", USER_CASES, ids=USER_IDS)
@pytest.mark.process
def test_bash_completes_the_users_names(table, line, expected):
    assert sorted(_bash(line)) == sorted(expected())


@pytest.mark.parametrize("line,expected", USER_CASES, ids=USER_IDS)
@pytest.mark.process
def test_fish_completes_the_users_names(table, line, expected):
    assert sorted(_fish(line)) == sorted(expected())


@pytest.mark.slow
@pytest.mark.process
def test_zsh_completes_the_users_names(table):
    offered = _zsh_many(*[line for line, _ in USER_CASES])
    for (line, expected), got in zip(USER_CASES, offered):
        assert sorted(got) == sorted(expected()), line


@pytest.mark.process
def test_names_come_from_rpgdice_home_else_xdg_config(table, tmp_path):
    xdg = tmp_path / "xdg"
    (xdg / "rpgdice" / "characters").mkdir(parents=True)
    (xdg / "rpgdice" / "characters" / "mira.toml").write_text(
        'name = "Mira"\nruleset = "seyruun"\n\n[traits]\nwits = 2\n', encoding="utf-8")
    env = {"RPGDICE_HOME": "", "XDG_CONFIG_HOME": str(xdg)}
    with pytest.MonkeyPatch.context() as mp:
        for var, value in env.items():
            mp.setenv(var, value)
        assert _bash("rpgdice seyruun roll --as ") == ["mira"]
        assert _bash("rpgdice seyruun roll --as mira ") == ["wits"]
        assert list(_fish_described("rpgdice char show ")) == ["mira"]
    assert _bash("rpgdice seyruun roll --as ") == ["ysolde"]


@pytest.mark.process
def test_rpgdice_as_names_the_character_whose_traits_are_offered(table, monkeypatch):
    monkeypatch.setenv("RPGDICE_AS", "Ysolde")
    assert sorted(_bash("rpgdice seyruun roll ")) == _traits("ysolde")
    assert sorted(_fish("rpgdice seyruun roll ")) == _traits("ysolde")
    # --as on the line wins.
    assert sorted(_bash("rpgdice reglas roll --as thureck ")) == _traits("thureck")


@pytest.mark.process
def test_fish_describes_each_character_with_its_rulesets_title(table):
    from rpgdice import rulesets

    described = _fish_described("rpgdice char show ")
    assert described == {name: rulesets.get(_sheet(name)["ruleset"]).title for name in _characters()}
    assert described["thureck"] == "Reglas Básicas"
    assert _fish_described("rpgdice seyruun roll --as ") == {"ysolde": "Seyruun"}


@pytest.mark.process
def test_a_sheet_of_no_ruleset_is_no_ruleset_s_character(table):
    (table / "characters" / "odd.toml").write_text('name = "Odd"\n\n[traits]\nx = 1\n', encoding="utf-8")
    assert "odd" in _bash("rpgdice char show ")
    for ruleset in [r.name for r in rulesets.with_sheets()
                    if (r.command("roll") is not None and r.command("roll").takes_as)]:
        assert "odd" not in _bash(f"rpgdice {ruleset} roll --as ")


# ------------------------------------------------------ description widths ---

WIDE_LINES = ["rpgdice ", "rpgdice seyruun ", "rpgdice seyruun roll -", "rpgdice log -",
              "rpgdice cypher task -", "rpgdice reglas roll -", "rpgdice log show -"]


@pytest.mark.slow
@pytest.mark.process
def test_zsh_lists_each_described_candidate_in_80_columns():
    sessions = _zsh_session(*WIDE_LINES)
    listed = [line for _, shown in sessions for line in shown]
    assert len(listed) > 50 and all(" -- " in line for line in listed)
    # Below 80: a line exactly as wide as the terminal wraps into an empty line in zsh.
    assert max(map(len, listed)) < 80, max(listed, key=len)
    assert any(line.endswith("…") for line in listed)  # a long help was cut short


@pytest.mark.process
def test_fish_descriptions_fit_in_80_columns_beside_their_names():
    pairs = [(name, text) for line in WIDE_LINES for name, text in _fish_described(line).items()]
    assert len(pairs) > 50
    assert max(len(f"{name} -- {text}") for name, text in pairs) < 80
    assert any(text.endswith("…") for _, text in pairs)


def test_the_zsh_script_keeps_no_local_words_array():
    # `words` is zsh's own array of the command line while completing: a function of
    # the script that makes a local one hides it (no name was ever offered).
    text = (COMPLETIONS / "_rpgdice").read_text(encoding="utf-8")
    assert not re.search(r"local\s+(-a\s+)?words\b", text)


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
        completion.fill("rpgdice.fish.in", HEADER="", TITLES="", COMMANDS="", RESERVED="", EXTRA="")


# The encounter's extras after --vs, and encounter's subcommands (CLI.md, "The table's state")

ENCOUNTER_CASES = [
    ("rpgdice seyruun attack 5 --vs ", lambda: sorted([*_characters("seyruun"), "Ann", "Ghoul", "Big-Thug"])),
    ("rpgdice seyruun attack 5 --vs B", lambda: ["Big-Thug"]),
    ("rpgdice encounter ", lambda: ["add", "back", "delay", "end", "mark", "next", "out", "rm",
                                    "start", "unmark"]),
    ("rpgdice encounter out ", lambda: sorted([*_characters(), "Ann", "Ghoul", "Big-Thug"])),
    # mark and unmark: the encounter's names alone; unmark then the conditions NAME has
    ("rpgdice encounter mark ", lambda: ["Ann", "Ghoul", "Big-Thug"]),
    ("rpgdice encounter unmark --log ", lambda: ["Ann", "Ghoul", "Big-Thug"]),
    ("rpgdice encounter unmark big-thug ", lambda: ["on-fire", "prone"]),
    ("rpgdice encounter unmark Big-Thug o", lambda: ["on-fire"]),
    ("rpgdice encounter unmark Ghoul ", lambda: []),
    ("rpgdice encounter mark Ann ", lambda: []),
]
ENCOUNTER_IDS = ["vs", "vs-prefix", "subcommands", "out", "mark", "unmark", "conditions",
                 "condition-prefix", "no-conditions", "mark-condition"]


@pytest.fixture
def fight(table):
    run = cli("encounter", "start", "Ann=3+3", "Ghoul=2+2", "Big Thug=2+1", "--seed", "1")
    assert run.exit_code == 0, run.stderr
    ok("encounter", "mark", "Big Thug", "on fire", "--no-log")
    ok("encounter", "mark", "big-thug", "prone", "--rounds", "2", "--no-log")


def _no_options(words: list[str]) -> list[str]:
    return sorted(w for w in words if not w.startswith("-"))


@pytest.mark.parametrize("line,expected", ENCOUNTER_CASES, ids=ENCOUNTER_IDS)
@pytest.mark.process
def test_bash_completes_the_encounters_extras(fight, line, expected):
    assert _no_options(_bash(line)) == sorted(expected())


@pytest.mark.parametrize("line,expected", ENCOUNTER_CASES, ids=ENCOUNTER_IDS)
@pytest.mark.process
def test_fish_completes_the_encounters_extras(fight, line, expected):
    assert _no_options(_fish(line)) == sorted(expected())


@pytest.mark.slow
@pytest.mark.process
def test_zsh_completes_the_encounters_extras(fight):
    offered = _zsh_many(*[line for line, _ in ENCOUNTER_CASES])
    for (line, expected), got in zip(ENCOUNTER_CASES, offered):
        assert _no_options(got) == sorted(expected()), line


@pytest.mark.process
def test_without_an_encounter_vs_offers_the_characters_only(table):
    assert sorted(_bash("rpgdice seyruun attack 5 --vs ")) == _characters("seyruun")


@pytest.mark.process
@pytest.mark.slow
def test_as_offers_the_traits_a_pool_is_made_of_not_willpower_or_damage(table):
    # Issue 34, point 6: the sheet's resources (Willpower, damage) are no pool's traits.
    ok("char", "set", "ysolde", "damage=2", "willpower=3")
    traits = _sheet("ysolde")["traits"]
    assert {"willpower", "damage", "dexterity"} <= set(traits)
    line = "rpgdice seyruun roll --as ysolde "
    for offered in (_bash(line), _fish(line), _zsh(line)):
        assert "dexterity" in offered and "stealth" in offered
        assert not {"willpower", "willpower-max", "damage", "health", "wound"} & set(offered)
    # A Seyruun Attribute that another ruleset reserves (Crytures stamina) is still offered.
    ok("char", "set", "ysolde", "stamina=2")
    assert "stamina" in _bash(line)
