"""Rendering: results are data (engine records); these modules only print them.

``jsonl`` is plain ``json`` for scripts. The terminal view is Rich, imported only when
a person is reading: ``common`` holds what every view shares (console, styles, chips,
bars, charts, the ``show`` loop) and imports no ruleset's view; each ruleset has one
module of its own name (``crytures``, ``seyruun``, ``reglas``, ``cypher``) with its
roll view, its roll types' views and its odds view in ``VIEWS``, keyed by the result's
``COMMAND`` (and, optionally, ``SUMMARIES`` for ``-n``). A result finds its view by its
``RULESET`` (``common.MODULES`` names the exceptions: ordinary dice, ruleset ``dice``, live in
``notation``): adding a ruleset means adding ``render/<ruleset>.py``.
"""
