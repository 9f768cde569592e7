#!/usr/bin/env python3
"""The contest's results pages (issue 37) in headless Chromium, as nobody
signed in sees them:

- the organiser makes a contest of four teams (built-in bots) in a SQLite
  store, plays two championship matchdays and a final of four on
  `spielleiter worker --contest`, and publishes both matchdays, the
  semi-finals and the match for third place, but not the final;
- the standings show a table after matchday 2 with each team's movement
  since matchday 1;
- matchday 1 shows its two encounters with their games, and a game's
  replay opens in the replay viewer with its board;
- the final's bracket is drawn (an SVG with a box per encounter), the
  published rounds' winners marked, the final's result not shown;
- the organiser logs in, sees the calendar with each matchday's step,
  publishes the final there, and the bracket names its winner; the games
  page shows a trial matchday being played.

Screenshots go to OUT (results-*.png).

    results.py CHROMIUM SPIELLEITER OUT PROFILE_ROOT
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from cdp import DevTools, browser
from contest import PASSWORD, goto, run, start_server, state, submit, type_into

TEAMS = ["Owls", "Foxes", "Bats", "Moles"]


def main():
    chromium, binary, out, profiles = sys.argv[1:5]
    store = os.path.join(out, "results.sqlite")
    run(binary, "contest", "create", "--store", store, "--game", "swc_2027_blokus",
        "--name", "Results Cup", "--seed", "4", "--games-per-encounter", "2")
    # One strong team and three weak ones; after matchday 1 Owls activate a
    # strong version: the table moves.
    for team, bot in zip(TEAMS, ["random", "greedy", "random", "random"]):
        run(binary, "contest", "team", "add", team, "--store", store)
        run(binary, "contest", "version", "add", team, "--player", f"builtin:{bot}",
            "--activate", "--store", store)
    worker = ["worker", "--store", store, "--contest", "--until-idle"]
    for number in ["1", "2"]:
        run(binary, "contest", "matchday", "create", "--phase", "championship", "--untimed",
            "--store", store)
        run(binary, "contest", "matchday", "play", number, "--store", store)
        run(binary, *worker)
        run(binary, "contest", "matchday", "publish", number, "--store", store)
        if number == "1":
            run(binary, "contest", "version", "add", "Owls", "--player", "builtin:greedy",
                "--activate", "--store", store)
    run(binary, "contest", "final", "create", "--top", "4", "--store", store)
    for round_name in ["semi", "third", "final"]:
        run(binary, "contest", "final", "play", round_name, "--no-wait", "--store", store)
        run(binary, *worker)
        # Waits for a tied encounter's extra games, if any, and marks it played.
        run(binary, "contest", "final", "play", round_name, "--store", store)
        if round_name != "final":
            run(binary, "contest", "final", "publish", round_name, "--store", store)
    # A trial matchday frozen, its games waiting for a worker: the games
    # page shows it being played.
    run(binary, "contest", "matchday", "create", "--phase", "trial", "--untimed", "--store", store)
    run(binary, "contest", "matchday", "play", "1", "--phase", "trial", "--store", store)
    added = subprocess.run([binary, "contest", "organiser", "add", "Grace", "--store", store],
                           input=PASSWORD + "\n", capture_output=True, text=True)
    if added.returncode != 0:
        sys.exit(f"contest organiser add: {added.stderr}")
    server, web = start_server(binary, store, out)
    try:
        with browser(chromium, tempfile.mkdtemp(dir=profiles)) as socket_url:
            page = DevTools(socket_url)
            page.open("about:blank")

            goto(page, web + "/contest/standings")
            shown = state(page)
            if "After matchday 2" not in shown["text"]:
                sys.exit(f"no table after matchday 2: {shown['text'][:500]}")
            rows = page.evaluate("document.querySelectorAll('table.standings tbody tr').length")
            moves = page.evaluate(
                "[...document.querySelectorAll('td.move')].map(n => n.textContent.trim())")
            if rows != len(TEAMS) or len(moves) != len(TEAMS) or any(not m for m in moves):
                sys.exit(f"the table has {rows} rows, movement {moves}")
            print(f"== the table's movement after matchday 2: {moves}")
            page.screenshot(os.path.join(out, "results-standings.png"))

            goto(page, web + "/contest/matchdays/championship/1")
            encounters = page.evaluate("document.querySelectorAll('section.encounter').length")
            replays = page.evaluate(
                "[...document.querySelectorAll('section.encounter a')].map(a => a.getAttribute('href'))")
            if encounters != 2 or len(replays) != 4:
                sys.exit(f"matchday 1 shows {encounters} encounters, replays {replays}")
            page.screenshot(os.path.join(out, "results-matchday.png"))

            goto(page, web + replays[0])
            board = None
            for _ in range(100):
                board = page.evaluate("document.querySelector('#board svg') !== null")
                if board:
                    break
                time.sleep(0.1)
            if not board:
                sys.exit(f"the replay shows no board: {state(page)['text'][:300]}")
            page.screenshot(os.path.join(out, "results-replay.png"))

            goto(page, web + "/contest/final")
            boxes = page.evaluate("document.querySelectorAll('.bracket svg [data-match]').length")
            winners = page.evaluate("document.querySelectorAll('.bracket svg [data-winner]').length")
            text = page.evaluate("document.querySelector('.bracket svg').textContent")
            # Semi-finals (2) and third place (1) published; the final not.
            if boxes != 4 or winners != 3 or "not yet published" not in text:
                sys.exit(f"the bracket has {boxes} boxes, {winners} winners: {text}")
            # The semi-finals are published: the final's two teams are
            # named, not placeholders.
            if "winner of" in text or "loser of" in text:
                sys.exit(f"the published semi-finals' winners are not named: {text}")
            page.screenshot(os.path.join(out, "results-final.png"))

            # The organiser's calendar: the final is played, not published;
            # publishing it there names its winner in the bracket.
            goto(page, web + "/contest/login")
            type_into(page, "#name", "Grace")
            type_into(page, "#password", PASSWORD)
            submit(page, "form.login button[type=submit]")
            goto(page, web + "/contest/organiser/calendar")
            steps = page.evaluate(
                "[...document.querySelectorAll('table button')].map(b => b.getAttribute('aria-label'))")
            expected = ["Play its failed games again: Trial matchdays, matchday 1",
                        "Take the publication back: Championship, matchday 1",
                        "Take the publication back: Championship, matchday 2",
                        "Take the publication back: The final: semi-final",
                        "Take the publication back: The final: match for third place",
                        "Publish: The final: final"]
            if steps != expected:
                sys.exit(f"the calendar's steps are {steps}")
            page.screenshot(os.path.join(out, "results-calendar.png"))
            submit(page, 'button[aria-label="Publish: The final: final"]')
            done = state(page)
            if "The final: final is published" not in done["text"]:
                sys.exit(f"publishing the final said: {done['text'][:300]}")
            goto(page, web + "/")
            shown = ""
            for _ in range(100):
                shown = page.evaluate(
                    "document.getElementById('contest').hidden ? '' : document.getElementById('contest').innerText")
                if shown:
                    break
                time.sleep(0.1)
            if "Trial matchdays, matchday 1" not in shown or "0 of 4 games played" not in shown:
                sys.exit(f"the games page shows of the contest: {shown!r}")
            page.screenshot(os.path.join(out, "results-live.png"))
            page.call("Network.clearBrowserCookies")
            goto(page, web + "/contest/final")
            winners = page.evaluate("document.querySelectorAll('.bracket svg [data-winner]').length")
            if winners != 4:
                sys.exit(f"after publishing the final the bracket marks {winners} winners")
            page.screenshot(os.path.join(out, "results-final-published.png"))
        print("== the results pages: standings with movement, a matchday, a replay, "
              "the bracket without the unpublished final; the organiser's calendar publishes it")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
