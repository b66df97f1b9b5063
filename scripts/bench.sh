#!/usr/bin/env bash
# `npm run bench [-- name...]`: side-by-side benchmarks, each printing ChainLens against the raw
# tool (git, docker, JSON.parse) measured in the same run. Not tests: nothing here asserts a time.
#   checkout    chainlens checkout --mode oracle --step 3 vs git clone + checkout + apply
#   base-store  chainlens checkout of a long history, first and second run of a base, vs git's copy of it
#   replay      chainlens replay --predictions gold of 5 and 20 steps vs git apply + add + commit per step
#   eval-step   `chainlens eval --steps 1` (the CLI process) vs `git archive | docker run -i` / `docker run`
#   cli-start   `chainlens --help` and `chainlens status` vs `node -e 0`
#   analysis    chainlens analyze of a 200-file, 5,000-hunk patch pair vs web-tree-sitter parsing the same versions
#   decorations drawing annotations on a 10,000-line file in code-server vs setDecorations itself
#   trajectory  `chainlens trajectory` on a 100 MB trajectory (time, peak RSS) vs node -e JSON.parse(readFileSync)
#   viewer      the trajectory viewer's first render (100 MiB) and activation in code-server
#   batch       chainlens batch, 36 steps on --workers 2, vs docker run of the same through xargs -P 2
set -euo pipefail
cd "$(dirname "$0")/.."
names=("$@")
((${#names[@]})) || names=(checkout eval-step cli-start analysis decorations trajectory)
npm run --silent build
for name in "${names[@]}"; do
  echo "=== bench: $name ==="
  case "$name" in
    checkout) node --import tsx bench/checkout.ts ;;
    base-store) node --import tsx bench/base-store.ts ;;
    replay) node --import tsx bench/replay.ts ;;
    eval-step) bash scripts/provision-docker.sh && node --import tsx bench/eval-step.ts ;;
    cli-start) node --import tsx bench/cli-start.ts ;;
    analysis) node --import tsx bench/analysis.ts ;;
    decorations) bash scripts/provision-code-server.sh && node --import tsx bench/decorations.ts ;;
    trajectory) node --import tsx bench/trajectory-load.ts ;;
    viewer) bash scripts/provision-code-server.sh && node --import tsx bench/viewer.ts ;;
    batch) bash scripts/provision-docker.sh && node --import tsx bench/batch.ts ;;
    *) echo "unknown benchmark '$name' (checkout|base-store|replay|eval-step|cli-start|analysis|decorations|trajectory|viewer|batch)" >&2; exit 2 ;;
  esac
done
