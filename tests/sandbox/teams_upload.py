#!/usr/bin/env python3
"""A team's programs from upload to friendly encounter (issue 36), in
headless Chromium, with real uploads built and played in sandboxes (the
browser test tests/browser/teams.py does the same with built-in bots):

- the organiser makes a contest in a SQLite store and adds two teams on
  the command line; each team's teacher registers by the link, in a
  browser of their own;
- Pythons upload the Python ZIP (tests/python-sdk/player.py on the
  organisers' SDK, vendored) with runtime python, Natives the native ZIP
  (the static binary's greedy bot) with runtime native and start
  parameters, through the upload form: a real multipart upload of the
  file by the browser;
- a contest worker with Docker builds both; each team reads its build
  log (the upload's size, the image) on its page;
- each presses "Test"; a worker plays the 2 test games per version in
  sandboxes; each team's test page shows both games ended by the rules,
  a replay opens in the viewer with the program's log and the wire log
  offered, and the program's log holds what that program printed (and
  that it ran in a container), the wire log the game's messages;
- each activates its version; Pythons challenge Natives, Natives accept,
  a worker plays the friendly encounter with both active versions; both
  friendly pages show it played, 6 of 6, each game's replay ends by the
  rules and offers the team's own program's log only, which holds that
  team's program's output and not the other's;
- each team is refused the other's versions, build log, test, test
  logs, wire log and friendly game logs (403), and the refused page shows
  nothing of them.

Screenshots go to OUT (upload-*.png); the images built are listed in
OUT/team-images for the caller to remove.

    teams_upload.py CHROMIUM SPIELLEITER OUT PYTHON_ZIP NATIVE_ZIP
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))

from cdp import DevTools, browser  # noqa: E402
from contest import goto, register, run, start_server, state, status_of, submit, type_into  # noqa: E402

GAME = "swc_2027_blokus"
# What each program prints of its own in a game: the SDK player its
# result line (player.py), `spielleiter play` the room it joined.
PRINTS = {"python": "RESULT regular=True", "native": "greedy joined room"}
# The line the sandbox's runner writes into every sandboxed player's log.
SANDBOXED = "ms after its container was started"
# A version's test games and a friendly encounter's games, as the contest
# is made with them (`contest create --test-games --games-per-friendly`).
TEST_GAMES = 2
FRIENDLY_GAMES = 6

TEAMS = [
    # name, teacher, runtime, start parameters, comment
    ("Pythons", "Paula Teacher", "python", "", "random moves on the organisers' SDK"),
    ("Natives", "Niko Teacher", "native", f"--game {GAME}", "the greedy bot, static"),
]


def shot(page, out, name):
    page.screenshot(os.path.join(out, f"upload-{name}.png"))


def text_of(page, path):
    """`GET path` as the page's own request makes it: status and text."""
    result = page.call(
        "Runtime.evaluate",
        expression=f"fetch({json.dumps(path)}).then(async r => [r.status, await r.text()])",
        awaitPromise=True, returnByValue=True,
    )
    return tuple(result["result"]["value"])


def choose(page, selector, value):
    """Picks the option `value` of a select, as a person's click does."""
    found = page.evaluate(
        f"(() => {{ const s = document.querySelector({json.dumps(selector)});"
        f" if (![...s.options].some(o => o.value === {json.dumps(value)})) return false;"
        f" s.value = {json.dumps(value)}; s.dispatchEvent(new Event('change')); return true; }})()")
    if not found:
        sys.exit(f"{selector} has no option {value!r}")


def attach_file(page, selector, path):
    """Puts the file `path` into the file input `selector`, as choosing it
    in the browser's file dialogue does (the browser then sends it)."""
    root = page.call("DOM.getDocument", depth=0)["root"]["nodeId"]
    node = page.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
    if not node:
        sys.exit(f"no file input {selector}")
    page.call("DOM.setFileInputFiles", files=[os.path.abspath(path)], nodeId=node)
    chosen = page.evaluate(
        f"(() => {{ const f = document.querySelector({json.dumps(selector)}).files;"
        " return f.length ? [f[0].name, f[0].size] : null; })()")
    if chosen != [os.path.basename(path), os.path.getsize(path)]:
        sys.exit(f"the file input holds {chosen}, not {path}")


def version_row(page):
    """Version 1's row of the versions table: {column: text}."""
    return json.loads(page.evaluate(
        "JSON.stringify((() => { const t = document.querySelector('table'); if (!t) return null;"
        " const heads = [...t.tHead.rows[0].cells].map(c => c.textContent);"
        " const row = [...t.tBodies[0].rows].find(r => r.cells[0].textContent === '1');"
        " return row ? Object.fromEntries(heads.map((h, i) => [h, row.cells[i].textContent])) : null; })())"))


