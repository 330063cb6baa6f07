"""What every process pays at startup, kept small (issue 44): a record is made a
dataclass when first used, not when its module is imported; the cyclic garbage collector
waits while a process starts, and runs again after."""

from __future__ import annotations

import dataclasses
import gc
import threading
import time
from dataclasses import field

import pytest

from rpgdice.core.record import Tagged, record
from rpgdice.entry import pause_collector


def _made(cls: type) -> bool:
    return isinstance(cls.__dict__.get("__dataclass_fields__"), dict)


def test_a_record_is_made_a_dataclass_when_first_used():
    @record
    class Base:
        """A base."""

        name: str
        tags: list[str] = field(default_factory=list)

    @record
    class Hit(Base, Tagged, ruleset="toy", command="hit"):
        """A hit."""

        damage: int = 0

    assert not _made(Base) and not _made(Hit)  # nothing made at import
    hit = Hit("axe", damage=3)
    assert _made(Hit) and _made(Base)  # the base made with it
    assert (hit.name, hit.tags, hit.damage, Hit.COMMAND) == ("axe", [], 3, "hit")
    assert repr(hit) == "test_a_record_is_made_a_dataclass_when_first_used.<locals>.Hit(" \
        "name='axe', tags=[], damage=3)"
    assert [f.name for f in dataclasses.fields(hit)] == ["name", "tags", "damage"]
    assert dataclasses.replace(hit, damage=5).damage == 5 and hit.damage == 3
    try:
        hit.damage = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a record was changed")

    @record
    class Miss:
        """Asked about before any is made."""

        why: str = "armor"

    assert not _made(Miss)
    assert dataclasses.is_dataclass(Miss) and _made(Miss)
    assert [f.default for f in dataclasses.fields(Miss)] == ["armor"] and Miss().why == "armor"


def test_a_record_asked_for_by_threads_at_once_is_made_once():
    @record
    class Many:
        """Each thread asks for its fields."""

        items: list[int] = field(default_factory=list)
        count: int = 1

    seen = []
    go = threading.Barrier(8)

    def ask():
        go.wait()
        seen.append(tuple((f.name, f.default_factory) for f in dataclasses.fields(Many)))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen) == {(("items", list), ("count", dataclasses.MISSING))}
    assert Many().items == [] and Many().items is not Many().items


def test_the_collector_waits_while_a_process_starts_then_runs():
    assert gc.isenabled()
    try:
        pause_collector(0.05)
        assert not gc.isenabled()
        deadline = time.monotonic() + 5
        while not gc.isenabled() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gc.isenabled()
        gc.disable()  # one that was not running is left so
        pause_collector(0.01)
        time.sleep(0.1)
        assert not gc.isenabled()
    finally:
        gc.enable()


LINE_PARTS = ["name", "ruleset", "traits", "x-y_2", "a.b", '"quoted"', "=", " = ", "\t", " ",
              "1", "0", "-3", "+4", "01", "1_000", "1.5", "true", "false", "True", '"Ghoul"',
              '"a#b"', '"a\\"b"', '"é ✓"', "''", "'lit'", "'''x'''", '"""y"""', "[", "]", "[[",
              "]]", "[traits]", "# a comment", "#", "\r", "\x7f", "\x01", "\ufeff", "[1, 2]",
              "{a = 1}", "1979-05-27"]


@pytest.mark.slow
def test_a_plain_toml_text_reads_as_tomllib_reads_it():
    import tomllib
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rpgdice.table.files import plain_toml

    line = st.lists(st.sampled_from(LINE_PARTS), max_size=5).map("".join)
    sheet = st.lists(st.one_of(line, st.sampled_from(
        ["name = \"Ysolde\"", "[traits]", "dexterity = 3", "wound = \"none\"", "damage = 0",
         "willpower = 5 # spent", "  stealth=2", ""])), max_size=9).map("\n".join)

    @settings(max_examples=300, deadline=None, database=None)
    @given(sheet)
    def check(text):
        try:
            expected = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            expected = None
        found = plain_toml(text)
        assert found is None or found == expected, (text, found, expected)
        if found is not None:  # the same types too (True is no 1)
            assert repr(found) == repr(expected)

    check()
    plain = [t for t in ("", "a = 1", "[t]\nk = 'v'", 'x = "é"  # c') if plain_toml(t) is not None]
    assert len(plain) == 4
    sheet_text = 'name = "Ghoul"\nruleset = "seyruun"\n\n[traits]\nwits = 2\nwound = "light" # hurt\n'
    assert plain_toml(sheet_text) == tomllib.loads(sheet_text)  # a sheet is read without tomllib


