#!/usr/bin/env bash
# `npm run demo:batch`: the demo chain as a batch: the recorded agent's predictions and gold, in
# Oracle and Seq mode, two steps at a time, then the report. Everything goes under
# .cache/demo-batch/ (run directory: .cache/demo-batch/run; `chainlens report` reads it again).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="${CHAINLENS_CACHE:-$repo/.cache}/demo-batch"
bash "$repo/scripts/provision-docker.sh"
npm --prefix "$repo" run --silent build
rm -rf "$out" && mkdir -p "$out"
bash "$repo/scripts/build-demo-repo.sh" "$out/invoicekit" >/dev/null
node "$repo/dist/cli.js" batch "$repo/demo/chain.json" --run-dir "$out/run" --repo "$out/invoicekit" \
  --predictions "agent=$repo/demo/predictions-undershoot.jsonl" --predictions gold --workers 2
echo; echo "run directory: $out/run  (chainlens report $out/run --html report.html)"
