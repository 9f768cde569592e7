#!/usr/bin/env python3
"""A person plays classic Blokus for four on the play page, seat ONE (blue)
against three built-in random bots, for a few rounds, then leaves. At each
of the person's turns after the first:

- the three opponents' last placements (and the person's own) are marked
  on the board: for each colour, exactly the fields it covered since the
  person's previous turn;
- each colour's pieces beside the board: as many left as it has placed
  pieces fewer than 21, and the placed ones together cover exactly that
  colour's fields on the board;
- the board's axes are Pentobi's: columns a to t, rows 20 to 1.

Then the game's replay in the viewer: each of the person's moves in the
move list names the fields the board marks as that move, read through the
board's own axes (the notation of board and move list is one). Last, the
replay list at 1,280 px (with the person's long name) has no horizontal
scroll bar, nor has the viewer. Screenshots go to OUT.

    classic.py CHROMIUM WEB_URL OUT PROFILE_DIR
"""

import json
import re
import sys
import time

from boards import BOARD_AXES
from cdp import DevTools, browser

# A long name without spaces: it must not widen the replay list.
NAME = "a_person_whose_name_goes_on_and_on_longer"[:40]

COLORS = ["blue", "yellow", "red", "green"]

# The seat's page now: whose turn, the fields of each colour, the marked
# fields, each colour's pieces beside the board, and the board's axes.
STATE = r"""
(() => {
  const cells = [...document.querySelectorAll("#grid .cell")];
  const fields = {};
  const recent = {};
  for (const c of cells) {
    const key = `${c.dataset.x},${c.dataset.y}`;
    const fill = c.dataset.fill;
    if (!fill) continue;
    (fields[fill] = fields[fill] || []).push(key);
    if (c.classList.contains("recent")) (recent[fill] = recent[fill] || []).push(key);
  }
  const stock = {};
  for (const g of document.querySelectorAll("#picture [data-stock]")) {
    const placed = g.querySelector("[data-placed]");
    stock[g.dataset.stock] = {
      left: Number(g.dataset.left),
      placedCells: placed ? (placed.getAttribute("d").match(/z/g) || []).length : 0,
    };
  }
  const picture = document.getElementById("picture");
  return JSON.stringify({
    phase: document.body.dataset.phase || null,
    yourTurn: document.body.dataset.yourTurn === "true",
    request: Number(document.body.dataset.request || 0),
    fields, recent, stock,
    axes: picture.querySelector("svg") ? BOARD_AXES(picture) : null,
    summary: (document.getElementById("summary") || {}).textContent || "",
    note: document.getElementById("note").textContent,
    seatColors: [...document.querySelectorAll("#players tbody tr")].map((r) =>
      [...r.querySelectorAll(".color")].map((c) => c.dataset.color)),
  });
})()
""".replace("BOARD_AXES", BOARD_AXES)

COLUMNS = [chr(ord("a") + i) for i in range(20)]
ROWS = [str(20 - i) for i in range(20)]


def fail(message):
    sys.exit(f"classic: {message}")


def state(page):
    value = page.evaluate(STATE)
    return json.loads(value) if value else {}


