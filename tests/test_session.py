"""`rpgdice play` (CLI.md, "The session"): batch mode, the context words, and the
differential test: a corpus of commands run one-shot and through one session must
print the same, byte for byte (text and JSON)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import cli, make_character, ok
from rpgdice.cli import app
from rpgdice.cli.session import _at_the_prompt

# The corpus: (session line, the one-shot argv it stands for or None for a session word,
# the one-shot's RPGDICE_AS, whether the command has a JSON form). Every ruleset, given
# faces and seeds, errors, characters and what they spend, aliases, the log, again.
CORPUS: list[tuple[str, list[str] | None, str | None, bool]] = [
    ("# a comment, then a blank line", None, None, False),
    ("", None, None, False),
    ("crytures roll 4+2 --roll-mod 1 --seed 7", ["crytures", "roll", "4+2", "--roll-mod", "1", "--seed", "7"], None, True),
    ("crytures roll 3 --dice 10,2,7", ["crytures", "roll", "3", "--dice", "10,2,7"], None, True),
    ("seyruun roll 3 2 --wound light --seed 1 -n 3", ["seyruun", "roll", "3", "2", "--wound", "light", "--seed", "1", "-n", "3"], None, True),
    ("seyruun contest 3+2 2+2 --seed 9", ["seyruun", "contest", "3+2", "2+2", "--seed", "9"], None, True),
    ("reglas roll 5+5 -d normal --seed 2", ["reglas", "roll", "5+5", "-d", "normal", "--seed", "2"], None, True),
    ("reglas roll 5 --mod x", ["reglas", "roll", "5", "--mod", "x"], None, True),
    ("cypher task -d demanding --skill trained --seed 3", ["cypher", "task", "-d", "demanding", "--skill", "trained", "--seed", "3"], None, True),
    ("roll 4d6kh3 --seed 11 -n 2", ["roll", "4d6kh3", "--seed", "11", "-n", "2"], None, True),
    ("roll 2d6 --dice 1,9", ["roll", "2d6", "--dice", "1,9"], None, True),
    ("seyruun roll 3 3 --wound mortal", ["seyruun", "roll", "3", "3", "--wound", "mortal"], None, True),
    ("seyruun odds 3 3", ["seyruun", "odds", "3", "3"], None, True),
    ("frobnicate 3", ["frobnicate", "3"], None, True),
    ("char new Ysolde --ruleset seyruun dexterity=3 stealth=2 composure=2 resolve=3", ["char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=2", "composure=2", "resolve=3"], None, False),
    ("char show ysolde", ["char", "show", "ysolde"], None, True),
    ("seyruun roll dexterity stealth --as ysolde --willpower --seed 5", ["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower", "--seed", "5"], None, True),
    ("alias sneak 'seyruun roll dexterity stealth --as ysolde'", ["alias", "sneak", "seyruun roll dexterity stealth --as ysolde"], None, False),
    ("sneak --seed 8", ["sneak", "--seed", "8"], None, True),
    ("alias", ["alias"], None, True),
    ("use seyruun", None, None, False),
    ("roll 3 3 --seed 4", ["seyruun", "roll", "3", "3", "--seed", "4"], None, True),
    ("as ysolde", None, None, False),
    ("roll dexterity stealth --seed 6", ["seyruun", "roll", "dexterity", "stealth", "--seed", "6"], "Ysolde", True),
    ("reglas roll 4 --seed 6", ["reglas", "roll", "4", "--seed", "6"], "Ysolde", True),
    ("roll dexterity --seed 6 --bonus 1", ["seyruun", "roll", "dexterity", "--seed", "6", "--bonus", "1"], "Ysolde", True),
    ("use -", None, None, False),
    ("roll 2d6 --seed 6", ["roll", "2d6", "--seed", "6"], "Ysolde", True),
    ("as -", None, None, False),
    ("char show ysolde --json", ["char", "show", "ysolde", "--json"], None, True),
    ("log --last 3 --json", ["log", "--last", "3", "--json"], None, True),
    ("log show 2", ["log", "show", "2"], None, True),
    ("again --dice 1,2,3,4,5", ["again", "--dice", "1,2,3,4,5"], None, True),
    ("log stats --ruleset crytures", ["log", "stats", "--ruleset", "crytures"], None, True),
    ("log clear", ["log", "clear"], None, False),
    ("char rm ysolde --yes", ["char", "rm", "ysolde", "--yes"], None, False),
    ("seyruun roll --help", ["seyruun", "roll", "--help"], None, False),
    ("reglas roll -h", ["reglas", "roll", "-h"], None, False),
    ("--version", ["--version"], None, False),
    ("seyruun", ["seyruun"], None, False),
]

TIMES = re.compile(r"\d\d\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ|\b\d\d:\d\d:\d\d\b")
"""The log's times, the one thing two runs of the corpus may not share."""


