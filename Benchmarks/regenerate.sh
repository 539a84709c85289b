#!/usr/bin/env bash
# Regenerates Benchmarks/ and the table of the DocC article Performance from ONE full run of proxy-bench.
#
# Usage: bash Benchmarks/regenerate.sh [REPEAT]     (REPEAT defaults to 3: best of 3 per row)
#
# Writes Benchmarks/proxy-bench.txt (the printed table), .json (schema 3), .svg (the chart) and
# .md (the table), then replaces the table in Sources/DelegateProxyKit/DelegateProxyKit.docc/Performance.md between the proxy-bench markers with
# the .md. CI (.ci/run) renders the table again from the committed JSON and fails when the article
# differs, so no figure in the table can be edited by hand. The prose around the table is not
# generated: reread it against the new .txt after a run.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat="${1:-3}"
swift build -c release --product proxy-bench
swift run -c release --skip-build proxy-bench --repeat "$repeat" \
  --json Benchmarks/proxy-bench.json --svg Benchmarks/proxy-bench.svg --markdown Benchmarks/proxy-bench.md \
  | tee Benchmarks/proxy-bench.txt
python3 Benchmarks/readme-table.py --write Sources/DelegateProxyKit/DelegateProxyKit.docc/Performance.md Benchmarks/proxy-bench.md
