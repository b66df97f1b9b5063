#!/usr/bin/env python3
"""Assemble the demo chain files from demo/steps/<order>/ and the built demo repository.

    build_chain.py --repo <dir built by scripts/build-demo-repo.sh> (--write | --check)

Writes (or, with --check, compares against) demo/chain.json, demo/chain.jsonl and
demo/predictions-undershoot.jsonl. Each step directory holds issue.md (problem_statement),
gold.patch, test.patch, predicted.patch and meta.json (instance id, date, author, test_cmds,
FAIL_TO_PASS, PASS_TO_PASS).

commit_hash of a step is real: the commit that the gold test_patch + patch make on top of the
previous step's commit, with the step's author and date, built in a scratch clone. So the hashes
are as reproducible as base_commit. Standard library only; runs on the host or in the chain image.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent
REPO_NAME = "chainlens-demo/invoicekit"
CHAIN_ID = "chainlens-demo_invoicekit_20240312"
SHORT_CHAIN_ID = "chainlens-demo_invoicekit_20240312_two_step"
IMAGE = "chainlens/base:bookworm"
SOURCE = "ChainLens built-in demo (synthetic maintenance thread, written by hand)"
MAINTAINER = ("Mara Lindqvist", "mara@invoicekit.example")
# Step 2 keeps FAIL_TO_PASS / PASS_TO_PASS as JSON-encoded strings, the Hugging Face shape.
STRING_ENCODED_STEPS = {2}


def git(repo: Path, *args: str, env: dict | None = None, stdin: str | None = None) -> str:
    isolated = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, **(env or {})}
    result = subprocess.run(
        ["git", "-C", str(repo), "-c", "core.autocrlf=false", "-c", "commit.gpgSign=false", *args],
        input=stdin, capture_output=True, text=True, env=isolated,
    )
    if result.returncode != 0:
        sys.exit(f"git {' '.join(args)} failed in {repo}:\n{result.stderr}")
    return result.stdout.strip()


def load_steps() -> list[dict]:
    steps = []
    for directory in sorted((DEMO / "steps").iterdir(), key=lambda path: int(path.name)):
        meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
        files = {name: (directory / name).read_text(encoding="utf-8")
                 for name in ("issue.md", "gold.patch", "test.patch", "predicted.patch")}
        steps.append({"order": int(directory.name), "dir": directory, **meta, **files})
    return steps


def issue_title(issue: str) -> str:
    return issue.splitlines()[0].lstrip("# ").strip()


def fix_commits(repo: Path, steps: list[dict]) -> list[str]:
    """Replay the gold fixes as commits; returns their hashes in order."""
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "repo"
        shutil.copytree(repo, clone, symlinks=True)
        git(clone, "checkout", "-q", "--detach", "HEAD")
        hashes = []
        for step in steps:
            git(clone, "apply", "-", stdin=step["test.patch"])
            git(clone, "apply", "-", stdin=step["gold.patch"])
            git(clone, "add", "-A")
            name, email = step["author"].rsplit(" <", 1)
            number = step["instance_id"].rsplit("-", 1)[1]
            env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"),
                   "GIT_AUTHOR_DATE": step["date"], "GIT_COMMITTER_NAME": MAINTAINER[0],
                   "GIT_COMMITTER_EMAIL": MAINTAINER[1], "GIT_COMMITTER_DATE": step["date"]}
            git(clone, "commit", "-q", "--no-verify", "-m",
                f"{issue_title(step['issue.md'])} (#{number})", env=env)
            hashes.append(git(clone, "rev-parse", "HEAD"))
        return hashes


def harness_test_id(test_id: str) -> str:
    """The id as SWE-bench datasets record it: its log parser cuts `PASSED <id>` lines at the first
    space, so a parametrized id like `test_x[1.500 EUR-1500]` is stored as `test_x[1.500` (the v5
    grader matches such truncated ids by prefix)."""
    return test_id.split()[0]


def harness_ids(ids: list[str]) -> list[str]:
    cut = [harness_test_id(i) for i in ids]
    assert len(set(cut)) == len(cut), f"ids collide once cut at the first space: {ids}"
    return cut


def bug_fix(step: dict, commit_hash: str) -> dict:
    f2p, p2p = harness_ids(step["FAIL_TO_PASS"]), harness_ids(step["PASS_TO_PASS"])
    if step["order"] in STRING_ENCODED_STEPS:
        f2p, p2p = json.dumps(f2p), json.dumps(p2p)
    number = step["instance_id"].rsplit("-", 1)[1]
    return {
        "order": step["order"],
        "swebench_instance_id": step["instance_id"],
        "commit_hash": commit_hash,
        "problem_statement": step["issue.md"],
        "date": step["date"],
        "source": f"{REPO_NAME}#{number} (synthetic)",
        "patch": step["gold.patch"],
        "test_patch": step["test.patch"],
        "FAIL_TO_PASS": f2p,
        "PASS_TO_PASS": p2p,
        "test_cmds": step["test_cmds"],
    }


def chain(continuous_id: str, base_commit: str, fixes: list[dict]) -> dict:
    return {
        "continuous_id": continuous_id,
        "repo": REPO_NAME,
        "base_commit": base_commit,
        "source": SOURCE,
        "date_range": f"{fixes[0]['date'][:10]} to {fixes[-1]['date'][:10]}",
        "docker_image": IMAGE,
        "swebench_instance_ids": [fix["swebench_instance_id"] for fix in fixes],
        "bug_fixes": fixes,
    }


def render(repo: Path) -> dict[str, str]:
    steps = load_steps()
    base_commit = git(repo, "rev-parse", "HEAD")
    fixes = [bug_fix(step, commit) for step, commit in zip(steps, fix_commits(repo, steps))]
    full = chain(CHAIN_ID, base_commit, fixes)
    short = chain(SHORT_CHAIN_ID, base_commit, fixes[:2])
    predictions = [
        {"instance_id": step["instance_id"], "model_name_or_path": "demo-agent", "model_patch": step["predicted.patch"]}
        for step in steps
    ]
    return {
        "chain.json": json.dumps(full, indent=2, ensure_ascii=False) + "\n",
        "chain.jsonl": "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in (full, short)),
        "predictions-undershoot.jsonl": "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, type=Path, help="the repository built by scripts/build-demo-repo.sh")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for name, text in render(args.repo).items():
        target = DEMO / name
        if args.write:
            target.write_text(text, encoding="utf-8")
            print(f"wrote demo/{name}")
        elif not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(name)
    if stale:
        print(f"out of date (run demo/tools/build_chain.py --write): {', '.join(stale)}", file=sys.stderr)
        return 1
    if args.check:
        print("chain files match demo/steps and the built repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
