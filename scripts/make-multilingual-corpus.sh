#!/usr/bin/env bash
# Regenerate the multilingual eval-log corpus in test/fixtures/logs/multilingual/corpus/: small
# real projects (test/fixtures/logs/multilingual/projects) tested by real runners (go test, cargo,
# jest, vitest, mocha, Maven + JUnit, PHPUnit, minitest, test-unit, RSpec, GoogleTest under CTest,
# doctest) in toolchain images built from Debian packages, under the SWE-bench harness's eval-script
# wrapping for non-Python repositories (make_eval_script_list_common + the v5 exit-code lines),
# with failures, skips and build errors injected by real patches. Each case writes
#   <case>.log      the whole eval log, as the harness's test_output.txt holds it
#   <case>.eval.sh  the eval script that produced it
# Expected results are not written here: scripts/harness-truth.py runs the harness's own parsers
# on these logs (see test/fixtures/logs/multilingual/README.md). Run on demand, not in CI.
# Usage: bash scripts/make-multilingual-corpus.sh [case ...]   (default: every case)
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT=test/fixtures/logs/multilingual
PROJECTS=$ROOT/projects
OUT=$ROOT/corpus
HEREDOC=EOF_114329324912 # the harness's heredoc delimiter
START=">>>>> Start Test Output"
END=">>>>> End Test Output"
VITEST_VERSION=1.6.1
# Debian's mocha prints "undefined" for its ✔ marks (its log-symbols is ESM-only), so mocha comes from npm too.
MOCHA_VERSION=10.8.2

log() { echo "[make-multilingual-corpus] $*" >&2; }

bash scripts/provision-docker.sh
mkdir -p "$OUT"

# build_image LANG: chainlens-corpus/LANG:dev from test/fixtures/logs/multilingual/images/LANG.
build_image() {
  local lang=$1 ctx=$ROOT/images/$1
  if [[ $lang == js ]]; then
    # Debian packages jest but not vitest (and a broken mocha): install those on the host, copy them in.
    ctx=$(mktemp -d)
    cp "$ROOT/images/js/Dockerfile" "$ctx/"
    (cd "$ctx" && echo '{"private":true}' > package.json &&
      npm install --no-audit --no-fund --ignore-scripts "vitest@$VITEST_VERSION" "mocha@$MOCHA_VERSION" >/dev/null)
  fi
  log "building chainlens-corpus/$lang:dev"
  docker build -q -t "chainlens-corpus/$lang:dev" "$ctx" >/dev/null
  [[ $lang == js ]] && rm -rf "$ctx"
  return 0
}
declare -A BUILT=()
ensure_image() {
  [[ -n ${BUILT[$1]:-} ]] || { build_image "$1"; BUILT[$1]=1; }
}

# Files a patch modifies (its a/ paths), as the harness's get_modified_files reads them.
modified_files() { sed -n 's|^--- a/\(.*\)$|\1|p' "$1"; }

