#!/usr/bin/env bash
# Browser test of the web side: a server with two built-in bots playing,
# the live room page opened in headless Chromium in the middle of the game,
# and the board the page shows compared field by field with the game's
# memento of the same turn (read back from the replay afterwards). Saves a
# screenshot of the page to target/browser/room.png. The finished game in
# the replay viewer, autoplay from the start among it (viewer.py). Then a
# person plays a Blokus 2027 and an Ostseeschach game on the play page by
# clicking, each to a regular end whose result and moves the replay holds
# (play.py; screenshots target/browser/play-*.png), and a few rounds of
# classic Blokus for four, with every colour's last move marked, the pieces
# beside the board and Pentobi's notation on board and move list, then the
# replay list at 1,280 px (classic.py). Last, two teams come in through the
# contest's door of a second server (`serve --store`), each person in a
# browser profile of their own: the organiser adds the teams on the command
# line, teachers and students register by their links, each sees their own
# team only, and a cookie from before a logout is refused (contest.py;
# screenshots target/browser/contest-*.png). Then the contest's results
# pages as nobody signed in sees them: standings with movement, a matchday
# and a game's replay, the final's bracket, the organiser's calendar (results.py; screenshots
# target/browser/results-*.png). The window is 1,280 px wide.
#
# Installs Debian's chromium if it is missing (needs root, as in CI). Runs
# in about a minute on a warm build.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=target/browser
rm -rf "$out"
mkdir -p "$out"

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        echo "browser test: chromium is missing, and installing it needs root (apt-get install -y chromium)" >&2
        exit 1
    fi
    echo "== installing chromium"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
fi

echo "== building spielleiter"
cargo build -q -p spielleiter
bin=target/debug/spielleiter

pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# A server on free ports of loopback, its replays in the test's folder.
"$bin" serve --port 0 --http-port 0 --replay-dir "$out/replays" --seed 5 \
    >"$out/server.log" 2>&1 &
pids+=($!)
game_port="" web_port=""
for _ in $(seq 100); do
    game_port=$(sed -n 's/.*Spielleiter listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out/server.log" | head -1)
    web_port=$(sed -n 's|.*web pages on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$out/server.log" | head -1)
    [[ -n "$game_port" && -n "$web_port" ]] && break
    sleep 0.1
done
[[ -n "$game_port" && -n "$web_port" ]] || { cat "$out/server.log"; echo "the server did not start"; exit 1; }
web="http://127.0.0.1:$web_port"
echo "== server: game port $game_port, web $web"

# Two bots that take 150 ms per move: a game of a dozen seconds, long
# enough to look at it while it runs.
"$bin" play --bot greedy -h 127.0.0.1 -p "$game_port" --think-ms 150 >"$out/greedy.log" 2>&1 &
pids+=($!)
"$bin" play --bot random -h 127.0.0.1 -p "$game_port" --think-ms 150 >"$out/random.log" 2>&1 &
pids+=($!)

# The room, once the game runs.
room=""
for _ in $(seq 200); do
    room=$(curl -fsS "$web/api/rooms" | python3 -c '
import json, sys
rooms = [r for r in json.load(sys.stdin)["rooms"] if r["phase"] == "running"]
print(rooms[0]["id"] if rooms else "")')
    [[ -n "$room" ]] && break
    sleep 0.1
done
[[ -n "$room" ]] || { echo "no game got going"; exit 1; }
echo "== room $room"

# The live page in headless Chromium, read through the DevTools protocol
# (tests/browser/page.py) while the game runs.
python3 tests/browser/page.py "$(command -v chromium)" "$web/rooms/$room" "$out/room.png" \
    "$(mktemp -d "$out/profile.XXXX")" >"$out/page.json"
turn=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["turn"])' "$out/page.json")
echo "== the page shows turn $turn of the running game; screenshot $out/room.png"

# The memento of that turn, from the finished game's replay.
replay=""
for _ in $(seq 600); do
    replay=$(ls "$out"/replays/*.xml 2>/dev/null | head -1 || true)
    [[ -n "$replay" ]] && break
    sleep 0.1
done
[[ -n "$replay" ]] || { echo "the game did not finish"; exit 1; }
"$bin" replay show "$replay" --turn "$turn" --color never >"$out/memento.txt"
python3 - "$out/memento.txt" "$out/page.json" <<'EOF'
import json, sys
sys.path.insert(0, "tests/browser")
from boards import memento_fields
memento, page = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
turn = page["turn"]
if page["phase"] != "running" or f"turn {turn} ·" not in page["status"]:
    sys.exit(f"the page does not show the running game's turn {turn}: {page['status']!r}")
if f"turn {turn} " not in memento:
    sys.exit(f"the replay has no memento of turn {turn}:\n{memento}")
fields = memento_fields(memento)
shown = {(c, x, y) for c, x, y in page["fields"]}
if not fields or shown != fields:
    sys.exit(f"the page shows {len(shown)} fields, the memento has {len(fields)}; "
             f"only on the page: {sorted(shown - fields)[:10]}, "
             f"only in the memento: {sorted(fields - shown)[:10]}")
print(f"== the page's board is the memento of turn {turn}: {len(fields)} fields")
EOF

# The replay viewer over the finished game: list, move list, autoplay,
# think times and download (tests/browser/viewer.py).
python3 tests/browser/viewer.py "$(command -v chromium)" "$web" "$replay" "$bin" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"
echo "== the viewer's screenshots: $out/replays.png, $out/replay-*.png"

# After the viewer, whose list holds the one game above:
# A person plays whole games by clicking, against the built-in random bot
# (tests/browser/play.py); screenshots $out/play-*.png.
echo "== a person plays in the browser"
python3 tests/browser/play.py "$(command -v chromium)" "$web" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"

# Classic Blokus for four on the play page, its replay in the viewer, and
# the replay list at 1,280 px (tests/browser/classic.py).
echo "== classic Blokus for four in the browser"
python3 tests/browser/classic.py "$(command -v chromium)" "$web" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"

# Two teams through the contest's door, on a server of its own
# (tests/browser/contest.py).
echo "== two teams come in through the contest's door"
python3 tests/browser/contest.py "$(command -v chromium)" "$bin" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"

# The contest's results pages: standings, a matchday, a replay, the
# final's bracket (tests/browser/results.py; screenshots
# target/browser/results-*.png).
echo "== the contest's results pages"
python3 tests/browser/results.py "$(command -v chromium)" "$bin" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"

# A team's test, activation, friendly encounter and notices
# (tests/browser/teams.py; screenshots target/browser/teams-*.png).
echo "== a team's programs and friendly games"
python3 tests/browser/teams.py "$(command -v chromium)" "$bin" "$out" \
    "$(mktemp -d "$out/profile.XXXX")"

echo "browser: 7 passed, 0 failed"
