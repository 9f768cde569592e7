#!/usr/bin/env bash
# End-to-end test of the sandbox (issue 27): teams' players as containers
# that reach their game and nothing else.
#
#   tests/sandbox/run.sh            (as root when it has to start a daemon)
#   SANDBOX_BENCH=1 tests/sandbox/run.sh   also 20 timed games (BENCHMARKS.md)
#   SANDBOX_ONLY=uploads|hostile tests/sandbox/run.sh
#                                   only the bad uploads and the build past
#                                   its limit, or only the hostile players
#                                   (with the images they need): quicker,
#                                   e.g. to see a check fail against a
#                                   mistake (SPIELLEITER_SANDBOX_WITHOUT=cap-drop,
#                                   say: the debug build's containers lack
#                                   the options it names)
#   SANDBOX_ONLY=bench tests/sandbox/run.sh
#                                   only the timed games (with the native
#                                   image and the server they need);
#                                   SANDBOX_BENCH_RUNNER names the binary
#                                   that runs them (another build, to
#                                   compare), the one built here by default
#   SANDBOX_ONLY=teams tests/sandbox/run.sh
#                                   only the teams' programs in the browser
#                                   (step 4; with the native and python
#                                   uploads it needs)
#
# 1. base images `native`, `python` and `java` from Debian's packages
#    (docker/sandbox/build-base.sh; the root file systems are cached as
#    images, so only the first run downloads);
# 2. player images from uploads with `spielleiter player build`: a `native`
#    team (the static spielleiter binary's built-in greedy bot behind a
#    start script), a `python` team (tests/python-sdk/player.py on the
#    organisers' SDK, `socha` from PyPI, vendored into the upload), a
#    `java` team (java/Player.java, built into a jar here with the JDK),
#    the hostile player (hostile.py); and bad uploads (a zip bomb, a
#    directory bomb, paths too deep, names with newlines, ...), each
#    refused with one clear line and nothing built; a build past its time
#    limit, stopped with nothing of it left in the daemon;
# 3. a tournament of the python and the native team on swc_2027_blokus, and
#    one of two native teams on blokus_bcl (the Python SDK plays only
#    Blokus 2027), and one of the java team against the native team on
#    swc_2027_blokus, with replays and per-game logs;
# 4. the teams' programs in the browser (issue 36, teams_upload.py): two
#    teams registered in headless Chromium upload the python and the
#    native ZIP through the versions page's form, a contest worker with
#    Docker builds them, each team reads its build log, tests its version
#    (2 sandboxed games against the random bot) and reads the test games'
#    replays, its program's logs and wire logs, activates it; one
#    challenges the other, who accepts, a worker plays the friendly
#    encounter with both sandboxed versions, and each reads its result,
#    replays and its own program's logs, and is refused the other's
#    (screenshots in target/sandbox-test/teams, kept);
# 5. the hostile player against a server listening on all interfaces, while
#    a regular game runs beside it: every escape attempt is asserted
#    blocked with the error that the sandbox's own measure gives (each
#    address with a control showing that an ordinary container reaches it),
#    the limits read from inside (no capability, no new privileges, a
#    seccomp filter, a read-only root, no AF_VSOCK, io_uring, ptrace of
#    the relay, mount, unshare or raw socket), a fork bomb and a memory
#    bomb lose their own game only, /tmp and /dev/shm fill up to their
#    limit, two processes burning CPU get no more than the CPU limit, a
#    player sleeping past the wall-clock limit is killed by the relay,
#    200 orphaned processes are reaped by the relay (no zombie fills the
#    process limit), a player that stays on after its game is removed
#    within the grace period, and thousands of wrong passphrases never
#    reach the server (the logins of the runners beside it wait behind
#    none);
# 6. a runner killed mid-game leaves a container that the next start
#    sweeps away; at the end no container, network or volume of the
#    sandbox is left.
#
# Not covered here: registries.
#
# Uses the running Docker daemon if there is one; otherwise starts its own
# under target/sandbox-test/daemon and stops it at the end, keeping its data
# (the base images) as the next run's cache. Everything it creates is named
# `sl-sandbox…` and removed at the end, except the base images.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
target_dir=${CARGO_TARGET_DIR:-$repo/target}
work=$target_dir/sandbox-test
daemon_dir=$work/daemon
here=$repo/tests/sandbox
clock_start=$SECONDS

step() { echo "== $*   [$((SECONDS - clock_start)) s]"; }
only=${SANDBOX_ONLY:-}
case "$only" in '' | uploads | hostile | bench | teams) ;; *) echo "SANDBOX_ONLY: uploads, hostile, bench or teams, not $only" >&2 && exit 2 ;; esac
# Whether the part $1 runs.
part() { [ -z "$only" ] || [ "$only" = "$1" ]; }
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else fail "needs root: $*"; fi
}

