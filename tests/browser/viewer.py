#!/usr/bin/env python3
"""The replay viewer in headless Chromium (driven through cdp.py), over a
finished game's replay: the list shows the game's players, result and
length; the viewer opens at the final position with the result; clicking
moves of the move list and autoplay step through the game, and each board
shown is compared field by field with the replay's memento of that turn
(read by `spielleiter replay show`); the think times listed are the ones
the replay records; the download link gives the file's bytes. Saves
screenshots to OUT.

    viewer.py CHROMIUM WEB REPLAY SPIELLEITER OUT PROFILE_DIR
"""

import base64
import json
import os
import re
import subprocess
import sys
import time

from boards import BOARD_FIELDS, memento_fields
from cdp import DevTools, browser

# The board on the page: its index and turn, whether the last move is
# marked, and every field of every colour (boards.py).
READ_BOARD = r"""
(() => {
  const board = document.getElementById("board");
  if (!board || !board.dataset.turn) return null;
  const fields = BOARD_FIELDS(board);
  return JSON.stringify({
    index: Number(board.dataset.index),
    turn: Number(board.dataset.turn),
    lastMoveMarked: board.querySelector("[data-last-move]") !== null,
    position: document.getElementById("position").textContent,
    fields,
  });
})()
""".replace("BOARD_FIELDS", BOARD_FIELDS)

# The move list: per row its frame index, words and think time.
READ_MOVES = r"""
JSON.stringify([...document.querySelectorAll("#moves tbody tr")].map((row) => ({
  index: Number(row.dataset.index),
  words: row.cells[1].textContent,
  think: row.cells[2].textContent,
  current: row.classList.contains("current"),
})))
"""


def fail(message):
    sys.exit(f"viewer: {message}")


