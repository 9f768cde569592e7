#!/usr/bin/env bash
# Builds a PostgreSQL 15 image from Debian's packages under the name
# docker/compose.yml's season profile expects (postgres:15), for where no
# image registry is reachable (CI, tests/docker/season-swarm.sh). A real
# deployment pulls the official image instead; this one takes the same
# settings (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB; entrypoint.sh).
#
#   docker/postgres/build.sh [TAG]     (default tag: postgres:15)
#
# The root file system is Debian's postgresql-15 with its dependencies and
# a shell (dash, for the entry point),
# unpacked by mmdebstrap (`extract`: no package manager, no maintainer
# scripts) without what the server never loads (LLVM for JIT, Perl,
# translations, documentation). It is downloaded once and kept as a tar
# file in the cache directory ($SPIELLEITER_CACHE_DIR, default
# ~/.cache/spielleiter; about 200 MB) and imported from there on later
# runs, so a fresh Docker daemon gets the image in seconds.
#
# Settings from the environment: POSTGRES_SUITE (default bookworm),
# POSTGRES_MIRROR (default: the first Debian mirror of apt's sources, else
# http://deb.debian.org/debian). Needs mmdebstrap and a Docker daemon.
# Prints the tag.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tag=${1:-postgres:15}
suite=${POSTGRES_SUITE:-bookworm}
if [ -z "${POSTGRES_MIRROR:-}" ]; then
    POSTGRES_MIRROR=$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
        head -n 1 | tr -d ' ' || true)
fi
mirror=${POSTGRES_MIRROR:-http://deb.debian.org/debian}
cache=${SPIELLEITER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spielleiter}
packages=postgresql-15,dash
# What the server, initdb and pg_isready never load; only the JIT plugin
# (llvmjit.so, removed with it) links LLVM.
prune='usr/lib/x86_64-linux-gnu/libLLVM-* usr/lib/x86_64-linux-gnu/libz3.* usr/lib/postgresql/15/lib/llvmjit*
    usr/lib/postgresql/15/lib/bitcode usr/lib/x86_64-linux-gnu/perl usr/lib/x86_64-linux-gnu/perl-base
    usr/lib/x86_64-linux-gnu/libperl.* usr/share/perl usr/share/perl5 usr/share/locale usr/share/i18n
    usr/share/doc usr/share/man usr/share/info usr/lib/x86_64-linux-gnu/gconv'
hash=$(printf '%s %s %s %s' "$suite" "$packages" "$mirror" "$prune" | sha256sum | cut -c1-12)
rootfs=sl-postgres-rootfs:$hash
archive=$cache/postgres-rootfs-$hash.tar

unpacked= context=
trap 'rm -rf "$unpacked" "$context"' EXIT
if ! docker image inspect "$rootfs" >/dev/null 2>&1; then
    if [ ! -s "$archive" ]; then
        command -v mmdebstrap >/dev/null || {
            echo "docker/postgres/build.sh needs mmdebstrap (Debian: apt-get install mmdebstrap)" >&2
            exit 1
        }
        echo "== $packages from $suite ($mirror) into $archive" >&2
        mkdir -p "$cache"
        # Older archives of other package lists or mirrors are not needed.
        rm -f "$cache"/postgres-rootfs-*.tar "$cache"/postgres-rootfs-*.tar.partial
        unpacked=$(mktemp -d)
        mmdebstrap --quiet --variant=extract --include="$packages" --format=directory \
            "$suite" "$unpacked" "$mirror"
        # shellcheck disable=SC2086 # the list is of globs
        (cd "$unpacked" && rm -rf $prune)
        tar -C "$unpacked" -cf "$archive.partial" .
        mv "$archive.partial" "$archive"
    fi
    echo "== $rootfs from $archive" >&2
    docker import --change 'LABEL org.spielleiter.postgres.rootfs=debian' "$archive" "$rootfs" >&2
fi

context=$(mktemp -d)
install -m 0755 "$here/entrypoint.sh" "$context/entrypoint.sh"
mkdir -p "$context/etc" "$context/var/lib/postgresql/data" "$context/var/run/postgresql"
echo "postgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh" >"$context/etc/passwd"
echo "postgres:x:999:" >"$context/etc/group"
cat >"$context/Dockerfile" <<DOCKERFILE
FROM $rootfs
COPY etc/passwd etc/group /etc/
COPY --chown=999:999 var/ /var/
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
LABEL org.opencontainers.image.title="PostgreSQL 15 from Debian $suite (spielleiter's stand-in for the official image)"
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin PGDATA=/var/lib/postgresql/data LANG=C.UTF-8
USER 999:999
STOPSIGNAL SIGINT
EXPOSE 5432
VOLUME ["/var/lib/postgresql/data"]
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
DOCKERFILE
docker build --quiet --tag "$tag" "$context" >/dev/null
echo "$tag"