# ---------------------------------------------------------------- tools
missing=()
command -v docker >/dev/null && command -v dockerd >/dev/null || missing+=(docker.io)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
python3 -m venv --help >/dev/null 2>&1 || missing+=(python3-venv)
command -v javac >/dev/null && command -v jar >/dev/null || missing+=(default-jdk-headless)
! part teams || command -v chromium >/dev/null || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ---------------------------------------------------------------- cleanup
own_daemon_pid=
server_pid=
teams_out=$work/teams
images_before=
cleanup() {
    local status=$?
    set +e
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    if docker info >/dev/null 2>&1; then
        docker ps -aq --filter name=sl-sandbox | xargs -r docker rm -f >/dev/null
        docker images --format '{{.Repository}}:{{.Tag}}' | grep '^sl-sandbox-test-' |
            xargs -r docker rmi -f >/dev/null
        # The teams' images, named by the contest's build worker (not
        # sl-sandbox-…): the part lists them before their builds (the
        # list outlives the run; another part's run leaves them alone).
        part teams && [ -f "$teams_out/team-images" ] &&
            xargs -r docker rmi -f <"$teams_out/team-images" >/dev/null 2>&1
    fi
    if [ -n "$own_daemon_pid" ]; then
        kill "$own_daemon_pid"
        for _ in $(seq 100); do
            kill -0 "$own_daemon_pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -9 "$own_daemon_pid" 2>/dev/null
        awk -v dir="$daemon_dir/" 'index($2, dir) == 1 { print $2 }' /proc/mounts |
            sort -r | xargs -r -n1 umount -l
        # The data stays: the base images' root file systems are the cache
        # of the next run.
        rm -rf "$daemon_dir/exec" "$daemon_dir/docker.sock" "$daemon_dir/dockerd.pid"
    fi
    # A failed run's files (the players' per-game logs, the tournaments'
    # output, the server's log) stay for a look, as does every run's with
    # SANDBOX_KEEP=1; each such run moves to its own directory.
    if [ -d "$work/run" ] && { [ "$status" != 0 ] || [ -n "${SANDBOX_KEEP:-}" ]; }; then
        kept=$work/kept/$(date -u +%Y%m%dT%H%M%S)-$status
        mkdir -p "$work/kept"
        rm -rf "$work/run/upload-"* "$work/run/bad"
        mv "$work/run" "$kept" && echo "== the run's files are kept in $kept"
    fi
    rm -rf "$work/run"
    echo "== sandbox test $([ "$status" = 0 ] && echo passed || echo FAILED) in $((SECONDS - clock_start)) s"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- daemon
if docker info >/dev/null 2>&1; then
    step "using the running Docker daemon"
else
    step "starting dockerd (data under $daemon_dir)"
    [ "$(id -u)" = 0 ] || fail "no Docker daemon is running, and starting one needs root"
    mkdir -p "$daemon_dir"
    rm -rf "$daemon_dir/exec"
    export DOCKER_HOST=unix://$daemon_dir/docker.sock
    dockerd --host "$DOCKER_HOST" --data-root "$daemon_dir/data" \
        --exec-root "$daemon_dir/exec" --pidfile "$daemon_dir/dockerd.pid" \
        >"$daemon_dir/dockerd.log" 2>&1 &
    own_daemon_pid=$!
    for _ in $(seq 150); do
        docker info >/dev/null 2>&1 && break
        kill -0 "$own_daemon_pid" 2>/dev/null || {
            tail -20 "$daemon_dir/dockerd.log" >&2
            fail "dockerd exited"
        }
        sleep 0.2
    done
    docker info >/dev/null 2>&1 || fail "dockerd did not answer within 30 s"
fi
run=$work/run
rm -rf "$run"
mkdir -p "$run"
# The sandbox creates containers only (no network, no volume); every
# network and volume of the daemon is counted too, in case that changes.
sandbox_containers() { docker ps -aq --filter label=org.spielleiter.sandbox | wc -l; }
networks_and_volumes() { echo "networks $(docker network ls -q | wc -l), volumes $(docker volume ls -q | wc -l)"; }
before=$(networks_and_volumes)

# ---------------------------------------------------------------- images
step "base images (docker/sandbox/build-base.sh native python java)"
docker/sandbox/build-base.sh native python java 2>&1 | grep -v -e DEPRECATED -e buildx -e BuildKit -e '^ *$' | sed 's/^/  /'

step "the static spielleiter binary (as docker/build.sh builds it) and the host's"
triple=$(rustc -vV | sed -n 's/^host: //p')
static_binary=$target_dir/$triple/docker/spielleiter
# The native team is the static binary; the uploads' checks need no team.
if [ "$only" != uploads ]; then
    RUSTFLAGS="-C target-feature=+crt-static" \
        cargo build --quiet --locked --profile docker --target "$triple" -p spielleiter \
        --no-default-features
fi
cargo build --quiet -p spielleiter
spielleiter=$target_dir/debug/spielleiter

# Zips directory $1 into $2 (Python's zipfile: no zip tool needed).
zip_dir() {
    python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
source, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk(source):
        for name in files:
            path = os.path.join(root, name)
            info = zipfile.ZipInfo.from_file(path, os.path.relpath(path, source))
            with open(path, "rb") as f:
                z.writestr(info, f.read(), zipfile.ZIP_DEFLATED)
EOF
}

build_player() {
    "$spielleiter" player build --upload "$1" --runtime "$2" --tag "$3" ||
        fail "player build $1 ($2) failed"
}

step "uploads: native (the built-in greedy bot), python (the organisers' SDK), hostile"
if [ "$only" != uploads ]; then
native=$run/upload-native
mkdir -p "$native"
cp "$static_binary" "$native/spielleiter"
printf '#!/bin/sh\nexec /player/spielleiter play --bot greedy "$@"\n' >"$native/start"
chmod +x "$native/start"
echo "the native team's secret" >"$native/team-native-secret.txt"
zip_dir "$native" "$run/native.zip"
# The teams part builds its uploads on a contest worker, not here.
[ "$only" = teams ] || build_player "$run/native.zip" native sl-sandbox-test-native:1
fi

if part tournaments || part teams; then
# The SDK and its dependencies, vendored as a team would (`pip install
# --target vendor`), cached under target/ between runs.
vendor=$work/python-vendor
if [ ! -f "$vendor/.complete" ]; then
    rm -rf "$vendor" "$work/venv"
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check \
        --target "$vendor" "socha==5.1.0" "setuptools==75.8.0"
    touch "$vendor/.complete"
fi
# Once a colour has placed all its pieces, the state names it in
# `lastMoveMono` as the official server does (<color>), which the SDK's
# model cannot read unless the player corrects it: the Python team left its
# game at once whenever the native team finished a colour (about one run in
# three). The correction is checked here on such a state, and shown needed.
python3 - "$vendor" tests/python-sdk \
    crates/protocol/tests/vectors/season-2027/07-memento-turn4-round2.xml <<'EOF' ||
import sys
vendor, player_dir, vector = sys.argv[1:]
sys.path[:0] = [vendor, player_dir]
from xsdata.formats.dataclass.context import XmlContext
from xsdata.formats.dataclass.parsers import XmlParser
from xsdata.formats.dataclass.parsers.config import ParserConfig
from xsdata.formats.dataclass.parsers.handlers import XmlEventHandler
from socha.api.networking.utils import message_to_state
from socha.api.networking.xml_protocol_interface import custom_class_factory
state = open(vector, "rb").read()
assert state.count(b"<lastMoveMono/>") == 1, "the vector has no empty <lastMoveMono/>"
finished = state.replace(
    b"<lastMoveMono/>",
    b"<lastMoveMono><entry><color>YELLOW</color><boolean>true</boolean></entry></lastMoveMono>",
)
def read():
    # As the SDK reads each message: a parser built on the model as it is.
    parser = XmlParser(handler=XmlEventHandler, context=XmlContext(),
                       config=ParserConfig(class_factory=custom_class_factory))
    room = parser.from_bytes(finished)
    message_to_state(room)
    return [(e.color, e.value) for e in room.data.class_binding.last_move_mono.entry]
try:
    read()
    sys.exit("the SDK reads <color> by itself: the player's correction is not needed")
except Exception as error:
    print("  the SDK alone: %s" % error)
import player  # its import corrects the SDK's model
assert read() == [("YELLOW", True)], read()
print("  with the player's correction: lastMoveMono YELLOW=true read")
EOF
    fail "the Python team cannot read a state in which a colour has placed all its pieces"
python=$run/upload-python
mkdir -p "$python"
cp tests/python-sdk/player.py "$python/main.py"
cp -r "$vendor" "$python/vendor"
zip_dir "$python" "$run/python.zip"
fi

if part tournaments; then
build_player "$run/python.zip" python sl-sandbox-test-python:1

# The java team: a jar alone at the upload's root (the runtime starts it
# with `java -jar`), compiled for the base image's Java 17.
java_upload=$run/upload-java
mkdir -p "$java_upload" "$run/java-classes"
javac --release 17 -d "$run/java-classes" "$here/java/Player.java"
printf 'Main-Class: Player\n' >"$run/java-manifest"
jar --create --file "$java_upload/player.jar" --manifest "$run/java-manifest" -C "$run/java-classes" .
zip_dir "$java_upload" "$run/java.zip"
build_player "$run/java.zip" java sl-sandbox-test-java:1
fi

if part hostile || part uploads; then
hostile=$run/upload-hostile
mkdir -p "$hostile"
cp "$here/hostile.py" "$hostile/main.py"
build_player "$hostile" python sl-sandbox-test-hostile:1
fi

if part uploads; then
step "bad uploads: one clear line each, nothing built"
bad=$run/bad
mkdir -p "$bad"
echo 'echo I am not a zip' >"$bad/not-a-zip.zip"
python3 - "$bad" <<'EOF'
import sys, zipfile
bad = sys.argv[1]
with zipfile.ZipFile(bad + "/bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("start", "#!/bin/sh\n")
    z.writestr("zeros", b"\0" * (600 * 1024 * 1024))
with zipfile.ZipFile(bad + "/traversal.zip", "w") as z:
    z.writestr("start", "#!/bin/sh\n")
    z.writestr("../../escaped", "x")
with zipfile.ZipFile(bad + "/no-start.zip", "w") as z:
    z.writestr("README", "no start script")
# Issue 33's directory bomb: 50 entries 1,990 levels deep (99,500
# directories from a zip of 400 KB), and one path 4,096 levels deep.
with zipfile.ZipFile(bad + "/directory-bomb.zip", "w") as z:
    z.writestr("start", "#!/bin/sh\n")
    for i in range(50):
        z.writestr("d%d/%sf" % (i, "a/" * 1988), "")
with zipfile.ZipFile(bad + "/too-deep.zip", "w") as z:
    z.writestr("start", "#!/bin/sh\n")
    z.writestr("a/" * 4095 + "f", "")
# A name that would print a second line of the team's choosing.
with zipfile.ZipFile(bad + "/newline.zip", "w") as z:
    z.writestr("start", "#!/bin/sh\n")
    z.writestr("x\nFAKE: the upload was accepted/../../../escaped", "x")
EOF
head -c $((101 * 1024 * 1024)) /dev/urandom >"$bad/too-large.bin"
python3 - "$bad" <<'EOF'
import sys, zipfile
bad = sys.argv[1]
with zipfile.ZipFile(bad + "/too-large.zip", "w", zipfile.ZIP_STORED) as z:
    z.writestr("start", "#!/bin/sh\n")
    z.write(bad + "/too-large.bin", "data")
EOF
for case in "not-a-zip:not a zip archive" "bomb:a zip bomb" "traversal:points outside the upload" \
    "no-start:no \`start\` at the upload's root" "too-large:more than the limit" \
    "directory-bomb:is 1990 levels deep, more than the limit of 32" \
    "too-deep:is 4096 levels deep, more than the limit of 32" \
    'newline:`x\nFAKE: the upload was accepted/../../../escaped` points outside the upload'; do
    name=${case%%:*} expected=${case#*:}
    status=0
    output=$("$spielleiter" player build --upload "$bad/$name.zip" --runtime native \
        --tag "sl-sandbox-test-bad-$name:1" 2>&1) || status=$?
    [ "$status" != 0 ] || fail "$name: the upload was accepted"
    [ "$(echo "$output" | wc -l)" = 1 ] || fail "$name: more than one line: $output"
    case "$output" in
    *"$expected"*) echo "  $name -> $output" ;;
    *) fail "$name: the error does not say \"$expected\": $output" ;;
    esac
    ! docker image inspect "sl-sandbox-test-bad-$name:1" >/dev/null 2>&1 ||
        fail "$name: an image was built"
done
rm -f "$bad/too-large.bin" "$bad/too-large.zip" "$bad/bomb.zip"

step "a build past its time limit: stopped, and nothing of it left in the daemon"
# A base whose ONBUILD steps run in every build on it: the first makes a
# layer, the second sleeps past the build's limit of 5 s. The layer carries
# the base's label, so whatever of the build is left is found by it.
slow_base=sl-sandbox-test-slowbase:1
mkdir -p "$run/slow-base"
cat >"$run/slow-base/Dockerfile" <<'DOCKERFILE'
FROM sl-sandbox-python:latest
LABEL org.spielleiter.sandbox.test=slow-base
ONBUILD RUN ["python3", "-c", "open('/tmp/a-layer', 'w')"]
ONBUILD RUN ["python3", "-c", "import time; time.sleep(600)"]
DOCKERFILE
DOCKER_BUILDKIT=0 docker build --quiet --tag "$slow_base" "$run/slow-base" 2>/dev/null >/dev/null
of_slow_base() { docker images --all --quiet --filter label=org.spielleiter.sandbox.test=slow-base | sort -u | wc -l; }
build_cache() { docker system df --format '{{.Type}} {{.TotalCount}}' | grep '^Build Cache' || true; }
cache_before=$(build_cache)
# The base's own build left images with its label too (one a step).
slow_before=$(of_slow_base)
status=0
"$spielleiter" player build --upload "$run/upload-hostile" --runtime python --tag sl-sandbox-test-slow:1 \
    --base "$slow_base" --build-timeout-secs 5 >"$run/slow-build.txt" 2>&1 &
slow_build=$!
# While it runs: the first step's layer appears (the test would prove
# nothing if the limit struck before it).
layer_seen=
while kill -0 "$slow_build" 2>/dev/null; do
    [ "$(of_slow_base)" -gt "$slow_before" ] && layer_seen=yes
    sleep 0.2
done
wait "$slow_build" || status=$?
output=$(cat "$run/slow-build.txt")
[ "$status" != 0 ] || fail "the slow build succeeded: $output"
[ "$(echo "$output" | wc -l)" = 1 ] || fail "the slow build: more than one line: $output"
case "$output" in
*"took longer than its limit of 5 s: stopped, and what it had made is removed"*) echo "  -> $output" ;;
*) fail "the slow build: not stopped at its limit: $output" ;;
esac
[ -n "$layer_seen" ] || fail "the slow build was stopped before its first layer: the test proves nothing"
sleep 2
[ "$(of_slow_base)" = "$slow_before" ] || fail "the stopped build left layers: $(docker images --all --filter label=org.spielleiter.sandbox.test=slow-base)"
[ -z "$(docker ps --all --quiet --filter ancestor="$slow_base")" ] ||
    fail "the stopped build left containers: $(docker ps --all --filter ancestor="$slow_base")"
