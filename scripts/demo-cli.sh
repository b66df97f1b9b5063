#!/usr/bin/env bash
# `npm run demo:cli`: the main job headless, through the CLI on the built-in demo chain.
# Builds the demo repository, evaluates the chain with the recorded agent's patches in Oracle and
# in Seq mode (a real container per step), and compares the two: step 2 is a chain error, because
# the agent's step 1 left part of bug 1 unfixed. Everything goes under .cache/demo-cli/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="${CHAINLENS_CACHE:-$repo/.cache}/demo-cli"
bash "$repo/scripts/provision-docker.sh"
npm --prefix "$repo" run --silent build
rm -rf "$out" && mkdir -p "$out"
bash "$repo/scripts/build-demo-repo.sh" "$out/invoicekit" >/dev/null
cli() { node "$repo/dist/cli.js" "$@"; }
cli validate "$repo/demo/chain.json"
for mode in oracle seq; do
  echo; echo "== $mode mode, steps authored by demo/predictions-undershoot.jsonl =="
  cli eval "$repo/demo/chain.json" --repo "$out/invoicekit" --dir "$out/$mode" --mode "$mode" \
    --predictions "$repo/demo/predictions-undershoot.jsonl" --report "$out/$mode.json"
done
echo; echo "== Oracle vs Seq =="
cli compare "$out/oracle.json" "$out/seq.json"
echo; echo "work trees, logs and reports: $out"
