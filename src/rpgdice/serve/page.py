"""The table's page: one self-contained HTML document (its CSS and script inline, nothing
fetched from anywhere else), readable on a phone and on a TV across the room. It opens with
the newest rolls (newest first) and the encounter, then follows ``/events``: each new roll
goes on top, a revealed one replaces its "a secret roll", and the notices and the encounter
change in place. Without JavaScript it still shows the table as it was when it loaded."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from rpgdice.serve.hub import Hub, dumps

CSS = """
:root { color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; background: #272822; color: #f8f8f2;
  font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: clamp(12px, calc((100vw - 2rem) / 36), 30px); line-height: 1.3; }
main { max-width: 62ch; margin: 0 auto; padding: 0.5rem 1rem 3rem; }
h1 { font-size: 1em; margin: 0.5em 0; color: #66d9ef; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; }
.roll { border-top: 1px solid #49483e; padding: 0.5em 0; }
.roll.new { animation: flash 2s ease-out; }
@keyframes flash { from { background: #3e3d32; } to { background: transparent; } }
.secret p { margin: 0.2em 0; color: #a6a28c; font-style: italic; }
.secret header, .when { color: #a6a28c; }
.who { color: #66d9ef; font-weight: bold; }
#encounter pre { padding: 0.5em 0; border-bottom: 2px solid #66d9ef; }
.notice { background: #f92672; color: #fff; padding: 0.3em 0.6em; margin: 0.3em 0; }
.notice:empty { display: none; }
#empty { color: #a6a28c; }
"""

SCRIPT = """
(function () {
  var token = TOKEN, key = KEY, after = AFTER;
  var rolls = document.getElementById("rolls");
  function q(path, more) {
    var p = [];
    if (more) p.push(more);
    if (token) p.push(key + "=" + encodeURIComponent(token));
    return path + (p.length ? "?" + p.join("&") : "");
  }
  function notices(n) {
    document.getElementById("log-notice").textContent = n.log || "";
    document.getElementById("discord-notice").textContent = n.discord || "";
  }
  var es = new EventSource(q("/events", "after=" + after));
  es.addEventListener("view", function (e) {
    var d = JSON.parse(e.data), box = document.createElement("div");
    box.innerHTML = d.html;  /* made by the server, every text in it escaped */
    var node = box.firstElementChild, old = document.getElementById("roll-" + d.id);
    node.classList.add("new");
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    if (old) { old.replaceWith(node); return; }
    rolls.insertBefore(node, rolls.firstChild);
    while (rolls.children.length > LIMIT) rolls.removeChild(rolls.lastChild);
  });
  es.addEventListener("notice", function (e) { notices(JSON.parse(e.data)); });
  es.addEventListener("encounter", function (e) {
    document.getElementById("encounter").innerHTML = JSON.parse(e.data).html;
  });
  es.onerror = function () {
    document.getElementById("log-notice").textContent = "reconnecting to rpgdice serve\\u2026";
  };
  es.onopen = function () { document.getElementById("log-notice").textContent = ""; };
  var form = document.getElementById("roll-form");
  if (form) form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var line = document.getElementById("roll-line").value.trim(), out = document.getElementById("roll-out");
    if (!line) return;
    if (document.getElementById("roll-secret").checked) line += " --secret";
    out.textContent = "\u2026";
    fetch("/api/roll", {method: "POST", headers: {"Authorization": "Bearer " + token,
      "Content-Type": "application/json"}, body: JSON.stringify({line: line}), credentials: "omit"})
      .then(function (r) { return r.json().then(function (d) { return [r.status, d]; }); })
      .then(function (a) {
        if (a[0] !== 200) { out.textContent = a[1].error || ("error " + a[0]); return; }
        out.textContent = a[1].rolls.map(function (r) {
          return (r.outcome || "") + " " + (r.total !== undefined ? r.total : "");
        }).join("\n");
      }).catch(function () { out.textContent = "the table did not answer"; });
  });
})();
"""

PANEL_CSS = """
#panel { border: 2px solid #66d9ef; padding: 0.5em; margin: 0.5em 0; }
#panel form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
#panel input[type=text] { flex: 1 1 12em; min-width: 0; font: inherit; padding: 0.3em; }
#panel button { font: inherit; padding: 0.3em 1em; }
#roll-out { white-space: pre-wrap; overflow-wrap: anywhere; font-weight: bold; }
"""


def panel(seat: Any) -> str:
    """A seat's roll panel: its characters, a line to roll and a secret switch."""
    chars = ", ".join(seat.characters) or "ordinary dice"
    return f"""<section id="panel"><h2 class="who">{escape(seat.name)} · {escape(chars)}</h2>
<form id="roll-form"><input type="text" id="roll-line" aria-label="roll"
 placeholder="seyruun roll dexterity stealth" autocomplete="off" maxlength="500">
<label><input type="checkbox" id="roll-secret"> secret</label>
<button type="submit">Roll</button></form><div id="roll-out" role="status"></div></section>"""


def page(hub: Hub, token: str | None, key: str = "token", seat: Any = None) -> str:
    """The page as it stands: the newest rolls first, the encounter and the notices (a
    seat's page: its roll panel too). ``token``: the one its own requests carry, as
    ``?KEY=`` (each placeholder of the script replaced once, so no token breaks it)."""
    rolls = "\n".join(reversed(list(hub.recent.values()))) or \
        '<p id="empty">No rolls yet: they show here as they are rolled.</p>'
    values = {"TOKEN": dumps(token), "KEY": dumps(key), "AFTER": str(hub.last),
              "LIMIT": str(hub.size)}
    script = re.sub(r"\b(TOKEN|KEY|AFTER|LIMIT)\b", lambda m: values[m.group(1)], SCRIPT)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rpgdice · the table</title><style>{CSS}{PANEL_CSS if seat else ""}</style></head>
<body><main>
<h1>rpgdice · the table</h1>
<div class="notice" id="log-notice" role="status">{escape(hub.notices["log"] or "")}</div>
<div class="notice" id="discord-notice" role="status">{escape(hub.notices["discord"] or "")}</div>
{panel(seat) if seat else ""}
<section id="encounter">{hub.encounter}</section>
<section id="rolls" aria-live="polite">
{rolls}
</section>
</main><script>{script}</script></body></html>
"""
