"""A user's ruleset as a file (CLI.md, "Your own system: a ruleset as a file"): the
example files of docs/your-own-system.md (docs/rulesets/*.toml) checked, rolled by the
cases of tests/own/cases.toml (worked out by hand), their exact odds against an
enumeration of every face the roll itself reads, and every shared feature a built-in
ruleset has: --as, the log (shown by the rules of the time of the roll), again, play."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import cli, home, ok

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "rulesets"
CASES = Path(__file__).resolve().parent / "own" / "cases.toml"
NAMES = ("owod", "exalted", "cofd", "sr5", "pbta", "coc", "blades", "yze", "v5", "savage",
         "genesys", "fate", "ironsworn", "dnd5e", "cortex", "mnm", "gurps", "mothership",
         "onering", "age", "daggerheart")
LEGACY = Path(__file__).resolve().parent / "own" / "legacy"
"""The four examples as the format's first kinds wrote them (pbta a total, coc a total,
blades a highest, sr5 a pool) before they were revised: a file of today's format keeps
its meaning, and these keep the first kinds' features tested."""


def folder() -> Path:
    path = home() / "rulesets"
    path.mkdir(exist_ok=True)
    return path


def install(*names: str, legacy: bool = False) -> None:
    for name in names:
        where = LEGACY if legacy and (LEGACY / f"{name}.toml").exists() else EXAMPLES
        shutil.copy(where / f"{name}.toml", folder() / f"{name}.toml")


