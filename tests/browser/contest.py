#!/usr/bin/env python3
"""Two teams come in through the contest's door (issue 35), each person in
a headless Chromium of their own (its own profile, so its own cookies):

- the organiser makes a contest in a SQLite store and adds two teams on
  the command line (`spielleiter contest team add`), and `spielleiter
  serve --store` serves it;
- each team's teacher opens the team's link, registers (name, password
  typed into the form), lands on the team's page and makes a student's
  link there; each student opens it and registers;
- each of the four sees their own team's page with its members, and the
  other team's page is refused to them;
- a teacher logs out, and the session cookie from before, put back into
  the browser, is refused.

Screenshots of the pages go to OUT (contest-*.png).

    contest.py CHROMIUM SPIELLEITER OUT PROFILE_ROOT
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

from cdp import DevTools, browser

PASSWORD = "a long enough password"
TEAMS = {
    "Owls": {"teacher": "Olga Teacher", "student": "Oskar Student"},
    "Foxes": {"teacher": "Fritz Teacher", "student": "Frida Student"},
}


def run(binary, *args):
    """Runs `spielleiter ARGS…`; its standard output (fails on an error)."""
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"spielleiter {' '.join(args)}: {done.stderr}")
    return done.stdout


def start_server(binary, store, out, extra=()):
    """`serve --store` on free ports (and `extra` flags); the process and
    its web address."""
    log = open(os.path.join(out, "contest-server.log"), "w")
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--http-port", "0", "--replays", "false",
         "--store", store, *extra],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "RUST_LOG": "info"},
    )
    for _ in range(300):
        with open(os.path.join(out, "contest-server.log")) as text:
            found = re.search(r"web pages on (http://127\.0\.0\.1:\d+)/", text.read())
        if found:
            return server, found.group(1)
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    sys.exit("the contest's server did not start: see contest-server.log")


def settle(page, what, timeout=15):
    """Waits until the page that follows a navigation has loaded (the old
    one carried a mark the new one has not)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if page.evaluate("window.__old === undefined && document.readyState === 'complete'"):
                return
        except RuntimeError:
            pass  # the page is between documents
        time.sleep(0.05)
    sys.exit(f"no new page after {what}")


def goto(page, url):
    page.evaluate("window.__old = true")
    page.call("Page.navigate", url=url)
    settle(page, url)


def submit(page, button):
    """Clicks a form's button, as a person does, and waits for the answer."""
    page.evaluate("window.__old = true")
    page.click(button)
    settle(page, button)


def type_into(page, selector, text):
    """Focuses a field and types `text` into it."""
    page.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
    page.call("Input.insertText", text=text)


def state(page):
    return json.loads(page.evaluate(
        "JSON.stringify({path: location.pathname, h1: (document.querySelector('h1') || {}).textContent || '',"
        " text: document.body.innerText})"
    ))


def status_of(page, path):
    """The status of `GET path` as this browser asks it (its cookies)."""
    result = page.call(
        "Runtime.evaluate",
        expression=f"fetch({json.dumps(path)}, {{redirect: 'manual'}}).then(r => r.status)",
        awaitPromise=True, returnByValue=True,
    )
    return result["result"]["value"]


def register(page, link, name, out, shot):
    """Opens an invite link, registers as `name`; the team page's path."""
    goto(page, link)
    if not page.evaluate("!!document.getElementById('password')"):
        sys.exit(f"{link}: no form: {state(page)}")
    type_into(page, "#name", name)
    type_into(page, "#password", PASSWORD)
    type_into(page, "#repeat", PASSWORD)
    submit(page, "form.login button[type=submit]")
    landed = state(page)
    if not landed["path"].startswith("/contest/teams/"):
        sys.exit(f"{name} did not land on a team's page: {landed}")
    if f"Signed in as {name}" not in landed["text"]:
        sys.exit(f"{name} is not shown as signed in: {landed['text'][:300]}")
    page.screenshot(os.path.join(out, shot))
    return landed["path"]


