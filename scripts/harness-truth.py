#!/usr/bin/env python3
"""Run the SWE-bench harness's own log parsers and grading on ChainLens's multilingual log corpus.

The expected results of test/unit/evaluation/grading/multilingualCorpus.test.ts come from here:
the harness's Python code, imported from checkouts outside this repository (nothing of it is
copied here), run on the same logs. One worker process per harness version, since both are the
package `swebench`.

Usage: python3 scripts/harness-truth.py --harness swebench-v5=<checkout> --harness swebench-v4=<checkout>
           --cases <cases.json> --out <truth.json>
<checkout> is a SWE-bench checkout (v5: the current main; v4: tag v4.1.0). Third-party modules the
harness imports but the parsers never use (requests, datasets, unidiff, ...) are stubbed.
"""
import argparse
import importlib.abc
import importlib.machinery
import json
import math
import os
import subprocess
import sys
import tempfile
import types

STUBBED = ("requests", "datasets", "dotenv", "unidiff", "docker", "tqdm", "ghapi", "bs4", "modal", "git", "yaml")


class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = lambda attr: type(attr, (), {"__init__": lambda self, *a, **k: None})
        return module

    def exec_module(self, module):
        pass


def _load_harness(root):
    sys.meta_path.insert(0, _Stubs())
    # Skip swebench/__init__.py (it imports the dataset-collection tools); keep real submodules.
    for name in ("swebench", "swebench.harness"):
        module = types.ModuleType(name)
        module.__path__ = [os.path.join(root, *name.split("."))]
        sys.modules[name] = module
    sys.path.insert(0, root)


def _make_spec(case):
    """The TestSpec fields the parsers and get_logs_eval read (both versions)."""
    return types.SimpleNamespace(
        instance_id=case.get("instanceId", "corpus__case-0"),
        version=case.get("version", "0"),
        repo="chainlens/corpus",
        log_parser="corpus_parser",
        eval_type="pass_and_fail",
        FAIL_TO_PASS=[],
        PASS_TO_PASS=[],
    )


def _parser(name):
    """The harness function for a ChainLens parser name; None if this harness version has none."""
    module_names = ("python", "javascript", "go", "rust", "java", "c", "php", "ruby")
    candidates = [f"parse_log_{name.replace('-', '_')}", f"parse_{name.replace('-', '_')}"]
    for module_name in module_names:
        module = __import__(f"swebench.harness.log_parsers.{module_name}", fromlist=["*"])
        for c in candidates:
            if hasattr(module, c):
                return getattr(module, c)
    return None


def _wire_grading(version_label, parser_fn, case):
    """The harness's grading module, pointed at one parser for one made-up repo and version."""
    import swebench.harness.grading as grading

    if version_label == "swebench-v5":
        grading.PARSER_REGISTRY = {"corpus_parser": parser_fn}
    else:
        grading.MAP_REPO_TO_PARSER = {"chainlens/corpus": parser_fn}
        grading.MAP_REPO_VERSION_TO_SPECS = {"chainlens/corpus": {case.get("version", "0"): {"test_cmd": ""}}}
    return grading


def _error(e):
    return f"{type(e).__name__}: {e}"


def _status_list(m):
    return [[str(k), v] for k, v in m.items()]


MISSING = "chainlens-corpus::no-such-test"


def _scenarios(keys):
    """F2P/P2P lists that put every status of the log, and a missing id, in each bucket, under
    both eval types. The unit test builds the same lists from the same keys."""
    half = len(keys) // 2
    lists = [
        (keys + [MISSING], []),
        ([], keys + [MISSING]),
        (keys[:half], keys[half:]),
        ([MISSING], []),
        ([], []),
    ]
    return [(f2p, p2p, et) for f2p, p2p in lists for et in ("pass_and_fail", "fail_only")]


def _outcomes(ids, bucket):
    """One letter per id, in order: S (success), F (failure), N (in neither list)."""
    success, failure = set(bucket["success"]), set(bucket["failure"])
    assert len(success) + len(failure) == len(bucket["success"]) + len(bucket["failure"])
    return "".join("S" if i in success else "F" if i in failure else "N" for i in ids)