def _env(home: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "RPGDICE_SEED", "RPGDICE_AS")}
    env.update(RPGDICE_HOME=str(home), RPGDICE_LOG="always", COLUMNS="80", **more)
    return env


def _run(args: list[str], env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rpgdice", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def _fresh(home: Path) -> None:
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()


def _one_shot(home: Path, as_json: bool) -> tuple[str, list[str], list[str]]:
    """The corpus one command at a time: stdout (with --json: what the session's stdout
    must be, errors as their objects), the error reasons, and the text of the commands
    with no JSON form."""
    _fresh(home)
    out: list[str] = []
    reasons: list[str] = []
    text: list[str] = []
    for number, (_, argv, who, has_json) in enumerate(CORPUS, 1):
        if argv is None:
            continue
        env = _env(home, **({"RPGDICE_AS": who} if who else {}))
        wants = as_json and has_json and "--json" not in argv
        run = _run([*argv, *(["--json"] if wants else [])], env)
        # At the prompt a hint never says to type 'rpgdice' (CLI.md, "The session").
        errors = [_at_the_prompt(line.removeprefix("rpgdice: error: ")) for line in run.stderr.splitlines()
                  if line.startswith("rpgdice: error: ")]
        reasons += [f"line {number}: {e}" for e in errors]
        if as_json and not has_json:
            text.append(run.stdout)
        else:
            out.append(run.stdout)
        if as_json and run.returncode:
            out.append(json.dumps({"error": errors[0], "line": number}, ensure_ascii=False) + "\n")
    return "".join(out), reasons, text


def _session(home: Path, as_json: bool) -> subprocess.CompletedProcess:
    _fresh(home)
    lines = "".join(line + "\n" for line, *_ in CORPUS)
    return _run(["play", *(["--json"] if as_json else [])], _env(home), stdin=lines)


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.process
def test_the_corpus_prints_the_same_one_shot_and_in_a_session(tmp_path, as_json):
    home = tmp_path / "home"
    expected, reasons, text = _one_shot(home, as_json)
    got = _session(home, as_json)
    assert got.returncode == 2  # the corpus has errors
    assert TIMES.sub("T", got.stdout) == TIMES.sub("T", expected)
    errors = [line.removeprefix("rpgdice: error: ") for line in got.stderr.splitlines()
              if line.startswith("rpgdice: error: ")]
    if as_json:
        assert errors == []  # in the JSON objects only
        assert len(text) == 8 and all(t in got.stderr for t in text) and all(text[:2])
    else:
        assert errors == reasons and len(errors) == 6


# In-process: quick checks of the rules of a session -------------------------------


def play(text: str, *args: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(app, ["play", *args], input=text, env=env)
    return result


def test_a_batch_session_runs_each_line_as_the_one_shot_command():
    got = play("seyruun roll 3 3 --seed 5\ncrytures roll 4 --dice 1,2,3,10\n")
    one = cli("seyruun", "roll", "3", "3", "--seed", "5").stdout
    two = cli("crytures", "roll", "4", "--dice", "1,2,3,10").stdout
    assert got.exit_code == 0, got.stderr
    assert got.stdout == one + two and one and two


def test_use_prefixes_only_the_commands_of_that_ruleset():
    got = play("use seyruun\nroll 3 3 --seed 5 --json\nroll 2d6 --seed 1 --json\n"
               "crytures roll 3 --seed 2 --json\nuse dice\nroll 2d6 --seed 1 --json\n")
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert [r["ruleset"] for r in rows] == ["seyruun", "crytures", "dice"]
    assert "line 3: " in got.stderr and "2d6" in got.stderr  # seyruun roll 2d6: no pool
    assert got.exit_code == 2


def test_as_sets_the_character_and_its_ruleset():
    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    got = play("as ysolde\nroll dexterity stealth --seed 3 --json\nreglas roll 4 --seed 1 --json\n"
               "as -\nseyruun roll dexterity --seed 3 --json\n")
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert rows[0]["character"] == "Ysolde" and rows[0]["pool"] == 5
    assert rows[1]["ruleset"] == "reglas" and "character" not in rows[1]  # ignored there
    assert len(rows) == 2 and "line 5: " in got.stderr  # a trait name, and no --as
    assert os.environ.get("RPGDICE_AS") is None  # nothing leaks out of the session


def test_as_a_character_no_one_saved_is_an_error_and_the_session_goes_on():
    got = play("as nobody\nroll 2d6 --seed 1 --json\n")
    assert got.stderr.startswith("rpgdice: error: line 1: as: no character 'nobody'")
    assert json.loads(got.stdout)["ruleset"] == "dice"
    assert got.exit_code == 2


def test_play_as_and_ruleset_options_set_the_context():
    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    got = play("roll dexterity stealth --seed 3 --json\n", "--as", "ysolde")
    assert json.loads(got.stdout)["character"] == "Ysolde"
    assert "RPGDICE_AS" not in os.environ  # the session's own, gone with it
    got = play("roll 4 --seed 3\n", "--ruleset", "crytures")
    assert got.stdout.startswith("Crytures roll") and got.exit_code == 0
    missing = play("roll 4\n", "--as", "nobody")
    assert missing.exit_code == 2 and missing.stdout == ""
    assert missing.stderr.startswith("rpgdice: error: --as: no character 'nobody'")


def test_json_errors_are_objects_in_place_counting_every_physical_line():
    got = play("# comment\n\nseyruun roll 3 3 --seed 1\nseyruun roll x\nuse nowhere\n"
               "roll 'open\n", "--json")
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert rows[0]["ruleset"] == "seyruun"
    assert [(r["line"], r["error"].split(":")[0]) for r in rows[1:]] == [
        (4, "ATTRIBUTE"), (5, "use"), (6, "no closing quotation")]
    assert not any("rpgdice: error" in r["error"] for r in rows[1:])
    assert got.stderr == "" and got.exit_code == 2


def test_text_only_commands_print_on_stderr_with_json():
    got = play("alias sneak 'seyruun roll 3 3'\nalias\nsneak --seed 2\n", "--json")
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert rows[0] == {"name": "sneak", "command": "seyruun roll 3 3"}
    assert rows[1]["ruleset"] == "seyruun" and rows[1]["seed"] == 2
    assert "sneak" in got.stderr and got.exit_code == 0


def test_a_rulesets_language_does_not_outlive_its_line():
    got = play("reglas roll x\nuse bogus\nseyruun roll x\n")
    first, second, third = got.stderr.splitlines()
    assert "no es un número" in first
    assert second == ("rpgdice: error: line 2: use: 'bogus' is not a ruleset; accepts crytures, "
                      "seyruun, reglas, cypher, dice or -")
    assert "is no number" in third


def test_exit_stops_reading_and_quit_too():
    for word in ("exit", "quit"):
        got = play(f"roll 1d6 --seed 1\n{word}\nroll x\n")
        assert got.exit_code == 0 and got.stdout.startswith("Dice") and got.stderr == ""


def test_the_environment_a_line_changes_is_put_back(monkeypatch):
    from rpgdice.cli.session import Session

    session = Session()
    seen = []

    class Root:  # a command that changes the environment (the root group tidies it)
        def run_words(self, args, parsed=None):
            seen.append(os.environ.get("RPGDICE_PROBE"))
            os.environ["RPGDICE_PROBE"] = "changed"
            return 0

        def get_command(self, ctx, name):
            return None

    monkeypatch.setenv("RPGDICE_PROBE", "before")
    session.root = Root()
    assert session.line("anything", 1) == 0 and session.line("again", 2) == 0
    assert seen == ["before", "before"] and os.environ["RPGDICE_PROBE"] == "before"


def test_the_log_records_each_command_as_the_one_shot_would(monkeypatch):
    monkeypatch.setenv("RPGDICE_LOG", "always")
    play("use reglas\nroll 5 --seed 1\nagain\n")
    entries = cli("log", "--json").json()
    assert [e["argv"] for e in entries] == [["reglas", "roll", "5", "--seed", "1"],
                                            ["reglas", "roll", "5"]]


def test_play_inside_a_session_is_an_error():
    got = play("play\n")
    assert got.exit_code == 2 and got.stderr.startswith("rpgdice: error: line 1: play: ")


PROMPT_TOOLKIT_PROBE = """
import sys
from rpgdice.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("\\n" + str(sorted(m for m in sys.modules if m.startswith("prompt_toolkit"))))
sys.stderr.write("\\n" + str(code))
"""


@pytest.mark.parametrize("args", [["seyruun", "roll", "3", "3", "--json"],
                                  ["play", "--json"], ["seyruun", "roll", "3", "3"]])
@pytest.mark.process
def test_prompt_toolkit_loads_only_for_the_prompt(args):
    run = subprocess.run([sys.executable, "-c", PROMPT_TOOLKIT_PROBE, *args], input="roll 1d6\n",
                         capture_output=True, text=True, timeout=60)
    modules, code = run.stderr.splitlines()[-2:]
    assert code == "0" and run.stdout
    assert modules == "[]"


@pytest.mark.slow  # imports prompt_toolkit in a process of its own
@pytest.mark.process
def test_the_probe_sees_prompt_toolkit_when_the_prompt_is_built():
    run = subprocess.run([sys.executable, "-c", "import rpgdice.cli.prompt, sys; print("
                          "'prompt_toolkit' in sys.modules)"], capture_output=True, text=True)
    assert run.stdout.strip() == "True"


PROMPT = re.compile(r"^([a-z]+(?::[a-z0-9-]+)?)> (.*)$")


def test_the_transcript_in_docs_session_is_what_a_session_prints(monkeypatch):
    """docs/session.md's transcript, line by line: each prompt is the session's, and what
    follows it is what that line prints (stdout and stderr in order, 80 columns)."""
    import io

    from rpgdice.cli.session import STOPPED, Session

    text = (Path(__file__).resolve().parents[1] / "docs" / "session.md").read_text(encoding="utf-8")
    block = text.split("<!-- session transcript: checked by tests/test_session.py -->\n```text\n")[1]
    block = block.split("```")[0]
    make_character("Ysolde", "seyruun", dexterity=3, stealth=3)
    for name, value in {"COLUMNS": "80", "NO_COLOR": "1", "RPGDICE_LOG": "never"}.items():
        monkeypatch.setenv(name, value)
    session = Session()
    session.numbered = False  # as at the prompt
    steps: list[tuple[str, str, list[str]]] = []
    for line in block.splitlines():
        if (m := PROMPT.match(line)) is not None:
            steps.append((m.group(1) + "> ", m.group(2), []))
        else:
            steps[-1][2].append(line)
    assert len(steps) >= 8
    for prompt, typed, shown in steps:
        assert session.prompt == prompt, typed
        out = io.StringIO()
        with monkeypatch.context() as streams:
            streams.setattr(sys, "stdout", out)
            streams.setattr(sys, "stderr", out)
            code = session.line(typed, 1)
        assert out.getvalue().splitlines() == shown, typed
    assert code is STOPPED


@pytest.mark.slow  # builds the whole command tree (every ruleset), as the first TAB does
def test_tab_offers_the_shell_vocabulary_the_context_and_the_users_names():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from rpgdice.cli.prompt import SessionCompleter
    from rpgdice.cli.session import Session

    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    make_character("Nix", "cypher", might=10)
    cli("alias", "sneak", "seyruun roll dexterity stealth --as ysolde")
    session = Session()
    tab = SessionCompleter(session)

    def offered(text: str) -> list[str]:
        return [c.text for c in tab.get_completions(Document(text), CompleteEvent())]

    assert {"use", "as", "exit", "seyruun", "play", "sneak"} <= set(offered(""))
    assert offered("sey") == ["seyruun"]
    assert offered("seyruun roll --wound ") == ["none", "light", "moderate", "severe", "crippled"]
    assert offered("seyruun roll --as ") == ["ysolde"]  # the ruleset's characters only
    assert offered("as ") == ["nix", "ysolde", "-"]
    assert offered("use d") == ["dice"]
    assert offered("roll ") == []  # ordinary dice: no named values
    session.take_character("ysolde")
    assert offered("roll dex") == ["dexterity"]  # the context's ruleset and traits
    assert {"roll", "contest", "char", "log"} <= set(offered(""))
    assert offered("cypher task --as nix --skill ") == ["trained", "specialized", "inability"]


@pytest.mark.slow  # builds the whole command tree, as the first TAB does
def test_tab_offers_the_encounters_names_to_mark_and_a_combatants_conditions_to_unmark():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from rpgdice.cli.prompt import SessionCompleter
    from rpgdice.cli.session import Session

    make_character("Ysolde", "seyruun", dexterity=3, stealth=2)
    ok("encounter", "start", "--ruleset", "cypher", "Big Thug@9", "Gob@3", "--no-log")
    ok("encounter", "mark", "big thug", "on fire", "--no-log")
    tab = SessionCompleter(Session())

    def offered(text: str) -> list[str]:
        return [c.text for c in tab.get_completions(Document(text), CompleteEvent())]

    assert offered("encounter mark ") == ["Big-Thug", "Gob"]  # not the saved characters
    assert offered("encounter unmark --log ") == ["Big-Thug", "Gob"]
    assert offered("encounter unmark big-thug ") == ["on-fire"]
    assert offered("encounter unmark Gob ") == []
    assert offered("encounter mark Gob ") == []


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.process
def test_a_session_whose_output_is_full_says_so_on_stderr(tmp_path, as_json):
    """CLI.md: exit 1, with one stderr line, when the output could not be delivered."""
    env = {**os.environ, "RPGDICE_HOME": str(tmp_path)}
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "rpgdice", "play", *(["--json"] * as_json)],
                             input="roll 1d6\nroll 1d8\n", stdout=full, stderr=subprocess.PIPE,
                             text=True, env=env, timeout=60)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "rpgdice: error: line 1: could not write the output: No space left on device"]