def _shapes():
    """Two classes of the same shape each time it is called: what records declare."""
    from typing import ClassVar, Optional

    class Plain:
        """Defaults of every kind."""

        name: str
        count: int = 3
        tags: tuple[str, ...] = ()
        items: list[int] = field(default_factory=list)
        hidden: str = field(default="x", repr=False, compare=False, metadata={"a": 1})
        maybe: Optional[int] = None

    class Marked:
        """A class variable among its fields."""

        LIMIT: ClassVar[int] = 5
        value: int = 0

    return [Plain, Marked]


def test_a_records_fields_are_those_dataclasses_makes():
    from rpgdice.core.record import _make_fields, plain_fields

    ours, theirs = _shapes(), _shapes()
    assert plain_fields(ours[0]) is not None and plain_fields(ours[1]) is None  # ClassVar: theirs
    for mine, reference in zip(ours, theirs):
        _make_fields(mine)
        dataclasses.dataclass(eq=False, init=False, repr=False)(reference)
        attrs = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare",
                 "metadata", "kw_only", "_field_type")
        assert [[getattr(f, a) for a in attrs] for f in mine.__dataclass_fields__.values()] == [
            [getattr(f, a) for a in attrs] for f in reference.__dataclass_fields__.values()]
        assert mine.__match_args__ == reference.__match_args__
        assert repr(mine.__dataclass_params__) == repr(reference.__dataclass_params__)
        for name in reference.__dataclass_fields__:  # defaults on the class, factories not
            assert hasattr(mine, name) == hasattr(reference, name)
            assert getattr(mine, name, None) == getattr(reference, name, None)
    assert [f.name for f in dataclasses.fields(ours[0])] == ["name", "count", "tags", "items",
                                                            "hidden", "maybe"]


def test_a_record_binds_its_arguments_as_its_compiled_init_does(monkeypatch):
    # The first GENERIC_MAKES instances are bound by one shared __init__ (no code compiled
    # for a record a roll makes once); then the class's own is compiled. Both must agree,
    # in the values made and in the TypeErrors of arguments that do not fit.
    import rpgdice.core.record as made_records

    posts = []

    def shape():
        @record
        class Hit:
            """A hit."""

            name: str
            damage: int = 1
            tags: list[str] = field(default_factory=list)

            def __post_init__(self):
                posts.append(self.name)

        return Hit

    calls = [((), {}), (("axe",), {}), (("axe", 3), {}), (("axe",), {"tags": ["x"]}),
             ((), {"name": "bow", "damage": 2}), (("axe", 2, ["y"], 4), {}),
             (("axe",), {"name": "bow"}), (("axe",), {"speed": 1}), ((), {"damage": 2})]

    def outcomes(cls):
        seen = []
        for args, kwargs in calls:
            try:
                hit = cls(*args, **kwargs)
            except TypeError as e:
                seen.append(("TypeError", str(e).split("__init__() ")[1]))
            else:
                seen.append(("made", hit.name, hit.damage, hit.tags))
        return seen

    bound = outcomes(shape())
    monkeypatch.setattr(made_records, "GENERIC_MAKES", 0)  # compiled at the first
    compiled_class = shape()
    compiled = outcomes(compiled_class)
    assert bound == compiled
    assert compiled_class.__init__.__code__.co_name == "__init__"  # its own, compiled
    assert "bind" not in compiled_class.__init__.__code__.co_names
    assert [kind for kind, *_ in bound].count("made") == 4 and posts == ["axe"] * 3 + ["bow"] \
        + ["axe"] * 3 + ["bow"]
    first, second = shape()("a"), shape()("a")
    assert first.tags == [] and first.tags is not second.tags


