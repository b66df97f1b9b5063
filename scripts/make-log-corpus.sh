#!/usr/bin/env bash
# Regenerate the eval-log corpus in test/fixtures/logs/corpus/: real test suites (Debian's pydicom
# and sympy, Django's runner, CPython's unittest suites) run in containers under SWE-bench's exact
# eval-script wrapping, with library failures injected by real patches. Each case writes
#   <case>.log         the whole eval log, as the harness's test_output.txt holds it
#   <case>.eval.sh     the eval script that produced it
#   <case>.truth.json  (pytest cases) every test's outcome from pytest's own reports, not the log
# Usage: bash scripts/make-log-corpus.sh [case ...]   (default: every case)
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGES=test/fixtures/logs/images
PATCHES=$IMAGES/corpus/patches
OUT=test/fixtures/logs/corpus
IMAGE=${CHAINLENS_CORPUS_IMAGE:-chainlens/log-corpus:bookworm}
HEREDOC=EOF_114329324912   # SWE-bench's heredoc delimiter
START=">>>>> Start Test Output"
END=">>>>> End Test Output"

log() { echo "[make-log-corpus] $*" >&2; }

bash scripts/provision-docker.sh
log "building $IMAGE"
docker build -q -t "$IMAGE" "$IMAGES" >/dev/null
mkdir -p "$OUT"

# Files a patch touches (its b/ paths), as SWE-bench's get_modified_files reads them.
patched_files() { sed -n 's|^diff --git a/[^ ]* b/\(.*\)$|\1|p' "$@"; }

