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

  @Test func schemaVersionIsThree() throws {
    #expect(try decode()["schema_version"] as? Int == 3)
  }

  @Test func runBlockSaysHowRatiosWereMeasured() throws {
    let run = try #require(try decode()["run"] as? [String: Any])
    #expect(run["rounds"] as? Int == Fixtures.tiny.roundCount)
    #expect(run["batch_rounds"] as? Int == Fixtures.tiny.batchRoundCount)
    #expect(run["round_nanoseconds"] as? Int == Int(Fixtures.tiny.roundNanoseconds))
    #expect(run["seed"] as? Int == Int(BenchConfiguration.defaultPairingSeed))
    #expect((run["method"] as? String)?.contains("interquartile range") == true)
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
    #expect(results.count == 6)
    for result in results {
      for key in [
        "scenario", "variant", "group", "group_baseline", "baseline", "kind", "median", "p10", "p90", "unit", "better",
        "ratio_to_baseline", "baseline_ratio", "allocations_per_op", "spread", "noisy", "repeats", "targets",
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
    #expect(fast["target_verdict"] as? String == "met")
    let spread = try #require(fast["baseline_ratio"] as? [String: Any])
    #expect(spread["reference"] as? String == "base")
    #expect(spread["median"] as? Double == 1.1)
    #expect(abs((spread["q1"] as? Double ?? 0) - 1.08) < 1e-12)
    #expect(abs((spread["q3"] as? Double ?? 0) - 1.12) < 1e-12)
    #expect(spread["rounds"] as? Int == 11)
    let targets = try #require(fast["targets"] as? [[String: Any]])
    #expect(targets.first?["kind"] as? String == "ratio_at_most")
    #expect(targets.first?["limit"] as? Double == 1.25)
    #expect(targets.first?["reference"] as? String == "base")
    #expect(targets.first?["verdict"] as? String == "met")
    #expect((targets.first?["ratio"] as? [String: Any])?["median"] as? Double == 1.1)
    let close = try #require(results.first { $0["variant"] as? String == "close" })
    #expect(close["target_verdict"] as? String == "undecided")
    let base = try #require(results.first { $0["variant"] as? String == "base" })
    #expect(base["target"] == nil)
    #expect(base["baseline"] as? Bool == true)
    let slow = try #require(results.first { $0["variant"] as? String == "slow" })
    #expect(slow["noisy"] as? Bool == true)
    #expect(slow["target_verdict"] as? String == "missed")
  }

  @Test func aTargetNamingAnotherVariantIsJudgedByTheRatioToThatVariant() throws {
    let results = try #require(try decode()["results"] as? [[String: Any]])
    let generated = try #require(results.first { $0["variant"] as? String == "generated" })
    let target = try #require((generated["targets"] as? [[String: Any]])?.first)
    #expect(target["reference"] as? String == "fast")
    #expect(target["label"] as? String == "≤1.05× fast")
    let ratio = try #require(target["ratio"] as? [String: Any])
    #expect(ratio["reference"] as? String == "fast")
    #expect(ratio["median"] as? Double == 1.02)
    #expect(target["verdict"] as? String == "met")
    // Its ratio to the group baseline is reported too, and is not what the target judges.
    #expect(generated["ratio_to_baseline"] as? Double == 1.12)
  }

  @Test func summaryCountsProductTargetsApartFromHarnessChecks() throws {
    let summary = try #require(try decode()["summary"] as? [String: Any])
    #expect(summary["product_targets_met"] as? Int == 2)
    #expect(summary["product_targets_missed"] as? Int == 1)
    #expect(summary["product_targets_undecided"] as? Int == 1)
    #expect(summary["product_targets_judged"] as? Int == 4)
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
    #expect(markdown.contains("| 1.10× (1.08–1.12) | 0.00 | ≤1.25× base | met |"))
    #expect(markdown.contains("≤2× base | **missed** |"))
    #expect(markdown.contains("| 1.24× (1.21–1.27) | 0.00 | ≤1.25× base | undecided |"))
    #expect(markdown.contains("| ≤1.05× fast | met; ≤1.05× fast: 1.02× (1.00–1.04) |"))
    #expect(markdown.contains("`slow` ≈noisy"))
    #expect(
      markdown.contains(
        "Product targets: 2 met, 1 missed, 1 undecided of 4 (harness self-checks apart: 1 met of 1)"))
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
    #expect(svg.components(separatedBy: "<title>").count - 1 == 6)
    #expect(svg.contains("later"))
  }

  @Test func legendExplainsColoursWhiskersScaleAndNoise() {
    let svg = SVGChart.render(Fixtures.report())
    for phrase in [
      "group baseline", "target met", "target missed", "target undecided", "no target", "whisker: p10–p90",
      "log scale", "≈noisy",
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
    #expect(table.contains(" 1.08–1.12 "))
    #expect(table.contains("  generated over fast: 1.02× (IQR 1.00–1.04), target ≤1.05× fast: met"))
    for verdict in ["met", "missed", "undecided"] {
      #expect(table.contains(" \(verdict)"), "no \(verdict)")
    }
    #expect(
      table.contains(
        "product targets: 2 met, 1 missed, 1 undecided of 4; harness self-checks: 1 met, 0 missed, 0 undecided of 1;"
          + " noise: noisy"))
    #expect(table.contains("ratios: each ratio is the median of 5 paired rounds"))
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
  @Test func ratioTargetsAreJudgedOnTheInterquartileRange() {
    let target = PerformanceTarget.ratioToBaselineAtMost(1.25)
    #expect(target.verdict(ratio: Fixtures.estimate(1.15), allocationsPerOperation: 0) == .met)
    #expect(target.verdict(ratio: Fixtures.estimate(1.35), allocationsPerOperation: 0) == .missed)
    // The median meets the limit but the upper quartile does not: the run cannot tell.
    #expect(target.verdict(ratio: Fixtures.estimate(1.24, halfSpread: 0.03), allocationsPerOperation: 0) == .undecided)
    // The median misses it but the lower quartile does not.
    #expect(target.verdict(ratio: Fixtures.estimate(1.26, halfSpread: 0.03), allocationsPerOperation: 0) == .undecided)
    #expect(target.verdict(ratio: nil, allocationsPerOperation: 0) == nil)
    #expect(target.label == "≤1.25× base")
    let rate = PerformanceTarget.ratioToBaselineAtLeast(0.5)
    #expect(rate.verdict(ratio: Fixtures.estimate(0.6), allocationsPerOperation: nil) == .met)
    #expect(rate.verdict(ratio: Fixtures.estimate(0.4), allocationsPerOperation: nil) == .missed)
    #expect(rate.verdict(ratio: Fixtures.estimate(0.5, halfSpread: 0.05), allocationsPerOperation: nil) == .undecided)
    #expect(rate.label == "≥0.5× base")
  }

  @Test func aTargetMayNameAnotherVariant() {
    let target = PerformanceTarget.ratioToVariantAtMost("proxy", 1.05)
    #expect(target.label == "≤1.05× proxy")
    #expect(target.kind == "ratio_at_most")
    #expect(target.referenceVariant == "proxy")
    #expect(target.reference(groupBaseline: "direct") == "proxy")
    #expect(PerformanceTarget.ratioToBaselineAtMost(2).reference(groupBaseline: "direct") == "direct")
    #expect(PerformanceTarget.allocationsPerOperationAtMost(0).reference(groupBaseline: "direct") == nil)
    // A result judges it by its ratio to that variant, not by its ratio to the group baseline.
    let result = Fixtures.result(
      "generated", median: 10, ratio: 2, variantRatios: [Fixtures.estimate(1.01, reference: "proxy")],
      targets: [target])
    #expect(result.ratio(for: target)?.reference == "proxy")
    #expect(result.targetVerdict == .met)
    let unmeasured = Fixtures.result("generated", median: 10, ratio: 1, targets: [target])
    #expect(unmeasured.targetVerdict == nil)
  }

  @Test func allocationTargets() {
    let none = PerformanceTarget.allocationsPerOperationAtMost(0)
    #expect(none.verdict(ratio: nil, allocationsPerOperation: 0.001) == .met)
    #expect(none.verdict(ratio: nil, allocationsPerOperation: 1) == .missed)
    #expect(none.verdict(ratio: nil, allocationsPerOperation: nil) == nil)
    #expect(none.label == "0 allocs")
  }

  @Test(arguments: [
    ([TargetVerdict.met, .met], TargetVerdict.met), ([.met, .undecided], .undecided), ([.undecided, .missed], .missed),
    ([.missed, .met], .missed),
  ])
  func aRowsVerdictCombinesItsTargets(verdicts: [TargetVerdict], expected: TargetVerdict) {
    #expect(TargetVerdict.combining(verdicts) == expected)
  }
}
