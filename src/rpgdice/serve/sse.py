"""An entry as the server streams it (Server-Sent Events): its JSON and its card, the text
each ``/events`` client is sent. Used by the hub (what every client gets), the GM's screen
(every roll whole) and a seat's own secret rolls (rpgdice.serve.own), so that none of them
imports another."""

from __future__ import annotations

import json

from rpgdice.core.data import Loaded


def dumps(data: object) -> str:
    """JSON for an SSE data line or a page's script: one line, no ``<`` (so no ``</script>``)."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def events(entry: Loaded, revealed: bool, data: Loaded, html: str) -> tuple[int, str, str]:
    """The two SSE events of an entry: ``data`` (its JSON, with the entry's ID as the
    event ID unless a reveal), then the ``view`` event carrying ``html``."""
    ident = int(entry["id"])
    head = "" if revealed else f"id: {ident}\n"
    text = (f"{head}data: {dumps(data)}\n\n"
            f"event: view\ndata: {dumps({'id': ident, 'html': html})}\n\n")
    return ident, text, html
