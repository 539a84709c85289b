#!/usr/bin/env python3
"""Checks a proxy-bench JSON report has the expected shape, schema 3 (not the figures).

Usage: check-bench-json.py REPORT.json EXPECTED.txt

EXPECTED.txt lists one `scenario/variant` per line (`#` starts a comment).
The report must parse as JSON with `schema_version` 3, carry a `machine` block
with the machine fields, a `run` block saying how ratios were measured (rounds,
batch_rounds, round_nanoseconds, seed, method), a `noise` block with a verdict,
a `summary` block whose met, missed and undecided counts add up to the judged
ones, and a result for every expected variant whose median, p10, p90,
ratio_to_baseline and allocations_per_op are numbers, with a `unit`, a
`better` of `lower` or `higher`, and a `group` listed in `groups` with its
baseline. Ratios must stay within one group and unit: the group's baseline
must be a result of that group in the same unit, with ratio 1. A ratio comes
with its spread (`baseline_ratio`: reference, median, q1, q3, min, max,
rounds, ordered min <= q1 <= median <= q3 <= max). Every target names its
reference (`null` only for allocation targets), and its verdict must follow
from its ratio's quartiles and limit: met when the whole interquartile range is
within the limit, missed when it is wholly beyond, undecided otherwise; a row's
`target_verdict` combines them (missed, else undecided, else met). Exits 0
when it does, 1 with one line per problem when it does not, 2 on bad usage.
"""

import json
import math
import sys

MACHINE_FIELDS = ("cpu", "cores", "os", "swift_version", "build_configuration", "date")
NUMERIC_FIELDS = ("median", "p10", "p90", "ratio_to_baseline", "allocations_per_op")
SCHEMA_VERSION = 3
RUN_FIELDS = ("rounds", "batch_rounds", "round_nanoseconds", "seed")
RATIO_FIELDS = ("median", "q1", "q3", "min", "max")
VERDICTS = ("met", "missed", "undecided")


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


def check_ratio(name, field, ratio, reference):
    """Problems of one ratio estimate: its fields, its order, its reference."""
    if not isinstance(ratio, dict):
        return [f"{name}: '{field}' is not an object: {ratio!r}"]
    problems = []
    if ratio.get("reference") != reference:
        problems.append(f"{name}: '{field}' is relative to {ratio.get('reference')!r}, expected {reference!r}")
    values = [ratio.get(key) for key in RATIO_FIELDS]
    if not all(is_number(value) for value in values):
        return problems + [f"{name}: '{field}' needs numbers {', '.join(RATIO_FIELDS)}"]
    median, q1, q3, low, high = values
    if not low <= q1 <= median <= q3 <= high:
        problems.append(f"{name}: '{field}' is not ordered min <= q1 <= median <= q3 <= max: {values}")
    rounds = ratio.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
        problems.append(f"{name}: '{field}' rounds is not a count: {rounds!r}")
    return problems


def expected_verdict(target):
    """The verdict a target's ratio or allocation figure implies, or None when it cannot be judged."""
    ratio = target.get("ratio")
    limit = target.get("limit")
    kind = target.get("kind")
    if kind == "allocations_at_most" or not isinstance(ratio, dict) or not is_number(limit):
        return None
    q1, q3 = ratio.get("q1"), ratio.get("q3")
    if not (is_number(q1) and is_number(q3)):
        return None
    if kind == "ratio_at_most":
        return "met" if q3 <= limit else "missed" if q1 > limit else "undecided"
    if kind == "ratio_at_least":
        return "met" if q1 >= limit else "missed" if q3 < limit else "undecided"
    return None


def check_targets(name, result, scenario, found):
    """Problems of a result's targets: references, ratios and verdicts that follow from them."""
    problems = []
    targets = result.get("targets")
    if not isinstance(targets, list):
        return [f"{name}: 'targets' is not an array"]
    verdicts = []
    for index, target in enumerate(targets):
        label = f"{name}: targets[{index}]"
        if not isinstance(target, dict):
            problems.append(f"{label} is not an object")
            continue
        verdict = target.get("verdict")
        if verdict not in VERDICTS + (None,):
            problems.append(f"{label}: verdict {verdict!r} is not met, missed, undecided or null")
        verdicts.append(verdict)
        reference = target.get("reference")
        if target.get("kind") == "allocations_at_most":
            if reference is not None:
                problems.append(f"{label}: an allocation target with a reference")
            continue
        if not isinstance(reference, str):
            problems.append(f"{label}: a ratio target without a reference")
            continue
        if (scenario, reference) not in found:
            problems.append(f"{label}: its reference {reference!r} is not a result of {scenario!r}")
        if target.get("ratio") is not None:
            problems += check_ratio(label, "ratio", target.get("ratio"), reference)
        implied = expected_verdict(target)
        if implied is not None and verdict != implied:
            problems.append(f"{label}: verdict {verdict!r}, but its ratio's quartiles and limit say {implied!r}")
    if targets and "target" in result:
        if None in verdicts:
            combined = None
        elif "missed" in verdicts:
            combined = "missed"
        elif "undecided" in verdicts:
            combined = "undecided"
        else:
            combined = "met"
        if result.get("target_verdict") != combined:
            problems.append(f"{name}: target_verdict {result.get('target_verdict')!r}, its targets say {combined!r}")
    return problems


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
    counts = ("met", "missed", "undecided", "judged")
    if not isinstance(summary, dict) or not all(
        is_number(summary.get(f"{kind}_{count}")) for kind in ("product_targets", "harness_checks") for count in counts
    ):
        problems.append("missing 'summary' object with met, missed, undecided and judged target counts")
    else:
        for kind in ("product_targets", "harness_checks"):
            parts = sum(summary[f"{kind}_{count}"] for count in counts[:3])
            if parts != summary[f"{kind}_judged"]:
                problems.append(f"summary: {kind} met + missed + undecided is {parts}, not {summary[f'{kind}_judged']}")
    run = report.get("run")
    if not isinstance(run, dict):
        problems.append("missing 'run' object")
    else:
        for field in RUN_FIELDS:
            if not is_number(run.get(field)):
                problems.append(f"run: '{field}' is not a number: {run.get(field)!r}")
        if not isinstance(run.get("method"), str) or not run.get("method"):
            problems.append("run: missing 'method'")
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
        spread = result.get("baseline_ratio")
        if result.get("ratio_to_baseline") is None:
            if spread is not None:
                problems.append(f"{name}: a 'baseline_ratio' without a 'ratio_to_baseline'")
        else:
            problems += check_ratio(name, "baseline_ratio", spread, group.get("baseline"))
            if isinstance(spread, dict) and spread.get("median") != result.get("ratio_to_baseline"):
                problems.append(f"{name}: 'ratio_to_baseline' is not the median of 'baseline_ratio'")
        problems += check_targets(name, result, scenario, found)

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
        f"check-bench-json: {report_path}: schema {SCHEMA_VERSION}, machine, run, noise ({report['noise']['verdict']}) and"
        f" {len(expected)} expected variants present; {report['summary'].get('line', '')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
