#!/bin/sh
# The entry point of the project's own PostgreSQL image
# (docker/postgres/build.sh), for where no image registry is reachable:
# takes the settings of the official image that docker/compose.yml uses
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA). On an empty data
# directory it creates the cluster with that user and password (password
# authentication over TCP, trust only on the container's own socket) and
# the database; then it runs the server in the foreground, listening on
# every interface of the container.
set -eu
bin=/usr/lib/postgresql/15/bin
data=${PGDATA:-/var/lib/postgresql/data}
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}

if [ ! -s "$data/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "postgres: POSTGRES_PASSWORD is empty; refusing to create a database anyone may log in to" >&2
        exit 1
    fi
    # The password through a pipe: it is never in a file or an argument.
    # (The image has a shell and PostgreSQL's programs, no coreutils.)
    printf '%s\n' "$POSTGRES_PASSWORD" |
        "$bin/initdb" --pgdata="$data" --username="$user" --pwfile=/dev/stdin \
            --encoding=UTF8 --no-locale --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
    if [ "$database" != postgres ]; then
        # Single-user mode: no server is listening while the database is made.
        echo "CREATE DATABASE \"$database\" OWNER \"$user\";" |
            "$bin/postgres" --single -D "$data" postgres >/dev/null
    fi
    echo "postgres: created the cluster in $data, user $user, database $database"
fi
exec "$bin/postgres" -D "$data" -c listen_addresses='*'
