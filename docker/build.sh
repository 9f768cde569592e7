#!/usr/bin/env bash
# Builds the container image `spielleiter:<version>` (also tagged
# `spielleiter:latest`) from this checkout, with nothing to pull:
#
#   docker/build.sh
#
# 1. compiles a static binary (glibc linked in, `crt-static`) with the
#    `docker` cargo profile (the release profile without symbols) for the
#    host's linux-gnu target, without PNG output (`render` writes SVG), into
#    target/<triple>/docker/; cargo rebuilds nothing when nothing changed;
# 2. puts it and an empty replay directory into target/docker-context/ with
#    docker/Dockerfile, and builds the `FROM scratch` image from that.
#
# Needs a Rust toolchain, glibc's static libraries (Debian: libc6-dev) and a
# Docker daemon. Prints the image's tag on the last line.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
target_dir=${CARGO_TARGET_DIR:-$repo/target}
triple=$(rustc -vV | sed -n 's/^host: //p')
case "$triple" in
*-linux-gnu) ;;
*)
    echo "docker/build.sh: needs a linux-gnu host, this is $triple" >&2
    exit 1
    ;;
esac

echo "== static binary ($triple, profile docker)" >&2
# With --target, RUSTFLAGS apply to the binary only, not to build scripts.
# Without the default feature `png`: the server draws its boards as SVG, and
# the PNG rasteriser with its text shaping would add about 4 MB.
RUSTFLAGS="-C target-feature=+crt-static" \
    cargo build --locked --profile docker --target "$triple" -p spielleiter \
    --no-default-features >&2
binary=$target_dir/$triple/docker/spielleiter
version=$("$binary" --version | awk '{print $2}')

context=$target_dir/docker-context
rm -rf "$context"
mkdir -p "$context/data/replays"
cp "$binary" "$context/spielleiter"
cp docker/Dockerfile "$context/Dockerfile"

echo "== image spielleiter:$version" >&2
docker build --quiet --build-arg "VERSION=$version" \
    --tag "spielleiter:$version" --tag spielleiter:latest "$context" >&2
echo "spielleiter:$version"
