#!/usr/bin/env python3
"""Checks a proxy-bench JSON report has the expected shape, schema 2 (not the figures).

Usage: check-bench-json.py REPORT.json EXPECTED.txt

EXPECTED.txt lists one `scenario/variant` per line (`#` starts a comment).
The report must parse as JSON with `schema_version` 2, carry a `machine` block
with the machine fields, a `noise` block with a verdict, a `summary` block,
and a result for every expected variant whose median, p10, p90,
ratio_to_baseline and allocations_per_op are numbers, with a `unit`, a
`better` of `lower` or `higher`, and a `group` listed in `groups` with its
baseline. Ratios must stay within one group and unit: the group's baseline
must be a result of that group in the same unit, with ratio 1. Exits 0 when
it does, 1 with one line per problem when it does not, 2 on bad usage.
"""

import json
import math
import sys

MACHINE_FIELDS = ("cpu", "cores", "os", "swift_version", "build_configuration", "date")
NUMERIC_FIELDS = ("median", "p10", "p90", "ratio_to_baseline", "allocations_per_op")
SCHEMA_VERSION = 2


def read_expected(path):
    expected = []
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split("/")
            if len(parts) != 2 or not all(parts):
                raise ValueError(f"{path}:{number}: expected 'scenario/variant', got {line!r}")
            expected.append((parts[0], parts[1]))
    return expected


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check(report, expected):
    problems = []
    if not isinstance(report, dict):
        return ["the top level is not a JSON object"]

    if report.get("schema_version") != SCHEMA_VERSION:
        problems.append(f"schema_version is {report.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    noise = report.get("noise")
    if not isinstance(noise, dict) or noise.get("verdict") not in ("quiet", "noisy"):
        problems.append("missing 'noise' object with verdict 'quiet' or 'noisy'")
    summary = report.get("summary")
    if not isinstance(summary, dict) or not all(
        is_number(summary.get(key)) for key in ("product_targets_met", "product_targets_judged")
    ):
        problems.append("missing 'summary' object with product target counts")
    groups = {}
    for entry in report.get("groups", []) or []:
        if isinstance(entry, dict):
            groups[(entry.get("scenario"), entry.get("group"))] = entry

    machine = report.get("machine")
    if not isinstance(machine, dict):
        problems.append("missing 'machine' object")
    else:
        for field in MACHINE_FIELDS:
            if field not in machine or machine[field] in (None, ""):
                problems.append(f"machine: missing '{field}'")
        if "cores" in machine and not is_number(machine["cores"]):
            problems.append(f"machine: 'cores' is not a number: {machine['cores']!r}")

    results = report.get("results")
    if not isinstance(results, list):
        problems.append("missing 'results' array")
        results = []

    found = {}
    for index, result in enumerate(results):
        if not isinstance(result, dict):
            problems.append(f"results[{index}] is not an object")
            continue
        key = (result.get("scenario"), result.get("variant"))
        if not all(isinstance(part, str) for part in key):
            problems.append(f"results[{index}]: 'scenario' and 'variant' must be strings")
            continue
        found[key] = result

    for (scenario, variant), result in found.items():
        name = f"{scenario}/{variant}"
        if result.get("better") not in ("lower", "higher"):
            problems.append(f"{name}: 'better' must be 'lower' or 'higher', got {result.get('better')!r}")
        group = groups.get((scenario, result.get("group")))
        if group is None:
            problems.append(f"{name}: group {result.get('group')!r} is not listed in 'groups'")
            continue
        if result.get("group_baseline") != group.get("baseline"):
            problems.append(f"{name}: group_baseline differs from its group's baseline")
        if result.get("unit") != group.get("unit"):
            if result.get("ratio_to_baseline") is not None:
                problems.append(f"{name}: a ratio across units ({result.get('unit')} vs {group.get('unit')})")
        baseline = found.get((scenario, group.get("baseline")))
        if baseline is None or baseline.get("group") != result.get("group"):
            problems.append(f"{name}: its group's baseline {group.get('baseline')!r} is not in the group")
        elif result.get("baseline") and result.get("ratio_to_baseline") not in (1, 1.0):
            problems.append(f"{name}: a baseline whose ratio is not 1")

    skipped = {}
    for entry in report.get("skipped", []) or []:
        if isinstance(entry, dict):
            skipped[(entry.get("scenario"), entry.get("variant"))] = entry.get("note", "")

    for scenario, variant in expected:
        name = f"{scenario}/{variant}"
        result = found.get((scenario, variant))
        if result is None:
            if (scenario, variant) in skipped:
                problems.append(f"{name}: skipped by the benchmark ({skipped[(scenario, variant)]})")
            else:
                problems.append(f"{name}: no result in the report")
            continue
        for field in NUMERIC_FIELDS:
            if field not in result:
                problems.append(f"{name}: missing '{field}'")
            elif not is_number(result[field]):
                problems.append(f"{name}: '{field}' is not a finite number: {result[field]!r}")
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    report_path, expected_path = argv[1], argv[2]
    try:
        expected = read_expected(expected_path)
    except (OSError, ValueError) as error:
        print(f"check-bench-json: cannot read the expected list: {error}", file=sys.stderr)
        return 2
    try:
        with open(report_path, encoding="utf-8") as handle:
            report = json.load(handle)
    except OSError as error:
        print(f"check-bench-json: cannot read {report_path}: {error}", file=sys.stderr)
        return 1
    except json.JSONDecodeError as error:
        print(f"check-bench-json: {report_path} is not valid JSON: {error}", file=sys.stderr)
        return 1

    problems = check(report, expected)
    if problems:
        print(f"check-bench-json: {report_path} does not have the expected shape:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print(
        f"check-bench-json: {report_path}: schema 2, machine, noise ({report['noise']['verdict']}) and"
        f" {len(expected)} expected variants present; {report['summary'].get('line', '')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
