"""The engine's data classes: typed dataclasses, built cheaply.

``@dataclass(frozen=True)`` generates six methods with ``exec`` when a module is
imported: about 1.4 ms a class here, 16 ms for the Seyruun module's eleven, and every
roll starts a process. ``@record`` generates ``__init__`` and ``__repr__`` only (about
0.6 ms). Records are compared by their fields where that matters (tests compare the
JSON data) and are not mutated after construction, by convention.
"""

from dataclasses import dataclass

record = dataclass(eq=False)
