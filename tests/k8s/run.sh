#!/usr/bin/env bash
# Checks the Kubernetes manifests (docker/k8s/*.yaml) against the
# Kubernetes API schemas with `kubernetes-validate` from PyPI, which ships
# the schemas itself (no cluster, no network beyond PyPI). Strict: a
# misspelt field fails as much as a wrong type. Every manifest is checked
# against each Kubernetes version in $K8S_VERSIONS; first the checker is
# shown to refuse two broken copies of the workers' manifest, so a checker
# that passes everything cannot pass this test.
#
# The checker goes into a virtual environment under target/k8s/venv
# (created once with pip, reused afterwards). Needs python3 with venv and,
# the first time, PyPI. Takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=target/k8s
venv=$work/venv
python=${PYTHON:-python3}
wanted=1.37.0
# The oldest version still in wide use and the newest the checker knows.
versions=${K8S_VERSIONS:-1.30 1.37}

fail() {
    echo "k8s: $*" >&2
    exit 1
}

if ! "$venv/bin/kubernetes-validate" --version 2>/dev/null | grep -qx "$wanted"; then
    rm -rf "$venv"
    mkdir -p "$work"
    "$python" -m venv "$venv" || fail "cannot create a virtual environment with $python (Debian: python3-venv)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$wanted" ||
        fail "cannot install kubernetes-validate $wanted from PyPI"
fi
check() {
    "$venv/bin/kubernetes-validate" --strict --quiet -k "$1" "${@:2}"
}

manifests=(docker/k8s/*.yaml)
[ -e "${manifests[0]}" ] || fail "no manifests in docker/k8s"

broken=$work/broken
rm -rf "$broken"
mkdir -p "$broken"
sed 's/replicas: 3/replicas: three/' docker/k8s/workers.yaml >"$broken/wrong-type.yaml"
sed 's/terminationGracePeriodSeconds:/terminationGracePeriodSecs:/' docker/k8s/workers.yaml >"$broken/unknown-field.yaml"
for file in "$broken"/*.yaml; do
    cmp -s "$file" docker/k8s/workers.yaml && fail "$file: the breakage did not apply (workers.yaml changed?)"
    if check "${versions%% *}" "$file" >/dev/null 2>&1; then
        fail "the checker passed a broken manifest ($file)"
    fi
done

for version in $versions; do
    echo "k8s: ${manifests[*]} against Kubernetes $version"
    check "$version" "${manifests[@]}" || fail "the manifests do not validate against Kubernetes $version"
done
echo "k8s: the manifests validate"
