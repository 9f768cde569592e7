#!/usr/bin/env python3
"""Opens the live room page in headless Chromium (driven through cdp.py),
waits until it shows a running game, prints what its board shows as JSON,
and saves a screenshot.

    page.py CHROMIUM URL SCREENSHOT PROFILE_DIR

Prints {"turn": N, "phase": "...", "status": "...", "fields": [[C, X, Y], ...]}.
"""

import json
import sys
import time

from boards import BOARD_FIELDS
from cdp import DevTools, browser

# What the page shows: the turn and phase of its board, the status line,
# and every field of every colour (boards.py).
READ_BOARD = r"""
(() => {
  const board = document.getElementById("board");
  if (!board || !board.dataset.turn) return null;
  const fields = BOARD_FIELDS(board);
  return JSON.stringify({
    turn: Number(board.dataset.turn),
    phase: board.dataset.phase,
    status: document.getElementById("status").textContent,
    fields,
  });
})()
""".replace("BOARD_FIELDS", BOARD_FIELDS)


def main():
    chromium, url, screenshot, profile = sys.argv[1:5]
    with browser(chromium, profile) as socket_url:
        page = DevTools(socket_url)
        page.open(url)
        # The live page: wait for a board of a running game with some moves.
        shown = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            value = page.evaluate(READ_BOARD)
            if value:
                shown = json.loads(value)
                if shown["phase"] == "running" and shown["turn"] >= 4:
                    break
            time.sleep(0.1)
        if not shown:
            sys.exit("the page showed no board within 20 s")
        # The screenshot first, then the board read again: the memento
        # compared is the one on the page when it is read.
        page.screenshot(screenshot)
        shown = json.loads(page.evaluate(READ_BOARD))
        print(json.dumps(shown))


if __name__ == "__main__":
    main()
