"""Issue 24: the user's files under attack. Each test is the attack that broke it:
a sheet copied by hand, FIFOs and devices as files, values rpgdice wrote and then
refused, terminal escapes in names, bad homes, full disks, outputs not delivered,
symlinks, read-only sheets and stray temporary files."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import assert_usage_error, character, cli, home, make_character, ok, proc, sheet_file
from rpgdice.render.output import one_line
from rpgdice.table import files

ESC_TITLE = "\x1b]0;pwned\x07"
ESC_CLEAR = "\x1b[2J"


def willpower(key: str) -> int:
    from rpgdice.table.files import _toml  # tomllib, or tomli on Python 3.10

    return _toml().loads(sheet_file(key).read_text(encoding="utf-8"))["traits"]["willpower"]


@pytest.fixture
def ysolde() -> Path:
    return character("Ysolde")


# 1. A spend is paid by the file that was read -----------------------------------


def test_a_sheet_copied_by_hand_is_refused_and_never_charges_the_sheet_its_name_names(ysolde):
    ana = sheet_file("ana")
    shutil.copy(ysolde, ana)  # cp ysolde.toml ana.toml, then edited
    ana.write_text(ana.read_text(encoding="utf-8").replace("dexterity = 3", "dexterity = 1"),
                   encoding="utf-8")
    before = ana.read_text(encoding="utf-8")
    run = cli("seyruun", "roll", "dexterity", "stealth", "--willpower", "--as", "ana")
    assert_usage_error(run, str(ana), "'Ysolde'", "ana.toml")
    assert willpower("ysolde") == 5 and ana.read_text(encoding="utf-8") == before
    # The attack target too.
    run = cli("seyruun", "attack", "3+3", "--vs", "ana", "--defense", "3", "--defender-willpower")
    assert_usage_error(run, str(ana))
    assert willpower("ysolde") == 5
    # char list names it in a warning and lists the others.
    listed = cli("char", "list")
    assert listed.exit_code == 0
    assert "Ysolde" in listed.stdout and str(ana) not in listed.stdout
    assert "warning" in listed.stderr and str(ana) in listed.stderr


def test_settle_pays_from_the_file_the_sheet_was_read_from(ysolde):
    from rpgdice.table import sheets

    ok("char", "new", "Ana", "--ruleset", "seyruun", "composure=2", "resolve=2")
    ana = sheets.load("ana")
    spent, left = sheets.spend(ana, "seyruun", {"willpower": 1})
    assert spent == {"willpower": 1} and left == {"willpower": 3}
    assert willpower("ana") == 3 and willpower("ysolde") == 5


def test_a_reroll_pays_from_the_sheet_it_read(ysolde):
    r = cli("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--log", "--json",
            "--dice", "2,2,2,2,2,2")
    assert r.exit_code == 0, r.stderr
    ok("seyruun", "reroll")
    assert willpower("ysolde") == 4


# 4. Only regular files, of a bounded size ---------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("which", ["sheet", "config"])
@pytest.mark.process
def test_a_fifo_as_a_sheet_or_config_is_refused_at_once(which):
    folder = home() / "characters" if which == "sheet" else home()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("ana.toml" if which == "sheet" else "config.toml")
    os.mkfifo(path)
    args = ("char", "show", "ana") if which == "sheet" else ("alias",)
    run = proc(*args, timeout=30)
    assert_usage_error(run, str(path), "not a regular file")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.process
def test_a_sheet_linked_to_dev_zero_is_refused():
    folder = home() / "characters"
    folder.mkdir(parents=True)
    (folder / "ana.toml").symlink_to("/dev/zero")
    run = proc("char", "show", "ana", timeout=30)
    assert_usage_error(run, str(folder / "ana.toml"), "not a regular file")


def test_a_sheet_over_the_size_limit_is_refused_naming_it(ysolde):
    text = ysolde.read_text(encoding="utf-8")
    ysolde.write_text(text + "#" * files.MAX_BYTES + "\n", encoding="utf-8")
    run = cli("seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde")
    assert_usage_error(run, str(ysolde), f"{files.MAX_BYTES // 1024} KiB")
    ysolde.write_text(text + "#" * (files.MAX_BYTES - len(text.encode()) - 2) + "\n",
                      encoding="utf-8")
    ok("char", "show", "ysolde")  # just within the limit


def test_the_readme_states_the_size_limit():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"{files.MAX_BYTES // 1024} KiB" in readme


# 5. What rpgdice writes, it reads --------------------------------------------------


def test_char_new_never_writes_a_willpower_over_what_a_trait_holds():
    run = cli("char", "new", "Big", "--ruleset", "seyruun", "composure=501", "resolve=500")
    assert_usage_error(run, "willpower", "1001", "1000")
    assert not sheet_file("big").exists()
    ok("char", "new", "Big", "--ruleset", "seyruun", "composure=500", "resolve=500")
    assert json.loads(ok("char", "show", "big", "--json").stdout)["willpower"] == 1000


def test_char_set_never_makes_a_maximum_over_what_a_trait_holds():
    ok("char", "new", "Big", "--ruleset", "seyruun", "composure=500", "resolve=500")
    before = sheet_file("big").read_text(encoding="utf-8")
    assert_usage_error(cli("char", "set", "big", "composure=501"), "1001")
    assert sheet_file("big").read_text(encoding="utf-8") == before
    ok("char", "show", "big")


# 6. Text from files never drives the terminal ------------------------------------


def _escaped_sheet() -> Path:
    folder = home() / "characters"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"b{ESC_TITLE}.toml"
    # TOML writes a control character as an escape (\\u001b); json.dumps does the same.
    path.write_text(f'name = {json.dumps("B" + ESC_TITLE)}\nruleset = "seyruun"\n[traits]\n'
                    f'{json.dumps("dex" + ESC_CLEAR)} = 3\ncomposure = 2\nresolve = 2\n'
                    'willpower = 4\n', encoding="utf-8")
    return path


def test_names_and_traits_from_a_sheet_are_shown_with_escapes_visible():
    _escaped_sheet()
    ok("char", "new", "Ana", "--ruleset", "seyruun", "composure=2", "resolve=2")
    sheet_file("ana").write_text(sheet_file("ana").read_text(encoding="utf-8")
                                 + f'{json.dumps("dex" + ESC_CLEAR)} = 3\n', encoding="utf-8")
    assert ok("char", "list").stderr == ""  # both sheets read
    for args in (("char", "list"), ("char", "show", "ana"), ("char", "set", "ana", "resolve=3"),
                 ("seyruun", "roll", f"dex{ESC_CLEAR}", "--as", "ana", "--willpower")):
        run = ok(*args)
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout, (args, run.stdout)
    assert "\\x1b]0;pwned\\x07" in ok("char", "list").stdout
    assert "Dex\\x1b[2J" in ok("char", "show", "ana").stdout
    # JSON keeps the text as it is.
    listed = ok("char", "list", "--json").json()
    assert f"B{ESC_TITLE}" in [s["name"] for s in listed]
    assert "dex\x1b[2j" in ok("char", "show", "ana", "--json").json()[0]["traits"]  # folded
    rolled = ok("seyruun", "roll", f"dex{ESC_CLEAR}", "--as", "ana")
    assert "Dex\\x1b[2J 3" in rolled.stdout


def test_an_alias_and_the_log_are_shown_with_escapes_visible():
    ok("alias", "x", f"seyruun roll 3 {ESC_CLEAR}")
    for args in (("alias",), ("alias", "x")):
        run = ok(*args)
        assert "\x1b" not in run.stdout and "\\x1b[2J" in run.stdout
    assert ok("alias", "--json").json()[0]["command"].endswith(ESC_CLEAR)
    ok("seyruun", "roll", "3", "--log")
    db = sqlite3.connect(home() / "log.sqlite3")
    db.execute("UPDATE entries SET character = ?, argv = ?",
               (f"B{ESC_TITLE}", json.dumps(["seyruun", "roll", f"3{ESC_CLEAR}"])))
    db.commit()
    db.close()
    for args in (("log",), ("log", "show", "1")):
        run = cli(*args)
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout, (args, run.stdout)


# 7. Bad homes and bad files: exit 2 with a reason --------------------------------


def test_deeply_nested_toml_is_one_broken_sheet_not_an_internal_error(ysolde):
    nested = sheet_file("deep")
    nested.write_text('name = "Deep"\nruleset = "seyruun"\nx = ' + "[" * 5000 + "]" * 5000 + "\n",
                      encoding="utf-8")
    assert_usage_error(cli("char", "show", "deep"), str(nested), "nested too deeply")
    listed = cli("char", "list")
    assert listed.exit_code == 0 and "Ysolde" in listed.stdout
    assert str(nested) in listed.stderr


def test_a_name_whose_file_name_is_too_long_is_a_usage_error():
    run = cli("char", "new", "\ufdfa" * 8, "--ruleset", "seyruun")
    assert_usage_error(run, "NAME", "255")
    assert_usage_error(cli("char", "show", "\ufdfa" * 8), "NAME", "255")


@pytest.mark.parametrize("kind", ["file", "devnull", "long"])
@pytest.mark.parametrize("args", [("char", "new", "A", "--ruleset", "seyruun"), ("char", "list"),
                                  ("alias", "a", "seyruun roll 3"), ("alias",),
                                  ("log",), ("log", "stats"), ("log", "show", "1")])
def test_a_home_that_cannot_be_a_folder_is_named(kind, args, tmp_path, monkeypatch):
    if kind == "file":
        bad = tmp_path / "f"
        bad.write_text("", encoding="utf-8")
    elif kind == "devnull":
        bad = Path(os.devnull)
    else:
        bad = tmp_path / ("x" * 300)
    monkeypatch.setenv("RPGDICE_HOME", str(bad))
    assert_usage_error(cli(*args), "RPGDICE_HOME")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc")
def test_a_home_in_proc_is_a_usage_error(monkeypatch):
    monkeypatch.setenv("RPGDICE_HOME", "/proc/self")
    assert_usage_error(cli("char", "new", "A", "--ruleset", "seyruun"), "/proc/self")


def test_characters_as_a_file_and_the_lock_as_a_folder_are_named():
    home().mkdir(parents=True, exist_ok=True)
    (home() / "characters").write_text("", encoding="utf-8")
    for args in (("char", "new", "A", "--ruleset", "seyruun"), ("char", "list")):
        assert_usage_error(cli(*args), str(home() / "characters"), "move it away")
    (home() / "characters").unlink()
    (home() / "characters" / ".lock").mkdir(parents=True)
    assert_usage_error(cli("char", "new", "A", "--ruleset", "seyruun"),
                       str(home() / "characters" / ".lock"), "is a folder")


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES, errno.ENOSPC])
def test_a_sheet_that_cannot_be_written_is_named_and_left_as_it_was(ysolde, monkeypatch, code):
    before = ysolde.read_text(encoding="utf-8")

    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "replace", refuse)
    for args in (("char", "set", "ysolde", "stealth=4"),
                 ("seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde")):
        run = cli(*args)
        assert_usage_error(run, str(ysolde), os.strerror(code), "nothing was changed")
        assert "could not write the output" not in run.stderr
    assert ysolde.read_text(encoding="utf-8") == before
    assert not list(ysolde.parent.glob("*.tmp"))
    # config.toml too
    run = cli("alias", "a", "seyruun roll 3")
    assert_usage_error(run, str(home() / "config.toml"), os.strerror(code))


def test_a_new_sheet_in_a_folder_that_cannot_be_made_is_named(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    run = cli("char", "new", "A", "--ruleset", "seyruun")
    assert_usage_error(run, str(home() / "characters"), "Permission denied", "RPGDICE_HOME")


# 9. Spends: delivered and recorded, through links, never over a protection ------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.process
def test_a_spend_whose_output_is_not_delivered_is_given_back(ysolde):
    ok("char", "new", "Ghoul", "--ruleset", "seyruun", "composure=2", "resolve=2")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    for args in (("seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde", "--log"),
                 ("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense", "3",
                  "--defender-willpower", "--log")):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "rpgdice", *args], stdout=full,
                                  stderr=subprocess.PIPE, text=True, env=env, timeout=60)
        assert done.returncode == 1, done.stderr
        assert "could not write the output" in done.stderr
    assert willpower("ysolde") == 5 and willpower("ghoul") == 4
    assert ok("log", "--json").stdout == ""


def test_a_spend_writes_through_a_symlinked_sheet(ysolde):
    real = home() / "elsewhere" / "ysolde.toml"
    real.parent.mkdir()
    ysolde.rename(real)
    ysolde.symlink_to(real)
    ok("seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde")
    assert ysolde.is_symlink() and Path(os.readlink(ysolde)) == real
    assert willpower("ysolde") == 4
    ok("char", "set", "ysolde", "stealth=1")
    assert ysolde.is_symlink() and "stealth = 1" in real.read_text(encoding="utf-8")


def test_a_read_only_sheet_is_never_rewritten(ysolde):
    before = ysolde.read_text(encoding="utf-8")
    ysolde.chmod(0o444)
    try:
        for args in (("seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde"),
                     ("char", "set", "ysolde", "stealth=1")):
            assert_usage_error(cli(*args), str(ysolde), "read-only", "chmod u+w")
        assert ysolde.read_text(encoding="utf-8") == before
        ok("seyruun", "roll", "dexterity", "--as", "ysolde")  # a roll that pays nothing still rolls
    finally:
        ysolde.chmod(0o644)


def test_a_willpower_set_over_its_maximum_by_hand_blocks_only_what_makes_it_worse(ysolde):
    ysolde.write_text(ysolde.read_text(encoding="utf-8").replace("willpower = 5", "willpower = 9"),
                      encoding="utf-8")
    ok("char", "set", "ysolde", "stealth=4")  # an unrelated trait
    assert "stealth = 4" in ysolde.read_text(encoding="utf-8")
    assert_usage_error(cli("char", "set", "ysolde", "resolve=1"), "willpower 9")
    assert_usage_error(cli("char", "set", "ysolde", "willpower=8"), "willpower 8")
    ok("char", "set", "ysolde", "willpower=5")
    assert willpower("ysolde") == 5


def test_stray_temporary_files_are_cleaned_on_the_next_write(ysolde):
    stray = ysolde.parent / ".ysolde.toml.k1ll3d.tmp"
    stray.write_text("half a sheet", encoding="utf-8")
    other = ysolde.parent / ".ana.toml.k1ll3d.tmp"
    other.write_text("another file's", encoding="utf-8")
    ok("char", "set", "ysolde", "stealth=2")
    assert not stray.exists() and other.exists()


def test_a_log_the_file_system_refuses_is_one_line_naming_it_and_exit_2(monkeypatch, tmp_path):
    """An over-long home: `log`, `log stats` and `log show` say which log cannot be opened
    and what to do (exit 2), never exit 1 or a traceback."""
    monkeypatch.setenv("RPGDICE_HOME", str(tmp_path / ("a" * 300)))
    for argv in (["log"], ["log", "stats"], ["log", "show", "1"]):
        run = cli(*argv)
        assert_usage_error(run, "the roll log", "cannot be opened", "RPGDICE_HOME")


def test_rich_markup_in_a_sheet_is_shown_as_text(tmp_path):
    """A trait key written by hand as "[red]boom[/red]" is shown as typed, brackets and
    all: text from the user's files is never read as Rich markup."""
    sheet = make_character("Mark", "crytures", a=3)
    sheet.write_text('name = "Mark"\nruleset = "crytures"\n\n[traits]\n"[red]boom[/red]" = 3\n',
                     encoding="utf-8")
    run = cli("char", "show", "mark")
    assert run.exit_code == 0, run.stderr
    assert "[red]boom[/red]" in run.stdout, run.stdout


