#!/usr/bin/env bash
# The test command of the README: `npm test` runs every level; `npm test -- unit` one of them.
# Levels: unit (plain Node), container (a real Docker engine), e2e (code-server + Chromium).
# Provisioning (engine, base image, code-server, Chromium) happens here so a fresh machine needs
# nothing but `npm ci && npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

levels=("$@")
((${#levels[@]})) || levels=(lint unit container e2e)

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
  echo "=== chainlens tests: $level ==="
  case "$level" in
    lint)
      npx tsc -p . --noEmit
      npx eslint src test webview-ui bench
      npx prettier --check .
      ;;
    unit)
      run_node_tests test/unit
      ;;
    container)
      bash scripts/provision-docker.sh
      npm run --silent build
      run_node_tests test/container --test-concurrency=1
      ;;
    e2e)
      if [[ -d test/e2e ]] && find test/e2e -name '*.test.ts' | grep -q .; then
        bash scripts/provision-code-server.sh
        npm run --silent build
        run_node_tests test/e2e --test-concurrency=1
      else
        echo "no e2e tests yet"
      fi
      ;;
    *) echo "unknown test level '$level' (lint|unit|container|e2e)" >&2; exit 2 ;;
  esac
done
echo "chainlens: $passed passed, $failed failed, $skipped skipped"
