"""Render primitives: results are data (the rulesets' records); these modules only print.

``jsonl`` is plain ``json`` for scripts. The terminal view is Rich, imported only when a
person is reading: ``common`` holds what every view shares (the console, styles, chips,
wrapping to the width, one-scale charts, the ``show`` loop) and imports no ruleset's view;
``sheet`` shows a character sheet and ``log`` the roll log. Each ruleset's own views live
in its folder (``rulesets/<name>/view.py``) and are found from the result's class through
the ruleset's record (:func:`rpgdice.rulesets.view`).
"""
