"""A help page without markdown-it (issue 44): Typer's help printer is handed
:class:`PlainMarkdown` for Rich's ``Markdown``, which lays out a help text with no Markdown
in it exactly as Rich's would, and hands any other text to Rich's own."""

from __future__ import annotations

import subprocess
import sys

import pytest
from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown

from rpgdice.cli import command_tree
from rpgdice.cli.typer_private import PlainMarkdown

PLAIN = [
    "Roll dice.",
    "Dice for Crytures, Seyruun, Reglas Básicas and the Cypher System, by the letter of each rule.",
    "A first line\nwrapped by hand\n\nand a second paragraph.\n\n\nA third, after two blank lines.",
    "Also RPGDICE_AS and RPGDICE_SEED (0 to 2^64-1), with + − * / % ^ ( ) and a > b, ro<3, 4d6!>=8.",
    "Set, list or remove aliases (config.toml [alias], as git has them). 50% & more; x ~ y.",
    "Words of width: a-very-long-hyphenated-word-that-cannot-fit-in-a-narrow-column-at-all",
]
MARKED = [
    "Run `rpgdice roll` now.", "Some **bold** and *em*.", "_under_ score", "[a link](https://x.y)",
    "- a list\n- of two", "# A heading", "A title\n===", "Two spaces  \nbreak", "Back\\\nslash",
    "1. first\n2. second", "> quoted", "    indented code", "a ~~struck~~ word", "<b>html</b>",
    "an &amp; entity", "a|b\n-|-\n1|2", "trailing space ", " leading space", "tab\there", "",
    "x*y*z", "a _b", "![image](x.png)", "[ref]: https://x.y\n\n[ref]", "a\u00a0\nb",
]


def _texts() -> list[str]:
    """Every help text of every command and parameter, as the help printer gets them."""
    import inspect

    found = []

    def walk(cmd):
        for text in [cmd.help or "", *(getattr(p, "help", "") or "" for p in cmd.params)]:
            for part in inspect.cleandoc(text).partition("\f")[0].split("\n\n"):
                if part.strip():
                    found.append(part.strip())
        for name in getattr(cmd, "list_commands", lambda ctx: [])(None):
            walk(cmd.get_command(None, name))

    walk(command_tree())
    return sorted(set(found))


def _render(renderables, width: int, color: bool) -> str:
    console = Console(width=width, force_terminal=color, color_system="truecolor" if color else None,
                      legacy_windows=False, highlight=False)
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable)
            console.print(Columns([renderable, "(default: 1)"]))  # measured as the help printer does
    return captured.get()


@pytest.mark.slow
def test_plain_text_is_laid_out_as_richs_markdown():
    texts = _texts()
    assert len(texts) > 100  # the whole tree's help texts were read
    plain = [t for t in texts if type(PlainMarkdown(t, style="dim")) is PlainMarkdown]
    assert len(plain) > 0.9 * len(texts)  # a few are Markdown: completion's list
    for text in PLAIN:
        assert type(PlainMarkdown(text, style="dim")) is PlainMarkdown, text
    for texts, width, style, color in ((PLAIN, 20, "", False), (PLAIN, 47, "dim", True),
                                       (PLAIN + plain, 80, "bold red", True)):
        ours = _render([PlainMarkdown(t, style=style) for t in texts], width, color)
        if ours != _render([Markdown(t, style=style) for t in texts], width, color):
            for text in texts:  # name the first text laid out otherwise
                assert _render([PlainMarkdown(text, style=style)], width, color) == _render(
                    [Markdown(text, style=style)], width, color), (text, width, style, color)
            raise AssertionError("laid out otherwise")


def test_markdown_is_richs_own():
    for text in MARKED:
        made = PlainMarkdown(text, style="dim")
        assert type(made) is Markdown, text
        assert _render([made], 40, False) == _render([Markdown(text, style="dim")], 40, False)


@pytest.mark.slow
@pytest.mark.process
def test_a_help_page_imports_no_markdown_parser(tmp_path):
    code = ("import sys\nfrom rpgdice.cli import main\n"
            "for words in (['--help'], ['seyruun', '--help'], ['roll', '--help'], "
            "['reglas', 'roll', '--help'], ['log', '--help']):\n"
            "    assert main(words) == 0, words\n"
            "print(sorted(m for m in ('markdown_it', 'rich.markdown', 'pygments', 'rich.syntax') "
            "if m in sys.modules), file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"RPGDICE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "COLUMNS": "100"})
    assert run.returncode == 0, run.stderr
    assert "Usage: rpgdice" in run.stdout
    assert run.stderr.strip().splitlines()[-1] == "[]"
