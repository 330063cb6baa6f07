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
:root { color-scheme: dark; --dim: #a6a28c; --accent: #66d9ef; --good: #a6e22e;
  --bad: #f92672; --card: #32332b; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: #272822; color: #f8f8f2;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  font-size: clamp(16px, 0.55rem + 0.9vw, 34px); line-height: 1.35;
  overflow-wrap: normal; word-break: normal; hyphens: none; }
main { max-width: 70em; margin: 0 auto; padding: 0.5em 0.75em 3em; }
h1 { font-size: 1.1em; margin: 0.4em 0; color: var(--accent); }
h2 { font-size: 1em; margin: 0.3em 0; color: var(--accent); }
.roll { background: var(--card); border-radius: 0.5em; padding: 0.5em 0.75em;
  margin: 0.6em 0; max-width: 100%; }
.roll.new { animation: flash 2s ease-out; }
@keyframes flash { from { background: #4a4a3a; } to { background: var(--card); } }
.roll header { color: var(--dim); font-size: 0.85em; display: flex; flex-wrap: wrap;
  gap: 0 0.6em; }
.who { color: var(--accent); font-weight: bold; }
.seat { color: #fd971f; }
.seat::before { content: "seat "; color: var(--dim); font-weight: normal; }
.what { margin: 0.2em 0; color: #e6db74; }
.results { list-style: none; margin: 0; padding: 0; }
.results li { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.6em; }
.dice { color: #f8f8f2; }
.verdict { font-size: 1.6em; line-height: 1.2; }
.verdict.success, .verdict.exceptional, .verdict.hit { color: var(--good); }
.verdict.failure, .verdict.dramatic_failure, .verdict.botch { color: var(--bad); }
.secret p { margin: 0.2em 0; color: var(--dim); font-style: italic; }
details.view { margin-top: 0.3em; color: var(--dim); font-size: 0.8em; }
details.view pre { margin: 0.3em 0 0; white-space: pre; overflow-x: auto; max-width: 100%;
  font: 0.85em/1.3 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
#encounter h2:empty { display: none; }
.order { list-style: none; margin: 0 0 0.6em; padding: 0; border-bottom: 2px solid var(--accent); }
.side { display: flex; flex-wrap: wrap; gap: 0 0.8em; padding: 0.15em 0; }
.side.now { font-weight: bold; }
.side .name { flex: 1 1 8em; }
.extra, .wp { color: var(--dim); }
.wound.none { color: var(--good); }
.wound.light, .wound.moderate { color: #fd971f; }
.wound.severe, .wound.crippled { color: var(--bad); }
.notice { background: var(--bad); color: #fff; padding: 0.3em 0.6em; margin: 0.3em 0; }
.notice:empty { display: none; }
#empty { color: var(--dim); }
@media (min-width: 1200px) { #layout { display: grid; grid-template-columns: 1fr 2fr;
  gap: 1.5em; align-items: start; } }
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
  function local(root) {  /* each time in the page's local time */
    var times = root.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = new Date(times[i].getAttribute("datetime"));
      if (!isNaN(t)) times[i].textContent = t.toLocaleTimeString();
    }
  }
  local(document);
  es.addEventListener("view", function (e) {
    var d = JSON.parse(e.data), box = document.createElement("div");
    box.innerHTML = d.html;  /* made by the server, every text in it escaped */
    local(box);
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
        }).join("\\n");
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
<div id="layout"><section id="encounter">{hub.encounter}</section>
<section id="rolls" aria-live="polite">
{rolls}
</section></div>
</main><script>{script}</script></body></html>
"""