def test_a_sheet_with_a_key_of_thousands_of_dotted_parts_is_refused_at_once():
    """One 40 KB line `a.a.a... = 1` took the TOML reader 6 s and 2.3 GB (the square of
    its parts): refused before any reader sees it, naming the file and the line, and
    `char list` still lists the others."""
    import time

    make_character("Ysolde", "seyruun", dexterity=3)
    folder = home() / "characters"
    (folder / "dots.toml").write_text('name = "dots"\nruleset = "seyruun"\n[traits]\ndex = 1\n[n]\n'
                                      + "a" + ".a" * 20000 + " = 1\n", encoding="utf-8")
    started = time.monotonic()
    run = cli("seyruun", "roll", "dex", "1", "--as", "dots")
    assert time.monotonic() - started < 2
    assert_usage_error(run, "dots.toml", "line 6", "dotted parts")
    listed = cli("char", "list", "--json")
    assert [c["name"] for c in listed.json()] == ["Ysolde"], listed.stdout


def test_a_pool_argument_of_thousands_of_terms_is_refused_at_once():
    """`roll 'x-x-x-...' --as ysolde`: the longest-trait-name search grew with the square
    of the terms (16 s for 20,000); more than 64 terms is refused at once."""
    import time

    make_character("Ysolde", "seyruun", dexterity=3)
    started = time.monotonic()
    run = cli("seyruun", "roll", "x-" * 20000 + "x", "1", "--as", "ysolde")
    assert time.monotonic() - started < 2
    assert_usage_error(run, "more than 64 terms")


