#!/usr/bin/env python3
"""A person plays whole games in headless Chromium by clicking, against the
built-in random bot: a Blokus 2027 game (a second seat from the same address
refused on the form while it plays; choosing pieces, a rotation by key
and by button, a refused illegal click with the server's reason, then legal
clicks until the end) and an Ostseeschach game (a piece, then its target,
until the end; a click on the opponent's piece and an illegal step refused
with the server's reasons, neither sent as a move). Each game must end by
the rules: every seat's cause is REGULAR, the winners are the seats with
the most win points, and the page shows the result the seat's own view and
the game's replay hold; the replay's moves of the person's seat are the
ones the person clicked, in order. Screenshots go to OUT.

    play.py CHROMIUM WEB_URL OUT PROFILE_DIR
"""

import json
import re
import sys
import time
import urllib.parse

from cdp import DevTools, browser

# What the seat's page shows now.
STATE = r"""
(() => JSON.stringify({
  path: location.pathname,
  phase: document.body.dataset.phase || null,
  yourTurn: document.body.dataset.yourTurn === "true",
  request: Number(document.body.dataset.request || 0),
  status: (document.getElementById("status") || {}).textContent || "",
  message: document.getElementById("message").textContent,
  selected: (document.getElementById("selected") || {}).textContent || "",
  selectedPiece: ((document.getElementById("selected") || {}).dataset || {}).piece || "",
  targets: document.querySelectorAll("#grid .cell.target").length,
  movable: document.querySelectorAll("#grid .cell.movable").length,
  summary: (document.getElementById("summary") || {}).textContent || "",
}))()
"""


def fail(message):
    sys.exit(f"play: {message}")


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
    fail(f"the page did not show {what} within {seconds} s: {state(page)}")


def start_form(page, web, game):
    """Opens the form, chooses `game` and the random bot, presses Start."""
    page.open(f"{web}/play")
    wait(page, "the form", lambda s: True)
    deadline = time.monotonic() + 10
    while not page.evaluate(f"!!document.querySelector('#game option[value=\"{game}\"]')"):
        if time.monotonic() > deadline:
            fail("the form lists no games")
        time.sleep(0.05)
    page.evaluate(
        f"(() => {{ const g = document.getElementById('game'); g.value = '{game}';"
        " g.dispatchEvent(new Event('change')); })()"
    )
    opponent = page.evaluate("document.querySelector('#others select').value")
    if opponent != "random":
        fail(f"the other seat's default is {opponent!r}, not the random bot")
    page.click("#start")


def open_seat(page, web, game):
    """Opens a seat of `game` against the random bot; its page."""
    start_form(page, web, game)
    return wait(page, "the seat's page", lambda s: s["path"].startswith("/play/") and s["phase"])


def second_seat_refused(page, web, out):
    """While the person's seat plays, the form refuses a second one from
    the same address (http.play_seats_per_address = 1) in words; then
    back to the seat."""
    seat = page.evaluate("location.href")
    start_form(page, web, "swc_2022_ostseeschach")
    deadline = time.monotonic() + 10
    error = ""
    while time.monotonic() < deadline and not error:
        error = page.evaluate(
            "(() => { const e = document.getElementById('error');"
            " return e && !e.hidden ? e.textContent : ''; })()"
        )
        time.sleep(0.05)
    if error != "You already play in 1 game here; finish or leave one first":
        fail(f"a second seat from the same address was answered with {error!r}")
    if not page.evaluate("location.pathname === '/play'"):
        fail("a refused second seat left the form")
    page.screenshot(f"{out}/play-second-seat-refused.png")
    print(f"== a second seat from the same address: {error}")
    page.open(seat)
    wait(page, "the seat's page again", lambda s: s["path"].startswith("/play/") and s["phase"])


def next_turn(page, after):
    """Waits for the person's next move request (or the end)."""
    return wait(
        page, "the person's turn or the end",
        lambda s: (s["yourTurn"] and s["request"] > after) or s["phase"] in ("over", "left"),
    )


