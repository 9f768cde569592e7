#!/usr/bin/env bash
# Checks docker/compose.yml's `season` profile as Compose renders it,
# without a daemon (`config` only; tests/docker/run.sh calls this before it
# starts one): the database and the workers belong to the profile and to no
# other, the workers' store names the database with the password given,
# wait for its health check, restart on failure, and have Swarm replicas;
# the server's services stay outside the profile. Then the Swarm stack
# file (docker/season-stack.yml, as `docker stack config` renders it) must
# start the same workers against the same database: image, command,
# environment, health check and restarts. Starting the stack is
# tests/docker/season-swarm.sh's part.
#
#   tests/docker/season-compose.sh [COMPOSE COMMAND…]   (default: docker compose, else docker-compose)
#
# Needs python3 with PyYAML (python3-yaml, which Debian's docker-compose
# depends on) for the stack file and docker-compose v1's YAML output.
set -euo pipefail
cd "$(dirname "$0")/../../docker"

fail() {
    echo "season-compose: $*" >&2
    exit 1
}

if [ "$#" -gt 0 ]; then
    compose=("$@")
elif docker compose version >/dev/null 2>&1; then
    compose=(docker compose)
elif command -v docker-compose >/dev/null; then
    compose=(docker-compose)
else
    fail "neither docker compose nor docker-compose is installed"
fi

password='pw-with:@/#-signs'
# Compose v2 renders JSON on request; v1 renders YAML only.
format=()
if "${compose[@]}" config --help 2>/dev/null | grep -q -- '--format'; then
    format=(--format json)
fi
rendered=$(SPIELLEITER_SEASON_PASSWORD=$password SPIELLEITER_WORKER_SLOTS=2 \
    "${compose[@]}" -p sltest --profile season config "${format[@]}") ||
    fail "compose cannot render the season profile"

PASSWORD=$password python3 -c '
import json, os, sys
text = sys.stdin.read()
try:
    config = json.loads(text)
except ValueError:
    import yaml
    config = yaml.safe_load(text)
services = config["services"]
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)
for name in ("postgres", "worker"):
    check(name in services, f"no service {name}")
    check(services.get(name, {}).get("profiles") == ["season"], f"{name} is not (only) in the season profile")
for name, service in services.items():
    if name not in ("postgres", "worker"):
        check("season" not in service.get("profiles", []), f"{name} is in the season profile")
worker = services.get("worker", {})
postgres = services.get("postgres", {})
env = worker.get("environment", {})
# The password is put into a URL as given: the check uses the same text.
store = env.get("SPIELLEITER_STORE")
check(store == "postgres://season:" + os.environ["PASSWORD"] + "@postgres:5432/season",
      f"the workers store is {store!r}")
check(str(env.get("SPIELLEITER_WORKER_SLOTS")) == "2", "SPIELLEITER_WORKER_SLOTS does not reach the workers")
check(worker.get("command", [None])[0] == "worker", "the workers do not run `worker`")
depends = worker.get("depends_on", {})
check(isinstance(depends, dict) and depends.get("postgres", {}).get("condition") == "service_healthy",
      "the workers do not wait for the database to be healthy")
check(worker.get("restart") == "on-failure", "the workers are not restarted on failure")
deploy = worker.get("deploy", {})
check(int(deploy.get("replicas", 0)) >= 1, "the workers have no Swarm replicas (deploy.replicas)")
check(deploy.get("restart_policy", {}).get("condition") == "on-failure", "Swarm does not restart failed workers")
check(postgres.get("environment", {}).get("POSTGRES_PASSWORD") == os.environ["PASSWORD"],
      "the database does not get the password")
check("healthcheck" in postgres, "the database has no health check")
check(any(str(v).startswith("season-db") or (isinstance(v, dict) and v.get("source") == "season-db")
          for v in postgres.get("volumes", [])), "the database keeps its data in no volume")
if problems:
    print("\n".join("season-compose: " + p for p in problems), file=sys.stderr)
    sys.exit(1)
print("season-compose: the season profile renders: postgres and %s worker replicas" % deploy.get("replicas"))
' <<<"$rendered"

stack=$(SPIELLEITER_SEASON_PASSWORD=$password SPIELLEITER_WORKER_SLOTS=2 \
    docker stack config -c season-stack.yml) || fail "docker stack config cannot render season-stack.yml"
COMPOSE=$rendered python3 -c '
import json, os, sys, yaml
text = os.environ["COMPOSE"]
try:
    compose = json.loads(text)["services"]
except ValueError:
    compose = yaml.safe_load(text)["services"]
stack = yaml.safe_load(sys.stdin.read())["services"]
problems = []
if sorted(stack) != ["postgres", "worker"]:
    problems.append(f"the stack has services {sorted(stack)}, not postgres and worker")
def env(service):
    return {k: str(v) for k, v in (service.get("environment") or {}).items()}
def health(service):
    check = service.get("healthcheck") or {}
    # Compose renders `disable: true` as the test NONE.
    if check.get("disable") or check.get("test") == ["NONE"]:
        return "disabled"
    return check.get("test")
for name in ("postgres", "worker"):
    a, b = compose.get(name, {}), stack.get(name, {})
    for what, get in (("image", lambda s: s.get("image")), ("command", lambda s: s.get("command")),
                      ("environment", env), ("health check", health)):
        if get(a) != get(b):
            problems.append(f"{name}: the {what} differs: compose {get(a)!r}, stack {get(b)!r}")
restart = stack.get("worker", {}).get("deploy", {}).get("restart_policy", {}).get("condition")
if restart != "on-failure":
    problems.append(f"Swarm restarts the workers on {restart!r}, not on-failure")
if problems:
    print("\n".join("season-compose: " + p for p in problems), file=sys.stderr)
    sys.exit(1)
print("season-compose: the Swarm stack file starts the same database and workers")
' <<<"$stack"