! docker image inspect sl-sandbox-test-slow:1 >/dev/null 2>&1 || fail "the stopped build made its image"
[ "$(build_cache)" = "$cache_before" ] || fail "the build cache changed: $cache_before -> $(build_cache)"
echo "  a layer was made, then removed with the build's containers; the build cache as before (${cache_before:-none})"
docker rmi "$slow_base" >/dev/null
fi

# ---------------------------------------------------------------- tournaments
# Only in a whole run (no SANDBOX_ONLY selects them alone).
if part tournaments; then
# Checks a tournament's results: COUNT games, all regular, each with a
# complete replay, and a log for each player and game.
check_tournament() {
    local dir=$1 count=$2 found
    found=$(wc -l <"$dir/results.jsonl")
    [ "$found" = "$count" ] || fail "$dir: $found games, expected $count"
    python3 - "$dir/results.jsonl" <<'EOF' || fail "$dir: irregular games: $(cat "$dir/results.jsonl")"
import json, sys
for line in open(sys.argv[1]):
    record = json.loads(line)
    assert all(c == "REGULAR" for c in record["causes"]), record
    assert record.get("replay"), record
EOF
    [ "$(find "$dir/replays" -name '*.xml' | wc -l)" = "$count" ] ||
        fail "$dir: not $count replays: $(ls "$dir/replays")"
    [ "$(find "$dir/log" -name '*_game*.log' | wc -l)" = $((count * 2)) ] ||
        fail "$dir: not a log per player and game: $(ls "$dir/log")"
    for log in $(find "$dir/log" -name '*.log'); do
        grep -q "connected .* ms after its container was started" "$log" ||
            fail "$log: the player never connected: $(tail -5 "$log")"
    done
}

