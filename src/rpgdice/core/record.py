"""The data classes of results and rulesets: typed dataclasses, built cheaply, frozen.

``@dataclass(frozen=True)`` with every generated method costs about 1.4 ms a class at
import, and every roll starts a process. ``@record`` generates ``__init__`` and
``__repr__`` and the ``__setattr__`` and ``__delattr__`` that refuse a change: a record
is never changed after it is made (what travels beside a result, such as who rolled
it, goes in its envelope, rpgdice.core.envelope; a changed copy is
``dataclasses.replace``). ``@frozen`` is the same decorator, the older name. Records are
compared by their fields where that matters (tests compare the JSON data). Even the
dataclass's fields are made when first asked for (:class:`_Fields`): a roll imports a
ruleset's records and makes few of them.

Type checkers see both through PEP 681's ``dataclass_transform``: decorators that make
frozen dataclasses (fields, ``__init__``), with no ``__eq__`` (``eq_default=False``).
"""

from __future__ import annotations

from _thread import RLock
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform  # typing's own from 3.11

    @dataclass_transform(eq_default=False, frozen_default=True)
    def record(cls: type[T], /) -> type[T]: ...

    @dataclass_transform(eq_default=False, frozen_default=True)
    def frozen(cls: type[T], /) -> type[T]: ...

else:
    def record(cls: type[T], /) -> type[T]:
        if not _plain_fields(cls):
            return dataclass(eq=False, frozen=True)(cls)
        if not cls.__doc__:  # else dataclass writes one from the signature: a tokenizer run
            cls.__doc__ = cls.__name__
        cls.__dataclass_fields__ = _Fields(cls)  # type: ignore[attr-defined]
        cls.__init__ = _lazy_init(cls)  # type: ignore[misc]
        cls.__repr__ = _repr  # type: ignore[assignment]
        cls.__setattr__ = _refuse_set  # type: ignore[assignment]
        cls.__delattr__ = _refuse_del  # type: ignore[assignment]
        return cls

    frozen = record


