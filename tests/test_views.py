"""The terminal views read as plain text at a fixed width (COLUMNS): one scale for
every bar of a command, lines that fit and break between dice, the words the rules
need, one minus sign."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from conftest import cli, cli_json, cli_one, make_character

EIGHTHS = " ▏▎▍▌▋▊▉"
BAR_ROW = re.compile(r"(<0\.1%|>99\.9%|\d+\.\d%)  ([█▏▎▍▌▋▊▉]+)$")


def view(*args: str, columns: int = 80) -> str:
    run = cli(*args, env={"COLUMNS": str(columns)})
    assert run.exit_code == 0, run.stderr
    assert "\x1b[" not in run.stdout
    return run.stdout


def eighths(drawn: str) -> int:
    return sum(8 if c == "█" else EIGHTHS.index(c) for c in drawn)


def bars(out: str) -> list[tuple[float, int]]:
    """Every chart row of ``out``: the chance written right before the bar, and the
    bar's length in eighths of a cell."""
    rows = []
    for line in out.splitlines():
        m = BAR_ROW.search(line)
        if m and m.group(1)[0].isdigit():
            rows.append((float(m.group(1)[:-1]) / 100, eighths(m.group(2))))
    return rows


# Point 2: one scale for every bar of a command ------------------------------------------


@pytest.mark.parametrize("args", [
    ("reglas", "odds", "3", "-d", "normal"),
    ("cypher", "odds", "-d", "5", "--skill", "trained", "--effort", "1", "--attack"),
    ("crytures", "odds", "6"),
    ("seyruun", "odds", "4", "3", "-d", "moderate"),
    ("crytures", "odds", "3", "--attack", "--crit-hits", "2"),
])
@pytest.mark.parametrize("columns", [40, 80])
def test_every_bar_of_a_command_is_on_one_scale(args, columns):
    rows = bars(view(*args, columns=columns))
    assert len(rows) >= 4
    p_top, top = max(rows)
    scale = top / p_top  # eighths per unit of chance
    for p, drawn in rows:
        # the chance is shown to 0.1%: allow that rounding, and the bar's own eighth
        assert abs(drawn - p * scale) <= 1 + 0.0005 * scale, (p, drawn, p_top, top)


def test_reglas_fumble_grades_are_drawn_as_long_as_their_chance():
    # Each fracaso grade is 10%, as is Éxito: the same bar; the 70% Fracaso is 7 times longer.
    out = view("reglas", "odds", "3", "-d", "normal")
    lengths = {}
    for line in out.splitlines():
        m = BAR_ROW.search(line)
        if m:
            lengths.setdefault(line.split()[0], eighths(m.group(2)))
    assert lengths["1"] == lengths["7"] == lengths["Éxito"]
    assert abs(lengths["Fracaso"] - 7 * lengths["Éxito"]) <= 4
    # issue 18: the scale's note in the ruleset's language
    assert "barras a una misma escala" in out and "bars on one scale" not in out
    assert "bars on one scale" in view("crytures", "odds", "5")


def test_the_seyruun_distribution_bar_stands_beside_exactly_and_says_so():
    args = ("seyruun", "odds", "4", "3", "-d", "moderate")
    obj = cli_one(*args)
    out = view(*args)
    lines = out.splitlines()
    (head,) = [line for line in lines if line.split()[:1] == ["successes"]]
    assert head.split() == ["successes", "at", "least", "exactly", "█", "=", "exactly"]
    shown = 0
    for line in lines:
        cells = line.split()
        if cells and cells[0].isdigit() and BAR_ROW.search(line):
            k = cells[0]
            # the figure right before the bar is "exactly k", the one before it "at least k"
            assert cells[-2] == f"{obj['successes'][k] * 100:.1f}%"
            assert cells[-3] == f"{obj['at_least'][k] * 100:.1f}%"
            shown += 1
    assert shown >= 5


# Point 3: every view fits the width and breaks between dice --------------------------------

CRYTURES_CHIP = re.compile(r"(\d+)(?:→−?\d+)? (✓✓|✓|✗)")
SEYRUUN_CHIP = re.compile(r"(\d+) (✓✓|✓|✗)")


