#!/usr/bin/env python3
"""Check that the demo chain behaves as designed, by really running its tests.

    verify_chain.py --repo <repo at base_commit> --demo <demo dir>

Runs inside the chain's image (demo/verify.sh starts it). Every repository state is a fresh copy
of the base repository; every patch is applied with plain `git apply` after `git apply --check`.
Grading follows docs/reference/grading.md and docs/reference/run-modes.md: the test patches of steps 1..k are applied on top of the state,
the step's test_cmds runs, `pytest -rA` lines are parsed, and a step is resolved iff every
FAIL_TO_PASS and every PASS_TO_PASS test passed. Prints a table; exits 1 on any surprise.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

STATUSES = ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS")
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "verify", "GIT_AUTHOR_EMAIL": "verify@invoicekit.example",
           "GIT_COMMITTER_NAME": "verify", "GIT_COMMITTER_EMAIL": "verify@invoicekit.example",
           "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8"}


class Verifier:
    def __init__(self, repo: Path, demo: Path, scratch: Path) -> None:
        self.repo, self.demo, self.scratch = repo, demo, scratch
        self.chain = json.loads((demo / "chain.json").read_text(encoding="utf-8"))
        self.steps = sorted(self.chain["bug_fixes"], key=lambda fix: fix["order"])
        for step in self.steps:
            for key in ("FAIL_TO_PASS", "PASS_TO_PASS"):
                if isinstance(step[key], str):
                    step[key] = json.loads(step[key])
        by_id = {}
        for line in (demo / "predictions-undershoot.jsonl").read_text(encoding="utf-8").splitlines():
            prediction = json.loads(line)
            by_id[prediction["instance_id"]] = prediction["model_patch"]
        self.patches = {
            "gold": [step["patch"] for step in self.steps],
            "pred": [by_id[step["swebench_instance_id"]] for step in self.steps],
        }
        self.problems: list[str] = []
        self.copies = 0
        self.test_runs = 0

    # --- plumbing -----------------------------------------------------------------------------
    def run(self, cwd: Path, *command: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, env=GIT_ENV)

    def fresh_copy(self) -> Path:
        self.copies += 1
        target = self.scratch / f"state{self.copies}"
        shutil.copytree(self.repo, target, symlinks=True)
        return target

    def apply(self, state: Path, patch: str, label: str) -> bool:
        check = self.run(state, "git", "apply", "--check", "-", stdin=patch)
        if check.returncode != 0:
            return False
        applied = self.run(state, "git", "apply", "-", stdin=patch)
        if applied.returncode != 0:
            self.problems.append(f"{label}: passed --check but git apply failed: {applied.stderr.strip()}")
        return applied.returncode == 0

    def must_apply(self, state: Path, patch: str, label: str) -> None:
        if not self.apply(state, patch, label):
            self.problems.append(f"{label} does not apply with plain git apply")
            raise RuntimeError(f"{label} does not apply")

    def test(self, state: Path, k: int) -> dict[str, str]:
        """Grade a copy of state for step k: test patches 1..k on top, then step k's test_cmds."""
        graded = self.scratch / f"graded{self.copies}-{self.test_runs}"
        shutil.copytree(state, graded, symlinks=True)
        for j in range(k):
            self.must_apply(graded, self.steps[j]["test_patch"], f"test_patch {j + 1} (grading step {k})")
        self.test_runs += 1
        result = self.run(graded, "bash", "-c", self.steps[k - 1]["test_cmds"] + " -p no:cacheprovider")
        shutil.rmtree(graded)
        statuses: dict[str, str] = {}
        for line in result.stdout.splitlines():
            status, _, rest = line.partition(" ")
            if status in STATUSES and "::" in rest:
                statuses[rest.split(" - ")[0] if status in ("FAILED", "ERROR") else rest] = status
        if not statuses:
            self.problems.append(f"step {k}: no test results parsed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        return statuses

    def score(self, statuses: dict[str, str], k: int) -> dict:
        step = self.steps[k - 1]
        f2p = [test for test in step["FAIL_TO_PASS"] if statuses.get(test) == "PASSED"]
        p2p = [test for test in step["PASS_TO_PASS"] if statuses.get(test) == "PASSED"]
        return {
            "f2p": (len(f2p), len(step["FAIL_TO_PASS"])),
            "p2p": (len(p2p), len(step["PASS_TO_PASS"])),
            "f2p_failing": [test for test in step["FAIL_TO_PASS"] if test not in f2p],
            "p2p_failing": [test for test in step["PASS_TO_PASS"] if test not in p2p],
            "resolved": len(f2p) == len(step["FAIL_TO_PASS"]) and len(p2p) == len(step["PASS_TO_PASS"]),
        }

    # --- chain runs ---------------------------------------------------------------------------
    def run_chain(self, mode: str, authors: list[str], with_before: bool) -> list[dict]:
        """One result per step: the state before the step, and after the author's patch.

        Oracle: base + gold patches of steps 1..k-1. Seq: what steps 1..k-1 left, each committed.
        """
        results, seq_state = [], self.fresh_copy()
        for k in range(1, len(self.steps) + 1):
            if mode == "Oracle":
                state = self.fresh_copy()
                for j in range(k - 1):
                    self.must_apply(state, self.patches["gold"][j], f"gold patch {j + 1} (Oracle state for step {k})")
            else:
                state = seq_state
            result = {"k": k, "author": authors[k - 1]}
            if with_before:
                result["before"] = self.score(self.test(state, k), k)
            label = f"{authors[k - 1]} patch {k} ({mode})"
            result["applies"] = self.apply(state, self.patches[authors[k - 1]][k - 1], label)
            if result["applies"]:
                result["after"] = self.score(self.test(state, k), k)
                if mode == "Seq":
                    self.run(state, "git", "add", "-A")
                    self.run(state, "git", "commit", "-qm", f"step {k} by {authors[k - 1]}")
            results.append(result)
        return results

    # --- expectations -------------------------------------------------------------------------
    def expect(self, condition: bool, message: str) -> str:
        if not condition:
            self.problems.append(message)
        return "ok" if condition else "UNEXPECTED"

    def report(self, title: str, results: list[dict], expected_resolved: list[bool]) -> None:
        print(f"\n{title}")
        print(f"  {'step':<5}{'applies':<9}{'F2P before':<12}{'P2P before':<12}{'F2P after':<11}{'P2P after':<11}{'resolved':<10}check")
        for result, want in zip(results, expected_resolved):
            k, before, after = result["k"], result.get("before"), result.get("after")
            checks = [result["applies"], bool(after) and after["resolved"] == want]
            if before:
                # Before the fix: every FAIL_TO_PASS test fails and every PASS_TO_PASS test passes.
                checks += [before["f2p"][0] == 0, before["p2p"][0] == before["p2p"][1]]
            verdict = self.expect(all(checks), f"{title}, step {k}: expected resolved={want}, got {result}")
            frac = lambda pair: f"{pair[0]}/{pair[1]}"
            print(f"  {k:<5}{'yes' if result['applies'] else 'NO':<9}"
                  f"{frac(before['f2p']) if before else '-':<12}{frac(before['p2p']) if before else '-':<12}"
                  f"{frac(after['f2p']) if after else '-':<11}{frac(after['p2p']) if after else '-':<11}"
                  f"{('yes' if after['resolved'] else 'no') if after else '-':<10}{verdict}")
            if after and after["f2p_failing"]:
                print(f"       F2P failing: {', '.join(after['f2p_failing'])}")
            if after and after["p2p_failing"]:
                print(f"       P2P failing: {', '.join(after['p2p_failing'])}")

    def check_patch_shapes(self) -> None:
        for k, step in enumerate(self.steps, start=1):
            for label, patch, tests_only in (("gold patch", step["patch"], False), ("test_patch", step["test_patch"], True),
                                             ("predicted patch", self.patches["pred"][k - 1], False)):
                files = [line.split(" b/", 1)[1] for line in patch.splitlines() if line.startswith("diff --git ")]
                ok = patch.startswith("diff --git ") and patch.endswith("\n") and files and all(
                    path.startswith("tests/") == tests_only for path in files)
                self.expect(bool(ok), f"step {k} {label}: not a git diff ending in a newline, or touches "
                                      f"{'non-test' if tests_only else 'test'} files: {files}")
        gold_files = [{line.split(" b/", 1)[1] for line in step["patch"].splitlines() if line.startswith("diff --git ")}
                      for step in self.steps]
        self.expect(bool(set.intersection(*gold_files)), "no file is touched by every gold patch")

    def main(self) -> int:
        head = self.run(self.repo, "git", "rev-parse", "HEAD").stdout.strip()
        self.expect(head == self.chain["base_commit"], f"repository HEAD {head} != chain base_commit {self.chain['base_commit']}")
        self.check_patch_shapes()
        counts = ", ".join(f"step {s['order']}: {len(s['FAIL_TO_PASS'])} F2P / {len(s['PASS_TO_PASS'])} P2P" for s in self.steps)
        print(f"chain {self.chain['continuous_id']} at {head[:12]}; {counts}")
        n = len(self.steps)
        try:
            oracle_gold = self.run_chain("Oracle", ["gold"] * n, with_before=True)
            self.report("Oracle, gold authors", oracle_gold, [True] * n)
            self.report("Seq, gold authors", self.run_chain("Seq", ["gold"] * n, with_before=True), [True] * n)
            oracle_pred = self.run_chain("Oracle", ["pred"] * n, with_before=False)
            self.report("Oracle, predictions-undershoot", oracle_pred, [False, True, True])
            seq_pred = self.run_chain("Seq", ["pred"] * n, with_before=False)
            self.report("Seq, predictions-undershoot", seq_pred, [False, False, True])
            chain_errors = [o["k"] for o, s in zip(oracle_pred, seq_pred)
                            if o.get("after", {}).get("resolved") and not s.get("after", {}).get("resolved")]
            print(f"  chain errors (resolved in Oracle, not in Seq): steps {chain_errors} "
                  f"{self.expect(chain_errors == [2], f'chain errors {chain_errors} != [2]')}")
            step2 = seq_pred[1]["after"]
            self.expect(step2["f2p_failing"] == ["tests/test_totals.py::TestInvoiceTotals::test_credit_note_with_decimal_comma"]
                        and not step2["p2p_failing"], f"Seq step 2 should fail only on the credit note test: {step2}")
            # An incomplete step 1 breaks step 2 even when step 2's own code is the gold fix.
            self.report("Seq, predicted step 1 then gold steps 2-3", self.run_chain("Seq", ["pred", "gold", "gold"], False),
                        [False, False, True])
            self.check_step3_needs_step2()
        except RuntimeError as error:
            print(f"stopped: {error}")
        print(f"\n{self.test_runs} test runs")
        if self.problems:
            print("\nPROBLEMS:\n- " + "\n- ".join(self.problems))
            return 1
        print("all checks passed")
        return 0

    def check_step3_needs_step2(self) -> None:
        """Step 3 on top of step 1 alone: the gold fix does not even apply, the prediction fails."""
        state = self.fresh_copy()
        self.must_apply(state, self.patches["gold"][0], "gold patch 1 (step 2 skipped)")
        gold3 = self.apply(state, self.patches["gold"][2], "gold patch 3 without step 2")
        applies = self.apply(state, self.patches["pred"][2], "pred patch 3 without step 2")
        score = self.score(self.test(state, 3), 3) if applies else None
        ok = not gold3 and applies and score and not score["resolved"] and score["f2p"][0] < score["f2p"][1]
        f2p = f"{score['f2p'][0]}/{score['f2p'][1]}" if score else "not applied"
        print(f"\nStep 3 without step 2: gold patch 3 applies: {'yes' if gold3 else 'no'}; "
              f"predicted patch 3 F2P {f2p} {self.expect(bool(ok), f'step 3 should depend on step 2: {score}')}")
        if score:
            print(f"       F2P failing: {', '.join(score['f2p_failing'])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, type=Path)
    parser.add_argument("--demo", required=True, type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        return Verifier(args.repo, args.demo, Path(scratch)).main()


if __name__ == "__main__":
    sys.exit(main())