class Tagged:
    """A record a ruleset's command gives (a result, its odds): ``class
    ReglasContestResult(ContestResult[ReglasResult], ruleset="reglas", command="contest")``
    gives the class the ``RULESET`` and ``COMMAND`` that become its JSON's ``ruleset`` and
    ``command`` keys (:func:`rpgdice.core.data.to_data`)."""

    RULESET: ClassVar[str]
    COMMAND: ClassVar[str]

    def __init_subclass__(cls, ruleset: str = "", command: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if ruleset:
            cls.RULESET = ruleset
        if command:
            cls.COMMAND = command


class _Fields:
    """A record's ``__dataclass_fields__`` until something asks for them (its first
    instance, ``dataclasses.fields``, ``replace``, ``is_dataclass``): then the class is made
    a dataclass (fields only: ``__init__`` and ``__repr__`` are the record's), which puts
    the real ones in their place. A record a roll never makes (most of a ruleset's)
    costs no dataclass processing at import, where every roll starts a process."""

    __slots__ = ("cls",)

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __get__(self, obj: object, owner: type | None = None) -> object:
        cls = self.cls
        if cls.__dict__.get("__dataclass_fields__") is self:
            with _MAKING:  # once, whichever thread asks first (the server's)
                if cls.__dict__.get("__dataclass_fields__") is self:
                    _make_fields(cls)
        return cls.__dict__["__dataclass_fields__"]


_MAKING = RLock()
"""Held while a record is made a dataclass (its bases may be made within)."""


def _make_fields(cls: type) -> None:
    """Make ``cls`` a dataclass as ``dataclass(eq=False, init=False, repr=False)`` does:
    its fields (:func:`plain_fields`, when they are plain) with their defaults put on the
    class, or by ``dataclasses`` itself."""
    import dataclasses

    made = plain_fields(cls)
    if made is None:
        dataclass(eq=False, init=False, repr=False)(cls)
        return
    for name, f in made.items():
        if isinstance(getattr(cls, name, None), dataclasses.Field):
            if f.default is dataclasses.MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = made  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _params()  # type: ignore[attr-defined]
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(made)  # type: ignore[attr-defined,misc]


def _params() -> Any:
    """The ``__dataclass_params__`` of ``dataclass(eq=False, init=False, repr=False)`` (what
    a subclass made by ``dataclasses`` reads of its bases), taken from an empty class so
    made, once."""
    if not _PARAMS:
        @dataclass(eq=False, init=False, repr=False)
        class Shape:
            """No field."""

        _PARAMS.append(Shape.__dataclass_params__)  # type: ignore[attr-defined]
    return _PARAMS[0]


_PARAMS: list[Any] = []
_UNPLAIN = ("ClassVar", "InitVar", "KW_ONLY")
"""Words in an annotation that ``dataclasses`` reads a meaning into: such a class's fields
are made by ``dataclasses`` itself."""


def plain_fields(cls: type) -> dict[str, Any] | None:
    """The ``dataclasses.Field`` of each field of ``cls``, as ``dataclasses`` makes them
    (a name, its annotation, its default), without its reading of every annotation
    for ``ClassVar`` and ``InitVar`` (Param's and Command's 41 fields cost each roll a
    millisecond): None — ``dataclasses`` makes them — for a class with a dataclass among
    its bases, an annotation that names one of :data:`_UNPLAIN`, a field default that
    is mutable, or a ``field()`` that has no annotation. Touches nothing."""
    import dataclasses
    import types

    kind = getattr(dataclasses, "_FIELD", None)  # the mark of a field (not a ClassVar)
    if kind is None or any(hasattr(b, "__dataclass_fields__") for b in cls.__mro__[1:]):
        return None
    annotations = cls.__dict__.get("__annotations__", {})
    made: dict[str, Any] = {}
    for name, annotation in annotations.items():
        if not isinstance(annotation, str) or any(w in annotation for w in _UNPLAIN):
            return None
        default = getattr(cls, name, dataclasses.MISSING)
        if isinstance(default, types.MemberDescriptorType):  # a slot, as dataclasses sees it
            default = dataclasses.MISSING
        f: Any = default if isinstance(default, dataclasses.Field) else dataclasses.field(
            default=default)
        if f.default is not dataclasses.MISSING and type(f.default).__hash__ is None:
            return None  # dataclasses refuses it: let it say so
        f.name, f.type, f._field_type = name, annotation, kind
        if f.kw_only is dataclasses.MISSING:
            f.kw_only = False
        made[name] = f
    if any(isinstance(v, dataclasses.Field) and k not in made for k, v in vars(cls).items()):
        return None
    return made


GENERIC_MAKES = 128
"""Instances of a record made by one shared ``__init__`` (:func:`_binder`) before the
class's own is compiled (:func:`_fast_init`): compiling one cost 150-450 µs (Param's 21
fields the most), binding the arguments in Python 3 µs an instance more than the compiled
one, and a roll makes one or two of most of the 16 records it uses, and a few dozen
Params (issue 44: the compiling was 3.7 ms of each roll)."""


def _lazy_init(cls: type) -> object:
    """An ``__init__`` that binds the fields by :func:`_binder` for the first
    :data:`GENERIC_MAKES` instances, then makes the class's own (:func:`_fast_init`): a
    class no command instantiates (an odds record on a roll's path) costs nothing at
    import, and one a roll makes once costs no compiled code, where every roll starts a
    process."""
    made = 0
    bind: Any = None

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        nonlocal made, bind
        if cls.__init__ is __init__:  # type: ignore[misc]
            made += 1
            if made <= GENERIC_MAKES:
                if bind is None:
                    bind = _binder(cls)
                if bind(self, args, kwargs):
                    return
            _fast_init(cls)  # and its own __init__ says what does not fit
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _binder(cls: type) -> Any:
    """What the compiled ``__init__`` of :func:`_fast_init` does, for any record: the
    arguments bound to the fields by position or name, defaults and default factories,
    ``__post_init__``; False, nothing done, for arguments that do not fit (the compiled
    one then raises Python's own TypeError)."""
    from dataclasses import MISSING, fields

    spec = [(f.name, f.default, f.default_factory) for f in fields(cls)]
    known = {name for name, _, _ in spec}
    post = hasattr(cls, "__post_init__")

    def bind(self: Any, args: tuple[object, ...], kwargs: dict[str, object]) -> bool:
        if len(args) > len(spec) or not known.issuperset(kwargs):
            return False
        values: dict[str, object] = {}
        for i, (name, default, factory) in enumerate(spec):
            if i < len(args):
                if name in kwargs:
                    return False
                values[name] = args[i]
            elif name in kwargs:
                values[name] = kwargs[name]
            elif default is not MISSING:
                values[name] = default
            elif factory is not MISSING:
                values[name] = factory()
            else:
                return False
        self.__dict__.update(values)
        if post:
            self.__post_init__()
        return True

    return bind


def _repr(self: object) -> str:
    """A record as ``Name(field=value, ...)``, the way a dataclass writes it."""
    from dataclasses import fields

    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)  # type: ignore[arg-type]
    return f"{type(self).__qualname__}({inner})"


def _refuse_set(self: object, name: str, value: object) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_del(self: object, name: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _plain_fields(cls: type) -> bool:
    """Whether :func:`_fast_init` can make the class's ``__init__``: no slots, and no
    field that is left out of ``__init__`` or keyword-only."""
    from dataclasses import Field

    return "__slots__" not in cls.__dict__ and not any(
        isinstance(v, Field) and (not v.init or v.kw_only is True) for v in vars(cls).values())


def _fast_init(cls: type[T]) -> type[T]:
    """A frozen dataclass's own ``__init__`` sets each field through
    ``object.__setattr__``, which made a 1000-die roll a third slower (a record a die),
    and ``frozen=True`` makes two more functions a class: this ``__init__`` writes the
    fields into the instance's ``__dict__`` at once, with the dataclass's defaults,
    default factories and ``__post_init__``, and one shared pair refuses changes."""
    from dataclasses import MISSING, fields

    names: dict[str, object] = {"MISSING": MISSING}
    params, sets = [], []
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default is not MISSING:
            names[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
            sets.append(f"{f.name!r}: {f.name}")
        elif f.default_factory is not MISSING:
            names[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            sets.append(f"{f.name!r}: _f_{f.name}() if {f.name} is MISSING else {f.name}")
        else:
            params.append(f.name)
            sets.append(f"{f.name!r}: {f.name}")
    post = "\n    self.__post_init__()" if hasattr(cls, "__post_init__") else ""
    exec(f"def __init__(self, {', '.join(params)}):\n"  # made of field names only
         f"    self.__dict__.update({{{', '.join(sets)}}}){post}\n", names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[assignment]
    return cls