def non_target_cell(page):
    """An empty field where the selected piece may not go."""
    return page.evaluate(
        "(() => { const n = Array.from(document.querySelectorAll('#grid .cell'))"
        ".find(c => !c.classList.contains('target') && !c.dataset.fill"
        " && Number(c.dataset.x) > 5 && Number(c.dataset.y) > 5);"
        " return n ? [Number(n.dataset.x), Number(n.dataset.y)] : null; })()"
    )


def cell(x, y):
    return f'#grid .cell[data-x="{x}"][data-y="{y}"]'


def field_of(page, selector):
    """The field (x, y) of the first cell `selector` matches."""
    return tuple(json.loads(page.evaluate(
        f"(() => {{ const n = document.querySelector({json.dumps(selector)});"
        " return JSON.stringify([Number(n.dataset.x), Number(n.dataset.y)]); })()"
    )))


def regular_end(page, game, clicked):
    """The ended game's result is a regular one, shown on the page as the
    seat's view and the replay hold it, and the replay's moves of the
    person's seat are `clicked` (per move, the texts its words must hold),
    in order. Returns the result's summary."""
    seat_id = page.evaluate("location.pathname.split('/')[2]")
    view = page.fetch_json(f"/api/play/{seat_id}")
    result = view["result"]
    if view["phase"] != "over" or not result:
        fail(f"{game} ended in phase {view['phase']!r} with result {result}")
    causes = [score["cause"] for score in result["scores"]]
    if len(causes) != len(view["players"]) or set(causes) != {"REGULAR"}:
        fail(f"{game} did not end by the rules: {result['scores']}")
    # The win points (the first part) decide the winners, the winners the
    # summary.
    win_points = [int(score["parts"][0]) for score in result["scores"]]
    names = [player["name"] for player in view["players"]]
    best = max(win_points)
    winners = [seat for seat, points in enumerate(win_points) if points == best]
    summary = "draw" if len(winners) == len(names) else f"{names[winners[0]]} wins"
    if sorted(win_points) not in ([0, 2], [1, 1]) or result["winners"] != winners \
            or result["summary"] != summary:
        fail(f"{game}'s result does not follow from its win points {win_points}: {result}")
    shown = page.evaluate("document.getElementById('summary').textContent")
    status = page.evaluate("document.getElementById('status').textContent")
    if shown != summary or status != f"Game over: {summary}.":
        fail(f"the page shows {shown!r} / {status!r} for the result {summary!r}")
    # The game's replay, published just after the result.
    replay = None
    deadline = time.monotonic() + 20
    while replay is None and time.monotonic() < deadline:
        query = urllib.parse.urlencode({"game": game, "player": names[view["seat"]]})
        listed = page.fetch_json(f"/api/replays?{query}")
        for entry in listed:
            candidate = page.fetch_json(f"/api/replays/{entry['name']}")
            if candidate["room"] == view["room_id"]:
                replay = candidate
                break
        else:
            time.sleep(0.2)
    if replay is None:
        fail(f"no replay of room {view['room_id']} within 20 s")
    if replay["result"] != result:
        fail(f"the replay's result {replay['result']} is not the page's {result}")
    moved = [frame["words"] for frame in replay["frames"] if frame["mover"] == view["seat"]]
    if len(moved) != len(clicked):
        fail(f"the replay has {len(moved)} moves of the person, who made {len(clicked)}")
    for number, (words, parts) in enumerate(zip(moved, clicked), 1):
        if not all(part in words for part in parts):
            fail(f"the person's move {number} is {words!r} in the replay, not {parts}")
    print(f"== {game} ended by the rules: {summary}, win points {win_points}; "
          f"the replay holds the person's {len(clicked)} moves as clicked")
    return summary