def write(name: str, text: str) -> Path:
    path = folder() / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_docs_hold_the_examples_and_each_checks_ok():
    assert sorted(p.stem for p in EXAMPLES.glob("*.toml")) == sorted(NAMES)
    for name in NAMES:
        run = ok("rulesets", "check", str(EXAMPLES / f"{name}.toml"))
        assert run.stdout == "ok\n"
    doc = (ROOT / "docs" / "your-own-system.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"rulesets/{name}.toml" in doc


def _cases() -> list:
    with open(CASES, "rb") as f:
        return [pytest.param(c, id=c["name"]) for c in tomllib.load(f)["case"]]


@pytest.mark.parametrize("case", _cases())
def test_the_rule_cases_of_the_examples(case):
    from test_rules import subset

    install(case["argv"][0])
    run = cli(*case["argv"], "--dice", ",".join(map(str, case["dice"])), "--json")
    if "error" in case:
        assert run.exit_code == 2 and case["error"] in run.stderr, run.stderr
        return
    assert run.exit_code == 0, run.stderr
    (obj,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert obj["ruleset"] == case["argv"][0] and obj["command"] == "roll"
    assert subset(case["expect"], obj) == []


# Exact odds against an enumeration -------------------------------------------------------


class Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class Prefix:
    """A dice source that gives the faces of a prefix, and asks for one more die when
    they run out: the roll itself says what it reads."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.at = faces, 0

    def roll(self, sides: int, n: int) -> list[int]:
        out = []
        for _ in range(n):
            if self.at == len(self.faces):
                raise Need(sides)
            out.append(self.faces[self.at])
            self.at += 1
        return out


def enumerate_outcomes(spec, most: int) -> tuple[dict[str, Fraction], Fraction]:
    """Every sequence of faces the roll reads (at most ``most`` dice), each with its chance:
    each outcome's chance, and the chance of the sequences longer than ``most``."""
    from rpgdice.rulesets._file import rules

    found: dict[str, Fraction] = defaultdict(Fraction)
    beyond = Fraction(0)
    stack = [([], Fraction(1))]
    while stack:
        faces, p = stack.pop()
        try:
            result = rules.roll(spec, Prefix(faces))
        except Need as need:
            if len(faces) >= most:
                beyond += p
                continue
            stack.extend((faces + [f], p / need.sides) for f in range(1, need.sides + 1))
            continue
        found[result.outcome] += p
    return found, beyond


ODDS = [
    ("owod", {"pool": 4}), ("owod", {"pool": 3, "difficulty": 2}), ("owod", {"pool": 0}),
    ("exalted", {"pool": 4, "difficulty": 2}), ("exalted", {"pool": 1}),
    ("cofd", {"pool": 2}), ("cofd", {"pool": 3, "difficulty": 2}), ("cofd", {"pool": 0}),
    ("sr5", {"pool": 5}), ("sr5", {"pool": 4, "difficulty": 2}), ("sr5", {"pool": 1}),
    ("pbta", {"mod": 0}), ("pbta", {"mod": -2}), ("pbta", {"mod": 3}),
    ("coc", {"target": 60}), ("coc", {"target": 19}), ("coc", {"target": 3}),
    ("blades", {"pool": 1}), ("blades", {"pool": 3}), ("blades", {"pool": 0}),
]


@pytest.mark.parametrize(("name", "args"), ODDS, ids=[f"{n}-{a}" for n, a in ODDS])
def test_exact_odds_are_the_enumerated_ones(name, args):
    from rpgdice.rulesets import _file
    from rpgdice.rulesets._file import odds, rules, schema

    where = LEGACY if (LEGACY / f"{name}.toml").exists() else EXAMPLES
    with open(where / f"{name}.toml", "rb") as f:
        checked, problems = schema.check(tomllib.load(f), name)
    assert problems == []
    spec = rules.FileRoll(name=name, rules=_file.text_of(checked), **args)
    exact = odds.file_odds(spec)
    most = (args.get("pool") or 2) + (3 if name == "cofd" else 0)
    counted, beyond = enumerate_outcomes(spec, most)
    left = Fraction(exact.left_out) if exact.truncated else Fraction(0)
    assert set(counted) <= set(exact.outcomes)
    for outcome, p in exact.outcomes.items():
        if beyond or left:  # cofd's again: equal within what either left out
            assert abs(p - counted[outcome]) <= beyond + left + Fraction(1, 10**9), outcome
        else:
            assert p == counted[outcome], outcome
    if not (beyond or left):
        assert sum(exact.outcomes.values()) == 1


def test_the_odds_command_agrees_with_a_count_by_hand():
    install("pbta", "blades")
    # 2d6+1: 10+ needs 9+ on the dice: 4+3+2+1 = 10 of 36; 7-9 needs 6-8: 5+6+5 = 16.
    (o,) = ok("pbta", "odds", "+1", "--json").json()
    assert o["ruleset"] == "pbta" and o["command"] == "odds"
    assert o["outcomes"] == pytest.approx({"strong-hit": 10 / 36, "weak-hit": 16 / 36,
                                           "miss": 10 / 36})
    assert o["truncated"] is False and o["left_out"] == 0
    # Two d6: two 6s 1/36; one 6 10/36; highest 4-5: 25/36 - 9/36; 1-3: 9/36.
    (o,) = ok("blades", "odds", "2", "--json").json()
    assert o["outcomes"] == pytest.approx({"critical": 1 / 36, "full-success": 10 / 36,
                                           "partial-success": 16 / 36, "bad-outcome": 9 / 36})


def test_again_chains_state_their_depth_and_what_was_left_out():
    install("cofd")
    (o,) = ok("cofd", "odds", "3", "--json").json()
    assert o["truncated"] is True and o["explode_depth"] == 10
    assert 0 < o["left_out"] < 1e-9
    assert sum(o["outcomes"].values()) + o["left_out"] == pytest.approx(1)


def test_roll_with_odds_and_compare():
    install("owod")
    (obj,) = ok("owod", "roll", "3", "--dice", "6,2,2", "--odds", "--json").json()
    assert obj["odds"]["outcomes"]["botch"] == pytest.approx(0.5 ** 3 * (1 - 0.8 ** 3))
    (o,) = ok("owod", "odds", "3", "--compare", "-d 2", "--json").json()
    assert o["compare"][0]["args"] == "-d 2"
    assert o["compare"][0]["odds"]["outcomes"]["success"] < o["outcomes"]["success"]


def test_the_work_budget_holds_for_a_users_ruleset():
    install("sr5")
    run = cli("sr5", "roll", "1000", "-n", "100000")
    assert run.exit_code == 2 and "budget" in run.stderr
    run = cli("sr5", "odds", "1000")
    assert run.exit_code == 2 and "odds budget" in run.stderr


# Listing and checking --------------------------------------------------------------------


def test_rulesets_lists_built_in_and_the_users_files_skipping_a_broken_one():
    install("owod", "pbta", legacy=True)
    write("broken", 'name = "broken"\ntitle = "B"\nkind = "pool"\n')
    run = cli("rulesets", "--json")
    assert run.exit_code == 0
    rows = json.loads(run.stdout)
    assert rows[0] == {"name": "crytures", "title": "Crytures", "kind": None, "file": None}
    mine = {r["name"]: r for r in rows if r["file"]}
    assert set(mine) == {"owod", "pbta"}
    assert mine["pbta"] == {"name": "pbta", "title": "Powered by the Apocalypse",
                            "kind": "total", "file": str(folder() / "pbta.toml")}
    assert "broken.toml" in run.stderr and "warning" in run.stderr
    text = cli("rulesets").stdout
    assert "owod" in text and "World of Darkness (old)" in text


def test_check_lists_every_problem_with_its_key_and_exits_2(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "other"\ntitle = "Mine"\nkind = "pool"\ndie = 10\nsucess = 6\n'
                    'again_once = true\n[[outcomes]]\nname = "Hit"\ntone = "great"\n'
                    'margin_at_least = "x"\n[[outcomes]]\nname = "hit"\ntone = "bad"\n',
                    encoding="utf-8")
    run = cli("rulesets", "check", str(path))
    assert run.exit_code == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines)
    keys = [line[len(str(path)) + 2:].split(":")[0] for line in lines]
    assert keys == ["sucess", "name", "success", "again_once", "outcomes[1].tone",
                    "outcomes[1].margin_at_least", "outcomes[2].name"]
    assert "did you mean success?" in lines[0]
    assert "misnamed" in lines[1]


@pytest.mark.parametrize("text, key", [
    ('name = "x"\ntitle = "X"\nkind = "total"\ndice = "2d6"\ndie = 6\n', "die"),
    ('name = "x"\ntitle = "X"\nkind = "pool"\ndie = 10\nsuccess = 6\nsuccess_at_most = 3\n',
     "success_at_most"),
    ('name = "x"\ntitle = "X"\nkind = "pool"\ndie = 10\nsuccess = 11\n', "success"),
    ('name = "x"\ntitle = "X"\nkind = "dice"\n', "kind"),
    ('name = "roll"\ntitle = "X"\nkind = "highest"\ndie = 6\n', "name"),
    ('name = "x"\nkind = "highest"\ndie = 6\n', "title"),
    ('name = "x"\ntitle = "X"\nkind = "total"\ndice = "2d6*2"\n', "dice"),
])
def test_check_names_the_key_at_fault(tmp_path, text, key):
    path = tmp_path / "x.toml"
    if 'name = "roll"' in text:
        path = tmp_path / "roll.toml"
    path.write_text(text + '[[outcomes]]\nname = "A"\ntone = "good"\n', encoding="utf-8")
    run = cli("rulesets", "check", str(path))
    assert run.exit_code == 2
    assert f"{path}: {key}: " in run.stderr, run.stderr


def test_a_file_that_cannot_be_read_is_refused_in_one_line(tmp_path):
    bad = write("bin", "")
    bad.write_bytes(b'name = "bin"\ntitle = "\xff"\n')
    run = cli("bin", "roll", "3")
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1
    assert "bin.toml" in run.stderr
    write("big", "# " + "x" * 300_000 + "\n")
    run = cli("big", "roll", "3")
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1 and "big.toml" in run.stderr
    fifo = folder() / "pipe.toml"
    os.mkfifo(fifo)
    run = cli("rulesets", "check", str(fifo))
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1


def test_a_broken_file_is_named_by_its_group_and_never_by_the_others():
    install("owod")
    write("mine", 'name = "mine"\ntitle = "Mine"\nkind = "pool"\ndie = 10\nsucess = 6\n')
    run = cli("mine", "roll", "3")
    assert run.exit_code == 2
    assert run.stderr.strip().endswith("mine.toml: sucess: is no key of a ruleset file "
                                       "(did you mean success?)")
    assert ok("crytures", "roll", "3", "--dice", "5,5,5").stderr == ""
    assert ok("owod", "roll", "1", "--dice", "6").stderr == ""


@pytest.mark.parametrize("name", ["params", "re", "build"])
def test_a_file_named_as_a_name_of_the_commands_module_rolls_and_replays(name):
    # rulesets/_file/commands.py answers commands.NAME with the file NAME's commands: a
    # name it holds itself (a module it imports, a function) must not stand in for them
    write(name, KEEN.replace('name = "keen"', f'name = "{name}"'))
    run = ok(name, "roll", "3", "--dice", "7,2,1,3", "--json", "--log")
    assert [o["outcome"] for o in run.json()] == ["hit"]
    from rpgdice.roll import execute

    execute.BUILDERS.pop((name, "roll"), None)  # the replay's path: the builder looked up
    assert execute.builder(name, "roll").args == (name,)
    again = ok("again", "--dice", "1,1,1", quiet=False)  # stderr: the line repeated
    assert again.json()[0]["outcome"] == "miss"


def test_a_file_added_and_removed_between_two_commands():
    run = cli("owod", "roll", "3")
    assert run.exit_code == 2
    install("owod")
    assert ok("owod", "roll", "1", "--dice", "7", "--json").json()[0]["outcome"] == "success"
    (folder() / "owod.toml").unlink()
    run = cli("owod", "roll", "1", "--dice", "7")
    assert run.exit_code == 2 and "owod" in run.stderr
    from rpgdice import rulesets

    assert "owod" not in rulesets.names()


def test_a_file_edited_is_read_again_at_its_next_roll():
    install("owod")
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    path = folder() / "owod.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("success = 6", "success = 7")
                    .replace('title = "World of Darkness (old)"', 'title = "Harder"'),
                    encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a new stamp even within the file system's clock tick
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "failure"
    assert "Harder" in ok("owod", "roll", "1", "--dice", "6").stdout


# The log, again, --as, play ----------------------------------------------------------------


def test_the_log_shows_and_replays_a_roll_by_the_rules_it_was_made_with():
    install("owod")
    ok("owod", "roll", "3", "--seed", "7", "--log")
    (entry,) = ok("log", "--json").json()
    assert entry["ruleset"] == "owod" and entry["command"] == "roll"
    before = ok("log", "show", "1", "--replay", "--json").json()[0]
    assert before["replayed"] is True
    path = folder() / "owod.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("success = 6", "success = 10"),
                    encoding="utf-8")
    os.utime(path, ns=(1, 1))
    after = ok("log", "show", "1", "--replay", "--json").json()[0]
    assert after["replayed"] is True and after["results"] == before["results"]
    shown = ok("log", "show", "1").stdout
    assert "World of Darkness (old)" in shown
    stats = ok("log", "stats", "--json").json()
    assert stats[0]["ruleset"] == "owod" and stats[0]["rolls"] == 1
    assert sum(stats[0]["expected"].values()) == pytest.approx(1)


