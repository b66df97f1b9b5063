#!/usr/bin/env bash
# Re-check the whole demo chain for real: build the repository, check the build is reproducible
# and refuses to clobber, check the chain files are up to date, then run every Oracle / Seq
# scenario in the chain's Docker image (no network). Needs bash, git and a Docker engine.
#   demo/verify.sh            exit 0 = everything as designed (see demo/README.md)
set -euo pipefail

demo=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$demo")
image=${CHAINLENS_BASE_IMAGE:-chainlens/base:bookworm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "verify: FAILED: $*" >&2; exit 1; }

echo "== build-demo-repo.sh"
base=$("$root/scripts/build-demo-repo.sh" "$work/repo" 2>/dev/null)
again=$("$root/scripts/build-demo-repo.sh" "$work/repo" 2>/dev/null) || fail "second build into the same dir failed"
[[ $again == "$base" ]] || fail "second build reported $again, first $base"
"$root/scripts/build-demo-repo.sh" "$work/twin" >/dev/null 2>&1
[[ $(git -C "$work/twin" rev-parse HEAD) == "$base" ]] || fail "two builds gave different commits"
mkdir "$work/occupied" && echo keep > "$work/occupied/notes.txt"
if "$root/scripts/build-demo-repo.sh" "$work/occupied" >/dev/null 2>&1; then fail "build overwrote a non-empty dir"; fi
[[ $(cat "$work/occupied/notes.txt") == keep && $(ls -A "$work/occupied") == notes.txt ]] || fail "build touched a non-empty dir"
echo "base_commit $base (reproducible, idempotent, refuses a foreign non-empty dir)"

docker image inspect "$image" >/dev/null 2>&1 || fail "image $image missing: run scripts/provision-docker.sh"
echo "== in $image"
docker run --rm --network none -v "$work/repo:/src:ro" -v "$demo:/demo:ro" "$image" sh -c '
  set -e
  python3 /demo/tools/build_chain.py --repo /src --check
  python3 /demo/tools/verify_chain.py --repo /src --demo /demo'
