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

  /// Options with every default.
  package init() {}

  /// The configuration the options ask for.
  package var configuration: BenchConfiguration { quick ? .quick : .full }

  /// The usage text printed by `--help`.
  package static let usage = """
    USAGE: proxy-bench [--quick] [--filter PATTERN]... [--json PATH] [--svg PATH] [--list] [--help]

    Measures delegate forwarding, the capture strategies and AutoTrack side by side,
    prints a table grouped by scenario, and writes a JSON report and an SVG chart.

    OPTIONS:
      --quick           Short warm-up and few, short samples (the whole run takes seconds; for CI).
      --filter PATTERN  Measure only matching variants: PATTERN is a scenario id, or a substring of
                        'scenario/variant'. Repeat to combine. The scenario's baseline always runs.
      --json PATH       Write the JSON report to PATH (default: \(defaultJSONPath)).
      --svg PATH        Write the SVG chart to PATH (default: \(defaultSVGPath)).
      --list            Print every 'scenario/variant' id, with availability, and exit.
      -h, --help        Print this help and exit.

    Build with -c release for meaningful figures: swift run -c release proxy-bench
    """

  /// Parses arguments (without the program name).
  ///
  /// Options that take a value accept it as the next argument or after `=`.
  ///
  /// - Parameter arguments: The arguments.
  /// - Returns: The options.
  /// - Throws: ``ProxyBenchError/unknownOption(option:)``, ``ProxyBenchError/missingValue(option:)``
  ///   or ``ProxyBenchError/emptyValue(option:)``.
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
      default: throw .unknownOption(option: argument)
      }
    }
    return options
  }
}
