"""Rendering: results are data (engine dataclasses); these modules only print them.

``jsonl`` is plain ``json`` for scripts; ``terminal`` is Rich, imported only when a
person is reading.
"""
