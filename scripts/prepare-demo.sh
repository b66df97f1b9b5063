#!/usr/bin/env bash
# Everything the demo needs on disk, for `npm start` (and its test): no Docker, no code-server.
#
#   scripts/prepare-demo.sh <workspace>
#
# 1. the demo repository at base in <workspace>, with the chain file, the demo agent's
#    predictions and its trajectory of step 1 beside the sources (git-ignored locally, so they
#    never count as changes of a step);
# 2. the repository demo/study.json names (../.cache/demo-repo, beside demo/), so Study Results
#    and `chainlens study` work on the demo study.
# Idempotent: what is already built is left alone.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
(($# == 1)) || { echo "usage: scripts/prepare-demo.sh <workspace>" >&2; exit 2; }
workspace=$1
log() { echo "[prepare-demo] $*" >&2; }

base=$(bash "$repo/scripts/build-demo-repo.sh" "$workspace")
log "demo repository in $workspace (base commit ${base:0:12})"
# demo/study.json names its repository ../.cache/demo-repo (beside demo/, whatever CHAINLENS_CACHE
# says): Study Results and `chainlens study` on the demo study read it there.
bash "$repo/scripts/build-demo-repo.sh" "$repo/.cache/demo-repo" >/dev/null
log "demo study repository in $repo/.cache/demo-repo (demo/study.json)"

# The chain and predictions sit in the work tree for Open Chain to find, excluded from git so the
# engine never stashes or commits them.
install_beside() { # <source> <name>
  if ! cmp -s "$1" "$workspace/$2"; then cp "$1" "$workspace/$2"; fi
  grep -qxF "/$2" "$workspace/.git/info/exclude" 2>/dev/null || echo "/$2" >>"$workspace/.git/info/exclude"
}
mkdir -p "$workspace/.git/info"
install_beside "$repo/demo/chain.json" invoicekit.chain.json
install_beside "$repo/demo/predictions-undershoot.jsonl" demo-agent.predictions.jsonl
install_beside "$repo/demo/trajectories/chainlens-demo__invoicekit-101.traj.json" demo-agent.traj.json
