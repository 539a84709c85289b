#!/usr/bin/env python3
"""Prints the README's Performance table from one proxy-bench JSON report.

Usage: readme-table.py <results.json>            print the table
       readme-table.py <results.json> --check README.md
                                                 fail if README's table differs

The README holds the table between the markers below; the figures come from the
tool's JSON, never typed by hand.
"""
import json
import sys

BEGIN = "<!-- proxy-bench table: begin -->"
END = "<!-- proxy-bench table: end -->"

# (scenario, variant) rows in README order; everything else stays in the full report.
ROWS = [
    ("typed-forwarding", "direct"),
    ("typed-forwarding", "proxy"),
    ("typed-forwarding", "proxy-after-hook"),
    ("typed-forwarding", "proxy-invocation-hook"),
    ("typed-forwarding", "chain-3"),
    ("typed-forwarding", "autotrack-memory"),
    ("async-forwarding", "direct"),
    ("async-forwarding", "proxy"),
    ("async-forwarding", "proxy-after-hook"),
    ("dispatch-model", "send"),
    ("dispatch-model", "wrapping"),
    ("dispatch-model", "subclass"),
    ("dispatch-model", "proxy-forwarding-target"),
    ("dispatch-model", "proxy-forward-invocation"),
]


def figure(value):
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def allocations(value):
    if value is None:
        return ""
    return "0" if value < 0.005 else f"{value:.2f}"


def table(report):
    results = {(r["scenario"], r["variant"]): r for r in report["results"]}
    lines = [
        "| scenario / variant | median | × baseline | allocs/op | target |",
        "| --- | --- | --- | --- | --- |",
    ]
    for key in ROWS:
        row = results.get(key)
        if row is None:
            continue
        name = f"{key[0]} / {key[1]}" + (" (baseline)" if row.get("baseline") else "")
        ratio = row.get("ratio_to_baseline")
        allocs = row.get("allocations_per_op")
        target = row.get("target") or ""
        if target:
            target += ": met" if row.get("target_met") else ": **missed**"
        lines.append(
            f"| {name} | {figure(row['median_ns'])} {row['unit']} | "
            f"{'' if ratio is None else f'{ratio:.2f}'} | {allocations(allocs)} | {target} |"
        )
    return "\n".join(lines) + "\n"


def main():
    report = json.load(open(sys.argv[1]))
    generated = table(report)
    if len(sys.argv) == 4 and sys.argv[2] == "--check":
        text = open(sys.argv[3]).read()
        try:
            current = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"
        except IndexError:
            sys.exit(f"{sys.argv[3]}: no proxy-bench table markers")
        if current != generated:
            sys.exit(f"{sys.argv[3]}: the Performance table differs from {sys.argv[1]}; regenerate it")
        print(f"{sys.argv[3]}: Performance table matches {sys.argv[1]}")
    else:
        sys.stdout.write(generated)


main()