def _edited(name: str, *pairs: tuple[str, str]) -> None:
    path = folder() / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(1, 1))  # another stamp, whatever the clock's grain


def test_log_show_keeps_the_words_and_title_it_was_rolled_with_whatever_the_file_says_now():
    # issue 36: the title and the outcome's word came from today's file.
    from rpgdice.serve import views
    from rpgdice.table.log import Log

    def first() -> dict:
        log = Log.open(write=False)
        assert log is not None
        try:
            entry = log.get(1)
            assert entry is not None
            return entry
        finally:
            log.close()

    install("pbta", legacy=True)
    ran = ok("pbta", "roll", "1", "--dice", "3,5", "--log", "--odds").stdout  # 9: a weak hit
    assert "Powered by the Apocalypse" in ran and "Weak hit" in ran
    listed = ok("log").stdout
    page = views.entry_html(first())
    _edited("pbta", ('title = "Powered by the Apocalypse"', 'title = "Renamed"'),
            ('name = "Weak hit"', 'name = "Partial"'), ("at_least = 7", "at_least = 9"))
    assert "Partial" in ok("pbta", "roll", "1", "--dice", "3,5").stdout  # today's file rolls
    shown = ok("log", "show", "1").stdout
    assert shown.split("\n", 1)[1] == ran  # as rolled: title, word, odds (bands) and all
    assert "Renamed" not in shown and "Partial" not in shown
    assert ok("log").stdout.splitlines()[:2] == listed.splitlines()[:2]
    assert views.entry_html(first()) == page
    replayed = ok("log", "show", "1", "--replay")
    assert replayed.stdout.split("\n", 1)[1] == ran
    assert ok("log", "show", "1", "--json").json()[0]["results"][0]["outcome"] == "weak-hit"
    (folder() / "pbta.toml").unlink()  # the file gone: the entry shows as ever
    assert ok("log", "show", "1").stdout == shown
    assert ok("log").stdout.splitlines()[:2] == listed.splitlines()[:2]
    assert views.entry_html(first()) == page
    assert ok("log", "show", "1", "--replay").stdout.split("\n", 1)[1] == ran
    assert cli("pbta", "roll", "1").exit_code == 2  # and no roll by it