def assert_fits(out: str, columns: int) -> None:
    for line in out.splitlines():
        assert cell_len(line) <= columns, (columns, line)


@pytest.mark.parametrize("columns", [40, 80])
@pytest.mark.parametrize("pool", [20, 100])
@pytest.mark.parametrize("mod", [[], ["--roll-mod", "-3"]])
def test_a_long_crytures_roll_fits_and_breaks_between_dice(columns, pool, mod):
    args = ("crytures", "roll", str(pool), *mod, "--seed", "5")
    out = view(*args, columns=columns)
    assert_fits(out, columns)
    faces = [d["face"] for d in cli_one(*args)["dice"]]
    assert [int(m.group(1)) for m in CRYTURES_CHIP.finditer(out)] == faces
    assert len(out.splitlines()) > 3  # it did wrap


@pytest.mark.parametrize("columns", [40, 80])
def test_seyruun_contests_repeated_fit_and_keep_every_die_whole(columns):
    args = ("seyruun", "contest", "5+5+3+1-1", "4+4+2", "--seed", "9", "-n", "3")
    out = view(*args, columns=columns)
    assert_fits(out, columns)
    faces = [d["face"] for obj in cli_json(*args) for side in ("attacker", "defender")
             for d in obj[side]["dice"]]
    assert [int(m.group(1)) for m in SEYRUUN_CHIP.finditer(out)] == faces


@pytest.mark.parametrize("columns", [40, 80])
@pytest.mark.parametrize("args", [
    ("seyruun", "extended", "5", "5", "--target", "12", "--seed", "2", "-n", "2"),
    ("seyruun", "team", "4", "3", "--assists", "7", "--seed", "2", "-n", "2"),
    ("reglas", "contest", "10", "3", "-d", "normal", "--raise", "2", "--seed", "1", "-n", "3"),
    ("reglas", "team", "3", "4", "5", "2", "-d", "difícil", "--seed", "1"),
    ("reglas", "multi", "4", "12", "--seed", "1"),
    ("reglas", "extended", "6", "--target", "9", "--seed", "3"),
    ("reglas", "retry", "5", "-d", "normal", "--seed", "3"),
    ("cypher", "task", "-d", "5", "--skill", "trained", "--effort", "2", "--bonus", "1", "--attack", "--seed", "2"),
    ("seyruun", "roll", "9", "9", "--bonus", "9", "--willpower", "--reroll", "--wound", "light", "--seed", "1"),
    ("crytures", "roll", "12", "--odds", "--seed", "1", "-n", "2"),
    ("crytures", "odds", "300"),
    ("crytures", "odds", "7", "--attack", "--roll-mod", "-1"),
    ("seyruun", "odds", "0", "--wound", "crippled"),
    ("seyruun", "odds", "5", "4", "--reroll", "-d", "complex"),
    ("reglas", "odds", "12", "-d", "normal", "--niveles", "1"),
    ("cypher", "odds", "-d", "4", "--attack"),
])
def test_every_view_fits_the_width(columns, args):
    assert_fits(view(*args, columns=columns), columns)


def test_a_wide_terminal_keeps_a_roll_on_one_line():
    out = view("crytures", "roll", "20", "--seed", "5", columns=200)
    assert len([line for line in out.splitlines() if "dice" in line and "✓" in line]) == 1


# Point 4: words ---------------------------------------------------------------------------


def test_an_empty_crytures_pool_says_so():
    out = view("crytures", "roll", "0")
    assert "pool is empty" in out and "modifier" not in out
    out = view("crytures", "roll", "3", "--die-mod", "-3")
    assert "die modifiers removed every die" in out and "pool is empty" not in out
    assert "pool is empty" in view("crytures", "odds", "0")


def test_a_chance_die_success_names_the_chance_die():
    out = view("seyruun", "roll", "0", "-d", "complex", "--dice", "10")
    assert "Success" in out and "chance die's 10" in out
    assert "3 needed" not in out and "1 success," not in out
    assert "only a 10 succeeds" in view("seyruun", "roll", "0", "-d", "complex", "--dice", "7")