def worker(version_label, root):
    _load_harness(root)
    from swebench.harness.constants import EvalType

    cases = json.load(sys.stdin)
    out = {}
    # Some parsers print warnings (the v5 Maven parser); stdout carries the results.
    results_out = sys.stdout
    sys.stdout = sys.stderr
    for case in cases:
        with open(case["path"], encoding="utf-8", newline=None) as f:
            full = f.read()
        for log_name, log in case["variants"].items():
            text = full if log is None else log
            for parser_name in case["parsers"]:
                fn = _parser(parser_name)
                key = f"{log_name}|{parser_name}"
                if fn is None:
                    out[key] = {"absent": True}
                    continue
                spec = _make_spec(case)
                entry = {}
                try:
                    entry["parse"] = {"map": _status_list(fn(text, spec))}
                except Exception as e:  # the harness would crash here
                    entry["parse"] = {"crash": _error(e)}
                grading = _wire_grading(version_label, fn, case)
                with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as tmp:
                    tmp.write(text)
                try:
                    status_map, found = grading.get_logs_eval(spec, tmp.name)
                    entry["eval"] = {"found": found, "map": _status_list(status_map)}
                    keys = [str(k) for k in status_map.keys()]
                    reports = []
                    for f2p, p2p, eval_type in _scenarios(keys) if found else []:
                        report = grading.get_eval_tests_report(
                            status_map,
                            {"FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p, "FAIL_TO_FAIL": [], "PASS_TO_FAIL": []},
                            eval_type=EvalType(eval_type),
                        )
                        assert not any(report[k][x] for k in ("FAIL_TO_FAIL", "PASS_TO_FAIL") for x in ("success", "failure"))
                        reports.append(
                            [_outcomes(f2p, report["FAIL_TO_PASS"]), _outcomes(p2p, report["PASS_TO_PASS"]), grading.get_resolution_status(report)]
                        )
                    entry["reports"] = reports
                except Exception as e:
                    entry["eval"] = {"crash": _error(e)}
                finally:
                    os.unlink(tmp.name)
                out[key] = entry
    json.dump(out, results_out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", action="append", required=True, help="LABEL=CHECKOUT")
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    cases_dir = os.path.dirname(os.path.abspath(args.cases))
    with open(args.cases, encoding="utf-8") as f:
        cases = json.load(f)
    jobs = []
    for case in cases:
        path = os.path.join(cases_dir, case["log"])
        with open(path, encoding="utf-8", newline=None) as f:
            full = f.read()
        variants = {case["name"]: None}
        for cut in case.get("truncations", []):
            variants[f"{case['name']}@{cut}"] = truncate(full, cut)
        jobs.append({**case, "path": path, "variants": variants})
    truth = {"harness": {}, "results": {}}
    for spec in args.harness:
        label, root = spec.split("=", 1)
        commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        truth["harness"][label] = commit or "(not a git checkout)"
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--harness", spec, "--cases", args.cases, "--out", "-", "--worker", label, root],
            input=json.dumps(jobs),
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            sys.exit(f"harness {label} failed:\n{proc.stderr}")
        truth["results"][label] = json.loads(proc.stdout)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(truth, f, indent=0, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def truncate(text, cut):
    """`frac:F` keeps the first floor(F * lines) lines; `frac:F+half` adds the first half (in
    characters) of the next line, as a log cut off mid-write. The unit test cuts the same way."""
    spec = cut.split(":", 1)[1]
    half = spec.endswith("+half")
    lines = text.split("\n")
    k = math.floor(float(spec.removesuffix("+half")) * len(lines))
    kept = "\n".join(lines[:k])
    if half and k < len(lines):
        nxt = lines[k]
        kept += "\n" + nxt[: len(nxt) // 2]
    return kept


if __name__ == "__main__":
    if "--worker" in sys.argv:
        i = sys.argv.index("--worker")
        worker(sys.argv[i + 1], sys.argv[i + 2])
    else:
        main()
