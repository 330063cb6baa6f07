"""`rpgdice play` at a terminal, in a real pseudo-terminal (pexpect): the prompt and
its context, TAB, history across two sessions (arrow keys, Ctrl-R), Ctrl-C at the
prompt and during a command, Ctrl-D and exit."""

from __future__ import annotations

import os
import re
import sys
import time

import pexpect  # the test extra's: a real pseudo-terminal
import pytest

from conftest import character
from rpgdice.table import paths

pytestmark = [pytest.mark.slow, pytest.mark.process]

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\r")


def spawn(*args: str, columns: int = 100) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color")  # no cursor-position probe
    # codec_errors: a Ctrl-C's echo (^C, from the terminal itself) may land inside a
    # character being written, which a real terminal shows as one odd glyph.
    child = pexpect.spawn(sys.executable, ["-m", "rpgdice", "play", *args], env=env,
                          encoding="utf-8", codec_errors="replace", timeout=30,
                          dimensions=(30, columns))
    return child


def plain(text: str) -> str:
    return ANSI.sub("", text)


def answer(child: pexpect.spawn, line: str, first: str, prompt: str) -> str:
    """Send ``line``; what it printed (from ``first``, the start of its output, to the
    next prompt), without escape codes. The prompt line itself is redrawn as the line is
    accepted, so its output is waited for first."""
    child.sendline(line)
    child.expect_exact(first)
    child.expect_exact(prompt)
    return first + child.before


