#!/usr/bin/env python3
"""The replay viewer in headless Chromium (driven through cdp.py), over a
finished game's replay: the list shows the game's players, result and
length; the viewer opens at the final position with the result; clicking
moves of the move list steps through the game, and autoplay from the
start shows each next position in turn at the speed set (the page records
every position its board is set to); each board shown is compared field
by field with the replay's memento of that turn (read by `spielleiter
replay show`); the move list numbers every turn, the colours the rules
skipped too, without a gap; a link with `?turn=N` opens at turn N, and
the address names the position shown; the think times listed are the
ones the replay records; the download link gives the file's bytes. Saves
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

# The move list: per row its frame index, turn, words and think time, and
# whether the rules skipped the turn.
READ_MOVES = r"""
JSON.stringify([...document.querySelectorAll("#moves tbody tr")].map((row) => ({
  index: Number(row.dataset.index),
  turn: Number(row.dataset.turn),
  skipped: row.classList.contains("skipped"),
  words: row.cells[1].textContent,
  think: row.cells[2].textContent,
  current: row.classList.contains("current"),
})))
"""

# Notes in the page every position the board is set to, with the time,
# from now on: window.shownPositions, [[index, milliseconds], ...].
RECORD_POSITIONS = r"""
(() => {
  window.shownPositions = [];
  const board = document.getElementById("board");
  new MutationObserver(() => {
    window.shownPositions.push([Number(board.dataset.index), performance.now()]);
  }).observe(board, { attributes: true, attributeFilter: ["data-index"] });
})()
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
            const cells = [...row.cells].map((c) => c.textContent);
            cells[1] = [...row.cells[1].querySelectorAll(".player")]
              .map((p) => p.title || p.textContent).join(" vs ");
            return JSON.stringify(cells);
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
        # Every turn numbered, the skipped ones too: 1 to the last, no gap.
        numbers = [m["turn"] for m in moves]
        if numbers != list(range(1, final["turn"] + 1)):
            fail(f"the move list's turns are not 1 to {final['turn']}: {numbers}")
        skipped = [m for m in moves if m["skipped"]]
        for move in skipped:
            if not move["words"].endswith(" is skipped: no piece fits") or move["think"]:
                fail(f"a skipped turn listed as {move}")
        moves = [m for m in moves if not m["skipped"]]
        print(f"== the move list numbers turns 1 to {final['turn']}: "
              f"{len(moves)} moves and {len(skipped)} skipped turns")
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
            if {m["index"] for m in current} != {moves[k]["index"]}:
                fail(f"the list marks {current} as current, not move {k + 1}")
            if page.evaluate("location.search") != f"?turn={shown['turn']}":
                fail(f"the address {page.evaluate('location.href')} does not name turn {shown['turn']}")
        page.screenshot(os.path.join(out, "replay-move.png"))

        # A link to a turn opens there and keeps naming it: a move's turn,
        # and a skipped turn (the position its row leads to).
        for target in [moves[len(moves) // 3]] + skipped[:1]:
            turn = target["turn"]
            page.open(f"{web}/replays/{name}?turn={turn}")
            wait_for(page, "document.getElementById('board').dataset.turn", f"the viewer at turn {turn}")
            shown = check_board(page, spielleiter, replay, f"the link to turn {turn}")
            if shown["index"] != target["index"]:
                fail(f"?turn={turn} opens position {shown['index']}, not {target['index']}")
            if page.evaluate("location.search") != f"?turn={turn}":
                fail(f"?turn={turn} became {page.evaluate('location.href')}")
            if not shown["position"].startswith(f"turn {shown['turn']} of {final['turn']}"):
                fail(f"the position is not counted in turns: {shown['position']!r}")
        page.screenshot(os.path.join(out, "replay-link.png"))

        # Autoplay from the start at 10 moves a second, paused mid-way. A
        # recorder in the page notes every position the board shows, so
        # that no step is missed between two looks: the start first, then
        # each next position in turn, none skipped, at about the speed set.
        click(page, "#first")
        start = board(page)
        if start["index"] != 0 or "the start" not in start["position"]:
            fail(f"the first button does not go to the start: position {start['index']}, {start['position']!r}")
        page.evaluate(RECORD_POSITIONS)
        page.evaluate("""(() => { const s = document.getElementById("speed");
            s.value = "10"; s.dispatchEvent(new Event("change")); })()""")
        click(page, "#play")
        if page.evaluate("document.getElementById('play').textContent") != "Pause":
            fail("the play button does not turn into a pause button")
        wait_for(page, "window.shownPositions.length > 8",
                 "autoplay shows eight positions after the start", seconds=10)
        click(page, "#play")
        shown = json.loads(page.evaluate("JSON.stringify(window.shownPositions)"))
        steps = [index for index, _ in shown]
        if steps != list(range(1, len(steps) + 1)):
            fail(f"autoplay from the start did not show each next position in turn: {steps}")
        # 10 moves a second: a step every 100 ms, never all at once.
        pace = (shown[-1][1] - shown[0][1]) / (len(shown) - 1)
        if not 60 <= pace <= 400:
            fail(f"autoplay at 10 moves a second took {pace:.0f} ms a step")
        paused = board(page)["index"]
        time.sleep(0.4)
        if board(page)["index"] != paused:
            fail("autoplay goes on after a pause")
        print(f"== autoplay from the start showed positions 1 to {steps[-1]} in turn, "
              f"one every {pace:.0f} ms, and paused")
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