def open_replay(page, web, path, what, kind):
    """Opens a game in the viewer: waits for its board, checks that the
    page names the game as the server does (a `kind` game); the replay's
    data as the page read it."""
    goto(page, web + path)
    for _ in range(150):
        if page.evaluate("document.querySelector('#board svg') !== null"):
            break
        time.sleep(0.1)
    else:
        sys.exit(f"{what}: the viewer shows no board: {state(page)['text'][:300]}")
    replay = page.fetch_json(path + "/replay")
    label = page.evaluate("document.getElementById('file').textContent")
    if label != replay["name"] or kind not in label:
        sys.exit(f"{what}: the viewer calls it {label!r}, the server {replay['name']!r}")
    return replay


def worker(binary, store, out, what, *extra):
    """One contest worker until nothing is left to do; its summary lines."""
    log = os.path.join(out, f"worker-{what}.log")
    # Two seats per game and two games at once on two cores: the move
    # clock is widened as the sandbox test's tournaments widen it, so that
    # a slow machine makes no timeout (a timeout would fail the test).
    env = {**os.environ, "SPIELLEITER_MOVE_TIME": f"{GAME}=10000/30000"}
    started = time.monotonic()
    with open(log, "w") as file:
        done = subprocess.run(
            [binary, "worker", "--store", store, "--contest", "--until-idle", "--slots", "2",
             "--wire-log", "--log-dir", os.path.join(out, "worker-logs"), *extra],
            stdout=subprocess.PIPE, stderr=file, text=True, env=env, timeout=900)
    print(f"  worker ({what}): {' / '.join(done.stdout.strip().splitlines())}"
          f" [{time.monotonic() - started:.0f} s]")
    if done.returncode != 0:
        sys.exit(f"the worker ({what}) failed: {done.stdout} (see {log})")
    return done.stdout


CONTEST, SEED = "Upload Cup", 36


def contest_key():
    """The contest's part of its teams' image names, as the season store
    documents it (crates/season/src/build_sql.rs, contest_image_key): ten
    hexadecimal digits of SHA-256 over a fixed prefix, the seed's eight
    bytes (little-endian) and the name."""
    digest = hashlib.sha256(b"spielleiter team images\0" + SEED.to_bytes(8, "little")
                            + CONTEST.encode())
    return digest.hexdigest()[:10]


