#!/usr/bin/env bash
# A season as a Docker Swarm stack (docker/season-stack.yml) on a
# single-node swarm of the running daemon: PostgreSQL and 3 worker
# replicas play a round robin of built-in bots. The workers start before
# the season is created and wait for it; one worker container is killed
# (SIGKILL) while it holds a game; the season completes with exactly one
# result per game, each with its replay, the killed worker's game was
# claimed again, every replica ends with 0, and no worker task failed but
# the killed one.
#
#   tests/docker/season-swarm.sh     (tests/docker/run.sh calls it on its
#                                     own daemon, after building the image)
#
# SEASON_SWARM_LOG=FILE keeps the workers' log lines in FILE.
#
# Needs the image spielleiter:latest and a daemon that is in no swarm yet;
# builds postgres:15 from Debian's packages (docker/postgres/build.sh,
# cached) unless the daemon has that image. Leaves no swarm, stack, job,
# network or volume behind, also on failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
clock_start=$SECONDS
stack=sltest-season
password=swarm-test-password
store=postgres://season:$password@postgres:5432/season
games=24
# Two built-in bots end a game in about 5 ms (the image is a release
# build); two of the four players think 100 ms a move (about a second a
# game here), so that a worker is caught holding a game: the workers wait
# for the season and all begin the moment it is created, and the season
# must not be over before the test looks.
slow="/usr/local/bin/spielleiter play --game blokus_bcl --think-ms 100 --bot"

step() { echo "== season-swarm: $*   [$((SECONDS - clock_start)) s]"; }
fail() {
    echo "season-swarm: FAIL: $*" >&2
    exit 1
}

[ "$(docker info -f '{{.Swarm.LocalNodeState}}')" = inactive ] ||
    fail "the daemon is in a swarm already; this test makes and leaves its own"

# What the daemon had before, so that what the test made is removed and
# nothing else: the workers' scratch volumes (anonymous, the image's own)
# and the bridge Swarm adds (docker_gwbridge) outlive the swarm.
volumes_before=$(docker volume ls -q)
gwbridge_before=$(docker network ls -q --filter name=docker_gwbridge)
swarm_made=
cleanup() {
    local status=$?
    set +e
    if [ "$status" != 0 ] && [ -n "$swarm_made" ]; then
        echo "-- services" >&2
        docker service ls >&2
        docker service ps --no-trunc "${stack}_worker" "${stack}_postgres" >&2
        for service in "${stack}_postgres" "${stack}_worker" "${stack}-create"; do
            echo "-- logs of $service" >&2
            docker service logs --tail 20 "$service" >&2
        done
    fi
    if [ -n "$swarm_made" ]; then
        docker service rm "${stack}-create" >/dev/null 2>&1
        docker stack rm "$stack" >/dev/null 2>&1
        # Leaving while the stack's network is still being removed can
        # leave its VXLAN device behind (see above): wait for it, bounded.
        for _ in $(seq 150); do
            [ -z "$(docker network ls -q --filter "name=${stack}_default")" ] && break
            sleep 0.2
        done
        docker swarm leave --force >/dev/null
        # The swarm's containers (the stack's and the job's: the daemon was
        # in no swarm before) outlive it stopped; they go with their
        # anonymous volumes, then the other volumes and the bridge.
        docker ps -aq --filter label=com.docker.swarm.task.id | xargs -r docker rm -f -v >/dev/null
        docker volume ls -q --filter dangling=true | grep -vxF -e "$volumes_before" -e '' |
            xargs -r docker volume rm >/dev/null
        [ -n "$gwbridge_before" ] || docker network rm docker_gwbridge >/dev/null 2>&1
        left=$(docker volume ls -q --filter dangling=true | grep -vxF -e "$volumes_before" -e '' | wc -l)
        [ "$left" = 0 ] || echo "season-swarm: $left volumes of the test could not be removed" >&2
    fi
    exit "$status"
}
trap cleanup EXIT

# ---------------------------------------------------------------- images
docker image inspect spielleiter:latest >/dev/null 2>&1 || fail "no image spielleiter:latest (docker/build.sh)"
if docker image inspect postgres:15 >/dev/null 2>&1; then
    step "postgres:15 is there"
