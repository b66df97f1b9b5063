#!/usr/bin/env python3
"""Write the demo agent's trajectory of step 1 from its recorded patch, so it matches the chain.

    build_trajectory.py --repo <dir built by scripts/build-demo-repo.sh> (--write | --check)

Writes (or, with --check, compares against) demo/trajectories/chainlens-demo__invoicekit-101.traj.json:
a mini-swe-agent trajectory (`trajectory_format` "mini-swe-agent-1", the shape `save_traj` of
mini-swe-agent 1.x writes: `info` with exit_status, submission and model_stats, then the chat
`messages`) of the demo agent solving step 1 the way demo/steps/1/predicted.patch does: it reads
parse_amount, reproduces the bug, rewrites invoicekit/parse.py (a heredoc, as mini-swe-agent's
prompt allows), checks the fix and submits `git diff --cached`.

Every observation is the real output of its command, run here in a scratch clone of the built
repository at the base commit, and the submission is that clone's `git diff --cached`: the script
fails if it is not byte for byte demo/steps/1/predicted.patch (the patch the chain records for
the demo agent, demo/predictions-undershoot.jsonl). Standard library only; deterministic.
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
STEP = DEMO / "steps" / "1"
OUT = DEMO / "trajectories" / "chainlens-demo__invoicekit-101.traj.json"
INSTANCE = "chainlens-demo__invoicekit-101"
MODEL = "demo-agent"
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"

SYSTEM = (
    "You are a helpful assistant that can interact multiple times with a computer shell to solve "
    "programming tasks.\nYour response must contain exactly ONE bash code block with ONE command "
    "(or commands connected with && or ||).\n\nInclude a THOUGHT section before your command where "
    "you explain your reasoning process.\nFormat your response as shown in <format_example>.\n\n"
    "<format_example>\nTHOUGHT: Your reasoning and analysis here\n\n```bash\nyour_command_here\n```\n"
    "</format_example>\n\nFailure to follow these rules will cause your response to be rejected."
)


def run(cwd: Path, command: str) -> tuple[int, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cwd),
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    p = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def observation(code: int, output: str) -> str:
    return f"<returncode>{code}</returncode>\n<output>\n{output}</output>"


def build(repo: Path) -> dict:
    issue = (STEP / "issue.md").read_text(encoding="utf-8")
    predicted = (STEP / "predicted.patch").read_text(encoding="utf-8")
    scratch = Path(tempfile.mkdtemp(prefix="demo-traj-"))
    try:
        work = scratch / "invoicekit"
        subprocess.run(["git", "clone", "-q", str(repo), str(work)], check=True, capture_output=True)
        # The edited file, as the agent writes it: base + the recorded patch.
        subprocess.run(["git", "-C", str(work), "apply", "--check", "-"], input=predicted, text=True, check=True)
        subprocess.run(["git", "-C", str(work), "apply", "-"], input=predicted, text=True, check=True)
        fixed = (work / "invoicekit" / "parse.py").read_text(encoding="utf-8")
        subprocess.run(["git", "-C", str(work), "checkout", "-q", "--", "."], check=True)

        steps = [
            (
                "THOUGHT: The issue says parse_amount rejects negative amounts. Let me read "
                "parse_amount in invoicekit/parse.py first.",
                "grep -n 'def parse_amount' -A 22 invoicekit/parse.py",
            ),
            (
                "THOUGHT: Let me reproduce the failure with the first example of the issue.",
                "python3 -c 'from invoicekit import parse_amount; parse_amount(\"-5.00 USD\")' 2>&1 | tail -n 1",
            ),
            (
                "THOUGHT: The minus sign reaches _AMOUNT_RE and is taken for a currency marker. I "
                "strip a leading minus before matching and negate the amount at the end.",
                f"cat <<'EOF' > invoicekit/parse.py\n{fixed}EOF",
            ),
            (
                "THOUGHT: Let me check the fix on the examples with a minus sign.",
                "python3 -c 'from invoicekit import parse_amount; "
                "print(parse_amount(\"-5.00 USD\")); print(parse_amount(\"-$1,234.50\"))'",
            ),
            ("THOUGHT: Negative amounts parse now. I submit my change.", SUBMIT),
        ]
        messages = [
            {"role": "system", "content": SYSTEM},
            {
                "role": "user",
                "content": f"<pr_description>\nConsider the following PR description:\n{issue}\n</pr_description>",
            },
        ]
        submission = None
        for thought, command in steps:
            messages.append({"role": "assistant", "content": f"{thought}\n\n```bash\n{command}\n```"})
            code, output = run(work, command)
            if command == SUBMIT:
                lines = output.lstrip().splitlines(keepends=True)
                submission = "".join(lines[1:])
                break
            messages.append({"role": "user", "content": observation(code, output)})
        if submission != predicted:
            sys.exit(f"{OUT.name}: the submitted diff is not demo/steps/1/predicted.patch")
        return {
            "info": {
                "exit_status": "Submitted",
                "submission": submission,
                "model_stats": {"instance_cost": 0.0, "api_calls": len(steps)},
                "config": {"model": {"model_name": MODEL}, "agent_type": "minisweagent.agents.default.DefaultAgent"},
            },
            "messages": messages,
            "trajectory_format": "mini-swe-agent-1",
            "instance_id": INSTANCE,
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True, type=Path)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = json.dumps(build(args.repo), indent=2, ensure_ascii=False) + "\n"
    if args.write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(text, encoding="utf-8")
    elif not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
        sys.exit(f"{OUT.relative_to(DEMO.parent)} is out of date: run demo/tools/build_trajectory.py --write")


if __name__ == "__main__":
    main()