def wait(page, what, test, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = state(page)
        if now and test(now):
            return now
        time.sleep(0.05)
    fail(f"the page did not show {what} within {seconds} s")


def start(page, web):
    page.open(f"{web}/play")
    deadline = time.monotonic() + 10
    while not page.evaluate("!!document.querySelector('#game option[value=\"blokus_classic\"]')"):
        if time.monotonic() > deadline:
            fail("the form lists no classic Blokus")
        time.sleep(0.05)
    page.evaluate(
        "(() => { const g = document.getElementById('game'); g.value = 'blokus_classic';"
        " g.dispatchEvent(new Event('change'));"
        f" document.getElementById('name').value = {json.dumps(NAME)}; }})()"
    )
    if page.evaluate("document.querySelectorAll('#others select').length") != 3:
        fail("classic Blokus for four does not offer three other seats")
    page.click("#start")


def place_a_piece(page):
    """Chooses the largest piece that fits and places it at a marked field."""
    pieces = json.loads(page.evaluate(
        "JSON.stringify([...document.querySelectorAll('#pieces .piece')]"
        ".filter(p => !p.classList.contains('used') && !p.classList.contains('stuck'))"
        ".map(p => p.dataset.piece))"
    ))
    if not pieces:
        fail("the person's turn, but no piece fits")
    page.click(f'#pieces .piece[data-piece="{pieces[-1]}"]')
    for step in range(9):
        if page.evaluate("document.querySelectorAll('#grid .cell.target').length") > 0:
            break
        page.press("f" if step == 4 else "r")
        time.sleep(0.05)
    page.click("#grid .cell.target")


def check_turn(now, before, placed):
    """The marks and the pieces beside the board at one of the person's
    turns, against the fields each colour covered since `before` (the
    person's previous turn, before its move) and `placed` pieces each."""
    for color in COLORS:
        covered = set(now["fields"].get(color, [])) - set(before["fields"].get(color, []))
        marked = set(now["recent"].get(color, []))
        if not covered or marked != covered:
            fail(f"{color}'s last move: marked {sorted(marked)}, covered since the last turn {sorted(covered)}")
    for color in COLORS:
        stock = now["stock"].get(color.upper())
        if not stock:
            fail(f"no pieces of {color} beside the board: {now['stock']}")
        if stock["left"] != 21 - placed:
            fail(f"{color} has {stock['left']} pieces left beside the board, not {21 - placed}")
        on_board = len(now["fields"].get(color, []))
        if stock["placedCells"] != on_board:
            fail(f"{color}'s placed pieces beside the board cover {stock['placedCells']} fields, "
                 f"the board shows {on_board}")
    axes = now["axes"]
    if axes["columns"] != COLUMNS or axes["rows"] != ROWS:
        fail(f"the board's axes are not Pentobi's: {axes['columns']} / {axes['rows']}")


def play(page, web, out):
    start(page, web)
    now = wait(page, "the seat's board", lambda s: s.get("axes"))
    if not now["note"].startswith("Each colour's first piece, any of its 21, covers its own corner: blue a20"):
        fail(f"the first piece's rule is not said: {now['note']!r}")
    if now["seatColors"] != [[c] for c in COLORS]:
        fail(f"the player table's colours: {now['seatColors']}")
    request = 0
    before = None
    for placed in range(5):
        now = wait(page, "the person's turn", lambda s: s["yourTurn"] and s["request"] > request)
        request = now["request"]
        if before is not None:
            check_turn(now, before, placed)
            print(f"== turn {placed + 1}: the four colours' last moves are marked, "
                  f"{21 - placed} pieces left each beside the board, axes a–t and 20–1")
        if placed == 1:
            no_sideways_scroll(page, "the play page")
        if placed == 3:
            # The marks, and a piece under the mouse, for the picture.
            pieces = page.evaluate("document.querySelector('#pieces .piece:not(.used):not(.stuck)').dataset.piece")
            page.click(f'#pieces .piece[data-piece="{pieces}"]')
            for step in range(9):
                if page.evaluate("document.querySelectorAll('#grid .cell.target').length") > 0:
                    break
                page.press("r")
            at = page.center("#grid .cell.target")
            if at:
                page.move_mouse(*at)
            time.sleep(0.2)
            page.screenshot(f"{out}/play-classic.png")
        before = now
        place_a_piece(page)
    page.click("#leave")
    wait(page, "the end", lambda s: s["phase"] in ("over", "left"))
    time.sleep(0.3)
    page.screenshot(f"{out}/play-classic-end.png")
    print("== classic Blokus: the person placed 5 pieces and left")


# The viewer now: its board's axes and last move, and its move list.
VIEWER = r"""
(() => {
  const board = document.getElementById("board");
  if (!board.dataset.turn) return null;
  return JSON.stringify({
    turn: Number(board.dataset.turn),
    index: Number(board.dataset.index),
    axes: BOARD_AXES(board),
    rows: [...document.querySelectorAll("#moves tbody tr")].map((r) => ({
      index: Number(r.dataset.index), turn: Number(r.dataset.turn),
      words: r.cells[1].textContent, skipped: r.classList.contains("skipped") })),
  });
})()
""".replace("BOARD_AXES", BOARD_AXES)


def no_sideways_scroll(page, what):
    width = json.loads(page.evaluate(
        "JSON.stringify([document.documentElement.scrollWidth, document.documentElement.clientWidth, innerWidth])"))
    if width[2] != 1280:
        fail(f"the window is {width[2]} px wide, not 1,280")
    if width[0] > width[1]:
        fail(f"{what} scrolls sideways at 1,280 px: {width[0]} px wide in {width[1]}")


def study(page, web, out):
    # The replay is listed just after the result.
    deadline = time.monotonic() + 20
    name = None
    while time.monotonic() < deadline and not name:
        page.open(f"{web}/replays?game=blokus_classic")
        time.sleep(1)
        name = page.evaluate(
            f"(() => {{ const r = [...document.querySelectorAll('#replays tbody tr')]"
            f".find(r => r.textContent.includes({json.dumps(NAME[:20])}));"
            " return r ? r.dataset.name : null; })()")
    if not name:
        fail("the replay list does not show the game")
    page.open(f"{web}/replays")
    time.sleep(1.5)
    no_sideways_scroll(page, "the replay list")
    full = page.evaluate(
        f"(() => {{ const p = [...document.querySelectorAll('#replays .player')]"
        f".find(p => (p.title || '').startsWith({json.dumps(NAME)})); return p ? p.textContent : null; }})()")
    if not full or not full.endswith("…"):
        fail(f"the long name is not shortened with the whole on hover: {full!r}")
    page.screenshot(f"{out}/replays-1280.png")
    print("== the replay list fits 1,280 px; the long name is shortened, whole on hover")

    page.open(f"{web}/replays/{name}")
    deadline = time.monotonic() + 20
    view = None
    while time.monotonic() < deadline and not view:
        value = page.evaluate(VIEWER)
        view = json.loads(value) if value else None
        time.sleep(0.1)
    if not view:
        fail("the viewer shows no board")
    no_sideways_scroll(page, "the viewer")
    if view["axes"]["columns"] != COLUMNS or view["axes"]["rows"] != ROWS:
        fail(f"the viewer's axes are not Pentobi's: {view['axes']}")
    mine = [r for r in view["rows"] if r["words"].startswith("Blue places ")]
    if len(mine) != 5:
        fail(f"the move list has {len(mine)} of the person's 5 moves: {view['rows']}")
    for row in mine:
        page.evaluate(f"document.querySelector('#moves tbody tr[data-turn=\"{row['turn']}\"]').click()")
        time.sleep(0.1)
        shown = json.loads(page.evaluate(VIEWER))
        named = {f"{shown['axes']['columns'][x]}{shown['axes']['rows'][y]}" for x, y in shown["axes"]["last"]}
        words = set(re.findall(r"\b[a-t](?:20|1[0-9]|[1-9])\b", row["words"].split(" on ", 1)[1]))
        if not named or named != words:
            fail(f"turn {row['turn']}: the list says {row['words']!r}, the board marks {sorted(named)}")
    print(f"== the viewer's board, read by its own axes, marks the fields its move list names "
          f"(e.g. {mine[-1]['words']!r})")
    page.screenshot(f"{out}/replay-classic.png")


def main():
    chromium, web, out, profile = sys.argv[1:5]
    with browser(chromium, profile) as socket_url:
        page = DevTools(socket_url)
        play(page, web, out)
        study(page, web, out)


if __name__ == "__main__":
    main()