def test_a_class_made_often_gets_its_own_compiled_init(monkeypatch):
    import rpgdice.core.record as made_records

    monkeypatch.setattr(made_records, "GENERIC_MAKES", 3)

    @record
    class Die:
        """A die."""

        face: int
        kept: bool = True

    lazy = Die.__init__
    dice = [Die(i) for i in range(5)]
    assert Die.__init__ is not lazy and [d.face for d in dice] == list(range(5))
    assert all(d.kept for d in dice) and Die(2, kept=False).kept is False


JSON_OPTIONS = [{}, {"ensure_ascii": False}, {"sort_keys": True, "separators": (",", ":")},
                {"allow_nan": False, "ensure_ascii": False, "separators": (",", ":")}]
JSON_TEXTS = ["", " ", "[1,", '{"a" 1}', "1 2", "nul", '"\x01"', "[1] x", "\ufeff1", "[1e400, NaN]",
              ' {"a": [1, 2.5, null, true, "\\u00e9\\n"]} ', '{"a":1,"a":2}', "-0", "1E2",
              "12345678901234567890123", '"\\ud800"', "[]]", "Infinity", "\t\r\n[\n]\n"]


@pytest.mark.slow
def test_json_text_is_written_and_read_as_the_json_package_does():
    # Every roll writes (and a ruleset file's reads) JSON by json's C accelerator without
    # importing the json package (its decoder and scanner cost a --json roll 2 ms): the same
    # text, the same values and the same errors for any value and any text.
    import json
    from functools import partial

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rpgdice.core.jsontext import dumps, loads

    scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
    values = st.recursive(scalars, lambda inner: st.lists(inner) | st.tuples(inner, inner)
                          | st.dictionaries(keys, inner), max_leaves=30)

    def outcome(call):
        try:
            return "value", repr(call())
        except (TypeError, ValueError) as e:
            return type(e), str(e)

    @settings(max_examples=300, deadline=None, database=None)
    @given(values, st.sampled_from(JSON_OPTIONS))
    def check_written(value, options):
        assert outcome(lambda: dumps(value, **options)) == outcome(
            lambda: json.dumps(value, **options))

    @settings(max_examples=300, deadline=None, database=None)
    @given(values.map(json.dumps) | st.text(alphabet=' \t\n{}[],:"0123456789.eE-+truefalsn\\u',
                                             max_size=20))
    def check_read(text):
        assert outcome(lambda: loads(text)) == outcome(lambda: json.loads(text))

    check_written()
    check_read()
    for text in JSON_TEXTS:
        assert outcome(partial(loads, text)) == outcome(partial(json.loads, text)), text
    for bad in ({"a": object()}, [{1, 2}], {(1, 2): 3}, float("nan")):
        assert outcome(partial(dumps, bad, allow_nan=False)) == outcome(
            partial(json.dumps, bad, allow_nan=False))
        assert outcome(partial(dumps, bad))[0] in ("value", TypeError)
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps(loop)
    assert dumps({"é": "\x01\n\"\\"}, ensure_ascii=False) == '{"é": "\\u0001\\n\\"\\\\"}'
    assert loads(b'{"a": 1}') == {"a": 1}  # bytes: read by the package


RACE = """
import importlib.abc, sys, threading, time
import rpgdice.render.output as output
assert "rpgdice.render.jsonl" not in sys.modules and "rpgdice.core.jsontext" not in sys.modules

class Slow(importlib.abc.MetaPathFinder):  # a first import slow enough for another thread
    def find_spec(self, name, path, target=None):
        if name == "rpgdice.core.jsontext":
            time.sleep(0.3)
        return None

sys.meta_path.insert(0, Slow())
got = []
first = threading.Thread(target=output._jsonl)
first.start()
time.sleep(0.1)  # the first thread is inside the import: jsonl is in sys.modules, unfinished
try:
    got.append(output._jsonl().write)
except Exception as e:
    got.append(e)
first.join()
print(type(got[0]).__name__)
"""


@pytest.mark.slow
@pytest.mark.process
def test_a_thread_writing_json_while_another_imports_the_writer_waits_for_it():
    # The server's first --json rolls, in two threads at once: the second must get the
    # writer once its module has run, not the half-made module sys.modules holds meanwhile
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "function", done.stdout