def test_a_repeated_seyruun_contest_is_summed_up_by_who_won():
    args = ("seyruun", "contest", "3+2", "3+2", "-n", "8", "--seed", "4")
    winners = [obj["winner"] for obj in cli_json(*args)]
    last = view(*args).splitlines()[-1]
    assert last.startswith("8 contests: ")
    parts = dict(reversed(p.split(" ", 1)) for p in last.split(": ", 1)[1].split(", "))
    assert parts == {f"{w} wins": str(winners.count(w)) for w in set(winners)}
    assert "Success" not in last and "Failure" not in last


@pytest.mark.parametrize("args, noun, words", [
    (("seyruun", "extended", "3", "2", "--target", "4", "--max-rolls", "2", "-n", "6", "--seed", "1"),
     "extended rolls", {"target": "reached the target", "botch": "ended by a botch", "limit": "ran out of rolls"}),
    (("reglas", "extended", "6", "--target", "8", "--max-rolls", "3", "-n", "6", "--seed", "1"),
     "acciones extendidas", {"target": "con el objetivo alcanzado", "fumble": "terminadas por un fracaso",
                             "limit": "con el límite agotado"}),
])
def test_a_repeated_extended_roll_is_summed_up_by_targets_reached(args, noun, words):
    ends = [obj["ended_by"] if "ended_by" in obj else None for obj in cli_json(*args)]
    if None in ends:  # the JSON has no ended_by: read it from the outcome
        ends = [{"success": "target", "failure": "limit"}.get(o["outcome"], o["outcome"])
                for o in cli_json(*args)]
        ends = ["fumble" if e == "fumble" else "botch" if e == "botch" else e for e in ends]
    last = view(*args).splitlines()[-1]
    assert last.startswith(f"6 {noun}: ")
    for end in set(ends):
        assert f"{ends.count(end)} {words[end]}" in last


def test_reglas_contest_repeated_says_who_won():
    args = ("reglas", "contest", "9", "6", "-n", "5", "--seed", "3")
    winners = [obj["winner"] for obj in cli_json(*args)]
    last = view(*args).splitlines()[-1]
    assert last.startswith("5 enfrentamientos: ")
    n = winners.count("attacker")
    if n:
        assert f"{n} para el atacante" in last
    if n < 5:
        assert f"{5 - n} para el defensor" in last


def test_reglas_raised_difficulty_shows_the_base_level_and_the_raise():
    out = view("reglas", "roll", "10", "-d", "normal", "--niveles", "5", "--dice", "3")
    assert "dificultad normal (2) subida 5 niveles = 12 éxitos" in out
    out = view("reglas", "roll", "10", "--raise", "1", "--dice", "3")
    assert "sin dificultad (0) subida 1 nivel = 2 éxitos" in out
    out = view("reglas", "odds", "10", "-d", "difícil", "--raise", "2", columns=120)
    assert "dificultad difícil (4) subida 2 niveles = 8 éxitos" in out
    assert "dificultad normal (2 éxitos)" in view("reglas", "roll", "10", "-d", "normal", "--dice", "3")
    out = view("reglas", "team", "5", "6", "-d", "normal", "--raise", "1", "--dice", "2,2", columns=120)
    assert "dificultad normal (2) subida 1 nivel = 4 éxitos para la suma" in out


def test_failed_seyruun_dice_carry_the_crytures_mark():
    out = view("seyruun", "roll", "3", "2", "--dice", "2,6,1,10,5")
    assert [m.group(0) for m in SEYRUUN_CHIP.finditer(out)] == ["2 ✗", "6 ✓", "1 ✗", "10 ✓✓", "5 ✗"]
    assert "✗" in view("crytures", "roll", "2", "--dice", "2,7")


def test_seyruun_view_names_the_tier_and_margin():
    out = view("seyruun", "roll", "3", "2", "-d", "complex", "--dice", "6,7,8,2,3")
    assert "Success (just enough)" in out and "margin 0" in out
    out = view("seyruun", "odds", "3", "2", "-d", "complex")
    assert "just enough (margin 0)" in out and "supernatural brilliance (margin 5+)" in out


def test_crytures_view_counts_critical_hits_in_the_successes():
    out = view("crytures", "roll", "2", "--attack", "--crit-hits", "2", "--dice", "10,3")
    assert "4 successes (2 from the dice + 2 from critical hits)" in out