def test_again_rolls_by_todays_file_and_a_removed_one_is_named():
    install("owod")
    ok("owod", "roll", "2", "--seed", "3", "--log")
    path = folder() / "owod.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("success = 6", "success = 2"),
                    encoding="utf-8")
    os.utime(path, ns=(1, 1))
    run = cli("again", "--json")
    assert run.exit_code == 0 and "rpgdice: again: owod roll 2" in run.stderr
    (obj,) = run.json()
    # success 2 now: every die but a 1 is a success
    assert obj["successes"] == sum(1 for d in obj["dice"] if d["face"] >= 2) - sum(
        1 for d in obj["dice"] if d["face"] == 1) or obj["successes"] == 0
    path.unlink()
    run = cli("again")
    assert run.exit_code == 2 and "owod" in run.stderr


def test_a_character_rolls_with_its_traits_negative_ones_too():
    install("pbta", "owod")
    ok("char", "new", "Kit", "--ruleset", "pbta", "cool=2", "weird=-1")
    (obj,) = ok("pbta", "roll", "weird", "--as", "kit", "--dice", "3,3", "--json").json()
    assert obj["total"] == 5 and obj["character"] == "Kit" and obj["outcome"] == "miss"
    (obj,) = ok("pbta", "roll", "cool+1", "--as", "kit", "--dice", "3,3", "--json").json()
    assert obj["total"] == 9
    run = cli("owod", "roll", "3", "--as", "kit")
    assert run.exit_code == 2


def test_short_and_secret():
    install("blades")
    line = ok("blades", "roll", "2", "--dice", "6,4", "--short").stdout
    assert "blades roll 2" in line and "6 4" in line and "Full success" in line
    ok("blades", "roll", "2", "--secret", "--seed", "1")
    (entry,) = ok("log", "--json").json()
    assert entry["secret"] is True


def test_a_zero_dice_highest_roll_says_no_dice_two_rolled_the_lower_decides():
    # Blades' zero = "lowest-of-2": a pool of 0 has no dice of its own; of the two rolled
    # the lower (5) decides, though a 6 shows. The view, log show and odds say so.
    install("blades", legacy=True)
    for shown in (ok("blades", "roll", "0", "--dice", "6,5", "--log").stdout,
                  ok("log", "show", "1").stdout):
        head, dice, verdict = [x for x in shown.splitlines() if not x.startswith("#")][:3]
        assert "2 dice" not in shown and "highest die" not in shown, shown
        assert "no dice" in head and "two rolled, the lower decides" in head, head
        assert dice.split() == ["dice", "6", "5"]
        assert "Partial success" in verdict and "the lower die is 5" in verdict, verdict
    (obj,) = ok("blades", "roll", "0", "--dice", "6,5", "--json").json()
    assert obj["highest"] == 5 and obj["critical"] is False
    assert obj["dice"] == [{"face": 6, "counts": None}, {"face": 5, "counts": None}]
    head = ok("blades", "odds", "0").stdout.splitlines()[0]
    assert "0 dice" not in head and "two rolled, the lower decides" in head, head
    # a pool of 2 is two dice, the highest deciding, as before
    shown = ok("blades", "roll", "2", "--dice", "6,5").stdout
    assert "2 dice" in shown and "the highest die is 6" in shown
    # zero = "fail": nothing rolled, and the view says so
    write("nada", LEGACY.joinpath("blades.toml").read_text(encoding="utf-8")
          .replace('"blades"', '"nada"').replace('"lowest-of-2"', '"fail"'))
    shown = ok("nada", "roll", "0").stdout
    assert "nothing rolled" in shown and "highest die" not in shown, shown


def test_play_uses_a_users_ruleset(capsys):
    install("blades")
    from rpgdice.cli.session import Session

    session = Session(as_json=True)
    assert session.line("use blades", 1) == 0
    assert session.line("roll 2 --dice 6,6", 2) == 0
    assert session.line("odds 1", 3) == 0
    objs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert objs[0]["ruleset"] == "blades" and objs[0]["outcome"] == "critical"
    assert objs[1]["command"] == "odds"