def main():
    chromium, binary, out, profiles = sys.argv[1:5]
    store = os.path.join(out, "contest.sqlite")
    run(binary, "contest", "create", "--store", store, "--game", "swc_2027_blokus",
        "--name", "Browser Cup", "--seed", "3")
    server, web = start_server(binary, store, out)
    try:
        links = {}
        for team in TEAMS:
            printed = run(binary, "contest", "team", "add", team, "--store", store,
                          "--web-url", web)
            links[team] = printed.strip().splitlines()[-1]
            if not links[team].startswith(f"{web}/contest/invite/"):
                sys.exit(f"no link for {team}: {printed}")
        people = {}
        home = {}
        with browser(chromium, tempfile.mkdtemp(dir=profiles)) as owl_teacher_socket, \
                browser(chromium, tempfile.mkdtemp(dir=profiles)) as fox_teacher_socket, \
                browser(chromium, tempfile.mkdtemp(dir=profiles)) as owl_student_socket, \
                browser(chromium, tempfile.mkdtemp(dir=profiles)) as fox_student_socket:
            sockets = {
                ("Owls", "teacher"): owl_teacher_socket,
                ("Foxes", "teacher"): fox_teacher_socket,
                ("Owls", "student"): owl_student_socket,
                ("Foxes", "student"): fox_student_socket,
            }
            for key, socket_url in sockets.items():
                page = DevTools(socket_url)
                page.open("about:blank")
                people[key] = page

            # The teachers come in by the organiser's links and make a
            # student's link each.
            student_links = {}
            for team, names in TEAMS.items():
                page = people[(team, "teacher")]
                home[team] = register(page, links[team], names["teacher"], out,
                                      f"contest-{team.lower()}-teacher.png")
                submit(page, f'form[action="{home[team]}/invites"] button')
                shown = state(page)
                link = page.evaluate("document.getElementById('link').value")
                if not link or "/contest/invite/" not in link:
                    sys.exit(f"{team}'s teacher got no student link: {shown}")
                page.screenshot(os.path.join(out, f"contest-{team.lower()}-student-link.png"))
                student_links[team] = link
                # A link used once: the organiser's works no more.
                if status_of(page, links[team].removeprefix(web)) == 200:
                    sys.exit(f"{team}'s teacher link works twice")

            # The students come in by their teachers' links.
            for team, names in TEAMS.items():
                page = people[(team, "student")]
                path = register(page, student_links[team], names["student"], out,
                                f"contest-{team.lower()}-student.png")
                if path != home[team]:
                    sys.exit(f"{names['student']} landed on {path}, not {home[team]}")

            # Each sees their own team with its members, and not the other's.
            for (team, role), page in people.items():
                other = next(t for t in TEAMS if t != team)
                goto(page, web + home[team])
                own = state(page)
                for name in TEAMS[team].values():
                    if name not in own["text"]:
                        sys.exit(f"{team}'s {role} does not see {name}: {own['text'][:400]}")
                if own["h1"] != team:
                    sys.exit(f"{team}'s {role} sees {own['h1']!r}")
                status = status_of(page, home[other])
                if status == 200:
                    sys.exit(f"{team}'s {role} may open {other}'s page")
                goto(page, web + home[other])
                refused = state(page)
                if any(name in refused["text"] for name in TEAMS[other].values()) \
                        or refused["h1"] == other:
                    sys.exit(f"{team}'s {role} sees {other}'s page: {refused['text'][:300]}")
                if role == "student" and team == "Owls":
                    page.screenshot(os.path.join(out, "contest-owls-student-refused.png"))

            # A teacher logs out; the old cookie, put back, is refused.
            page = people[("Owls", "teacher")]
            goto(page, web + home["Owls"])
            cookies = page.call("Network.getCookies", urls=[web])["cookies"]
            session = [c for c in cookies if c["name"] == "spielleiter_account"]
            if not session or not session[0].get("httpOnly"):
                sys.exit(f"no HttpOnly session cookie: {cookies}")
            if session[0].get("sameSite") != "Lax":
                sys.exit(f"the session cookie is not SameSite=Lax: {session[0]}")
            submit(page, 'form[action="/contest/logout"] button')
            if status_of(page, home["Owls"]) == 200:
                sys.exit("the team's page is open after logging out")
            page.call("Network.setCookie", name="spielleiter_account",
                      value=session[0]["value"], url=web, httpOnly=True)
            status = status_of(page, home["Owls"])
            if status == 200:
                sys.exit("the cookie from before the logout still works")
            goto(page, web + home["Owls"])
            after = state(page)
            if "Olga Teacher" in after["text"]:
                sys.exit(f"the old cookie shows the team: {after['text'][:300]}")
            page.screenshot(os.path.join(out, "contest-old-cookie-refused.png"))

        status = run(binary, "contest", "status", "--store", store)
        for team, names in TEAMS.items():
            expected = f"\"{team}\": 2 members: {names['teacher']} (teacher), {names['student']}"
            if expected not in status:
                sys.exit(f"the status does not list {expected}: {status}")
        print("== two teams came in: 4 members, each sees their own team only; "
              "the old cookie is refused after logging out")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
