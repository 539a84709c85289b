import DelegateProxyKitTestSupport
import Foundation
import ProxyBenchHarness
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct JSONReportTests {
  private func decode() throws -> [String: Any] {
    let data = try JSONReport.encode(Fixtures.report())
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func schemaVersionIsTwo() throws {
    #expect(try decode()["schema_version"] as? Int == 2)
  }

  @Test func machineBlockHasEveryField() throws {
    let machine = try #require(try decode()["machine"] as? [String: Any])
    for key in ["cpu", "cores", "os", "swift_version", "build_configuration", "date", "allocation_counting"] {
      #expect(machine[key] != nil, "missing \(key)")
    }
    #expect(machine["cpu"] as? String == "Test CPU <x86>")
    #expect(machine["cores"] as? Int == 2)
  }

  @Test func resultsCarryUnitDirectionAndGroup() throws {
    let results = try #require(try decode()["results"] as? [[String: Any]])
    #expect(results.count == 4)
    for result in results {
      for key in [
        "scenario", "variant", "group", "group_baseline", "baseline", "kind", "median", "p10", "p90", "unit", "better",
        "ratio_to_baseline", "allocations_per_op", "spread", "noisy", "repeats", "targets",
      ] {
        #expect(result[key] != nil, "missing \(key)")
      }
      for key in ["median_ns", "p10_ns", "p90_ns"] { #expect(result[key] == nil, "schema 1 key \(key)") }
    }
    let fast = try #require(results.first { $0["variant"] as? String == "fast" })
    #expect(fast["median"] as? Double == 1.1)
    #expect(fast["ratio_to_baseline"] as? Double == 1.1)
    #expect(fast["unit"] as? String == "ns/op")
    #expect(fast["better"] as? String == "lower")
    #expect(fast["group"] as? String == "demo")
    #expect(fast["group_baseline"] as? String == "base")
    #expect(fast["target"] as? String == "≤1.25× base")
    #expect(fast["target_met"] as? Bool == true)
    let targets = try #require(fast["targets"] as? [[String: Any]])
    #expect(targets.first?["kind"] as? String == "ratio_at_most")
    #expect(targets.first?["limit"] as? Double == 1.25)
    let base = try #require(results.first { $0["variant"] as? String == "base" })
    #expect(base["target"] == nil)
    #expect(base["baseline"] as? Bool == true)
    let slow = try #require(results.first { $0["variant"] as? String == "slow" })
    #expect(slow["noisy"] as? Bool == true)
  }

  @Test func summaryCountsProductTargetsApartFromHarnessChecks() throws {
    let summary = try #require(try decode()["summary"] as? [String: Any])
    #expect(summary["product_targets_met"] as? Int == 1)
    #expect(summary["product_targets_judged"] as? Int == 2)
    #expect(summary["harness_checks_met"] as? Int == 1)
    #expect(summary["harness_checks_judged"] as? Int == 1)
  }

  @Test func noiseBlockHasVerdictReadingsAndThresholds() throws {
    let noise = try #require(try decode()["noise"] as? [String: Any])
    #expect(noise["verdict"] as? String == "noisy")
    #expect(noise["noisy_rows"] as? Int == 1)
    #expect(noise["other_load_during"] as? Double == 0.1)
    #expect(noise["row_spread_limit"] as? Double == NoiseCheck.rowSpreadLimit)
  }

  @Test func unknownRatioIsNullNotMissing() throws {
    var report = Fixtures.report()
    report.scenarios[0].entries = [.measured(Fixtures.result("lonely", median: 3))]
    let text = try #require(String(data: try JSONReport.encode(report), encoding: .utf8))
    #expect(text.contains("\"ratio_to_baseline\" : null"))
  }

  @Test func skippedVariantsAreListedApart() throws {
    let skipped = try #require(try decode()["skipped"] as? [[String: Any]])
    #expect(skipped.count == 1)
    #expect(skipped.first?["variant"] as? String == "later")
  }

  @Test func reportReadsBackUnchanged() throws {
    let report = Fixtures.report()
    let document = try JSONReport.decode(try JSONReport.encode(report))
    #expect(document == JSONReport.Document(report: report))
  }
}

@Suite struct MarkdownTableTests {
  @Test func tableHoldsJudgedGroupsWithBaselinesAndVerdicts() throws {
    let markdown = MarkdownTable.render(JSONReport.Document(report: Fixtures.report()))
    #expect(markdown.contains("| demo: `base` (baseline) |"))
    #expect(markdown.contains("≤1.25× base | met |"))
    #expect(markdown.contains("≤2× base | **missed** |"))
    #expect(markdown.contains("`slow` ≈noisy"))
    #expect(markdown.contains("Product targets: 1 of 2 met (harness self-checks apart: 1 of 1)"))
    #expect(markdown.contains("best of 3 per row"))
    // Harness self-checks are not in the README table.
    #expect(!markdown.contains("`check`"))
  }

  @Test func renderingFromTheJSONMatchesRenderingTheRun() throws {
    let report = Fixtures.report()
    let fromJSON = MarkdownTable.render(try JSONReport.decode(try JSONReport.encode(report)))
    #expect(fromJSON == MarkdownTable.render(JSONReport.Document(report: report)))
  }
}

@Suite struct NoiseCheckTests {
  @Test func rowSpreadIsRelativeToTheMedian() {
    #expect(NoiseCheck.relativeSpread(SampleSummary(median: 10, p10: 9, p90: 12, count: 5)) == 0.3)
    #expect(Fixtures.result("a", median: 10, spread: 0.1).isNoisy == false)
    #expect(Fixtures.result("a", median: 10, spread: 0.3).isNoisy == true)
  }

  @Test func quietRun() {
    let rows = (0..<20).map { Fixtures.result("r\($0)", median: 10, spread: 0.05) }
    let load = MachineLoad(loadAverageBefore: 0.1, otherLoadBefore: 0.1, otherLoadDuring: 0.2)
    let verdict = NoiseCheck.verdict(results: rows, load: load, cores: 2)
    #expect(!verdict.isNoisy)
    #expect(verdict.summary == "quiet")
  }

  @Test func loadOrSpreadMakesARunNoisy() {
    let rows = (0..<20).map { Fixtures.result("r\($0)", median: 10, spread: 0.05) }
    let busy = MachineLoad(loadAverageBefore: 2, otherLoadBefore: 0.1, otherLoadDuring: 0.9)
    #expect(NoiseCheck.verdict(results: rows, load: busy, cores: 2).reasons.count == 1)
    let spread = rows + (0..<3).map { Fixtures.result("n\($0)", median: 10, spread: 0.5) }
    let verdict = NoiseCheck.verdict(results: spread, load: nil, cores: 2)
    #expect(verdict.isNoisy)
    #expect(verdict.noisyRows == 3)
  }

  @Test func otherLoadSubtractsTheProcessItself() {
    let before = CPUCounters(busy: 100, total: 1_000, own: 50, cpus: 2)
    let after = CPUCounters(busy: 700, total: 2_000, own: 450, cpus: 2)
    // 600 busy ticks of 1,000, 400 of them ours: others used 200 of 1,000 ticks over 2 CPUs = 0.4 cores.
    #expect(abs(before.otherLoad(until: after) - 0.4) < 1e-12)
  }
}

@Suite struct SVGChartTests {
  @Test func documentIsWellFormedXML() throws {
    let svg = SVGChart.render(Fixtures.report())
    // Made, run and released under the lock: the parser's release frees libxml2 state too.
    let (succeeded, error) = withExclusiveXMLParsing {
      let parser = XMLParser(data: Data(svg.utf8))
      return (parser.parse(), parser.parserError)
    }
    #expect(succeeded, "parse error: \(String(describing: error))")
  }

  @Test func textIsEscaped() {
    let svg = SVGChart.render(Fixtures.report())
    #expect(svg.contains("a &amp; b &lt; c"))
    #expect(svg.contains("Test CPU &lt;x86&gt;"))
    #expect(!svg.contains("a & b"))
  }

  @Test func everyMeasuredVariantHasABarAndEverySkippedOneIsNamed() {
    let svg = SVGChart.render(Fixtures.report())
    #expect(svg.components(separatedBy: "<title>").count - 1 == 4)
    #expect(svg.contains("later"))
  }

  @Test func legendExplainsColoursWhiskersScaleAndNoise() {
    let svg = SVGChart.render(Fixtures.report())
    for phrase in [
      "group baseline", "target met", "target missed", "no target", "whisker: p10–p90", "log scale", "≈noisy",
    ] {
      #expect(svg.contains(phrase), "legend lacks \(phrase)")
    }
    #expect(svg.contains("baseline: base"))
    #expect(svg.contains("noise: noisy"))
  }

  @Test func wideRangesUseALogScale() {
    #expect(SVGChart.Scale(fitting: [1, 90]).isLogarithmic)
    #expect(!SVGChart.Scale(fitting: [1, 19]).isLogarithmic)
    let scale = SVGChart.Scale(fitting: [1, 90])
    #expect(scale.lower == 1 && scale.upper == 100)
    #expect(scale.ticks == [1, 10, 100])
    #expect(abs(scale.position(of: 10) - 0.5) < 1e-12)
  }

  @Test func linearScaleStartsAtZero() {
    let scale = SVGChart.Scale(fitting: [2, 10])
    #expect(scale.lower == 0)
    #expect(scale.position(of: 0) == 0)
    #expect(scale.position(of: 1_000) == 1)
    #expect(scale.ticks.first == 0)
  }

  @Test(arguments: [("<&>", "&lt;&amp;&gt;"), ("\"'", "&quot;&apos;"), ("plain", "plain")])
  func escape(input: String, expected: String) {
    #expect(SVGChart.escape(input) == expected)
  }
}

@Suite struct TableRendererTests {
  @Test func rowsShowFiguresRatiosAndVerdicts() {
    let table = TableRenderer.render(Fixtures.report())
    #expect(table.contains("(baseline)"))
    #expect(table.contains("≤1.25× base"))
    #expect(table.contains("PASS"))
    #expect(table.contains("MISS"))
    #expect(table.contains("product targets: 1 of 2 met; harness self-checks: 1 of 1 met; noise: noisy"))
    #expect(table.contains("How to read"))
    #expect(table.contains("noisy"))
  }

  @Test func skippedVariantsAreGroupedByNote() {
    let table = TableRenderer.render(Fixtures.report())
    #expect(table.contains("skipped, not yet available: \"soon\":"))
    #expect(table.contains("    later"))
  }

  @Test func columnsAreAligned() throws {
    let lines = TableRenderer.render(Fixtures.report().scenarios[0]).split(separator: "\n")
    let header = try #require(lines.first { $0.contains("median") })
    let row = try #require(lines.first { $0.contains("slow") })
    // Right-aligned median column: the value ends where the header word ends.
    let headerEnd = try #require(header.range(of: "median")).upperBound
    let valueEnd = try #require(row.range(of: "90.0")).upperBound
    #expect(header.distance(from: header.startIndex, to: headerEnd) == row.distance(from: row.startIndex, to: valueEnd))
  }
}

@Suite struct PerformanceTargetTests {
  @Test func ratioTargets() {
    let target = PerformanceTarget.ratioToBaselineAtMost(1.25)
    #expect(target.isMet(ratio: 1.2, allocationsPerOperation: 0) == true)
    #expect(target.isMet(ratio: 1.3, allocationsPerOperation: 0) == false)
    #expect(target.isMet(ratio: nil, allocationsPerOperation: 0) == nil)
    #expect(target.label == "≤1.25× base")
    let rate = PerformanceTarget.ratioToBaselineAtLeast(0.5)
    #expect(rate.isMet(ratio: 0.6, allocationsPerOperation: nil) == true)
    #expect(rate.isMet(ratio: 0.4, allocationsPerOperation: nil) == false)
    #expect(rate.label == "≥0.5× base")
  }

  @Test func allocationTargets() {
    #expect(PerformanceTarget.allocationsPerOperationAtMost(0).isMet(ratio: 1, allocationsPerOperation: 0.001) == true)
    #expect(PerformanceTarget.allocationsPerOperationAtMost(0).isMet(ratio: 1, allocationsPerOperation: 1) == false)
    #expect(PerformanceTarget.allocationsPerOperationAtMost(0).label == "0 allocs")
  }
}