def main():
    chromium, binary, out, python_zip, native_zip = sys.argv[1:6]
    zips = {"python": python_zip, "native": native_zip}
    store = os.path.join(out, "contest.sqlite")
    run(binary, "contest", "create", "--store", store, "--game", GAME,
        "--name", CONTEST, "--seed", str(SEED), "--test-games", str(TEST_GAMES),
        "--games-per-friendly", str(FRIENDLY_GAMES))
    server, web = start_server(binary, store, out)
    profiles = os.path.join(out, "profiles")
    os.makedirs(profiles, exist_ok=True)
    try:
        links = {}
        for name, *_ in TEAMS:
            printed = run(binary, "contest", "team", "add", name, "--store", store,
                          "--web-url", web)
            links[name] = printed.strip().splitlines()[-1]
        with browser(chromium, tempfile.mkdtemp(dir=profiles)) as first, \
                browser(chromium, tempfile.mkdtemp(dir=profiles)) as second:
            pages, homes, ids = {}, {}, {}
            for (name, teacher, runtime, *_), socket_url in zip(TEAMS, [first, second]):
                page = DevTools(socket_url)
                page.open("about:blank")
                pages[name] = page
                homes[name] = register(page, links[name], teacher, out, f"upload-{runtime}-team.png")
                ids[name] = int(homes[name].rsplit("/", 1)[1])
            # The images the build worker will make, for the caller to
            # remove whatever happens from here on.
            images = {name: f"sl-team-{contest_key()}-{ids[name]}:v1" for name in ids}
            with open(os.path.join(out, "team-images"), "w") as listed:
                listed.write("".join(f"{image}\n" for image in images.values()))
            # How the runner names each version's player in its log: the
            # image, and the start parameters as the form took them.
            player = {name: f": docker:{images[name]} {parameters}".rstrip()
                      for name, _, _, parameters, _ in TEAMS}

            # The uploads, through the form.
            for name, _, runtime, parameters, comment in TEAMS:
                page = pages[name]
                goto(page, web + homes[name] + "/versions")
                attach_file(page, 'input[type=file][name=archive]', zips[runtime])
                choose(page, "select[name=runtime]", runtime)
                if parameters:
                    type_into(page, "input[name=start_parameters]", parameters)
                type_into(page, "textarea[name=comment]", comment)
                shot(page, out, f"{runtime}-form")
                submit(page, 'form[enctype="multipart/form-data"] button[type=submit]')
                landed = state(page)
                row = version_row(page)
                if landed["path"] != homes[name] + "/versions" or not row:
                    sys.exit(f"{name}'s upload was not stored: {landed['text'][:500]}")
                expected = {"Runtime": runtime, "State": "uploaded, waiting for a build worker",
                            "Start parameters": parameters, "Comment": comment, "Active": ""}
                wrong = {k: row.get(k) for k, v in expected.items() if row.get(k) != v}
                if wrong:
                    sys.exit(f"{name}'s version 1 shows {wrong}, not {expected}")
                shot(page, out, f"{runtime}-uploaded")

            # The builds, on a worker with Docker.
            said = worker(binary, store, out, "builds", "--builds")
            if "2 versions built, 0 builds failed" not in said:
                sys.exit(f"the worker did not build both versions: {said}")
            for name, _, runtime, *_ in TEAMS:
                page = pages[name]
                goto(page, web + homes[name] + "/versions/1/log")
                shown = state(page)["text"]
                size = os.path.getsize(zips[runtime])
                for part in ["State: built, not tested yet", f"Image: {images[name]}",
                             f"version 1 of team {ids[name]}: {runtime} runtime, {size} bytes uploaded",
                             f"built {images[name]}"]:
                    if part not in shown:
                        sys.exit(f"{name}'s build log does not show {part!r}: {shown[:800]}")
                labels = subprocess.run(
                    ["docker", "image", "inspect", "--format", "{{json .Config.Labels}}", images[name]],
                    capture_output=True, text=True)
                if labels.returncode != 0 or "org.spielleiter.sandbox" not in labels.stdout:
                    sys.exit(f"no sandbox image {images[name]}: {labels.stderr}{labels.stdout}")
                shot(page, out, f"{runtime}-build-log")

            # The tests: pressed on the page, played by a worker in sandboxes.
            for name, _, runtime, *_ in TEAMS:
                page = pages[name]
                goto(page, web + homes[name] + "/versions")
                submit(page, 'button[aria-label="Test version 1"]')
                if not version_row(page)["State"].startswith("testing"):
                    sys.exit(f"{name}'s version is not being tested: {version_row(page)}")
            said = worker(binary, store, out, "tests")
            if f"{2 * TEST_GAMES} results stored, 0 discarded" not in said:
                sys.exit(f"the worker did not play the {2 * TEST_GAMES} test games: {said}")
            for name, _, runtime, *_ in TEAMS:
                page = pages[name]
                other = "native" if runtime == "python" else "python"
                goto(page, web + homes[name] + "/versions/1/test")
                shown = state(page)["text"]
                if f"{TEST_GAMES} of {TEST_GAMES} games played" not in shown \
                        or shown.count("ended by the rules") != TEST_GAMES \
                        or "State: tested" not in shown:
                    sys.exit(f"{name}'s test page shows: {shown[:800]}")
                shot(page, out, f"{runtime}-test")
                games = page.evaluate(
                    "[...document.querySelectorAll('table a')].filter(a => a.textContent === 'replay')"
                    ".map(a => a.getAttribute('href'))")
                if len(games) != TEST_GAMES:
                    sys.exit(f"{name}'s test page links {games}, not {TEST_GAMES} replays")
                for number, game in enumerate(games, 1):
                    open_replay(page, web, game, f"{name}'s test game {number}", "test game")
                    offered = page.evaluate(
                        "[...document.querySelectorAll('#downloads a')].map(a => [a.textContent, a.getAttribute('href')])")
                    if offered != [["Download your program's log", game + "/log"],
                                   ["Download wire log", game + "/wire"]]:
                        sys.exit(f"{name}'s test game {number} offers {offered}")
                    if number == 1:
                        shot(page, out, f"{runtime}-test-replay")
                    # The program's log, read as the browser shows it.
                    goto(page, web + game + "/log")
                    log = state(page)["text"]
                    if PRINTS[runtime] not in log or SANDBOXED not in log or PRINTS[other] in log \
                            or player[name] not in log:
                        sys.exit(f"{name}'s program's log of test game {number}: {log[:1500]}")
                    if number == 1:
                        shot(page, out, f"{runtime}-test-log")
                    status, wire = text_of(page, game + "/wire")
                    if status != 200 or "<room" not in wire or 'class="memento"' not in wire:
                        sys.exit(f"{name}'s wire log of test game {number}: {status} {wire[:600]}")
                print(f"  {name}: {TEST_GAMES} test games ended by the rules; the program's logs say "
                      f"{PRINTS[runtime]!r}, the wire logs {wire.count(chr(10))} lines")

            # Each activates its tested version.
            for name, *_ in TEAMS:
                page = pages[name]
                goto(page, web + homes[name] + "/versions")
                submit(page, 'button[aria-label="Activate version 1"]')
                row = version_row(page)
                if row["Active"] != "active" or "Activate" in row["Actions"]:
                    sys.exit(f"{name}'s version 1 is not active: {row}")
            shot(pages["Natives"], out, "native-active")

            # A friendly encounter: Pythons challenge Natives, who accept.
            pythons, natives = pages["Pythons"], pages["Natives"]
            goto(pythons, web + homes["Pythons"] + "/friendly")
            choose(pythons, "select[name=to]", str(ids["Natives"]))
            submit(pythons, 'form[action$="/friendly"] button')
            if "to Natives" not in state(pythons)["text"]:
                sys.exit(f"no challenge to Natives: {state(pythons)['text'][:400]}")
            goto(natives, web + homes["Natives"] + "/friendly")
            submit(natives, 'button[aria-label="Accept the challenge from Pythons"]')
            if "accepted: its games wait" not in state(natives)["text"]:
                sys.exit(f"the challenge is not accepted: {state(natives)['text'][:400]}")
            said = worker(binary, store, out, "friendly")
            if f"{FRIENDLY_GAMES} results stored, 0 discarded" not in said:
                sys.exit(f"the worker did not play the friendly encounter's {FRIENDLY_GAMES} games: {said}")
            friendly_logs = {}
            for name, _, runtime, *_ in TEAMS:
                page = pages[name]
                other = "native" if runtime == "python" else "python"
                with_whom = "to Natives" if name == "Pythons" else "from Pythons"
                goto(page, web + homes[name] + "/friendly")
                shown = state(page)["text"]
                if with_whom not in shown or "played" not in shown \
                        or f"({FRIENDLY_GAMES} of {FRIENDLY_GAMES} played)" not in shown:
                    sys.exit(f"{name}'s friendly page shows: {shown[:600]}")
                shot(page, out, f"{runtime}-friendly")
                games = page.evaluate(
                    "[...document.querySelectorAll('table a')].filter(a => a.textContent.startsWith('game '))"
                    ".map(a => a.getAttribute('href'))")
                if len(games) != FRIENDLY_GAMES:
                    sys.exit(f"{name}'s friendly page links {games}, not {FRIENDLY_GAMES} games")
                for number, game in enumerate(games, 1):
                    replay = open_replay(page, web, game, f"{name}'s friendly game {number}",
                                         "friendly")
                    causes = [s["cause"] for s in replay["result"]["scores"]]
                    if causes != ["REGULAR", "REGULAR"] or sorted(replay["players"]) != ["Natives", "Pythons"]:
                        sys.exit(f"{name}'s friendly game {number}: {replay['players']}, {causes}")
                    offered = page.evaluate(
                        "[...document.querySelectorAll('#downloads a')].map(a => [a.textContent, a.getAttribute('href')])")
                    if offered != [["Download your program's log", game + "/log"]]:
                        sys.exit(f"{name}'s friendly game {number} offers {offered}")
                    if number == 2:
                        shot(page, out, f"{runtime}-friendly-replay")
                    goto(page, web + game + "/log")
                    log = state(page)["text"]
                    if PRINTS[runtime] not in log or SANDBOXED not in log or PRINTS[other] in log \
                            or player[name] not in log:
                        sys.exit(f"{name}'s program's log of friendly game {number}: {log[:1500]}")
                    if number == 1:
                        shot(page, out, f"{runtime}-friendly-log")
                    friendly_logs[name] = game + "/log"
                print(f"  {name}: the friendly encounter played, {FRIENDLY_GAMES} of {FRIENDLY_GAMES} games ended by the rules, "
                      f"its own program's log of each")

            # Neither sees the other's.
            for name, *_ in TEAMS:
                other = next(n for n, *_ in TEAMS if n != name)
                page = pages[name]
                theirs = homes[other]
                refused = [theirs + "/versions", theirs + "/versions/1/log",
                           theirs + "/versions/1/test", theirs + "/versions/1/test/1",
                           theirs + "/versions/1/test/1/replay", theirs + "/versions/1/test/1/log",
                           theirs + "/versions/1/test/1/wire", theirs + "/friendly",
                           friendly_logs[other], friendly_logs[other].removesuffix("/log") + "/replay"]
                for path in refused:
                    status = status_of(page, path)
                    if status != 403:
                        sys.exit(f"{name} asking for {other}'s {path}: {status}, not 403")
                goto(page, web + friendly_logs[other])
                shown = state(page)["text"]
                other_runtime = next(r for n, _, r, *_ in TEAMS if n == other)
                if PRINTS[other_runtime] in shown or SANDBOXED in shown:
                    sys.exit(f"{name} reads {other}'s program's log: {shown[:400]}")
                shot(page, out, f"{name.lower()}-refused-log")
                print(f"  {name}: {len(refused)} of {other}'s pages and logs refused (403)")
        print("== two teams uploaded, built, tested, activated and played a friendly "
              "encounter in sandboxes, each reading its own logs only")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