# Point 5: one minus sign ---------------------------------------------------------------------


@pytest.mark.parametrize("args, shown", [
    (("reglas", "roll", "2", "-d", "normal", "--dice", "10"), "= −8"),
    (("reglas", "contest", "8", "2", "--dice", "1,4"), "(7 contra −2)"),
    (("reglas", "team", "2", "3", "-d", "normal", "--dice", "9,1"), "= −5 de 2 necesarios"),
    (("reglas", "odds", "2", "--mod", "-4"), "iE −2"),
    (("seyruun", "odds", "1", "--wound", "severe"), "severe 3 = −3)"),
    (("seyruun", "roll", "1", "--wound", "severe", "--dice", "4"), "= −3"),
    (("crytures", "roll", "2", "--roll-mod", "-5", "--dice", "3,10"), "3→−2"),
    (("crytures", "roll", "2", "--die-mod", "-3"), "= −1"),
    (("cypher", "task", "-d", "1", "--ease", "3"), "= −2"),
    (("cypher", "odds", "-d", "1", "--ease", "3"), "→ −2"),
])
def test_one_minus_sign_in_every_view(args, shown):
    out = view(*args)
    assert shown in out
    assert not re.search(r"(?<![\w-])-\d", out), out


def test_json_keeps_plain_numbers():
    obj = cli_one("reglas", "roll", "2", "-d", "normal", "--dice", "10")
    assert obj["result"] == -8 and obj["index"] == 2


@pytest.mark.parametrize(("setup", "args", "whole"), [
    ([], ("crytures", "roll", "6", "--die-mod", "3", "--roll-mod", "2", "--seed", "1"),
     ["(?<!against )Complexity 1", "Difficulty 6", r"roll mod \+2"]),
    ([], ("seyruun", "roll", "4", "2", "--willpower", "--seed", "1"), ["1 success needed"]),
    ([], ("reglas", "multi", "4", "5+5", "-d", "normal", "--seed", "1"),
     [r"dificultad normal \(2 éxitos\)"]),
    ([], ("reglas", "contest", "10", "3", "-d", "normal", "--raise", "2", "--seed", "1"),
     ["6 éxitos", r"sin dificultad \(cero inclusive\)"]),
    ([("char", "new", "Ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=3",
       "composure=3", "resolve=2", "wound=light")],
     ("seyruun", "roll", "dexterity", "stealth", "--willpower", "--as", "ysolde", "--seed", "2"),
     ["spent 1 Willpower, 4 left", r"wound light \(the sheet's\)"]),
    ([("char", "new", "Ghoul", "--ruleset", "seyruun", "dexterity=2", "athletics=3",
       "constitution=3", "endurance=1", "composure=1", "resolve=1")],
     ("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense", "dexterity+athletics",
      "--damage", "4", "--soak", "constitution+endurance", "--defender-willpower", "--seed", "1"),
     ["Endurance 1", "spent 1 Willpower, 1 left"]),
])
def test_a_header_breaks_between_its_parts_never_inside_one(setup, args, whole):
    """At 80 columns a long header breaks at its ``·`` separators: a name and its
    number (``Complexity 1``, ``1 success needed``, ``(2 éxitos)``) stay on one line."""
    for command in setup:
        assert cli(*command).exit_code == 0
    out = view(*args, columns=80)
    assert_fits(out, 80)
    for part in whole:
        assert any(re.search(part, line) for line in out.splitlines()), (part, out)


# Issue 18 point 10: emphasis where the rules put it ---------------------------------------


def colored(*args: str) -> str:
    run = cli(*args, "--no-log", env={"FORCE_COLOR": "1", "COLUMNS": "80"})
    assert run.exit_code == 0, run.stderr
    return run.stdout


def test_a_cypher_gm_intrusion_is_on_the_verdict_line_and_loud():
    out = colored("cypher", "task", "-d", "5", "--dice", "1")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    verdict = next(line for line in plain.splitlines() if line.strip().startswith("Failure"))
    assert "GM intrusion" in verdict
    assert "· natural 1" not in plain  # no longer a dim footnote
    # styled "bold white on red" (DIRE), not dim italic
    assert re.search(r"\x1b\[1;37;41mGM intrusion", out), out
    assert "GM intrusion" not in re.sub(r"\x1b\[[0-9;]*m", "", colored("cypher", "task", "-d", "5",
                                                                        "--dice", "2"))


