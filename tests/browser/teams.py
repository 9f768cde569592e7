#!/usr/bin/env python3
"""A team's programs and friendly games (issue 36) in headless Chromium,
with built-in bots for programs (uploads built in Docker are the sandbox
test's):

- the organiser adds two teams in a SQLite store; Owls get a version named
  on the command line (built, not tested), Foxes an active one;
- Owls' teacher comes in by the link, presses "Test" on the versions page;
  a contest worker plays the test's two games against the random bot; the
  test page shows both games ended by the rules and the version tested, a
  game's replay opens in the viewer, and "Activate" makes it active;
- Owls challenge Foxes on the friendly page; Foxes' teacher accepts; a
  worker plays the encounter; both pages show it played with its games,
  and each team's notices say so, new to Olga until she marks them read;
  she saves an address for their mail on her account page; neither team
  sees the other's pages.

Screenshots go to OUT (teams-*.png).

    teams.py CHROMIUM SPIELLEITER OUT PROFILE_ROOT
"""

import os
import sys
import tempfile
import time

from cdp import DevTools, browser
from contest import goto, register, run, start_server, state, status_of, submit, type_into


def main():
    chromium, binary, out, profiles = sys.argv[1:5]
    store = os.path.join(out, "teams.sqlite")
    run(binary, "contest", "create", "--store", store, "--game", "swc_2027_blokus",
        "--name", "Teams Cup", "--seed", "9")
    # A relay that takes nothing (the discard port, refused): the account
    # page offers the address form; the mails' delivery is the end-to-end
    # test's (crates/cli/tests/contest_pages.rs, with a fake relay).
    server, web = start_server(binary, store, out, [
        "--mail-smtp", "127.0.0.1:9", "--mail-from", "Teams Cup <cup@contest.example>"])
    worker = ["worker", "--store", store, "--contest", "--until-idle"]
    try:
        links = {}
        for team in ["Owls", "Foxes"]:
            printed = run(binary, "contest", "team", "add", team, "--store", store,
                          "--web-url", web)
            links[team] = printed.strip().splitlines()[-1]
        run(binary, "contest", "version", "add", "Owls", "--player", "builtin:greedy",
            "--comment", "greedy", "--store", store)
        run(binary, "contest", "version", "add", "Foxes", "--player", "builtin:random",
            "--activate", "--store", store)
        with browser(chromium, tempfile.mkdtemp(dir=profiles)) as owls_socket, \
                browser(chromium, tempfile.mkdtemp(dir=profiles)) as foxes_socket:
            owls = DevTools(owls_socket)
            owls.open("about:blank")
            foxes = DevTools(foxes_socket)
            foxes.open("about:blank")
            owls_home = register(owls, links["Owls"], "Olga Teacher", out, "teams-owls.png")
            foxes_home = register(foxes, links["Foxes"], "Fritz Teacher", out, "teams-foxes.png")

            # The test: pressed on the page, played by a worker.
            goto(owls, web + owls_home + "/versions")
            submit(owls, 'button[aria-label="Test version 1"]')
            if "testing" not in state(owls)["text"]:
                sys.exit(f"the version is not being tested: {state(owls)['text'][:400]}")
            owls.screenshot(os.path.join(out, "teams-versions-testing.png"))
            run(binary, *worker)
            goto(owls, web + owls_home + "/versions/1/test")
            shown = state(owls)["text"]
            if "2 of 2 games played" not in shown or shown.count("ended by the rules") != 2 \
                    or "State: tested" not in shown:
                sys.exit(f"the test page shows: {shown[:600]}")
            owls.screenshot(os.path.join(out, "teams-test.png"))
            replays = owls.evaluate(
                "[...document.querySelectorAll('table a')].filter(a => a.textContent === 'replay')"
                ".map(a => a.getAttribute('href'))")
            goto(owls, web + replays[0])
            board = None
            for _ in range(100):
                board = owls.evaluate("document.querySelector('#board svg') !== null")
                if board:
                    break
                time.sleep(0.1)
            if not board:
                sys.exit(f"the test game's replay shows no board: {state(owls)['text'][:300]}")
            owls.screenshot(os.path.join(out, "teams-test-replay.png"))
            goto(owls, web + owls_home + "/versions")
            submit(owls, 'button[aria-label="Activate version 1"]')
            if "active" not in state(owls)["text"]:
                sys.exit("version 1 is not active")

            # A friendly encounter: challenged, accepted, played.
            goto(owls, web + owls_home + "/friendly")
            owls.evaluate(
                "document.querySelector('select[name=to]').value = "
                "[...document.querySelectorAll('select[name=to] option')]"
                ".find(o => o.textContent === 'Foxes').value")
            submit(owls, 'form[action$="/friendly"] button')
            if "to Foxes" not in state(owls)["text"]:
                sys.exit(f"no challenge to Foxes: {state(owls)['text'][:400]}")
            goto(foxes, web + foxes_home + "/friendly")
            submit(foxes, 'button[aria-label="Accept the challenge from Owls"]')
            run(binary, *worker)
            for page, home, other, shot in [(owls, owls_home, "to Foxes", "teams-friendly-owls.png"),
                                            (foxes, foxes_home, "from Owls", "teams-friendly-foxes.png")]:
                goto(page, web + home + "/friendly")
                shown = state(page)["text"]
                if other not in shown or "6 of 6 played" not in shown:
                    sys.exit(f"the friendly page shows: {shown[:500]}")
                page.screenshot(os.path.join(out, shot))
            goto(owls, web + owls_home + "/notices")
            told = state(owls)["text"]
            for said in ["passed its test", "Foxes accepted your friendly challenge",
                         "The friendly encounter with Foxes is played"]:
                if said not in told:
                    sys.exit(f"Owls' notices do not say {said!r}: {told[:600]}")
            if "new for you" not in told:
                sys.exit(f"Olga's notices are not marked new: {told[:600]}")
            owls.screenshot(os.path.join(out, "teams-notices.png"))
            submit(owls, 'form[action$="/notices/read"] button')
            read = state(owls)["text"]
            if "new for you" in read or "passed its test" not in read:
                sys.exit(f"after 'Mark as read' the notices show: {read[:600]}")
            owls.screenshot(os.path.join(out, "teams-notices-read.png"))
            # Olga has her notices mailed from now on.
            goto(owls, web + "/contest/account")
            type_into(owls, "#address", "olga@owls.example")
            submit(owls, 'form[action="/contest/account/mail"] button')
            saved = state(owls)["text"]
            address = owls.evaluate("document.querySelector('#address').value")
            if "Your address for notices is saved." not in saved or address != "olga@owls.example":
                sys.exit(f"the account page after saving the address: {address!r} {saved[:500]}")
            owls.screenshot(os.path.join(out, "teams-account-mail.png"))
            # Neither sees the other's pages.
            for path in ["/versions/1/test", "/friendly", "/notices"]:
                if status_of(foxes, owls_home + path) != 403:
                    sys.exit(f"Foxes see Owls' {path}")
        print("== a team's test, activation, friendly encounter and notices in the browser")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
