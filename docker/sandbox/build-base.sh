#!/usr/bin/env bash
# Builds the sandbox's base images, on which `spielleiter player build`
# builds teams' player images, from Debian's packages (no image registry
# needed):
#
#   docker/sandbox/build-base.sh [native] [python] [java]   (default: all three)
#
#   sl-sandbox-native:latest  glibc, libstdc++, a POSIX shell (dash): a Linux
#                             x86-64 program, static or linked to glibc
#   sl-sandbox-python:latest  Debian's Python 3 with its standard library
#   sl-sandbox-java:latest    Debian's default headless JRE
#
# Each image holds the runtime's Debian packages, unpacked but not
# configured (mmdebstrap's `extract` variant: no package manager, no
# maintainer scripts, nothing but the packages' files; so no alternatives:
# `java` is found through /usr/lib/jvm/default-java/bin on the PATH), the
# directory /var/tmp, and the relay, a
# static binary at /sandbox/relay that is every player container's first
# process (crates/sandbox-relay). The root file system of a runtime is
# imported once per package list and suite (the image
# sl-sandbox-rootfs-RUNTIME:<hash>); later runs only add the relay, which
# takes a second.
#
# Settings from the environment: SANDBOX_SUITE (default bookworm),
# SANDBOX_MIRROR (default: the first Debian mirror of apt's sources, else
# http://deb.debian.org/debian). Needs a Rust toolchain, glibc's static
# libraries (Debian: libc6-dev), mmdebstrap and a Docker daemon. Prints the
# images' tags, one a line.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
target_dir=${CARGO_TARGET_DIR:-$repo/target}
triple=$(rustc -vV | sed -n 's/^host: //p')
suite=${SANDBOX_SUITE:-bookworm}
if [ -z "${SANDBOX_MIRROR:-}" ]; then
    SANDBOX_MIRROR=$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
        head -n 1 | tr -d ' ' || true)
fi
mirror=${SANDBOX_MIRROR:-http://deb.debian.org/debian}
runtimes=("$@")
[ ${#runtimes[@]} -gt 0 ] || runtimes=(native python java)

packages_of() {
    case "$1" in
    native) echo "libc6,libgcc-s1,libstdc++6,dash" ;;
    python) echo "python3,dash" ;;
    java) echo "default-jre-headless,dash" ;;
    *)
        echo "build-base.sh: unknown runtime $1 (native, python or java)" >&2
        exit 2
        ;;
    esac
}

echo "== the relay (static, $triple, profile docker)" >&2
RUSTFLAGS="-C target-feature=+crt-static" \
    cargo build --locked --profile docker --target "$triple" -p spielleiter-sandbox-relay >&2
relay=$target_dir/$triple/docker/spielleiter-sandbox-relay

for runtime in "${runtimes[@]}"; do
    packages=$(packages_of "$runtime")
    hash=$(printf '%s %s %s' "$suite" "$packages" "$mirror" | sha256sum | cut -c1-12)
    rootfs=sl-sandbox-rootfs-$runtime:$hash
    if ! docker image inspect "$rootfs" >/dev/null 2>&1; then
        echo "== $rootfs: $packages from $suite ($mirror)" >&2
        mmdebstrap --quiet --variant=extract --include="$packages" --format=tar \
            "$suite" - "$mirror" |
            docker import --change 'LABEL org.spielleiter.sandbox.rootfs='"$runtime" - "$rootfs" >&2
    fi
    context=$target_dir/sandbox-base-$runtime
    rm -rf "$context"
    mkdir -p "$context"
    install -m 0755 "$relay" "$context/relay"
    # Debian compiles Python's standard library to bytecode in a maintainer
    # script, which the extract variant does not run; without it every
    # player start compiled each module it imports anew (the root is
    # read-only), about a second a start. Compiled once here, before the
    # relay, so that the layer is cached across relay builds.
    compile=
    if [ "$runtime" = python ]; then
        compile='RUN ["/bin/sh", "-c", "python3 -m compileall -q /usr/lib/python3*"]'
    fi
    # /var/tmp as Debian's base-files makes it (root's, mode 1777), which the
    # extract variant leaves out: programs look there for room, and in a
    # sandbox it is read-only with the rest of the root file system (the
    # hostile player's test writes there to show that the root is
    # read-only, not merely root's). A tar keeps the mode; COPY would not.
    mkdir -p "$context/stage/var/tmp"
    chmod 1777 "$context/stage/var/tmp"
    tar --create --file "$context/var-tmp.tar" --directory "$context/stage" \
        --owner=0 --group=0 --numeric-owner --mtime=@0 --no-recursion var/tmp
    rm -rf "$context/stage"
    cat >"$context/Dockerfile" <<DOCKERFILE
FROM $rootfs
$compile
ADD var-tmp.tar /
COPY relay /sandbox/relay
LABEL org.spielleiter.sandbox.relay=/sandbox/relay \\
      org.spielleiter.sandbox.runtime=$runtime \\
      org.spielleiter.sandbox.packages="$packages ($suite)"
ENV PATH=/usr/local/bin:/usr/bin:/bin:/usr/lib/jvm/default-java/bin HOME=/tmp LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
WORKDIR /player
USER 65534:65534
ENTRYPOINT ["/sandbox/relay"]
DOCKERFILE
    echo "== sl-sandbox-$runtime:latest" >&2
    docker build --quiet --network none --tag "sl-sandbox-$runtime:latest" "$context" >/dev/null
    rm -rf "$context"
    echo "sl-sandbox-$runtime:latest"
done