def play_blokus(page, web, out):
    now = open_seat(page, web, "swc_2027_blokus")
    second_seat_refused(page, web, out)
    clicked = []
    rotated_by_key = rotated_by_button = refused = False
    request = 0
    while True:
        now = next_turn(page, request)
        if now["phase"] in ("over", "left"):
            break
        request = now["request"]
        # The largest piece that fits anywhere (the last in the list).
        pieces = json.loads(page.evaluate(
            "JSON.stringify(Array.from(document.querySelectorAll('#pieces .piece'))"
            ".filter(p => !p.classList.contains('used') && !p.classList.contains('stuck'))"
            ".map(p => p.dataset.piece))"
        ))
        if not pieces:
            fail(f"the person's turn, but no piece fits: {now}")
        piece = pieces[-1]
        if not clicked:
            # Before the first move every other piece is refused in words:
            # the season's one first piece, named as people name it.
            other = page.evaluate("document.querySelector('#pieces .piece.stuck').dataset.piece")
            page.click(f'#pieces .piece[data-piece="{other}"]')
            now = wait(page, "the first piece said", lambda s: s["message"])
            if not re.fullmatch(r"Every colour's first piece is the [A-Z] pentomino: choose it\.", now["message"]):
                fail(f"a piece other than the first was answered with {now['message']!r}")
            print(f"== another first piece: {now['message']}")
        page.click(f'#pieces .piece[data-piece="{piece}"]')
        now = wait(page, f"the {piece} chosen", lambda s: s["selectedPiece"] == piece)
        if not rotated_by_key:
            before = now["selected"]
            page.press("r")
            now = wait(page, "a rotation by the R key", lambda s: s["selected"] != before)
            rotated_by_key = "turned" in now["selected"] or now["selected"] != before
        elif not rotated_by_button:
            before = now["selected"]
            page.click("#rotate")
            now = wait(page, "a rotation by the button", lambda s: s["selected"] != before)
            rotated_by_button = True
        # Turn and flip until the piece fits somewhere in its orientation.
        for step in range(8):
            if state(page)["targets"] > 0:
                break
            page.press("f" if step == 4 else "r")
            time.sleep(0.05)
        now = state(page)
        if now["targets"] == 0:
            fail(f"the {piece} fits nowhere in any orientation, yet it is offered: {now}")
        if not refused:
            spot = non_target_cell(page)
            if spot is None:
                fail("no field to try an illegal placement on")
            page.click(cell(*spot))
            now = wait(page, "the refusal", lambda s: s["message"])
            # The server's reason, from the rules' mistake for this piece
            # on these fields (its words are the web crate's tests').
            reasons = ("off the board", "a field that is taken", "share an edge",
                       "touch a corner", "edge of the board", "first piece must be")
            if not re.match(r"The [A-Za-z ]+ cannot go there: ", now["message"]) \
                    or not any(r in now["message"] for r in reasons):
                fail(f"the illegal click was answered with {now['message']!r}")
            print(f"== the refused placement: {now['message']}")
            if not now["yourTurn"] or now["request"] != request:
                fail("the illegal click was sent to the server")
            # The marked fields and a piece under the mouse, for the picture.
            hover = page.center("#grid .cell.target")
            page.move_mouse(*hover)
            time.sleep(0.2)
            page.screenshot(f"{out}/play-blokus-refused.png")
            refused = True
        # The replay names the piece and each of its fields, the one
        # clicked among them.
        words = re.fullmatch(r"The (.+?)(, turned \d+°)?(, flipped)?", state(page)["selected"]).group(1)
        x, y = field_of(page, "#grid .cell.target")
        page.click("#grid .cell.target")
        clicked.append((f" places the {words} on ", f"({x},{y})"))
        if len(clicked) == 6:
            time.sleep(0.4)
            page.screenshot(f"{out}/play-blokus-middle.png")
    wait(page, "the result", lambda s: s["summary"])
    page.screenshot(f"{out}/play-blokus-end.png")
    if not (rotated_by_key and rotated_by_button and refused):
        fail(f"the game ended before a rotation by key and button and a refused click ({len(clicked)} moves)")
    summary = regular_end(page, "swc_2027_blokus", clicked)
    print(f"== Blokus 2027: the person placed {len(clicked)} pieces; {summary}")
    return len(clicked)