# eval_script REPO WRAPPING(v4|v5) TEST_CMD [TEST_PATCH ...]: SWE-bench's eval.sh for a python repo.
eval_script() {
  local repo=$1 wrapping=$2 cmd=$3; shift 3
  local files="" p
  (($#)) && files=$(patched_files "$@" | tr '\n' ' ')
  echo '#!/bin/bash'
  echo 'set -uxo pipefail'
  echo "cd /testbed/$repo"
  echo "export PYTHONPATH=/testbed/$repo"   # stands in for `conda activate testbed`
  echo 'git status'
  echo 'git log -1 --oneline'
  echo 'git -c core.fileMode=false diff HEAD'
  [[ -n $files ]] && echo "git checkout HEAD $files"
  for p in "$@"; do printf "git apply -v - <<'%s'\n%s\n%s\n" "$HEREDOC" "$(cat "$p")" "$HEREDOC"; done
  echo ": '$START'"
  echo "$cmd"
  [[ $wrapping == v5 ]] && echo 'SWEBENCH_TEST_EXIT_CODE=$?'
  echo ": '$END'"
  [[ $wrapping == v5 ]] && echo 'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"'
  [[ -n $files ]] && echo "git checkout HEAD $files"
  return 0
}

# capture CASE REPO WRAPPING 'MODEL_PATCHES' 'TEST_PATCHES' TEST_CMD [TRUTH_PYTEST_ARGS] [TIMEOUT_S]
capture() {
  local name=$1 repo=$2 wrapping=$3 model=$4 tests=$5 cmd=$6 truth=${7:-} timeout=${8:-}
  local dest=$OUT/$name.log cid p out
  log "case $name"
  local test_patches=()
  for p in $tests; do test_patches+=("$PATCHES/$p"); done
  eval_script "$repo" "$wrapping" "$cmd" "${test_patches[@]}" > "$OUT/$name.eval.sh"
  cid=$(docker run -d --network none --label chainlens.corpus=1 "$IMAGE" sleep 600)
  # The runner's part before eval.sh: apply the model patch (git apply, then --3way, then patch).
  for p in $model; do
    docker exec -i "$cid" bash -c 'cat > /tmp/patch.diff' < "$PATCHES/$p"
    if ! out=$(docker exec "$cid" bash -c "cd /testbed/$repo && { git apply --verbose /tmp/patch.diff || git apply --verbose --3way /tmp/patch.diff || patch --batch --forward --fuzz=5 -p1 -i /tmp/patch.diff; }" 2>&1); then
      printf '%s:\n%s\n' '>>>>> Patch Apply Failed' "$out" > "$dest"
      docker rm -f "$cid" >/dev/null
      return 0
    fi
  done
  docker exec -i "$cid" bash -c 'cat > /eval.sh' < "$OUT/$name.eval.sh"
  if [[ -n $timeout ]]; then
    docker exec "$cid" bash -c "timeout -s KILL $timeout /bin/bash /eval.sh > /tmp/test_output.txt 2>&1; echo \$? > /tmp/rc" || true
    docker cp "$cid:/tmp/test_output.txt" "$dest" >/dev/null
    if [[ $(docker exec "$cid" cat /tmp/rc) == 137 ]]; then printf '\n\nTimeout error: %s seconds exceeded.' "$timeout" >> "$dest"; fi
  else
    docker exec "$cid" bash -c '/bin/bash /eval.sh > /tmp/test_output.txt 2>&1' || true
    docker cp "$cid:/tmp/test_output.txt" "$dest" >/dev/null
  fi
  if [[ -n $truth ]]; then
    docker exec "$cid" bash -c "cd /testbed/$repo && CORPUS_TRUTH=/tmp/truth.json PYTHONPATH=/testbed/$repo:/corpus python3 -m pytest -p truth_plugin -p no:cacheprovider -q $truth >/dev/null 2>&1; cat /tmp/truth.json" > "$OUT/$name.truth.json"
  fi
  docker rm -f "$cid" >/dev/null
}

# The runner's reset failing (the base commit is not in the image's repo).
capture_reset_failure() {
  local name=$1 cid out
  log "case $name"
  cid=$(docker run -d --network none --label chainlens.corpus=1 "$IMAGE" sleep 600)
  out=$(docker exec "$cid" bash -c 'cd /testbed/pydicom && git checkout -q 0123456789abcdef0123456789abcdef01234567 -- .' 2>&1) || true
  printf '%s:\n%s\n' '>>>>> Reset Failed' "$out" > "$OUT/$name.log"
  docker rm -f "$cid" >/dev/null
}

PYDICOM_SUBSET="pydicom/tests/test_corpus_pydicom.py pydicom/tests/test_valuerep.py::TestPersonName pydicom/tests/test_tag.py::TestBaseTag"
SYMPY_FILES="sympy/utilities/tests/test_corpus_sympy.py sympy/utilities/tests/test_iterables.py"

run_case() {
  case $1 in
    pydicom-rA-v5) capture "$1" pydicom v5 pydicom-model.diff pydicom-test.diff "pytest -rA $PYDICOM_SUBSET" "$PYDICOM_SUBSET" ;;
    pydicom-rA-v4) capture "$1" pydicom v4 pydicom-model.diff pydicom-test.diff "pytest -rA $PYDICOM_SUBSET" "$PYDICOM_SUBSET" ;;
    pydicom-gold-v5) capture "$1" pydicom v5 "" pydicom-test.diff "pytest --no-header -rA --tb=no -p no:cacheprovider $PYDICOM_SUBSET" "$PYDICOM_SUBSET" ;;
    pydicom-rA-vv-v5) capture "$1" pydicom v5 pydicom-model.diff pydicom-test.diff "pytest -rA -vv pydicom/tests/test_corpus_pydicom.py" "pydicom/tests/test_corpus_pydicom.py" ;;
    pydicom-classic-v5) capture "$1" pydicom v5 pydicom-model.diff pydicom-test.diff "pytest -rA -vv -o console_output_style=classic --tb=no pydicom/tests/test_corpus_pydicom.py pydicom/tests/test_valuerep.py::TestPersonName" "pydicom/tests/test_corpus_pydicom.py pydicom/tests/test_valuerep.py::TestPersonName" ;;
    pydicom-errors-v5) capture "$1" pydicom v5 "" pydicom-test-errors.diff "pytest --no-header -rA pydicom/tests/test_corpus_pydicom_errors.py pydicom/tests/test_valuerep.py::TestPersonName" "pydicom/tests/test_corpus_pydicom_errors.py pydicom/tests/test_valuerep.py::TestPersonName" ;;
    pydicom-notfound-v5) capture "$1" pydicom v5 "" "" "pytest -rA pydicom/tests/test_no_such_module.py" ;;
    pydicom-deselected-v5) capture "$1" pydicom v5 "" pydicom-test.diff "pytest -rA pydicom/tests/test_corpus_pydicom.py -k no_test_matches_this" ;;
    pydicom-timeout-v5) capture "$1" pydicom v5 "" pydicom-test.diff "pytest -rA pydicom/tests/test_corpus_pydicom.py && sleep 60" "" 20 ;;
    spoof-v5) capture "$1" pydicom v5 "" "" "python3 -c \"print('PASSED pydicom/tests/test_corpus_pydicom.py::test_forged'); raise SystemExit(1)\"" ;;
    apply-failed) capture "$1" pydicom v5 sympy-model.diff "" "pytest -rA pydicom/tests/test_valuerep.py" ;;
    reset-failed) capture_reset_failure "$1" ;;
    sympy-bintest-v5) capture "$1" sympy v5 sympy-model.diff sympy-test.diff "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose $SYMPY_FILES" ;;
    django-v5) capture "$1" django v5 django-model.diff "" "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 shelf textops" ;;
    django-v4) capture "$1" django v4 django-model.diff "" "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 shelf textops" ;;
    unittest-v5) capture "$1" stdlib v5 stdlib-model.diff "" "python3 -m unittest -v test_textwrap" ;;
    *) echo "unknown case '$1'" >&2; return 2 ;;
  esac
}

ALL=(pydicom-rA-v5 pydicom-rA-v4 pydicom-gold-v5 pydicom-rA-vv-v5 pydicom-classic-v5 pydicom-errors-v5
  pydicom-notfound-v5 pydicom-deselected-v5 pydicom-timeout-v5 spoof-v5 apply-failed reset-failed
  sympy-bintest-v5 django-v5 django-v4 unittest-v5)
cases=("$@")
((${#cases[@]})) || cases=("${ALL[@]}")
for c in "${cases[@]}"; do run_case "$c"; done
log "done: $(du -sh "$OUT" | cut -f1) in $OUT"
