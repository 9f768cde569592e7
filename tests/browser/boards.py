"""What the browser tests read of a Blokus board: the fields the page's
board (an SVG whose paths list their fields as "M x y h1v1h-1z" in field
units) shows, and the fields of a replay's memento as `spielleiter replay
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
    (colour letter, x, y)."""
    fields = set()
    for line in text.splitlines():
        row = re.fullmatch(r"\s*(\d+) ([BYRGbyrg.]{20})", line)
        if row:
            y = int(row.group(1))
            for x, c in enumerate(row.group(2)):
                if c != ".":
                    fields.add((c.upper(), x, y))
    return fields