def play_ostseeschach(page, web, out):
    open_seat(page, web, "swc_2022_ostseeschach")
    clicked = []
    refused = False
    request = 0
    while True:
        now = next_turn(page, request)
        if now["phase"] in ("over", "left"):
            break
        request = now["request"]
        if now["movable"] == 0:
            fail(f"the person's turn, but no piece is marked: {now}")
        if not refused:
            # The opponent's piece (the person is ONE, red): not theirs.
            page.click('#grid .cell[data-fill="blue"]')
            now = wait(page, "the refusal of the opponent's piece", lambda s: s["message"])
            if not now["message"].startswith("That is not your piece"):
                fail(f"the click on the opponent's piece was answered with {now['message']!r}")
            if not now["yourTurn"] or now["request"] != request:
                fail("the click on the opponent's piece was sent to the server")
            print(f"== the refused piece: {now['message']}")
        start = field_of(page, "#grid .cell.movable")
        page.click("#grid .cell.movable")
        now = wait(page, "the piece's targets", lambda s: s["targets"] > 0)
        if not refused:
            spot = page.evaluate(
                "(() => { const n = Array.from(document.querySelectorAll('#grid .cell'))"
                ".find(c => !c.classList.contains('target') && !c.classList.contains('from') && !c.dataset.fill);"
                " return n ? [Number(n.dataset.x), Number(n.dataset.y)] : null; })()"
            )
            page.click(cell(*spot))
            now = wait(page, "the refusal", lambda s: s["message"])
            # The server's reason names how the chosen piece moves.
            if not now["message"].startswith("That piece cannot move there: a ") \
                    or not any(w in now["message"] for w in ("moves one field", "jumps like a knight")):
                fail(f"the illegal click was answered with {now['message']!r}")
            print(f"== the refused step: {now['message']}")
            if not now["yourTurn"] or now["request"] != request:
                fail("the illegal click was sent to the server")
            page.screenshot(f"{out}/play-ostseeschach-refused.png")
            refused = True
        target = field_of(page, "#grid .cell.target")
        page.click("#grid .cell.target")
        clicked.append((f" from ({start[0]},{start[1]}) to ({target[0]},{target[1]})",))
    wait(page, "the result", lambda s: s["summary"])
    page.screenshot(f"{out}/play-ostseeschach-end.png")
    if not refused:
        fail(f"the game ended before an illegal click was refused ({len(clicked)} moves)")
    summary = regular_end(page, "swc_2022_ostseeschach", clicked)
    print(f"== Ostseeschach: the person made {len(clicked)} moves; {summary}")
    study_replay(page)
    return len(clicked)


def study_replay(page):
    """Follows the ended game's link to the replay list, which lists the
    game (its game and the person's name filled in as filters)."""
    study = page.evaluate(
        "(() => { const a = document.getElementById('study');"
        " return a && !a.closest('[hidden]') ? a.href : null; })()"
    )
    if not study or "game=swc_2022_ostseeschach" not in study or "player=person" not in study:
        fail(f"the ended game offers no link to its replay: {study!r}")
    # The replay is published just after the result: ask again until listed.
    deadline = time.monotonic() + 20
    row = None
    while time.monotonic() < deadline and not row:
        page.evaluate(f"location.href = {json.dumps(study)}")
        time.sleep(1)
        row = page.evaluate(
            "(() => { const r = document.querySelector('#replays tbody tr');"
            " return r ? r.textContent : null; })()"
        )
    if not row or "Ostseeschach" not in row or "person" not in row:
        fail(f"the replay list behind the link does not show the game: {row!r}")
    print("== the ended game's link lists its replay")


def main():
    chromium, web, out, profile = sys.argv[1:5]
    started = time.monotonic()
    with browser(chromium, profile) as socket_url:
        page = DevTools(socket_url)
        play_blokus(page, web, out)
        play_ostseeschach(page, web, out)
    print(f"== both games played in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