def test_help_lists_the_group_and_its_shared_options():
    install("owod")
    top = ok("--help", env={"COLUMNS": "120"}).stdout
    assert "owod" in top and "your own ruleset" in top
    roll = ok("owod", "roll", "--help", env={"COLUMNS": "120"}).stdout
    for option in ("--difficulty", "--dice", "--seed", "--times", "--json", "--odds",
                   "--log", "--short", "--secret", "--compare", "--as"):
        assert option in roll, option
    assert "--rules" not in roll
    run = cli("owod", "roll", "3", "--rules", "{}")
    assert run.exit_code == 2


# Completion: the shells list the files' names themselves (no Python) --------------------


def _own_files() -> None:
    install("owod", "pbta")
    write("misnamed", 'name = "other"\ntitle = "M"\nkind = "pool"\n')
    write("nokind", 'name = "nokind"\ntitle = "N"\n')


@pytest.mark.process
def test_bash_completes_the_users_rulesets():
    from test_completion import _bash

    _own_files()
    assert {"owod", "pbta"} <= set(_bash("rpgdice "))
    assert not {"misnamed", "other", "nokind"} & set(_bash("rpgdice "))
    assert _bash("rpgdice ow") == ["owod"]
    assert _bash("rpgdice owod ") == ["roll", "odds"]
    assert _bash("rpgdice pbta roll --ta") == ["--target"]
    assert "--difficulty" in _bash("rpgdice owod odds --")


@pytest.mark.process
def test_fish_completes_the_users_rulesets():
    from test_completion import _fish, _fish_described

    _own_files()
    top = _fish_described("rpgdice ")
    assert top["owod"] == "your own ruleset" and "misnamed" not in top and "crytures" in top
    assert _fish("rpgdice owod ") == ["odds", "roll"]
    assert _fish("rpgdice pbta roll --ta") == ["--target"]


@pytest.mark.slow
@pytest.mark.process
def test_zsh_completes_the_users_rulesets():
    from test_completion import _zsh_many

    _own_files()
    top, group, target = _zsh_many("rpgdice ", "rpgdice owod ", "rpgdice pbta roll --ta")
    assert {"owod", "pbta"} <= set(top) and "misnamed" not in top and "nokind" not in top
    assert sorted(group) == ["odds", "roll"]
    assert target == ["--target"]


def test_the_tables_page_shows_a_users_roll_as_log_show_does():
    from rpgdice.serve import views
    from test_serve import last_entry

    install("blades")
    assert cli("blades", "roll", "3", "--dice", "6,6,2", "--log").exit_code == 0
    html = views.entry_html(last_entry())
    assert "Blades in the Dark" in html and "Critical" in html and "<span style=" in html


@pytest.mark.parametrize(("name", "args", "faces", "shown"), [
    # CLI.md, "Dice by term": dropped dice marked, each group of dice its own
    ("pbta", ["1", "--dis"], "6,1,5", ['<span class="die drop">(6)</span>',
                                        '<span class="die">1</span>']),
    ("v5", ["3", "--hunger", "1"], "10,3,1", ['<span class="die">3</span></span><span class='
                                               '"term"><span class="expr">hunger</span><span '
                                               'class="die">1</span>']),
    ("savage", ["6"], "6,3,2", ['<span class="die">6+3</span>',  # an ace joined to its die
                                '<span class="expr">wild</span><span class="die">2</span>']),
    ("savage", ["4"], "3,6,6,1", ['<span class="die">3</span>', '<span class="die">6+6+1</span>']),
])
def test_a_custom_files_card_shows_its_dice_by_group_and_marks_the_dropped(name, args, faces,
                                                                            shown):
    from rpgdice.serve import views
    from test_serve import last_entry

    install(name)
    assert cli(name, "roll", *args, "--dice", faces, "--log").exit_code == 0
    results = views.entry_html(last_entry()).split('<ul class="results">', 1)[1].split(
        "</ul>", 1)[0]
    for part in shown:
        assert part in results, results


# Start-up: a user's roll loads what a built-in roll loads; a built-in roll nothing of them --


@pytest.mark.process
def test_a_users_json_roll_loads_no_view_odds_or_log():
    from test_startup import _modules_after

    install("owod")
    out, modules = _modules_after(["owod", "roll", "3", "--json", "--seed", "7"])
    assert json.loads(out)["ruleset"] == "owod"
    assert not [m for m in modules if m.split(".")[0] in ("rich", "icepool", "sqlite3")]
    assert not {"rpgdice.rulesets._file.odds", "rpgdice.rulesets._file.view"} & modules


@pytest.mark.process
def test_a_built_in_roll_loads_nothing_of_the_users_rulesets():
    from test_startup import _modules_after

    install("owod")
    _, modules = _modules_after(["crytures", "roll", "3", "--json", "--seed", "7"])
    assert not [m for m in modules if m.startswith("rpgdice.rulesets._file")]


def test_a_session_rolls_by_the_file_as_it_is_at_each_line(capsys):
    install("owod")
    from rpgdice.cli.session import Session

    session = Session(as_json=True)
    assert session.line("owod roll 1 --dice 6", 1) == 0
    path = folder() / "owod.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("success = 6", "success = 7"),
                    encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert session.line("owod roll 1 --dice 6", 2) == 0
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (first["outcome"], second["outcome"]) == ("success", "failure")


