"""One parser of dice notation (issue #40): grammar.py reads every expression; a tree that is
a sum of the first notation's terms, spelled as it spells them, is lowered to rules.py's
records, whose rolls, views, odds and JSON stay as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rpgdice.core.errors import RulesError
from rpgdice.rulesets.dice import grammar, rules
from rpgdice.rulesets.dice.commands import parse_expression

SRC = Path(rules.__file__).resolve().parents[2]


def test_src_holds_one_parser_of_dice_notation():
    parsers = [p for p in SRC.rglob("*.py") if "class _Parser" in p.read_text(encoding="utf-8")]
    assert [p.name for p in parsers] == ["grammar.py"]
    assert "def expression(" not in Path(rules.__file__).read_text(encoding="utf-8")


SIGNS = ("+", "-", "\u2212", "\u2013")
SUFFIXES = ("", "kh1", "KL1", "dh1", "dl1", "!", ">=3", ">3", "<=3", "<3", "=3")


@st.composite
def first_notation(draw):
    """A first-notation expression and the terms it means, worked out here from its parts."""
    space = st.sampled_from(["", "", " ", "  "])
    text, terms = draw(space), []
    for i in range(draw(st.integers(1, 5))):
        sign = draw(st.sampled_from(SIGNS)) if i else draw(st.sampled_from(("",) + SIGNS))
        if draw(st.booleans()):
            n = draw(st.integers(0, 99))
            body = f"{n}"
            meant = (0, 0, n, "", 0)
        else:
            count = draw(st.integers(1, 9))
            sides = draw(st.sampled_from((2, 6, 20, 100, 1000)))
            suffix = draw(st.sampled_from(SUFFIXES))
            written = draw(st.sampled_from(("", str(count)))) if count == 1 else str(count)
            spelled = "%" if sides == 100 and draw(st.booleans()) else str(sides)
            body = f"{written}{draw(space)}d{draw(space)}{spelled}{draw(space)}{suffix}"
            mode = suffix.lower().rstrip("0123456789")
            meant = (count, sides, 0, mode, int(suffix[-1]) if suffix[-1:].isdigit() else 0)
        piece = f"{sign}{draw(space)}{body}"
        at = len(text) + 1 + len(piece) - len(piece.lstrip())
        text += piece + draw(space)
        terms.append(("".join(piece.split()), -1 if sign in SIGNS[1:] else 1, *meant, at))
    return text, terms


@settings(max_examples=300, deadline=None)
@given(first_notation())
@pytest.mark.slow
def test_the_first_notation_is_lowered_to_its_terms(case):
    text, meant = case
    parsed = grammar.parse_any(text)
    assert isinstance(parsed, rules.Expression)
    got = [(t.text, t.sign, t.count, t.sides, t.constant, t.mode, t.k, t.position) for t in parsed.terms]
    assert got == meant
    assert repr(grammar.first(text)) == repr(parsed)


@pytest.mark.parametrize("text", ["4d6k3", "4d6d1", "4d6pl1", "1d6x", "2d6==3", "2d6<>3", "3d6!=6",
                                  "1.0", "2d6 + -3", "--3", "1d20 adv", "2d6 # x", "1d20+5 >= 15",
                                  "2d6kh", "3[x]", "(2d6)", "2d6*2", "4dF", "2d6kh1kl1"])
def test_other_spellings_of_a_first_notation_tree_stay_the_wider_notation(text):
    assert isinstance(parse_expression(text), grammar.Roll)


def test_whitespace_between_the_parts_of_a_suffix_is_still_the_first_notation():
    for text, mode in (("4d6 k h 3", "kh"), ("4d6 d l1", "dl"), ("1d6> =3", ">="), ("1d6 < = 3", "<=")):
        parsed = parse_expression(text)
        assert isinstance(parsed, rules.Expression)
        assert (parsed.terms[0].mode, parsed.terms[0].text) == (mode, "".join(text.split()))


@pytest.mark.parametrize("text, said", [
    ("4d6k", "4d6k — expected h or l after 'k' (kh, kl, dh, dl) at 5"),
    ("  4d6K", "'  4d6K' — expected h or l after 'k' (kh, kl, dh, dl) at 7"),
    ("2d6d%", "2d6d% — unexpected '%'; expected h or l after 'd' (kh, kl, dh, dl) at 5"),
    ("1+2d6 k+1", "1+2d6 k+1 — unexpected '+'; expected h or l after 'k' (kh, kl, dh, dl) at 8"),
    ("2d6!k", "2d6!k — unexpected 'k'; expected an operator (+ − * /), a comparison (>= > <= < =) "
     "or a label (# words) at 5"),
    ("(2d6)k", "(2d6)k — unexpected 'k'; expected an operator (+ − * /), a comparison (>= > <= < =) "
     "or a label (# words) at 6"),
])
def test_a_keep_letter_without_h_or_l_is_refused_in_the_first_notations_words(text, said):
    with pytest.raises(RulesError) as e:
        parse_expression(text)
    assert e.value.message == said


def test_a_first_notation_sum_has_no_operator_limit_a_wider_one_has():
    many = "+".join(["1"] * 5000)
    assert isinstance(parse_expression(many), rules.Expression)
    for wider, at in ((many + "*1", 2 * 2000 + 2), ("1*1+" + many, 2 * 2000 + 2), (many + " >= 3", 2 * 2000 + 2)):
        with pytest.raises(RulesError) as e:
            grammar.parse(wider)
        assert e.value.message.endswith(f"more than 2000 operators in one expression at {at}")


@pytest.mark.parametrize("text, said", [
    ("2d6x", "2d6x — unexpected 'x'; expected +, − or a suffix (kh, kl, dh, dl, !, >=, >, <=, <, =) at 4"),
    ("4d6k3", "4d6k3 — unexpected '3'; expected h or l after 'k' (kh, kl, dh, dl) at 5"),
    ("2d6!kh1", "2d6!kh1 — a dice term takes at most one suffix: keep or drop (kh, kl, dh, dl), explode "
     "(!) or a comparison (>=, >, <=, <, =) at 5"),
    ("1d20+5 >= 15", "1d20+5 >= 15 — unexpected '>'; expected + or − at 8"),
    ("2d6*2", "2d6*2 — unexpected '*'; expected +, − or a suffix (kh, kl, dh, dl, !, >=, >, <=, <, =) at 4"),
    ("2d6 + -3", "2d6 + -3 — unexpected '-'; expected a number or dice after '+' at 7"),
])
def test_the_first_notation_alone_names_the_first_thing_beyond_it(text, said):
    """grammar.first (an encounter's initiative): the wider notation's trees are refused where the
    first notation stops."""
    with pytest.raises(RulesError) as e:
        grammar.first(text)
    assert e.value.message == said
