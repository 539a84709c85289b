import ProxyBenchHarness
import Testing

@Suite struct BenchOptionsTests {
  @Test func defaultsWriteToBenchResults() throws {
    let options = try BenchOptions.parse([])
    #expect(options.quick == false)
    #expect(options.filters.isEmpty)
    #expect(options.jsonPath == "bench-results/results.json")
    #expect(options.svgPath == "bench-results/results.svg")
    #expect(options.configuration == .full)
  }

  @Test func parsesEveryOption() throws {
    let options = try BenchOptions.parse([
      "--quick", "--filter", "harness", "--filter=dispatch-model/send", "--json", "a.json", "--svg=b.svg",
      "--repeat", "3", "--markdown", "t.md",
    ])
    #expect(options.repeats == 3)
    #expect(options.markdownPath == "t.md")
    #expect(options.quick)
    #expect(options.configuration == .quick)
    #expect(options.filters == ["harness", "dispatch-model/send"])
    #expect(options.jsonPath == "a.json")
    #expect(options.svgPath == "b.svg")
  }

  @Test(arguments: [["--help"], ["-h"]])
  func helpFlag(arguments: [String]) throws {
    #expect(try BenchOptions.parse(arguments).showHelp)
  }

  @Test func listFlag() throws {
    #expect(try BenchOptions.parse(["--list"]).listOnly)
  }

  @Test func unknownOptionThrows() {
    #expect(throws: ProxyBenchError.unknownOption(option: "--fast")) { try BenchOptions.parse(["--fast"]) }
    #expect(throws: ProxyBenchError.unknownOption(option: "--quick=yes")) { try BenchOptions.parse(["--quick=yes"]) }
  }

  @Test func missingValueThrows() {
    #expect(throws: ProxyBenchError.missingValue(option: "--json")) { try BenchOptions.parse(["--json"]) }
    #expect(throws: ProxyBenchError.missingValue(option: "--filter")) {
      try BenchOptions.parse(["--filter", "--quick"])
    }
  }

  @Test func seedSetsTheOrderOfPairedRounds() throws {
    #expect(try BenchOptions.parse([]).configuration.pairingSeed == BenchConfiguration.defaultPairingSeed)
    let options = try BenchOptions.parse(["--seed", "7", "--quick"])
    #expect(options.configuration.pairingSeed == 7)
    #expect(options.configuration.roundCount == BenchConfiguration.quick.roundCount)
    #expect(throws: ProxyBenchError.badValue(option: "--seed", value: "-1")) { try BenchOptions.parse(["--seed=-1"]) }
  }

  @Test func badRepeatThrows() {
    #expect(throws: ProxyBenchError.badValue(option: "--repeat", value: "0")) { try BenchOptions.parse(["--repeat=0"]) }
    #expect(throws: ProxyBenchError.badValue(option: "--repeat", value: "x")) {
      try BenchOptions.parse(["--repeat", "x"])
    }
  }

  @Test func emptyValueThrows() {
    #expect(throws: ProxyBenchError.emptyValue(option: "--svg")) { try BenchOptions.parse(["--svg="]) }
  }

  @Test func usageNamesEveryOption() {
    for option in [
      "--quick", "--repeat", "--filter", "--json", "--svg", "--markdown", "--from-json", "--list", "--help",
    ] {
      #expect(BenchOptions.usage.contains(option))
    }
    // The variant naming is explained where a user looks first.
    #expect(BenchOptions.usage.contains("<strategy>-i<I>-c<C>"))
    #expect(BenchOptions.usage.contains("I instances spread over C classes"))
  }
}