def test_help_and_question_mark_list_the_sessions_words_and_the_commands():
    got = play("help\n?\nhelp roll\n")
    assert got.exit_code == 0, got.stderr
    assert got.stdout.count("The session's own words") == 2
    for word in ("use RULESET", "as NAME", "help [COMMAND]", "exit", "roll", "char", "log"):
        assert word in got.stdout
    assert "Usage: rpgdice roll" in got.stdout  # help COMMAND: its --help


def test_a_dice_expression_alone_rolls_and_a_leading_rpgdice_is_dropped():
    got = play("2d6+3 --dice 2,4 --json\nrpgdice roll d20 --dice 7 --json\nd20 adv --dice 3,17 --json\n")
    assert got.exit_code == 0, got.stderr
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert [r["total"] for r in rows] == [9, 7, 17]


def test_dice_maidens_and_sidekicks_words_at_the_prompt_get_their_hint_and_an_alias_still_runs():
    got = play("s 4d6\ndndstats\nrepeat (4d6k3, 6)\nul 4d6\nfrobnicate\n"
               "alias age 'roll 3d6 --dice 1,2,3 --json'\nage\n")
    lines = got.stderr.splitlines()
    assert "line 1: EXPR: s 4d6 — Dice Maiden's 's' (simplified output) is '4d6' with --short here" in lines[0]
    assert "is '4d6kh3' with -n 6 here" in lines[1] and "is '4d6k3' with -n 6 here" in lines[2]
    assert "is how dice are shown here: '4d6' rolls" in lines[3]
    assert "'frobnicate' is not a command" in lines[4] and len(lines) == 5
    assert json.loads(got.stdout.splitlines()[-1])["total"] == 6  # the alias named age, not the hint


def test_a_peers_spelling_at_the_prompt_gets_the_same_hint_and_no_hint_says_rpgdice():
    got = play("/r 1d20+5\n4d10 ie10\n1d20+5 dc 15\nrol 2d6\n")
    assert got.exit_code == 2
    lines = got.stderr.splitlines()
    assert "line 1: EXPR: /r 1d20+5 — " in lines[0] and "is '1d20+5' here" in lines[0]
    assert "is '4d10!>=10' here" in lines[1] and "is '1d20+5>=15' here" in lines[2]
    assert all("'rpgdice " not in line for line in lines)


def test_help_lists_the_commands_within_the_terminal_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    got = play("help\n")
    assert got.exit_code == 0, got.stderr
    lines = got.stdout.splitlines()
    assert max(map(len, lines)) <= 79 and any("completion" in line for line in lines)
    listed = [line for line in lines if "crytures" in line or "rulesets" in line]
    assert all(len(line) < 60 for line in listed)