tournament() {
    local dir=$1
    shift
    mkdir -p "$dir"
    (cd "$dir" && SPIELLEITER_MOVE_TIME=swc_2027_blokus=10000/30000 timeout 600 \
        "$spielleiter" tournament --results results.jsonl --log-dir log \
        --replay-dir replays "$@" >output.txt 2>&1) ||
        fail "tournament in $dir: $(tail -20 "$dir/output.txt")"
}

step "tournament swc_2027_blokus: python (SDK) against native, 2 games"
tournament "$run/t-blokus" --game swc_2027_blokus --games-per-pair 2 \
    --player "python=docker:sl-sandbox-test-python:1" \
    --player "native=docker:sl-sandbox-test-native:1 --game swc_2027_blokus"
check_tournament "$run/t-blokus" 2

step "tournament blokus_bcl: two native teams, 2 games"
tournament "$run/t-bcl" --game blokus_bcl --games-per-pair 2 \
    --player "native-a=docker:sl-sandbox-test-native:1 --game blokus_bcl" \
    --player "native-b=docker:sl-sandbox-test-native:1 --game blokus_bcl"
check_tournament "$run/t-bcl" 2

step "tournament swc_2027_blokus: java against native, 1 game"
tournament "$run/t-java" --game swc_2027_blokus --games-per-pair 1 \
    --player "java=docker:sl-sandbox-test-java:1" \
    --player "native=docker:sl-sandbox-test-native:1 --game swc_2027_blokus"
