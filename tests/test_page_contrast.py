"""The table's page is readable (issue 43, item 16): every text on it meets WCAG AA contrast
against the background it sits on (4.5:1; large text, 24 px or bold 18.66 px, 3:1), and no
text is smaller than 12 CSS px on a phone. The page is built as the server serves it (cards
of every ruleset, their folded terminal views with Rich's inline colors, a secret roll, an
encounter, the notices, a seat's panel) and read here: its stylesheet's rules applied to each
element (tags, classes, ids, attributes, descendants; by specificity and order), its inline
styles on top, each text's color, background (the nearest one set) and size worked out."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from conftest import character, ok

PHONE_REM = 16.0
"""The root font size; the body's ``clamp(16px, 0.55rem + 0.9vw, 34px)`` is its least on a
phone (390 px wide: 12.3 px, clamped to 16)."""
NAMED = {"white": "#ffffff", "black": "#000000", "transparent": None, "none": None}
SKIPPED_TAGS = {"script", "style", "title", "head"}
CONTROLS = {"input", "select", "option", "textarea", "button"}
"""Form controls the browser draws itself: checked when the stylesheet gives them a color
and background of its own (``.chip``), else left to the browser's own readable defaults."""


# The stylesheet -------------------------------------------------------------------------


def _rules(css: str) -> list[tuple[tuple[int, int, int], int, list[list[str]], dict[str, str]]]:
    """Each rule as (specificity, order, the selector's compounds, its declarations); the
    @keyframes and @media blocks (a TV's layout) left out: a phone's page."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out, order = [], 0
    while css.strip():
        css = css.strip()
        if css.startswith("@"):
            depth, end = 0, css.index("{")
            for end in range(end, len(css)):  # noqa: B020 - the block's end, where it stops
                depth += {"{": 1, "}": -1}.get(css[end], 0)
                if depth == 0:
                    break
            css = css[end + 1:]
            continue
        head, rest = css.split("{", 1)
        body, css = rest.split("}", 1)
        decls = {}
        for decl in body.split(";"):
            if ":" in decl:
                k, v = decl.split(":", 1)
                decls[k.strip().lower()] = v.strip()
        for selector in head.split(","):
            selector = selector.strip()
            if "::" in selector or re.search(r":(?!root)[a-z]", selector):
                continue  # a pseudo-element's or a state's: not a text of the page as served
            compounds = selector.split()
            out.append((_specificity(compounds), order, compounds, decls))
            order += 1
    return sorted(out, key=lambda r: (r[0], r[1]))


def _specificity(compounds: list[str]) -> tuple[int, int, int]:
    text = " ".join(compounds)
    ids = len(re.findall(r"#[\w-]+", text))
    classes = len(re.findall(r"\.[\w-]+|\[[^\]]+\]|:root", text))
    tags = len(re.findall(r"(?:^|\s)[a-z][\w-]*", text))
    return ids, classes, tags


def _matches(compound: str, el: dict) -> bool:
    if compound == "*":
        return True
    if compound == ":root":
        return el["tag"] == "html"
    m = re.match(r"^([a-z][\w-]*)?", compound)
    if m and m.group(1) and m.group(1) != el["tag"]:
        return False
    for kind, name in re.findall(r"([.#])([\w-]+)", compound):
        if kind == "." and name not in el["classes"]:
            return False
        if kind == "#" and name != el["id"]:
            return False
    for attr, value in re.findall(r"\[([\w-]+)=?([^\]]*)\]", compound):
        if el["attrs"].get(attr) != (value.strip("\"'") or el["attrs"].get(attr)):
            return False
    return True


def _applies(compounds: list[str], stack: list[dict]) -> bool:
    """Whether the selector matches the element on top of ``stack`` (descendants only)."""
    if not _matches(compounds[-1], stack[-1]):
        return False
    k = len(stack) - 2
    for compound in reversed(compounds[:-1]):
        while k >= 0 and not _matches(compound, stack[k]):
            k -= 1
        if k < 0:
            return False
        k -= 1
    return True


# Colors and sizes -----------------------------------------------------------------------


def _color(value: str, variables: dict[str, str]) -> str | None:
    value = value.strip()
    m = re.match(r"var\((--[\w-]+)\)", value)
    if m:
        value = variables[m.group(1)]
    if value in NAMED:
        return NAMED[value]
    m = re.match(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})\b", value)
    if m:
        h = m.group(1)
        return "#" + (h if len(h) == 6 else "".join(c * 2 for c in h)).lower()
    raise AssertionError(f"a color this test cannot read: {value!r}")


def luminance(color: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _size(value: str, parent: float) -> float:
    value = value.strip()
    if value == "inherit":
        return parent
    m = re.match(r"clamp\(\s*([\d.]+)px", value)  # a phone: the least
    if m:
        return float(m.group(1))
    m = re.match(r"([\d.]+)(em|px|rem|%)$", value)
    assert m, f"a font size this test cannot read: {value!r}"
    n, unit = float(m.group(1)), m.group(2)
    return {"em": n * parent, "px": n, "rem": n * PHONE_REM, "%": n * parent / 100}[unit]


DEFAULT_SIZE = {"h1": 2.0, "h2": 1.5, "small": 0.83}
DEFAULT_BOLD = {"h1", "h2", "strong", "b", "th", "summary"}


# The page, read -------------------------------------------------------------------------


class Reader(HTMLParser):
    """Each visible text of the page with its color, background and size in px."""

    def __init__(self, rules, variables) -> None:
        super().__init__(convert_charrefs=True)
        self.rules, self.variables = rules, variables
        self.stack: list[dict] = []
        self.texts: list[tuple[str, str, str, float, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        el = {"tag": tag, "id": attrs.get("id", ""), "classes": set(attrs.get("class", "").split()),
              "attrs": attrs}
        parent = self.stack[-1] if self.stack else {
            "color": "#000000", "background": "#ffffff", "size": PHONE_REM, "bold": False,
            "hidden": False, "control": False}
        self.stack.append(el)
        decls: dict[str, str] = {}
        for _, _, compounds, found in self.rules:
            if _applies(compounds, self.stack):
                decls.update(found)
        for decl in attrs.get("style", "").split(";"):
            if ":" in decl:
                k, v = decl.split(":", 1)
                decls[k.strip().lower()] = v.strip()
        el["hidden"] = (parent["hidden"] or "hidden" in attrs or tag in SKIPPED_TAGS
                        or decls.get("display") == "none")
        color = decls.get("color")
        el["color"] = parent["color"] if color in (None, "inherit") else _color(color, self.variables)
        background = decls.get("background-color", decls.get("background"))
        own = None if background is None else _color(background.split()[0], self.variables)
        el["background"] = own or parent["background"]
        size = parent["size"] * DEFAULT_SIZE.get(tag, 1.0)
        font = decls.get("font")
        if font and font != "inherit":
            size = _size(font.split()[0].split("/")[0], parent["size"])
        if "font-size" in decls:
            size = _size(decls["font-size"], parent["size"])
        el["size"] = size
        weight = decls.get("font-weight")
        el["bold"] = (weight == "bold" if weight not in (None, "inherit")
                      else parent["bold"] or tag in DEFAULT_BOLD)
        el["control"] = parent["control"] or (tag in CONTROLS and background is None)
        if tag in ("input", "meta", "br", "img", "link"):  # void elements
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        if not data.strip() or not self.stack:
            return
        el = self.stack[-1]
        if el["hidden"] or el["control"]:
            return
        self.texts.append((data.strip(), el["color"], el["background"], el["size"], el["bold"]))


def read(html: str) -> list[tuple[str, str, str, float, bool]]:
    css = "\n".join(re.findall(r"<style>(.*?)</style>", html, flags=re.S))
    root = re.search(r":root\s*\{([^}]*)\}", css)
    variables = dict(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", root.group(1) if root else ""))
    reader = Reader(_rules(css), variables)
    reader.feed(html)
    return reader.texts


def problems(html: str) -> list[str]:
    found = []
    for text, color, background, size, bold in read(html):
        large = size >= 24 or (bold and size >= 18.66)
        need = 3.0 if large else 4.5
        ratio = contrast(color, background)
        if ratio < need:
            found.append(f"{text[:30]!r}: {color} on {background} is {ratio:.2f}:1 "
                         f"(needs {need}:1 at {size:.1f}px)")
        if size < 12:
            found.append(f"{text[:30]!r}: {size:.1f}px, under 12px")
    return found


# The page as served ---------------------------------------------------------------------


def _the_page() -> str:
    from rpgdice.serve import app, page, views
    from rpgdice.serve.hub import Hub
    from rpgdice.table import seats

    character("Ysolde", willpower=3, wits=2)
    ok("char", "new", "Nix", "--ruleset", "cypher", "might=10", "speed=12", "intellect=8")
    for args in (
            ("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--seed", "2"),
            ("seyruun", "roll", "1", "1", "--dice", "1,1"),  # failed dice, a botch
            ("crytures", "roll", "6", "--die-mod", "3", "--seed", "9"),
            ("reglas", "roll", "8", "--dice", "1"),  # a fumble: dire
            ("reglas", "roll", "8", "--dice", "10"),
            ("cypher", "task", "-d", "3", "--as", "nix", "--dice", "1"),
            ("roll", "8d6", "#", "fireball", "--odds", "--seed", "1"),
            ("roll", "8d10>=6", "-n", "3", "--seed", "5"),
            ("roll", "1d20+5 adv", "6d6!", "--seed", "5"),  # cards by term: a drop, explosions
            ("roll", "2d6", "--secret", "--seed", "6")):
        ok(*args, "--log")
    ok("encounter", "start", "Ysolde", "Ghoul=2+2", "--no-log")
    hub = Hub(50)
    for entry in (json.loads(x) for x in ok("log", "--json").stdout.splitlines()):
        hub.recent[int(entry["id"])] = views.entry_html(entry)
    hub.notices = {"log": "the roll log cannot be read", "discord": "Discord: not sent"}
    hub.encounter = app.encounter_html()
    wounds = ("none", "light", "moderate", "severe", "crippled", "hale", "impaired",
              "debilitated", "dead")  # every wound's color, on an encounter's row
    hub.encounter += views.encounter_html({"round": 2, "turn": 0, "current": "A", "order": [
        {"name": w, "wound": w, "willpower": 2, "out": w == "dead", "character": i % 2,
         "damage": 1, "health": 5} for i, w in enumerate(wounds)]})
    ok("seat", "add", "ana", "--as", "ysolde")
    seat = seats.find("ana")
    served = page.page(hub, "t" * 32, seat=seat, chars=page.characters(seat))
    assert '<span class="die drop">' in served and '<span class="die boom">' in served
    return served.replace('<div id="resources" class="resources"></div><div id="chips"></div>',
                          DRAWN, 1).replace('<div id="roll-out" role="status" aria-live="polite"></div>',
                                            ANSWER, 1)


DRAWN = ('<div id="resources" class="resources"><div class="res"><span class="label">Speed</span>'
         '<span class="value">7 / 10</span><span class="meter"><i style="width: 70%"></i></span></div>'
         '</div><div id="chips"><button class="chip on"><span class="t">climbing</span><span class="v">'
         'trained</span></button><button class="chip"><span class="t">dexterity</span><span class="v">3'
         '</span></button><span class="trait"><span class="t">speed-edge</span><span class="v">0</span>'
         '</span></div><div id="params"><label>difficulty *<input type="text"></label><label class="flag">'
         '<input type="checkbox">attack</label></div><p id="roll-missing">still to give: --pool</p>')
"""The panel as its script draws it from /api/panel (the test reads the page as served)."""
ANSWER = ('<div id="roll-out"><div class="answer"><span class="verdict good">Success</span>'
          '<ul class="odds"><li class="this"><span class="name">success</span><span class="pct">62.3%'
          '</span><span class="bar"><i style="width: 62.3%"></i></span></li><li><span class="name">'
          'failure</span><span class="pct">37.7%</span><span class="bar"><i></i></span></li></ul>'
          '</div><div class="answer">rolled blind: the GM sees it</div></div>')


def test_every_text_on_the_page_is_readable_on_its_background_and_large_enough():
    html = _the_page()
    texts = read(html)
    assert len(texts) > 100  # the cards, their folded views, the encounter, the panel
    assert any(c != texts[0][1] for _, c, _, _, _ in texts)  # inline colors were read
    assert problems(html) == []


def test_the_check_fails_a_page_whose_text_is_faint_or_small():
    # what the folded view had: Rich's Monokai dim (#727272) on the card (#32332b), 2.7:1
    faint = ('<html><head><style>:root { --card: #32332b; } .roll { background: var(--card);'
             ' font-size: 0.8em; }</style></head><body><div class="roll">'
             '<span style="color: #727272">1 2</span><span style="color: #f8f8f2">ok</span>'
             '</div></body></html>')
    found = problems(faint)
    assert any("#727272 on #32332b is 2.6" in p for p in found), found
    assert not any("under 12px" in p for p in found)  # 0.8em: 12.8px
    assert not any("'ok'" in p for p in found)  # #f8f8f2 on the card: 11.9:1
    small = faint.replace("0.8em", "0.7em")
    assert any("'ok': 11.2px, under 12px" in p for p in problems(small))
