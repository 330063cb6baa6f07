"""The GM's screen (``/?gm=TOKEN``): the table's page as the GM sees it. Every roll whole,
a secret or blind one marked and given a Reveal button (``POST /api/reveal``); the
encounter as it truly stands, with its controls (``POST /api/encounter``: next, out,
back, damage). The roll panel is the page's own (rpgdice.serve.page), for any character
or none. Every text of a user's is escaped here (or by the views it comes from)."""

from __future__ import annotations

from html import escape

from rpgdice.core.data import Loaded

CSS = """
.roll.hidden-roll { outline: 2px dashed var(--accent); }
.hidden-mark { margin: 0.2em 0; display: flex; flex-wrap: wrap; gap: 0.3em 0.8em;
  align-items: center; color: var(--accent); }
.hidden-mark button, #gm-controls button { font: inherit; padding: 0.2em 0.8em; }
#gm-controls { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center;
  margin: 0 0 0.6em; }
#gm-controls select, #gm-controls input { font: inherit; max-width: 100%; }
#gm-out { white-space: pre-wrap; overflow-wrap: anywhere; }
"""

SCRIPT = r"""
(function () {
  var token = TOKEN;
  function say(text) { var o = document.getElementById("gm-out"); if (o) o.textContent = text; }
  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Authorization": "Bearer " + token,
      "Content-Type": "application/json"}, body: JSON.stringify(body), credentials: "omit"})
      .then(function (r) { return r.json().then(function (d) { return [r.status, d]; }); })
      .then(function (a) { say(a[0] === 200 ? (a[1].said || "") : (a[1].error || ("error " + a[0]))); return a; })
      .catch(function () { say("the table did not answer"); });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-reveal], button[data-act]") : null;
    if (!b) return;
    ev.preventDefault();
    if (b.hasAttribute("data-reveal")) {
      b.disabled = true;
      post("/api/reveal", {id: parseInt(b.getAttribute("data-reveal"), 10)});
      return;
    }
    var act = b.getAttribute("data-act"), body = {action: act};
    if (act !== "next") {
      var who = document.getElementById("gm-who");
      body.name = who ? who.value : "";
    }
    if (act === "damage") {
      var n = document.getElementById("gm-amount");
      body.amount = parseInt(n ? n.value : "", 10);
      if (isNaN(body.amount)) { say("damage: a whole number (negative heals)"); return; }
    }
    post("/api/encounter", body);
  });
})();
"""


def entry_html(entry: Loaded) -> str:
    """An entry as the GM's screen shows it: whole, and a secret or blind one marked, with
    its Reveal button (a held seat's roll too: revealed with the roll it waits for)."""
    from rpgdice.serve import views

    if not entry.get("secret"):
        return views.entry_html(entry)
    ident = int(entry["id"])
    try:
        card = views.entry_html({**entry, "secret": False})
    except Exception:  # stored data no view reads: the card the table sees, marked
        card = views.entry_html(entry)
    kind = "blind: the GM alone sees it" if entry.get("blind") else "secret"
    shown = entry.get("shown")
    until = shown.get("held_until") if isinstance(shown, dict) else None
    if isinstance(until, int) and not isinstance(until, bool):
        kind += f" · held until #{until} is revealed"
    mark = (f'<p class="hidden-mark"><span>{escape(kind)}</span>'
            f'<button type="button" data-reveal="{ident}">Reveal</button></p>')
    card = card.replace('class="roll', 'class="roll hidden-roll', 1)
    at = card.find("</header>")
    return card[:at + 9] + mark + card[at + 9:] if at >= 0 else card + mark


def encounter_html(state: Loaded | None) -> str:
    """The encounter as it truly stands (what secret rolls did included), with the GM's
    controls: next, and for the combatant chosen out, back and damage (negative heals)."""
    from rpgdice.serve import views

    if state is None:
        return views.encounter_html(None)
    names = [str(s.get("name")) for s in state.get("order") or [] if isinstance(s, dict)]
    options = "".join(f'<option value="{escape(n, quote=True)}">{escape(n)}</option>'
                      for n in names)
    controls = (
        '<div id="gm-controls"><button type="button" data-act="next">Next turn</button>'
        f'<select id="gm-who" aria-label="combatant">{options}</select>'
        '<button type="button" data-act="out">Out</button>'
        '<button type="button" data-act="back">Back</button>'
        '<input type="number" id="gm-amount" aria-label="damage" value="1" step="1" '
        'min="-999" max="999" size="4">'
        '<button type="button" data-act="damage">Damage</button></div>')
    return views.encounter_html(state) + controls


def hook(token: str) -> tuple[str, str, str]:
    """What the page adds for the GM's screen: its CSS, the status line (above the
    rolls) and its script (the token written as JSON, so it breaks no script)."""
    from rpgdice.serve.sse import dumps

    status = '<div id="gm-out" role="status"></div>'
    return CSS, status, "<script>" + SCRIPT.replace("TOKEN", dumps(token), 1) + "</script>"