else
    step "postgres:15 from Debian's packages (docker/postgres/build.sh)"
    if ! command -v mmdebstrap >/dev/null && [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
    fi
    docker/postgres/build.sh postgres:15 >/dev/null
fi

# ---------------------------------------------------------------- swarm
# An overlay network's VXLAN device (vx-<vni>-<id>) is made in the host's
# namespace and moved at once into the network's own; one still in the
# host's namespace is a leftover of a swarm torn down mid-way (a daemon
# stopped while it removed the network). The first network of a new swarm
# gets the same VNI (4097), and every task of the stack would be rejected
# with "error creating vxlan interface: file exists" (seen in CI on a
# machine that had run the test before), so leftovers go first.
for device_dir in /sys/class/net/vx-*; do
    grep -qx DEVTYPE=vxlan "$device_dir/uevent" 2>/dev/null || continue
    device=${device_dir##*/}
    [ "$(id -u)" = 0 ] ||
        fail "a VXLAN device an earlier swarm left ($device) would refuse the stack's network; removing it needs root"
    if ! command -v ip >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null
    fi
    echo "  removing $device, a VXLAN device an earlier swarm left in the host's namespace"
    ip link delete "$device" || fail "cannot remove the leftover VXLAN device $device"
done
step "a single-node swarm on 127.0.0.1"
swarm_made=1
docker swarm init --advertise-addr 127.0.0.1 --listen-addr 127.0.0.1:2377 >/dev/null

step "stack $stack: the database and 3 workers"
# The workers log each replay's publishing and each game's search for it,
# so that a result stored without its replay can be explained.
# Right after `swarm init` the stack's network is now and then not found
# when the first service is created ("network sltest-season_default not
# found", seen in 2 of 6 runs one after the other): deploying again
# creates what is missing.
deployed=
for _ in 1 2 3; do
    if deploy_output=$(SPIELLEITER_SEASON_PASSWORD=$password \
        SPIELLEITER_WORKER_LOG=warn,spielleiter_season=info,spielleiter_server::replay=info,spielleiter_arena=info \
        docker stack deploy --detach=true -c docker/season-stack.yml "$stack" 2>&1); then
        deployed=1
        break
    fi
    echo "$deploy_output" | sed 's/^/  /'
    sleep 1
done
[ -n "$deployed" ] || fail "docker stack deploy failed three times"
echo "$deploy_output" | sed 's/^/  /'

# SQL against the stack's database, in its own container.
database=
sql() {
    docker exec "$database" psql -U season -d season -Atc "$1"
}
deadline=$((SECONDS + 30))
while [ "$SECONDS" -lt "$deadline" ]; do
    database=$(docker ps -q --filter "label=com.docker.swarm.service.name=${stack}_postgres" | head -n 1)
    [ -n "$database" ] && [ "$(docker inspect -f '{{.State.Health.Status}}' "$database")" = healthy ] && break
    sleep 0.2
done
[ -n "$database" ] && [ "$(docker inspect -f '{{.State.Health.Status}}' "$database")" = healthy ] ||
    fail "the database is not healthy within 30 s"

step "season create, as a one-off job on the stack's network"
docker service create --quiet --detach=true --name "${stack}-create" --mode replicated-job \
    --restart-condition none --network "${stack}_default" -e "SPIELLEITER_STORE=$store" \
    spielleiter:latest season create --game blokus_bcl --games-per-pair 4 --seed 26 \
    --no-timeout --player a=builtin:random --player b=builtin:greedy \
    --player "c=$slow greedy" --player "d=$slow random" >/dev/null
job_state=
deadline=$((SECONDS + 60))
while [ "$SECONDS" -lt "$deadline" ]; do
    job_state=$(docker service ps --format '{{.CurrentState}}' "${stack}-create" | awk 'NR == 1 {print $1}')
    case "$job_state" in Complete | Failed | Rejected) break ;; esac
    sleep 0.1
done
created=$(docker service logs --raw "${stack}-create" 2>&1)
[ "$job_state" = Complete ] || fail "season create ended $job_state: $created"
case "$created" in
*"$games games"*) echo "  $created" ;;
*) fail "season create: $created" ;;
esac
docker service rm "${stack}-create" >/dev/null

count() { sql "SELECT count(*) FROM games WHERE state = '$1'"; }

# Killed while it holds a game: frozen first (docker pause), so that the
# game it holds is known for certain, then killed. A worker's name in the
# store is its container's host name (the short container id) and its pid.
step "killing a worker container while it holds a game"
victim= held=
deadline=$((SECONDS + 60))
while [ "$SECONDS" -lt "$deadline" ]; do
    if [ "$(count done)" -ge 1 ]; then
        worker=$(sql "SELECT worker FROM games WHERE state = 'running' ORDER BY number LIMIT 1")
        container=${worker%-*}
        if [ -n "$worker" ] && docker pause "$container" >/dev/null 2>&1; then
            held=$(sql "SELECT number FROM games WHERE state = 'running' AND worker = '$worker'")
            if [ -n "$held" ]; then
                victim=$container
                break
            fi
            docker unpause "$container" >/dev/null 2>&1 || true
        fi
    fi
    sleep 0.1
