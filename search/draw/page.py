"""A self-contained HTML page: the picture inlined as SVG, no network, and a
little script that steps through a picture drawn with ``steps``.

The script knows nothing of puzzles: an element with ``data-show="a-b"`` is
shown in states a..b only, one with ``data-at="s:dx,dy;..."`` is moved by
(dx, dy) from state s on.  Next / previous buttons, the arrow keys (Home and
End too) and the URL fragment ``#step=N`` choose the state; the page records
the state shown in ``body[data-step]``.
"""

from __future__ import annotations

import html

from search.draw.svg import Picture, to_string

STYLE = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1.5em; color: #222; }
svg { max-width: 100%; height: auto; }
nav { margin: 0.8em 0; }
nav button { font-size: 1em; padding: 0.2em 0.9em; }
nav span { margin-left: 0.8em; }
"""

SCRIPT = """
(function () {
  const svg = document.querySelector("svg [data-steps]");
  const last = svg ? Number(svg.getAttribute("data-steps")) : 0;
  const shown = document.querySelectorAll("[data-show]");
  const moved = document.querySelectorAll("[data-at]");
  let step = 0;
  function show(wanted) {
    step = Math.max(0, Math.min(last, wanted | 0));
    for (const el of shown) {
      const [a, b] = el.getAttribute("data-show").split("-").map(Number);
      el.style.display = a <= step && step <= b ? "inline" : "none";
    }
    for (const el of moved) {
      let dx = 0, dy = 0;
      for (const part of el.getAttribute("data-at").split(";")) {
        const [s, at] = part.split(":");
        if (Number(s) <= step) [dx, dy] = at.split(",").map(Number);
      }
      el.setAttribute("transform", "translate(" + dx + "," + dy + ")");
    }
    document.body.setAttribute("data-step", String(step));
    const where = document.getElementById("where");
    if (where) where.textContent = "after " + step + " of " + last + " moves";
    if (location.hash !== "#step=" + step) {
      try { history.replaceState(null, "", "#step=" + step); } catch (e) { /* file: URLs */ }
    }
  }
  function fromHash() {
    const found = /step=(\\d+)/.exec(location.hash);
    show(found ? Number(found[1]) : step);
  }
  const buttons = {first: () => 0, previous: () => step - 1, next: () => step + 1,
                   last: () => last};
  for (const [id, to] of Object.entries(buttons)) {
    const button = document.getElementById(id);
    if (button) button.addEventListener("click", () => show(to()));
  }
  document.addEventListener("keydown", (event) => {
    const keys = {ArrowRight: step + 1, ArrowDown: step + 1, " ": step + 1,
                  ArrowLeft: step - 1, ArrowUp: step - 1, Home: 0, End: last};
    if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
"""

NAV = """<nav>
<button id="first" title="first (Home)">first</button>
<button id="previous" title="previous (left arrow)">&#x25c0; previous</button>
<button id="next" title="next (right arrow, space)">next &#x25b6;</button>
<button id="last" title="last (End)">last</button>
<span id="where"></span>
</nav>"""


def _head(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            f"<title>{html.escape(': '.join(title.splitlines()) or 'gridcp')}</title>",
            f"<style>{STYLE}</style>", "</head>", "<body>"]


def page(picture: Picture, title: str = "") -> str:
    """The HTML text of a page showing ``picture`` (with step controls if it has steps)."""
    stepped = any("data-steps" in node.attrib for node in picture.body.iter())
    parts = _head(title)
    if stepped:
        parts.append(NAV)
    parts.append(to_string(picture, inline=True))
    if stepped:
        parts.append(f"<script>{SCRIPT}</script>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def book(pictures: list[Picture], title: str, note: str = "") -> str:
    """One HTML page showing several pictures one below the other (a batch of
    puzzles: each picture carries its own title), with ``note`` under the
    page's heading.  Pictures drawn with steps step nowhere here."""
    parts = _head(title) + [f"<h1>{html.escape(title)}</h1>"]
    if note:
        parts.append(f"<p>{html.escape(note)}</p>")
    parts += [f"<section>{to_string(picture, inline=True)}</section>" for picture in pictures]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