def test_a_session_names_a_broken_file_and_goes_on(capsys):
    write("mine", 'name = "mine"\ntitle = "Mine"\nkind = "pool"\n')
    from rpgdice.cli.session import Session

    session = Session(as_json=True)
    assert session.line("mine roll 3", 1) == 2
    assert "mine.toml: die: is missing" in json.loads(capsys.readouterr().out)["error"]
    assert session.line("roll 1d6 --dice 4", 2) == 0


def test_the_parsed_copy_stands_for_the_file_only_while_the_file_is_as_it_was(monkeypatch):
    from rpgdice import rulesets
    from rpgdice.rulesets import _file
    from rpgdice.table import files

    install("owod")
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    copy = _file.parsed_path("owod")
    assert copy.is_file()
    reads: list[Path] = []
    real = files.read_toml

    def counted(path):
        reads.append(path)
        return real(path)

    monkeypatch.setattr(files, "read_toml", counted)
    rulesets.forget()  # as a new process: only the copy on disk remains
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    assert reads == []
    # a copy spoiled (by hand, or half-written) is read as none: the file is read again
    kept = json.loads(copy.read_text(encoding="utf-8"))
    kept["data"]["kind"] = "nonsense"
    copy.write_text(json.dumps(kept), encoding="utf-8")
    rulesets.forget()
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    assert len(reads) == 1
    copy.write_text("{not json", encoding="utf-8")
    rulesets.forget()
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    assert len(reads) == 2
    # the file edited: read again, whatever the copy says
    path = folder() / "owod.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("success = 6", "success = 7"),
                    encoding="utf-8")
    os.utime(path, ns=(1, 1))
    rulesets.forget()
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "failure"
    assert len(reads) == 3


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_the_parsed_copy_never_writes_through_what_stands_in_its_place(tmp_path, kind):
    from rpgdice import rulesets
    from rpgdice.rulesets import _file

    install("owod")
    copy = _file.parsed_path("owod")
    copy.parent.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine", encoding="utf-8")
    if kind == "link":
        copy.symlink_to(victim)
    else:
        os.mkfifo(copy)
    rulesets.forget()
    assert ok("owod", "roll", "1", "--dice", "6", "--json").json()[0]["outcome"] == "success"
    assert victim.read_text(encoding="utf-8") == "mine"
    assert copy.is_file() and not copy.is_symlink()
    assert json.loads(copy.read_text(encoding="utf-8"))["data"]["name"] == "owod"


def test_a_huge_pool_of_a_users_ruleset_is_counted_by_face_and_json_keeps_every_die():
    # issue 35: a pool of more dice than DICE_SHOWN, as a built-in ruleset's.
    install("owod")
    shown = ok("owod", "roll", "300", "--seed", "5").stdout
    assert "(300 dice counted by face; --json lists each die)" in " ".join(shown.split())
    assert len(shown.splitlines()) < 8 and "10✓ ×" in shown
    assert len(ok("owod", "roll", "300", "--seed", "5", "--json").json()[0]["dice"]) == 300


# Issue 36: what an attacker and a newcomer found ------------------------------------------

KEEN = """name = "keen"
title = "Keen"
kind = "pool"
die = 10
success = 6
again = 6

[[outcomes]]
name = "hit"
tone = "good"
success = true

[[outcomes]]
name = "miss"
tone = "bad"
"""


class _TooLong(BaseException):
    pass


def _within(seconds: float):
    """A context that fails the test (never hangs it) when its body computes longer: the
    process's CPU time (user + system), which other work on the machine (another test
    worker, other programs) does not stretch as it does the wall clock."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def limit():
        def stop(*_):
            raise _TooLong(f"took more than {seconds} s")

        old = signal.signal(signal.SIGPROF, stop)
        signal.setitimer(signal.ITIMER_PROF, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)

    return limit()


def test_the_odds_of_a_long_again_chain_are_bounded_work():
    # issue 36: again = success = 6 on a d10 chained 5 ways a die, ten deep (minutes).
    write("keen", KEEN)
    with _within(5):
        (o,) = ok("keen", "odds", "1", "--json").json()
        (r,) = ok("keen", "roll", "1", "--odds", "--json", "--seed", "3").json()
        (big,) = ok("keen", "odds", "40", "--json").json()
    # One die: 1-5 a miss; 6-10 a hit, less the chains past ten extra dice (1/2 ** 11).
    assert o["outcomes"]["miss"] == 0.5 and o["left_out"] == pytest.approx(0.5 ** 11)
    assert o["outcomes"]["hit"] == pytest.approx(0.5 - 0.5 ** 11) and o["explode_depth"] == 10
    assert r["odds"]["outcomes"] == o["outcomes"]
    assert big["outcomes"]["hit"] > 0.9
    run = cli("keen", "odds", "1000")
    assert run.exit_code == 2 and "odds budget" in run.stderr and len(run.stderr.splitlines()) == 1


def test_log_stats_skips_what_it_cannot_afford_and_stays_quick():
    import time

    write("keen", KEEN)
    for pool in ("1", "2", "85"):
        ok("keen", "roll", pool, "--log", "--seed", "1")
    start = time.process_time()  # its CPU time: a busy machine does not stretch it
    with _within(8):
        (g,) = ok("log", "stats", "--json").json()
    assert time.process_time() - start < 4
    assert g["ruleset"] == "keen" and g["rolls"] == 2 and g["left_out"] == 1


BELL = """name = "bell"
title = "Bell\\u0007\\u001b[31m"
kind = "highest"
die = 6