# eval_script WRAPPING(v4|v5) BASE TEST_PATCH TEST_CMDS BUILD_CMDS: the harness's eval script for a
# non-Python repository (test_spec/utils.py make_eval_script_list_common; v5 adds the exit code).
eval_script() {
  local wrapping=$1 base=$2 patch=$3 cmds=$4 build=$5 files reset
  files=$(modified_files "$patch" | tr '\n' ' ')
  if [[ -n ${files// /} ]]; then reset="git checkout $base ${files% }"; else reset='echo "No test files to reset"'; fi
  echo '#!/bin/bash'
  echo 'set -uxo pipefail'
  echo 'cd /testbed'
  echo 'git config --global --add safe.directory /testbed'
  echo 'cd /testbed'
  echo "$reset"
  printf "git apply --verbose --reject - <<'%s'\n%s\n%s\n" "$HEREDOC" "$(cat "$patch")" "$HEREDOC"
  [[ -n $build ]] && printf '%s\n' "$build"
  echo ": '$START'"
  printf '%s\n' "$cmds"
  [[ $wrapping == v5 ]] && echo 'SWEBENCH_TEST_EXIT_CODE=$?'
  echo ": '$END'"
  [[ $wrapping == v5 ]] && echo 'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"'
  echo "$reset"
}

# capture CASE LANG PROJECT WRAPPING MODEL_PATCH TEST_CMDS [BUILD_CMDS]
capture() {
  local name=$1 lang=$2 cid
  log "case $name"
  ensure_image "$lang"
  cid=$(docker run -d --network none --label chainlens.corpus=1 "chainlens-corpus/$lang:dev" sleep 1800)
  capture_in "$cid" "$@" || true
  docker rm -f "$cid" >/dev/null
}

capture_in() {
  local cid=$1 name=$2 project=$4 wrapping=$5 model=$6 cmds=$7 build=${8:-} dir=$PROJECTS/$4 base out
  tar -C "$dir/base" -c . | docker exec -i "$cid" bash -c 'mkdir -p /testbed && tar -x -C /testbed'
  # The image's part (the harness's install steps): the project's setup, then one base commit.
  if [[ -f $dir/setup.sh ]]; then docker exec -i "$cid" bash -c 'cd /testbed && bash -s' < "$dir/setup.sh" >/dev/null; fi
  # A fixed date makes the base commit's hash, which the eval script names, the same on every run.
  docker exec -e GIT_AUTHOR_DATE=2000-01-01T00:00:00Z -e GIT_COMMITTER_DATE=2000-01-01T00:00:00Z "$cid" \
    bash -c 'cd /testbed && git init -q && git add -A && git -c user.name=corpus -c user.email=corpus@localhost commit -qm base'
  base=$(docker exec "$cid" git -C /testbed rev-parse HEAD)
  # The runner's part before eval.sh: the model patch (git apply, then --3way, then patch).
  if [[ -n $model ]]; then
    docker exec -i "$cid" bash -c 'cat > /tmp/patch.diff' < "$dir/patches/$model"
    if ! out=$(docker exec "$cid" bash -c "cd /testbed && { git apply --verbose /tmp/patch.diff || git apply --verbose --3way /tmp/patch.diff || patch --batch --forward --fuzz=5 -p1 -i /tmp/patch.diff; }" 2>&1); then
      printf '%s:\n%s\n' '>>>>> Patch Apply Failed' "$out" > "$OUT/$name.log"
      return 0
    fi
  fi
  eval_script "$wrapping" "$base" "$dir/patches/test.diff" "$cmds" "$build" > "$OUT/$name.eval.sh"
  docker exec -i "$cid" bash -c 'cat > /eval.sh' < "$OUT/$name.eval.sh"
  docker exec "$cid" bash -c '/bin/bash /eval.sh > /tmp/test_output.txt 2>&1' || true
  docker cp "$cid:/tmp/test_output.txt" "$OUT/$name.log" >/dev/null
}

GO_CMD='go test -v ./...'
CARGO_CMD='cargo test --offline --no-fail-fast'
JEST_VERBOSE='./node_modules/.bin/jest --verbose --no-color __tests__'
# The harness's JEST_JSON_JQ_TRANSFORM (constants/javascript.py), as immutable-js runs it.
JEST_JSON="./node_modules/.bin/jest __tests__ --silent --json | jq -r '.testResults[].assertionResults[] | \"[\" + (.status | ascii_upcase) + \"] \" + ((.ancestorTitles | join(\" > \")) + (if .ancestorTitles | length > 0 then \" > \" else \"\" end) + .title)'"
VITEST='./node_modules/.bin/vitest run vitest/ --no-watch --reporter=verbose'
MOCHA_SPEC='./node_modules/.bin/mocha test/mocha/strings.spec.cjs'
MOCHA_TAP='./node_modules/.bin/mocha test/mocha/strings.spec.cjs -R tap'
MOCHA_MIN='./node_modules/.bin/mocha test/mocha/strings.spec.cjs --reporter min'
# prism's command, which its parser looks for, then the one lighthouse's JSON branch looks for.
# One Maven run per test, as the harness's Java specs do (its parser credits each BUILD result to a -Dtest= trace line).
MAVEN_CMDS=$(for t in addsTwoNumbers dividesTowardsZero percentOfHundred percentRoundsDown divideByZeroThrows percentOfHugeTotals noSuchTest; do
  echo "mvn -B test -Dtest=corpus.CalcTest#$t"
done)
PHPUNIT='phpunit --testdox --colors=never tests/MoneyTest.php
phpunit --testdox --colors=never tests/FormatTest.php'
MINITEST='ruby -Ilib -Itest test/test_inventory.rb -v'
TEST_UNIT='ruby -Ilib test/tc_inventory.rb -v'
# fpm's and rubocop's RSpec commands: JSON turned into "description - status" lines by jq.
RSPEC_FPM="rspec -Ilib spec/inventory_spec.rb --no-color --format json | sed -n '/^{/,\$p' | jq -r '.examples[] | \"\\(.description) - \\(.status)\"'"
RSPEC_RUBOCOP="rspec -Ilib spec/inventory_spec.rb --no-color --format json | sed -n '/^{/,\$p' | jq -r '.examples | group_by(.description) | .[] | if any(select(.status == \"failed\")) then (.[0] | \"\\(.description) - failed\") else (.[0] | \"\\(.description) - \\(.status)\") end'"
# fmt's shape: build one test target, run it under ctest -V; nlohmann/json's: run a doctest binary with -s -r=xml.
GTEST_BUILD='mkdir -p build
cmake -B build -S .
cmake --build build --parallel $(nproc) --target ranges-test'
GTEST_CMD='ctest --test-dir build -V -R ranges-test'
DOCTEST_BUILD='mkdir -p build
cd build
cmake ..
make test-udt
cd ..'
DOCTEST_CMD='./build/test-udt -s -r=xml'
MOCHA_JSON='./node_modules/.bin/mocha tests/run.js --reporter json
./node_modules/.bin/mocha --reporter json tests/run.js'

run_case() {
  case $1 in
    go-gold-v5) capture "$1" go go v5 gold.diff "$GO_CMD" ;;
    go-bug-v5) capture "$1" go go v5 bug.diff "$GO_CMD" ;;
    go-bug-v4) capture "$1" go go v4 bug.diff "$GO_CMD" ;;
    go-build-error-v5) capture "$1" go go v5 break.diff "$GO_CMD" ;;
    cargo-gold-v5) capture "$1" rust rust v5 gold.diff "$CARGO_CMD" ;;
    cargo-bug-v5) capture "$1" rust rust v5 bug.diff "$CARGO_CMD" ;;
    cargo-bug-v4) capture "$1" rust rust v4 bug.diff "$CARGO_CMD" ;;
    cargo-compile-error-v5) capture "$1" rust rust v5 break.diff "$CARGO_CMD" ;;
    jest-verbose-bug-v5) capture "$1" js js v5 bug.diff "$JEST_VERBOSE" ;;
    jest-verbose-gold-v4) capture "$1" js js v4 gold.diff "$JEST_VERBOSE" ;;
    jest-json-bug-v5) capture "$1" js js v5 bug.diff "$JEST_JSON" ;;
    jest-syntax-error-v5) capture "$1" js js v5 break.diff "$JEST_VERBOSE" ;;
    vitest-bug-v5) capture "$1" js js v5 bug.diff "$VITEST" ;;
    vitest-gold-v5) capture "$1" js js v5 gold.diff "$VITEST" ;;
    mocha-spec-bug-v5) capture "$1" js js v5 bug.diff "$MOCHA_SPEC" ;;
    mocha-tap-bug-v5) capture "$1" js js v5 bug.diff "$MOCHA_TAP" ;;
    mocha-min-bug-v5) capture "$1" js js v5 bug.diff "$MOCHA_MIN" ;;
    mocha-json-bug-v5) capture "$1" js js v5 bug.diff "$MOCHA_JSON" ;;
    mocha-syntax-error-v5) capture "$1" js js v5 break.diff "$MOCHA_SPEC" ;;
    maven-gold-v5) capture "$1" java java v5 gold.diff "$MAVEN_CMDS" ;;
    maven-bug-v5) capture "$1" java java v5 bug.diff "$MAVEN_CMDS" ;;
    maven-bug-v4) capture "$1" java java v4 bug.diff "$MAVEN_CMDS" ;;
    maven-compile-error-v5) capture "$1" java java v5 break.diff "$MAVEN_CMDS" ;;
    phpunit-bug-v5) capture "$1" php php v5 bug.diff "$PHPUNIT" ;;
    phpunit-gold-v5) capture "$1" php php v5 gold.diff "$PHPUNIT" ;;
    phpunit-parse-error-v5) capture "$1" php php v5 break.diff "$PHPUNIT" ;;
    minitest-bug-v5) capture "$1" ruby ruby v5 bug.diff "$MINITEST" ;;
    minitest-gold-v5) capture "$1" ruby ruby v5 gold.diff "$MINITEST" ;;
    test-unit-bug-v5) capture "$1" ruby ruby v5 bug.diff "$TEST_UNIT" ;;
    rspec-fpm-bug-v5) capture "$1" ruby ruby v5 bug.diff "$RSPEC_FPM" ;;
    rspec-rubocop-bug-v5) capture "$1" ruby ruby v5 bug.diff "$RSPEC_RUBOCOP" ;;
    ruby-syntax-error-v5) capture "$1" ruby ruby v5 break.diff "$MINITEST" ;;
    gtest-bug-v5) capture "$1" cpp cpp v5 bug.diff "$GTEST_CMD" "$GTEST_BUILD" ;;
    gtest-gold-v5) capture "$1" cpp cpp v5 gold.diff "$GTEST_CMD" "$GTEST_BUILD" ;;
    gtest-compile-error-v5) capture "$1" cpp cpp v5 break.diff "$GTEST_CMD" "$GTEST_BUILD" ;;
    doctest-bug-v5) capture "$1" cpp cpp v5 bug.diff "$DOCTEST_CMD" "$DOCTEST_BUILD" ;;
    doctest-gold-v5) capture "$1" cpp cpp v5 gold.diff "$DOCTEST_CMD" "$DOCTEST_BUILD" ;;
    *) echo "unknown case '$1'" >&2; return 2 ;;
  esac
}

ALL=(go-gold-v5 go-bug-v5 go-bug-v4 go-build-error-v5
  cargo-gold-v5 cargo-bug-v5 cargo-bug-v4 cargo-compile-error-v5
  jest-verbose-bug-v5 jest-verbose-gold-v4 jest-json-bug-v5 jest-syntax-error-v5 vitest-bug-v5 vitest-gold-v5
  mocha-spec-bug-v5 mocha-tap-bug-v5 mocha-min-bug-v5 mocha-json-bug-v5 mocha-syntax-error-v5
  maven-gold-v5 maven-bug-v5 maven-bug-v4 maven-compile-error-v5
  phpunit-bug-v5 phpunit-gold-v5 phpunit-parse-error-v5
  minitest-bug-v5 minitest-gold-v5 test-unit-bug-v5 rspec-fpm-bug-v5 rspec-rubocop-bug-v5 ruby-syntax-error-v5
  gtest-bug-v5 gtest-gold-v5 gtest-compile-error-v5 doctest-bug-v5 doctest-gold-v5)
cases=("$@")
((${#cases[@]})) || cases=("${ALL[@]}")
for c in "${cases[@]}"; do run_case "$c"; done
log "done: $(du -sh "$OUT" | cut -f1) in $OUT"