SPEND_FROM = """
import os, sys
os.environ["RPGDICE_HOME"] = sys.argv[1]
from rpgdice.cli import main
sys.exit(main(["seyruun", "roll", "dexterity", "--willpower", "--as", "ysolde", "--json",
               "--no-log"]))
"""


@pytest.mark.slow
@pytest.mark.process
def test_a_sheet_linked_from_two_homes_takes_one_lock_and_loses_no_spend(ysolde, tmp_path):
    ysolde.write_text(ysolde.read_text(encoding="utf-8").replace("willpower = 5", "willpower = 12")
                      .replace("composure = 3", "composure = 10"), encoding="utf-8")
    real = tmp_path / "real" / "ysolde.toml"
    real.parent.mkdir()
    ysolde.rename(real)
    homes = [tmp_path / "home-a", tmp_path / "home-b"]
    for h in homes:
        (h / "characters").mkdir(parents=True)
        (h / "characters" / "ysolde.toml").symlink_to(real)
    env = {k: v for k, v in os.environ.items() if k != "RPGDICE_HOME"}
    procs = [subprocess.Popen([sys.executable, "-c", SPEND_FROM, str(homes[i % 2])], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(10)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 10, outs
    lefts = sorted(json.loads(out)["left"]["willpower"] for out, _ in outs)
    assert lefts == list(range(2, 12))  # each saw the one before it, through either home
    assert "willpower = 2" in real.read_text(encoding="utf-8")
    assert all((h / "characters" / "ysolde.toml").is_symlink() for h in homes)


@pytest.mark.process
def test_char_list_names_each_entry_that_is_no_regular_file_and_lists_the_good_sheets(ysolde):
    folder = ysolde.parent
    os.mkfifo(folder / "fifo.toml")  # opened, it would block char list for ever
    (folder / "dir.toml").mkdir()
    (folder / "dangling.toml").symlink_to(folder / "nowhere.toml")
    (folder / "null.toml").symlink_to("/dev/null")
    run = subprocess.run([sys.executable, "-m", "rpgdice", "char", "list"], capture_output=True,
                         text=True, timeout=30, env={**os.environ, "RPGDICE_HOME": str(home())})
    assert run.returncode == 0, run.stderr
    assert [line.split()[0] for line in run.stdout.splitlines()] == ["Ysolde"]
    warnings = run.stderr.splitlines()
    assert len(warnings) == 4, warnings
    expected = {"dangling.toml": "link to nothing", "dir.toml": "is a folder",
                "fifo.toml": "FIFO", "null.toml": "device"}
    for line, (name, why) in zip(warnings, sorted(expected.items())):
        # a word over LONG_WORD characters is shown cut (a long temporary folder's path)
        assert line.startswith("rpgdice: warning: ") and one_line(folder / name) in line
        assert why in line
    data = [json.loads(line) for line in ok("char", "list", "--json", quiet=False).stdout.splitlines()]
    assert [c["name"] for c in data] == ["Ysolde"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("who", [("dexterity", "stealth", "--as", "ysolde"), ("3", "3")])
@pytest.mark.process
def test_a_reroll_whose_output_is_not_delivered_is_given_back_and_unmarked(ysolde, who):
    ok("seyruun", "roll", *who, "--dice", "2,2,3,3,4,4", "--log")  # a failure
    (entry,) = [json.loads(line) for line in ok("log", "--json").stdout.splitlines()]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    for args in ((), ("--json",)):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "rpgdice", "seyruun", "reroll", *args,
                                   "--log"], stdout=full, stderr=subprocess.PIPE, text=True,
                                  env=env, timeout=60)
        assert done.returncode == 1, done.stderr
        assert "could not write the output" in done.stderr
        assert willpower("ysolde") == 5
        (after,) = [json.loads(line) for line in ok("log", "--json").stdout.splitlines()]
        assert after["id"] == entry["id"] and after["rerolled"] is False
    again = json.loads(ok("seyruun", "reroll", "--json").stdout)  # it may still be re-rolled
    assert again["rerolls"] == entry["id"]
    assert willpower("ysolde") == (4 if "--as" in who else 5)
