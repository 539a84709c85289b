/// The parsed command line of `proxy-bench`.
///
/// ```swift
/// let options = try BenchOptions.parse(["--quick", "--filter", "harness", "--json", "out.json"])
/// // options.quick == true, options.filters == ["harness"], options.jsonPath == "out.json"
/// ```
package struct BenchOptions: Equatable, Sendable {
  /// Where the JSON report goes when `--json` is not given.
  package static let defaultJSONPath = "bench-results/results.json"
  /// Where the SVG chart goes when `--svg` is not given.
  package static let defaultSVGPath = "bench-results/results.svg"

  /// `--quick`: short samples for CI.
  package var quick = false
  /// `--filter` patterns, in order.
  package var filters: [String] = []
  /// `--json PATH`.
  package var jsonPath = BenchOptions.defaultJSONPath
  /// `--svg PATH`.
  package var svgPath = BenchOptions.defaultSVGPath
  /// `--list`: print the scenario and variant ids and stop.
  package var listOnly = false
  /// `--help`: print usage and stop.
  package var showHelp = false
  /// `--repeat N`: measure each variant N times and keep the best.
  package var repeats = 1
  /// `--markdown PATH`: also write the README's Performance table there.
  package var markdownPath: String?
  /// `--from-json PATH`: measure nothing; read this report and write only `--markdown`.
  package var fromJSONPath: String?
  /// `--seed N`: seeds the order of each paired round's two sides.
  package var seed = BenchConfiguration.defaultPairingSeed

  /// Options with every default.
  package init() {}

  /// The configuration the options ask for.
  package var configuration: BenchConfiguration {
    var configuration = quick ? BenchConfiguration.quick : .full
    configuration.pairingSeed = seed
    return configuration
  }

  /// The usage text printed by `--help`.
  package static let usage = """
    USAGE: proxy-bench [--quick] [--repeat N] [--seed N] [--filter PATTERN]... [--json PATH] [--svg PATH]
                       [--markdown PATH] [--list] [--help]
           proxy-bench --from-json REPORT.json --markdown PATH

    Measures delegate forwarding, the capture strategies and AutoTrack side by side,
    prints a table grouped by scenario, and writes a JSON report and an SVG chart.

    OPTIONS:
      --quick           Short warm-up and few, short samples (the whole run takes seconds; for CI).
      --repeat N        Measure every variant N times and keep the best (lowest median for a cost,
                        highest for a rate), against a busy machine; a ratio pools the paired
                        rounds of all N. Default 1.
      --seed N          Seed the order of the two sides of each paired round (default \(BenchConfiguration.defaultPairingSeed)).
      --filter PATTERN  Measure only matching variants: PATTERN is a scenario id, or a substring of
                        'scenario/variant'. Repeat to combine. Each group's baseline always runs.
      --json PATH       Write the JSON report (schema \(JSONReport.schemaVersion)) to PATH (default: \(defaultJSONPath)).
      --svg PATH        Write the SVG chart to PATH (default: \(defaultSVGPath)).
      --markdown PATH   Also write the README's Performance table (Markdown) to PATH.
      --from-json PATH  Measure nothing: read a JSON report written by this tool and write the
                        --markdown table from it (CI checks the README this way).
      --list            Print every 'scenario/variant' id with its group and baseline, and exit.
      -h, --help        Print this help and exit.

    READING THE OUTPUT:
      Variants are compared in groups; each group names its baseline, and '×base' is a variant's
      cost over its group baseline's, in the same unit and the same run. A timed variant runs in
      short rounds alternating with its baseline (the order within a round drawn from --seed); its
      ratio is the median of the per-round ratios, with their interquartile range (IQR). A target
      is met or missed when the IQR lies wholly on one side of its limit, undecided when the IQR
      straddles it. Rate batches (events/s) pair the same way, the ratio being of rates. Custom
      measurements (memory, async) are compared unpaired: the ratio of two medians. For a cost (ns/op, bytes/instance) lower is better; for a rate (events/s) higher
      is better. Targets are ratios or allocation counts, never absolute times. A target may name
      another variant ('≤1.05× proxy'). Variant names encode their parameters:
        <strategy>-i<I>-c<C>   install on I instances spread over C classes (install)
        memory-<...>           heap bytes retained per installed instance (install)
        <kind>-<N>             N hooks or handlers installed (hook-count)
        element-<what>-<D>     a view nested D levels deep (autotrack)
        chain-<N>              N proxies stacked on one delegate slot (typed-forwarding)
      Noise: \(NoiseCheck.thresholds). Noisy rows and runs are marked, never hidden.

    Build with -c release for meaningful figures: swift run -c release proxy-bench
    """

  /// Parses arguments (without the program name).
  ///
  /// Options that take a value accept it as the next argument or after `=`.
  ///
  /// - Parameter arguments: The arguments.
  /// - Returns: The options.
  /// - Throws: ``ProxyBenchError/unknownOption(option:)``, ``ProxyBenchError/missingValue(option:)``,
  ///   ``ProxyBenchError/emptyValue(option:)`` or ``ProxyBenchError/badValue(option:value:)``.
  package static func parse(_ arguments: [String]) throws(ProxyBenchError) -> BenchOptions {
    var options = BenchOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      func value() throws(ProxyBenchError) -> String {
        if inlineValue == nil, remaining.first?.hasPrefix("--") == true { throw .missingValue(option: name) }
        guard let text = inlineValue ?? remaining.popFirst() else { throw .missingValue(option: name) }
        guard !text.isEmpty else { throw .emptyValue(option: name) }
        return text
      }
      switch name {
      case "--quick" where inlineValue == nil: options.quick = true
      case "--list" where inlineValue == nil: options.listOnly = true
      case "--help" where inlineValue == nil, "-h": options.showHelp = true
      case "--filter": options.filters.append(try value())
      case "--json": options.jsonPath = try value()
      case "--svg": options.svgPath = try value()
      case "--markdown": options.markdownPath = try value()
      case "--from-json": options.fromJSONPath = try value()
      case "--seed":
        let text = try value()
        guard let seed = UInt64(text) else { throw .badValue(option: name, value: text) }
        options.seed = seed
      case "--repeat":
        let text = try value()
        guard let count = Int(text), (1...100).contains(count) else { throw .badValue(option: name, value: text) }
        options.repeats = count
      default: throw .unknownOption(option: argument)
      }
    }
    return options
  }
}