def ends(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


@pytest.fixture
def ysolde():
    character("Ysolde", stealth=2, composure=2)  # "Dexterity 3 + Stealth 2" below


def test_the_prompt_shows_the_context_and_runs_commands(ysolde):
    child = spawn()
    child.expect_exact("rpgdice>")
    child.sendline("use seyruun")
    child.expect_exact("seyruun>")
    child.sendline("as ysolde")
    child.expect_exact("seyruun:ysolde>")
    raw = answer(child, "roll dexterity stealth --seed 3", "Seyruun roll", "seyruun:ysolde>")
    shown = plain(raw)
    assert "Seyruun roll · 5 dice" in shown and "Ysolde · Dexterity 3 + Stealth 2" in shown
    assert "\x1b[32m" in raw  # colored, as the one-shot command at a terminal
    child.sendline("use -")
    child.expect_exact("dice:ysolde>")
    child.sendline("exit")
    assert ends(child) == 0


def test_an_error_prints_one_line_and_the_session_goes_on():
    child = spawn("--ruleset", "seyruun")
    child.expect_exact("seyruun>")
    shown = plain(answer(child, "roll 3 3 --wound mortal", "rpgdice: error:", "seyruun>"))
    lines = [line for line in shown.splitlines() if line.strip()]
    assert lines == ["rpgdice: error: --wound: 'mortal' is not one of none, light, moderate, "
                     "severe, crippled"]
    child.sendline("roll 3 3 --seed 1")
    child.expect_exact("Seyruun roll")
    child.expect_exact("seyruun>")
    child.sendcontrol("d")
    assert ends(child) == 0


def test_tab_completes_commands_options_values_and_the_characters_traits(ysolde):
    child = spawn()
    child.expect_exact("rpgdice>")
    child.send("seyr\t")
    child.expect_exact("uun")
    child.send(" roll --wou\t")
    child.expect_exact("nd")
    child.sendcontrol("c")  # clears the line
    child.expect_exact("rpgdice>")
    child.send("as ysol\t")
    child.expect_exact("de")
    child.send("\r")
    child.expect_exact("seyruun:ysolde>")
    child.send("roll dext\t")
    child.expect_exact("erity")
    child.send(" ste\t")
    child.expect_exact("alth")
    assert "Dexterity 3 + Stealth 2" in plain(answer(child, " --seed 2", "Seyruun", "ysolde>"))
    child.sendline("quit")
    assert ends(child) == 0


def test_history_is_kept_across_sessions_and_searched_with_ctrl_r():
    child = spawn()
    child.expect_exact("rpgdice>")
    child.sendline("crytures roll 4 --seed 77")
    child.expect_exact("Crytures roll")
    child.expect_exact("rpgdice>")
    answer(child, "roll 2d6 --seed 5", "Total", "rpgdice>")
    child.sendcontrol("d")
    assert ends(child) == 0
    assert "+crytures roll 4 --seed 77" in (paths.state_dir() / "history").read_text()

    child = spawn()
    child.expect_exact("rpgdice>")
    child.send("\x1b[A")  # up: the last line of the last session
    child.expect_exact("roll 2d6 --seed 5")
    child.sendcontrol("c")
    child.expect_exact("rpgdice>")
    time.sleep(0.5)  # the prompt redrawn before Ctrl-R
    child.sendcontrol("r")
    child.expect_exact("reverse-i-search")
    child.send("crytures")
    child.expect_exact(" roll 4 --seed 77")  # the match found, highlighted
    child.send("\r")  # Enter runs the line found (CLI.md), not only ends the search
    child.expect_exact("Crytures roll")
    child.expect_exact("rpgdice>")
    child.sendline("exit")
    assert ends(child) == 0


def test_ctrl_c_clears_the_line_and_stops_a_running_command():
    child = spawn()
    child.expect_exact("rpgdice>")
    child.send("roll 2d6 --no-such-option")
    child.sendcontrol("c")
    child.expect_exact("rpgdice>")
    assert "error" not in plain(answer(child, "", "\n", "rpgdice>"))  # cleared: nothing ran
    child.sendline("seyruun roll 3 3 -n 60000")  # some 60 s at a terminal
    child.expect_exact("Seyruun roll")
    child.sendcontrol("c")
    child.expect_exact("rpgdice: interrupted")
    child.expect_exact("rpgdice>")
    child.sendline("roll 1d6 --seed 1")
    child.expect_exact("Dice")
    child.expect_exact("rpgdice>")
    child.sendcontrol("d")
    assert ends(child) == 0


def test_output_is_laid_out_at_the_terminals_width():
    for columns in (100, 50):
        child = spawn(columns=columns)
        child.expect_exact("rpgdice>")
        shown = plain(answer(child, "seyruun roll 3 3 --dice 10,5,6,9,1,8", "Seyruun roll",
                             "rpgdice>"))
        lines = shown.splitlines()[:-1]
        header = "Seyruun roll · 6 dice (Attribute 3 + Skill 3 = 6) · 1 success needed"
        assert (lines[0] == header) == (columns == 100), lines[0]  # 70 columns: one line, or two
        assert all(len(line) <= columns for line in lines)
        child.sendline("exit")
        assert ends(child) == 0


def test_a_history_that_cannot_be_written_costs_one_warning_and_no_line():
    (paths.state_dir() / "history").mkdir(parents=True)  # a folder where the file would be
    child = spawn()
    child.expect_exact("rpgdice>")
    child.sendline("roll 1d6 --seed 1")
    child.expect_exact("rpgdice: warning: the history file")
    child.expect_exact("Total")  # the line still runs
    child.expect_exact("rpgdice>")
    child.sendline("roll 1d6 --seed 2")
    child.expect_exact("Total")
    child.expect_exact("rpgdice>")
    assert "warning" not in plain(child.before)  # once
    child.sendline("exit")
    assert ends(child) == 0


def test_a_dice_expression_rolls_at_the_prompt_and_error_lines_wrap_between_words():
    child = spawn(columns=50)
    child.expect_exact("rpgdice>")
    assert "Total 9" in plain(answer(child, "2d6+3 --dice 2,4", "Dice", "rpgdice>"))
    said = plain(answer(child, "4d10 ie10", "rpgdice: error", "rpgdice>"))
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) > 1 and all(len(line) <= 50 for line in lines)
    assert "'4d10!>=10'" in said  # the hint's form whole: wrapped between words
    child.sendline("exit")
    assert ends(child) == 0
