#!/usr/bin/env python3
"""radon's CC, raw LLOC and Halstead counts of every top-level function of a Python file, as JSON.

Writes test/fixtures/maintainability/radon-6.0.1.json from python-stdlib.py beside it, which
test/unit/analysis/maintainability.test.ts compares ChainLens with. radon is not a Debian package,
so the JSON is committed; to make it again, on a machine with radon 6.0.1 importable (its source
tree on PYTHONPATH is enough, it needs only the standard library for these functions):

    python3 scripts/radon-truth.py test/fixtures/maintainability/python-stdlib.py \
        > test/fixtures/maintainability/radon-6.0.1.json

Per function: radon.complexity.cc_visit (CC), radon.raw.analyze on the function's own lines,
decorators included (LLOC), radon.visitors.HalsteadVisitor's per-function counts (h_visit).
"""
import ast
import json
import sys

import radon
from radon.complexity import cc_visit
from radon.metrics import halstead_visitor_report
from radon.raw import analyze
from radon.visitors import HalsteadVisitor


def main(path):
    source = open(path, encoding="utf-8").read()
    lines = source.split("\n")
    tree = ast.parse(source)
    complexity = {b.name: b.complexity for b in cc_visit(source) if not hasattr(b, "methods")}
    visitor = HalsteadVisitor.from_ast(tree)
    halstead = {v.context: halstead_visitor_report(v) for v in visitor.function_visitors}
    out = {"radon": radon.__version__, "functions": {}}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        h = halstead[node.name]
        out["functions"][node.name] = {
            "line": start,
            "cc": complexity[node.name],
            "lloc": analyze("\n".join(lines[start - 1 : node.end_lineno])).lloc,
            "halstead": {"h1": h.h1, "h2": h.h2, "N1": h.N1, "N2": h.N2, "volume": h.volume},
        }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
