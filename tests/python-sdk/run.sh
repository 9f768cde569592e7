#!/usr/bin/env bash
# The organisers' Python SDK for Blokus 2027 (`socha` 5.1.0 from PyPI) plays
# complete games against `spielleiter serve`, unchanged: three games at once,
# one whose players send the SDK's bare <join/>, and two prepared through the
# administrator protocol by `spielleiter match`, whose players the SDK seats
# with joinPrepared (`--reservation`). Each game must end with a regular
# result, every player must exit with status 0, and every game must leave a
# finished replay, every packet of which (think times included) the SDK's
# own parser reads (replay_packets.py).
#
# The SDK and its dependencies go into a virtual environment under
# target/python-sdk/venv (created once with pip, reused afterwards); the
# player is player.py next to this script. Needs Python 3.10 or newer
# ($PYTHON, default python3) and, the first time, PyPI.
set -euo pipefail
cd "$(dirname "$0")/../.."

here=tests/python-sdk
work=target/python-sdk
venv=$work/venv
run=$work/run
python=${PYTHON:-python3}

fail() {
    echo "python-sdk: $*" >&2
    exit 1
}

# ------------------------------------------------------------ the SDK
wanted="socha==5.1.0"
installed() {
    "$venv/bin/python" - <<'EOF' 2>/dev/null
import importlib.metadata as metadata
import sys
sys.exit(metadata.version("socha") != "5.1.0")
EOF
}
if ! installed; then
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
        fail "$python is older than 3.10, which socha needs"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # setuptools: the SDK imports pkg_resources, which newer venvs lack.
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$wanted" "setuptools==75.8.0"
    installed || fail "could not install $wanted"
fi

# ------------------------------------------------------------ the server
cargo build --quiet -p spielleiter
spielleiter=target/debug/spielleiter
rm -rf "$run"
mkdir -p "$run"
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
passphrase=python-sdk-test-passphrase
# A generous clock: the test is about the protocol, and the SDK reads each
# waiting message only after a 0.1 s socket timeout; a loaded machine must
# not turn that into a lost game.
"$spielleiter" serve --port "$port" --admin-passphrase "$passphrase" \
    --replay-dir "$run/replays" --move-time swc_2027_blokus=10000/30000 \
    >"$run/server.log" 2>&1 &
server=$!
players=()
cleanup() {
    for pid in "${players[@]}" "$server"; do
        kill "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
for _ in $(seq 100); do
    "$spielleiter" health --addr "127.0.0.1:$port" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || fail "the server did not start: $(cat "$run/server.log")"
    sleep 0.1
done

# ------------------------------------------------------------ the games
# The player as `match` starts a program: EXE --reservation CODE --host H
# --port P. It notes its exit status, which match does not report.
cat >"$run/player.sh" <<EOF
#!/bin/sh
"$PWD/$venv/bin/python" "$PWD/$here/player.py" "\$@"
status=\$?
echo "\$status" >>"$PWD/$run/prepared.exits"
exit \$status
EOF
chmod +x "$run/player.sh"

# One game by plain join: both players send <join/> without a game type.
for name in join-1 join-2; do
    # (The SDK never gives up on a server that went away without <left/>.)
    (timeout 120 "$venv/bin/python" "$here/player.py" --host 127.0.0.1 --port "$port" \
        >"$run/$name.log" 2>&1; echo $? >"$run/$name.exit") &
    players+=($!)
done
# Two prepared games at once.
"$spielleiter" match --host 127.0.0.1 --port "$port" --admin-passphrase "$passphrase" \
    --game swc_2027_blokus --player1 "$run/player.sh" --player2 "$run/player.sh" \
    --name1 sdk-one --name2 sdk-two --tests 2 --parallel 2 \
    --results "$run/match.jsonl" --log-dir "$run/log" --game-timeout-ms 120000 \
    >"$run/match.log" 2>&1 || fail "match failed: $(cat "$run/match.log")"
wait "${players[@]}"
players=()

# ------------------------------------------------------------ the checks
for name in join-1 join-2; do
    [ "$(cat "$run/$name.exit")" = 0 ] ||
        fail "$name exited with $(cat "$run/$name.exit"): $(tail -n 20 "$run/$name.log")"
    grep -q "^RESULT regular=True team=" "$run/$name.log" ||
        fail "$name saw no regular result: $(tail -n 20 "$run/$name.log")"
done
grep -q "2 games, 0 irregular" "$run/match.log" ||
    fail "the prepared games did not end regularly: $(cat "$run/match.log")"
[ "$(grep -c '"causes":\["REGULAR","REGULAR"\]' "$run/match.jsonl")" = 2 ] ||
    fail "the results file does not show two regular games: $(cat "$run/match.jsonl")"
[ "$(sort "$run/prepared.exits" | tr '\n' ' ')" = "0 0 0 0 " ] ||
    fail "the prepared players' exit statuses: $(tr '\n' ' ' <"$run/prepared.exits")"
for log in "$run"/log/*.log; do
    grep -q "^RESULT regular=True team=" "$log" || fail "$log shows no regular result"
done
# A replay is completed just after its game's result has gone out.
for _ in $(seq 100); do
    replays=("$run"/replays/*.xml)
    [ "${#replays[@]}" = 3 ] && [ -e "${replays[0]}" ] && break
    sleep 0.1
done
[ "${#replays[@]}" = 3 ] || fail "expected 3 finished replays, found: ${replays[*]}"
for replay in "${replays[@]}"; do
    grep -q '<data class="result">' "$replay" || fail "$replay has no result"
    [ "$(tail -n 1 "$replay")" = "</protocol>" ] || fail "$replay is not finished"
done
# Every packet of the replays, think times included, as the SDK reads it.
"$venv/bin/python" "$here/replay_packets.py" "${replays[@]}" ||
    fail "the SDK does not read the replays' packets"
echo "python-sdk: 3 games of socha 5.1.0 against spielleiter, all regular"
