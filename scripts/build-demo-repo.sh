#!/usr/bin/env bash
# Build the demo chain's repository (chainlens-demo/invoicekit) from demo/repo-base/.
#
#   scripts/build-demo-repo.sh <dir>      prints the base commit hash on stdout
#
# Deterministic: fixed names, emails, dates and file modes, and no user or system git
# configuration, so base_commit is the same hash on every machine (demo/chain.json relies on it).
# Idempotent: a <dir> that already holds the repository is left alone; a non-empty <dir> holding
# anything else is refused, never overwritten. No network.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/demo/repo-base"
log() { echo "[build-demo-repo] $*" >&2; }
die() { log "error: $*"; exit 1; }

(($# == 1)) || die "usage: scripts/build-demo-repo.sh <dir>"
dest=$1
[[ -d $src/invoicekit ]] || die "demo sources not found at $src"

# Paths held back from the first commit: they arrive with the 1.0.0 release commit.
LATER=(README.md CHANGELOG.md invoicekit/importer.py tests/test_importer.py)

# git with no global/system config (no signing, hooks, autocrlf or templates from the user).
g() {
  GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git \
    -c core.autocrlf=false -c core.fileMode=true -c commit.gpgSign=false "$@"
}

commit_as_maintainer() { # <repo> <date> <message>
  GIT_AUTHOR_NAME="Mara Lindqvist" GIT_AUTHOR_EMAIL="mara@invoicekit.example" GIT_AUTHOR_DATE="$2" \
  GIT_COMMITTER_NAME="Mara Lindqvist" GIT_COMMITTER_EMAIL="mara@invoicekit.example" GIT_COMMITTER_DATE="$2" \
    g -C "$1" commit -q --no-verify -m "$3"
}

build_into() { # <new dir>: the whole history, HEAD = base commit
  local dir=$1
  mkdir -p "$dir"
  cp -R "$src/." "$dir/"
  # Caches a local pytest run may have left in repo-base, and modes that differ between checkouts.
  find "$dir" \( -name __pycache__ -o -name '*.pyc' -o -name .pytest_cache -o -name .benchmarks \
    -o -name .mypy_cache -o -name .ruff_cache \) -prune -exec rm -rf {} +
  find "$dir" -type f -exec chmod 644 {} +
  g -c init.defaultBranch=main init -q "$dir"
  local exclude=()
  for path in "${LATER[@]}"; do exclude+=(":(exclude)$path"); done
  g -C "$dir" add -A -- . "${exclude[@]}"
  commit_as_maintainer "$dir" "2024-02-12T10:00:00+0000" "Initial import of invoicekit 0.9.0"
  g -C "$dir" add -A
  commit_as_maintainer "$dir" "2024-03-01T16:30:00+0000" "Add CSV import; release 1.0.0"
}

head_of() { g -C "$1" rev-parse -q --verify HEAD 2>/dev/null || true; }

if [[ -e $dest && ! -d $dest ]]; then
  die "$dest exists and is not a directory"
fi

if [[ -d $dest && -n "$(ls -A "$dest")" ]]; then
  # Non-empty: only accept it if it is this very repository (its own top level, not a parent's).
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  build_into "$scratch/repo"
  want=$(head_of "$scratch/repo")
  top=$(g -C "$dest" rev-parse --show-toplevel 2>/dev/null || true)
  if [[ -n $top && $(cd "$top" && pwd -P) == $(cd "$dest" && pwd -P) ]]; then
    have=$(head_of "$dest")
    if [[ $have == "$want" ]]; then
      log "$dest already holds the demo repository at $want; nothing to do"
      echo "$want"
      exit 0
    fi
    if g -C "$dest" merge-base --is-ancestor "$want" HEAD 2>/dev/null; then
      log "$dest holds the demo repository and HEAD has moved on from base $want; leaving it alone"
      echo "$want"
      exit 0
    fi
  fi
  die "$dest is not empty and does not hold the demo repository (base $want); refusing to overwrite it. Pick another directory or remove it yourself."
fi

# Missing or empty: build beside it and rename into place, so a failure leaves nothing half-built.
parent=$(dirname "$dest")
mkdir -p "$parent"
staging=$(mktemp -d "$parent/.build-demo-repo.XXXXXX")
trap 'rm -rf "$staging"' EXIT
build_into "$staging/repo"
[[ -d $dest ]] && rmdir "$dest"
mv "$staging/repo" "$dest"
head=$(head_of "$dest")
log "built $dest at $head"
echo "$head"