[[outcomes]]
name = "hit\\u001b]0;x"
tone = "good"
highest_at_least = 4

[[outcomes]]
name = "miss"
tone = "bad"
"""


def test_control_characters_in_a_file_are_refused_naming_the_key(tmp_path):
    path = tmp_path / "bell.toml"
    path.write_text(BELL, encoding="utf-8")
    run = cli("rulesets", "check", str(path))
    assert run.exit_code == 2 and "\x1b" not in run.stderr and "\x07" not in run.stderr
    assert run.stderr.splitlines() == [
        f"{path}: title: control characters are not allowed (line 2)",
        f"{path}: outcomes[1].name: control characters are not allowed (line 7)"]
    write("bell", BELL)
    run = cli("bell", "roll", "2")
    assert run.exit_code == 2 and "title: control characters are not allowed" in run.stderr
    run = cli("rulesets")
    assert run.exit_code == 0 and "\x1b" not in run.stdout + run.stderr
    assert "(skipped)" in run.stderr


def test_forged_rules_and_outcomes_are_shown_with_their_controls_visible():
    from rpgdice.rulesets import _file
    from rpgdice.serve import views

    install("blades")
    record = _file.load("blades")
    forged = json.loads(record.text)
    forged["title"] = "Blades\x1b[2J\x07"
    forged["outcomes"][0]["name"] = "Crit\x1b]0;owned\x07"
    made = _file.make(forged, record.file)
    shown = made.title + made.help + "".join(w for w, _ in made.outcomes.values())
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b" in made.title
    # the page: a card's verdict is classed by its tone, one of four names whatever the
    # stored outcome or tone says (CLI.md, "What the table sees")
    for forged_tone in ({}, {"verdict": 'v\x1b" onclick="z', "tone": 'x\x1b" onclick="y'}):
        html = views._card({"results": [{"ruleset": "blades", "command": "roll",
                                         "outcome": 'x\x1b" onclick="y', "dice": [],
                                         **forged_tone}],
                            "argv": ["blades", "roll", "1"]})
        assert "\x1b" not in html and 'onclick="' not in html
        assert 'class="verdict neutral"' in html


def test_every_root_command_and_help_and_dice_are_refused_as_a_files_name(tmp_path):
    import typer

    from rpgdice import rulesets
    from rpgdice.cli import COMMAND_MODULES, GROUP_MODULES, TOP_COMMANDS, app
    from rpgdice.core.commands import ROOT_COMMANDS
    from rpgdice.rulesets import _file

    root = typer.main.get_command(app)
    listed = set(root.list_commands(typer.Context(root))) - set(_file.RESERVED)
    assert listed <= set(rulesets.names()), listed  # what is left: the rulesets
    assert set(ROOT_COMMANDS) == set(COMMAND_MODULES) | set(GROUP_MODULES) | set(TOP_COMMANDS)
    assert {"table", "help", "dice"} <= _file.RESERVED
    for name in (*ROOT_COMMANDS, "help", "dice"):
        path = tmp_path / f"{name}.toml"
        path.write_text(KEEN.replace('name = "keen"', f'name = "{name}"'), encoding="utf-8")
        run = cli("rulesets", "check", str(path))
        assert run.exit_code == 2 and "is a built-in ruleset or command" in run.stderr, name


def test_a_file_that_hides_an_alias_says_so_on_stderr():
    ok("alias", "keen", "roll 1d6")
    write("keen", KEEN)
    for args in (("rulesets", "check", str(folder() / "keen.toml")), ("keen", "roll", "1"),
                 ("keen", "odds", "1")):
        run = ok(*args, quiet=False)
        assert "hides your alias 'keen'" in run.stderr and len(run.stderr.splitlines()) == 1
    assert "hit" in ok("keen", "roll", "1", "--dice", "7,2", quiet=False).stdout  # the file wins
    write("other", KEEN.replace('"keen"', '"other"'))
    assert ok("other", "roll", "1").stderr == ""


def test_a_totals_modifier_is_shown_in_its_breakdown():
    install("pbta", legacy=True)
    shown = ok("pbta", "roll", "+2", "--dice", "5,3").stdout
    assert "total 10 (dice 8 + 2)" in shown
    assert "total 6 (dice 8 − 2)" in ok("pbta", "roll", "-2", "--dice", "5,3").stdout
    (obj,) = ok("pbta", "roll", "+2", "--dice", "5,3", "--json").json()
    assert obj["total"] == 10 and obj["mod"] == 2
    assert "(dice" not in ok("pbta", "roll", "--dice", "5,3").stdout


def test_odds_say_the_roll_they_are_of_in_the_heading():
    install("owod", "coc", "blades", "pbta", legacy=True)
    assert ok("owod", "odds", "5", "-d", "2").stdout.splitlines()[0].endswith(
        "odds · 5 dice · Difficulty 2")
    assert ok("coc", "odds", "--target", "55").stdout.splitlines()[0].endswith(
        "odds · target 55")
    assert ok("pbta", "odds", "+2").stdout.splitlines()[0].endswith("odds · MOD +2")
    assert ok("blades", "odds", "3").stdout.splitlines()[0].endswith("odds · 3 dice")
    (o,) = ok("owod", "odds", "5", "-d", "2", "--json").json()
    assert o["pool"] == 5 and o["difficulty"] == 2


def test_a_files_help_names_its_metavars_and_compares_with_its_own_options():
    install("owod", "coc", "blades")
    for name, example in (("owod", "--compare '-d 2'"), ("coc", "--compare '--target 12'")):
        for command in ("roll", "odds"):
            text = " ".join(ok(name, command, "--help").stdout.split())
            assert "<int range>" not in text and "--willpower" not in text
            assert example in text
    assert "--difficulty -d N" in " ".join(ok("owod", "roll", "--help").stdout.split())
    # the example given works
    assert ok("owod", "odds", "3", "--compare", "-d 2").stdout
    assert ok("coc", "odds", "--target", "50", "--compare", "--target 12").stdout


def test_check_takes_a_name_for_the_users_own_file(tmp_path, monkeypatch):
    install("owod")
    assert ok("rulesets", "check", "owod").stdout == "ok\n"
    run = cli("rulesets", "check", "yz")
    assert run.exit_code == 2 and "no ruleset file" in run.stderr and "yz.toml" in run.stderr
    assert len(run.stderr.splitlines()) == 1
    monkeypatch.chdir(tmp_path)  # a path is still a path
    shutil.copy(EXAMPLES / "coc.toml", tmp_path / "coc.toml")
    assert ok("rulesets", "check", "coc.toml").stdout == "ok\n"
    assert ok("rulesets", "check", "./coc.toml").stdout == "ok\n"


@pytest.mark.slow
def test_log_stats_counts_the_faces_of_a_custom_file_of_one_die_size():
    """CLI.md, ``log stats``: ``faces`` per die size. Shadowrun and Blades, pool and
    highest files before, are custom now: their d6s are still counted; dice of several sizes
    (Cortex) or of the file's own faces (Call of Cthulhu's 0-9) are not."""
    install("sr5", "blades", "cortex", "coc")
    ok("sr5", "roll", "3", "--seed", "5", "--log")
    ok("blades", "roll", "2", "--seed", "5", "--log")
    ok("cortex", "roll", "8", "6", "--target", "3", "--seed", "5", "--log")
    ok("coc", "roll", "--target", "50", "--seed", "5", "--log")
    faces = {s["ruleset"]: s["faces"] for s in ok("log", "stats", "--json").json()}
    assert list(faces["sr5"]) == ["d6"] and sum(faces["sr5"]["d6"].values()) == 3
    assert list(faces["blades"]) == ["d6"] and sum(faces["blades"]["d6"].values()) == 2
    assert faces["cortex"] == {} and faces["coc"] == {}


def test_the_panel_offers_a_file_arguments_choices():
    """CLI.md, "A seat's panel": each parameter's ``choices`` (docs/serve.md: "a choice
    where the command names its choices"): Savage Worlds' DIE and Cortex's DIE... name
    4, 6, 8, 10, 12; an argument without choices names none."""
    from rpgdice import rulesets
    from rpgdice.serve.panel import commands_of

    install("savage", "cortex")
    for name, param in (("savage", "size"), ("cortex", "sizes")):
        assert rulesets.known(name)
        (roll,) = [c for c in commands_of(name, as_character=False) if c["kind"] == "roll"]
        params = {p["name"]: p for p in roll["params"]}
        assert params[param]["choices"] == ["4", "6", "8", "10", "12"], params[param]
    (roll,) = [c for c in commands_of("savage", as_character=True) if c["kind"] == "roll"]
    assert [p["choices"] for p in roll["params"] if p["name"] == "mod"] == [[]]


def test_a_file_added_after_the_options_were_made_is_a_ruleset_they_take():
    """``log --ruleset`` and ``play --ruleset`` read the files when they parse, not when
    their module was first imported (a test, or a long ``play``, that added a file after
    was refused); help and completion list the built-in rulesets alone, whatever the home
    holds, so the committed scripts never depend on who generated them."""
    from typing import get_args, get_type_hints

    from rpgdice.cli import log, play
    from rpgdice.cli.completion import generate

    def parser_of(hint):  # Annotated[...]'s option, inside the Optional 3.10 adds
        found = [a.parser for a in get_args(hint) if hasattr(a, "parser")]
        return found[0] if found else next(p for p in map(parser_of, get_args(hint)) if p)

    parsers = [parser_of(log.RulesetOpt),
               parser_of(get_type_hints(play.play_cmd, include_extras=True)["ruleset"])]
    install("pbta")
    for parse in parsers:
        assert parse("PbtA") == "pbta"
    ok("pbta", "roll", "1", "--dice", "3,4", "--log")
    assert [e["ruleset"] for e in ok("log", "--ruleset", "pbta", "--json").json()] == ["pbta"]
    assert cli("log", "--ruleset", "nope").exit_code == 2
    ok("char", "new", "Kit", "--ruleset", "PbtA", "cool=1")  # a file's name, as any ruleset's
    assert ok("char", "show", "kit", "--json").json()[0]["ruleset"] == "pbta"
    committed = (ROOT / "completions" / "rpgdice.bash").read_text(encoding="utf-8")
    assert generate("bash") == committed
    assert "pbta" not in ok("log", "--help").stdout
