#!/usr/bin/env bash
# The test command of the README: `npm test` runs every level; `npm test -- unit` one of them.
# Levels: lint, unit (plain Node), cli (every command of the built CLI as a process: a build, a real
# Docker engine), container (a real Docker engine), e2e (code-server + Chromium).
# Provisioning (engine, base image, code-server, Chromium) happens here so a fresh machine needs
# nothing but `npm ci && npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

levels=("$@")
((${#levels[@]})) || levels=(lint unit cli container e2e)

# Totals over every level, for the closing line.
passed=0 failed=0 skipped=0
summary=$(mktemp)
# ChainLens keeps each work tree's run state in a per-user data directory (docs/run-state.md): the
# tests' work trees get a throw-away one, shared by every level (the e2e VS Code inherits it).
if [[ -z ${CHAINLENS_DATA:-} ]]; then
  CHAINLENS_DATA=$(mktemp -d "${TMPDIR:-/tmp}/chainlens-test-data-XXXXXX")
  export CHAINLENS_DATA
  data_dir_owned=1
fi
trap 'rm -f "$summary"; if [[ -n ${data_dir_owned:-} ]]; then rm -rf "$CHAINLENS_DATA"; fi' EXIT

run_node_tests() {
  local dir=$1; shift
  mapfile -t files < <(find "$dir" -name '*.test.ts' | sort)
  if ((${#files[@]} == 0)); then echo "no tests in $dir" >&2; return 1; fi
  local status=0
  node --import tsx --test --test-reporter=spec "$@" "${files[@]}" | tee "$summary" || status=$?
  # A runner killed before its summary prints no counts: count nothing, and fail on its status
  # (an empty count in $((...)) would abort the loop and let the script exit 0).
  local p f s
  p=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$summary" | tail -1)
  f=$(sed -n 's/^ℹ fail \([0-9]*\)$/\1/p' "$summary" | tail -1)
  s=$(sed -n 's/^ℹ skipped \([0-9]*\)$/\1/p' "$summary" | tail -1)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  skipped=$((skipped + ${s:-0}))
  if [[ -z $p && $status -eq 0 ]]; then
    echo "the test runner for $dir printed no summary" >&2
    status=1
  fi
  return $status
}

for level in "${levels[@]}"; do
  case "$level" in
    lint | unit | cli | container | e2e) ;;
    *) echo "unknown test level '$level' (lint|unit|cli|container|e2e)" >&2; exit 2 ;;
  esac
done

run_level() {
  case "$1" in
    lint)
      npx tsc -p . --noEmit &&
        npx eslint src test webview-ui bench &&
        npx prettier --check .
      ;;
    unit)
      bash scripts/provision-python.sh &&
        run_node_tests test/unit
      ;;
    cli)
      bash scripts/provision-docker.sh &&
        npm run --silent build &&
        run_node_tests test/cli --test-concurrency=1
      ;;
    container)
      bash scripts/provision-docker.sh &&
        npm run --silent build &&
        run_node_tests test/container --test-concurrency=1
      ;;
    e2e)
      bash scripts/provision-code-server.sh &&
        npm run --silent build &&
        run_node_tests test/e2e --test-concurrency=1
      ;;
  esac
}

# A level that fails stops the run (later levels would only repeat its cause), and the closing
# line is printed either way: the counts so far and the level that failed, exit 1.
failed_level=
for level in "${levels[@]}"; do
  echo "=== chainlens tests: $level ==="
  # `set -e` does not hold inside a function called in a condition: each step is chained with &&.
  if ! run_level "$level"; then
    failed_level=$level
    break
  fi
done
if [[ -n $failed_level ]]; then
  echo "chainlens: $passed passed, $failed failed, $skipped skipped; level '$failed_level' failed"
  exit 1
fi
echo "chainlens: $passed passed, $failed failed, $skipped skipped"