check_tournament "$run/t-java" 1
java_log=$(find "$run/t-java/log" -name 'java_game1.log')
grep -q '^java 17' "$java_log" || fail "the java team did not run on Java 17: $(head -5 "$java_log")"
[ "$(grep -c '^placed ' "$java_log")" = 2 ] ||
    fail "the java team did not place its two colours' first pieces: $(head -8 "$java_log")"
echo "  java: $(grep '^java ' "$java_log"), $(grep -c '^placed ' "$java_log") pieces placed, $(grep -c '^passed ' "$java_log") passes"
fi

# ---------------------------------------------------------------- teams
if part teams; then
step "the teams' programs in the browser: upload, build, test, activate, a friendly encounter"
# Its own directory beside the run's, kept after a passing run too, so
# that the screenshots can be looked at; the next run starts it afresh.
rm -rf "$teams_out"
mkdir -p "$teams_out"
started=$SECONDS
python3 "$here/teams_upload.py" "$(command -v chromium)" "$spielleiter" "$teams_out" \
    "$run/python.zip" "$run/native.zip" || fail "the teams' programs in the browser (see $teams_out)"
echo "  done in $((SECONDS - started)) s; screenshots: $teams_out/upload-*.png"
# The versions' images, built by the worker, go with the test.
xargs -r docker rmi -f <"$teams_out/team-images" >/dev/null
fi

# ---------------------------------------------------------------- hostile
if part hostile || [ "$only" = bench ]; then
if part hostile; then
    step "a server on all interfaces, a listener container, and control connections"
else
    step "a server on all interfaces"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')
web_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')
passphrase=sandbox-test-passphrase
"$spielleiter" serve --listen 0.0.0.0 --port "$port" --http-port "$web_port" \
    --admin-passphrase "$passphrase" --replay-dir "$run/hostile-replays" \
    >"$run/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$web_port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
fi