def wait_for(page, expression, what, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    fail(f"{what} within {seconds} s")


def board(page):
    return json.loads(page.evaluate(READ_BOARD))


def replay_fields(spielleiter, replay, turn):
    """The fields of the replay's memento of `turn`, as `replay show` draws them."""
    text = subprocess.run(
        [spielleiter, "replay", "show", replay, "--turn", str(turn), "--color", "never"],
        check=True, capture_output=True, text=True,
    ).stdout
    if f"turn {turn} " not in text:
        fail(f"the replay has no memento of turn {turn}:\n{text}")
    return memento_fields(text)


def check_board(page, spielleiter, replay, what):
    shown = board(page)
    fields = replay_fields(spielleiter, replay, shown["turn"])
    on_page = {(c, x, y) for c, x, y in shown["fields"]}
    if on_page != fields:
        fail(f"{what}: the page shows {len(on_page)} fields at turn {shown['turn']}, "
             f"the memento {len(fields)}; only on the page: {sorted(on_page - fields)[:8]}, "
             f"only in the memento: {sorted(fields - on_page)[:8]}")
    if shown["index"] > 0 and not shown["lastMoveMarked"]:
        fail(f"{what}: the last move is not marked on the board")
    print(f"== {what}: the board of turn {shown['turn']} is the memento's ({len(fields)} fields)")
    return shown


def think_text(micros):
    """The page's form of a think time (app.js thinkText): whole microseconds
    rounded half up in integers, so no binary fraction decides a digit."""
    tenths_of_ms = (micros + 50) // 100
    if tenths_of_ms < 10000:
        return f"{tenths_of_ms // 10}.{tenths_of_ms % 10}\u00a0ms"
    hundredths_of_s = (micros + 5000) // 10000
    return f"{hundredths_of_s // 100}.{hundredths_of_s % 100:02}\u00a0s"


def click(page, selector):
    page.evaluate(f"document.querySelector({json.dumps(selector)}).click()")


def main():
    chromium, web, replay, spielleiter, out, profile = sys.argv[1:7]
    name = os.path.basename(replay)
    with open(replay, "rb") as file:
        replay_bytes = file.read()
    recorded = [int(m) for m in re.findall(rb'thinkMicros="(\d+)"', replay_bytes)]
    if not recorded:
        fail("the replay records no think time")

    with browser(chromium, profile) as socket_url:
        page = DevTools(socket_url)

        # The list: the game with its players, result and length.
        page.open(f"{web}/replays")
        row = json.loads(wait_for(page, f"""(() => {{
            const row = document.querySelector('tr[data-name={json.dumps(name)}]');
            if (!row || row.cells[1].textContent === "…") return null;
            return JSON.stringify([...row.cells].map((c) => c.textContent));
        }})()""", "the list shows the replay with its summary"))
        game, players, outcome, turns = row[0], row[1], row[2], row[3]
        if " vs " not in players or not ("wins" in outcome or outcome in ("draw", "no winner")):
            fail(f"the list's row says too little: {row}")
        if not turns.isdigit() or int(turns) < 4:
            fail(f"the list's row has no length: {row}")
        page.screenshot(os.path.join(out, "replays.png"))
        print(f"== the list: {game}, {players}, {outcome}, {turns} turns")
        # A filter by a player of the game keeps it, one by nobody drops it.
        player = players.split(" vs ")[0]
        page.evaluate(f"""(() => {{ const f = document.getElementById("filter-player");
            f.value = {json.dumps(player)}; f.dispatchEvent(new Event("input")); }})()""")
        time.sleep(0.6)
        wait_for(page, f"document.querySelector('tr[data-name={json.dumps(name)}]') !== null",
                 "the list filtered by a player of the game still shows it")
        page.evaluate("""(() => { const f = document.getElementById("filter-player");
            f.value = "nobody-plays-here"; f.dispatchEvent(new Event("input")); })()""")
        wait_for(page, "!document.getElementById('no-replays').hidden",
                 "the list filtered by nobody is empty")
        print("== the list's player filter works")

        # The viewer opens at the final position with the result.
        page.open(f"{web}/replays/{name}")
        wait_for(page, "document.getElementById('board').dataset.turn", "the viewer shows a board")
        final = check_board(page, spielleiter, replay, "the opening position")
        moves = json.loads(page.evaluate(READ_MOVES))
        if final["index"] != moves[-1]["index"]:
            fail(f"the viewer opens at index {final['index']}, not at the last move {moves[-1]}")
        result = page.evaluate("document.getElementById('result').textContent")
        if "Result:" not in result:
            fail(f"no result at the final position: {result!r}")
        page.screenshot(os.path.join(out, "replay-final.png"))

        # The move list: every move in words, never the protocol's tokens,
        # each with the think time the replay records.
        for move in moves:
            if re.search(r"[A-Z]{3,}_|\b(NONE|RIGHT|MIRROR|LEFT|false|true)\b", move["words"]):
                fail(f"a move in the protocol's tokens: {move['words']!r}")
        shown_think = [m["think"] for m in moves]
        expected_think = [think_text(micros) for micros in recorded]
        if shown_think != expected_think:
            fail(f"the think times listed are not the replay's: {shown_think[:6]} … "
                 f"against {expected_think[:6]} …")
        print(f"== {len(moves)} moves in words with the replay's think times, "
              f"e.g. {moves[0]['words']!r} ({moves[0]['think']})")

        # Clicking moves of the list goes there.
        for k in (0, len(moves) // 2, len(moves) - 2):
            click(page, f'#moves tbody tr[data-index="{moves[k]["index"]}"]')
            shown = check_board(page, spielleiter, replay, f"move {k + 1} clicked in the list")
            if shown["index"] != moves[k]["index"] or moves[k]["words"] not in shown["position"]:
                fail(f"clicking move {k + 1} shows {shown}")
            current = [m for m in json.loads(page.evaluate(READ_MOVES)) if m["current"]]
            if [m["index"] for m in current] != [moves[k]["index"]]:
                fail(f"the list marks {current} as current, not move {k + 1}")
        page.screenshot(os.path.join(out, "replay-move.png"))

        # Autoplay from the start at 10 moves a second, paused mid-way.
        click(page, "#first")
        page.evaluate("""(() => { const s = document.getElementById("speed");
            s.value = "10"; s.dispatchEvent(new Event("change")); })()""")
        click(page, "#play")
        seen = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (not seen or seen[-1] < 8):
            seen.append(board(page)["index"])
            time.sleep(0.05)
        click(page, "#play")
        if seen != sorted(seen) or seen[-1] < 8:
            fail(f"autoplay did not step forward: {seen}")
        paused = board(page)["index"]
        time.sleep(0.4)
        if board(page)["index"] != paused:
            fail("autoplay goes on after a pause")
        check_board(page, spielleiter, replay, f"autoplay paused at position {paused}")
        page.screenshot(os.path.join(out, "replay-autoplay.png"))

        # The download link gives the file as stored.
        href = page.evaluate("document.querySelector('#downloads a').getAttribute('href')")
        fetched = page.call(
            "Runtime.evaluate",
            expression=f"""fetch({json.dumps(href)}).then((r) => r.arrayBuffer()).then((b) => {{
                let s = ""; for (const x of new Uint8Array(b)) s += String.fromCharCode(x);
                return btoa(s); }})""",
            awaitPromise=True, returnByValue=True,
        )["result"]["value"]
        if base64.b64decode(fetched) != replay_bytes:
            fail(f"the download {href} is not the replay file")
        print(f"== the download {href} is the replay file ({len(replay_bytes)} bytes)")


if __name__ == "__main__":
    main()