def _style_of_one(out: str) -> str:
    m = re.search(r"\x1b\[([0-9;]*)m1 ✗", out)
    assert m, out
    return m.group(1)


def test_a_seyruun_1_is_red_only_in_a_botch():
    assert _style_of_one(colored("seyruun", "roll", "3", "1", "--dice", "1,7,2,2")) == "2"  # success: dim
    assert _style_of_one(colored("seyruun", "roll", "3", "2", "-d", "2",
                                 "--dice", "1,7,2,3,4")) == "2"  # failure with a success: dim
    assert _style_of_one(colored("seyruun", "roll", "3", "--dice", "1,3")) == "1;31"  # botch


def test_a_reglas_character_line_is_in_spanish(tmp_path):
    make_character("Thureck", "reglas", {"destreza": 4, "armas-de-fuego": 3})
    out = view("reglas", "contest", "destreza+armas-de-fuego", "5", "--as", "thureck",
               "--dice", "3,4", "--no-log")
    assert "Thureck · atacante Destreza 4 + Armas-de-fuego 3" in out
    assert "attacker" not in out


def test_an_encounter_shows_only_the_columns_its_ruleset_fills():
    from conftest import make_character, ok

    make_character("Borin", "crytures", stamina=5)
    shown = ok("encounter", "start", "Borin@3", "Wolf@7", "--no-log").stdout
    header = next(line for line in shown.splitlines() if "#" in line and "name" in line)
    # no rule of Crytures fills any other column; the initiative is every ruleset's
    assert header.split() == ["#", "init", "name"]
    make_character("Ysolde", "seyruun", wits=2, dexterity=3, composure=2, resolve=2)
    ok("encounter", "end", "--no-log")
    shown = ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--no-log").stdout
    header = next(line for line in shown.splitlines() if "#" in line and "name" in line)
    assert "WP" in header and "wound" in header


@pytest.mark.parametrize("ruleset", ["crytures", "reglas"])
def test_an_encounter_of_a_ruleset_that_deals_no_damage_draws_no_health(ruleset):
    from conftest import assert_usage_error, cli, ok

    assert_usage_error(cli("encounter", "start", "--ruleset", ruleset, "Wolf@7", "Bear@3",
                           "--health", "6"), "--health")
    ok("encounter", "start", "--ruleset", ruleset, "Wolf@7", "Bear@3", "--no-log")
    assert_usage_error(cli("encounter", "add", "Fox@5", "--health", "4"), "--health")
    shown = ok("encounter").stdout
    assert "damage" not in shown and "□" not in shown and "—" not in shown, shown


def test_a_cypher_extras_row_counts_its_health_down_as_its_line_says():
    from conftest import make_character, ok

    make_character("Nix", "cypher", might=10, speed=10, intellect=10)
    ok("encounter", "start", "Nix@9", "Gob@3", "--health", "5", "--no-log")
    line = ok("cypher", "task", "-d", "1", "--attack", "--damage", "2", "--vs", "Gob",
              "--dice", "15", "--no-log").stdout
    assert "health 5 → 3" in line, line
    shown = ok("encounter").stdout
    header = next(row for row in shown.splitlines() if "#" in row and "name" in row)
    assert "health" in header.split() and "damage" not in header.split(), header
    gob = next(row for row in shown.splitlines() if "Gob" in row)
    assert "■■■□□ 3/5" in gob, gob
    nix = next(row for row in shown.splitlines() if "Nix" in row)
    assert "■" not in nix and "□" not in nix


def test_a_sheets_resources_line_their_dots_up():
    from conftest import make_character, ok

    make_character("Borin", "crytures", stamina=5, mana=3)
    lines = ok("char", "show", "borin").stdout.splitlines()
    stamina = next(line for line in lines if "Stamina" in line)
    mana = next(line for line in lines if "Mana" in line)
    assert stamina.index("(5 of 5)") == mana.index("(3 of 3)")
