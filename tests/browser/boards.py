"""What the browser tests read of a Blokus board: the fields the page's
board (an SVG whose paths list their fields as "M x y h1v1h-1z" in field
units) shows, the names of its columns and rows and the fields its last
move marks, and the fields of a replay's memento as `spielleiter replay
show` draws it, to compare the two.
"""

import re

# A JavaScript function of the board's element: every field of every
# colour, as [colour letter, x, y].
BOARD_FIELDS = r"""
((board) => {
  const fields = [];
  for (const path of board.querySelectorAll("path[data-color]")) {
    const color = path.getAttribute("data-color")[0];
    for (const m of path.getAttribute("d").matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
      fields.push([color, Number(m[1]), Number(m[2])]);
    }
  }
  return fields;
})
"""


def memento_fields(text):
    """The fields of a board `replay show --color never` drew, as
    (colour letter, x, y): its rows top to bottom, whatever their labels
    (0 to 19 for the seasons, 20 to 1 in classic Blokus's notation)."""
    fields = set()
    rows = [m for m in (re.fullmatch(r"\s*(\d+) ([BYRGbyrg.]{20})", line)
                        for line in text.splitlines()) if m]
    for y, row in enumerate(rows):
        for x, c in enumerate(row.group(2)):
            if c != ".":
                fields.add((c.upper(), x, y))
    return fields


# A JavaScript function of an element holding a board's SVG: the names of
# its columns (left to right) and rows (top to bottom) as its axes write
# them, and the fields (x, y) its last move marks.
BOARD_AXES = r"""
((holder) => {
  const svg = holder.querySelector("svg");
  const [left, top, field] = svg.dataset.board.split(" ").map(Number);
  const labels = [...svg.querySelector("g[font-size='10']").querySelectorAll("text")];
  const columns = labels.filter((t) => Number(t.getAttribute("y")) < top)
    .sort((a, b) => Number(a.getAttribute("x")) - Number(b.getAttribute("x")))
    .map((t) => t.textContent);
  const rows = labels.filter((t) => Number(t.getAttribute("x")) < left)
    .sort((a, b) => Number(a.getAttribute("y")) - Number(b.getAttribute("y")))
    .map((t) => t.textContent);
  const last = [...svg.querySelectorAll("[data-last-move] circle")].map((c) => [
    Math.floor(Number(c.getAttribute("cx")) / field),
    Math.floor(Number(c.getAttribute("cy")) / field)]);
  return { columns, rows, last };
})
"""