done
[ -n "$victim" ] || fail "no worker held a game after the first result within 60 s"
docker kill "$victim" >/dev/null
echo "  killed worker $worker (container $victim) holding game $held; $(count done) of $games games done"

step "the season completes"
deadline=$((SECONDS + 120))
while [ "$SECONDS" -lt "$deadline" ]; do
    [ "$(count done)" = "$games" ] && break
    [ "$(count failed)" = 0 ] || fail "games failed: $(sql "SELECT number, error FROM games WHERE state = 'failed'")"
    sleep 0.1
done
[ "$(count done)" = "$games" ] || fail "$(count done) of $games games done within 120 s"
[ "$(sql "SELECT count(*) FROM games WHERE record IS NOT NULL")" = "$games" ] ||
    fail "not every game has a result: $(sql "SELECT number, attempt, worker FROM games WHERE record IS NULL")"
# Every result has its replay: a worker that did not find the server's
# replay file warns and stores the result without it, which fails here,
# with the workers' lines about replays.
worker_logs=$(docker service logs --raw "${stack}_worker" 2>&1 || true)
# SEASON_SWARM_LOG=FILE keeps all of them.
[ -z "${SEASON_SWARM_LOG:-}" ] || printf '%s\n' "$worker_logs" >"$SEASON_SWARM_LOG"
without_replay=$(sql "SELECT number, worker FROM games WHERE replay IS NULL")
if [ -n "$without_replay" ]; then
    grep -i "replay" <<<"$worker_logs" >&2 || true
    fail "results stored without their replay (game|worker): $without_replay"
fi
# How long publishing took (the server's sync and rename), for the next
# person who wonders whether a busy disk holds replays back.
publish_ms=$(grep -o 'publish_ms=[0-9]*' <<<"$worker_logs" | cut -d= -f2 | sort -n | tail -n 1 || true)
echo "  every result has its replay; the slowest replay took ${publish_ms:-?} ms to publish"
attempt=$(sql "SELECT attempt FROM games WHERE number = $held")
[ "$attempt" -ge 2 ] || fail "the killed worker's game $held was not claimed again (attempt $attempt)"
[ "$(sql "SELECT worker FROM games WHERE number = $held")" != "$worker" ] ||
    fail "game $held's result is the killed worker's"
echo "  $games games, one result each; game $held played again (attempt $attempt)"

# The workers end by themselves once the season is over; Swarm started a
# new one for the killed one.
step "the workers end with 0"
deadline=$((SECONDS + 30))
while [ "$SECONDS" -lt "$deadline" ]; do
    [ -z "$(docker service ps -q --filter desired-state=running "${stack}_worker")" ] && break
    sleep 0.1
done
states=$(docker service ps --format '{{.CurrentState}}' --filter desired-state=shutdown "${stack}_worker" | awk '{print $1}' | sort | uniq -c | tr -s ' \n' ' ')
[ -z "$(docker service ps -q --filter desired-state=running "${stack}_worker")" ] ||
    fail "workers still run after the season: $(docker service ps "${stack}_worker")"
echo "  worker tasks by state: $states"
# One ended task per replica ended with 0.
[ "$(docker service ps --format '{{.CurrentState}}' "${stack}_worker" | grep -c '^Complete')" = 3 ] ||
    fail "not every worker replica ended with 0: $states"
# Workers that started before the season waited for it instead of failing:
# the one failed task is the killed worker's. Without --name a worker
# waits first for the store's tables (`season create` makes them), then
# for a season in them; the count is what they logged meanwhile.
waited_store=$(grep -c 'the store cannot be opened yet' <<<"$worker_logs" || true)
waited_season=$(grep -c 'waiting for a season to be created' <<<"$worker_logs" || true)
echo "  the workers' log lines while they waited: $waited_store for the store, $waited_season for a season"
failed_containers=
for task in $(docker service ps -q --filter desired-state=shutdown "${stack}_worker"); do
    case "$(docker inspect -f '{{.Status.State}}' "$task")" in failed | rejected) ;; *) continue ;; esac
    failed_containers="$failed_containers $(docker inspect -f '{{.Status.ContainerStatus.ContainerID}}' "$task" | cut -c1-12)"
done
[ "$(echo $failed_containers)" = "$victim" ] ||
    fail "failed worker tasks other than the killed one ($victim): containers${failed_containers:- none}; $states"
step "passed"