if part hostile; then
# The host's address on Docker's bridge (the IPAM configuration names it
# only when it was configured explicitly).
bridge_ip=$(docker network inspect bridge --format '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
[ -n "$bridge_ip" ] || bridge_ip=$(ip -4 -o addr show docker0 | awk '{print $4}' | cut -d/ -f1 | head -n 1)
[ -n "$bridge_ip" ] || fail "cannot find the host's address on Docker's bridge"
host_ip=$(ip -4 -o addr show scope global | awk '{print $4}' | cut -d/ -f1 | grep -v "^$bridge_ip$" | head -n 1)
docker run -d --name sl-sandbox-test-listener --entrypoint python3 sl-sandbox-python:latest \
    -m http.server 8000 --directory /tmp >/dev/null
listener_ip=$(docker inspect -f '{{.NetworkSettings.IPAddress}}' sl-sandbox-test-listener)
# Each address the hostile player tries gets its own control: an ordinary
# container reaches it (on Docker's bridge; for the host's loopback, on the
# host's network), so the sandbox's refusal is its own. An address no
# ordinary container reaches here proves nothing and is left out.
reaches() {
    local target=$1 network=$2 tries=$3
    for _ in $(seq "$tries"); do
        docker run --rm --network "$network" --entrypoint python3 sl-sandbox-python:latest -c \
            "import socket; socket.create_connection(('${target%:*}', ${target#*:}), timeout=3)" \
            2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}
targets=()
for target in "$bridge_ip:$web_port" "$bridge_ip:$port" "$listener_ip:8000" ${host_ip:+"$host_ip:$web_port"}; do
    reaches "$target" bridge 50 || fail "no ordinary container reaches $target: the test proves nothing"
    targets+=("$target")
done
reaches "127.0.0.1:$web_port" host 10 ||
    fail "no container on the host's network reaches the host's loopback: the test proves nothing"
targets+=("127.0.0.1:$web_port")
if reaches 1.1.1.1:443 bridge 3; then
    targets+=("1.1.1.1:443")
else
    echo "  1.1.1.1:443 (outside) is left out: no ordinary container reaches it here"
fi
echo "  targets: ${targets[*]} (each reached by an ordinary container)"

# One match of a hostile behaviour against PLAYER2 on the server; its
# directory is $run/h-NAME.
hostile_match() {
    local name=$1 player1=$2 player2=$3
    shift 3
    local dir=$run/h-$name
    mkdir -p "$dir"
    (cd "$dir" && timeout 300 "$spielleiter" match -h 127.0.0.1 -p "$port" \
        --admin-passphrase "$passphrase" --replay-dir "$run/hostile-replays" \
        --player1 "$player1" --player2 "$player2" --name1 "$name" --name2 other -t 1 \
        --log-dir log --results results.jsonl --exit-grace-ms 2000 \
        --sandbox-memory-mib 256 --sandbox-tmp-mib 16 --sandbox-pids 64 "$@" \
        >output.txt 2>&1) || echo "match $name: exit status $?" >>"$dir/output.txt"
}

step "hostile players, with a regular game beside them"
started=$SECONDS
mkdir -p "$run/beside"
(cd "$run/beside" && timeout 300 "$spielleiter" match -h 127.0.0.1 -p "$port" \
    --admin-passphrase "$passphrase" --player1 "docker:sl-sandbox-test-native:1" \
    --player2 "docker:sl-sandbox-test-native:1" -t 2 --log-dir log \
    --results results.jsonl >output.txt 2>&1) &
beside=$!
hostile=()
hostile_match escape "docker:sl-sandbox-test-hostile:1 escape ${targets[*]}" builtin:greedy &
hostile+=($!)
hostile_match forkbomb "docker:sl-sandbox-test-hostile:1 forkbomb" builtin:greedy &
hostile+=($!)
hostile_match membomb "docker:sl-sandbox-test-hostile:1 membomb" builtin:greedy &
hostile+=($!)
hostile_match filltmp "docker:sl-sandbox-test-hostile:1 filltmp" builtin:greedy &
hostile+=($!)
# More orphans than the process limit (64): each must be reaped by the
# relay as it ends, or forks fail.
hostile_match zombies "docker:sl-sandbox-test-hostile:1 zombies 200" builtin:greedy &
hostile+=($!)
# A tenth of a core: less than two spinning processes get of this machine
# even when it is busy, so the limit shows.
hostile_match cpu "docker:sl-sandbox-test-hostile:1 cpu 4" builtin:greedy --no-timeout \
    --sandbox-cpus 0.1 &
hostile+=($!)

hostile_match linger "docker:sl-sandbox-test-hostile:1 linger" "docker:sl-sandbox-test-hostile:1 quit" &
hostile+=($!)
# Wrong passphrases through everything the player reaches, for 6 s (less
# than the move clock's hard limit, so that its game is still on): each
# would count against loopback, the address of every runner's login here.
hostile_match authenticate "docker:sl-sandbox-test-hostile:1 authenticate 6" builtin:greedy &
hostile+=($!)
for job in "${hostile[@]}"; do
    wait "$job"
done
wait "$beside" || fail "the regular game beside the hostile ones failed: $(cat "$run/beside/output.txt")"
echo "  all done in $((SECONDS - started)) s"
# Alone, after the others: the relay's clock starts with the container,
# the runner's (5 s later) with `docker run`, and under the bombs beside it
# a container once took 7 s to start. No move timeout: only the wall clock
# ends the game.
hostile_match wallclock "docker:sl-sandbox-test-hostile:1 sleep" builtin:greedy --no-timeout \
    --sandbox-wall-clock-secs 5

# The regular game: both games regular, each in well under a minute.
python3 - "$run/beside/results.jsonl" <<'EOF' || fail "the game beside: $(cat "$run/beside/results.jsonl")"
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
assert len(records) == 2, records
for record in records:
    assert all(c == "REGULAR" for c in record["causes"]), record
    assert record["duration_ms"] < 60_000, record
print("  beside: 2 regular games, %s ms" % [r["duration_ms"] for r in records])
EOF

# The hostile player's game: it lost, the other player won.
lost() {
    python3 - "$run/h-$1/results.jsonl" "$1" <<'EOF' || fail "$1: $(cat "$run/h-$1/output.txt")"
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
assert len(records) == 1, records
record = records[0]
hostile = record["players"].index(sys.argv[2])
assert record["causes"][hostile] != "REGULAR", record
assert record["win_points"][hostile] < record["win_points"][1 - hostile], record
print("  %s lost: %s" % (sys.argv[2], record["causes"][hostile]))
EOF
}
# A player's log of its game. Checks hand the file to `grep -q` itself:
# grep stops reading at its first match, and a `cat` into it would then
# fail the pipe under pipefail.
log_file() { echo "$run/h-$1/log/$1_game1.log"; }
log_of() { cat "$(log_file "$1")"; }

escape_log=$(log_of escape)
attempts=$(echo "$escape_log" | grep -c '^ATTEMPT' || true)
blocked=$(echo "$escape_log" | grep -c '^ATTEMPT .* -> BLOCKED' || true)
# The targets, a name to resolve, 5 paths of the host, the other team's
# files, 3 writes, 3 lines of /proc/self/status, 9 calls of the kernel.
expected=$((${#targets[@]} + 22))
echo "$escape_log" | grep '^ATTEMPT' | sed 's/^/  /'
[ "$attempts" = "$expected" ] || fail "escape: $attempts attempts logged, expected $expected: $escape_log"
[ "$blocked" = "$attempts" ] || fail "escape: not every attempt was blocked"
echo "$escape_log" | grep -q '^uid 65534 gid 65534' || fail "escape: not the unprivileged user"
for target in "${targets[@]}"; do
    case "$target" in
    127.0.0.1:*) want=ECONNREFUSED ;; # the container's own loopback
    *) want=ENETUNREACH ;;           # no route: no interface but loopback
    esac
    echo "$escape_log" | grep -q "^ATTEMPT connect $target -> BLOCKED $want" ||
        fail "escape: $target not blocked with $want"
done
# Each refusal with the error of the measure that gives it, not any error:
# the writes fail for the read-only root even where the user could write
# (/var/tmp, root's but open to all); a 32-bit call is no architecture the
# seccomp profile allows (SIGSYS).
vsock_32bit=EPERM
[ "$(uname -m)" = x86_64 ] && vsock_32bit="killed by signal 31"
while IFS='|' read -r attempt want; do
    echo "$escape_log" | grep -qF "ATTEMPT $attempt -> BLOCKED $want" ||
        fail "escape: \"$attempt\" not blocked with $want: $(echo "$escape_log" | grep -F "ATTEMPT $attempt")"
done <<EOF
write /escape (/ root's, mode 755)|EROFS
write /player/escape (/player root's, mode 755)|EROFS
write /var/tmp/escape (/var/tmp root's, mode 1777)|EROFS
hold a capability|CapInh CapPrm CapEff CapBnd CapAmb all 0
gain privileges through exec|NoNewPrivs 1
run without a seccomp filter|Seccomp 2
socket(AF_VSOCK) to the hypervisor|EPERM
socket(AF_VSOCK) through the 32-bit entry|$vsock_32bit
io_uring_setup|EPERM
ptrace the relay (PID 1)|EPERM
open the relay's memory /proc/1/mem|EACCES
mount a tmpfs|EPERM
unshare a user namespace|EPERM
raw IP socket|EPERM
raw packet socket|EPERM
EOF
lost escape

grep -q 'ATTEMPT fork without end -> BLOCKED EAGAIN' "$(log_file forkbomb)" ||
    fail "forkbomb: the process limit did not stop it: $(log_of forkbomb | tail -5)"
lost forkbomb

grep -q 'the container ended: killed: out of memory' "$(log_file membomb)" ||
    fail "membomb: not ended by the memory limit: $(log_of membomb | tail -5)"
lost membomb

for dir in /tmp /dev/shm; do
    grep -Eq "ATTEMPT fill $dir -> BLOCKED ENOSPC after 1[0-6] MiB" "$(log_file filltmp)" ||
        fail "filltmp: $dir did not fill at its limit (16 MiB): $(log_of filltmp | grep ATTEMPT)"
done
echo "  $(log_of filltmp | grep ATTEMPT | tr '\n' ' ')"
lost filltmp

# Two spinning processes under a limit of 0.1 cores: their CPU time over the
# wall time, with a quarter more for the scheduler's periods.
cpu_line=$(log_of cpu | grep '^cpu: ' || true)
[ -n "$cpu_line" ] || fail "cpu: no measure: $(log_of cpu | tail -5)"
cores=$(echo "$cpu_line" | sed -E 's/^cpu: 2 processes got ([0-9.]+) cores.*/\1/')
python3 -c "import sys; sys.exit(0 if float('$cores') <= 0.125 else 1)" ||
    fail "cpu: more than the limit of 0.1 cores: $cpu_line"
echo "  $cpu_line (limit 0.1)"
lost cpu

# The wall clock of 5 s, kept by the relay inside the container: its line,
# and the container's end before the runner's own limit (10 s) could strike.
grep -q "the player's wall-clock limit has passed: killed" "$(log_file wallclock)" ||
    fail "wallclock: the relay did not kill it: $(log_of wallclock | tail -5)"
ended_ms=$(log_of wallclock | sed -nE "s/.*the container ended: killed: the sandbox's wall-clock limit has passed \(([0-9]+) ms after it was started\).*/\1/p")
[ -n "$ended_ms" ] && [ "$ended_ms" -ge 5000 ] && [ "$ended_ms" -lt 10000 ] ||
    fail "wallclock: not ended at 5 s by the relay: $(log_of wallclock | tail -5)"
echo "  wallclock: killed by the relay, the container ended $ended_ms ms after its start (limit 5 s)"
lost wallclock

grep -q 'ATTEMPT leave 200 zombies to the relay -> BLOCKED reaped' "$(log_file zombies)" ||
    fail "zombies: the relay left zombies: $(log_of zombies | grep -e ATTEMPT -e Traceback)"
echo "  $(log_of zombies | grep ATTEMPT)"
lost zombies

grep -Eq '^ATTEMPT guess the passphrase [1-9][0-9]* times -> BLOCKED' "$(log_file authenticate)" ||
    fail "authenticate: a guess reached the server: $(log_of authenticate | grep -e ATTEMPT -e Traceback)"
echo "  $(log_of authenticate | grep ATTEMPT)"
lost authenticate
# The server checked no guess at all: the logins of the runners beside it
# (every match above logs in from loopback) waited behind none.
metrics=$(curl -fsS "http://127.0.0.1:$web_port/metrics")
grep -q '^spielleiter_failed_authentications_total 0$' <<<"$metrics" ||
    fail "the server checked a sandboxed player's guesses: $(curl -fsS "http://127.0.0.1:$web_port/metrics" | grep failed_authentications)"

grep -q 'linger: staying on' "$(log_file linger)" || fail "linger: did not outlive its game: $(log_of linger)"
grep -q 'killed:' "$(log_file linger)" || fail "linger: not killed: $(log_of linger)"
grep -q 'removed in' "$(log_file linger)" || fail "linger: its container was not removed: $(log_of linger)"
echo "  linger: $(log_of linger | grep 'killed:')"

[ "$(docker ps -aq --filter label=org.spielleiter.sandbox | wc -l)" = 0 ] ||
    fail "containers left after the hostile games: $(docker ps -a --filter label=org.spielleiter.sandbox)"

fi

# ---------------------------------------------------------------- sweep
if part hostile; then
step "a runner killed mid-game: its container stays until the next start sweeps it"
mkdir -p "$run/killed"
(cd "$run/killed" && exec "$spielleiter" match -h 127.0.0.1 -p "$port" \
    --admin-passphrase "$passphrase" --player1 "docker:sl-sandbox-test-hostile:1 linger" \
    --player2 builtin:greedy --no-timeout -t 1 --log-dir log >output.txt 2>&1) &
runner=$!
for _ in $(seq 100); do
    [ -n "$(docker ps -q --filter label=org.spielleiter.sandbox)" ] && break
    sleep 0.1
done
orphan=$(docker ps -q --filter label=org.spielleiter.sandbox)
[ -n "$orphan" ] || fail "the killed runner's container never started"
kill -9 "$runner"
wait "$runner" 2>/dev/null || true
sleep 1
[ -n "$(docker ps -aq --filter "id=$orphan")" ] || fail "the orphan went away by itself; the sweep is untested"
mkdir -p "$run/after"
(cd "$run/after" && timeout 300 "$spielleiter" match -h 127.0.0.1 -p "$port" \
    --admin-passphrase "$passphrase" --player1 "docker:sl-sandbox-test-native:1" \
    --player2 builtin:greedy -t 1 --log-dir log >output.txt 2>&1) ||
    fail "the match after the killed runner: $(cat "$run/after/output.txt")"
[ -z "$(docker ps -aq --filter "id=$orphan")" ] || fail "the next start did not sweep the orphan $orphan"
echo "  orphan $orphan swept"
fi

# ---------------------------------------------------------------- benchmark
if [ -n "${SANDBOX_BENCH:-}" ] || [ "$only" = bench ]; then
    bench_runner=${SANDBOX_BENCH_RUNNER:-$spielleiter}
    step "benchmark: 20 games of two sandboxed native players (runner $bench_runner)"
    mkdir -p "$run/bench"
    bench_started=$(date +%s%N)
    (cd "$run/bench" && timeout 900 "$bench_runner" match -h 127.0.0.1 -p "$port" \
        --admin-passphrase "$passphrase" --player1 "docker:sl-sandbox-test-native:1" \
        --player2 "docker:sl-sandbox-test-native:1" -t 20 --log-dir log \
        --results results.jsonl >output.txt 2>&1) || fail "benchmark: $(tail "$run/bench/output.txt")"
    echo $((($(date +%s%N) - bench_started) / 1000000)) >"$run/bench/wall_ms"
    # The same 20 games with the same binary as local programs, to compare.
    mkdir -p "$run/bench-local"
    bench_started=$(date +%s%N)
    (cd "$run/bench-local" && timeout 900 "$bench_runner" match -h 127.0.0.1 -p "$port" \
        --admin-passphrase "$passphrase" --player1 "$static_binary play --bot greedy" \
        --player2 "$static_binary play --bot greedy" -t 20 --log-dir log \
        --results results.jsonl >output.txt 2>&1) || fail "benchmark: $(tail "$run/bench-local/output.txt")"
    echo $((($(date +%s%N) - bench_started) / 1000000)) >"$run/bench-local/wall_ms"
    python3 - "$run/bench" "$run/bench-local" <<'EOF'
import glob, json, re, statistics, sys
connected, stopped, removed = [], [], []
for path in glob.glob(sys.argv[1] + "/log/*.log"):
    # A log holds every game of its player; its lines by game.
    for game in open(path).read().split("[spielleiter] ")[1:]:
        connected += [int(m) for m in re.findall(r"connected (\d+) ms after", game)]
        removed += [int(m) for m in re.findall(r"removed in (\d+) ms", game)]
        closed = re.search(r"connection closed (\d+) ms after", game)
        ended = re.search(r"the container ended: .* \((\d+) ms after", game)
        if closed and ended:
            stopped.append(int(ended.group(1)) - int(closed.group(1)))
def summary(values):
    values = sorted(values)
    p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    return "n=%d median %d ms, p99 %d ms, max %d ms" % (len(values), statistics.median(values), p99, values[-1])
records = [json.loads(line) for line in open(sys.argv[1] + "/results.jsonl")]
print("  start (the container's creation to the player's connection):", summary(connected))
print("  stop (the player's connection closed to the container's end):", summary(stopped))
print("  removal:", summary(removed))
local = [json.loads(line) for line in open(sys.argv[2] + "/results.jsonl")]
for name, games, directory in (("sandboxed", records, sys.argv[1]), ("local programs", local, sys.argv[2])):
    wall = int(open(directory + "/wall_ms").read())
    print("  %s: %d games, %d regular, duration %s; the match %d ms, %d ms a game" % (
        name, len(games), sum(all(c == "REGULAR" for c in r["causes"]) for r in games),
        summary([r["duration_ms"] for r in games]), wall, wall // max(1, len(games))))
print("  the container's cost: %d ms a game (the medians' difference)" % (
    statistics.median(r["duration_ms"] for r in records) - statistics.median(r["duration_ms"] for r in local)))
EOF
fi

if [ -n "$server_pid" ]; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=
fi
docker rm -f sl-sandbox-test-listener >/dev/null 2>&1 || true
[ "$(sandbox_containers)" = 0 ] ||
    fail "containers left behind: $(docker ps -a --filter label=org.spielleiter.sandbox)"
after=$(networks_and_volumes)
if [ "$before" = "$after" ]; then
    echo "  nothing left behind: no sandbox container; $after as before"
elif [ -n "$own_daemon_pid" ]; then
    fail "left behind: before ($before), after ($after)"
else
    # A shared daemon: someone else may have made or removed one meanwhile.
    echo "  no sandbox container left; the shared daemon's $before became $after (not ours: we create none)"
fi
step "all checks passed"
