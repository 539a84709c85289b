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

  @Test func machineBlockHasEveryField() throws {
    let machine = try #require(try decode()["machine"] as? [String: Any])
    for key in ["cpu", "cores", "os", "swift_version", "build_configuration", "date", "allocation_counting"] {
      #expect(machine[key] != nil, "missing \(key)")
    }
    #expect(machine["cpu"] as? String == "Test CPU <x86>")
    #expect(machine["cores"] as? Int == 2)
  }

  @Test func resultsHaveTheDocumentedKeys() throws {
    let results = try #require(try decode()["results"] as? [[String: Any]])
    #expect(results.count == 3)
    for result in results {
      for key in [
        "scenario", "variant", "median_ns", "p10_ns", "p90_ns", "ratio_to_baseline", "allocations_per_op", "unit",
      ] {
        #expect(result[key] != nil, "missing \(key)")
      }
    }
    let fast = try #require(results.first { $0["variant"] as? String == "fast" })
    #expect(fast["median_ns"] as? Double == 1.1)
    #expect(fast["ratio_to_baseline"] as? Double == 1.1)
    #expect(fast["unit"] as? String == "ns/op")
    #expect(fast["target"] as? String == "≤1.25×")
    #expect(fast["target_met"] as? Bool == true)
    let base = try #require(results.first { $0["variant"] as? String == "base" })
    #expect(base["target"] == nil)
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
}

@Suite struct SVGChartTests {
  @Test func documentIsWellFormedXML() throws {
    let svg = SVGChart.render(Fixtures.report())
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "parse error: \(String(describing: parser.parserError))")
  }

  @Test func textIsEscaped() {
    let svg = SVGChart.render(Fixtures.report())
    #expect(svg.contains("a &amp; b &lt; c"))
    #expect(svg.contains("Test CPU &lt;x86&gt;"))
    #expect(!svg.contains("a & b"))
  }

  @Test func everyMeasuredVariantHasABarAndEverySkippedOneIsNamed() {
    let svg = SVGChart.render(Fixtures.report())
    #expect(svg.components(separatedBy: "<title>").count - 1 == 3)
    #expect(svg.contains("later"))
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
    #expect(table.contains("base (baseline)"))
    #expect(table.contains("≤1.25×"))
    #expect(table.contains("PASS"))
    #expect(table.contains("MISS"))
    #expect(table.contains("targets: 1 of 2 met"))
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
  @Test func ratioTarget() {
    let target = PerformanceTarget.ratioToBaselineAtMost(1.25)
    #expect(target.isMet(median: 5, ratio: 1.2, allocationsPerOperation: 0) == true)
    #expect(target.isMet(median: 5, ratio: 1.3, allocationsPerOperation: 0) == false)
    #expect(target.isMet(median: 5, ratio: nil, allocationsPerOperation: 0) == nil)
    #expect(target.label(unit: .nanosecondsPerOperation) == "≤1.25×")
  }

  @Test func absoluteAndAllocationTargets() {
    #expect(PerformanceTarget.medianAtMost(15).isMet(median: 14, ratio: nil, allocationsPerOperation: nil) == true)
    #expect(PerformanceTarget.medianAtLeast(1e6).isMet(median: 5e5, ratio: nil, allocationsPerOperation: nil) == false)
    #expect(
      PerformanceTarget.allocationsPerOperationAtMost(0).isMet(median: 1, ratio: 1, allocationsPerOperation: 0.001)
        == true)
    #expect(
      PerformanceTarget.allocationsPerOperationAtMost(0).isMet(median: 1, ratio: 1, allocationsPerOperation: 1) == false
    )
    #expect(PerformanceTarget.medianAtMost(15).label(unit: .nanosecondsPerOperation) == "≤15 ns/op")
    #expect(PerformanceTarget.allocationsPerOperationAtMost(0).label(unit: .nanosecondsPerOperation) == "0 allocs")
  }
}
